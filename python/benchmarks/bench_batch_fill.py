"""Batch mask fill: 64 matchers (3 schemas, each matcher walked a different random number of tokens into its
document, so the batch mixes states) filled into one [64, words] bitmask by gd_matcher_fill_bitmask_batch
on 1 thread and on N threads. By default the steady state: every state's mask was visited once before timing
(a server step mostly meets cached states); --cold times first visits instead: the first masks of 64
grammars compiled afresh, all different, for every timed fill (a batch of new requests). Prints µs per batch and the speed-up; --json writes the figures.

    python3 bench_batch_fill.py --lib libGuidedDecodingC.so --tokenizer qwen2.tokenizer.json --threads 8"""

import argparse
import json
import os
import random
import resource
import statistics
import time

from _common import SCHEMAS, load


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", help="libGuidedDecodingC.so (default: the installed package's)")
    p.add_argument("--tokenizer", default="../../../shared/vocab/qwen2.tokenizer.json")
    p.add_argument("--vocab-size", type=int, default=151936)
    p.add_argument("--threads", type=int, nargs="+", default=[os.cpu_count() or 1])
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--json", help="write the figures here")
    p.add_argument("--cold", action="store_true", help="time first visits: the first masks of 64 new, different grammars")
    p.add_argument("--row-times", action="store_true",
                   help="with --cold: also time each row of fresh batches alone, one fill call per matcher (is the "
                        "batch bounded by its slowest row?)")
    a = p.parse_args()
    gd = load(a.lib)
    import ctypes

    import numpy as np

    vocab = gd.Vocabulary.from_file(a.tokenizer, vocab_size=a.vocab_size)
    compiler = gd.Compiler(vocab)
    words = vocab.mask_words
    one = (ctypes.c_int32 * words)()
    eos = set(vocab.eos_ids)
    lib = gd._lib.lib
    bitmask = (ctypes.c_int32 * (a.batch * words))()

    def walk(m, rng, most):
        """A random walk of up to `most` allowed tokens (never end of sequence)."""
        for _ in range(rng.randrange(0, most)):
            m.fill_bitmask_ptr(ctypes.addressof(one), words)
            bits = np.unpackbits(np.frombuffer(one, dtype=np.uint8), bitorder="little")  # bit t = token t
            allowed = [int(t) for t in np.flatnonzero(bits) if int(t) not in eos]
            if not allowed:
                break
            m.accept_token(rng.choice(allowed))

    def make_batch(tag):
        """64 matchers walked to random positions of grammars compiled afresh (`tag` makes the schema text
        new, so the compile cache hands out new grammars whose states no mask has visited yet). Each walk
        fills the masks of the states it passes, not of the state it stops in."""
        grammars = [compiler.compile_json_schema(dict(s, **{"$comment": tag}), whitespace="compact") for s in SCHEMAS]
        rng = random.Random(7)
        matchers = []
        for i in range(a.batch):
            m = gd.Matcher(grammars[i % len(grammars)])
            walk(m, rng, 40)
            matchers.append(m)
        return matchers, (ctypes.c_void_p * a.batch)(*[m.handle.value for m in matchers])

    faults = {}

    def batch(handles, threads):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        start = time.perf_counter()
        status = lib.gd_matcher_fill_bitmask_batch(handles, a.batch, ctypes.addressof(bitmask), a.batch, words, None,
                                                   threads, None)
        elapsed = (time.perf_counter() - start) * 1e6
        faults.setdefault(threads, []).append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
        if status:
            raise RuntimeError(lib.gd_last_error_message().decode())
        return elapsed

    def make_cold_batch(tag):
        """64 grammars compiled afresh, all different (each schema gains a required member of its own name,
        so no two share a compile-cache entry or an automaton), one matcher in each, walked a few tokens in:
        its next mask is a first visit, as for a server whose batch holds new requests."""
        matchers = []
        rng = random.Random(tag)
        for i in range(a.batch):
            s = json.loads(json.dumps(SCHEMAS[i % len(SCHEMAS)]))
            s["properties"][f"{tag}_{i}"] = {"type": "string"}
            s["required"] = s.get("required", []) + [f"{tag}_{i}"]
            m = gd.Matcher(compiler.compile_json_schema(s, whitespace="compact"))
            walk(m, rng, 12)  # fills the states it passes, not the one it stops in
            matchers.append(m)
        return matchers, (ctypes.c_void_p * a.batch)(*[m.handle.value for m in matchers])

    results = {}
    if a.cold:
        # Every timed fill is the first visit of 64 start states of 64 grammars no mask has touched.
        for threads in sorted(set([1] + a.threads)):
            times = []
            for r in range(a.rounds):
                matchers, handles = make_cold_batch(f"t{threads}r{r}")
                times.append(batch(handles, threads))
                del matchers
            results[threads] = {"median_us": statistics.median(times), "p90_us": sorted(times)[int(0.9 * len(times))],
                                "page_faults": statistics.median(faults[threads])}
        if a.row_times:
            # One fill call per row on this thread: the sum is the batch's serial work, the slowest row a
            # floor under any split of the batch by rows.
            rows = []
            for r in range(a.rounds):
                matchers, _ = make_cold_batch(f"rows{r}")
                for m in matchers:
                    start = time.perf_counter()
                    m.fill_bitmask_ptr(ctypes.addressof(one), words)
                    rows.append((time.perf_counter() - start) * 1e6)
                del matchers
            per_batch = sum(rows) / a.rounds
            ranked = sorted(rows)
            slowest = ranked[-1]
            print(f"rows alone: {len(rows)} rows, median {statistics.median(rows):.1f} us, p90 {ranked[int(0.9 * len(rows))]:.1f}, "
                  f"p99 {ranked[int(0.99 * len(rows))]:.1f}, slowest {slowest:.1f}; sum per batch {per_batch:.1f} us; "
                  f"share of a batch's work in its slowest row (median over rounds) "
                  f"{statistics.median(max(rows[k * a.batch:(k + 1) * a.batch]) / sum(rows[k * a.batch:(k + 1) * a.batch]) for k in range(a.rounds)):.2f}")
            results["rows"] = {"median_us": statistics.median(rows), "slowest_us": slowest, "sum_per_batch_us": per_batch}
    else:
        matchers, handles = make_batch("warm")
        batch(handles, 1)  # every state visited once: the steady state of a server step
        for threads in sorted(set([1] + a.threads)):
            times = [batch(handles, threads) for _ in range(a.rounds)]
            results[threads] = {"median_us": statistics.median(times), "p90_us": sorted(times)[int(0.9 * len(times))],
                                "page_faults": statistics.median(faults[threads])}
    base = results[1]["median_us"]
    print(f"batch fill of {a.batch} matchers ({'first visits' if a.cold else 'visited states'}), vocabulary {a.vocab_size}, "
          f"{os.cpu_count()} CPUs, {a.rounds} rounds")
    print("threads  median_us  p90_us  speedup  page faults (median per batch)")
    for threads, r in results.items():
        if threads == "rows":
            continue
        print(f"{threads:7d}  {r['median_us']:9.1f}  {r['p90_us']:6.1f}  {base / r['median_us']:6.2f}x  {r['page_faults']:6.0f}")
        r["speedup"] = base / r["median_us"]
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"batch": a.batch, "cold": a.cold, "vocab_size": a.vocab_size, "cpus": os.cpu_count(), "results": results}, f,
                      indent=2)


if __name__ == "__main__":
    main()
