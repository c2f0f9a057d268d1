"""The vLLM backend driven through the calls vLLM 0.33's StructuredOutputManager makes (grammar_bitmask:
for each draft token fill_bitmask then accept_tokens, the bonus row, rollback of the drafts; then the
scheduler's validate_tokens and accept_tokens of what was kept). vLLM itself does not install on these CPU
machines (it pins a CUDA torch), so the backend subclasses stand-ins of its abstract classes here
(guided_decoding.vllm_backend says which); with vLLM importable it subclasses the real ones."""

import json
from types import SimpleNamespace

import pytest

import guided_decoding as gd
from conftest import need_module

SCHEMA = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 12},
                                           "tags": {"type": "array", "items": {"enum": ["a", "bb"]}}},
          "required": ["name", "tags"], "additionalProperties": False}


def _backend(tokenizer, **config):
    from guided_decoding.vllm_backend import GuidedDecodingBackend
    vllm_config = SimpleNamespace(structured_outputs_config=SimpleNamespace(
        disable_any_whitespace=config.get("compact", True), disable_additional_properties=False))
    return GuidedDecodingBackend(vllm_config, tokenizer, 151936)


def _allowed(row, token):
    return (int(row[token >> 5]) >> (token & 31)) & 1 == 1


def _reference_row(grammar_matcher):
    torch = need_module("torch")
    row = torch.zeros(1, gd.mask_words(151936), dtype=torch.int32)
    gd.fill_next_token_bitmask(grammar_matcher, row)
    return row[0]


def test_speculative_decoding_call_sequence(qwen2_tokenizer):
    need_module("torch")
    from guided_decoding.vllm_backend import StructuredOutputOptions
    tok = qwen2_tokenizer
    eos = tok.eos_token_id
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    backend = _backend(tok)
    grammar = backend.compile_grammar(StructuredOutputOptions.JSON, json.dumps(SCHEMA), stop_token_ids={eos, im_end})
    spec = 3
    bitmask = backend.allocate_token_bitmask(4 * (1 + spec))
    assert tuple(bitmask.shape) == (16, 4748)
    text = json.dumps({"name": "Ada", "tags": ["bb", "a"]}, separators=(",", ":"))
    target = tok.encode(text) + [im_end]
    reference = gd.Matcher(backend.compile_grammar(StructuredOutputOptions.JSON, json.dumps(SCHEMA)).matcher.grammar)
    done = 0
    while done < len(target):
        # The drafter proposes the next `spec` tokens, the last one wrong (a token the grammar never allows).
        draft = target[done:done + spec - 1] + [tok.convert_tokens_to_ids("<|im_start|>")]
        # StructuredOutputManager.grammar_bitmask, serial path, request in block 1 (rows 4..7).
        index, advanced = 4, 0
        for token in draft:
            grammar.fill_bitmask(bitmask, index)
            if not grammar.is_terminated() and grammar.accept_tokens("req", [token]):
                advanced += 1
            else:
                break
            index += 1
        grammar.fill_bitmask(bitmask, index)
        grammar.rollback(advanced)
        # Rows follow the reference matcher along the draft's accepted prefix.
        probe = reference.fork()
        for k in range(advanced + 1):
            expected = _reference_row(probe)
            row = bitmask[4 + k]
            stop_bit = _allowed(row, im_end)
            assert stop_bit == probe.can_terminate, "an extra stop id is allowed exactly where the value is complete"
            if not stop_bit:
                assert row.tolist() == expected.tolist()
            if k < advanced:
                probe.accept_token(draft[k])
        # The scheduler keeps the valid draft prefix and a sampled bonus token (the next target token).
        kept = grammar.validate_tokens(draft)
        assert kept == draft[:spec - 1][: len(target) - done] or kept == draft[: len(kept)]
        bonus = target[done + len(kept): done + len(kept) + 1]
        assert grammar.accept_tokens("req", kept + bonus)
        reference.accept_tokens([t for t in kept + bonus if t != im_end])
        done += len(kept) + len(bonus)
    assert grammar.is_terminated()
    assert grammar.validate_tokens([eos]) == []
    grammar.rollback(1)
    assert not grammar.is_terminated() and grammar.matcher.can_terminate
    grammar.reset()
    assert not grammar.matcher.can_terminate


def test_request_kinds(qwen2_tokenizer):
    need_module("torch")
    from guided_decoding.vllm_backend import StructuredOutputOptions as O
    tok = qwen2_tokenizer
    backend = _backend(tok)
    cases = [(O.JSON_OBJECT, "", '{"k":[1,2]}'), (O.REGEX, r"\d{3}-[a-z]+", "123-abc"),
             (O.GRAMMAR, 'root ::= "yes" | "no"', "no"), (O.CHOICE, json.dumps(["red", "green"]), "green")]
    for kind, spec, text in cases:
        grammar = backend.compile_grammar(kind, spec)
        assert grammar.accept_tokens("r", tok.encode(text)), (kind, text)
        assert grammar.accept_tokens("r", [tok.eos_token_id]) and grammar.is_terminated()
    wrong = backend.compile_grammar(O.CHOICE, json.dumps(["red", "green"]))
    assert not wrong.accept_tokens("r", tok.encode("blue"))
    with pytest.raises(ValueError, match="Grammar error: unsupported keyword '\\$dynamicRef'"):
        backend.compile_grammar(O.JSON, json.dumps({"$dynamicRef": "#x"}))
    with pytest.raises(ValueError, match="structural tags"):
        backend.compile_grammar(O.STRUCTURAL_TAG, "{}")
    backend.destroy()


def test_request_validation_message():
    from guided_decoding.vllm_backend import _validate_request
    ok = SimpleNamespace(structured_outputs=SimpleNamespace(json='{"type": "integer"}', json_object=None, regex=None,
                                                            choice=None, grammar=None))
    _validate_request(ok)
    bad = SimpleNamespace(structured_outputs=SimpleNamespace(json=None, json_object=None, regex="(", choice=None,
                                                             grammar=None))
    with pytest.raises(Exception, match="regex error at offset"):
        _validate_request(bad)
