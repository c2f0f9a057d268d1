#!/usr/bin/env python3
"""Builds Corpora/stress/ from a SchemaStore checkout (github SchemaStore/schemastore, Apache-2.0).

Usage: pick_schemas.py GIT_DIR COMMIT OUT_DIR [--count N] [--max-bytes B]

The rule (stated in Corpora/stress/README.md; it looks at size and self-containment only, never at how
fast any engine is on a schema):
  1. every src/schemas/json/*.json at COMMIT that parses as JSON and is an object;
  2. self-contained: every "$ref" string starts with "#" (the benchmark has no registry of other files);
  3. one file per family: the name is cut before its first dot or version-like part ("-43", "-1.25.0",
     "-v5.0.0", ".55.schema"), and of the files sharing a family the largest is kept;
  4. at most B bytes (default 160,000) as published, so that the corpus stays small;
  5. the N largest of what is left (default 60), by published size.
Each is written as a MaskBench file: {"description", "meta": {source, license, ...}, "schema", "tests": []}
(tests are filled by `guided-conformance sample`).
"""
import json, os, re, subprocess, sys

# A family is the name up to its first dot or version-like part ("sarif-2.1.0-rtm.4", "cryproj.55.schema",
# "clang-format-21.x", "traefik-v3-file-provider").
VERSION = re.compile(r"(\.|[-_]v?\d).*$")

def refs_local(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "$ref" and isinstance(x, str) and not x.startswith("#"):
                return False
            if not refs_local(x):
                return False
    elif isinstance(v, list):
        return all(refs_local(x) for x in v)
    return True

def main():
    args = sys.argv[1:]
    count, max_bytes = 60, 160_000
    if "--count" in args:
        i = args.index("--count"); count = int(args[i + 1]); del args[i:i + 2]
    if "--max-bytes" in args:
        i = args.index("--max-bytes"); max_bytes = int(args[i + 1]); del args[i:i + 2]
    git_dir, commit, out = args
    listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-l", commit, "src/schemas/json/"],
                             check=True, capture_output=True, text=True).stdout
    families = {}
    for line in listing.splitlines():
        meta, path = line.split("\t")
        size_field = meta.split()[3]
        if not size_field.isdigit():
            continue  # a blob the snapshot does not hold
        size = int(size_field)
        name = os.path.basename(path)
        if not name.endswith(".json") or size > max_bytes:
            continue
        shown = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], capture_output=True)
        if shown.returncode != 0:
            continue
        text = shown.stdout
        try:
            schema = json.loads(text)
        except ValueError:
            continue
        if not isinstance(schema, dict) or not refs_local(schema):
            continue
        family = VERSION.sub("", name[:-5])
        if family not in families or families[family][0] < size:
            families[family] = (size, path, schema)
    chosen = sorted(families.values(), key=lambda e: (-e[0], e[1]))[:count]
    os.makedirs(out, exist_ok=True)
    for size, path, schema in chosen:
        name = os.path.basename(path)
        doc = {
            "description": f"SchemaStore {name}",
            "meta": {
                "source": f"https://github.com/SchemaStore/schemastore/blob/{commit}/{path}",
                "license": "Apache-2.0 (SchemaStore; see Corpora/stress/LICENSE-SchemaStore)",
                "published_size": size,
                "features": ["stress"],
            },
            "schema": schema,
            "tests": [],
        }
        with open(os.path.join(out, "schemastore-" + name), "w") as f:
            json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        print(f"{size:8d} {name}")

main()
