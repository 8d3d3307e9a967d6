import ExamplesCatalogue
import Foundation

// `examples` — the catalogue of the source books' examples.
//
//   examples                     run every example, in book order
//   examples NAME|WORD...        run the examples the words stand for: a word that is a slug
//                                names one example, any other word matches every example whose
//                                slug, title, source or operators contain it (`examples debounce`)
//   examples list [NAME|WORD...] list the examples (slug, mark, title, [book, section]); with
//                                words, the same examples that `examples WORD...` would run
//   ... --marbles                after each example about time, draw its own inputs and output
//                                as aligned marble diagrams recorded on virtual time; alone, run
//                                every example that draws them
//
// When more than one example runs, each is preceded by the command that runs it alone.
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
           examples list [NAME|WORD...]

      examples               run every example of the books, in book order
      examples NAME          run the example with that slug (see `examples list`)
      examples WORD          run every example whose slug, title, book or operators contain WORD
                             (`examples debounce`, `examples "kodeco ch. 11"`); several words run
                             what each stands for, in their order
      examples list [WORD]   list the examples: slug, mark, title, [book, section]; with words,
                             the examples `examples WORD...` would run
      --marbles              after each example about time, draw its own inputs and output as
                             marble diagrams recorded on virtual time; alone, run every example
                             that draws them

    An example whose output differs from its book's text says so in a note after its output
    (marked ≠ in the list); one whose book prints no output is marked ∅.

    """

/// The mark `examples list` shows between the slug and the title.
func mark(_ example: Example) -> String {
    if example.book.note != nil { return "≠" }
    if case .notPrinted = example.book { return "∅" }
    return " "
}

let legend = """

    ≠ prints a note after its output: what differs from the book's text, and why
    ∅ the book prints no output for this code; the example prints what the code prints

    """

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["help"] || arguments.contains("--help") || arguments.contains("-h") {
    emit(usage)
    exit(0)
}

if arguments.first == "list" {
    let words = Array(arguments.dropFirst())
    if let option = words.first(where: { $0.hasPrefix("--") }) {
        fail("unknown option '\(option)' for `examples list` (see `examples --help`)")
    }
    let (matched, unmatched) = Catalogue.examples(matching: words)
    if let word = unmatched.first {
        fail("no example named or matching '\(word)' (see `examples list`)")
    }
    let listed = words.isEmpty ? Catalogue.all : matched
    for example in listed {
        let slug = example.slug.padding(toLength: 26, withPad: " ", startingAt: 0)
        emit("\(slug) \(mark(example)) \(example.title)  [\(example.source)]\n")
    }
    if listed.contains(where: { mark($0) != " " }) { emit(legend) }
    exit(0)
}

let drawMarbles = arguments.contains("--marbles")
arguments.removeAll { $0 == "--marbles" }
if let unknown = arguments.first(where: { $0.hasPrefix("--") }) {
    fail("unknown option '\(unknown)' (see `examples --help`)")
}

let selected: [Example]
if arguments.isEmpty {
    selected = drawMarbles ? Catalogue.all.filter(\.drawsMarbles) : Catalogue.all
} else {
    let (matched, unmatched) = Catalogue.examples(matching: arguments)
    if let word = unmatched.first {
        fail("no example named or matching '\(word)' (see `examples list`)")
    }
    selected = matched
}

var allFinished = true
var drewMarbles = false
for (index, example) in selected.enumerated() {
    if !atLineStart { emit("\n") }
    if index > 0 { emit("\n") }
    if selected.count > 1 { emit("$ swift run examples \(example.slug)\n") }
    let outcome = ExampleRunner.run(example, write: emit)
    if !outcome.finished {
        FileHandle.standardError.write(Data("examples: '\(example.slug)' did not finish in time\n".utf8))
        allFinished = false
    }
    if drawMarbles, let chart = outcome.marbleChart {
        if !atLineStart { emit("\n") }
        emit("\n")
        emit(chart.description)
        drewMarbles = true
    }
}
if !atLineStart { emit("\n") }
if drawMarbles, !drewMarbles {
    FileHandle.standardError.write(Data(
        "examples: no marble diagrams for these examples (`examples --marbles` runs the ones that draw them)\n".utf8))
}
exit(allFinished ? 0 : 1)
