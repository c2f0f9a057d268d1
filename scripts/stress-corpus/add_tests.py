#!/usr/bin/env python3
"""Merges `guided-conformance sample --output FILE.jsonl` into the MaskBench files of a folder: each
instance text becomes a test {"description": "sampled, seed S", "valid": true, "data": value}.

Usage: add_tests.py DIR FILE.jsonl
"""
import json, os, sys

def main():
    folder, samples = sys.argv[1:]
    for line in open(samples):
        if not line.strip():
            continue
        entry = json.loads(line)
        path = os.path.join(folder, entry["id"])
        with open(path) as f:
            doc = json.load(f)
        doc["tests"] = [{"description": f"sampled, seed {i['seed']}", "valid": True, "data": json.loads(i["text"])}
                        for i in entry["instances"]]
        with open(path, "w") as f:
            json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")

main()
