"""GuidedDecoding for Python: grammar-constrained decoding (JSON Schema, GBNF, regex, choices) through the
engine's C ABI (libGuidedDecodingC.so, shipped inside this package).

    vocab = Vocabulary.from_file("tokenizer.json", vocab_size=151936)
    grammar = Compiler(vocab).compile_json_schema({"type": "object", ...})
    matcher = Matcher(grammar)
    bitmask = allocate_token_bitmask(1, vocab.size)
    fill_next_token_bitmask(matcher, bitmask)      # then mask logits, sample, matcher.accept_token(t)

Integrations: guided_decoding.hf (transformers LogitsProcessor), guided_decoding.vllm_backend and
guided_decoding.sglang_backend (docs/python.md says how each engine selects them)."""

from .bitmask import (allocate_token_bitmask, apply_token_bitmask_inplace, fill_next_token_bitmask,
                      fill_next_token_bitmask_batch, mask_words)
from .core import CHOICES, GBNF, JSON_SCHEMA, REGEX, Compiler, Grammar, Matcher, Vocabulary
from .errors import (BufferTooSmallError, CompileError, GrammarSyntaxError, GuidedDecodingError, InternalError,
                     InvalidArgumentError, InvalidHandleError, MatcherFailedError, NullArgumentError, PendingError,
                     RollbackError, SchemaError, TokenizerError, TokenRejectedError)
from ._lib import library_path

__version__ = "0.1.0"

__all__ = [
    "Vocabulary", "Compiler", "Grammar", "Matcher", "JSON_SCHEMA", "GBNF", "REGEX", "CHOICES",
    "allocate_token_bitmask", "fill_next_token_bitmask", "fill_next_token_bitmask_batch",
    "apply_token_bitmask_inplace", "mask_words", "library_path",
    "GuidedDecodingError", "NullArgumentError", "InvalidHandleError", "BufferTooSmallError", "InvalidArgumentError",
    "TokenizerError", "SchemaError", "GrammarSyntaxError", "CompileError", "PendingError", "MatcherFailedError",
    "TokenRejectedError", "RollbackError", "InternalError",
]
