"""Shared by the benchmark scripts: load guided_decoding from this checkout with a given library, so a script
runs on a machine where the package is not installed (`--lib path/to/libGuidedDecodingC.so`)."""

import os
import sys
from pathlib import Path

# Schemas written for the benchmarks (no corpus needed on the benchmark machine): a small record, a nested
# list of objects, and a tool call with an enum and a free string.
SCHEMAS = [
    {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0},
                                      "email": {"type": "string", "format": "email"}},
     "required": ["name", "age"]},
    {"type": "object", "properties": {"items": {"type": "array", "items": {
        "type": "object", "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
                                         "qty": {"type": "integer"}, "price": {"type": "number"}},
        "required": ["sku", "qty"]}}, "total": {"type": "number"}}, "required": ["items"]},
    {"type": "object", "properties": {"tool": {"enum": ["search", "calculator", "weather"]},
                                      "arguments": {"type": "object", "properties": {
                                          "query": {"type": "string"}, "units": {"enum": ["metric", "imperial"]}}}},
     "required": ["tool", "arguments"]},
]


def load(lib: str | None):
    if lib:
        os.environ["GUIDED_DECODING_LIB"] = str(Path(lib).resolve())
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python/ of this checkout
    import guided_decoding
    return guided_decoding
