// A C model of the fork-join protocols for loops of 64 batch-fill rows (GuidedSync/ForkJoinPool.swift),
// to tell the protocol's cost from the engine's on a given machine (docs/performance.md, "Batch fill on
// threads"). Each protocol keeps 15 spinning workers; the caller takes part; participant p first takes its
// own contiguous range of rows, then steals.
//   A (the pool before 2026-12-03): one shared ticket that every worker spins on, one shared counter of
//     active participants, range cursors written by the caller.
//   B (the pool of 2026-12-03): a slot of its own per worker (the caller posts size, participants and the
//     state word into it; the worker claims by compare-exchange and marks it finished), the caller cancels
//     the postings nobody claimed; no line is written by all participants.
//   C (the pool since 2026-12-04): B, posting with release stores and one fence, joining by a load of
//     each state first (a compare-exchange only for a posting nobody claimed).
//   D: C without stealing, for reference: what stealing costs where no row is slow.
// Bodies: empty, a 19 KB row copy from one of 24 sources, ~1 µs of arithmetic. Prints the median µs per
// loop over 3,000 loops and the speed-up against one thread, three rounds of each protocol, and how many
// rows a thief ran.
//
//   cc -O2 -pthread -o fork_join_model Benchmarks/fork-join-model/fork_join_model.c && ./fork_join_model
//   PIN=2 PROTOCOLS=C ./fork_join_model
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>

enum { ROWS = 64, WORDS = 4748, SOURCES = 24, MAX_THREADS = 16, LOOPS = 3000, ROUNDS = 3 };

typedef struct { _Alignas(128) _Atomic uint64_t value; } padded_t;

static uint32_t *sources[SOURCES];
static uint32_t *rows;
static int body_kind;  // 0 empty, 1 copy, 2 arithmetic
static volatile uint64_t sink[ROWS * 8];
static _Atomic int quit;

