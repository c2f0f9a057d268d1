import Foundation
import PCRE2Kit

/// A text rewrite applied before pre-tokenization (Hugging Face `normalizer`, SentencePiece normalizer spec).
/// Works on UTF-8 bytes; only the steps that real files use are supported, each reproduced exactly.
enum Normalizer: Sendable {
    /// Prepends `bytes` to non-empty text (HF `Prepend`, SentencePiece dummy prefix).
    case prepend([UInt8])
    /// Replaces every occurrence of a literal (HF `Replace` with a `String` pattern, SentencePiece whitespace
    /// escaping ' ' → '▁').
    case replace([UInt8], with: [UInt8])
    /// Replaces every match of a regex (HF `Replace` with a `Regex` pattern).
    case replaceRegex(PCRE2Regex, with: [UInt8])
    case nfc, nfd, nfkc, nfkd
    case lowercase
    /// SentencePiece `remove_extra_whitespaces`: drop leading and trailing spaces, squeeze runs to one.
    case collapseSpaces

    func apply(_ text: [UInt8]) throws(PCRE2Error) -> [UInt8] {
        switch self {
        case .prepend(let prefix):
            return text.isEmpty ? text : prefix + text
        case .replace(let pattern, let content):
            return Self.replaceAll(text, pattern, content)
        case .replaceRegex(let regex, let content):
            let matcher = PCRE2Matcher(regex)
            var out: [UInt8] = []
            var last = 0
            try text.withUnsafeBufferPointer { buf throws(PCRE2Error) in
                try matcher.forEachMatch(in: buf, subjectIsValidUTF8: true) { m in
                    out.append(contentsOf: buf[last..<m.lowerBound])
                    out.append(contentsOf: content)
                    last = m.upperBound
                }
            }
            out.append(contentsOf: text[last...])
            return out
        case .nfc: return Array(String(decoding: text, as: UTF8.self).precomposedStringWithCanonicalMapping.utf8)
        case .nfd: return Array(String(decoding: text, as: UTF8.self).decomposedStringWithCanonicalMapping.utf8)
        case .nfkc: return Array(String(decoding: text, as: UTF8.self).precomposedStringWithCompatibilityMapping.utf8)
        case .nfkd: return Array(String(decoding: text, as: UTF8.self).decomposedStringWithCompatibilityMapping.utf8)
        case .lowercase: return Array(String(decoding: text, as: UTF8.self).lowercased().utf8)
        case .collapseSpaces:
            var out: [UInt8] = []
            out.reserveCapacity(text.count)
            var pendingSpace = false
            for b in text {
                if b == 0x20 {
                    pendingSpace = !out.isEmpty
                } else {
                    if pendingSpace { out.append(0x20); pendingSpace = false }
                    out.append(b)
                }
            }
            return out
        }
    }

    static func replaceAll(_ text: [UInt8], _ pattern: [UInt8], _ content: [UInt8]) -> [UInt8] {
        guard !pattern.isEmpty, text.count >= pattern.count else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + text.count / 2)
        text.withUnsafeBufferPointer { t in
            pattern.withUnsafeBufferPointer { pat in
                let n = t.count, m = pat.count, first = pat[0]
                let tp = t.baseAddress!, pp = pat.baseAddress!
                var i = 0
                var copied = 0
                while i <= n - m {
                    if tp[i] == first && memcmpEqual(tp + i, pp, m) {
                        out.append(contentsOf: UnsafeBufferPointer(start: tp + copied, count: i - copied))
                        out.append(contentsOf: content)
                        i += m
                        copied = i
                    } else {
                        i += 1
                    }
                }
                out.append(contentsOf: UnsafeBufferPointer(start: tp + copied, count: n - copied))
            }
        }
        return out
    }
}
