// example-mask-loop: the matcher loop of docs/api.md end to end, on a vocabulary this program builds
// itself (so it needs no model files): compile a GBNF grammar, then mask, sample and accept until the
// end token. The "model" is a seeded random logit generator, so what comes out is noise, but noise
// that always fits the grammar. Run: swift run example-mask-loop [seed]
import GuidedDecoding

// A toy vocabulary: every printable ASCII character, a few multi-character tokens (so tokens cross
// grammar boundaries, as real ones do), one end token, and 5 padding ids past the tokens (the logits
// are wider than the vocabulary, as Qwen2's are).
let pieces = (0x20...0x7E).map { [UInt8($0)] }
    + ["{\"", "\":", "\",\"", "true", "false", "null", "\"}", "}"].map { Array($0.utf8) }
let endToken = pieces.count
let vocabulary = TokenVocabulary(tokens: pieces + [Array("<end>".utf8)], specialTokenIDs: [endToken],
                                 eosTokenIDs: [endToken], size: pieces.count + 1 + 5)

let grammar = try Grammar(gbnf: #"""
    root  ::= "{\"name\":\"" name "\",\"ok\":" bool "}"
    name  ::= [a-z] [a-z]? [a-z]? [a-z]? [a-z]? [a-z]?
    bool  ::= "true" | "false"
    """#)
let index = try VocabularyIndex(vocabulary)                  // once per vocabulary
let compiled = try CompiledGrammar(grammar, vocabulary: index) // once per grammar
var matcher = GrammarMatcher(compiled)                      // one per sequence

let seed = CommandLine.arguments.dropFirst().first.flatMap { UInt64($0) } ?? 1
var noise = SplitMix64Generator(seed: seed)
var sampler = TokenSampler(parameters: SamplingParameters(temperature: 1), seed: seed)
var logits = [Float](repeating: 0, count: vocabulary.size)  // the logits width, not the token count
var mask = [UInt32](repeating: 0, count: matcher.maskWordCount)
var text: [UInt8] = []
var steps = 0

while !matcher.isTerminated {
    for i in logits.indices { logits[i] = Float(noise.nextUnitDouble() * 8) }
    try matcher.fillNextTokenMask(into: &mask)
    let token = try sampler.sample(logits: logits, mask: mask)
    try matcher.accept(token: token)
    if token != endToken { text += vocabulary.tokenBytes(token) }
    steps += 1
}

let output = String(decoding: text, as: UTF8.self)
print("\(steps) steps: \(output)")
print("grammar accepts it: \(try compiled.accepts(text: output))")
