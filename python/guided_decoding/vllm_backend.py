"""A vLLM structured-output backend (vLLM V1, read at vllm 0.33.0: vllm/v1/structured_output/).

vLLM's engine holds one `StructuredOutputBackend` (compile_grammar, allocate_token_bitmask, destroy) and one
`StructuredOutputGrammar` per request (accept_tokens, validate_tokens, rollback, fill_bitmask,
is_terminated, reset). Its scheduler, for each structured request and each draft token of speculative
decoding: fill_bitmask(row), accept_tokens([token]); then the bonus row; then rollback(the accepted
drafts); and after sampling accept_tokens(the tokens kept).

Selecting it: vLLM 0.33 chooses a backend by name from a fixed list (`StructuredOutputsConfig.backend`,
then an if/elif in `StructuredOutputManager.grammar_init`); it has no registration hook. This package
ships a vLLM general plugin (entry point `vllm.general_plugins`, which vLLM loads in every process) that,
when GUIDED_DECODING_VLLM=1 is set, puts this backend behind the name "guidance":

    GUIDED_DECODING_VLLM=1 vllm serve MODEL --structured-outputs-config.backend guidance

(`install()` does the same from Python, before the engine starts.) Without the variable the plugin does
nothing, so installing the package never changes vLLM silently."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from .bitmask import allocate_token_bitmask, fill_next_token_bitmask
from .core import Compiler, Matcher, Vocabulary
from .errors import GuidedDecodingError

try:
    from vllm.v1.structured_output.backend_types import (StructuredOutputBackend, StructuredOutputGrammar,
                                                         StructuredOutputOptions)
    HAVE_VLLM = True
except ImportError:
    # vLLM does not install on a machine without CUDA: these mirror its abstract interface (0.33.0) so that
    # the backend can be built and driven through vLLM's call sequence anyway (python/tests/test_vllm_backend.py).
    import enum
    from abc import ABC, abstractmethod

    HAVE_VLLM = False

    class StructuredOutputOptions(enum.Enum):
        JSON = enum.auto()
        JSON_OBJECT = enum.auto()
        REGEX = enum.auto()
        GRAMMAR = enum.auto()
        CHOICE = enum.auto()
        STRUCTURAL_TAG = enum.auto()

    class StructuredOutputGrammar(ABC):
        @abstractmethod
        def accept_tokens(self, request_id: str, tokens: list[int]) -> bool: ...
        @abstractmethod
        def validate_tokens(self, tokens: list[int]) -> list[int]: ...
        @abstractmethod
        def rollback(self, num_tokens: int) -> None: ...
        @abstractmethod
        def fill_bitmask(self, bitmask, batch_index: int) -> None: ...
        @abstractmethod
        def is_terminated(self) -> bool: ...
        @abstractmethod
        def reset(self): ...

    @dataclass
    class StructuredOutputBackend(ABC):
        vllm_config: Any
        tokenizer: Any
        vocab_size: int

        @abstractmethod
        def compile_grammar(self, request_type, grammar_spec: str, stop_token_ids=None): ...
        @abstractmethod
        def allocate_token_bitmask(self, max_num_seqs: int): ...
        @abstractmethod
        def destroy(self): ...


@dataclass
class GuidedDecodingGrammar(StructuredOutputGrammar):
    """One request's matcher. `stop_ids` are the request's stop tokens beyond the vocabulary's EOS: like EOS,
    allowed exactly where the output is complete, and they end it."""

    matcher: Matcher
    vocab_size: int
    stop_ids: frozenset = frozenset()
    # True when a stop token outside the engine's EOS ended the output (the matcher never saw it).
    _stopped_by_extra: bool = field(default=False)

    def accept_tokens(self, request_id: str, tokens: list[int]) -> bool:
        for token in tokens:
            if self.is_terminated():
                return False
            if token in self.stop_ids and token not in self._engine_eos():
                if not self.matcher.can_terminate:
                    return False
                self._stopped_by_extra = True
                continue
            if not self.matcher.accept_token(token):
                return False
        return True

    def validate_tokens(self, tokens: list[int]) -> list[int]:
        tokens = [t for t in tokens if t >= 0]  # vLLM pads drafts with -1
        if not tokens or self.is_terminated():
            return []
        cut = next((i for i, t in enumerate(tokens) if t in self.stop_ids and t not in self._engine_eos()), len(tokens))
        valid = self.matcher.validate_tokens(tokens[:cut])
        if valid == cut < len(tokens):
            probe = self.matcher.fork()
            probe.accept_tokens(tokens[:cut])
            if probe.can_terminate:
                valid += 1
            probe.close()
        return tokens[:valid]

    def rollback(self, num_tokens: int) -> None:
        if num_tokens <= 0:
            return
        if self._stopped_by_extra:
            self._stopped_by_extra = False
            num_tokens -= 1
        if num_tokens:
            self.matcher.rollback(num_tokens)

    def fill_bitmask(self, bitmask, batch_index: int) -> None:
        fill_next_token_bitmask(self.matcher, bitmask, batch_index)
        extra = [t for t in self.stop_ids if t not in self._engine_eos() and 0 <= t < self.vocab_size]
        if extra:
            row = bitmask[batch_index]
            allowed = self.matcher.can_terminate
            for t in extra:
                word, bit = t >> 5, t & 31
                value = int(row[word]) & 0xFFFFFFFF
                value = value | (1 << bit) if allowed else value & ~(1 << bit)
                row[word] = value - (1 << 32) if value >= 1 << 31 else value

    def is_terminated(self) -> bool:
        return self._stopped_by_extra or self.matcher.is_terminated

    def reset(self):
        self._stopped_by_extra = False
        self.matcher.reset()

    def _engine_eos(self) -> frozenset:
        eos = getattr(self, "_eos_cache", None)
        if eos is None:
            eos = frozenset(self.matcher.grammar.vocabulary.eos_ids)
            object.__setattr__(self, "_eos_cache", eos)
        return eos


@dataclass
class GuidedDecodingBackend(StructuredOutputBackend):
    """The engine-level backend: one vocabulary (from the HF tokenizer) and one compile cache."""

    def __post_init__(self):
        config = getattr(self.vllm_config, "structured_outputs_config", None)
        self.options: dict[str, Any] = {}
        if config is not None and getattr(config, "disable_any_whitespace", False):
            self.options["whitespace"] = "compact"
        if config is not None and getattr(config, "disable_additional_properties", False):
            self.options["additional_properties"] = "forbid"
        eos = getattr(self.tokenizer, "eos_token_id", None)
        self.vocabulary = Vocabulary.from_hf_tokenizer(
            self.tokenizer, vocab_size=max(self.vocab_size, len(self.tokenizer)),
            eos_token_ids=[eos] if eos is not None else None)
        self.compiler = Compiler(self.vocabulary)

    def compile_grammar(self, request_type, grammar_spec: str, stop_token_ids: set[int] | None = None):
        try:
            grammar = compile_request(self.compiler, request_type, grammar_spec, self.options)
        except GuidedDecodingError as e:
            raise ValueError(f"Grammar error: {e.message}") from e
        return GuidedDecodingGrammar(matcher=Matcher(grammar), vocab_size=self.vocab_size,
                                     stop_ids=frozenset(stop_token_ids or ()))

    def allocate_token_bitmask(self, max_num_seqs: int):
        return allocate_token_bitmask(max_num_seqs, self.vocab_size)

    def destroy(self):
        self.compiler.close()


def compile_request(compiler: Compiler, request_type, spec: str, options: dict[str, Any]):
    """The grammar of one vLLM structured-output request."""
    name = request_type.name
    if name == "JSON":
        return compiler.compile_json_schema(spec if isinstance(spec, str) else json.dumps(spec), **options)
    if name == "JSON_OBJECT":
        return compiler.compile_json_schema('{"type": "object"}', **options)
    if name == "REGEX":
        return compiler.compile_regex(spec)
    if name == "GRAMMAR":
        return compiler.compile_gbnf(spec)
    if name == "CHOICE":
        choices = json.loads(spec) if isinstance(spec, str) else spec
        return compiler.compile_choices([str(c) for c in choices])
    raise ValueError(f"guided_decoding: {name} requests are not supported (structural tags)")


def install(name: str = "guidance") -> None:
    """Puts GuidedDecodingBackend behind vLLM's backend name `name` ("guidance" or "xgrammar") in this
    process: the engine's backend class and the request validation for that name."""
    import vllm.sampling_params as sampling_params
    import vllm.v1.structured_output as structured_output
    if name == "guidance":
        import vllm.v1.structured_output.backend_guidance as module
        structured_output.GuidanceBackend = GuidedDecodingBackend
        module.validate_guidance_grammar = _validate_request
        module.GuidanceBackend = GuidedDecodingBackend
        sampling_params._get_llg_tokenizer = lambda tokenizer: None
    elif name == "xgrammar":
        import vllm.v1.structured_output.backend_xgrammar as module
        structured_output.XgrammarBackend = GuidedDecodingBackend
        module.validate_xgrammar_grammar = lambda params, *args, **kwargs: _validate_request(params)
    else:
        raise ValueError(f"guided_decoding: cannot replace vLLM backend {name!r} (guidance or xgrammar)")


