import ExamplesCatalogue
import Foundation

// `examples` — the catalogue of the source books' examples.
//
//   examples                     run every example, in book order
//   examples list [WORD]         list the examples (slug, title, [book, section]); with WORD,
//                                only those whose slug, title, source or operators contain it
//   examples NAME|WORD...        run the named examples; a word that is not a slug runs every
//                                example it matches (`examples debounce`)
//   ... --marbles                after each example that has them, draw its inputs and output as
//                                aligned marble diagrams recorded on virtual time (for an example
//                                about a time operator without its own, the operator's demo);
//                                alone, run every example that has marble diagrams
//
// Timers, delays and debounces run on a virtual clock, so the whole catalogue takes seconds;
// only the examples about real threads, queues and URL sessions wait on real time.

/// Whether the last text written ended a line (so examples are separated by one blank line even
/// when one ends mid-line, as `scan`'s `print(_, terminator: " ")` does).
nonisolated(unsafe) var atLineStart = true

/// Writes straight to standard output, unbuffered, so the output interleaves correctly with
/// anything the examples' libraries print.
func emit(_ text: String) {
    guard !text.isEmpty else { return }
    FileHandle.standardOutput.write(Data(text.utf8))
    atLineStart = text.hasSuffix("\n")
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("examples: \(message)\n".utf8))
    exit(2)
}

let usage = """
    usage: examples [NAME|WORD...] [--marbles]
           examples list [WORD...]

      examples               run every example of the books, in book order
      examples NAME          run the example with that slug (see `examples list`)
      examples WORD          run every example whose slug, title, book or operators contain WORD
                             (`examples debounce`, `examples "kodeco ch. 11"`)
      examples list [WORD]   list the examples: slug, title, [book, section]
      --marbles              after each example about a time operator, draw its inputs and output
                             as marble diagrams recorded on virtual time

    """

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["help"] || arguments.contains("--help") || arguments.contains("-h") {
    emit(usage)
    exit(0)
}
let drawMarbles = arguments.contains("--marbles")
arguments.removeAll { $0 == "--marbles" }
if let unknown = arguments.first(where: { $0.hasPrefix("--") }) {
    fail("unknown option '\(unknown)' (see `examples --help`)")
}

if arguments.first == "list" {
    let words = arguments.dropFirst()
    let listed = words.isEmpty
        ? Catalogue.all
        : Catalogue.all.filter { example in words.allSatisfy { example.matches($0) } }
    guard !listed.isEmpty else {
        fail("no example matches '\(words.joined(separator: " "))' (see `examples list`)")
    }
    for example in listed {
        let slug = example.slug.padding(toLength: 26, withPad: " ", startingAt: 0)
        emit("\(slug) \(example.title)  [\(example.source)]\n")
    }
    exit(0)
}

var selected: [Example] = []
if arguments.isEmpty {
    selected = drawMarbles ? Catalogue.all.filter { Catalogue.marbleChart(for: $0) != nil } : Catalogue.all
} else {
    for word in arguments {
        let found = Catalogue.examples(matching: word)
        guard !found.isEmpty else {
            fail("no example named or matching '\(word)' (see `examples list`)")
        }
        for example in found where !selected.contains(where: { $0.slug == example.slug }) {
            selected.append(example)
        }
    }
}

var allFinished = true
var drewMarbles = false
for (index, example) in selected.enumerated() {
    if !atLineStart { emit("\n") }
    if index > 0 { emit("\n") }
    if !ExampleRunner.run(example, write: emit) {
        FileHandle.standardError.write(Data("examples: '\(example.slug)' did not finish in time\n".utf8))
        allFinished = false
    }
    if drawMarbles, let (slug, chart) = Catalogue.marbleChart(for: example) {
        if !atLineStart { emit("\n") }
        emit("\n")
        if slug != example.slug { emit("The operator's marble demo (`examples \(slug)`):\n") }
        emit(chart.description)
        drewMarbles = true
    }
}
if drawMarbles, !drewMarbles {
    FileHandle.standardError.write(Data(
        "examples: no marble diagrams for these examples (`examples --marbles` runs the ones that have them)\n".utf8))
}
exit(allFinished ? 0 : 1)
