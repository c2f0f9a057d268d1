/*
 * guided_decoding.h: the C ABI of GuidedDecoding's mask engine (libGuidedDecodingC.so).
 *
 * The loop: make a vocabulary once per model, a compiler (compile cache) per vocabulary, a grammar per
 * request (JSON Schema, GBNF, regex or a list of choices; cached by text and options), and a matcher per
 * sequence. Per decoding step: gd_matcher_fill_bitmask, mask the logits, sample, gd_matcher_accept_tokens.
 *
 * Handles. Every object is reached through an opaque handle made by a *_new / compile call and released by
 * its *_free call. A handle is a registry ticket (slot, kind and generation), not an address: a call given
 * NULL returns GD_ERR_NULL_ARGUMENT, and a call given a freed handle, a handle of another kind (a matcher
 * where a vocabulary is expected) or a value that was never a handle returns GD_ERR_INVALID_HANDLE. What is
 * not detected: a handle freed and then forged back by arithmetic, and a slot reused after 2^32 frees of
 * that same slot. Objects hold what they need: freeing a vocabulary, compiler or grammar while matchers made
 * from it live is allowed (they keep the tables alive).
 *
 * Errors. Every function that can fail returns a gd_status; on failure it records a message (and, for a
 * refused JSON Schema, the keyword and the JSON pointer of the schema object at fault) that
 * gd_last_error_message() and friends return on the same thread until its next failing call. No input
 * traps the process: every argument is checked, and a pointer/length pair is read only within its length.
 * What is undefined, as in every C API: a non-NULL pointer that does not point to as many elements as its
 * length says.
 *
 * Threads. Vocabulary, compiler and grammar handles may be used from any number of threads at once. A
 * matcher belongs to one thread at a time: two concurrent calls on the SAME matcher (fill, accept,
 * rollback, ...) are a data race; calls on different matchers run in parallel. Each function says so
 * below as "Thread-safe" or "One thread per matcher". gd_matcher_free while another thread is inside a
 * call on that matcher is memory-safe (the call keeps the object alive) but the other call's result is
 * then meaningless.
 *
 * Bitmask layout (vLLM, SGLang, XGrammar, llguidance): one int32 word per 32 tokens, token t allowed
 * when bit (t & 31) of word (t >> 5) is set, LSB first. Ids at or past the vocabulary's size (its logits
 * width) and the words past it are always written as zero.
 */
#ifndef GUIDED_DECODING_H
#define GUIDED_DECODING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GD_ABI_VERSION 1

typedef int32_t gd_status;
enum {
    GD_OK = 0,
    /** A required pointer argument was NULL. */
    GD_ERR_NULL_ARGUMENT = 1,
    /** A handle that is freed, of another kind, or was never a handle. */
    GD_ERR_INVALID_HANDLE = 2,
    /** The caller's buffer is too small; the call says how large it must be. */
    GD_ERR_BUFFER_TOO_SMALL = 3,
    /** A malformed argument: invalid UTF-8, bad options JSON, a token id outside the vocabulary, ... */
    GD_ERR_INVALID_ARGUMENT = 4,
    /** A tokenizer file could not be read or understood. */
    GD_ERR_TOKENIZER = 5,
    /** A JSON Schema was refused (gd_last_error_keyword / gd_last_error_pointer say where). */
    GD_ERR_SCHEMA = 6,
    /** A GBNF grammar or a regex has a syntax error or an unsupported construct. */
    GD_ERR_GRAMMAR = 7,
    /** The grammar could not be compiled against the vocabulary (limits, deadline). */
    GD_ERR_COMPILE = 8,
    /** A background compile has not finished yet. */
    GD_ERR_PENDING = 9,
    /** The matcher failed (a limit was hit); it stays failed until gd_matcher_reset. */
    GD_ERR_MATCHER = 10,
    /** A token the grammar does not allow here; the matcher is unchanged. */
    GD_ERR_REJECTED = 11,
    /** More tokens to roll back than the matcher can undo. */
    GD_ERR_ROLLBACK = 12,
    /** An error the engine did not expect; the message says what. */
    GD_ERR_INTERNAL = 99
};

