import ExamplesCatalogue

// `examples` — the catalogue of the source books' examples.
//
//   examples            run every example, in book order
//   examples list       list the examples (slug, title, source)
//   examples NAME...    run the named examples

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "list" {
    for example in Catalogue.all {
        print("\(example.slug.padding(toLength: 26, withPad: " ", startingAt: 0)) \(example.title)  [\(example.source)]")
    }
} else {
    print("No examples are built yet: their operators have not landed in Combine.")
}
