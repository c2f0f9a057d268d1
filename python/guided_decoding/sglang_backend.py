"""An SGLang grammar backend (read at sglang 0.5.23: python/sglang/srt/constrained/base_grammar_backend.py).

SGLang keeps one `BaseGrammarBackend` per scheduler (dispatch_json / dispatch_regex / dispatch_ebnf on a
worker thread, results cached by key and handed out through `copy()`), and a `BaseGrammarObject` per
request: accept_token, rollback, is_terminated, allocate/fill/move/apply the vocab mask, and jump-forward
(try_jump_forward, jump_forward_str_state, jump_and_retokenize). Custom backends are registered by name with
`register_grammar_backend(name, init)`; the name must also be one of `--grammar-backend`'s choices:

    import guided_decoding.sglang_backend as gd_sglang
    gd_sglang.register()                      # name "guided-decoding"
    # then launch the server from this process, with --grammar-backend guided-decoding

The registry is a module-level dict, so `register()` must run in the process that creates the backend
(the scheduler): run it in the launcher before SGLang starts its scheduler processes (they are forked on
Linux, so they inherit the registration), or from a module SGLang imports there."""

from __future__ import annotations

from .bitmask import (allocate_token_bitmask, apply_token_bitmask_inplace, fill_next_token_bitmask,
                      fill_next_token_bitmask_batch)
from .core import Compiler, Grammar, Matcher, Vocabulary
from .errors import GuidedDecodingError

NAME = "guided-decoding"

from sglang.srt.constrained.base_grammar_backend import (BaseGrammarBackend, BaseGrammarObject,  # noqa: E402
                                                         InvalidGrammarObject)


class GuidedDecodingGrammarObject(BaseGrammarObject):
    """One request's matcher."""

    def __init__(self, grammar: Grammar, matcher: Matcher | None = None):
        super().__init__()
        self.grammar = grammar
        self.matcher = matcher if matcher is not None else Matcher(grammar)

    def accept_token(self, token: int) -> None:
        if self.finished:
            return
        if not self.matcher.accept_token(int(token)):
            raise ValueError(f"guided_decoding: token {token} is not allowed here")

    def rollback(self, k: int) -> None:
        if k > 0:
            self.matcher.rollback(k)
            self.finished = False

    def is_terminated(self) -> bool:
        return self.matcher.is_terminated

    def allocate_vocab_mask(self, vocab_size: int, batch_size: int, device):
        return allocate_token_bitmask(batch_size, vocab_size)

    def fill_vocab_mask(self, vocab_mask, idx: int) -> None:
        fill_next_token_bitmask(self.matcher, vocab_mask, idx)

    @staticmethod
    def fill_vocab_mask_batched(entries, vocab_mask) -> None:
        """All rows in one engine call, spread over threads (SGLang's GrammarRow: row, grammar)."""
        if entries and all(isinstance(e.grammar, GuidedDecodingGrammarObject) for e in entries):
            fill_next_token_bitmask_batch([e.grammar.matcher for e in entries], vocab_mask,
                                          indices=[e.row for e in entries])
            return
        for e in entries:
            e.grammar.fill_vocab_mask(vocab_mask, e.row)

    @staticmethod
    def reset_vocab_mask(vocab_mask) -> None:
        vocab_mask.fill_(-1)

    @staticmethod
    def move_vocab_mask(vocab_mask, device):
        return vocab_mask.to(device, non_blocking=True)

    @staticmethod
    def apply_vocab_mask(logits, vocab_mask) -> None:
        apply_token_bitmask_inplace(logits, vocab_mask)

    def copy(self) -> "GuidedDecodingGrammarObject":
        # The cached object is a pristine template: a request gets a fresh matcher on the same compiled grammar.
        return GuidedDecodingGrammarObject(self.grammar)

    def try_jump_forward(self, tokenizer):
        """The tokens the grammar forces next (as llguidance's backend does: a token list and no string)."""
        tokens = self.matcher.forced_tokens()
        return (tokens, "") if tokens else None

    def jump_forward_str_state(self, helper):
        return "", -1

    def jump_and_retokenize(self, old_output_ids, new_output_ids, next_state) -> None:
        pass


class GuidedDecodingGrammarBackend(BaseGrammarBackend):
    """Compiles JSON Schemas, regexes and GBNF (SGLang's "ebnf") for the server's tokenizer."""

    def __init__(self, tokenizer, vocab_size: int, eos_token_ids=None, *, any_whitespace: bool = True):
        super().__init__()
        eos = sorted(eos_token_ids) if eos_token_ids else None
        self.vocabulary = Vocabulary.from_hf_tokenizer(tokenizer, vocab_size=max(vocab_size, len(tokenizer)),
                                                       eos_token_ids=eos)
        self.compiler = Compiler(self.vocabulary)
        self.options = {} if any_whitespace else {"whitespace": "compact"}

    def _grammar(self, compile_) -> BaseGrammarObject:
        try:
            return GuidedDecodingGrammarObject(compile_())
        except GuidedDecodingError as e:
            return InvalidGrammarObject(e.message)

    def dispatch_json(self, key_string: str) -> BaseGrammarObject:
        return self._grammar(lambda: self.compiler.compile_json_schema(key_string, **self.options))

    def dispatch_regex(self, key_string: str) -> BaseGrammarObject:
        return self._grammar(lambda: self.compiler.compile_regex(key_string))

    def dispatch_ebnf(self, key_string: str) -> BaseGrammarObject:
        return self._grammar(lambda: self.compiler.compile_gbnf(key_string))


def create_backend(server_args, tokenizer, vocab_size, eos_token_ids=None):
    """The init function SGLang's registry calls: (server_args, tokenizer, vocab_size, eos_token_ids)."""
    any_whitespace = not getattr(server_args, "constrained_json_disable_any_whitespace", False)
    return GuidedDecodingGrammarBackend(tokenizer, vocab_size, eos_token_ids, any_whitespace=any_whitespace)


def register(name: str = NAME) -> None:
    """Registers the backend under `name` and adds the name to --grammar-backend's choices."""
    from sglang.srt.constrained.base_grammar_backend import register_grammar_backend
    try:
        from sglang.srt.arg_groups.choices import GRAMMAR_BACKEND_CHOICES
        if name not in GRAMMAR_BACKEND_CHOICES:
            GRAMMAR_BACKEND_CHOICES.append(name)
    except ImportError:  # older SGLang: the choices live elsewhere (or are not checked)
        pass
    register_grammar_backend(name, create_backend)
