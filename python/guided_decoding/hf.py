"""A transformers `LogitsProcessor` that constrains `generate` to a grammar, row by row.

    vocab = Vocabulary.from_hf_tokenizer(tokenizer, vocab_size=model.config.vocab_size)
    grammar = Compiler(vocab).compile_json_schema(schema)
    out = model.generate(**inputs, logits_processor=[GuidedLogitsProcessor(grammar)], ...)

Works with greedy search and sampling, batched (one grammar for every row, or one per row); not with beam
search (beams reorder rows, which this processor does not follow). The first call sees the prompts;
each later call accepts the token each row sampled last, then masks the next step's logits. Rows whose
matcher ended (EOS accepted) allow EOS only, which is what transformers expects of finished rows."""

from __future__ import annotations

from collections.abc import Sequence

from .bitmask import allocate_token_bitmask, apply_token_bitmask_inplace, fill_next_token_bitmask_batch
from .core import Grammar, Matcher

try:
    from transformers import LogitsProcessor as _Base
except ImportError:  # the class works without transformers installed, for engines that take any callable
    _Base = object


class GuidedLogitsProcessor(_Base):
    """Masks the logits of each batch row to the tokens its grammar allows next."""

    def __init__(self, grammar: Grammar | Sequence[Grammar], *, threads: int = 0):
        self.grammars = grammar
        self.threads = threads
        self.matchers: list[Matcher] | None = None
        self._bitmask = None
        self._prompt_length = 0

    def reset(self) -> None:
        """Forget the sequences (call between `generate` calls that reuse the processor)."""
        self.matchers = None
        self._bitmask = None

    def _start(self, batch: int, vocab_size: int, prompt_length: int) -> None:
        grammars = list(self.grammars) if isinstance(self.grammars, Sequence) else [self.grammars] * batch
        if len(grammars) != batch:
            raise ValueError(f"{len(grammars)} grammars for a batch of {batch} rows")
        self.matchers = [Matcher(g) for g in grammars]
        self._bitmask = allocate_token_bitmask(batch, max(vocab_size, grammars[0].vocabulary.size))
        self._prompt_length = prompt_length

    def __call__(self, input_ids, scores):
        batch = input_ids.shape[0]
        if self.matchers is None or input_ids.shape[1] <= self._prompt_length:
            self._start(batch, scores.shape[-1], input_ids.shape[1])
        else:
            last = input_ids[:, -1].tolist()
            for row, (matcher, token) in enumerate(zip(self.matchers, last)):
                if matcher.is_terminated:
                    continue  # a finished row: transformers pads it
                if not matcher.accept_token(int(token)):
                    raise ValueError(f"row {row}: token {token} was sampled outside the grammar "
                                     f"(another processor changed the scores after this one?)")
        fill_next_token_bitmask_batch(self.matchers, self._bitmask, threads=self.threads)
        apply_token_bitmask_inplace(scores, self._bitmask)
        return scores
