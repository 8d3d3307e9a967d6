#include "CombineShims.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#elif !(defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))) && \
    !(defined(__wasi__) && !defined(_REENTRANT))
#include <pthread.h>
#endif

// On Linux the thread pointer (the address of the thread's control block, which is what
// `pthread_self()` returns there), read with one instruction: a direct call to this function costs
// less than a call to `pthread_self()` through the dynamic linker's table. The asm is `volatile`
// so that it is never merged with a read made on another thread.
uintptr_t _tributary_thread_token(void) {
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
