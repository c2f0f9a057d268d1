/// Why a mask could not be applied or no token could be sampled.
public enum SamplingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bitmask has fewer 32-bit words than the logits need (`(logits + 31) / 32`).
    case maskTooShort(words: Int, required: Int)
    /// Every token is masked out (or has logit −∞): there is nothing to sample. This usually means the
    /// grammar is finished or dead, and the caller should stop instead of sampling.
    case noAllowedToken
    /// An allowed token's logit is NaN or +∞, so probabilities are undefined.
    case nonFiniteLogit(token: Int)
    /// A sampling parameter is out of its documented range.
    case invalidParameter(String)

    public var description: String {
        switch self {
        case .maskTooShort(let words, let required):
            return "token bitmask has \(words) words but the logits need \(required)"
        case .noAllowedToken: return "every token is masked out: nothing can be sampled"
        case .nonFiniteLogit(let token): return "allowed token \(token) has a NaN or +infinity logit"
        case .invalidParameter(let what): return "invalid sampling parameter: \(what)"
        }
    }
}
