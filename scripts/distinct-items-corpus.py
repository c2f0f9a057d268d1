#!/usr/bin/env python3
"""Writes two MaskBench-style corpora for the cost of distinct string items (docs/performance.md,
"Distinct string items"): OUT/unique and OUT/plain hold the same 20 objects with a `tags` array of 5 to
200 random words, with and without `uniqueItems: true` (the unique ones add an invalid instance that
repeats a tag). Deterministic (seed 3).

    python3 scripts/distinct-items-corpus.py /tmp/distinct
    guided-conformance maskbench /tmp/distinct/unique --vocab ../shared/vocab/qwen2.tiktoken --preset qwen2 \\
        --property-order sets --cpu-time --output unique.jsonl      # and /tmp/distinct/plain
"""
import json
import random
import sys
from pathlib import Path


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: distinct-items-corpus.py OUT")
    out = Path(sys.argv[1])
    rng = random.Random(3)
    words = list(dict.fromkeys("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 12)))
                               for _ in range(4000)))
    for unique, name in ((True, "unique"), (False, "plain")):
        (out / name).mkdir(parents=True, exist_ok=True)
    for k in range(20):
        n = [5, 20, 60, 200][k % 4]
        data = {"name": f"x{k}", "tags": rng.sample(words, n) + ["a b", f"tag-{k}", "Ω€", 'q"uote']}
        for unique, name in ((True, "unique"), (False, "plain")):
            schema = {"type": "object", "required": ["tags"],
                      "properties": {"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": unique},
                                     "name": {"type": "string"}}}
            tests = [{"description": "valid", "valid": True, "data": data}]
            if unique:
                tests.append({"description": "a repeated tag", "valid": False, "data": {"tags": ["aa", "bb", "aa"]}})
            case = {"description": "", "meta": {}, "schema": schema, "tests": tests}
            (out / name / f"s{k:02d}.json").write_text(json.dumps(case))


if __name__ == "__main__":
    main()
