"""Differential test against llguidance (PyPI 1.9.1): for 200 MaskBench-dev schemas that both engines
compile (declared member order, no whitespace: our `whitespace="compact"`, llguidance's
`whitespace_flexible: false` with "," and ":"), the two token bitmasks over the Qwen2 vocabulary are compared
token by token along each valid instance and along random walks through tokens both allow.

One difference is by design and is counted, not reported: where the grammar forces bytes, llguidance
allows only the tokens that cover the forced text canonically (at the start of `{"name":...` only `{"`, not
`{`), while this engine allows every token that spells a prefix of it. Such a step (llguidance's tokens a
subset of ours, each extra token of ours a prefix of llguidance's forced bytes) is a "forced-prefix" step.

A second one is counted too, as it is llguidance's departure from RFC 8259, which allows U+007F (DEL)
unescaped in a string: llguidance refuses it, this engine allows it ("del-in-string": the extra tokens of ours
all hold the byte 0x7F).

Every other difference is a bug in one of the two engines. Known ones are listed, with the reason, in
llguidance_known_differences.json (and docs/peers.md); a difference in a schema not listed there fails the
test, and so does a listed schema that no longer differs (the list must shrink when a bug is fixed)."""

import json
import random
from pathlib import Path

import guided_decoding as gd
from conftest import need_module, need_shared

SCHEMAS = 200
KNOWN = Path(__file__).with_name("llguidance_known_differences.json")
WALKS, WALK_STEPS = 2, 40


def _bits(words):
    np = need_module("numpy")
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), bitorder="little")


def _describe(tok, ours, theirs, limit=4):
    np = need_module("numpy")
    only_ours = np.nonzero(ours & ~theirs)[0][:limit].tolist()
    only_theirs = np.nonzero(theirs & ~ours)[0][:limit].tolist()
    show = lambda ids: [tok.decode([i]) for i in ids]  # noqa: E731
    return f"only ours {show(only_ours)}, only llguidance {show(only_theirs)}"


def test_masks_agree_with_llguidance(qwen2_tokenizer, qwen2_vocab):
    np = need_module("numpy")
    llguidance = need_module("llguidance")
    llg_hf = need_module("llguidance.hf")
    llg_np = need_module("llguidance.numpy")
    tok = qwen2_tokenizer
    eos = tok.eos_token_id
    ll_tok = llg_hf.from_tokenizer(tok, 151936)
    compiler = gd.Compiler(qwen2_vocab)
    directory = need_shared("corpora/maskbench-dev")
    rng = random.Random(1)
    ours_row = np.zeros((1, gd.mask_words(151936)), dtype=np.int32)
    theirs_row = llg_np.allocate_token_bitmask(1, ll_tok.vocab_size)
    compared, masks, differences = 0, 0, {}
    counted = {"forced-prefix": 0, "del-in-string": 0}
    token_bytes = {}

    def spelled(i):
        if i not in token_bytes:
            token_bytes[i] = qwen2_vocab.token_bytes(int(i))
        return token_bytes[i]

    for path in sorted(directory.glob("*.json")):
        if compared == SCHEMAS:
            break
        case = json.loads(path.read_text())
        schema = case["schema"]
        try:
            grammar = compiler.compile_json_schema(schema, whitespace="compact")
        except gd.GuidedDecodingError:
            continue
        ll_grammar = llguidance.LLMatcher.grammar_from_json_schema(
            schema, defaults={"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"})
        probe = llguidance.LLMatcher(ll_tok, ll_grammar, log_level=0)
        if probe.is_error():
            continue
        compared += 1

        def step_masks(ours, theirs):
            gd.fill_next_token_bitmask(ours, ours_row)
            llg_np.fill_next_token_bitmask(theirs, theirs_row, 0)
            return _bits(ours_row[0]), _bits(theirs_row[0])[: 151936]

        walks = []
        for test in case.get("tests", []):
            if test.get("valid"):
                text = json.dumps(test["data"], separators=(",", ":"), ensure_ascii=False)
                walks.append(("instance", tok.encode(text) + [eos]))
        walks += [("random", None)] * WALKS
        for kind, tokens in walks:
            ours = gd.Matcher(grammar)
            theirs = llguidance.LLMatcher(ll_tok, ll_grammar, log_level=0)
            for position in range(len(tokens) if tokens else WALK_STEPS):
                a, b = step_masks(ours, theirs)
                masks += 1
                if not np.array_equal(a, b) and not (b & ~a).any():
                    extra = np.nonzero(a & ~b)[0]
                    forced = theirs.compute_ff_bytes()
                    if forced and all(forced.startswith(spelled(i)) for i in extra):
                        counted["forced-prefix"] += 1
                        a = b  # walk on tokens both allow
                    elif all(0x7F in spelled(i) for i in extra):
                        counted["del-in-string"] += 1
                        a = b
                if not np.array_equal(a, b):
                    prefix = tok.decode(tokens[:position] if tokens else [])
                    differences.setdefault(path.name, f"{kind} walk at {prefix[-40:]!r}: {_describe(tok, a, b)}")
                    break
                if tokens:
                    token = tokens[position]
                else:
                    allowed = np.nonzero(a)[0]
                    if len(allowed) == 0:
                        break
                    token = int(rng.choice(allowed.tolist()))
                if not a[token]:
                    break  # an instance spelled in an order or form neither engine allows
                ours.accept_token(token)
                theirs.consume_token(token)
                if token == eos:
                    break
            ours.close()

    assert compared == SCHEMAS, f"only {compared} schemas compile in both engines"
    known = json.loads(KNOWN.read_text())
    new = {k: v for k, v in differences.items() if k not in known}
    fixed = sorted(k for k in known if k not in differences)
    print(f"\nllguidance differential: {compared} schemas, {masks} masks compared ({counted}), "
          f"{len(differences)} schemas differ")
    for name, what in sorted(differences.items()):
        print(f"  {name}: {what}")
    assert new == {}, "differences not in llguidance_known_differences.json"
    assert fixed == [], "listed differences that no longer occur: remove them from the list"