/* Grammar kinds for gd_compile. */
typedef int32_t gd_grammar_kind;
enum {
    /** text: a JSON Schema (drafts 4 to 2020-12). */
    GD_GRAMMAR_JSON_SCHEMA = 1,
    /** text: a GBNF grammar (llama.cpp's dialect), start rule "root". */
    GD_GRAMMAR_GBNF = 2,
    /** text: a regular expression matched against the whole output. */
    GD_GRAMMAR_REGEX = 3,
    /** text: a JSON array of strings; the output is exactly one of them. */
    GD_GRAMMAR_CHOICES = 4
};

typedef struct gd_vocab_t gd_vocab_t;
typedef struct gd_compiler_t gd_compiler_t;
typedef struct gd_grammar_t gd_grammar_t;
typedef struct gd_matcher_t gd_matcher_t;

/* ---- errors and version ------------------------------------------------------------------------- */

/** GD_ABI_VERSION of the loaded library. Thread-safe. */
int32_t gd_abi_version(void);
/** Status of this thread's last failing call (GD_OK if none yet). Thread-safe (per thread). */
gd_status gd_last_error_status(void);
/** Message of this thread's last failing call ("" if none); valid until its next failing call. */
const char *gd_last_error_message(void);
/** For GD_ERR_SCHEMA: the keyword at fault ("" when the whole schema is, or for other errors). */
const char *gd_last_error_keyword(void);
/** For GD_ERR_SCHEMA: the JSON pointer of the schema object holding the keyword ("" for the root). */
const char *gd_last_error_pointer(void);

/* ---- vocabularies ------------------------------------------------------------------------------- */

/**
 * A vocabulary from each token's exact bytes: token i's bytes are bytes[offsets[i] .. offsets[i+1]),
 * so offsets has n_tokens + 1 entries, starts at 0 and never decreases. eos_ids end generation (allowed
 * exactly where the grammar can end); special_ids are never allowed by a grammar (EOS ids count as special
 * too). vocab_size is the model's logits width (>= n_tokens; 0 means n_tokens): ids past the tokens are
 * padding and never allowed. Indexing costs about 100 ms for 150k tokens. Thread-safe.
 */
gd_status gd_vocab_new_from_tokens(const uint8_t *bytes, const uint32_t *offsets, size_t n_tokens,
                                   const int32_t *eos_ids, size_t n_eos,
                                   const int32_t *special_ids, size_t n_special,
                                   size_t vocab_size, gd_vocab_t **out);
/**
 * A vocabulary from a tokenizer file: HF tokenizer.json, tiktoken (needs "preset"), SentencePiece .model,
 * or a GGUF model file. options_json may be NULL or an object with "preset" ("qwen2", "qwen3.6"),
 * "eos_tokens" (array of special-token texts, replacing the file's default) and "vocab_size" (logits
 * width). Thread-safe.
 */
gd_status gd_vocab_new_from_file(const char *path, const char *options_json, gd_vocab_t **out);
/** Releases the handle. Thread-safe. */
gd_status gd_vocab_free(gd_vocab_t *vocab);
/** Logits width, tokens with bytes, and int32 words of one bitmask row. Any out pointer may be NULL. */
gd_status gd_vocab_info(gd_vocab_t *vocab, size_t *vocab_size, size_t *n_tokens, size_t *mask_words);
/** The EOS ids into out (capacity cap); *count gets how many there are (GD_ERR_BUFFER_TOO_SMALL if > cap). */
gd_status gd_vocab_eos_ids(gd_vocab_t *vocab, int32_t *out, size_t cap, size_t *count);
/** The bytes of token id into out (capacity cap); *len gets their number. Thread-safe. */
gd_status gd_vocab_token_bytes(gd_vocab_t *vocab, int32_t token, uint8_t *out, size_t cap, size_t *len);

