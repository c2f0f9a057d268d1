import Foundation

/// How a token is drawn from masked logits.
///
/// The pipeline, in this order (the order Hugging Face `generate` uses):
/// 1. the mask: disallowed tokens (and logits of −∞) are out;
/// 2. `temperature == 0`: greedy, the allowed token with the highest logit (ties: the lowest id);
///    otherwise logits are divided by `temperature` and turned into probabilities by softmax;
/// 3. top-k: keep the `topK` most probable tokens (ties broken by lower id);
/// 4. top-p (nucleus): keep the shortest run of most probable tokens whose probabilities, renormalised
///    over the tokens still kept, add up to at least `topP` (always at least one token);
/// 5. min-p: keep the tokens whose probability is at least `minP` times the largest one;
/// 6. draw one of the kept tokens with probability proportional to its softmax weight.
public struct SamplingParameters: Sendable, Equatable {
    /// 0 means greedy; otherwise must be positive and finite.
    public var temperature: Float
    /// Keep only the `topK` most probable tokens; `nil` (or a `topK` ≥ the allowed count) keeps all. Must be ≥ 1.
    public var topK: Int?
    /// Nucleus threshold in (0, 1]; 1 keeps all.
    public var topP: Double
    /// Relative probability floor in [0, 1]; 0 keeps all.
    public var minP: Double

    public init(temperature: Float = 1, topK: Int? = nil, topP: Double = 1, minP: Double = 0) {
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.minP = minP
    }

    /// Always the best allowed token.
    public static let greedy = SamplingParameters(temperature: 0)

    func validate() throws(SamplingError) {
        guard temperature >= 0 && temperature.isFinite else { throw .invalidParameter("temperature \(temperature) must be ≥ 0 and finite") }
        if let topK, topK < 1 { throw .invalidParameter("topK \(topK) must be ≥ 1") }
        guard topP > 0 && topP <= 1 else { throw .invalidParameter("topP \(topP) must be in (0, 1]") }
        guard minP >= 0 && minP <= 1 else { throw .invalidParameter("minP \(minP) must be in [0, 1]") }
    }
}

/// A token the sampler may draw, with its probability after all filters (renormalised).
public struct SamplingCandidate: Sendable, Equatable {
    public let token: Int
    public let probability: Double
}

/// Samples a token from logits under a token bitmask (see `LogitMask` for the layout), with greedy,
/// temperature, top-k, top-p and min-p (see `SamplingParameters`) and a seeded `SplitMix64Generator`:
/// the same seed, parameters and inputs give the same tokens.
///
/// The sampler keeps one scratch buffer of candidates that grows to the number of allowed tokens and
/// is reused; greedy sampling and sampling without top-k/top-p allocate nothing. Filtering sorts the
/// allowed tokens: O(m log m) for m allowed tokens.
public struct TokenSampler: Sendable {
    public var parameters: SamplingParameters
    public var generator: SplitMix64Generator
    /// Allowed tokens of the current call: (token, logit / temperature).
    private var scratch: [(token: Int32, scaled: Double)] = []

    public init(parameters: SamplingParameters, seed: UInt64) {
        self.parameters = parameters
        self.generator = SplitMix64Generator(seed: seed)
    }

    /// Draws a token allowed by `mask` from `logits` (the logits are not modified).
    public mutating func sample(logits: UnsafeBufferPointer<Float>, mask: UnsafeBufferPointer<UInt32>) throws(SamplingError) -> Int {
        try parameters.validate()
        let required = LogitMask.wordCount(tokenCount: logits.count)
        guard mask.count >= required else { throw .maskTooShort(words: mask.count, required: required) }
        if parameters.temperature == 0 { return try Self.argmax(logits, mask) }
        let keep = try filter(logits, mask)
        var total = 0.0
        for i in 0..<keep { total += weight(i) }
        let u = generator.nextUnitDouble() * total
        var cumulative = 0.0
        for i in 0..<keep {
            cumulative += weight(i)
            if u < cumulative { return Int(scratch[i].token) }
        }
        return Int(scratch[keep - 1].token)
    }

    /// `sample` for arrays.
    public mutating func sample(logits: [Float], mask: [UInt32]) throws(SamplingError) -> Int {
        try logits.withUnsafeBufferPointer { (l) throws(SamplingError) -> Int in
            try mask.withUnsafeBufferPointer { (m) throws(SamplingError) -> Int in try sample(logits: l, mask: m) }
        }
    }

