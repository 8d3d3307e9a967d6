/// The module's one first-in first-out queue, on a circular buffer: the values a fan-in operator
/// (merge, combineLatest, zip, flatMap, switchToLatest) holds for its subscriber, the jobs a
/// subject's deliverer runs for senders that wait, the events `receive(on:)` and `buffer` keep.
///
/// Why not an `Array` with `removeFirst()`: that shifts every remaining element, which makes a
/// queue that fills and drains quadratic. Here a pop only moves the head index, and the storage,
/// once grown, is reused, so steady-state traffic allocates nothing.
///
/// The oldest element lives outside the ring, in `front`: a queue that holds at most one element
/// at a time (zip's inputs sending in turn, a merge whose subscriber keeps up) never touches the
/// ring, and so pays neither its uniqueness check nor its bounds checks.
@usableFromInline
struct DeliveryQueue<Element> {
    // The fields whose size does not depend on `Element` come first: a debug build then finds
    // `count` at a fixed offset instead of looking up the queue's type metadata.

    /// Number of elements held, `front` included.
    @usableFromInline
    var count: Int

    /// Index of the oldest ring element in `storage`.
    @usableFromInline
    var head: Int

    /// The elements after `front`, oldest first, in a ring.
    @usableFromInline
    var storage: ContiguousArray<Element?>

    /// The oldest element; `nil` exactly when the queue is empty.
    @usableFromInline
    var front: Element?

    @inlinable
    init() {
        front = nil
        storage = []
        head = 0
        count = 0
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The oldest element, without removing it.
    @inlinable
    var first: Element? {
        front
    }

    /// Adds `element` at the back, growing the ring (doubling it) only when full.
    @inlinable
    @inline(__always)
    mutating func append(_ element: Element) {
        if count == 0 {
            front = element
            count = 1
        } else {
            appendToRing(element)
        }
    }

    /// ``append(_:)`` behind a non-empty queue: the element joins the ring.
    @inlinable
    @inline(never)
    mutating func appendToRing(_ element: Element) {
        let ringCount = count - 1
        if ringCount == storage.count { grow() }
        var tail = head + ringCount
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        count += 1
    }

    /// Removes and returns the oldest element.
    @inlinable
    @inline(__always)
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = front.take()
        count -= 1
        if count > 0 { refillFront() }
        return element
    }

    /// Moves the oldest ring element into `front`, after a pop left others behind.
    @inlinable
    @inline(never)
    mutating func refillFront() {
        front = storage[head].take()
        head += 1
        if head == storage.count { head = 0 }
    }

    /// Empties the queue and returns what it held, so that the caller lets the elements go after
    /// leaving its lock (their deinitialisers may be anyone's code).
    @inlinable
    mutating func takeAll() -> DeliveryQueue {
        var taken = DeliveryQueue()
        swap(&taken, &self)
        return taken
    }

    /// The elements, oldest first (for mirrors).
    @inlinable
    var contents: [Element] {
        guard let front else { return [] }
        var result = [front]
        var index = head
        for _ in 0..<(count - 1) {
            if let element = storage[index] { result.append(element) }
            index += 1
            if index == storage.count { index = 0 }
        }
        return result
    }

    /// Drops every element; keeps the storage for reuse.
    @inlinable
    mutating func removeAll() {
        guard count > 0 else { return }
        while count > 0 { _ = popFirst() }
        head = 0
    }

    /// Doubles the ring. `@inlinable` (though never inlined) so that it is specialised too: left
    /// generic, it copied every element through `Optional`'s value witnesses, which cost a
    /// `buffer` filling up to 20,000 values (`TributaryProfile 10`) about 700 instructions per
    /// value.
    @inlinable
    @inline(never)
    mutating func grow() {
        let ringCount = count - 1
        let newCapacity = Swift.max(4, storage.count * 2)
        var newStorage = ContiguousArray<Element?>(repeating: nil, count: newCapacity)
        var index = head
        for position in 0..<ringCount {
            newStorage[position] = storage[index].take()
            index += 1
            if index == storage.count { index = 0 }
        }
        storage = newStorage
        head = 0
    }
}
