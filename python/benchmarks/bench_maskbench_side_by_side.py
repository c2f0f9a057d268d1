"""MaskBench side by side: this engine (member sets and declared order) and llguidance, on the same files and
the same tokens, interleaved file by file, one thread, thread CPU time.

The protocol is `guided-conformance maskbench`'s (../shared/corpora/README.md): compile the schema; for each
test, the instance as Python's `json.dumps(data, ensure_ascii=False)` writes it, tokenized without special
tokens; per token fill the mask, check the token is allowed, commit it; after the last token one more mask,
which must allow end of sequence. TTFM is compile plus the first mask; TBM every mask. Both engines are
called through Python (this engine through its ctypes binding, llguidance through its PyO3 one), each timed
around the single native call that fills the mask, so each mask includes one call of its binding; the
bindings' bare call cost is measured and printed, so it can be taken off. Each file runs the engines in a
rotating order, so neither is always the one that finds the caches warm.

    python3 bench_maskbench_side_by_side.py ../shared/corpora/maskbench-dev \
        --tokenizer ../shared/vocab/qwen2.tokenizer.json --output side.jsonl [--lib libGuidedDecodingC.so]

Needs numpy, transformers (for the tokenizer) and llguidance (PyPI). llguidance runs with its JSON
defaults (flexible whitespace), this engine with its own (whitespace runs up to 20), unknown formats
ignored by both: the options `guided-conformance maskbench` uses.
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

from _common import load

VOCAB_SIZE = 151936  # Qwen2's logits width


def percentile(values, p):
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))]


class Ours:
    """This engine through its C ABI: compile, then a matcher per test."""

    def __init__(self, gd, tokenizer, eos, order):
        self.gd, self.order, self.eos = gd, order, eos
        self.name = "ours-" + order
        vocab = gd.Vocabulary.from_hf_tokenizer(tokenizer, vocab_size=VOCAB_SIZE, eos_token_ids=[eos])
        self.compiler = gd.Compiler(vocab)
        self.fill = gd.core.lib.gd_matcher_fill_bitmask

    def compile(self, schema):
        order = "member_sets" if self.order == "sets" else "declared"
        try:
            return self.compiler.compile_json_schema(schema, property_order=order, unknown_formats="ignore"), None
        except self.gd.GuidedDecodingError as e:
            return None, str(e)

    def matcher(self, grammar):
        return self.gd.Matcher(grammar)

    def timed_fill(self, matcher, address, words):
        handle, fill = matcher.handle, self.fill
        t0 = time.thread_time_ns()
        status = fill(handle, address, words)
        t1 = time.thread_time_ns()
        return status == 0, (t1 - t0) / 1000

    def accept(self, matcher, token):
        return matcher.accept_token(token)

    def done(self, matcher):
        return matcher.can_terminate

    def close(self, matcher):
        matcher.close()


class LLGuidance:
    name = "llguidance"

    def __init__(self, llguidance, hf, tokenizer, eos):
        self.llg, self.eos = llguidance, eos
        self.tokenizer = hf.from_tokenizer(tokenizer, VOCAB_SIZE)

    def compile(self, schema):
        grammar = self.llg.LLMatcher.grammar_from_json_schema(schema)
        matcher = self.llg.LLMatcher(self.tokenizer, grammar, log_level=0)
        if matcher.is_error():
            return None, matcher.get_error()
        return (grammar, matcher), None

    def matcher(self, compiled):
        grammar, first = compiled
        if first is not None:  # the matcher made at compile time serves the first test
            compiled[1] = None
            return first
        return self.llg.LLMatcher(self.tokenizer, grammar, log_level=0)

    def timed_fill(self, matcher, address, words):
        fill = matcher.unsafe_compute_mask_ptr
        t0 = time.thread_time_ns()
        fill(address, words * 4)
        t1 = time.thread_time_ns()
        return not matcher.is_error(), (t1 - t0) / 1000

    def accept(self, matcher, token):
        return matcher.consume_token(token)

    def done(self, matcher):
        return matcher.is_accepting()

    def close(self, matcher):
        pass


def run_file(engine, schema, tests, row, address, words):
    """One file through one engine, as `guided-conformance maskbench` runs it."""
    r = {"engine": engine.name, "compile_error": None, "validation_error": None, "invalidation_error": None,
         "ttfm_us": None, "all_mask_us": []}
    t0 = time.thread_time_ns()
    compiled, error = engine.compile(schema)
    compile_us = (time.thread_time_ns() - t0) / 1000
    if error is not None:
        r["compile_error"] = error[:300]
        return r
    if isinstance(compiled, tuple):
        compiled = list(compiled)
    if not tests:
        m = engine.matcher(compiled)
        ok, us = engine.timed_fill(m, address, words)
        r["ttfm_us"] = compile_us + us
        r["all_mask_us"].append(us)
        engine.close(m)
        return r
    for valid, tokens in tests:
        m = engine.matcher(compiled)
        accepted = True
        for t in tokens + [None]:
            ok, us = engine.timed_fill(m, address, words)
            if r["ttfm_us"] is None:
                r["ttfm_us"] = compile_us + us
            r["all_mask_us"].append(us)
            if not ok:
                accepted = False
                break
            want = engine.eos if t is None else t
            if not (int(row[want >> 5]) >> (want & 31)) & 1:
                accepted = False
                break
            if t is None:
                accepted = engine.done(m)
            elif not engine.accept(m, t):
                accepted = False
                break
        engine.close(m)
        if valid and not accepted and r["validation_error"] is None:
            r["validation_error"] = "valid instance rejected"
        if not valid and accepted and r["invalidation_error"] is None:
            r["invalidation_error"] = "invalid instance accepted"
    return r


def bare_call_us(fn, rounds=20000):
    """Median thread CPU time of a timed native call that does nothing (the binding plus the clock)."""
    times = []
    for _ in range(rounds):
        t0 = time.thread_time_ns()
        fn()
        times.append(time.thread_time_ns() - t0)
    return percentile(times, 50) / 1000


def summarize(results, engines):
    files = sorted(results)
    print(f"{'engine':16} {'passing':>9} {'compile err':>11} {'valid rej':>9} {'invalid acc':>11} "
          f"{'TBM mean':>9} {'p50':>6} {'p99':>7} {'p99.9':>7} {'max':>8} {'TTFM p50':>9} {'p99':>8} {'max':>8}")
    for e in engines:
        rs = [results[f][e] for f in files]
        ok = [r for r in rs if r["compile_error"] is None]
        masks = [m for r in ok for m in r["all_mask_us"]]
        ttfm = [r["ttfm_us"] for r in ok if r["ttfm_us"] is not None]
        passing = sum(1 for r in ok if not r["validation_error"] and not r["invalidation_error"])
        print(f"{e:16} {passing:>9} {len(rs) - len(ok):>11} {sum(1 for r in ok if r['validation_error']):>9} "
              f"{sum(1 for r in ok if r['invalidation_error']):>11} {sum(masks) / max(1, len(masks)):>9.1f} "
              f"{percentile(masks, 50):>6.1f} {percentile(masks, 99):>7.0f} {percentile(masks, 99.9):>7.0f} "
              f"{max(masks, default=0):>8.0f} {percentile(ttfm, 50) / 1000:>8.2f}m {percentile(ttfm, 99) / 1000:>7.1f}m "
              f"{max(ttfm, default=0) / 1000:>7.1f}m")
    both = [f for f in files if all(results[f][e]["compile_error"] is None and not results[f][e]["validation_error"]
                                    and not results[f][e]["invalidation_error"] for e in engines)]
    print(f"\nOn the {len(both)} files every engine passes:")
    base = "llguidance"
    for e in engines:
        masks = [m for f in both for m in results[f][e]["all_mask_us"]]
        ttfm = [results[f][e]["ttfm_us"] for f in both]
        line = (f"  {e:16} TBM mean {sum(masks) / max(1, len(masks)):7.1f} us  p99 {percentile(masks, 99):6.0f}  "
                f"p99.9 {percentile(masks, 99.9):6.0f}  max {max(masks, default=0):7.0f}  "
                f"TTFM p50 {percentile(ttfm, 50) / 1000:6.2f} ms  p99 {percentile(ttfm, 99) / 1000:6.1f}  "
                f"max {max(ttfm, default=0) / 1000:6.1f}")
        if e != base:
            ratios, mine, theirs = [], 0.0, 0.0
            for f in both:
                a, b = results[f][e]["all_mask_us"], results[f][base]["all_mask_us"]
                ma, mb = sum(a) / len(a), sum(b) / len(b)
                ratios.append(ma / mb)
                mine += ma
                theirs += mb
            geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            line += f"  per-file mean mask vs llguidance: geometric mean {geo:.2f}, ratio of means {mine / theirs:.2f}"
        print(line)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("directory", help="folder of MaskBench .json files")
    p.add_argument("--tokenizer", required=True, help="the model's tokenizer.json (Qwen2's)")
    p.add_argument("--eos-token", default="<|endoftext|>")
    p.add_argument("--lib", help="libGuidedDecodingC.so to load (default: the package's own)")
    p.add_argument("--output", help="write one JSON line per file and engine")
    p.add_argument("--limit", type=int, help="only the first N files in name order")
    args = p.parse_args()

    gd = load(args.lib)
    try:
        import numpy as np
        import transformers
        import llguidance
        import llguidance.hf as llg_hf
    except ImportError as e:
        sys.exit(f"bench_maskbench_side_by_side: needs numpy, transformers and llguidance ({e}); "
                 "python/tests/setup_test_venv.sh makes a venv with them")
    if not Path(args.directory).is_dir():
        sys.exit(f"bench_maskbench_side_by_side: {args.directory} is not a folder of MaskBench .json files")

    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_file=args.tokenizer, eos_token=args.eos_token)
    eos = tokenizer.convert_tokens_to_ids(args.eos_token)
    engines = [Ours(gd, tokenizer, eos, "sets"), Ours(gd, tokenizer, eos, "declared"),
               LLGuidance(llguidance, llg_hf, tokenizer, eos)]
    names = [e.name for e in engines]
    words = (VOCAB_SIZE + 31) // 32
    row = np.zeros(words, dtype=np.int32)
    address = row.ctypes.data

    probe_grammar = engines[0].compiler.compile_json_schema({"type": "integer"})
    probe_ours = gd.Matcher(probe_grammar)
    flag = gd.core.ctypes.c_int32()
    flag_ref = gd.core.ctypes.byref(flag)
    probe_theirs = llguidance.LLMatcher(engines[2].tokenizer,
                                        llguidance.LLMatcher.grammar_from_json_schema({"type": "integer"}), log_level=0)
    print(f"bare timed call (median us): clock alone {bare_call_us(lambda: None):.2f}, "
          f"ours (ctypes, gd_matcher_is_terminated) {bare_call_us(lambda: gd.core.lib.gd_matcher_is_terminated(probe_ours.handle, flag_ref)):.2f}, "
          f"llguidance (PyO3, is_accepting) {bare_call_us(probe_theirs.is_accepting):.2f}")

    paths = sorted(Path(args.directory).glob("*.json"))
    if args.limit:
        paths = paths[: args.limit]
    out = open(args.output, "w") if args.output else None
    results = {}
    for n, path in enumerate(paths):
        case = json.loads(path.read_text())
        schema = case["schema"]
        tests = []
        for test in case.get("tests", []):
            text = json.dumps(test["data"], ensure_ascii=False)
            tests.append((bool(test["valid"]), tokenizer.encode(text, add_special_tokens=False)))
        results[path.name] = {}
        for k in range(len(engines)):
            engine = engines[(n + k) % len(engines)]
            r = run_file(engine, schema, tests, row, address, words)
            r["id"] = path.name
            results[path.name][engine.name] = r
            if out:
                out.write(json.dumps(r) + "\n")
        if sys.stderr.isatty():
            print(f"\r{n + 1}/{len(paths)}", end="", file=sys.stderr)
    if out:
        out.close()
    print(file=sys.stderr)
    summarize(results, names)


if __name__ == "__main__":
    main()
