import Foundation
import Testing
@testable import GuidedMask

/// A mask over `count` tokens allowing exactly `allowed`.
private func mask(_ count: Int, allowing allowed: [Int]) -> [UInt32] {
    var words = [UInt32](repeating: 0, count: (count + 31) / 32)
    for t in allowed { words[t / 32] |= 1 << UInt32(t % 32) }
    return words
}

private func close(_ a: [SamplingCandidate], _ b: [(Int, Double)], tolerance: Double = 1e-12) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.token == $1.0 && abs($0.probability - $1.1) < tolerance }
}

@Suite struct SamplingTests {
    // MARK: Applying the mask

    @Test func applyMaskSetsExactlyTheDisallowedLogitsToMinusInfinity() throws {
        let n = 70
        let allowed = [0, 5, 31, 33, 64, 69]
        var words = mask(n, allowing: allowed)
        words[0] |= 0  // word 0 partial
        words.append(~0)  // an extra word is fine
        words[2] |= ~UInt32(0) << 6  // padding bits beyond token 69 are ignored
        var logits = (0..<n).map { Float($0) }
        let count = try LogitMask.apply(words, to: &logits)
        #expect(count == allowed.count)
        for t in 0..<n {
            #expect(logits[t] == (allowed.contains(t) ? Float(t) : -.infinity), "token \(t)")
        }
    }

    @Test func applyMaskWholeWords() throws {
        var logits = [Float](repeating: 1, count: 64)
        let count = try LogitMask.apply([0, ~0], to: &logits)
        #expect(count == 32)
        #expect(logits == [Float](repeating: -.infinity, count: 32) + [Float](repeating: 1, count: 32))
    }

    @Test func applyMaskOnBufferPointers() throws {
        var logits: [Float] = [1, 2, 3]
        let words: [UInt32] = [0b101]
        let count = try words.withUnsafeBufferPointer { m in
            try logits.withUnsafeMutableBufferPointer { l in try LogitMask.apply(m, to: l) }
        }
        #expect(count == 2 && logits == [1, -.infinity, 3])
        #expect(words.withUnsafeBufferPointer { LogitMask.isAllowed(2, in: $0) && !LogitMask.isAllowed(1, in: $0) })
    }

    @Test func maskTooShortIsAnError() {
        var logits = [Float](repeating: 0, count: 33)
        #expect(throws: SamplingError.maskTooShort(words: 1, required: 2)) { try LogitMask.apply([~0], to: &logits) }
        var sampler = TokenSampler(parameters: .greedy, seed: 1)
        #expect(throws: SamplingError.maskTooShort(words: 1, required: 2)) { try sampler.sample(logits: logits, mask: [~0]) }
    }

    // MARK: The generator

    @Test func splitMix64ReferenceOutputs() {
        var g = SplitMix64Generator(seed: 0)
        #expect([g.next(), g.next(), g.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var h = SplitMix64Generator(seed: 0)
        _ = h.next()
        #expect(h.nextUnitDouble() == Double(0x6E78_9E6A_A1B9_65F4 >> 11) * 0x1.0p-53)
    }

    // MARK: Greedy

    @Test func greedyPicksTheBestAllowedToken() throws {
        var s = TokenSampler(parameters: .greedy, seed: 0)
        let logits: [Float] = [5, 9, 7, 9.5, -1]
        #expect(try s.sample(logits: logits, mask: mask(5, allowing: [0, 1, 2, 4])) == 1)
        #expect(try s.sample(logits: logits, mask: mask(5, allowing: [0, 1, 2, 3, 4])) == 3)
        #expect(try s.sample(logits: logits, mask: mask(5, allowing: [4])) == 4)
        // Ties go to the lowest id.
        #expect(try s.sample(logits: [1, 3, 3, 2], mask: [~0]) == 1)
        #expect(try s.candidates(logits: logits, mask: mask(5, allowing: [0, 2])) == [SamplingCandidate(token: 2, probability: 1)])
    }

    // MARK: Filters

    @Test func temperatureScalesTheDistribution() throws {
        let logits: [Float] = [0, Float(log(3.0))]
        var s = TokenSampler(parameters: SamplingParameters(temperature: 1), seed: 0)
        // Most probable first; Float rounding of ln 3 allows a tiny error.
        #expect(close(try s.candidates(logits: logits, mask: [~0]), [(1, 0.75), (0, 0.25)], tolerance: 1e-7))
        s.parameters.temperature = 0.5
        // Weights 1 : 9.
        #expect(close(try s.candidates(logits: logits, mask: [~0]), [(1, 0.9), (0, 0.1)], tolerance: 1e-6))
    }

    @Test func topKKeepsTheKBestWithTiesByLowerID() throws {
        var s = TokenSampler(parameters: SamplingParameters(topK: 2), seed: 0)
        #expect(close(try s.candidates(logits: [1, 4, 3, 4, 2], mask: [~0]), [(1, 0.5), (3, 0.5)]))
        // The mask applies before top-k.
        #expect(close(try s.candidates(logits: [1, 4, 3, 4, 2], mask: mask(5, allowing: [0, 2, 4])), [(2, 1 / (1 + exp(-1.0))), (4, exp(-1.0) / (1 + exp(-1.0)))]))
        s.parameters.topK = 10
        #expect(try s.candidates(logits: [1, 4, 3, 4, 2], mask: [~0]).count == 5)
    }

    static let probabilities = [0.5, 0.3, 0.15, 0.05]
    static let logits = probabilities.map { Float(log($0)) }

