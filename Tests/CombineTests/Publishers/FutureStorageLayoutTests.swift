@testable import Combine
import Testing

/// `FutureCore` and `FutureStorage` load the mutex's and the result's addresses raw from the
/// header's first two fields; the header must keep them there.
@Suite("Future storage layout")
struct FutureStorageLayoutTests {
    @Test func theHeaderKeepsTheMutexThenTheResultAddressFirst() {
        let pointerStride = MemoryLayout<UnsafeMutableRawPointer>.stride
        #expect(MemoryLayout<FutureHeader>.offset(of: \FutureHeader.mutex) == 0)
        #expect(MemoryLayout<FutureHeader>.offset(of: \FutureHeader.result) == pointerStride)
    }
}
