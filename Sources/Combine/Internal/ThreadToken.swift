/// A number that identifies the calling thread while it runs, never `0`, with the low three bits
/// clear (free for a subject's flags): on Linux the thread pointer, read by one instruction in
/// `Sources/CombineShims/CombineShims.c`.
///
/// Declared here rather than imported: a Swift module that imports a C module makes everyone who
/// imports it find that C module too, and code that imports Combine without depending on this
/// package (a library guarded by `#if canImport(Combine)`, which finds our module in the shared
/// build directory) cannot. A direct call to this function costs less than `pthread_self()`,
/// which goes through the dynamic linker's table.
@usableFromInline
@_extern(c, "_tributary_thread_token")
func currentThreadToken() -> UInt
