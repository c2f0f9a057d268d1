"""The Python binding over the C ABI: exact masks, errors as exceptions, handle lifetimes, the helpers."""

import threading

import pytest

import guided_decoding as gd
from conftest import need_module


def test_masks_accept_rollback_exact(tiny):
    vocab, compiler = tiny
    assert (vocab.size, vocab.token_count, vocab.mask_words, vocab.eos_ids) == (40, 7, 2, [6])
    assert vocab.token_bytes(3) == b"ab"
    np = need_module("numpy")
    m = gd.Matcher(compiler.compile_regex("ab*c"))
    bm = gd.allocate_token_bitmask(2, 40, library="numpy")
    gd.fill_next_token_bitmask(m, bm, 1)
    assert bm.tolist() == [[-1, -1], [0b1001, 0]]
    assert m.accept_tokens([0, 4, 5]) == 2  # a, bc; x refused
    assert (m.can_terminate, m.is_terminated) == (True, False)
    gd.fill_next_token_bitmask(m, bm, 0)
    assert bm[0].tolist() == [1 << 6, 0]
    assert m.accept_token(6) and m.is_terminated
    m.rollback(3)
    assert m.validate_tokens([0, 1, 1, 2, 5]) == 4
    gd.fill_next_token_bitmask(m, bm, 0)
    assert bm[0].tolist() == [0b1001, 0], "validate_tokens does not advance"
    assert np.all(bm[1] == [0b1001, 0])


def test_fork_reset_forced(tiny):
    _, compiler = tiny
    m = gd.Matcher(compiler.compile_regex("ab*c"))
    m.accept_tokens([0, 1])
    f = m.fork()
    m.reset()
    assert f.accept_token(2) and f.can_terminate
    assert not m.can_terminate and m.accept_token(3)
    choices = gd.Matcher(compiler.compile_choices(["abc", "ab"]))
    assert choices.forced_bytes() == b"ab"
    assert choices.forced_tokens() == [3]
    assert choices.accept_bytes(b"ab") and choices.can_terminate
    assert not choices.accept_bytes(b"x")
    assert choices.error is None


def test_errors_are_exceptions_with_the_engines_words(tiny):
    vocab, compiler = tiny
    with pytest.raises(gd.SchemaError) as e:
        compiler.compile_json_schema({"properties": {"a": {"$dynamicRef": "#x"}}})
    assert (e.value.message, e.value.keyword, e.value.pointer) == (
        "unsupported keyword '$dynamicRef' at /properties/a", "$dynamicRef", "/properties/a")
    with pytest.raises(gd.GrammarSyntaxError, match="unterminated string literal"):
        compiler.compile_gbnf('root ::= "a')
    with pytest.raises(gd.InvalidArgumentError, match='options_json: unknown key "colour"'):
        compiler.compile_json_schema({}, colour="red")
    with pytest.raises(gd.InvalidArgumentError, match="not valid UTF-8"):
        compiler.compile(gd.JSON_SCHEMA, b'{"const": "\xc3\x28"}')
    with pytest.raises(gd.TokenizerError):
        gd.Vocabulary.from_file("/nonexistent/tokenizer.json")
    m = gd.Matcher(compiler.compile_regex("a"))
    with pytest.raises(gd.InvalidArgumentError, match="token 40 is out of range for a vocabulary of 40"):
        m.accept_tokens([40])
    with pytest.raises(gd.RollbackError):
        m.rollback(1)
    m.close()
    with pytest.raises(gd.InvalidHandleError, match=r"invalid matcher handle \(freed"):
        m.reset()
    m.close()  # twice: no error, no double free


def test_background_compile_and_cache(tiny):
    _, compiler = tiny
    g = compiler.compile_regex("(ab|c)+", background=True)
    g.wait(timeout=30)
    assert g.is_ready
    again = compiler.compile_regex("(ab|c)+")
    assert compiler.cache_size == 1 and again.is_ready
    bad = compiler.compile_regex("(", background=True)
    with pytest.raises(gd.GrammarSyntaxError):
        bad.wait()
    with pytest.raises(gd.GrammarSyntaxError):
        gd.Matcher(bad)


def test_cache_keys_and_eviction(tiny):
    vocab, _ = tiny
    compiler = gd.Compiler(vocab, max_entries=2)
    schema = '{"type": "object", "properties": {"a": {"type": "integer"}}}'
    first = compiler.compile_json_schema(schema, property_order="member_sets")
    compiler.compile_json_schema(schema, property_order="declared")  # other options: another entry
    compiler.compile_json_schema(schema, property_order="member_sets")  # the same request: a hit
    assert compiler.cache_size == 2
    compiler.compile_regex("a+")  # past max_entries: the oldest request goes
    assert compiler.cache_size == 2
    assert first.is_ready  # a handle keeps its grammar after the cache lets it go
    compiler.compile_json_schema(schema, property_order="member_sets")
    assert compiler.cache_size == 2
    m = gd.Matcher(first)
    assert m.accept_bytes(b'{"a": 1}') and m.can_terminate


