#!/usr/bin/env python3
"""Prints the Markdown table of Corpora/stress/README.md from the corpus files.

Usage: readme_table.py DIR
"""
import glob, json, os, sys

def count(v, key):
    if isinstance(v, dict):
        return sum(count(x, key) for x in v.values()) + (1 if key in v else 0)
    if isinstance(v, list):
        return sum(count(x, key) for x in v)
    return 0

print("| file | published bytes | definitions | `properties` | `pattern` | `$ref` | tests | source |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    doc = json.load(open(path))
    s = doc["schema"]
    defs = len(s.get("definitions", {}) or {}) + len(s.get("$defs", {}) or {})
    src = doc["meta"]["source"]
    print(f"| {os.path.basename(path)} | {doc['meta']['published_size']:,} | {defs} | {count(s, 'properties')} | "
          f"{count(s, 'pattern')} | {count(s, '$ref')} | {len(doc['tests'])} | [SchemaStore]({src}) |")
