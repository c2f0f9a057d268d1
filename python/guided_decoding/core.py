"""Vocabularies, compilers, grammars and matchers: thin objects over the C handles."""

from __future__ import annotations

import ctypes
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from typing import Any

from ._lib import lib
from .errors import check

JSON_SCHEMA, GBNF, REGEX, CHOICES = 1, 2, 3, 4


class _Handle:
    """Owns one C handle; `close()` (or garbage collection) frees it once."""

    _free = None

    def __init__(self, handle: ctypes.c_void_p):
        self._handle = handle
        self._closed = False

    @property
    def handle(self) -> ctypes.c_void_p:
        return self._handle

    def close(self) -> None:
        """Frees the handle. Later calls on this object raise InvalidHandleError (the engine detects a freed
        handle), not a crash."""
        if self._closed or not self._handle.value:
            return
        self._closed = True
        check(type(self)._free(self._handle))

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone already
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Vocabulary(_Handle):
    """A model's tokens (their exact bytes), end-of-sequence ids and logits width."""

    _free = lib.gd_vocab_free

    @classmethod
    def from_file(cls, path: str | os.PathLike, *, preset: str | None = None, eos_tokens: Sequence[str] | None = None,
                  vocab_size: int | None = None) -> "Vocabulary":
        """tokenizer.json, tiktoken (with `preset`), SentencePiece .model or GGUF. `eos_tokens` are special-token
        texts; `vocab_size` the logits width when larger than the token count."""
        options: dict[str, Any] = {}
        if preset is not None:
            options["preset"] = preset
        if eos_tokens is not None:
            options["eos_tokens"] = list(eos_tokens)
        if vocab_size is not None:
            options["vocab_size"] = int(vocab_size)
        out = ctypes.c_void_p()
        check(lib.gd_vocab_new_from_file(os.fsencode(path), json.dumps(options).encode(), ctypes.byref(out)))
        return cls(out)

    @classmethod
    def from_tokens(cls, tokens: Sequence[bytes], *, eos_ids: Iterable[int] = (), special_ids: Iterable[int] = (),
                    vocab_size: int | None = None) -> "Vocabulary":
        """Each token's bytes in id order; special ids are never produced by a grammar (EOS ids are special too)."""
        data = b"".join(tokens)
        offsets = (ctypes.c_uint32 * (len(tokens) + 1))()
        total = 0
        for i, t in enumerate(tokens):
            total += len(t)
            offsets[i + 1] = total
        eos = [int(e) for e in eos_ids]
        special = [int(s) for s in special_ids]
        out = ctypes.c_void_p()
        buf = (ctypes.c_uint8 * max(1, len(data))).from_buffer_copy(data.ljust(1, b"\0"))
        check(lib.gd_vocab_new_from_tokens(buf, offsets, len(tokens), (ctypes.c_int32 * max(1, len(eos)))(*eos),
                                           len(eos), (ctypes.c_int32 * max(1, len(special)))(*special), len(special),
                                           int(vocab_size or 0), ctypes.byref(out)))
        return cls(out)

    @classmethod
    def from_hf_tokenizer(cls, tokenizer, *, vocab_size: int | None = None,
                          eos_token_ids: Iterable[int] | None = None) -> "Vocabulary":
        """From a Hugging Face fast tokenizer: its tokenizer.json goes through the engine's own loader (exact
        token bytes, byte-level or SentencePiece-style alike). `eos_token_ids` default to the tokenizer's EOS."""
        backend = getattr(tokenizer, "backend_tokenizer", None)
        if backend is None:
            raise TypeError("guided_decoding: a fast (tokenizer.json) Hugging Face tokenizer is needed")
        ids = list(eos_token_ids) if eos_token_ids is not None else [tokenizer.eos_token_id]
        eos_texts = [tokenizer.convert_ids_to_tokens(int(i)) for i in ids if i is not None]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "tokenizer.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(backend.to_str())
            return cls.from_file(path, eos_tokens=eos_texts or None,
                                 vocab_size=vocab_size if vocab_size and vocab_size > len(tokenizer) else None)

    def _info(self) -> tuple[int, int, int]:
        size, n, words = ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_size_t()
        check(lib.gd_vocab_info(self._handle, ctypes.byref(size), ctypes.byref(n), ctypes.byref(words)))
        return size.value, n.value, words.value

    @property
    def size(self) -> int:
        """Logits width (mask bits)."""
        return self._info()[0]

    @property
    def token_count(self) -> int:
        return self._info()[1]

    @property
    def mask_words(self) -> int:
        """int32 words of one bitmask row."""
        return self._info()[2]

    @property
    def eos_ids(self) -> list[int]:
        count = ctypes.c_size_t()
        buf = (ctypes.c_int32 * 64)()
        check(lib.gd_vocab_eos_ids(self._handle, buf, 64, ctypes.byref(count)))
        return list(buf[: count.value])

    def token_bytes(self, token: int) -> bytes:
        n = ctypes.c_size_t()
        buf = (ctypes.c_uint8 * 1024)()
        check(lib.gd_vocab_token_bytes(self._handle, int(token), buf, 1024, ctypes.byref(n)))
        return bytes(buf[: n.value])