static void pin(int participant);

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void body(int i) {
    if (body_kind == 1) memcpy(rows + (size_t)i * WORDS, sources[i % SOURCES], WORDS * 4);
    if (body_kind == 2) {
        uint64_t x = i + 1;
        for (int k = 0; k < 400; k++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
        sink[i * 8] = x;
    }
}

static void run_serial(void) {
    for (int i = 0; i < ROWS; i++) body(i);
}

static long range_end(int q, int n, int count) { return (long)(q + 1) * n / count; }

// ---- A: shared ticket, shared active counter, caller-written cursors ----
static _Atomic uint64_t ticket;
static _Atomic int active;
static int a_count;
static padded_t a_cursor[MAX_THREADS];
static uint64_t a_generation;

static void a_work(int p) {
    for (int k = 0; k < a_count; k++) {
        int q = (p + k) % a_count;
        long end = range_end(q, ROWS, a_count);
        for (;;) {
            long i = (long)atomic_fetch_add(&a_cursor[q].value, 1);
            if (i >= end) break;
            body((int)i);
        }
    }
}

static void *a_worker(void *arg) {
    int index = (int)(long)arg;
    pin(index + 1);
    uint64_t seen = 0;
    for (;;) {
        uint64_t t;
        while (1) {
            t = atomic_load_explicit(&ticket, memory_order_acquire);
            if ((t & 1) && (t >> 1) != seen) break;
            if (atomic_load_explicit(&quit, memory_order_relaxed)) return 0;
            _mm_pause();
        }
        seen = t >> 1;
        atomic_fetch_add(&active, 1);
        if (atomic_load(&ticket) == t && index + 1 < a_count) a_work(index + 1);
        atomic_fetch_sub(&active, 1);
    }
}

static void a_run(int count) {
    a_count = count;
    for (int p = 0; p < count; p++) atomic_store(&a_cursor[p].value, (uint64_t)((long)p * ROWS / count));
    a_generation++;
    atomic_store(&ticket, a_generation << 1 | 1);
    a_work(0);
    atomic_store(&ticket, a_generation << 1);
    while (atomic_load(&active) != 0) _mm_pause();
}

// ---- B: a slot per participant; state = generation << 2 | phase ----
enum { POSTED = 1, RUNNING = 2, FINISHED = 3 };
typedef struct {
    _Alignas(128) _Atomic uint64_t state;
    _Atomic uint64_t cursor;
    int count;
} slot_t;
static slot_t slots[MAX_THREADS];
static uint64_t b_generation;

static int post_release, join_load_first, no_steal;
static _Atomic long stolen;

static void b_work(int p, int count) {
    for (int k = 0; k < (no_steal ? 1 : count); k++) {
        int q = (p + k) % count;
        long end = range_end(q, ROWS, count);
        if (k > 0 && (long)atomic_load_explicit(&slots[q].cursor, memory_order_relaxed) >= end) continue;
        for (;;) {
            long i = (long)atomic_fetch_add_explicit(&slots[q].cursor, 1, memory_order_relaxed);
            if (i >= end) break;
            if (k > 0) atomic_fetch_add_explicit(&stolen, 1, memory_order_relaxed);
            body((int)i);
        }
    }
}

static void *b_worker(void *arg) {
    int p = (int)(long)arg + 1;
    pin(p);
    slot_t *slot = &slots[p];
    uint64_t seen = 0;
    for (;;) {
        uint64_t s;
        while (1) {
            s = atomic_load_explicit(&slot->state, memory_order_acquire);
            if ((s & 3) == POSTED && (s >> 2) != seen) break;
            if (atomic_load_explicit(&quit, memory_order_relaxed)) return 0;
            _mm_pause();
        }
        seen = s >> 2;
        if (!atomic_compare_exchange_strong(&slot->state, &s, (s & ~3ull) | RUNNING)) continue;
        b_work(p, slot->count);
        atomic_store_explicit(&slot->state, (seen << 2) | FINISHED, memory_order_release);
    }
}

// Variants of B, set per protocol letter: C posts with release stores and one fence (no locked
// operation per worker) and joins by loading each state first (a compare-exchange only for a posting
// nobody claimed); D is C without stealing (each participant runs its own range only).
static void b_run(int count) {
    uint64_t g = ++b_generation << 2;
    for (int p = 0; p < count; p++) {
        atomic_store_explicit(&slots[p].cursor, (uint64_t)((long)p * ROWS / count), memory_order_relaxed);
        slots[p].count = count;
    }
    if (post_release) {
        for (int p = 1; p < count; p++) atomic_store_explicit(&slots[p].state, g | POSTED, memory_order_release);
        atomic_thread_fence(memory_order_seq_cst);
    } else {
        for (int p = 1; p < count; p++) atomic_store(&slots[p].state, g | POSTED);
    }
    b_work(0, count);
    for (int p = 1; p < count; p++) {
        uint64_t expected = g | POSTED;
        if (join_load_first) {
            uint64_t s = atomic_load_explicit(&slots[p].state, memory_order_acquire);
            if (s == (g | FINISHED)) continue;
        }
        if (atomic_compare_exchange_strong(&slots[p].state, &expected, g | FINISHED)) continue;
        while (atomic_load_explicit(&slots[p].state, memory_order_acquire) != (g | FINISHED)) _mm_pause();
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure(char protocol, void (*run)(int)) {
    static const char *names[] = {"empty", "copy", "arithmetic"};
    static const int counts[] = {1, 2, 4, 8, 16};
    static double times[LOOPS];
    for (body_kind = 0; body_kind < 3; body_kind++) {
        double base = 0;
        printf("%c %-10s", protocol, names[body_kind]);
        for (int c = 0; c < 5; c++) {
            for (int r = 0; r < 300 + LOOPS; r++) {
                double start = now_us();
                if (counts[c] == 1) run_serial(); else run(counts[c]);
                if (r >= 300) times[r - 300] = now_us() - start;
            }
            qsort(times, LOOPS, sizeof times[0], compare);
            double median = times[LOOPS / 2];
            if (c == 0) base = median;
            printf("  %2dT %7.2f (%.2fx)", counts[c], median, base / median);
        }
        printf("\n");
    }
}

// PIN=k (optional): the caller on CPU 0 and worker w on CPU (w + 1) * k modulo the CPUs online, to see
// whether the machine's CPU numbering puts neighbours on shared caches. PROTOCOLS=C (optional): only those.
static int pin_stride;
static void pin(int participant) {
    if (pin_stride <= 0) return;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)((participant * (long)pin_stride) % n), &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int main(void) {
    setvbuf(stdout, 0, _IOLBF, 0);
    pin_stride = getenv("PIN") ? atoi(getenv("PIN")) : 0;
    const char *only = getenv("PROTOCOLS");
    pin(0);
    for (int s = 0; s < SOURCES; s++) {
        sources[s] = aligned_alloc(64, WORDS * 4);
        for (int w = 0; w < WORDS; w++) sources[s][w] = (uint32_t)rand();
    }
    rows = aligned_alloc(64, (size_t)ROWS * WORDS * 4);
    memset(rows, 1, (size_t)ROWS * WORDS * 4);
    pthread_t workers[MAX_THREADS - 1];
    for (int round = 0; round < ROUNDS; round++) {
        for (int protocol = 0; protocol < 4; protocol++) {
            if (only && !strchr(only, "ABCD"[protocol])) continue;
            // One protocol's workers at a time: spinning workers of the other would take the cores.
            atomic_store(&quit, 0);
            post_release = join_load_first = protocol >= 2;
            no_steal = protocol == 3;
            atomic_store(&stolen, 0);
            for (long k = 0; k < MAX_THREADS - 1; k++) pthread_create(&workers[k], 0, protocol ? b_worker : a_worker, (void *)k);
            measure("ABCD"[protocol], protocol ? b_run : a_run);
            printf("%c rows run by a thief: %ld\n", "ABCD"[protocol], (long)atomic_load(&stolen));
            atomic_store(&quit, 1);
            for (int k = 0; k < MAX_THREADS - 1; k++) pthread_join(workers[k], 0);
        }
    }
    return 0;
}
