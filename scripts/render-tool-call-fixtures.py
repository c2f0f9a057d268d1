#!/usr/bin/env python3
"""Renders assistant turns with tool calls through the model families' own chat templates, to the fixture
that the tool-call format tests compare with (Corpora/tool-calls/template-renderings.json).

The templates are the ones llama.cpp keeps in models/templates (copied from the models' Hugging Face
tokenizer_config.json by its scripts/get_chat_template.py); they ship in the llama-cpp-python sdist:

    pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36   # or any copy of that sdist
    tar xzf llama_cpp_python-0.3.36.tar.gz --wildcards '*/models/templates/*'
    python3 scripts/render-tool-call-fixtures.py llama_cpp_python-0.3.36/vendor/llama.cpp/models/templates

Only the rendered outputs are written (no template text). `tojson` is Hugging Face's (json.dumps with
ensure_ascii=False), not Jinja's HTML-safe one, as transformers' apply_chat_template does.
"""
import json
import sys

import jinja2

TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Current weather in a city",
                                      "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                     "required": ["city"]}}},
    {"type": "function", "function": {"name": "add", "description": "Adds two integers",
                                      "parameters": {"type": "object", "properties": {"a": {"type": "integer"},
                                                                                      "b": {"type": "integer"}},
                                                     "required": ["a", "b"]}}},
]
CALL1 = {"name": "get_weather", "arguments": {"city": "Paris"}}
CALL2 = {"name": "add", "arguments": {"a": 2, "b": 3}}

# (file, family, cases, eos text that ends the turn, extra template variables)
FAMILIES = [
    ("Qwen-Qwen2.5-7B-Instruct.jinja", "hermes", ["one", "two", "content"], "<|im_end|>", {}),
    ("Qwen-Qwen3-0.6B.jinja", "hermes-qwen3", ["one", "two", "content", "reasoning"], "<|im_end|>", {}),
    ("meta-llama-Llama-3.1-8B-Instruct.jinja", "llama3-json", ["one"], "<|eot_id|>", {}),
    ("meta-llama-Llama-3.3-70B-Instruct.jinja", "llama3-json", ["one"], "<|eot_id|>", {}),
    ("meta-llama-Llama-3.1-8B-Instruct.jinja", "llama3-builtin", ["builtin"], "<|eom_id|>",
     {"builtin_tools": ["brave_search", "wolfram_alpha"]}),
    ("mistralai-Mistral-Nemo-Instruct-2407.jinja", "mistral", ["one", "two"], "</s>", {}),
    ("deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", "deepseek-r1", ["one", "two"], "<｜end▁of▁sentence｜>", {}),
    ("deepseek-ai-DeepSeek-V3.1.jinja", "deepseek-v3.1", ["one", "two", "content"], "<｜end▁of▁sentence｜>", {}),
    ("openai-gpt-oss-120b.jinja", "harmony", ["one", "reasoning"], "<|call|>", {}),
]


def tojson(value, indent=None, separators=None, sort_keys=False):
    return json.dumps(value, ensure_ascii=False, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def assistant(case):
    calls = {"one": [CALL1], "two": [CALL1, CALL2], "content": [CALL1], "reasoning": [CALL1],
             "builtin": [{"name": "brave_search", "arguments": {"query": "weather in Paris"}}]}[case]
    message = {"role": "assistant", "content": "Let me check." if case == "content" else "",
               "tool_calls": [{"type": "function", "id": "abcDEF123" if i == 0 else "ghiJKL456", "function": c}
                              for i, c in enumerate(calls)]}
    if case == "reasoning":
        message["reasoning_content"] = "The user wants the weather."
        message["thinking"] = "The user wants the weather."
    return message, calls


def main(directory):
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: "2025-01-01"   # fixed, so the fixture does not depend on the day
    out = []
    for file, family, cases, eos, extra in FAMILIES:
        with open(f"{directory}/{file}", encoding="utf-8") as f:
            template = env.from_string(f.read())
        for case in cases:
            message, calls = assistant(case)
            if family == "deepseek-r1" and not message["content"]:
                message["content"] = None   # this template renders an empty content as a second turn
            history = [{"role": "user", "content": "What is the weather in Paris?"}]
            variables = dict(tools=TOOLS, bos_token="<s>", eos_token=eos, **extra)
            prompt = template.render(messages=history, add_generation_prompt=True, **variables)
            before = template.render(messages=history, add_generation_prompt=False, **variables)
            full = template.render(messages=history + [message], add_generation_prompt=False, **variables)
            assert full.startswith(before), (file, case)
            turn = full[len(before):]
            generation = prompt[len(before):]
            # The model writes what follows the part of the generation prompt the turn repeats (its role
            # header), up to the token that ends the turn.
            header = 0
            while header < min(len(turn), len(generation)) and turn[header] == generation[header]:
                header += 1
            # ... ending at a token boundary: the whole prompt, or after a `>` or a newline.
            while header > 0 and header < len(generation) and generation[header - 1] not in ">\n":
                header -= 1
            output = turn[header:]
            for end in (eos + "\n", eos):
                if output.endswith(end):
                    output = output[:-len(end)]
                    break
            out.append({"template": file, "family": family, "case": case, "calls": calls,
                        "content": message["content"] or "", "reasoning": message.get("reasoning_content", ""),
                        "header": turn[:header], "output": output})
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
