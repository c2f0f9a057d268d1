#!/usr/bin/env python3
"""Writes the GGUF test models of the suite (needs the `gguf` package and numpy).

Shapes (--shape):
  tiny        (default) a llama-architecture transformer, 2 layers, width 64, f32, with small random weights
              shaped into an almost deterministic bigram model (below);
  qwen2-0.5b  Qwen2-0.5B's shape (architecture qwen2, 24 layers, width 896, 14 heads, 2 KV heads, FFN 4864,
              q/k/v biases, output tied to the embeddings), f16 random weights (N(0, 0.02)): ~1 GB, for
              speed figures only (its text is noise).

Vocabularies (--vocab): a byte-level `tokenizer.json` (../shared/vocab/qwen2.tokenizer.json: tokenizer model
"gpt2", pre-tokenizer "qwen2", its merges, the added tokens as control or user-defined tokens, BOS
`<|endoftext|>`, EOS `<|im_end|>`, a ChatML template) or a SentencePiece `.model`
(../shared/vocab/mistral-7b-v0.1.model: tokenizer model "llama", pieces, scores and types as in the file,
its unk/bos/eos ids and normalizer flags, BOS added, as llama.cpp's converter writes Mistral).

--arch NAME writes another `general.architecture` (the tensors stay llama's): a model llama.cpp refuses.

Random weights alone would make a grammar-constrained generation wander inside strings until `max_tokens`.
So the tiny shape's weights make the model an almost deterministic *bigram* model whatever the prompt:

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
  (The chain is spelled in byte-level tokens; a SentencePiece vocabulary gets the global preference only.)

Usage: make_tiny_gguf.py --vocab VOCAB --out model.gguf [--shape S] [--arch A]
       make_tiny_gguf.py --vocab VOCAB --cache-dir DIR [--shape S] [--arch A]
With --cache-dir the model is written once into DIR, named by its shape, architecture and a hash of this
script and the vocabulary, and its path is printed.
"""
import argparse
import hashlib
import json
import os
import struct
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

# Qwen2-0.5B (config.json of Qwen/Qwen2-0.5B): the shape only.
QWEN2_05B = dict(n_embd=896, n_layer=24, n_head=14, n_head_kv=2, n_ff=4864, n_ctx=4096, rope_base=1000000.0)


def byte_level_vocab(path):
    with open(path, encoding="utf-8") as f:
        tok = json.load(f)
    vocab = tok["model"]["vocab"]
    added = sorted(tok["added_tokens"], key=lambda t: t["id"])
    n_vocab = len(vocab) + len(added)
    tokens = [""] * n_vocab
    for text, i in vocab.items():
        tokens[i] = text
    types = [gguf.TokenType.NORMAL] * n_vocab
    for t in added:
        tokens[t["id"]] = t["content"]
        types[t["id"]] = gguf.TokenType.CONTROL if t.get("special") else gguf.TokenType.USER_DEFINED
    if any(t == "" for t in tokens):
        sys.exit("make_tiny_gguf: the vocabulary has gaps")
    ids = {t: i for i, t in enumerate(tokens)}
    return dict(model="gpt2", tokens=tokens, types=types, ids=ids,
                merges=[m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]],
                bos=ids["<|endoftext|>"], eos=ids["<|im_end|>"])


def _varint(b, i):
    value = shift = 0
    while True:
        c = b[i]
        i += 1
        value |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return value, i


def _fields(b):
    """(field number, wire type, value) of a protobuf message, the few wire types sentencepiece uses."""
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(b, i)
        elif wire == 1:
            value, i = b[i:i + 8], i + 8
        elif wire == 2:
            n, i = _varint(b, i)
            value, i = b[i:i + n], i + n
        elif wire == 5:
            value, i = b[i:i + 4], i + 4
        else:
            sys.exit("make_tiny_gguf: unexpected protobuf wire type %d" % wire)
        yield number, wire, value


def sentencepiece_vocab(path):
    """ModelProto: pieces (1: piece, 2: score, 3: type), trainer_spec (40-42: unk/bos/eos ids) and
    normalizer_spec (3: add_dummy_prefix, 4: remove_extra_whitespaces), with sentencepiece's defaults."""
    with open(path, "rb") as f:
        data = f.read()
    tokens, scores, types = [], [], []
    special = dict(unk=0, bos=1, eos=2)
    add_prefix, remove_ws = True, True
    for number, _, value in _fields(data):
        if number == 1:
            piece, score, kind = None, 0.0, 1
            for n, _, v in _fields(value):
                if n == 1:
                    piece = v.decode("utf-8")
                elif n == 2:
                    score = struct.unpack("<f", v)[0]
                elif n == 3:
                    kind = v
            tokens.append(piece)
            scores.append(score)
            types.append(kind)   # sentencepiece's type numbers are GGUF's token types
        elif number == 2:
            for n, _, v in _fields(value):
                if n in (40, 41, 42):
                    special[{40: "unk", 41: "bos", 42: "eos"}[n]] = v
        elif number == 3:
            for n, _, v in _fields(value):
                if n == 3:
                    add_prefix = bool(v)
                elif n == 4:
                    remove_ws = bool(v)
    ids = {t: i for i, t in enumerate(tokens)}
    return dict(model="llama", tokens=tokens, types=types, ids=ids, scores=scores, add_prefix=add_prefix,
                remove_ws=remove_ws, **special)


