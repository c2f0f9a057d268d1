#!/usr/bin/env python3
"""Writes a tiny GGUF model for the llama-cpp-python peer of the test suite (needs the `gguf` package).

The model is a llama-architecture transformer (2 layers, width 64) with small random weights and the real
Qwen2 vocabulary (../shared/vocab/qwen2.tokenizer.json: its byte-level BPE tokens and merges, the special
tokens as control tokens, tokenizer model "gpt2" with pre-tokenizer "qwen2") and a ChatML chat template.

Random weights alone would make a grammar-constrained generation wander inside strings until `max_tokens`.
So the weights are shaped to make the model an almost deterministic *bigram* model whatever the prompt:

* Every token embedding is `e0 + e_state`: a shared direction e0 plus one "state" direction (its own for the
  few chain tokens below, a common one for every other token). The layers' random weights are small, so the
  last hidden state stays close to the embedding of the current token.
* The output matrix reads e0 as a global preference that closes everything quickly when a grammar masks the
  rest: end of turn > `"` > `}` > `]` > `0` > other digits > `,` `:` > `{` `[`; each level at least 1.3
  times the next, so the server's repetition penalty (1.1) never swaps two of them.
* It reads the state directions as a chain that an unconstrained generation follows from the assistant
  prompt's final newline: `{"answer": "Beijing"}` and then `"}` over and over until `max_tokens`. That is
  plausible JSON that ignores any schema (and then runs on), as a lenient server's model would write. Under
  a grammar the chain is masked wherever it does not fit and the global preference takes over, so
  constrained generations finish within a few tokens: `{}`-like objects, empty strings, `0`.

Usage: make_tiny_gguf.py --vocab PATH/qwen2.tokenizer.json --out model.gguf
"""
import argparse
import json
import os
import sys

import numpy as np
import gguf

N_EMBD = 64
N_LAYER = 2
N_HEAD = 4
N_HEAD_KV = 2
N_FF = 128
N_CTX = 2048

CHATML = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)

# Global preference (logit) of single tokens, by token text in the byte-level alphabet.
GLOBAL = [
    ('"', 46.0),
    ("}", 35.0),
    ("]", 27.0),
    ("0", 21.0),
] + [(str(d), 16.0) for d in range(1, 10)] + [
    (",", 12.0),
    (":", 12.0),
    ("{", 9.0),
    ("[", 9.0),
]
EOS_LOGIT = 60.0
# The unconstrained chain: after token A comes token B (bonus far above every global preference).
CHAIN = [
    ("\u010a", '{"'),       # the newline that ends "<|im_start|>assistant\n"
    ('{"', "answer"),
    ("answer", '":'),
    ('":', '\u0120"'),      # `: "` with the space (Ġ)
    ('\u0120"', "Be"),
    ("Be", "ijing"),
    ("ijing", '"}'),
    ('"}', '"}'),           # runs on until max_tokens
]
CHAIN_BONUS = 100.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()

    with open(args.vocab, encoding="utf-8") as f:
        tok = json.load(f)
    vocab = tok["model"]["vocab"]
    n_regular = len(vocab)
    added = sorted(tok["added_tokens"], key=lambda t: t["id"])
    n_vocab = n_regular + len(added)
    tokens = [""] * n_vocab
    for text, i in vocab.items():
        tokens[i] = text
    types = [gguf.TokenType.NORMAL] * n_vocab
    for t in added:
        tokens[t["id"]] = t["content"]
        types[t["id"]] = gguf.TokenType.CONTROL if t.get("special") else gguf.TokenType.USER_DEFINED
    if any(t == "" for t in tokens):
        sys.exit("make_tiny_gguf: the vocabulary has gaps")
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
    ids = {t: i for i, t in enumerate(tokens)}
    bos = ids["<|endoftext|>"]
    eos = ids["<|im_end|>"]

    rng = np.random.default_rng(args.seed)

    def small(*shape, std=0.02):
        return (rng.standard_normal(shape) * std).astype(np.float32)

    # State directions: 0 is the shared one, 1..len(CHAIN) the chain tokens', the last one everyone else's.
    other_state = N_EMBD - 1
    state_of = {}
    for k, (a, _) in enumerate(CHAIN):
        state_of[ids[a]] = 1 + k
    embd = np.zeros((n_vocab, N_EMBD), dtype=np.float32)
    embd[:, 0] = 1.0
    embd[:, other_state] = 1.0
    for t, s in state_of.items():
        embd[t, other_state] = 0.0
        embd[t, s] = 1.0
    embd += small(n_vocab, N_EMBD, std=0.001)

    # After the final RMSNorm the hidden state is about sqrt(N_EMBD / 2) * (e0 + e_state).
    scale = 1.0 / np.sqrt(N_EMBD / 2.0)
    out = small(n_vocab, N_EMBD, std=0.001)
    out[:, 0] = 0.0
    for text, logit in GLOBAL:
        out[ids[text], 0] = logit * scale
    out[eos, 0] = EOS_LOGIT * scale
    for a, b in CHAIN:
        out[ids[b], state_of[ids[a]]] += CHAIN_BONUS * scale

    head_dim = N_EMBD // N_HEAD
    w = gguf.GGUFWriter(args.out + ".tmp", "llama")
    w.add_name("guided-decoding tiny test model")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_rope_dimension_count(head_dim)
    w.add_rope_freq_base(10000.0)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(bos)
    w.add_eos_token_id(eos)
    w.add_pad_token_id(bos)
    w.add_add_bos_token(False)
    w.add_chat_template(CHATML)

    w.add_tensor("token_embd.weight", embd)
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    w.add_tensor("output.weight", out)
    for b in range(N_LAYER):
        w.add_tensor(f"blk.{b}.attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(f"blk.{b}.attn_q.weight", small(N_EMBD, N_EMBD))
        w.add_tensor(f"blk.{b}.attn_k.weight", small(N_HEAD_KV * head_dim, N_EMBD))
        w.add_tensor(f"blk.{b}.attn_v.weight", small(N_HEAD_KV * head_dim, N_EMBD))
        w.add_tensor(f"blk.{b}.attn_output.weight", small(N_EMBD, N_EMBD))
        w.add_tensor(f"blk.{b}.ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(f"blk.{b}.ffn_gate.weight", small(N_FF, N_EMBD))
        w.add_tensor(f"blk.{b}.ffn_up.weight", small(N_FF, N_EMBD))
        w.add_tensor(f"blk.{b}.ffn_down.weight", small(N_EMBD, N_FF))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
