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

// The pool's per-participant slots (GuidedSync/ForkJoinPool.swift): plain int64 / uint64 words in raw
// memory, one slot per cache-line pair, so the pool needs no Swift atomics in raw memory.
// Index cursors: relaxed (the slot's state word orders everything else).
static inline __attribute__((always_inline)) int64_t guided_fetch_add_i64(int64_t *p, int64_t v) {
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) int64_t guided_load_i64(const int64_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void guided_store_i64(int64_t *p, int64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

// A slot's state word: posted by the caller, claimed or cancelled by compare-exchange, finished by the
// worker. Sequentially consistent where it pairs with the count of sleeping workers (a Dekker pattern:
// the caller posts, then reads the count; a worker counts itself, then reads its state).
static inline __attribute__((always_inline)) uint64_t guided_load_u64_acquire(const uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline __attribute__((always_inline)) uint64_t guided_load_u64_seq_cst(const uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) void guided_store_u64_release(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline __attribute__((always_inline)) void guided_store_u64_seq_cst(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

// A full fence: the caller's posting stores (release, each one a plain store on x86-64) are ordered
// before its next load, here the count of sleeping workers, with one fence for all of them instead of a
// locked store per worker.
static inline __attribute__((always_inline)) void guided_fence_seq_cst(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// Replaces *p by `desired` if it holds `expected`; true if it did. Acquire-release: the winner sees what
// the slot's poster wrote before posting, and the loser what the winner wrote before its own release.
static inline __attribute__((always_inline)) _Bool guided_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

#endif
