#!/usr/bin/env python3
"""Reference logits for the GuidedLlama tests, from llama-cpp-python (the peer's venv).

Evaluates TOKENS with `Llama.eval` (all logits kept) and writes `Llama.scores` for every position, as
little-endian float32 rows of n_vocab values, to OUT.

Usage: reference_logits.py --model M.gguf --tokens 1,2,3 --out FILE [--n-ctx N] [--batch N]
"""
import argparse
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--tokens", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n-ctx", type=int, default=512)
    ap.add_argument("--batch", type=int, default=512)
    args = ap.parse_args()
    try:
        from llama_cpp import Llama
    except ImportError as e:
        sys.stderr.write("reference_logits: llama-cpp-python is not installed for %s (%s)\n" % (sys.executable, e))
        return 3
    tokens = [int(t) for t in args.tokens.split(",") if t]
    llm = Llama(model_path=args.model, n_ctx=args.n_ctx, n_batch=args.batch, n_ubatch=args.batch, n_threads=1,
                n_threads_batch=1, logits_all=True, flash_attn=False, verbose=False)
    llm.eval(tokens)
    scores = np.asarray(llm.scores[: len(tokens)], dtype="<f4")
    scores.tofile(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
