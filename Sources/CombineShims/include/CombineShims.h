// Small C helpers the Combine module needs and Swift cannot express. Internal to Tributary.
//
// Combine does not import this module (code that imports Combine without depending on this
// package, such as a library guarded by `#if canImport(Combine)`, could not find it): it declares
// the functions it calls with `@_extern(c)` and links them from this target.

#ifndef TRIBUTARY_COMBINE_SHIMS_H
#define TRIBUTARY_COMBINE_SHIMS_H

#include <stdint.h>

/// A number that identifies the calling thread while it runs: never 0, low three bits clear.
/// Subjects record it in their role word to recognise a send made from inside one of their own
/// subscribers.
uintptr_t _tributary_thread_token(void);

#endif