def test_batch_fill_on_threads_matches_single_fills(tiny):
    np = need_module("numpy")
    _, compiler = tiny
    g = compiler.compile_regex("(ab|bc|a|b|c)*x")
    matchers = [gd.Matcher(g) for _ in range(16)]
    for i, m in enumerate(matchers):
        m.accept_tokens([[0, 3, 4][j % 3] for j in range(i % 5)])
    batch = np.zeros((20, 2), dtype=np.int32)
    gd.fill_next_token_bitmask_batch(matchers, batch, indices=list(range(19, 3, -1)), threads=4)
    for i, m in enumerate(matchers):
        one = np.zeros((1, 2), dtype=np.int32)
        gd.fill_next_token_bitmask(m, one)
        assert batch[19 - i].tolist() == one[0].tolist()
    assert batch[:4].tolist() == [[0, 0]] * 4
    with pytest.raises(gd.InvalidArgumentError, match="a matcher appears twice in the batch"):
        gd.fill_next_token_bitmask_batch([matchers[0], matchers[0]], batch)


def test_matchers_on_threads(tiny):
    """Distinct matchers of one grammar on concurrent threads (the header's contract)."""
    _, compiler = tiny
    g = compiler.compile_regex("(ab|c)+")
    errors = []

    def run():
        try:
            m = gd.Matcher(g)
            for _ in range(200):
                assert m.accept_tokens([3, 2, 3]) == 3
                m.rollback(3)
        except Exception as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_apply_bitmask_torch_and_numpy():
    torch = need_module("torch")
    np = need_module("numpy")
    bitmask = torch.tensor([[0b101, 1 << 1], [-1, 0]], dtype=torch.int32)
    logits = torch.zeros(2, 36)
    gd.apply_token_bitmask_inplace(logits, bitmask)
    allowed = [(r, c) for r in range(2) for c in range(36) if logits[r, c] == 0]
    assert allowed == [(0, 0), (0, 2), (0, 33)] + [(1, c) for c in range(32)]
    logits = torch.zeros(3, 36)
    gd.apply_token_bitmask_inplace(logits, bitmask, indices=[1])
    assert (logits[0] == 0).all() and (logits[2] == 0).all()
    assert int((logits[1] == 0).sum()) == 32
    wide = torch.zeros(70)
    gd.apply_token_bitmask_inplace(wide, bitmask[0])
    assert [i for i in range(70) if wide[i] == 0] == [0, 2, 33], "tokens past the bitmask are masked"
    arr = np.zeros((2, 36), dtype=np.float32)
    gd.apply_token_bitmask_inplace(arr, bitmask.numpy())
    assert [(r, c) for r in range(2) for c in range(36) if arr[r, c] == 0] == allowed


def test_torch_bitmask_fill(tiny):
    torch = need_module("torch")
    _, compiler = tiny
    m = gd.Matcher(compiler.compile_regex("ab*c"))
    bm = gd.allocate_token_bitmask(3, 40)
    assert bm.dtype == torch.int32 and tuple(bm.shape) == (3, 2)
    gd.fill_next_token_bitmask(m, bm, 2)
    assert bm.tolist() == [[-1, -1], [-1, -1], [9, 0]]
    with pytest.raises(TypeError):
        gd.fill_next_token_bitmask(m, torch.zeros(1, 2, dtype=torch.int64))
    with pytest.raises(gd.BufferTooSmallError):
        gd.fill_next_token_bitmask(m, torch.zeros(1, 1, dtype=torch.int32))


def test_distinct_string_items_through_the_c_abi():
    """uniqueItems over strings is the matcher's check (docs/json-schema.md, "Distinct string items"):
    through the C ABI the masks, accepts, validation and the batch fill on threads all refuse a repeat."""
    np = need_module("numpy")
    tokens = [b"[", b"]", b",", b'"', b"a", b"b", b'a"', b'"a"', b"</s>"]
    lb, rb, comma, quote, a, b, a_close, whole_a, eos = range(9)
    vocab = gd.Vocabulary.from_tokens(tokens, eos_ids=[eos], vocab_size=32)
    grammar = gd.Compiler(vocab).compile_json_schema(
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True}, whitespace="compact")
    m = gd.Matcher(grammar)
    assert m.accept_tokens([lb, whole_a, comma, quote]) == 4      # ["a","
    bm = gd.allocate_token_bitmask(1, 32, library="numpy")
    gd.fill_next_token_bitmask(m, bm)
    allowed = {t for t in range(9) if int(bm[0, 0]) >> t & 1}
    # Inside the string: any character, or " (an empty item); not a" (a second "a"), not "a" (no separator).
    assert allowed == {lb, rb, comma, quote, a, b}
    assert not m.accept_token(a_close)
    assert m.validate_tokens([a, a_close]) == 2                     # "aa" is new
    assert m.validate_tokens([a_close]) == 0
    # Matchers at several positions, filled on 4 threads, equal their single fills.
    prefixes = [[lb], [lb, whole_a], [lb, whole_a, comma], [lb, whole_a, comma, quote], [lb, whole_a, comma, quote, a],
                [lb, whole_a, comma, whole_a], [lb, quote, a], [lb, whole_a, comma, quote, b, quote]]
    matchers = []
    for p in prefixes:
        x = gd.Matcher(grammar)
        matchers.append((x, x.accept_tokens(p)))
    assert [n for _, n in matchers] == [len(p) for p in prefixes[:5]] + [3] + [3, 6]
    batch = np.zeros((len(matchers), 1), dtype=np.int32)
    gd.fill_next_token_bitmask_batch([x for x, _ in matchers], batch, threads=4)
    for i, (x, _) in enumerate(matchers):
        one = np.zeros((1, 1), dtype=np.int32)
        gd.fill_next_token_bitmask(x, one)
        assert batch[i].tolist() == one[0].tolist()


