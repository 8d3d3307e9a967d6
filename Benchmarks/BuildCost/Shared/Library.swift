// The one place where the two builds differ beyond the imports: OpenCombine's schedulers for
// Dispatch and Foundation are wrappers (`DispatchQueue.OCombine`), Apple's and ours are the types
// themselves. The view models take their scheduler from here.

import Foundation
#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation

typealias UIScheduler = DispatchQueue.OCombine
let mainScheduler = DispatchQueue.main.ocombine
let library = "OpenCombine"

extension NotificationCenter {
    /// OpenCombineFoundation spells this only when no module named `Combine` can be imported; in a
    /// build folder that also holds ours (`swift build` of both clients) one can. Same method as its.
    func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.OCombine.Publisher {
        ocombine.publisher(for: name, object: object)
    }
}
#else
import Combine

typealias UIScheduler = DispatchQueue
let mainScheduler = DispatchQueue.main
let library = "Tributary"
#endif

/// What a view model's fake network answers after a short delay, as a request would.
enum RequestError: Error {
    case offline
}