class Grammar(_Handle):
    """A grammar compiled (or compiling in the background) for one vocabulary."""

    _free = lib.gd_grammar_free

    def __init__(self, handle: ctypes.c_void_p, vocabulary: Vocabulary):
        super().__init__(handle)
        self.vocabulary = vocabulary

    @property
    def is_ready(self) -> bool:
        """True once compiled; raises the compile's error if it failed."""
        status = lib.gd_grammar_status(self._handle)
        if status == 9:
            return False
        check(status)
        return True

    def wait(self, timeout: float | None = None) -> None:
        """Waits for a background compile (seconds; None: forever); raises its error, or PendingError."""
        ms = -1 if timeout is None else int(timeout * 1000)
        check(lib.gd_grammar_wait(self._handle, ms))


class Compiler(_Handle):
    """Compiles grammars for one vocabulary and caches them by (kind, text, options)."""

    _free = lib.gd_compiler_free

    def __init__(self, vocabulary: Vocabulary, max_entries: int = 0):
        out = ctypes.c_void_p()
        check(lib.gd_compiler_new(vocabulary.handle, int(max_entries), ctypes.byref(out)))
        super().__init__(out)
        self.vocabulary = vocabulary

    def compile(self, kind: int, text: str, options: dict[str, Any] | None = None, *,
                background: bool = False) -> Grammar:
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        opts = json.dumps(options).encode() if options else None
        out = ctypes.c_void_p()
        check(lib.gd_compile(self._handle, kind, data, len(data), opts, 1 if background else 0, ctypes.byref(out)))
        return Grammar(out, self.vocabulary)

    def compile_json_schema(self, schema: str | dict, *, background: bool = False, **options) -> Grammar:
        """A JSON Schema (text or a dict); options as in guided_decoding.h, e.g. whitespace="compact",
        property_order="member_sets", additional_properties="forbid", unknown_formats="refuse"."""
        text = schema if isinstance(schema, str) else json.dumps(schema)
        return self.compile(JSON_SCHEMA, text, options or None, background=background)

    def compile_gbnf(self, grammar: str, *, background: bool = False) -> Grammar:
        return self.compile(GBNF, grammar, background=background)

    def compile_regex(self, pattern: str, *, background: bool = False) -> Grammar:
        return self.compile(REGEX, pattern, background=background)

    def compile_choices(self, choices: Sequence[str], *, background: bool = False) -> Grammar:
        return self.compile(CHOICES, json.dumps(list(choices)), background=background)

    @property
    def cache_size(self) -> int:
        n = ctypes.c_size_t()
        check(lib.gd_compiler_cache_size(self._handle, ctypes.byref(n)))
        return n.value


