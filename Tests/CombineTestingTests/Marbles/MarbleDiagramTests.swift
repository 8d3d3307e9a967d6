import Combine
import CombineTesting
import Testing

@Suite("MarbleDiagram")
struct MarbleDiagramTests {
    struct Boom: Error, Equatable {}

    @Test func parsesFramesValuesAndTerminals() throws {
        #expect(
            try MarbleDiagram.events("-a--b|") == [
                .init(time: 1, .value("a")), .init(time: 4, .value("b")), .init(time: 5, .finished),
            ])
        #expect(
            try MarbleDiagram.events("x#", values: ["x": 7], error: Boom()) == [
                .init(time: 0, .value(7)), .init(time: 1, .failure(Boom())),
            ])
    }

    @Test func groupsAreOneFrame() throws {
        #expect(
            try MarbleDiagram.events("-(ab)-c(d|)") == [
                .init(time: 1, .value("a")), .init(time: 1, .value("b")),
                .init(time: 3, .value("c")), .init(time: 4, .value("d")), .init(time: 4, .finished),
            ])
    }

    @Test func subscriptionPointIsFrameZero() throws {
        #expect(
            try MarbleDiagram.events("a-^-b") == [.init(time: -2, .value("a")), .init(time: 2, .value("b"))]
        )
    }

    @Test func spacesAreIgnoredAndFrameDurationScales() throws {
        #expect(
            try MarbleDiagram.events("- a -  b", start: 10, frameDuration: .milliseconds(100)) == [
                .init(time: .init(ticks: 10 + 100_000_000), .value("a")),
                .init(time: .init(ticks: 10 + 300_000_000), .value("b")),
            ])
    }

    @Test(arguments: [
        ("a(b", 1, "'(' is never closed"),
        ("ab)", 2, "')' without a matching '('"),
        ("((a))", 1, "groups cannot be nested"),
        ("-()", 2, "empty group '()'"),
        ("(a-b)", 2, "'-' inside a group; a group is a single frame"),
        ("^-^", 2, "more than one '^'"),
        ("(^a)", 1, "'^' cannot be inside a group"),
        ("a|b", 2, "'b' after the stream has already completed"),
        ("a#", 1, "'#' (failure) needs an error; pass one with `error:`"),
    ])
    func reportsMalformedDiagrams(diagram: String, offset: Int, reason: String) {
        #expect(throws: MarbleDiagramError(diagram: diagram, offset: offset, reason: reason)) {
            try MarbleDiagram.events(diagram)
        }
    }

    @Test func unknownValueAndColdSubscriptionPoint() {
        #expect(throws: MarbleDiagramError(diagram: "ab", offset: 1, reason: "'b' is not in the value dictionary")) {
            try MarbleDiagram.events("ab", values: ["a": 1], error: Optional<Boom>.none)
        }
        let scheduler = TestScheduler()
        #expect(
            throws: MarbleDiagramError(
                diagram: "-^a", offset: 1, reason: "'^' (subscription point) is only meaningful in hot diagrams")
        ) {
            try scheduler.coldPublisher("-^a")
        }
    }

    @Test func errorDescriptionPointsAtTheProblem() {
        let error = MarbleDiagramError(diagram: "-a|b", offset: 3, reason: "'b' after the stream has already completed")
        #expect(
            error.description == """
                Invalid marble diagram: 'b' after the stream has already completed
                  -a|b
                     ^
                """)
    }

    @Test func normalisation() {
        #expect(MarbleDiagram("---a--b---") == "---a--b")
        #expect(MarbleDiagram(" - a - ") == "-a")
        #expect(MarbleDiagram("-----").text == "")
        #expect(MarbleDiagram("--a--|--").description == "--a--|")
    }

    @Test func rendersRecordedEvents() {
        let events: [Recorded<RecordedEvent<String, Boom>>] = [
            .init(time: 0, .subscription),
            .init(time: 2, .value("a")),
            .init(time: 5, .value("b")),
            .init(time: 5, .value("c")),
            .init(time: 6, .value("long")),
            .init(time: 7, .failure(Boom())),
        ]
        let diagram = MarbleDiagram(events: events) { $0.count == 1 ? $0.first : nil }
        #expect(diagram == "--a--(bc)?#")
    }

    @Test func rendersFromAStartAndBucketsByFrame() {
        let events: [Recorded<RecordedEvent<Int, Never>>] = [
            .init(time: 5, .value(1)),  // before start: left out
            .init(time: 100, .value(2)),
            .init(time: 250, .value(3)),
            .init(time: 299, .value(4)),
            .init(time: 300, .finished),
        ]
        let diagram = MarbleDiagram(events: events, start: 100, frameDuration: 100) { Character(String($0)) }
        #expect(diagram == "2(34)|")
    }

    @Test(arguments: ["-a--b-----|", "(ab)-c", "--(c|)", "a", "abc#", "-(ab)(cd)-e|", ""])
    func parseThenRenderRoundTrips(diagram: String) throws {
        let events = try MarbleDiagram.events(
            diagram, values: Dictionary(uniqueKeysWithValues: "abcde".map { ($0, String($0)) }), error: Boom()
        )
        let rendered = MarbleDiagram(events: events) { $0.first }
        #expect(rendered == MarbleDiagram(diagram))
    }

    @Test func mismatchMessageAlignsTheDiagrams() {
        #expect(MarbleDiagram.mismatch(expected: "--a", actual: "--a---") == nil)
        #expect(
            MarbleDiagram.mismatch(expected: "---a--b", actual: "---a---b") == """
                Marble diagrams differ at column 7:
                expected: ---a--b
                  actual: ---a---b
                                ^
                """)
        #expect(
            MarbleDiagram.mismatch(expected: "-a|", actual: "") == """
                Marble diagrams differ at column 1:
                expected: -a|
                  actual: (nothing)
                          ^
                """)
    }

    @Test func expectMarblesRecordsAnAlignedIssue() {
        withKnownIssue {
            expectMarbles("---a---b", "---a--b---")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("expected: ---a--b\n  actual: ---a---b\n") }
        }
        #expect(expectMarbles("-a-", "-a"))
    }
}