    /// Draws from logits already masked with `LogitMask.apply` (−∞ = not allowed).
    public mutating func sample(maskedLogits: [Float]) throws(SamplingError) -> Int {
        let all = [UInt32](repeating: ~0, count: LogitMask.wordCount(tokenCount: maskedLogits.count))
        return try sample(logits: maskedLogits, mask: all)
    }

    /// The tokens `sample` would draw from, most probable first, with their final probabilities.
    /// For greedy parameters, the single best token with probability 1.
    public mutating func candidates(logits: [Float], mask: [UInt32]) throws(SamplingError) -> [SamplingCandidate] {
        try parameters.validate()
        let required = LogitMask.wordCount(tokenCount: logits.count)
        guard mask.count >= required else { throw .maskTooShort(words: mask.count, required: required) }
        return try logits.withUnsafeBufferPointer { (l) throws(SamplingError) -> [SamplingCandidate] in
            try mask.withUnsafeBufferPointer { (m) throws(SamplingError) -> [SamplingCandidate] in
                if parameters.temperature == 0 { return [SamplingCandidate(token: try Self.argmax(l, m), probability: 1)] }
                let keep = try filter(l, m)
                var total = 0.0
                for i in 0..<keep { total += weight(i) }
                return (0..<keep).map { SamplingCandidate(token: Int(scratch[$0].token), probability: weight($0) / total) }
                    .sorted { $0.probability > $1.probability || ($0.probability == $1.probability && $0.token < $1.token) }
            }
        }
    }

    // MARK: Internals

    /// Softmax weight of scratch entry `i` relative to the best one (`scratch[0]` is the maximum
    /// whenever a filter sorted the candidates; otherwise `maxScaled` holds it).
    private var maxScaled = 0.0
    private func weight(_ i: Int) -> Double { exp(scratch[i].scaled - maxScaled) }

    static func argmax(_ logits: UnsafeBufferPointer<Float>, _ mask: UnsafeBufferPointer<UInt32>) throws(SamplingError) -> Int {
        var best = -1
        var bestLogit = -Float.infinity
        for t in 0..<logits.count where LogitMask.isAllowed(t, in: mask) {
            let l = logits[t]
            if l.isNaN || l == .infinity { throw .nonFiniteLogit(token: t) }
            if l > bestLogit { best = t; bestLogit = l }
        }
        guard best >= 0 else { throw .noAllowedToken }
        return best
    }

    /// Fills `scratch` with the allowed tokens and applies top-k, top-p and min-p; returns how many
    /// leading entries of `scratch` are kept.
    private mutating func filter(_ logits: UnsafeBufferPointer<Float>, _ mask: UnsafeBufferPointer<UInt32>) throws(SamplingError) -> Int {
        scratch.removeAll(keepingCapacity: true)
        let inverse = 1 / Double(parameters.temperature)
        var best = -Double.infinity
        for t in 0..<logits.count where LogitMask.isAllowed(t, in: mask) {
            let l = logits[t]
            if l.isNaN || l == .infinity { throw .nonFiniteLogit(token: t) }
            if l == -.infinity { continue }
            let s = Double(l) * inverse
            scratch.append((Int32(t), s))
            best = max(best, s)
        }
        guard !scratch.isEmpty else { throw .noAllowedToken }
        maxScaled = best
        var keep = scratch.count
        let needsOrder = (parameters.topK.map { $0 < keep } ?? false) || parameters.topP < 1 || parameters.minP > 0
        guard needsOrder else { return keep }
        scratch.sort { $0.scaled > $1.scaled || ($0.scaled == $1.scaled && $0.token < $1.token) }
        if let k = parameters.topK { keep = min(keep, k) }
        if parameters.topP < 1 {
            var total = 0.0
            for i in 0..<keep { total += weight(i) }
            var cumulative = 0.0
            for i in 0..<keep {
                cumulative += weight(i)
                if cumulative / total >= parameters.topP { keep = i + 1; break }
            }
        }
        if parameters.minP > 0 {
            // weight(0) == 1 is the largest probability (relative), so the floor is minP itself.
            var i = 1
            while i < keep && weight(i) >= parameters.minP { i += 1 }
            keep = i
        }
        return keep
    }
}
