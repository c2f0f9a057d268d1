"""The SGLang grammar backend against SGLang's real base classes (sglang 0.5.23 installed without its CUDA
dependencies; base_grammar_backend imports on CPU), driven as its scheduler does: dispatch on the worker
pool, cache, copy per request, batched mask fill, apply, accept, rollback, jump-forward."""

import json
from types import SimpleNamespace

import pytest

import guided_decoding as gd
from conftest import need_module


@pytest.fixture(scope="module")
def sglang_base():
    need_module("torch")
    return need_module("sglang.srt.constrained.base_grammar_backend")


def test_registration_hook(sglang_base):
    from guided_decoding import sglang_backend
    sglang_backend.register()
    assert sglang_base.GRAMMAR_BACKEND_REGISTRY["guided-decoding"] is sglang_backend.create_backend
    from sglang.srt.arg_groups.choices import GRAMMAR_BACKEND_CHOICES
    assert "guided-decoding" in GRAMMAR_BACKEND_CHOICES


def test_scheduler_call_sequence(sglang_base, qwen2_tokenizer):
    torch = need_module("torch")
    from guided_decoding.sglang_backend import GuidedDecodingGrammarObject, create_backend
    tok = qwen2_tokenizer
    backend = create_backend(SimpleNamespace(constrained_json_disable_any_whitespace=True), tok, 151936,
                             {tok.eos_token_id})
    assert isinstance(backend, sglang_base.BaseGrammarBackend)
    schema = json.dumps({"type": "object", "properties": {"id": {"type": "integer"}, "ok": {"type": "boolean"}},
                         "required": ["id", "ok"], "additionalProperties": False})
    key = ("json", schema)
    value, hit = backend.get_cached_or_future_value(key, False)
    assert not hit
    template = value.result(timeout=60)
    assert isinstance(template, GuidedDecodingGrammarObject)
    backend.set_cache(key, template)
    grammars = [backend.get_cached_or_future_value(key, False)[0] for _ in range(2)]
    assert all(isinstance(g, sglang_base.BaseGrammarObject) for g in grammars)

    # Jump-forward at the start: the grammar forces `{"id":`, of which `{"id` is safe to emit as tokens (a
    # token may continue `":` with more text, so tokenizing stops there).
    helper = grammars[0].try_jump_forward(tok)
    assert helper is not None and tok.decode(helper[0]) == '{"id'
    assert grammars[0].jump_forward_str_state(helper) == ("", -1)
    for t in helper[0] + tok.encode('":'):
        grammars[0].accept_token(t)

    mask = grammars[0].allocate_vocab_mask(151936, 3, "cpu")
    rows = [sglang_base.GrammarRow(row=2, grammar=grammars[0]), sglang_base.GrammarRow(row=0, grammar=grammars[1])]
    type(grammars[0]).reset_vocab_mask(mask)
    type(grammars[0]).fill_vocab_mask_batched(rows, mask)
    assert mask[1].tolist() == [-1] * mask.shape[1], "unlisted rows are untouched"
    logits = torch.zeros(3, 151936)
    type(grammars[0]).apply_vocab_mask(logits, type(grammars[0]).move_vocab_mask(mask, "cpu"))
    allowed_after_id = {tok.decode([t]) for t in torch.nonzero(logits[2] == 0).flatten().tolist()}
    assert "7" in allowed_after_id and "-" in allowed_after_id and '"' not in allowed_after_id
    assert tok.decode(torch.nonzero(logits[0] == 0).flatten().tolist()[:1]).startswith("{")

    rest = tok.encode('7,"ok":true}')
    for t in rest:
        grammars[0].accept_token(t)
    grammars[0].accept_token(tok.eos_token_id)
    assert grammars[0].is_terminated()
    grammars[0].rollback(1)
    assert not grammars[0].is_terminated()
    with pytest.raises(ValueError, match="is not allowed"):
        grammars[1].accept_token(tok.encode("7")[0])

    bad, _ = backend.get_cached_or_future_value(("regex", "("), False)
    invalid = bad.result(timeout=60)
    assert isinstance(invalid, sglang_base.InvalidGrammarObject)
    assert invalid.error_message.startswith("regex error at offset")
    ebnf = backend.get_cached_or_future_value(("ebnf", 'root ::= "a" [0-9]'), False)[0].result(timeout=60)
    assert isinstance(ebnf, GuidedDecodingGrammarObject)
