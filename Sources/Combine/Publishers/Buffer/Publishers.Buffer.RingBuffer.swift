extension Publishers.Buffer {
    /// A first-in first-out queue on a circular array: appending and removing the oldest value
    /// are O(1), and the storage grows by doubling only up to what is actually held.
    @usableFromInline
    struct RingBuffer {
        @usableFromInline var slots: ContiguousArray<Upstream.Output?> = []
        @usableFromInline var head = 0
        @usableFromInline private(set) var count = 0

        @inlinable
        init() {}

        @inlinable
        var isEmpty: Bool { count == 0 }

        @inlinable
        mutating func append(_ value: Upstream.Output) {
            if count == slots.count { grow() }
            var index = head + count
            if index >= slots.count { index -= slots.count }
            slots[index] = value
            count += 1
        }

        /// The values in order, oldest first (for the mirror).
        @usableFromInline
        var contents: [Upstream.Output] {
            (0..<count).compactMap { slots[(head + $0) % slots.count] }
        }

        @inlinable
        mutating func popFirst() -> Upstream.Output? {
            guard count > 0 else { return nil }
            let value = slots[head].take()
            head += 1
            if head == slots.count { head = 0 }
            count -= 1
            return value
        }

        /// Empties the queue and returns the storage, so the caller can let the values go after
        /// leaving its lock.
        @inlinable
        mutating func removeAll() -> ContiguousArray<Upstream.Output?> {
            defer {
                slots = []
                head = 0
                count = 0
            }
            return slots
        }

        @usableFromInline
        mutating func grow() {
            var larger = ContiguousArray<Upstream.Output?>(repeating: nil, count: Swift.max(8, slots.count * 2))
            for offset in 0..<count {
                var index = head + offset
                if index >= slots.count { index -= slots.count }
                larger[offset] = slots[index].take()
            }
            slots = larger
            head = 0
        }
    }
}
