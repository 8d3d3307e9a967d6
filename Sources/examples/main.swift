import ExamplesCatalogue
import Foundation

// `examples` — the catalogue of the source books' examples.
//
//   examples            run every example, in book order
//   examples list       list the examples (slug, title, source)
//   examples NAME...    run the named examples (NAME is a slug from `examples list`)

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

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "list" {
    for example in Catalogue.all {
        let slug = example.slug.padding(toLength: 26, withPad: " ", startingAt: 0)
        emit("\(slug) \(example.title)  [\(example.source)]\n")
    }
    exit(0)
}

let selected: [Example]
if arguments.isEmpty {
    selected = Catalogue.all
} else {
    var found: [Example] = []
    for name in arguments {
        guard let example = Catalogue.example(named: name) else {
            FileHandle.standardError.write(Data("examples: no example named '\(name)' (see `examples list`)\n".utf8))
            exit(2)
        }
        found.append(example)
    }
    selected = found
}

var allFinished = true
for (index, example) in selected.enumerated() {
    if !atLineStart { emit("\n") }
    if index > 0 { emit("\n") }
    if !ExampleRunner.runOnRealTime(example, write: emit) {
        FileHandle.standardError.write(Data("examples: '\(example.slug)' did not finish in time\n".utf8))
        allFinished = false
    }
}
exit(allFinished ? 0 : 1)
