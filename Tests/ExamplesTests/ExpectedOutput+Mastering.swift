/// *Mastering iOS 14*, ch. 13: the examples added to the first catalogue, in book order.
extension ExpectedOutput {
    static let mastering: [String: String] = [
        // Mastering iOS 14, operators: map (reconstructed: the book only describes User).
        "map-user": """
            ——— Example of: map ———
            User with id: 1
            User with id: 2
            User with id: 3
            User with id: 4

            """,
        // Mastering iOS 14, operators: merge (reconstructed): one value at a time, in send order.
        "merge": """
            ——— Example of: merge ———
            Result: 1.
            Result: 2.
            Result: 3.
            Result: 4.
            Result: 6.
            Result: 5.

            """,
        // Mastering iOS 14, sample app 1, the interim `validatedEmail.sink { print($0) }`: nil until both fields hold the
        // same address with an "@" and more than five characters. The typing is the example's.
        "signup-validated-email": """
            ——— Example of: validatedEmail ———
            nil
            nil
            nil
            Optional("abc@email.com")
            nil
            nil

            """,
        // Mastering iOS 14, sample app 1, finalEmail → isEnabled with the example's typing script on virtual time; the
        // button is set again each time finalEmail emits (assign does not skip equal values).
        "signup-button": """
            ——— Example of: sign-up button ———
            +0.0s  initialEmail = "abc@email.com"
            +0.5s  repeatedEmail = "abc@email.com"
            +1.0s  signup button isEnabled = true
            +3.0s  initialEmail = "abc@email.co"
            +3.0s  signup button isEnabled = false
            +4.0s  signup button isEnabled = false
            +5.0s  initialEmail = "abc@email.com"
            +5.0s  signup button isEnabled = true
            +6.0s  signup button isEnabled = true

            """,
        // Mastering iOS 14, sample app 2, stage 1: the bare notification. The book's console
        // comes from Apple's Foundation; swift-corelibs-foundation describes a Notification
        // as below, without the userInfo.
        "notification-publisher": """
            ——— Example of: NotificationCenter publisher ———
            name = networkResult, object = 12 bytes

            """,
        // Mastering iOS 14, sample app 2, stage 2: the notification's object as Data, `12 bytes` for {"id":"123"}.
        "notification-map-data": """
            ——— Example of: map to Data ———
            12 bytes

            """,
    ]
}
