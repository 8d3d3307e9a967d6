// Small C helpers the Combine module needs and Swift cannot express. Internal to Tributary: the
// module is public only because the library's inlinable code, compiled in its users' modules,
// calls into it.

#ifndef TRIBUTARY_COMBINE_SHIMS_H
#define TRIBUTARY_COMBINE_SHIMS_H

#include <stdint.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#elif !(defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))) && \
    !(defined(__wasi__) && !defined(_REENTRANT))
#include <pthread.h>
#endif

/// A number that identifies the calling thread while it runs: never 0, low three bits clear.
///
/// Subjects record it in their role word to recognise a send made from inside one of their own
/// subscribers. On Linux it is the thread pointer (the address of the thread's control block,
/// which is what `pthread_self()` returns there), read with one instruction instead of a call
/// into the C library; the asm is `volatile` so that the compiler never reuses a value read on
/// another thread (an async function can resume on a different thread).
static inline uintptr_t _tributary_thread_token(void) {
#if defined(__linux__) && defined(__x86_64__)
    uintptr_t pointer;
    __asm__ volatile("mov %%fs:0, %0" : "=r"(pointer));
    return pointer;
#elif defined(__linux__) && defined(__aarch64__)
    uintptr_t pointer;
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(pointer));
    return pointer;
#elif defined(_WIN32)
    return ((uintptr_t)GetCurrentThreadId() + 1) << 3;
#elif defined(__wasi__) && !defined(_REENTRANT)
    return 8; // one thread: whoever holds a role is the caller
#else
    return (uintptr_t)pthread_self() & ~(uintptr_t)7; // the address of an aligned control block
#endif
}

#endif