/* ---- compiling ---------------------------------------------------------------------------------- */

/**
 * A compiler for one vocabulary: compiles grammars and caches them by (kind, text, options). max_entries
 * bounds the cache (0: unbounded; the oldest entry goes first). Thread-safe.
 */
gd_status gd_compiler_new(gd_vocab_t *vocab, size_t max_entries, gd_compiler_t **out);
gd_status gd_compiler_free(gd_compiler_t *compiler);
/** Number of cached grammars (compiled, compiling or refused). Thread-safe. */
gd_status gd_compiler_cache_size(gd_compiler_t *compiler, size_t *count);

/**
 * Compiles text (len bytes of UTF-8; not NUL-terminated necessarily) of the given kind. options_json may
 * be NULL or a JSON object:
 *   "whitespace": "bounded" (default: runs of at most 20, 4 inline) | "compact" | "unbounded"
 *                 | {"max_run": N, "inline_run": M}
 *   "property_order": "declared" (default) | "member_sets" | "any_order"   ("flexible" is retired:
 *                     GD_ERR_INVALID_ARGUMENT saying so; "member_sets" accepts every order it did)
 *   "max_members": N (for "any_order"; default 8)
 *   "additional_properties": "allow" (default) | "forbid"   (what an absent additionalProperties means)
 *   "unknown_formats": "ignore" (default: a format no draft defines is an annotation) | "refuse"
 *   "max_undeclared_properties": N
 *   "default_draft": "draft4" | "draft6" | "draft7" | "draft2019-09" | "draft2020-12" (default)
 *   "timeout_ms": N   (compile deadline; none by default)
 * The schema keys apply to GD_GRAMMAR_JSON_SCHEMA only (given to another kind: GD_ERR_INVALID_ARGUMENT).
 * background = 0: compiles now (or finds the cached grammar) and returns its status. background != 0:
 * returns GD_OK at once with a grammar that compiles on a worker thread; gd_grammar_status /
 * gd_grammar_wait report its outcome, and gd_matcher_new on it returns GD_ERR_PENDING until it is ready.
 * Thread-safe: concurrent requests for one key share one compile.
 */
gd_status gd_compile(gd_compiler_t *compiler, gd_grammar_kind kind, const char *text, size_t len,
                     const char *options_json, int32_t background, gd_grammar_t **out);
gd_status gd_grammar_free(gd_grammar_t *grammar);
/** GD_OK when compiled, GD_ERR_PENDING while compiling, or the compile's error. Thread-safe. */
gd_status gd_grammar_status(gd_grammar_t *grammar);
/** Waits up to timeout_ms (negative: forever) and returns as gd_grammar_status. Thread-safe. */
gd_status gd_grammar_wait(gd_grammar_t *grammar, int64_t timeout_ms);

/* ---- matchers ----------------------------------------------------------------------------------- */

/**
 * A matcher at the start of the grammar. max_rollback: accepted tokens that gd_matcher_rollback can undo
 * at least (negative: unlimited, the history then grows with the output). Thread-safe.
 */
gd_status gd_matcher_new(gd_grammar_t *grammar, int32_t max_rollback, gd_matcher_t **out);
gd_status gd_matcher_free(gd_matcher_t *matcher);
/** An independent copy in the same state (cheap: copy-on-write). One thread per matcher. */
gd_status gd_matcher_fork(gd_matcher_t *matcher, gd_matcher_t **out);
/** Back to the start of the grammar; clears a failure. One thread per matcher. */
gd_status gd_matcher_reset(gd_matcher_t *matcher);
/** Int32 words of one bitmask row for this matcher's vocabulary. */
gd_status gd_matcher_mask_words(gd_matcher_t *matcher, size_t *words);
/**
 * Writes the allowed next tokens into bitmask[0 .. words): words must be at least the vocabulary's
 * mask_words (GD_ERR_BUFFER_TOO_SMALL otherwise); words past it are zeroed. After termination only EOS is
 * set. One thread per matcher.
 */
