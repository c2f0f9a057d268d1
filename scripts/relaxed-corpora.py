#!/usr/bin/env python3
"""Relaxed copies of a MaskBench corpus, to look for valid instances the engine rejects (docs/reliability.md,
"Relaxed schemas").

Dropping a constraint can only make a schema accept more: every valid instance of the original is still
valid. So `guided-conformance maskbench` over a relaxed copy (valid tests only) must report no validation
error, except where a departure documented in docs/json-schema.md applies; each one it reports is either
that or a completeness bug of the engine. A relaxation is monotone only outside `not`, `if` and `oneOf`
(dropping a constraint there can make the whole schema reject), so those subtrees, and every location a
`$ref` inside them reaches, are left as they are.

    python3 scripts/relaxed-corpora.py ../shared/corpora/maskbench-dev /tmp/relaxed
    for g in /tmp/relaxed/*/; do guided-conformance maskbench $g --vocab ../shared/vocab/qwen2.tiktoken \\
        --preset qwen2 --property-order sets; done

One folder per group of dropped keywords (`members` replaces every declared member's schema by `{}`),
and `shuffled`: the schemas as they are, each valid instance three times with its objects' members in a
random order (seed 43), which JSON Schema never distinguishes (for member-set order: any order is valid).
"""
import json
import random
import sys
from pathlib import Path

GROUPS = {
    "required": {"required", "minProperties", "dependentRequired", "dependencies"},
    "closed": {"additionalProperties", "unevaluatedProperties", "maxProperties", "propertyNames", "patternProperties"},
    "strings": {"pattern", "format", "minLength", "maxLength", "contentEncoding", "contentMediaType"},
    "numbers": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "arrays": {"minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "additionalItems",
               "unevaluatedItems", "items", "prefixItems"},
    "enums": {"enum", "const"},
    "types": {"type"},
    "members": set(),
    "shuffled": set(),
}
# Keywords whose value maps names to schemas: its keys are names, not keywords.
NAME_MAPS = {"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"}
# Where dropping a constraint is not a relaxation of the whole schema.
NOT_MONOTONE = {"not", "if", "oneOf"}


def escape(token):
    return token.replace("~", "~0").replace("/", "~1")


def resolve(schema, pointer):
    value = schema
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return None
    return value


def kept_as_is(schema):
    """Pointers of the subtrees under `NOT_MONOTONE` keywords and of every local `$ref` target they reach."""
    kept, work = set(), []

    def scan(value, pointer, names=False):
        if isinstance(value, dict):
            for key, sub in value.items():
                here = f"{pointer}/{escape(key)}"
                if not names and key in NOT_MONOTONE:
                    kept.add(here)
                    work.append(sub)
                else:
                    scan(sub, here, names=(key in NAME_MAPS and not names))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                scan(sub, f"{pointer}/{i}")

    def references(value, found):
        if isinstance(value, dict):
            for key, sub in value.items():
                if key == "$ref" and isinstance(sub, str) and sub.startswith("#"):
                    found.add(sub[1:])
                else:
                    references(sub, found)
        elif isinstance(value, list):
            for sub in value:
                references(sub, found)

    scan(schema, "")
    while work:
        found = set()
        references(work.pop(), found)
        for pointer in found - kept:
            kept.add(pointer)
            target = resolve(schema, pointer)
            if target is not None:
                work.append(target)
    return kept


def relaxed(value, group, kept, pointer="", names=False):
    if "" in kept or pointer in kept:
        return value
    if isinstance(value, list):
        return [relaxed(sub, group, kept, f"{pointer}/{i}") for i, sub in enumerate(value)]
    if not isinstance(value, dict):
        return value
    dropped = GROUPS[group]
    out = {}
    for key, sub in value.items():
        here = f"{pointer}/{escape(key)}"
        if names:
            member = group == "members" and pointer.endswith("/properties") and here not in kept
            out[key] = {} if member else relaxed(sub, group, kept, here)
        elif key in NOT_MONOTONE:
            out[key] = sub
        elif key in dropped and not (key == "additionalProperties" and sub is True):
            continue
        else:
            out[key] = relaxed(sub, group, kept, here, names=(key in NAME_MAPS))
    return out


def shuffled(value, rng):
    if isinstance(value, dict):
        members = [(key, shuffled(sub, rng)) for key, sub in value.items()]
        rng.shuffle(members)
        return dict(members)
    if isinstance(value, list):
        return [shuffled(sub, rng) for sub in value]
    return value


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: relaxed-corpora.py SRC OUT")
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    documents = [(path, json.loads(path.read_text())) for path in sorted(src.glob("*.json"))]
    for group in GROUPS:
        (out / group).mkdir(parents=True, exist_ok=True)
        count = 0
        rng = random.Random(43)
        for path, doc in documents:
            tests = [test for test in doc["tests"] if test["valid"]]
            if group == "shuffled":
                schema = doc["schema"]
                tests = [dict(test, description=f"{test['description']} (shuffled {k})", data=shuffled(test["data"], rng))
                         for test in tests for k in range(3)]
            else:
                schema = relaxed(doc["schema"], group, kept_as_is(doc["schema"]))
                if schema == doc["schema"]:
                    continue
            if not tests:
                continue
            (out / group / path.name).write_text(json.dumps(dict(doc, schema=schema, tests=tests)))
            count += 1
        print(f"{group}: {count} files")


if __name__ == "__main__":
    main()
