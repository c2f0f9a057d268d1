// A spin-wait hint and index cursors for the fork-join pool (GuidedSync/ForkJoinPool.swift).
#ifndef GUIDED_SPIN_H
#define GUIDED_SPIN_H

#include <stdint.h>

// Tells the core that this thread is busy-waiting, so that a sibling hyperthread gets the execution units
// and the wait burns less power. Swift has no spelling of it.
static inline __attribute__((always_inline)) void guided_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

// The pool's per-participant index cursors: relaxed fetch-add on a plain int64 slot (each slot on a cache
// line of its own), so the pool can keep an array of them in raw memory.
static inline __attribute__((always_inline)) int64_t guided_fetch_add_i64(int64_t *p, int64_t v) {
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void guided_store_i64(int64_t *p, int64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

#endif
