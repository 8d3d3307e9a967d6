// Which library a target runs, shared by the benchmark targets and the memory executables: each
// links this file, compiled against our `Combine` or, with the `OPENCOMBINE` condition, against
// OpenCombine 0.14.0.

import Dispatch
#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
let library = "OpenCombine"
/// OpenCombine's `DispatchQueue` scheduler is a wrapper (`OpenCombineDispatch`).
func dispatchScheduler(_ queue: DispatchQueue) -> DispatchQueue.OCombine { queue.ocombine }
#else
import Combine
let library = "Tributary"
/// Ours is `DispatchQueue` itself, as Apple's.
func dispatchScheduler(_ queue: DispatchQueue) -> DispatchQueue { queue }
#endif
