// Relaxed atomic loads and stores on raw table memory, for the mask engine's lazily built automaton.
//
// Matchers read the automaton's tables without a lock while one builder, under a lock, appends to them
// (GuidedMask/Compile/GrammarAutomaton.swift says why that order is safe). Plain concurrent accesses to
// the same memory are a data race in the C and Swift memory models even where the hardware orders them,
// so every access to those tables that can meet another thread's write goes through these functions.
// Relaxed loads and stores compile to the plain moves they replace on x86-64 and ARM64 (the functions
// are inlined into the Swift callers), and ThreadSanitizer sees them as atomic.
#ifndef GUIDED_ATOMICS_H
#define GUIDED_ATOMICS_H

#include <stdint.h>

static inline __attribute__((always_inline)) int32_t guided_load_i32(const int32_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void guided_store_i32(int32_t *p, int32_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) uint8_t guided_load_u8(const uint8_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void guided_store_u8(uint8_t *p, uint8_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

// Pointer slots published once and read without a lock (the mask cache's index, GuidedMask/MaskCache.swift):
// the writer's release store makes the pointed-to entry visible to a reader's acquire load.
static inline __attribute__((always_inline)) void *guided_load_ptr_acquire(void *const *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline __attribute__((always_inline)) void guided_store_ptr_release(void **p, void *v) {
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

#endif
