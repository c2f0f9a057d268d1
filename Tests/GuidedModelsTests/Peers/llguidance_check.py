#!/usr/bin/env python3
"""Runs texts through llguidance's matcher for a Lark grammar (LlguidancePeerTests).

Reads one JSON object from stdin, {"lark": GRAMMAR, "texts": [[byte, ...], ...]}, and writes one JSON object
to stdout: {"error": MESSAGE} when llguidance refuses the grammar, else {"accepted": [bool, ...]}, whether
each text is a complete sentence. The tokenizer is one token per byte (plus an end-of-sequence token), so
llguidance judges bytes, as our reference recognizer does.
"""
import json
import sys

import llguidance


class ByteTokenizer:
    def __init__(self):
        self.tokens = [bytes([b]) for b in range(256)] + [b"<eos>"]
        self.eos_token_id = 256
        self.bos_token_id = None
        self.special_token_ids = [256]

    def __call__(self, data):
        return list(data)


def main():
    request = json.load(sys.stdin)
    tokenizer = llguidance.LLTokenizer(llguidance.TokenizerWrapper(ByteTokenizer()))
    grammar = llguidance.LLMatcher.grammar_from_lark(request["lark"])
    error = llguidance.LLMatcher.validate_grammar(grammar, tokenizer)
    if error:
        json.dump({"error": error}, sys.stdout)
        return
    accepted = []
    for text in request["texts"]:
        matcher = llguidance.LLMatcher(tokenizer, grammar, log_level=0)
        ok = matcher.consume_tokens(list(text)) if text else True
        accepted.append(bool(ok) and not matcher.is_error() and matcher.is_accepting())
    json.dump({"accepted": accepted}, sys.stdout)


if __name__ == "__main__":
    main()