def write_vocab(w, v):
    w.add_tokenizer_model(v["model"])
    w.add_token_list(v["tokens"])
    w.add_token_types(v["types"])
    w.add_bos_token_id(v["bos"])
    w.add_eos_token_id(v["eos"])
    if v["model"] == "gpt2":
        w.add_tokenizer_pre("qwen2")
        w.add_token_merges(v["merges"])
        w.add_pad_token_id(v["bos"])
        w.add_add_bos_token(False)
        w.add_chat_template(CHATML)
    else:
        w.add_token_scores(v["scores"])
        w.add_unk_token_id(v["unk"])
        w.add_add_bos_token(True)
        w.add_add_eos_token(False)
        w.add_add_space_prefix(v["add_prefix"])
        w.add_remove_extra_whitespaces(v["remove_ws"])


def write_tiny(path, v, arch, seed):
    tokens, ids = v["tokens"], v["ids"]
    n_vocab = len(tokens)
    rng = np.random.default_rng(seed)

    def small(*shape, std=0.02):
        return (rng.standard_normal(shape) * std).astype(np.float32)

    chain = CHAIN if v["model"] == "gpt2" else []
    # State directions: 0 is the shared one, 1..len(chain) the chain tokens', the last one everyone else's.
    other_state = N_EMBD - 1
    state_of = {}
    for k, (a, _) in enumerate(chain):
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
    out[v["eos"], 0] = EOS_LOGIT * scale
    for a, b in chain:
        out[ids[b], state_of[ids[a]]] += CHAIN_BONUS * scale

    head_dim = N_EMBD // N_HEAD
    w = gguf.GGUFWriter(path, arch)
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
    write_vocab(w, v)

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
    finish(w)


def write_qwen2_05b(path, v, arch, seed):
    s = QWEN2_05B
    n_vocab, n_embd, n_ff = len(v["tokens"]), s["n_embd"], s["n_ff"]
    head_dim = n_embd // s["n_head"]
    kv = s["n_head_kv"] * head_dim
    rng = np.random.default_rng(seed)

    def matrix(*shape):
        return (rng.standard_normal(shape, dtype=np.float32) * 0.02).astype(np.float16)

    def vector(n):
        return (rng.standard_normal(n, dtype=np.float32) * 0.02).astype(np.float32)

    w = gguf.GGUFWriter(path, arch)
    w.add_name("guided-decoding random-weight model, Qwen2-0.5B shape")
    w.add_context_length(s["n_ctx"])
    w.add_embedding_length(n_embd)
    w.add_block_count(s["n_layer"])
    w.add_feed_forward_length(n_ff)
    w.add_head_count(s["n_head"])
    w.add_head_count_kv(s["n_head_kv"])
    w.add_rope_freq_base(s["rope_base"])
    w.add_layer_norm_rms_eps(1e-6)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    write_vocab(w, v)
    # No output.weight: Qwen2-0.5B ties the output matrix to the embeddings, and so does llama.cpp when absent.
    w.add_tensor("token_embd.weight", matrix(n_vocab, n_embd))
    w.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
    for b in range(s["n_layer"]):
        w.add_tensor(f"blk.{b}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
        w.add_tensor(f"blk.{b}.attn_q.weight", matrix(n_embd, n_embd))
        w.add_tensor(f"blk.{b}.attn_q.bias", vector(n_embd))
        w.add_tensor(f"blk.{b}.attn_k.weight", matrix(kv, n_embd))
        w.add_tensor(f"blk.{b}.attn_k.bias", vector(kv))
        w.add_tensor(f"blk.{b}.attn_v.weight", matrix(kv, n_embd))
        w.add_tensor(f"blk.{b}.attn_v.bias", vector(kv))
        w.add_tensor(f"blk.{b}.attn_output.weight", matrix(n_embd, n_embd))
        w.add_tensor(f"blk.{b}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
        w.add_tensor(f"blk.{b}.ffn_gate.weight", matrix(n_ff, n_embd))
        w.add_tensor(f"blk.{b}.ffn_up.weight", matrix(n_ff, n_embd))
        w.add_tensor(f"blk.{b}.ffn_down.weight", matrix(n_embd, n_ff))
    finish(w)


def finish(w):
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def cached_path(args):
    h = hashlib.sha256()
    for path in (os.path.abspath(__file__), args.vocab):
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    h.update(("%s %s %d" % (args.shape, args.arch, args.seed)).encode())
    stem = os.path.splitext(os.path.basename(args.vocab))[0].replace(".tokenizer", "")
    arch = "" if args.arch is None else "-" + args.arch
    return os.path.join(args.cache_dir, "%s-%s%s-%s.gguf" % (args.shape, stem, arch, h.hexdigest()[:16]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", required=True, help="a byte-level tokenizer.json or a SentencePiece .model")
    out = ap.add_mutually_exclusive_group(required=True)
    out.add_argument("--out")
    out.add_argument("--cache-dir")
    ap.add_argument("--shape", choices=["tiny", "qwen2-0.5b"], default="tiny")
    ap.add_argument("--arch", help="general.architecture to write (default: llama, or qwen2 for qwen2-0.5b)")
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()

    path = args.out
    if args.cache_dir:
        path = cached_path(args)
        if os.path.exists(path):
            print(path)
            return
        os.makedirs(args.cache_dir, exist_ok=True)
    v = sentencepiece_vocab(args.vocab) if args.vocab.endswith(".model") else byte_level_vocab(args.vocab)
    # A private temporary name: two runs at once must not write into each other's file.
    tmp = "%s.%d.tmp" % (path, os.getpid())
    if args.shape == "tiny":
        write_tiny(tmp, v, args.arch or "llama", args.seed)
    else:
        write_qwen2_05b(tmp, v, args.arch or "qwen2", args.seed)
    os.replace(tmp, path)
    if args.cache_dir:
        print(path)


if __name__ == "__main__":
    main()
