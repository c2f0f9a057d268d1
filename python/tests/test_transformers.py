"""transformers `generate` under GuidedLogitsProcessor, on CPU: a tiny random-initialised Qwen2 (built from a
config, nothing downloaded) with the shared Qwen2 tokenizer.json, over 100 MaskBench-dev schemas. Every
finished output must validate under python-jsonschema (an independent validator), and end-of-sequence may
come only where the JSON value is complete (the text before EOS parses)."""

import json

import pytest

import guided_decoding as gd
from guided_decoding.hf import GuidedLogitsProcessor
from conftest import need_module, need_shared

SCHEMAS = 100
BATCH = 50
MAX_NEW_TOKENS = 96


def _schemas(compiler, count):
    """The first `count` MaskBench-dev schemas (sorted by file name) that the engine compiles; refused
    schemas are skipped (the refusal is the engine's documented behaviour, tested elsewhere)."""
    directory = need_shared("corpora/maskbench-dev")
    found = []
    for path in sorted(directory.glob("*.json")):
        schema = json.loads(path.read_text())["schema"]
        try:
            grammar = compiler.compile_json_schema(schema, whitespace="compact")
        except gd.GuidedDecodingError:
            continue
        found.append((path.name, schema, grammar))
        if len(found) == count:
            break
    return found


class _PreferEndings:
    """A stand-in for a model that wants to finish: raises EOS and the tokens holding `"`, `}` or `]`, so a
    random model closes strings and containers within the token budget. It runs before the guide, which
    still decides what is allowed."""

    def __init__(self, vocab, torch, eos):
        boost = torch.zeros(vocab.size)
        for index in range(vocab.token_count):
            if any(c in vocab.token_bytes(index) for c in b'"}]'):
                boost[index] = 8.0
        boost[eos] = 16.0
        self.boost = boost

    def __call__(self, input_ids, scores):
        return scores + self.boost


# Sampling finishes about 2 rows in 3 within the budget. Greedy decoding of a random model repeats itself
# (a string of the same token), so fewer rows finish: its floor is lower, its check of what finished the same.
@pytest.mark.parametrize("sampling,count,floor", [(True, SCHEMAS, 50), (False, 25, 5)], ids=["sampling", "greedy"])
def test_generate_valid_json(qwen2_tokenizer, qwen2_vocab, sampling, count, floor):
    torch = need_module("torch")
    transformers = need_module("transformers")
    jsonschema = need_module("jsonschema")
    tokenizer = qwen2_tokenizer
    torch.manual_seed(0)
    config = transformers.Qwen2Config(vocab_size=151936, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=1024,
                                      tie_word_embeddings=True)
    model = transformers.Qwen2ForCausalLM(config).eval()
    compiler = gd.Compiler(qwen2_vocab)
    cases = _schemas(compiler, count)
    assert len(cases) == count
    eos = tokenizer.eos_token_id
    prefer = _PreferEndings(qwen2_vocab, torch, eos)
    finished = 0
    failures = []
    for start in range(0, count, BATCH):
        chunk = cases[start:start + BATCH]
        prompt = torch.tensor([[tokenizer.convert_tokens_to_ids("JSON")]] * len(chunk))
        guide = GuidedLogitsProcessor([g for _, _, g in chunk])
        with torch.no_grad():
            out = model.generate(prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=MAX_NEW_TOKENS,
                                 do_sample=sampling, top_p=1.0, temperature=1.0,
                                 logits_processor=[prefer, guide], eos_token_id=eos, pad_token_id=eos)
        for (name, schema, _), row in zip(chunk, out[:, 1:].tolist()):
            if eos not in row:
                continue  # ran out of tokens: every token was still accepted by the guide
            finished += 1
            text = tokenizer.decode(row[:row.index(eos)])
            try:
                value = json.loads(text)
            except ValueError as e:
                failures.append(f"{name}: EOS before the value was complete: {text!r} ({e})")
                continue
            validator = jsonschema.validators.validator_for(schema)
            errors = list(validator(schema, format_checker=validator.FORMAT_CHECKER).iter_errors(value))
            if errors:
                failures.append(f"{name}: {text!r} is invalid: {errors[0].message}")
    assert failures == []
    # The budget and the bias make most rows finish; a guide that never allowed EOS would fail here.
    assert finished >= floor, f"only {finished} of {count} outputs finished"
    print(f"\n{'sampling' if sampling else 'greedy'}: {finished} of {count} outputs finished, all valid")
