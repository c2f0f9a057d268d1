#if Llama
import CLlama

/// llama.cpp's own tokenizer, for checking the package's GGUF tokenizer against it (the masks are
/// computed over `tokenizer`; these say what llama.cpp itself would do with the same text).
extension LlamaModel {
    /// `llama_tokenize`: `addSpecial` adds BOS/EOS where the model asks for them, `parseSpecial` matches
    /// control tokens written in the text.
    public func llamaTokenize(_ text: String, addSpecial: Bool = false, parseSpecial: Bool = false) -> [Int] {
        let bytes = Array(text.utf8)
        guard bytes.count < Int(Int32.max) / 2 else { return [] }
        var capacity = bytes.count + 8
        while true {
            var ids = [llama_token](repeating: 0, count: capacity)
            let n = bytes.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { chars in
                    ids.withUnsafeMutableBufferPointer {
                        llama_tokenize(vocab, chars.baseAddress, Int32(bytes.count), $0.baseAddress, Int32(capacity),
                                       addSpecial, parseSpecial)
                    }
                }
            }
            if n >= 0 { return ids.prefix(Int(n)).map(Int.init) }
            // -n: the count it needs (INT32_MIN: more than an Int32 can count); never loop without growing.
            guard n != Int32.min, Int(-n) > capacity else { return [] }
            capacity = Int(-n)
        }
    }

    /// `llama_detokenize` of `ids` (special tokens rendered when `renderSpecial`).
    public func llamaDetokenize(_ ids: [Int], removeSpecial: Bool = false, renderSpecial: Bool = false) -> [UInt8] {
        let tokens = ids.map { llama_token(truncatingIfNeeded: $0) }
        var capacity = tokens.count * 8 + 16
        while true {
            var text = [CChar](repeating: 0, count: capacity)
            let n = tokens.withUnsafeBufferPointer { t in
                text.withUnsafeMutableBufferPointer {
                    llama_detokenize(vocab, t.baseAddress, Int32(t.count), $0.baseAddress, Int32(capacity),
                                     removeSpecial, renderSpecial)
                }
            }
            if n >= 0 { return text.prefix(Int(n)).map { UInt8(bitPattern: $0) } }
            guard n != Int32.min, Int(-n) > capacity else { return [] }
            capacity = Int(-n)
        }
    }

    /// `llama_token_to_piece` of one token: the bytes llama.cpp emits for it.
    public func llamaPiece(_ id: Int, renderSpecial: Bool = true) -> [UInt8] {
        var capacity = 64
        while true {
            var text = [CChar](repeating: 0, count: capacity)
            let n = text.withUnsafeMutableBufferPointer {
                llama_token_to_piece(vocab, llama_token(truncatingIfNeeded: id), $0.baseAddress, Int32(capacity), 0, renderSpecial)
            }
            if n >= 0 { return text.prefix(Int(n)).map { UInt8(bitPattern: $0) } }
            guard Int(-n) > capacity else { return [] }
            capacity = Int(-n)
        }
    }

    /// Whether llama.cpp ends generation at `id` (its end-of-generation set: EOS, EOT, EOM and the control
    /// tokens it recognises by name).
    public func llamaIsEndOfGeneration(_ id: Int) -> Bool {
        llama_vocab_is_eog(vocab, llama_token(truncatingIfNeeded: id))
    }
}
#endif
