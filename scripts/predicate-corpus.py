#!/usr/bin/env python3
"""What the keywords of #29 cost per mask (docs/performance.md, "What the #29 keywords cost").

`write SRC OUT` copies every MaskBench file of SRC whose schema uses `uniqueItems: true`, `contains`
(`minContains`, `maxContains`), `propertyNames`, `not` or `oneOf` twice, keeping only the valid tests so
both walk the same tokens:
  OUT/with/     the schema as it is;
  OUT/without/  the same schema relaxed: those keywords dropped and `oneOf` read as `anyOf` (outside `if`
                conditions, where dropping a negation would not relax, and outside the names of members).

`compare --with A.jsonl... --without B.jsonl... [--rest C.jsonl]` reads `guided-conformance maskbench`
outputs of both (several runs each; files that compile in both) and prints the pooled percentiles of each
run, the per-file p99 ratio (minimum over the runs) and, with --rest (a run over the whole corpus), the
same figures for the files that use none of the keywords.

    python3 scripts/predicate-corpus.py write ../shared/corpora/maskbench-dev /tmp/pred
    guided-conformance maskbench /tmp/pred/with --vocab ../shared/vocab/qwen2.tiktoken --preset qwen2 \\
        --property-order sets --cpu-time --output with-1.jsonl          # and /tmp/pred/without
"""
import argparse
import json
import math
import statistics
import sys
from pathlib import Path

DROPPED = {"uniqueItems", "contains", "minContains", "maxContains", "propertyNames", "not"}
# Keywords whose value is a map from member (or definition) names to schemas: their keys are names.
NAME_MAPS = {"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"}


def uses_keywords(value, names=False):
    if isinstance(value, dict):
        for key, sub in value.items():
            if not names:
                if key == "oneOf" or (key in DROPPED and (key != "uniqueItems" or sub is True)):
                    return True
            if uses_keywords(sub, names=(key in NAME_MAPS and not names)):
                return True
    elif isinstance(value, list):
        return any(uses_keywords(sub) for sub in value)
    return False


def relaxed(value, names=False):
    if isinstance(value, list):
        return [relaxed(sub) for sub in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, sub in value.items():
        if names:
            out[key] = relaxed(sub)
        elif key in DROPPED:
            continue
        elif key == "if":
            out[key] = sub
        elif key == "oneOf":
            branches = relaxed(sub)
            if "anyOf" in value:
                out.setdefault("allOf", []).append({"anyOf": branches})
            else:
                out["anyOf"] = branches
        elif key == "allOf" and "allOf" in out:
            out["allOf"] = relaxed(sub) + out["allOf"]
        else:
            out[key] = relaxed(sub, names=(key in NAME_MAPS))
    return out


def write(src, out):
    for name in ("with", "without"):
        (out / name).mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(src.glob("*.json")):
        doc = json.loads(path.read_text())
        if not uses_keywords(doc["schema"]):
            continue
        doc["tests"] = [test for test in doc["tests"] if test["valid"]]
        if not doc["tests"]:
            continue
        (out / "with" / path.name).write_text(json.dumps(doc))
        (out / "without" / path.name).write_text(json.dumps(dict(doc, schema=relaxed(doc["schema"]))))
        count += 1
    print(f"{count} files in {out}/with and {out}/without")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def load(path):
    rows = (json.loads(line) for line in open(path))
    return {row["id"]: row["all_mask_us"] for row in rows if row.get("compile_error") is None and row.get("all_mask_us")}


def describe(label, runs, ids):
    for index, run in enumerate(runs, 1):
        masks = [t for name in ids for t in run[name]]
        per_file = [percentile(run[name], 99) for name in ids]
        print(f"{label} run {index}: {len(ids)} files, {len(masks)} masks, mean {statistics.mean(masks):.2f} µs, "
              f"p50 {percentile(masks, 50):.2f}, p99 {percentile(masks, 99):.1f}, p99.9 {percentile(masks, 99.9):.0f}, "
              f"max {max(masks):.0f}; per-file p99 median {statistics.median(per_file):.1f}")


def compare(args):
    with_runs = [load(p) for p in args.with_]
    without_runs = [load(p) for p in args.without]
    ids = sorted(set.intersection(*(set(r) for r in with_runs + without_runs)))
    describe("with", with_runs, ids)
    describe("without", without_runs, ids)

    def least_p99(runs, name):
        return min(percentile(run[name], 99) for run in runs)

    ratios = sorted((least_p99(with_runs, n) / least_p99(without_runs, n), n) for n in ids)
    values = [r for r, _ in ratios]
    print(f"per-file p99, with / without (minimum over runs): geometric mean "
          f"{math.exp(statistics.mean(math.log(r) for r in values)):.3f}, median {statistics.median(values):.3f}, "
          f"p90 {percentile(values, 90):.2f}, max {values[-1]:.2f}")
    for ratio, name in reversed(ratios[-5:]):
        print(f"  {name}: {least_p99(with_runs, name):.0f} µs against {least_p99(without_runs, name):.0f} µs ({ratio:.1f}x)")
    if args.rest:
        rest = load(args.rest)
        names = set(json.loads(line)["id"] for p in args.with_ for line in open(p))
        describe("files without the keywords", [rest], sorted(set(rest) - names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    w = commands.add_parser("write")
    w.add_argument("src", type=Path)
    w.add_argument("out", type=Path)
    c = commands.add_parser("compare")
    c.add_argument("--with", dest="with_", nargs="+", required=True)
    c.add_argument("--without", nargs="+", required=True)
    c.add_argument("--rest")
    args = parser.parse_args()
    if args.command == "write":
        write(args.src, args.out)
    else:
        compare(args)


if __name__ == "__main__":
    sys.exit(main())
