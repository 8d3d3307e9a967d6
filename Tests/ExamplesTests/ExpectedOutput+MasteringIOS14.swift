/// *Mastering iOS 14 Programming*, ch. 13, in book order. The code blocks of the edition we follow
/// did not survive, so the book's output is not printed anywhere: each entry is what the
/// reconstructed code prints.
extension ExpectedOutput {
    static let masteringIOS14: [Expected] = [
        // Mastering iOS 14, playground basics (snippets reconstructed from the prose)
        .notPrinted("sequence-sink", prints: """
            1
            2
            3
            4

            """),
        .notPrinted("filter", prints: """
            2
            4

            """),
        // Mastering iOS 14, operators: map (reconstructed: the book only describes User).
        .notPrinted("map-user", prints: """
            User with id: 1
            User with id: 2
            User with id: 3
            User with id: 4

            """),
        .notPrinted("reduce", prints: """
            24

            """),
        .notPrinted("scan-product", prints: """
            1
            2
            6
            24

            """),
        // Mastering iOS 14, combineLatest and zip
        .notPrinted("combine-latest", prints: """
            Result: ("a", 1).
            Result: ("a", 2).
            Result: ("b", 2).
            Result: ("c", 2).
            Result: ("d", 2).
            Result: ("d", 3).
            Result: ("d", 10).

            """),
        // Mastering iOS 14, operators: merge (reconstructed): one value at a time, in send order.
        .notPrinted("merge", prints: """
            Result: 1.
            Result: 2.
            Result: 3.
            Result: 4.
            Result: 6.
            Result: 5.

            """),
        .notPrinted("zip", prints: """
            Result: ("a", 1).
            Result: ("b", 2).
            Result: ("c", 3).
            Result: ("d", 10).

            """),
        // Mastering iOS 14, subjects
        .notPrinted("passthrough-subject", prints: """
            Result: second value

            """),
        .notPrinted("current-value-subject", prints: """
            Result: first value
            Result: second value

            """),
        // Mastering iOS 14, sample app 1, the interim `validatedEmail.sink { print($0) }`: nil until both fields hold the
        // same address with an "@" and more than five characters. The typing is the example's.
        .notPrinted("signup-validated-email", prints: """
            nil
            nil
            nil
            Optional("abc@email.com")
            nil
            nil

            """),
        // Mastering iOS 14, sample app 1, finalEmail → isEnabled with the example's typing script on virtual time; the
        // button is set again each time finalEmail emits (assign does not skip equal values).
        .notPrinted("signup-button", prints: """
            +0.0s  initialEmail = "abc@email.com"
            +0.5s  repeatedEmail = "abc@email.com"
            +1.0s  signup button isEnabled = true
            +3.0s  initialEmail = "abc@email.co"
            +3.0s  signup button isEnabled = false
            +4.0s  signup button isEnabled = false
            +5.0s  initialEmail = "abc@email.com"
            +5.0s  signup button isEnabled = true
            +6.0s  signup button isEnabled = true

            """),
        // Mastering iOS 14, sample app 2, stage 1: the bare notification. The book's console
        // comes from Apple's Foundation; swift-corelibs-foundation describes a Notification
        // as below, without the userInfo.
        .notPrinted("notification-publisher", prints: """
            name = networkResult, object = 12 bytes

            """),
        // Mastering iOS 14, sample app 2, stage 2: the notification's object as Data, `12 bytes` for {"id":"123"}.
        .notPrinted("notification-map-data", prints: """
            12 bytes

            """),
        // Mastering iOS 14, sample app 2, stage 3: after the failure the stream is Just's, finished.
        .notPrinted("notification-catch", prints: """
            User(id: "123")
            User(id: "-1")

            """),
        // Mastering iOS 14, sample app 2, final version
        .notPrinted("notification-flat-map", prints: """
            User(id: "123")
            User(id: "-1")
            User(id: "123")

            """),
    ]
}
