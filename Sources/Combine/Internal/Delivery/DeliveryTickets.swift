import TributaryLocks

/// How a thread that hands something to another thread's delivery waits until it has been
/// delivered: the one waiting mechanism of the subjects and the fan-in operators.
///
/// Combine serialises calls into a subscriber. When a thread sends while another thread is
/// delivering, Apple's subjects and fan-in operators make the sender wait, deliver its value, and
/// only then return; so when `send` returns, the subscribers have the value, and a fast producer
/// is held to its subscriber's pace instead of filling an unbounded queue. Ours queue the value
/// for the thread that is delivering (the *deliverer*) and put the sender to sleep until the
/// deliverer reports it delivered.
///
/// Every value that enters the owner's delivery is counted in ``entered``, in delivery order; the
/// deliverer counts it in ``delivered`` once the subscriber's `receive` has returned. A sender
/// holds the ``Ticket`` of its value and sleeps until that value is counted, or until the
/// deliverer's turn ends (``endTurn()``) with the value still queued: a fan-in operator keeps a
/// value without demand queued, and the sender must not wait for demand that may never come.
/// That bounds every wait by the deliveries queued ahead of the sender.
///
/// A pure value, kept in the owner's locked state (see ``DeliveryTicketing``); the owner calls
/// the mutating methods under its lock.
@usableFromInline
struct DeliveryTickets {
    /// A waiting sender's claim: its value's position, and the deliverer's turn it was queued in.
    @usableFromInline
    struct Ticket {
        @usableFromInline let position: UInt64
        @usableFromInline let turn: UInt64

        @inlinable
        init(position: UInt64, turn: UInt64) {
            self.position = position
            self.turn = turn
        }
    }

    /// Values that entered delivery, delivered or not.
    @usableFromInline var entered: UInt64 = 0
    /// Values delivered (or dropped: a cancel or a failure empties the queue).
    @usableFromInline var delivered: UInt64 = 0
    /// Deliverer turns that have ended.
    @usableFromInline var turnsEnded: UInt64 = 0
    /// Threads asleep on ``bell``.
    @usableFromInline var sleepers = 0
    /// What the sleepers wait on; made by the first thread that has to sleep.
    @usableFromInline var bell: LockCondition?

    @inlinable
    init() {}

    /// Counts a value entering delivery and returns its ticket, for a sender that will wait.
    @inlinable @inline(__always) @discardableResult
    mutating func enter() -> Ticket {
        let ticket = Ticket(position: entered, turn: turnsEnded)
        entered &+= 1
        return ticket
    }

    /// The ticket of the value that entered last: for a sender whose value was queued.
    @inlinable
    var lastEntered: Ticket { Ticket(position: entered &- 1, turn: turnsEnded) }

    /// A ticket that is settled when the current turn ends: for a completion, which the
    /// deliverer sends after the values queued before it, at the end of its turn.
    @inlinable
    var endOfTurn: Ticket { Ticket(position: .max, turn: turnsEnded) }

    /// Counts the oldest undelivered value as delivered, waking the senders if any sleep.
    @inlinable @inline(__always)
    mutating func markDelivered() {
        if delivered < entered { delivered &+= 1 }
        if sleepers != 0 { bell.unsafelyUnwrapped.broadcast() }
    }

    /// Counts every value entered so far as settled: the owner dropped what it had queued.
    @inlinable
    mutating func markAllSettled() {
        delivered = entered
        if sleepers != 0 { bell.unsafelyUnwrapped.broadcast() }
    }

    /// Records the end of the deliverer's turn; senders whose values are still queued return.
    @inlinable @inline(__always)
    mutating func endTurn() {
        turnsEnded &+= 1
        if sleepers != 0 { bell.unsafelyUnwrapped.broadcast() }
    }

    /// Whether the sender holding `ticket` may return.
    @inlinable
    func isSettled(_ ticket: Ticket) -> Bool {
        (ticket.position != .max && delivered > ticket.position) || turnsEnded != ticket.turn
    }
}

/// A locked state that keeps ``DeliveryTickets`` for its senders.
@usableFromInline
protocol DeliveryTicketing {
    var tickets: DeliveryTickets { get set }
}

extension LockedState where State: DeliveryTicketing {
    /// Sleeps until `ticket` is settled (see ``DeliveryTickets``). Never call it on the thread
    /// that is delivering: a send made from inside a subscriber is delivered after the call in
    /// progress returns, so waiting for it there would never end.
    @usableFromInline
    func waitUntilSettled(_ ticket: DeliveryTickets.Ticket) {
        let bell = withLock { state -> LockCondition? in
            if state.tickets.isSettled(ticket) { return nil }
            state.tickets.sleepers += 1
            if let bell = state.tickets.bell { return bell }
            let bell = LockCondition()
            state.tickets.bell = bell
            return bell
        }
        guard let bell else { return }
        wait(on: bell, until: { $0.tickets.isSettled(ticket) }, then: { $0.tickets.sleepers -= 1 })
    }
}
