#!/usr/bin/env python3
"""Writes a MaskBench-style corpus of short open objects (docs/performance.md, "Current figures"): 300
copies of maskbench-dev's JME_42 (a four-member function schema, undeclared members allowed) whose
member names carry the copy's number (`toyName0`, ..., `SKU299`), each with its valid instance renamed
alike. Every copy compiles to a grammar of its own, so under member sets every key position is a first
visit of a string state: the masks the short function-calling schemas of MaskBench are made of.

    python3 scripts/key-positions-corpus.py ../shared/corpora/maskbench-dev/JME_42.json /tmp/keys
    guided-conformance maskbench /tmp/keys --vocab ../shared/vocab/qwen2.tiktoken --preset qwen2 \\
        --property-order sets --cpu-time --output keys.jsonl
"""
import json
import sys
from pathlib import Path


def renamed(value, names, k):
    """`value` with every object key in `names` suffixed by `k`."""
    if isinstance(value, dict):
        return {(f"{key}{k}" if key in names else key): renamed(v, names, k) for key, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names, k) for v in value]
    return value


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: key-positions-corpus.py JME_42.json OUT")
    source = json.loads(Path(sys.argv[1]).read_text())
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    schema = source["schema"]
    names = set(schema["properties"])
    valid = next(t for t in source["tests"] if t.get("valid"))
    for k in range(300):
        copy = dict(schema)
        copy["properties"] = {f"{name}{k}": member for name, member in schema["properties"].items()}
        copy["required"] = [f"{name}{k}" for name in schema.get("required", [])]
        test = {"data": renamed(valid["data"], names, k), "valid": True, "description": "x"}
        (out / f"k{k:03d}.json").write_text(json.dumps({"schema": copy, "tests": [test]}))


if __name__ == "__main__":
    main()
