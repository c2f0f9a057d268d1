import GuidedMask
import GuidedSchema
import GuidedTokenizers

/// The widest logits accepted: 2^24 tokens, far above any model's (Qwen3's 248k), and small enough that the
/// per-vocabulary mask tables of a bad `vocab_size` cannot exhaust memory (they are a few bits per token).
let maxVocabularySize = 1 << 24

/// A vocabulary handle's object: the tokens and their index, shared by every grammar compiled for them.
final class VocabularyObject: Sendable {
    let index: VocabularyIndex
    var vocabulary: TokenVocabulary { index.vocabulary }

    init(_ vocabulary: TokenVocabulary) throws(CallError) {
        do throws(GrammarCompileError) { index = try VocabularyIndex(vocabulary) } catch {
            throw CallError(.invalidArgument, error.description)
        }
    }
}

@_cdecl("gd_vocab_new_from_tokens")
public func gd_vocab_new_from_tokens(_ bytes: UnsafePointer<UInt8>?, _ offsets: UnsafePointer<UInt32>?, _ nTokens: Int,
                                     _ eosIDs: UnsafePointer<Int32>?, _ nEOS: Int,
                                     _ specialIDs: UnsafePointer<Int32>?, _ nSpecial: Int,
                                     _ vocabSize: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall { () throws(CallError) in
        guard let out else { throw .null("out") }
        out.pointee = nil
        guard let offsets else { throw .null("offsets") }
        guard nTokens >= 0, nTokens <= maxVocabularySize else { throw CallError(.invalidArgument, "n_tokens \(nTokens) is out of range") }
        let offs = UnsafeBufferPointer(start: offsets, count: nTokens + 1)
        guard offs[0] == 0 else { throw CallError(.invalidArgument, "offsets[0] is \(offs[0]), must be 0") }
        for i in 0..<nTokens where offs[i + 1] < offs[i] {
            throw CallError(.invalidArgument, "offsets decrease at token \(i) (\(offs[i]) then \(offs[i + 1]))")
        }
        let total = Int(offs[nTokens])
        let data = try CArguments.buffer(bytes, total, name: "bytes")
        let size = vocabSize == 0 ? nTokens : vocabSize
        guard size >= nTokens, size <= maxVocabularySize else {
            throw CallError(.invalidArgument, "vocab_size \(vocabSize) is smaller than n_tokens \(nTokens) or above \(maxVocabularySize)")
        }
        func ids(_ p: UnsafePointer<Int32>?, _ n: Int, _ name: String) throws(CallError) -> [Int] {
            guard n >= 0 else { throw CallError(.invalidArgument, "\(name) count is negative") }
            let list = try CArguments.buffer(p, n, name: name)
            var result: [Int] = []
            for id in list {
                guard id >= 0, Int(id) < nTokens else {
                    throw CallError(.invalidArgument, "\(name): token \(id) is out of range for \(nTokens) tokens")
                }
                result.append(Int(id))
            }
            return result
        }
        let eos = try ids(eosIDs, nEOS, "eos_ids")
        let special = try ids(specialIDs, nSpecial, "special_ids")
        let vocabulary = TokenVocabulary(bytes: Array(data), offsets: Array(offs), specialTokenIDs: Set(special).union(eos),
                                         eosTokenIDs: eos, size: size)
        out.pointee = try HandleRegistry.shared.insert(try VocabularyObject(vocabulary), kind: .vocabulary)
    }
}

@_cdecl("gd_vocab_new_from_file")
public func gd_vocab_new_from_file(_ path: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
                                   _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall { () throws(CallError) in
        guard let out else { throw .null("out") }
        out.pointee = nil
        guard let file = try CArguments.cString(path, name: "path") else { throw .null("path") }
        let options = try CArguments.options(optionsJSON)
        var preset: TiktokenPreset? = nil
        var eos: [String]? = nil
        var size: Int? = nil
        for (key, value) in options {
            switch key {
            case "preset":
                guard let name = value.stringValue, let p = TiktokenPreset(rawValue: name) else {
                    let known = TiktokenPreset.allCases.map(\.rawValue).joined(separator: ", ")
                    throw CallError(.invalidArgument, "options_json: \"preset\" must be one of \(known)")
                }
                preset = p
            case "eos_tokens":
                guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                    throw CallError(.invalidArgument, "options_json: \"eos_tokens\" must be an array of strings")
                }
                eos = list.compactMap(\.stringValue)
            case "vocab_size":
                guard let n = value.numberValue?.intValue, n > 0, n <= maxVocabularySize else {
                    throw CallError(.invalidArgument, "options_json: \"vocab_size\" must be an integer from 1 to \(maxVocabularySize)")
                }
                size = n
            default:
                throw CallError(.invalidArgument, "options_json: unknown key \"\(key)\" (known: preset, eos_tokens, vocab_size)")
            }
        }
        let tokenizer: Tokenizer
        do throws(TokenizerError) {
            tokenizer = try Tokenizer.load(path: file, preset: preset, eosTokens: eos, vocabularySize: size)
        } catch {
            throw CallError(.tokenizer, error.description)
        }
        out.pointee = try HandleRegistry.shared.insert(try VocabularyObject(tokenizer.vocabulary), kind: .vocabulary)
    }
}

@_cdecl("gd_vocab_free")
public func gd_vocab_free(_ vocab: OpaquePointer?) -> Int32 {
    cCall { () throws(CallError) in try HandleRegistry.shared.remove(vocab, .vocabulary) }
}

@_cdecl("gd_vocab_info")
public func gd_vocab_info(_ vocab: OpaquePointer?, _ size: UnsafeMutablePointer<Int>?, _ nTokens: UnsafeMutablePointer<Int>?,
                          _ maskWords: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        let v = try HandleRegistry.shared.object(vocab, .vocabulary, as: VocabularyObject.self)
        size?.pointee = v.vocabulary.size
        nTokens?.pointee = v.vocabulary.tokenCount
        maskWords?.pointee = v.index.maskWords
    }
}

@_cdecl("gd_vocab_eos_ids")
public func gd_vocab_eos_ids(_ vocab: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?, _ cap: Int,
                             _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        let v = try HandleRegistry.shared.object(vocab, .vocabulary, as: VocabularyObject.self)
        let eos = v.vocabulary.eosTokenIDs
        count?.pointee = eos.count
        guard eos.count <= cap else {
            throw CallError(.bufferTooSmall, "the vocabulary has \(eos.count) EOS ids, the buffer holds \(cap)")
        }
        if eos.isEmpty { return }
        guard let out else { throw .null("out") }
        for (i, id) in eos.enumerated() { out[i] = Int32(id) }
    }
}

@_cdecl("gd_vocab_token_bytes")
public func gd_vocab_token_bytes(_ vocab: OpaquePointer?, _ token: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ cap: Int,
                                 _ len: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        let v = try HandleRegistry.shared.object(vocab, .vocabulary, as: VocabularyObject.self)
        guard token >= 0, Int(token) < v.vocabulary.size else {
            throw CallError(.invalidArgument, "token \(token) is out of range for a vocabulary of \(v.vocabulary.size)")
        }
        let bytes = v.vocabulary.tokenBytes(Int(token))
        len?.pointee = bytes.count
        guard bytes.count <= cap else {
            throw CallError(.bufferTooSmall, "token \(token) has \(bytes.count) bytes, the buffer holds \(cap)")
        }
        if bytes.isEmpty { return }
        guard let out else { throw .null("out") }
        for (i, b) in bytes.enumerated() { out[i] = b }
    }
}
