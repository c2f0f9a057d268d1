"""Shared fixtures of the python/ tests: the tiny vocabulary of exact-mask tests, the shared data (../shared),
and the skip rule: a test needing a missing peer (torch, transformers, llguidance, sglang) or ../shared is
skipped with one line, unless GUIDED_REQUIRE_PEERS=1 (set by .ci/run), which turns that into a failure."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

import guided_decoding as gd

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GUIDED_SHARED_DIR", REPO.parent / "shared"))
REQUIRED = os.environ.get("GUIDED_REQUIRE_PEERS") == "1"
_announced: set[str] = set()


def need_module(name: str):
    """The module, or a skip (a failure under GUIDED_REQUIRE_PEERS=1)."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        if REQUIRED:
            pytest.fail(f"{name} is required (GUIDED_REQUIRE_PEERS=1) but does not import: {e}")
        if name not in _announced:
            _announced.add(name)
            print(f"\npython tests: {name} not installed; skipping its tests (python/tests/run.sh installs it)")
        pytest.skip(f"{name} not installed")


def need_shared(relative: str) -> Path:
    path = SHARED / relative
    if not path.exists():
        if REQUIRED:
            pytest.fail(f"{path} is required (GUIDED_REQUIRE_PEERS=1) but missing")
        if "shared" not in _announced:
            _announced.add("shared")
            print(f"\npython tests: {SHARED} not found; skipping the tests that read it")
        pytest.skip(f"{path} missing")
    return path


# Tokens: 0 "a", 1 "b", 2 "c", 3 "ab", 4 "bc", 5 "x", 6 "<|eos|>" (EOS); logits width 40 (2 words).
TINY_TOKENS = [b"a", b"b", b"c", b"ab", b"bc", b"x", b"<|eos|>"]


@pytest.fixture
def tiny():
    vocab = gd.Vocabulary.from_tokens(TINY_TOKENS, eos_ids=[6], vocab_size=40)
    return vocab, gd.Compiler(vocab)


@pytest.fixture(scope="session")
def qwen2_tokenizer():
    transformers = need_module("transformers")
    path = need_shared("vocab/qwen2.tokenizer.json")
    tok = transformers.PreTrainedTokenizerFast(tokenizer_file=str(path), eos_token="<|endoftext|>")
    return tok


@pytest.fixture(scope="session")
def qwen2_vocab(qwen2_tokenizer):
    return gd.Vocabulary.from_hf_tokenizer(qwen2_tokenizer, vocab_size=151936,
                                           eos_token_ids=[qwen2_tokenizer.convert_tokens_to_ids("<|endoftext|>")])
