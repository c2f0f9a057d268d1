/* The C ABI from C: exact masks on a tiny vocabulary, and a bad-input case for every entry point
 * (NULL handles, freed handles, handles of another kind, buffers too small, invalid UTF-8, token ids out
 * of range). Built and run by python/tests/test_c_abi.py; prints "N passed, N failed". */
#include "guided_decoding.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

#define EXPECT(cond, what)                                                                   \
    do {                                                                                     \
        if (cond) passed++;                                                                  \
        else { failed++; printf("FAIL line %d: %s\n", __LINE__, what); }                     \
    } while (0)

/* The call returns `want`, and on failure the thread's last error says so. */
#define STATUS(call, want)                                                                   \
    do {                                                                                     \
        gd_status got_ = (call);                                                             \
        if (got_ == (want) && (want == GD_OK || gd_last_error_status() == (want))) passed++; \
        else {                                                                               \
            failed++;                                                                        \
            printf("FAIL line %d: %s -> %d (want %d): %s\n", __LINE__, #call, got_, want,   \
                   gd_last_error_message());                                                 \
        }                                                                                    \
    } while (0)

#define MESSAGE(text) EXPECT(strcmp(gd_last_error_message(), text) == 0, gd_last_error_message())

/* Tokens: 0 "a", 1 "b", 2 "c", 3 "ab", 4 "bc", 5 "x", 6 "<|eos|>" (EOS); logits width 40 (2 words). */
static const uint8_t BYTES[] = "abcabbcx<|eos|>";
static const uint32_t OFFSETS[] = {0, 1, 2, 3, 5, 7, 8, 15};
static const int32_t EOS[] = {6};

