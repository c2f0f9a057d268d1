"""Decode-step time of transformers `generate` on a GPU with a random-weight Qwen2-7B-shaped model in bf16, at
batch 1 and 64: unconstrained, with guided_decoding's GuidedLogitsProcessor, and with XGrammar's processor
when xgrammar imports. Prints a table and writes JSON (--out). Needs torch (CUDA) and transformers; nothing
is downloaded (the weights are random; the tokenizer is a local tokenizer.json).

    python3 bench_transformers_gpu.py --lib libGuidedDecodingC.so --tokenizer qwen2.tokenizer.json --out gpu.json

Each configuration: one warm-up generate, then --repeats rounds in which every configuration runs one
timed generate of --steps new tokens (min_new_tokens = max_new_tokens, so every row runs every step);
time per step = wall time / steps, after sync(); the median over the rounds. The processors see the same schema (a record whose string fields keep the model
busy for the whole budget)."""

import argparse
import json
import statistics
import time

from _common import load

SCHEMA = {"type": "object", "properties": {
    "title": {"type": "string"}, "summary": {"type": "string"}, "notes": {"type": "array", "items": {"type": "string"}}},
    "required": ["title", "summary", "notes"]}


def qwen2_7b_config(transformers, vocab_size):
    return transformers.Qwen2Config(vocab_size=vocab_size, hidden_size=3584, intermediate_size=18944,
                                    num_hidden_layers=28, num_attention_heads=28, num_key_value_heads=4,
                                    max_position_embeddings=32768, rope_theta=1_000_000.0, rms_norm_eps=1e-6,
                                    tie_word_embeddings=False, torch_dtype="bfloat16")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True, help="libGuidedDecodingC.so")
    p.add_argument("--tokenizer", required=True, help="Qwen2 tokenizer.json")
    p.add_argument("--batches", type=int, nargs="+", default=[1, 64])
    p.add_argument("--steps", type=int, default=64)
    p.add_argument("--prompt", type=int, default=32, help="prompt tokens")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--out", default="gpu-step-overhead.json")
    p.add_argument("--device", default="cuda", help="cuda; cpu only to smoke-test this script (with --tiny)")
    p.add_argument("--tiny", action="store_true", help="a 2-layer model of the same vocabulary (smoke test)")
    a = p.parse_args()
    gd = load(a.lib)
    from guided_decoding.hf import GuidedLogitsProcessor
    import torch
    import transformers

    vocab_size = 152064  # Qwen2-7B's logits width
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_file=a.tokenizer, eos_token="<|endoftext|>")
    torch.manual_seed(0)
    torch.set_default_dtype(torch.bfloat16)
    config = qwen2_7b_config(transformers, vocab_size)
    if a.tiny:
        config = transformers.Qwen2Config(vocab_size=vocab_size, hidden_size=64, intermediate_size=128,
                                          num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2)
    with torch.device(a.device):
        model = transformers.Qwen2ForCausalLM(config).eval()
    torch.set_default_dtype(torch.float32)
    vocab = gd.Vocabulary.from_hf_tokenizer(tokenizer, vocab_size=vocab_size)
    grammar = gd.Compiler(vocab).compile_json_schema(SCHEMA)

    xgr_factory = None
    try:
        import xgrammar as xgr
        info = xgr.TokenizerInfo.from_huggingface(tokenizer, vocab_size=vocab_size)
        compiled = xgr.GrammarCompiler(info).compile_json_schema(json.dumps(SCHEMA))
        xgr_factory = lambda: xgr.contrib.hf.LogitsProcessor(compiled)  # noqa: E731
    except Exception as e:  # not installed, or another API version
        print(f"xgrammar: not measured ({type(e).__name__}: {e})")

    sync = torch.cuda.synchronize if a.device == "cuda" else (lambda: None)
    configs = [("unconstrained", lambda: None), ("guided_decoding", lambda: GuidedLogitsProcessor(grammar))]
    if xgr_factory:
        configs.append(("xgrammar", xgr_factory))
    rows = []
    for batch in a.batches:
        prompt = torch.randint(0, 150000, (batch, a.prompt), device=a.device)

        def run(make):
            processor = make()
            kwargs = {"logits_processor": [processor]} if processor is not None else {}
            sync()
            start = time.perf_counter()
            with torch.no_grad():
                model.generate(prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=a.steps,
                               min_new_tokens=a.steps, do_sample=False, eos_token_id=None, pad_token_id=0, **kwargs)
            sync()
            return (time.perf_counter() - start) / a.steps * 1e3

        for _, make in configs:
            run(make)  # warm-up (kernels, allocator, the grammar's first masks)
        # Interleaved rounds (each configuration once per round), so a drift of the host's speed over the
        # run lands on every configuration alike instead of on whichever ran first.
        times = {name: [] for name, _ in configs}
        for _ in range(a.repeats):
            for name, make in configs:
                times[name].append(run(make))
        base = statistics.median(times["unconstrained"])
        for name, _ in configs:
            ms = statistics.median(times[name])
            overhead = (ms - base) / base * 100
            rows.append({"batch": batch, "processor": name, "ms_per_step": ms, "min_ms_per_step": min(times[name]),
                         "runs_ms_per_step": times[name], "overhead_percent": overhead})
            print(f"batch {batch:3d}  {name:16s} median {ms:8.2f} ms/step  min {min(times[name]):8.2f}  "
                  f"{overhead:+6.1f}%", flush=True)
    device = torch.cuda.get_device_name(0) if a.device == "cuda" else "cpu"
    with open(a.out, "w") as f:
        json.dump({"device": device, "torch": torch.__version__, "transformers": transformers.__version__,
                   "steps": a.steps, "prompt_tokens": a.prompt, "rows": rows}, f, indent=2)
    print(f"\n{device}: wrote {a.out}")


if __name__ == "__main__":
    main()
