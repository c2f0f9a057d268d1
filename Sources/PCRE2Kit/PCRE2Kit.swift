// Placeholder: a small Swift wrapper over PCRE2 (JIT), shared by the tokenizers' pre-tokenizer and the validator's `pattern`.