int main(void) {
    EXPECT(gd_abi_version() == GD_ABI_VERSION, "ABI version");
    EXPECT(gd_last_error_status() == GD_OK && strcmp(gd_last_error_message(), "") == 0, "no error yet");

    /* ---- vocabularies ---- */
    gd_vocab_t *vocab = NULL;
    STATUS(gd_vocab_new_from_tokens(BYTES, OFFSETS, 7, EOS, 1, NULL, 0, 40, &vocab), GD_OK);
    size_t size = 0, ntok = 0, words = 0;
    STATUS(gd_vocab_info(vocab, &size, &ntok, &words), GD_OK);
    EXPECT(size == 40 && ntok == 7 && words == 2, "vocab info");

    gd_vocab_t *bad = (gd_vocab_t *)1;
    STATUS(gd_vocab_new_from_tokens(BYTES, OFFSETS, 7, EOS, 1, NULL, 0, 40, NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_vocab_new_from_tokens(BYTES, NULL, 7, EOS, 1, NULL, 0, 40, &bad), GD_ERR_NULL_ARGUMENT);
    EXPECT(bad == NULL, "out is NULL after a failure");
    static const uint32_t DECREASING[] = {0, 2, 1};
    STATUS(gd_vocab_new_from_tokens(BYTES, DECREASING, 2, NULL, 0, NULL, 0, 0, &bad), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("offsets decrease at token 1 (2 then 1)");
    static const int32_t EOS_OUT[] = {7};
    STATUS(gd_vocab_new_from_tokens(BYTES, OFFSETS, 7, EOS_OUT, 1, NULL, 0, 40, &bad), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("eos_ids: token 7 is out of range for 7 tokens");
    STATUS(gd_vocab_new_from_tokens(BYTES, OFFSETS, 7, EOS, 1, NULL, 0, 5, &bad), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_vocab_new_from_tokens(BYTES, OFFSETS, 7, EOS, 1, NULL, 0, (size_t)1 << 40, &bad), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("vocab_size 1099511627776 is smaller than n_tokens 7 or above 16777216");
    STATUS(gd_vocab_new_from_tokens(BYTES, OFFSETS, SIZE_MAX, EOS, 1, NULL, 0, 0, &bad), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_vocab_new_from_file("/nonexistent/tokenizer.json", "{\"vocab_size\": 4294967296}", &bad),
           GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_vocab_new_from_tokens(BYTES, OFFSETS, 7, EOS, 1, NULL, 2, 40, &bad), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_vocab_new_from_file(NULL, NULL, &bad), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_vocab_new_from_file("/nonexistent/tokenizer.json", NULL, &bad), GD_ERR_TOKENIZER);
    STATUS(gd_vocab_new_from_file("/nonexistent/tokenizer.json", "{\"colour\": 1}", &bad), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("options_json: unknown key \"colour\" (known: preset, eos_tokens, vocab_size)");
    STATUS(gd_vocab_new_from_file("/nonexistent/tokenizer.json", "[1]", &bad), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_vocab_new_from_file("/nonexistent/\xff.json", NULL, &bad), GD_ERR_INVALID_ARGUMENT);

    int32_t ids[4];
    size_t count = 0;
    STATUS(gd_vocab_eos_ids(vocab, ids, 4, &count), GD_OK);
    EXPECT(count == 1 && ids[0] == 6, "EOS ids");
    STATUS(gd_vocab_eos_ids(vocab, ids, 0, &count), GD_ERR_BUFFER_TOO_SMALL);
    EXPECT(count == 1, "EOS count when the buffer is too small");
    uint8_t tb[8];
    STATUS(gd_vocab_token_bytes(vocab, 3, tb, 8, &count), GD_OK);
    EXPECT(count == 2 && memcmp(tb, "ab", 2) == 0, "token bytes");
    STATUS(gd_vocab_token_bytes(vocab, 6, tb, 3, &count), GD_ERR_BUFFER_TOO_SMALL);
    STATUS(gd_vocab_token_bytes(vocab, 40, tb, 8, &count), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("token 40 is out of range for a vocabulary of 40");
    STATUS(gd_vocab_token_bytes(vocab, -1, tb, 8, &count), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_vocab_info(NULL, &size, NULL, NULL), GD_ERR_NULL_ARGUMENT);
    MESSAGE("vocabulary is NULL");
    STATUS(gd_vocab_info((gd_vocab_t *)(uintptr_t)0x12345, &size, NULL, NULL), GD_ERR_INVALID_HANDLE);

    /* ---- compiler and grammars ---- */
    gd_compiler_t *compiler = NULL;
    STATUS(gd_compiler_new(NULL, 0, &compiler), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_compiler_new(vocab, 0, NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_compiler_new(vocab, 0, &compiler), GD_OK);
    gd_compiler_t *other = NULL;
    STATUS(gd_compiler_new((gd_vocab_t *)compiler, 0, &other), GD_ERR_INVALID_HANDLE);
    MESSAGE("expected a vocabulary handle, got a compiler handle");

    gd_grammar_t *g = NULL, *g2 = NULL;
    STATUS(gd_compile(compiler, GD_GRAMMAR_REGEX, "ab*c", 4, NULL, 0, &g), GD_OK);
    STATUS(gd_compile(compiler, GD_GRAMMAR_REGEX, "ab*c", 4, NULL, 0, &g2), GD_OK);
    STATUS(gd_compiler_cache_size(compiler, &count), GD_OK);
    EXPECT(count == 1 && g != g2, "one cache entry, two handles");
    STATUS(gd_compiler_cache_size(compiler, NULL), GD_ERR_NULL_ARGUMENT);
    gd_grammar_t *gbad = NULL;
    STATUS(gd_compile(NULL, GD_GRAMMAR_REGEX, "a", 1, NULL, 0, &gbad), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_compile(compiler, GD_GRAMMAR_REGEX, NULL, 1, NULL, 0, &gbad), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_compile(compiler, 42, "a", 1, NULL, 0, &gbad), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_compile(compiler, GD_GRAMMAR_JSON_SCHEMA, "{\"const\": \"\xc3\x28\"}", 15, NULL, 0, &gbad),
           GD_ERR_INVALID_ARGUMENT);
    MESSAGE("text is not valid UTF-8 (byte 11 of 15)");
    STATUS(gd_compile(compiler, GD_GRAMMAR_JSON_SCHEMA, "{}", 2, "{\"whitespace\": 3}", 0, &gbad), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("options_json: \"whitespace\" must be \"bounded\", \"compact\", \"unbounded\" or {\"max_run\": N, \"inline_run\": M}");
    STATUS(gd_compile(compiler, GD_GRAMMAR_JSON_SCHEMA, "{}", 2, "{\"property_order\": \"flexible\"}", 0, &gbad), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("options_json: \"property_order\": \"flexible\" is retired: \"member_sets\" accepts members in every order, the two "
            "flexible ones among them; \"declared\" keeps the schema's order for generation");
    STATUS(gd_compile(compiler, GD_GRAMMAR_REGEX, "a", 1, "{\"whitespace\": \"compact\"}", 0, &gbad), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_compile(compiler, GD_GRAMMAR_JSON_SCHEMA, "{}", 2, "{", 0, &gbad), GD_ERR_INVALID_ARGUMENT);
    const char *refused = "{\"properties\": {\"a\": {\"$dynamicRef\": \"#x\"}}}";
    STATUS(gd_compile(compiler, GD_GRAMMAR_JSON_SCHEMA, refused, strlen(refused), NULL, 0, &gbad), GD_ERR_SCHEMA);
    EXPECT(strcmp(gd_last_error_keyword(), "$dynamicRef") == 0, "keyword of a refused schema");
    EXPECT(strcmp(gd_last_error_pointer(), "/properties/a") == 0, "pointer of a refused schema");
    STATUS(gd_compile(compiler, GD_GRAMMAR_GBNF, "root ::= \"a", 11, NULL, 0, &gbad), GD_ERR_GRAMMAR);
    STATUS(gd_compile(compiler, GD_GRAMMAR_REGEX, "(a", 2, NULL, 0, &gbad), GD_ERR_GRAMMAR);
    STATUS(gd_compile(compiler, GD_GRAMMAR_CHOICES, "[]", 2, NULL, 0, &gbad), GD_ERR_INVALID_ARGUMENT);
    EXPECT(gbad == NULL, "no grammar handle after failures");

    gd_grammar_t *bg = NULL;
    STATUS(gd_compile(compiler, GD_GRAMMAR_CHOICES, "[\"abc\", \"ab\"]", 13, NULL, 1, &bg), GD_OK);
    STATUS(gd_grammar_wait(bg, -1), GD_OK);
    STATUS(gd_grammar_status(bg), GD_OK);
    gd_grammar_t *bgbad = NULL;
    STATUS(gd_compile(compiler, GD_GRAMMAR_REGEX, "[", 1, NULL, 1, &bgbad), GD_OK); /* fails later */
    STATUS(gd_grammar_wait(bgbad, -1), GD_ERR_GRAMMAR);
    STATUS(gd_grammar_status(bgbad), GD_ERR_GRAMMAR);
    gd_matcher_t *none = NULL;
    STATUS(gd_matcher_new(bgbad, 0, &none), GD_ERR_GRAMMAR);
    STATUS(gd_grammar_free(bgbad), GD_OK);
    STATUS(gd_grammar_free(bgbad), GD_ERR_INVALID_HANDLE);
    MESSAGE("invalid grammar handle (freed, or never made by this library)");
    STATUS(gd_grammar_status(bgbad), GD_ERR_INVALID_HANDLE);
    STATUS(gd_grammar_wait(NULL, 0), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_grammar_free(NULL), GD_ERR_NULL_ARGUMENT);

    /* ---- matchers: exact masks of ab*c ---- */
    gd_matcher_t *m = NULL;
    STATUS(gd_matcher_new(g, 256, &m), GD_OK);
    STATUS(gd_matcher_new(NULL, 256, &none), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_new((gd_grammar_t *)m, 256, &none), GD_ERR_INVALID_HANDLE);
    int32_t mask[3] = {-1, -1, -1};
    STATUS(gd_matcher_fill_bitmask(m, mask, 3), GD_OK);
    EXPECT(mask[0] == 0x9 && mask[1] == 0 && mask[2] == 0, "start: a, ab; extra words zeroed");
    STATUS(gd_matcher_fill_bitmask(m, mask, 1), GD_ERR_BUFFER_TOO_SMALL);
    MESSAGE("bitmask has 1 words, the vocabulary of 40 tokens needs 2");
    STATUS(gd_matcher_fill_bitmask(m, NULL, 2), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_mask_words(m, &words), GD_OK);
    EXPECT(words == 2, "mask words");

    const int32_t a_bc[] = {0, 4};
    STATUS(gd_matcher_accept_tokens(m, a_bc, 1, &count), GD_OK);
    STATUS(gd_matcher_fill_bitmask(m, mask, 2), GD_OK);
    EXPECT(mask[0] == 0x16 && mask[1] == 0, "after a: b, c, bc");
    int32_t flag = -1;
    STATUS(gd_matcher_can_terminate(m, &flag), GD_OK);
    EXPECT(flag == 0, "cannot end after a");
    STATUS(gd_matcher_accept_tokens(m, a_bc + 1, 1, &count), GD_OK);
    STATUS(gd_matcher_fill_bitmask(m, mask, 2), GD_OK);
    EXPECT(mask[0] == 0x40 && mask[1] == 0, "after abc: EOS only");
    STATUS(gd_matcher_can_terminate(m, &flag), GD_OK);
    EXPECT(flag == 1, "can end after abc");
    const int32_t x_eos[] = {5, 6};
    STATUS(gd_matcher_accept_tokens(m, x_eos, 2, &count), GD_ERR_REJECTED);
    EXPECT(count == 0, "x refused, nothing accepted");
    MESSAGE("matcher: token 5 is not allowed at byte 3");
    STATUS(gd_matcher_accept_tokens(m, x_eos + 1, 1, &count), GD_OK);
    STATUS(gd_matcher_is_terminated(m, &flag), GD_OK);
    EXPECT(flag == 1, "terminated after EOS");
    STATUS(gd_matcher_rollback(m, 3), GD_OK);
    STATUS(gd_matcher_is_terminated(m, &flag), GD_OK);
    EXPECT(flag == 0, "rolled back to the start");
    STATUS(gd_matcher_rollback(m, 1), GD_ERR_ROLLBACK);
    MESSAGE("matcher: cannot roll back 1 tokens, only 0 accepted");

    const int32_t draft[] = {0, 1, 1, 2, 5};
    STATUS(gd_matcher_validate_tokens(m, draft, 5, &count), GD_OK);
    EXPECT(count == 4, "draft: a b b c valid, x not");
    STATUS(gd_matcher_fill_bitmask(m, mask, 2), GD_OK);
    EXPECT(mask[0] == 0x9, "validate did not advance");
    const int32_t out_of_range[] = {0, 40};
    STATUS(gd_matcher_validate_tokens(m, out_of_range, 2, &count), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_matcher_validate_tokens(m, draft, 5, NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_accept_tokens(m, out_of_range, 2, &count), GD_ERR_INVALID_ARGUMENT);
    EXPECT(count == 1, "the token before the bad id stays accepted");
    MESSAGE("token 40 is out of range for a vocabulary of 40");
    const int32_t negative[] = {-3};
    STATUS(gd_matcher_accept_tokens(m, negative, 1, &count), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_matcher_accept_tokens(m, NULL, 1, &count), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_accept_tokens(m, NULL, 0, &count), GD_OK);
    STATUS(gd_matcher_accept_bytes(m, (const uint8_t *)"bq", 2), GD_ERR_REJECTED);
    MESSAGE("matcher: byte 1 of the input is not allowed (at byte 2)");
    STATUS(gd_matcher_accept_bytes(m, (const uint8_t *)"bbc", 3), GD_OK);
    STATUS(gd_matcher_accept_bytes(m, NULL, 1), GD_ERR_NULL_ARGUMENT);

    /* fork and reset */
    gd_matcher_t *f = NULL;
    STATUS(gd_matcher_fork(m, &f), GD_OK);
    STATUS(gd_matcher_reset(m), GD_OK);
    STATUS(gd_matcher_can_terminate(f, &flag), GD_OK);
    EXPECT(flag == 1, "the fork keeps abbbc");
    STATUS(gd_matcher_can_terminate(m, &flag), GD_OK);
    EXPECT(flag == 0, "the original was reset");
    STATUS(gd_matcher_fork(m, NULL), GD_ERR_NULL_ARGUMENT);

    /* forced bytes and tokens: choices abc | ab force "ab" */
    gd_matcher_t *fm = NULL;
    STATUS(gd_matcher_new(bg, -1, &fm), GD_OK);
    uint8_t fb[8];
    int32_t ft[8];
    STATUS(gd_matcher_forced_bytes(fm, fb, 8, &count), GD_OK);
    EXPECT(count == 2 && memcmp(fb, "ab", 2) == 0, "forced bytes ab");
    STATUS(gd_matcher_forced_bytes(fm, fb, 1, &count), GD_OK);
    EXPECT(count == 1 && fb[0] == 'a', "forced bytes capped");
    STATUS(gd_matcher_forced_tokens(fm, ft, 8, &count), GD_OK);
    EXPECT(count == 1 && ft[0] == 3, "ab forced as one token: no token continues past it");
    STATUS(gd_matcher_forced_bytes(fm, NULL, 8, &count), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_forced_tokens(fm, ft, 8, NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_forced_tokens(fm, NULL, 0, &count), GD_OK);
    STATUS(gd_matcher_error(fm), GD_OK);

    /* batch fill */
    gd_matcher_t *batch[3] = {m, f, fm};
    int32_t rows[3] = {2, 0, 1};
    int32_t big[4 * 2];
    gd_status statuses[3] = {-1, -1, -1};
    memset(big, 0xff, sizeof big);
    STATUS(gd_matcher_fill_bitmask_batch(batch, 3, big, 4, 2, rows, 2, statuses), GD_OK);
    EXPECT(big[4] == 0x9 && big[0] == 0x40 && big[2] == 0x9 && big[6] == -1 && statuses[2] == GD_OK,
           "batch rows: m at 2, f at 0, fm at 1, row 3 untouched");
    gd_matcher_t *twice[2] = {m, m};
    STATUS(gd_matcher_fill_bitmask_batch(twice, 2, big, 4, 2, NULL, 2, NULL), GD_ERR_INVALID_ARGUMENT);
    MESSAGE("a matcher appears twice in the batch");
    int32_t same_row[2] = {1, 1};
    STATUS(gd_matcher_fill_bitmask_batch(batch, 2, big, 4, 2, same_row, 2, NULL), GD_ERR_INVALID_ARGUMENT);
    int32_t far_row[1] = {4};
    STATUS(gd_matcher_fill_bitmask_batch(batch, 1, big, 4, 2, far_row, 1, NULL), GD_ERR_INVALID_ARGUMENT);
    STATUS(gd_matcher_fill_bitmask_batch(batch, 3, big, 4, 1, NULL, 1, NULL), GD_ERR_BUFFER_TOO_SMALL);
    STATUS(gd_matcher_fill_bitmask_batch(NULL, 3, big, 4, 2, NULL, 1, NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_fill_bitmask_batch(batch, 3, NULL, 4, 2, NULL, 1, NULL), GD_ERR_NULL_ARGUMENT);
    gd_matcher_t *with_null[2] = {m, NULL};
    STATUS(gd_matcher_fill_bitmask_batch(with_null, 2, big, 4, 2, NULL, 1, NULL), GD_ERR_NULL_ARGUMENT);
    MESSAGE("matcher 1 is NULL");

    /* freed handles: every matcher entry point refuses them */
    STATUS(gd_matcher_free(f), GD_OK);
    STATUS(gd_matcher_free(f), GD_ERR_INVALID_HANDLE);
    MESSAGE("invalid matcher handle (freed, or never made by this library)");
    STATUS(gd_matcher_fill_bitmask(f, mask, 2), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_accept_tokens(f, a_bc, 1, &count), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_accept_bytes(f, (const uint8_t *)"a", 1), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_validate_tokens(f, a_bc, 1, &count), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_rollback(f, 0), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_reset(f), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_fork(f, &none), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_mask_words(f, &words), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_is_terminated(f, &flag), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_can_terminate(f, &flag), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_forced_bytes(f, fb, 8, &count), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_forced_tokens(f, ft, 8, &count), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_error(f), GD_ERR_INVALID_HANDLE);
    STATUS(gd_matcher_fill_bitmask_batch(batch, 3, big, 4, 2, NULL, 1, NULL), GD_ERR_INVALID_HANDLE);
    MESSAGE("matcher 1: invalid matcher handle (freed, or never made by this library)");
    /* NULL handles likewise */
    STATUS(gd_matcher_free(NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_reset(NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_fill_bitmask(NULL, mask, 2), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_rollback(NULL, 0), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_is_terminated(m, NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_can_terminate(NULL, &flag), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_error(NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_mask_words(m, NULL), GD_ERR_NULL_ARGUMENT);

    /* A matcher outlives the handles it was made from. */
    STATUS(gd_grammar_free(g), GD_OK);
    STATUS(gd_compiler_free(compiler), GD_OK);
    STATUS(gd_compiler_free(compiler), GD_ERR_INVALID_HANDLE);
    STATUS(gd_compiler_cache_size(compiler, &count), GD_ERR_INVALID_HANDLE);
    STATUS(gd_compile(compiler, GD_GRAMMAR_REGEX, "a", 1, NULL, 0, &gbad), GD_ERR_INVALID_HANDLE);
    STATUS(gd_vocab_free(vocab), GD_OK);
    STATUS(gd_vocab_free(vocab), GD_ERR_INVALID_HANDLE);
    STATUS(gd_vocab_info(vocab, &size, NULL, NULL), GD_ERR_INVALID_HANDLE);
    STATUS(gd_vocab_eos_ids(vocab, ids, 4, &count), GD_ERR_INVALID_HANDLE);
    STATUS(gd_vocab_token_bytes(vocab, 0, tb, 8, &count), GD_ERR_INVALID_HANDLE);
    STATUS(gd_vocab_free(NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_compiler_free(NULL), GD_ERR_NULL_ARGUMENT);
    STATUS(gd_matcher_fill_bitmask(m, mask, 2), GD_OK);
    EXPECT(mask[0] == 0x9, "matcher still works after its grammar, compiler and vocabulary handles are freed");

    STATUS(gd_matcher_free(m), GD_OK);
    STATUS(gd_matcher_free(fm), GD_OK);
    STATUS(gd_grammar_free(g2), GD_OK);
    STATUS(gd_grammar_free(bg), GD_OK);

    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