def register_plugin() -> None:
    """vLLM general plugin: install() when GUIDED_DECODING_VLLM is set (1 = "guidance", or a backend name)."""
    value = os.environ.get("GUIDED_DECODING_VLLM", "")
    if value and value != "0":
        install("guidance" if value == "1" else value)


# The request check vLLM runs at the front end: refuse what the engine would refuse, with its message.
_checker: Compiler | None = None


def _validate_request(params, tokenizer=None) -> None:
    """Checks a request's grammar against a 256-byte vocabulary (the grammar's acceptance does not depend on
    the model's tokens), raising vLLM's validation error with the engine's message."""
    global _checker
    if _checker is None:
        _checker = Compiler(Vocabulary.from_tokens([bytes([b]) for b in range(256)]))
    so = params.structured_outputs if hasattr(params, "structured_outputs") else params
    if so.json is not None:
        kind, spec = StructuredOutputOptions.JSON, so.json
    elif so.json_object:
        kind, spec = StructuredOutputOptions.JSON_OBJECT, ""
    elif so.regex is not None:
        kind, spec = StructuredOutputOptions.REGEX, so.regex
    elif so.choice is not None:
        kind, spec = StructuredOutputOptions.CHOICE, json.dumps(so.choice) if not isinstance(so.choice, str) else so.choice
    elif so.grammar is not None:
        kind, spec = StructuredOutputOptions.GRAMMAR, so.grammar
    else:
        raise _validation_error("guided_decoding: structural tags are not supported")
    try:
        compile_request(_checker, kind, spec, {})
    except (GuidedDecodingError, ValueError) as e:
        raise _validation_error(str(e)) from e


def _validation_error(message: str) -> Exception:
    try:
        from vllm.exceptions import VLLMValidationError
        return VLLMValidationError(message)
    except ImportError:
        return ValueError(message)