def test_distinct_values_through_the_c_abi():
    """uniqueItems over any values (docs/json-schema.md, "Distinct values"): an object equal to an
    earlier one in another member order is refused at its closing brace, a number equal by value at the
    separator after it, through the masks and the accepts of the C ABI."""
    tokens = [b"[", b"]", b",", b"{", b"}", b'"a"', b'"b"', b":", b"1", b".", b"0", b"2", b"</s>"]
    lb, rb, comma, lc, rc, ka, kb, colon, one, dot, zero, two, eos = range(13)
    vocab = gd.Vocabulary.from_tokens(tokens, eos_ids=[eos], vocab_size=32)
    grammar = gd.Compiler(vocab).compile_json_schema({"type": "array", "uniqueItems": True}, whitespace="compact")
    m = gd.Matcher(grammar)
    first = [lb, lc, ka, colon, one, comma, kb, colon, two, rc, comma]      # [{"a":1,"b":2},
    assert m.accept_tokens(first) == len(first)
    assert m.accept_tokens([lc, kb, colon, two, comma, ka, colon, one]) == 8  # {"b":2,"a":1
    bm = gd.allocate_token_bitmask(1, 32, library="numpy")
    gd.fill_next_token_bitmask(m, bm)
    allowed = {t for t in range(13) if int(bm[0, 0]) >> t & 1}
    # The same object: no closing brace; 1 may go on (10, 1.5) or another member follow.
    assert allowed == {comma, one, dot, zero, two}
    assert not m.accept_token(rc)
    assert m.accept_tokens([zero, rc, comma, one, dot, zero]) == 6         # {"b":2,"a":10}, 1.0
    gd.fill_next_token_bitmask(m, bm)
    allowed = {t for t in range(13) if int(bm[0, 0]) >> t & 1}
    assert comma in allowed and rb in allowed                                # 1.0 is new
    assert m.accept_tokens([comma, one, dot, zero]) == 4                     # 1.0 again, unfinished
    gd.fill_next_token_bitmask(m, bm)
    allowed = {t for t in range(13) if int(bm[0, 0]) >> t & 1}
    assert allowed == {one, zero, two}                                       # 1.00 stays 1.0; 1.01 does not


def test_counted_length_through_the_c_abi():
    """A maxLength whose product with its pattern would pass the automaton limit is counted by the
    matcher (docs/json-schema.md, "Counted lengths"): through the C ABI the mask stops exactly at the
    bound, refuses a space where no room is left for the letter that must follow it, and the accepts,
    validation and the batch fill agree."""
    np = need_module("numpy")
    tokens = [b'"', b"a", b"b", b" ", b"a" * 1000, b"</s>"]
    quote, a, b, space, thousand, eos = range(6)
    vocab = gd.Vocabulary.from_tokens(tokens, eos_ids=[eos], vocab_size=32)
    grammar = gd.Compiler(vocab).compile_json_schema(
        {"type": "string", "pattern": "^[ab]+( [ab]+)*$", "maxLength": 30000}, whitespace="compact")
    m = gd.Matcher(grammar)
    assert m.accept_tokens([quote] + [thousand] * 29 + [a] * 998) == 1 + 29 + 998     # 29,998 characters
    bm = gd.allocate_token_bitmask(1, 32, library="numpy")
    gd.fill_next_token_bitmask(m, bm)
    assert {t for t in range(6) if int(bm[0, 0]) >> t & 1} == {quote, a, b, space}  # a space, then one letter
    assert m.accept_token(a)                                                        # 29,999

    def allowed():
        gd.fill_next_token_bitmask(m, bm)
        return {t for t in range(6) if int(bm[0, 0]) >> t & 1}

    assert allowed() == {quote, a, b}                     # a space would need a letter after it: 30,001
    assert not m.accept_token(space) and not m.accept_token(thousand)
    assert m.validate_tokens([b, a]) == 1 and m.validate_tokens([b, quote]) == 2
    assert m.accept_token(b)                              # 30,000
    assert allowed() == {quote}
    other = gd.Matcher(grammar)
    assert other.accept_tokens([quote, a, space]) == 3
    batch = np.zeros((2, 1), dtype=np.int32)
    gd.fill_next_token_bitmask_batch([m, other], batch, threads=2)
    assert {t for t in range(6) if int(batch[0, 0]) >> t & 1} == {quote}
    assert {t for t in range(6) if int(batch[1, 0]) >> t & 1} == {a, b, thousand}
    assert m.accept_token(quote) and m.accept_token(eos)