gd_status gd_matcher_fill_bitmask(gd_matcher_t *matcher, int32_t *bitmask, size_t words);
/**
 * Fills row rows[i] (or row i when rows is NULL) of bitmask, an n_rows x words_per_row int32 array, for
 * each matchers[i], on up to n_threads threads (0: one per CPU, at most 16). A matcher or a row may appear once.
 * statuses (NULL or n entries) gets each matcher's status; the call returns the first failure's status
 * (and its message), or GD_OK. Thread-safe for distinct matchers not used elsewhere during the call.
 * The calling thread works too; the other threads are the library's own, started on first use and kept:
 * after a call they spin for 100 us (so the next step's call finds them awake), then sleep. Matcher i is
 * filled on the same thread from call to call while the batch keeps its order, so its memory stays in one
 * core's cache. Two calls at once from different threads are safe; the second runs on its own thread.
 * A matcher whose state needs a large first visit (a trie walk of at least 16,384 nodes) is filled last,
 * after that walk was spread over all the threads; rows are the same as gd_matcher_fill_bitmask's.
 */
gd_status gd_matcher_fill_bitmask_batch(gd_matcher_t *const *matchers, size_t n, int32_t *bitmask,
                                        size_t n_rows, size_t words_per_row, const int32_t *rows,
                                        size_t n_threads, gd_status *statuses);
/**
 * Accepts tokens in order, stopping at the first one the grammar refuses; *accepted (may be NULL) gets
 * how many were. GD_OK when all were, GD_ERR_REJECTED when one was refused (those before it stay
 * accepted), GD_ERR_INVALID_ARGUMENT for an id outside [0, vocab_size), GD_ERR_MATCHER for a failure.
 * One thread per matcher.
 */
gd_status gd_matcher_accept_tokens(gd_matcher_t *matcher, const int32_t *tokens, size_t n, size_t *accepted);
/** Accepts raw bytes (e.g. a forced continuation); all or nothing. One thread per matcher. */
gd_status gd_matcher_accept_bytes(gd_matcher_t *matcher, const uint8_t *bytes, size_t n);
/**
 * How many of tokens, from the first, the grammar accepts in a row, without advancing the matcher
 * (speculative decoding: check a draft). GD_OK whatever the count; errors as gd_matcher_accept_tokens
 * except GD_ERR_REJECTED. One thread per matcher.
 */
gd_status gd_matcher_validate_tokens(gd_matcher_t *matcher, const int32_t *tokens, size_t n, size_t *valid);
/** Undoes the last n accepted tokens (each gd_matcher_accept_bytes call counts as one). One thread per matcher. */
gd_status gd_matcher_rollback(gd_matcher_t *matcher, size_t n);
/** *out = 1 once an EOS token was accepted, else 0. */
gd_status gd_matcher_is_terminated(gd_matcher_t *matcher, int32_t *out);
/** *out = 1 when the output so far is complete (EOS allowed now), else 0. */
gd_status gd_matcher_can_terminate(gd_matcher_t *matcher, int32_t *out);
/**
 * The bytes the grammar forces next (jump-forward), up to cap; *count gets their number. Never more
 * than cap are computed, so this is GD_OK for any cap.
 */
gd_status gd_matcher_forced_bytes(gd_matcher_t *matcher, uint8_t *out, size_t cap, size_t *count);
/** Tokens that spell a prefix of the forced bytes whatever comes after, up to cap; *count gets their number. */
gd_status gd_matcher_forced_tokens(gd_matcher_t *matcher, int32_t *out, size_t cap, size_t *count);
/**
 * GD_OK while the matcher works; GD_ERR_MATCHER once it failed, with the error as this thread's last
 * error message.
 */
gd_status gd_matcher_error(gd_matcher_t *matcher);

#ifdef __cplusplus
}
#endif

#endif /* GUIDED_DECODING_H */