    @Test(arguments: [(0.4, 1), (0.75, 2), (0.85, 3), (0.96, 4), (1.0, 4)])
    func topPKeepsTheShortestSufficientPrefix(topP: Double, kept: Int) throws {
        var s = TokenSampler(parameters: SamplingParameters(topP: topP), seed: 0)
        let c = try s.candidates(logits: Self.logits.reversed(), mask: [~0])  // order of ids does not matter
        #expect(c.map(\.token) == Array([3, 2, 1, 0].prefix(kept)))
        let mass = Self.probabilities.prefix(kept).reduce(0, +)
        for (i, cand) in c.enumerated() { #expect(abs(cand.probability - Self.probabilities[i] / mass) < 1e-6) }
    }

    @Test(arguments: [(0.0, 4), (0.05, 4), (0.2, 3), (0.5, 2), (0.61, 1), (1.0, 1)])
    func minPKeepsTokensAboveTheRelativeFloor(minP: Double, kept: Int) throws {
        var s = TokenSampler(parameters: SamplingParameters(minP: minP), seed: 0)
        #expect(try s.candidates(logits: Self.logits, mask: [~0]).map(\.token) == Array(0..<kept))
    }

    @Test func filtersCombineInOrder() throws {
        // top-k 3 → {0.5, 0.3, 0.15} renormalised to {0.526, 0.316, 0.158}; top-p 0.8 → first two (0.842);
        // min-p 0.7 → 0.3/0.5 = 0.6 < 0.7 → only token 0.
        var s = TokenSampler(parameters: SamplingParameters(topK: 3, topP: 0.8), seed: 0)
        #expect(try s.candidates(logits: Self.logits, mask: [~0]).map(\.token) == [0, 1])
        s.parameters.minP = 0.7
        #expect(try s.candidates(logits: Self.logits, mask: [~0]).map(\.token) == [0])
    }

    // MARK: Drawing

    @Test func fixedSeedGivesAFixedSequence() throws {
        // Ten equal logits (tokens 10 and 11 masked): the draw is floor(10 × u) for SplitMix64 u.
        let logits = [Float](repeating: 2, count: 12)
        let m = mask(12, allowing: Array(0..<10))
        var a = TokenSampler(parameters: SamplingParameters(), seed: 7)
        var b = TokenSampler(parameters: SamplingParameters(), seed: 7)
        var drawnA: [Int] = [], drawnB: [Int] = []
        for _ in 0..<20 {
            drawnA.append(try a.sample(logits: logits, mask: m))
            drawnB.append(try b.sample(logits: logits, mask: m))
        }
        #expect(drawnA == [3, 0, 9, 5, 4, 2, 4, 3, 1, 4, 1, 9, 9, 8, 8, 5, 8, 3, 6, 7])
        #expect(drawnA == drawnB)
    }

    @Test func sampledTokensAreAlwaysAllowedAndKept() throws {
        var logits = (0..<100).map { Float(($0 * 37) % 11) / 3 }
        let m = mask(100, allowing: Array(stride(from: 1, to: 100, by: 3)))
        var s = TokenSampler(parameters: SamplingParameters(temperature: 0.7, topK: 8, topP: 0.9, minP: 0.05), seed: 99)
        let kept = Set(try s.candidates(logits: logits, mask: m).map(\.token))
        #expect(!kept.isEmpty && kept.count <= 8)
        var again = TokenSampler(parameters: s.parameters, seed: 99)
        var fromMasked = TokenSampler(parameters: s.parameters, seed: 99)
        var maskedLogits = logits
        try LogitMask.apply(m, to: &maskedLogits)
        for _ in 0..<200 {
            let t = try again.sample(logits: logits, mask: m)
            #expect(kept.contains(t))
            #expect(try fromMasked.sample(maskedLogits: maskedLogits) == t)
        }
        logits[0] = 1000  // disallowed, so irrelevant
        var greedy = TokenSampler(parameters: .greedy, seed: 0)
        #expect(try greedy.candidates(logits: logits, mask: m).first?.token != 0)
    }

    // MARK: Errors

    @Test func fullyMaskedIsAnError() {
        var s = TokenSampler(parameters: SamplingParameters(), seed: 0)
        #expect(throws: SamplingError.noAllowedToken) { try s.sample(logits: [1, 2, 3], mask: [0]) }
        #expect(throws: SamplingError.noAllowedToken) { try s.sample(logits: [-.infinity, 2], mask: [0b01]) }
        #expect(throws: SamplingError.noAllowedToken) { try s.sample(maskedLogits: [-.infinity, -.infinity]) }
        var g = TokenSampler(parameters: .greedy, seed: 0)
        #expect(throws: SamplingError.noAllowedToken) { try g.sample(logits: [1, 2, 3], mask: [0b1000]) }
        #expect(throws: SamplingError.noAllowedToken) { try g.sample(logits: [], mask: []) }
    }

    @Test func badLogitsAndParametersAreErrors() {
        var s = TokenSampler(parameters: SamplingParameters(), seed: 0)
        #expect(throws: SamplingError.nonFiniteLogit(token: 1)) { try s.sample(logits: [0, .nan], mask: [~0]) }
        #expect(throws: SamplingError.nonFiniteLogit(token: 0)) { try s.sample(logits: [.infinity, 1], mask: [~0]) }
        // A NaN in a masked-out token is fine.
        #expect((try? s.sample(logits: [0, .nan], mask: [0b01])) == 0)
        for bad in [SamplingParameters(temperature: -1), SamplingParameters(temperature: .nan), SamplingParameters(topK: 0),
                    SamplingParameters(topP: 0), SamplingParameters(topP: 1.5), SamplingParameters(minP: -0.1)] {
            s.parameters = bad
            #expect(throws: SamplingError.self) { try s.sample(logits: [0], mask: [~0]) }
        }
    }
}
