#!/usr/bin/env python3
"""Writes Corpora/vocab/prose-bpe.tiktoken: the demo's built-in vocabulary.

A byte-level BPE vocabulary trained on Corpora/prose, so that the main job
(`guided-conformance` with no arguments) runs from a plain clone. Ranks 0-255 are
the single bytes in byte order (every text stays encodable); then MERGES merges,
each the most frequent adjacent pair of the corpus's words, ties broken by the
pair's bytes so the file is the same on every run. Words are split roughly as
Qwen2's pre-tokenizer does (letters with one leading non-letter, single digits,
punctuation runs, whitespace); the demo encodes with the Qwen2 regex, so a merge
this split would never see is simply not used.

Usage (from the repository root): python3 Corpora/vocab/make_prose_vocab.py
Python 3 standard library only.
"""
import base64
import collections
import pathlib
import re

MERGES = 1500
ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "Corpora" / "prose"
OUTPUT = ROOT / "Corpora" / "vocab" / "prose-bpe.tiktoken"

# Letters: [^\W\d_] is "a word character that is not a digit or underscore".
WORD = re.compile(r"'(?:s|t|re|ve|m|ll|d)|[^\r\n\w]?[^\W\d_]+|\d| ?[^\s\w]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def words():
    counts = collections.Counter()
    for path in sorted(CORPUS.glob("*.txt")):
        for w in WORD.findall(path.read_text(encoding="utf-8")):
            counts[tuple(bytes([b]) for b in w.encode("utf-8"))] += 1
    return counts


def train(counts):
    tokens = [bytes([b]) for b in range(256)]
    known = set(tokens)
    for _ in range(MERGES):
        pairs = collections.Counter()
        for word, n in counts.items():
            for a, b in zip(word, word[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        (a, b), n = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        if n < 2:
            break
        merged = a + b
        if merged not in known:
            known.add(merged)
            tokens.append(merged)
        new = collections.Counter()
        for word, c in counts.items():
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and word[i] == a and word[i + 1] == b:
                    out.append(merged)
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            new[tuple(out)] += c
        counts = new
    return tokens


def main():
    tokens = train(words())
    lines = [f"{base64.b64encode(t).decode()} {rank}" for rank, t in enumerate(tokens)]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"{OUTPUT.relative_to(ROOT)}: {len(tokens)} tokens, {OUTPUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