def _int32_array(values: Sequence[int]):
    n = len(values)
    return (ctypes.c_int32 * max(1, n))(*values), n


class Matcher(_Handle):
    """The state of one sequence under a grammar: which tokens may come next."""

    _free = lib.gd_matcher_free

    def __init__(self, grammar: Grammar, max_rollback: int = 256, *, _handle: ctypes.c_void_p | None = None):
        if _handle is None:
            _handle = ctypes.c_void_p()
            check(lib.gd_matcher_new(grammar.handle, int(max_rollback), ctypes.byref(_handle)))
        super().__init__(_handle)
        self.grammar = grammar

    @property
    def mask_words(self) -> int:
        n = ctypes.c_size_t()
        check(lib.gd_matcher_mask_words(self._handle, ctypes.byref(n)))
        return n.value

    def fill_bitmask_ptr(self, address: int, words: int) -> None:
        """Fills `words` int32 words at a raw address (the helpers in guided_decoding.bitmask check arrays)."""
        check(lib.gd_matcher_fill_bitmask(self._handle, address, words))

    def accept_token(self, token: int) -> bool:
        """Accepts one token; False (matcher unchanged) if the grammar refuses it."""
        return self.accept_tokens([token]) == 1

    def accept_tokens(self, tokens: Sequence[int]) -> int:
        """Accepts tokens in order up to the first refused one; returns how many were accepted."""
        arr, n = _int32_array(tokens)
        done = ctypes.c_size_t()
        status = lib.gd_matcher_accept_tokens(self._handle, arr, n, ctypes.byref(done))
        if status != 11:
            check(status)
        return done.value

    def accept_bytes(self, data: bytes) -> bool:
        status = lib.gd_matcher_accept_bytes(self._handle, data, len(data))
        if status == 11:
            return False
        check(status)
        return True

    def validate_tokens(self, tokens: Sequence[int]) -> int:
        """How many of `tokens`, from the first, would be accepted (the matcher does not move)."""
        arr, n = _int32_array(tokens)
        valid = ctypes.c_size_t()
        check(lib.gd_matcher_validate_tokens(self._handle, arr, n, ctypes.byref(valid)))
        return valid.value

    def rollback(self, n: int) -> None:
        check(lib.gd_matcher_rollback(self._handle, int(n)))

    def reset(self) -> None:
        check(lib.gd_matcher_reset(self._handle))

    def fork(self) -> "Matcher":
        out = ctypes.c_void_p()
        check(lib.gd_matcher_fork(self._handle, ctypes.byref(out)))
        return Matcher(self.grammar, _handle=out)

    @property
    def is_terminated(self) -> bool:
        out = ctypes.c_int32()
        check(lib.gd_matcher_is_terminated(self._handle, ctypes.byref(out)))
        return bool(out.value)

    @property
    def can_terminate(self) -> bool:
        out = ctypes.c_int32()
        check(lib.gd_matcher_can_terminate(self._handle, ctypes.byref(out)))
        return bool(out.value)

    def forced_bytes(self, limit: int = 256) -> bytes:
        buf = (ctypes.c_uint8 * max(1, limit))()
        n = ctypes.c_size_t()
        check(lib.gd_matcher_forced_bytes(self._handle, buf, limit, ctypes.byref(n)))
        return bytes(buf[: n.value])

    def forced_tokens(self, limit: int = 64) -> list[int]:
        buf = (ctypes.c_int32 * max(1, limit))()
        n = ctypes.c_size_t()
        check(lib.gd_matcher_forced_tokens(self._handle, buf, limit, ctypes.byref(n)))
        return list(buf[: n.value])

    @property
    def error(self) -> str | None:
        """The matcher's sticky error message, or None while it works."""
        status = lib.gd_matcher_error(self._handle)
        if status == 10:
            return (lib.gd_last_error_message() or b"").decode("utf-8", "replace")
        check(status)
        return None
