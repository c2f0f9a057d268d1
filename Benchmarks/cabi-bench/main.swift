// What the C ABI adds to a mask fill: the same matcher state filled through the Swift API
// (`GrammarMatcher.fillNextTokenMask(into:)`) and through `gd_matcher_fill_bitmask` (the exported function
// a C caller reaches; here called directly, which skips only the PLT jump of a real C call, ~1 ns).
// Alternating rounds at several states of a JSON document over the Qwen2 vocabulary; prints ns per call.
//
//   swift run -c release guided-cabi-bench [--tokenizer ../shared/vocab/qwen2.tokenizer.json] [--calls N]
import Foundation
import GuidedDecodingC
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

var tokenizerPath = "../shared/vocab/qwen2.tokenizer.json"
var calls = 20_000
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--tokenizer": tokenizerPath = args.popFirst() ?? tokenizerPath
    case "--calls": calls = Int(args.popFirst() ?? "") ?? calls
    default: print("usage: guided-cabi-bench [--tokenizer PATH] [--calls N]"); exit(2)
    }
}

let schema = #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"tags":{"type":"array","items":{"enum":["a","b","c"]}}},"required":["name","age","tags"]}"#
let document = #"{"name":"Ada Lovelace","age":36,"tags":["a","c"]}"#

func check(_ status: Int32, _ what: String) {
    if status != 0 { print("\(what): status \(status): \(String(cString: gd_last_error_message()))"); exit(1) }
}

var vocab: OpaquePointer? = nil
check(gd_vocab_new_from_file(tokenizerPath, #"{"vocab_size": 151936}"#, &vocab), "vocabulary")
var compiler: OpaquePointer? = nil
check(gd_compiler_new(vocab, 0, &compiler), "compiler")
var grammar: OpaquePointer? = nil
check(schema.withCString { gd_compile(compiler, 1, $0, strlen($0), #"{"whitespace":"compact"}"#, 0, &grammar) }, "compile")

// The same grammar through the Swift API (same vocabulary file and options).
let tokenizer = try Tokenizer.load(path: tokenizerPath, vocabularySize: 151936)
let index = try VocabularyIndex(tokenizer.vocabulary)
let compiled = try CompiledGrammar(JSONSchemaCompiler.compile(text: schema, options: .init(whitespace: .compact)), vocabulary: index)
let tokens = try tokenizer.encode(document)

var swiftMatcher = GrammarMatcher(compiled)
var cMatcher: OpaquePointer? = nil
check(gd_matcher_new(grammar, 256, &cMatcher), "matcher")
let words = index.maskWords
var buffer = [UInt32](repeating: 0, count: words)
var cBuffer = [Int32](repeating: 0, count: words)

@MainActor func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(calls)
}

print("state  swift_ns  c_abi_ns  added_ns   (\(calls) calls each, best of 5 alternating rounds)")
var added: [Double] = []
for (position, token) in tokens.enumerated() {
    if position % 3 == 0 {
        var bestSwift = Double.infinity, bestC = Double.infinity
        for _ in 0..<5 {
            bestSwift = min(bestSwift, nanoseconds {
                buffer.withUnsafeMutableBufferPointer { b in
                    for _ in 0..<calls { try! swiftMatcher.fillNextTokenMask(into: b) }
                }
            })
            bestC = min(bestC, nanoseconds {
                cBuffer.withUnsafeMutableBufferPointer { b in
                    for _ in 0..<calls { _ = gd_matcher_fill_bitmask(cMatcher, b.baseAddress, words) }
                }
            })
        }
        added.append(bestC - bestSwift)
        print(String(format: "%5d  %8.0f  %8.0f  %8.0f", position, bestSwift, bestC, bestC - bestSwift))
    }
    try swiftMatcher.accept(token: token)
    var t = Int32(token), n = 0
    check(gd_matcher_accept_tokens(cMatcher, &t, 1, &n), "accept")
}
let mean = added.reduce(0, +) / Double(added.count)
print(String(format: "mean added per call: %.0f ns over %d states", mean, added.count))

// The fixed cost alone, without a mask's noise: a call that does no work through each path.
var flag: Int32 = 0, sink = false
var bestSwift = Double.infinity, bestC = Double.infinity
for _ in 0..<5 {
    bestSwift = min(bestSwift, nanoseconds { for _ in 0..<calls { sink = sink != swiftMatcher.isTerminated } })
    bestC = min(bestC, nanoseconds { for _ in 0..<calls { _ = gd_matcher_is_terminated(cMatcher, &flag) } })
}
print(String(format: "is_terminated: swift %.1f ns, c_abi %.1f ns: the handle lookup and status cost %.1f ns%@",
             bestSwift, bestC, bestC - bestSwift, sink ? " " : ""))
