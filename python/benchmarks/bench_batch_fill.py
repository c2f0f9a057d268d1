"""Batch mask fill: 64 matchers (3 schemas, each matcher walked a different random number of tokens into its
document, so the batch mixes states) filled into one [64, words] bitmask by gd_matcher_fill_bitmask_batch
on 1 thread and on N threads. Steady state: every state's mask was visited once before timing (a server
step mostly meets cached states). Prints µs per batch and the speed-up; --json writes the figures.

    python3 bench_batch_fill.py --lib libGuidedDecodingC.so --tokenizer qwen2.tokenizer.json --threads 8"""

import argparse
import json
import os
import random
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
    a = p.parse_args()
    gd = load(a.lib)
    import ctypes

    vocab = gd.Vocabulary.from_file(a.tokenizer, vocab_size=a.vocab_size)
    compiler = gd.Compiler(vocab)
    grammars = [compiler.compile_json_schema(s, whitespace="compact") for s in SCHEMAS]
    rng = random.Random(7)
    matchers = []
    words = vocab.mask_words
    one = (ctypes.c_int32 * words)()
    for i in range(a.batch):
        m = gd.Matcher(grammars[i % len(grammars)])
        for _ in range(rng.randrange(0, 40)):  # a random walk through allowed tokens
            m.fill_bitmask_ptr(ctypes.addressof(one), words)
            allowed = [w * 32 + b for w in range(words) for b in range(32) if (one[w] >> b) & 1]
            allowed = [t for t in allowed if t not in vocab.eos_ids]
            if not allowed:
                break
            m.accept_token(rng.choice(allowed))
        matchers.append(m)
    bitmask = (ctypes.c_int32 * (a.batch * words))()
    handles = (ctypes.c_void_p * a.batch)(*[m.handle.value for m in matchers])
    lib = gd._lib.lib

    def batch(threads):
        status = lib.gd_matcher_fill_bitmask_batch(handles, a.batch, ctypes.addressof(bitmask), a.batch, words, None,
                                                   threads, None)
        if status:
            raise RuntimeError(lib.gd_last_error_message().decode())

    batch(1)  # every state visited once
    results = {}
    for threads in sorted(set([1] + a.threads)):
        times = []
        for _ in range(a.rounds):
            start = time.perf_counter()
            batch(threads)
            times.append((time.perf_counter() - start) * 1e6)
        results[threads] = {"median_us": statistics.median(times), "p90_us": sorted(times)[int(0.9 * len(times))]}
    base = results[1]["median_us"]
    print(f"batch fill of {a.batch} matchers, vocabulary {a.vocab_size}, {os.cpu_count()} CPUs, {a.rounds} rounds")
    print("threads  median_us  p90_us  speedup")
    for threads, r in results.items():
        print(f"{threads:7d}  {r['median_us']:9.1f}  {r['p90_us']:6.1f}  {base / r['median_us']:6.2f}x")
        r["speedup"] = base / r["median_us"]
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"batch": a.batch, "vocab_size": a.vocab_size, "cpus": os.cpu_count(), "results": results}, f,
                      indent=2)


if __name__ == "__main__":
    main()
