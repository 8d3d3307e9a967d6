/// The notes several examples print after their output, each saying what differs from the book's
/// text and why (see ``Example/BookOutput``). A note that only one example prints sits beside
/// that example.
enum BookNote {
    /// Kodeco ch. 16's images: Apple's `UIImage` description has a memory address in it.
    static let imageAddress = "The book's UIImage description carries the image's memory address "
        + "(<UIImage:0x600000790750 …>), which changes from run to run; the stand-in image prints "
        + "without one."

    /// Kodeco ch. 17's thread recorder rows, whose pool threads Dispatch picks afresh.
    static let threadsByRow = "Thread numbers: 1 is the main thread; the other threads of a row are "
        + "numbered 2, 3… in the order they appear in that row, so every run prints the same text. "
        + "Dispatch may pick a different pool thread for each value (the chapter says so); the "
        + "book's view shows its own machine's numbers."

    /// Kodeco ch. 17's RunLoop page, whose main run loop a command-line program does not turn.
    static let runLoopStandIn = "Thread 1 is a run loop on a thread of the example's own, standing "
        + "in for the main run loop, which a command-line or test process does not turn."

    /// Kodeco ch. 17's `ExpensiveComputation` on a serial queue.
    static func threadsOfTheComputation(bookShowed number: Int) -> String {
        "Thread numbers: 1 is the main thread, and any other thread gets the next number when it "
            + "first shows up, so the serial queue's thread is 2 where the book's machine showed "
            + "\(number). The book's listing also says 'from thread' on one line where its code "
            + "prints 'on', and drops the colon its code prints before the result."
    }

    /// Kodeco ch. 18's `TimeLogger` over synchronous sends, on the catalogue's virtual clock.
    static let virtualTimeLogger = "The times are on the catalogue's virtual clock, on which the "
        + "synchronous sends take no time: they show +0.00000s and the one-second delay exactly "
        + "+1.00000s, where the book's real clock shows a few hundredths of a second (+0.02967s…), "
        + "different on every run."

    /// Kodeco ch. 18's `DispatchTimer`, on real time.
    static let dispatchTimer = "The book prints the elapsed real time to five decimals and the raw "
        + "DispatchTime value, both different on every run. This timer runs on real time too, but "
        + "both are printed to the nearest second, the DispatchTime as its distance from the "
        + "subscription, so every run prints the same text."

    /// *Using Combine*'s logs of a `@Published` property's subscription.
    static let publishedSubject = "Apple's Combine today names the @Published subscription "
        + "PublishedSubject; the book's logs, recorded on an earlier release, show "
        + "CurrentValueSubject."
}
