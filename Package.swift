// swift-tools-version: 6.1
// GuidedDecoding: constrained decoding for Swift. Layers depend one way only:
// GuidedSchema -> GuidedGrammar -> GuidedMask <- GuidedTokenizers; GuidedModels on top; GuidedLlama (trait
// `Llama`) on top of that.
import PackageDescription

// The targets that exist only with the trait: without it, their sources compile to nothing and nothing
// links llama.cpp, so a plain `swift build` needs neither llama.cpp nor its pkg-config entry.
let llama = TargetDependencyCondition.when(traits: ["Llama"])

let package = Package(
    name: "GuidedDecoding",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GuidedDecoding", targets: ["GuidedDecoding"]),
        .library(name: "GuidedSchema", targets: ["GuidedSchema"]),
        .library(name: "GuidedGrammar", targets: ["GuidedGrammar"]),
        .library(name: "GuidedTokenizers", targets: ["GuidedTokenizers"]),
        .library(name: "GuidedMask", targets: ["GuidedMask"]),
        .library(name: "GuidedModels", targets: ["GuidedModels"]),
        .library(name: "GuidedLlama", targets: ["GuidedLlama"]),
        .executable(name: "schema-check", targets: ["schema-check"]),
        .executable(name: "guided-conformance", targets: ["guided-conformance"]),
        .executable(name: "guided-fuzz", targets: ["guided-fuzz"]),
        // The C ABI (include/guided_decoding.h); scripts/build-c-abi.sh links the self-contained .so.
        .library(name: "GuidedDecodingC", type: .dynamic, targets: ["GuidedDecodingC"]),
    ],
    traits: [
        .trait(name: "Llama", description: "GuidedLlama: GGUF models through llama.cpp as a local backend. Needs the "
            + "build of scripts/setup-llama.sh (pkg-config `guided-llama`; see docs/llama.md)."),
    ],
    targets: [
        // PCRE2 (8-bit code units) from Debian's libpcre2-dev, found through pkg-config.
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // A small Swift wrapper over PCRE2 (JIT): the tokenizers' pre-tokenizer and the validator's `pattern`.
        .target(name: "PCRE2Kit", dependencies: ["CPCRE2"]),
        // The lock of the engine's shared tables (a POSIX mutex the sanitizers see).
        .target(name: "GuidedSync", dependencies: ["CGuidedAtomics"]),
        // Relaxed atomic loads/stores on raw memory (the lazily built automaton's tables; inline C).
        .target(name: "CGuidedAtomics"),
        .target(name: "GuidedSchema", dependencies: ["PCRE2Kit"]),
        .target(name: "GuidedGrammar", dependencies: ["GuidedSchema"]),
        .target(name: "GuidedTokenizers", dependencies: ["PCRE2Kit"]),
        .target(name: "GuidedMask", dependencies: ["GuidedGrammar", "GuidedTokenizers", "GuidedSync", "CGuidedAtomics"]),
        .target(name: "GuidedModels", dependencies: ["GuidedSchema", "GuidedGrammar", "GuidedTokenizers", "GuidedMask", "GuidedSync"]),
        // llama.cpp (libllama and its ggml libraries) from scripts/setup-llama.sh's cache prefix.
        .systemLibrary(name: "CLlama", pkgConfig: "guided-llama"),
        .target(name: "GuidedLlama", dependencies: ["GuidedModels", "GuidedTokenizers", "GuidedSync",
                                                    .target(name: "CLlama", condition: llama)]),
        .target(name: "GuidedDecoding", dependencies: ["GuidedSchema", "GuidedGrammar", "GuidedTokenizers", "GuidedMask", "GuidedModels"]),
        // The command-line tools' option parser, help and error wording; no library target depends on it.
        .target(name: "GuidedCLI"),
        .executableTarget(name: "schema-check", dependencies: ["GuidedDecoding", "GuidedCLI"]),
        .executableTarget(name: "guided-conformance", dependencies: ["GuidedDecoding", "GuidedCLI",
                                                                     .target(name: "GuidedLlama", condition: llama)]),
        // The fuzz targets (scripts/fuzz.sh); the C bridge reaches libFuzzer's driver when it is linked.
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "guided-fuzz", dependencies: ["GuidedDecoding", "CFuzzDriver"]),
        // The C ABI over the mask engine, for Python and other languages (docs/python.md).
        .target(name: "GuidedDecodingC", dependencies: ["GuidedMask", "GuidedGrammar", "GuidedTokenizers", "GuidedSchema", "GuidedSync"],
                exclude: ["include"]),
        // What the C ABI adds to a mask fill (docs/performance.md): `swift run -c release guided-cabi-bench`.
        .executableTarget(name: "guided-cabi-bench", dependencies: ["GuidedDecodingC", "GuidedMask", "GuidedGrammar", "GuidedTokenizers"],
                          path: "Benchmarks/cabi-bench"),
        // Batch fill on threads through the C ABI (docs/performance.md): `swift run -c release guided-batch-bench`.
        .executableTarget(name: "guided-batch-bench", dependencies: ["GuidedDecodingC", "GuidedMask", "GuidedSync"],
                          path: "Benchmarks/batch-fill"),
        // What every test target shares: the paths of ../shared and the rule for skipping without it.
        .target(name: "GuidedTestSupport", path: "Tests/GuidedTestSupport"),
        .testTarget(name: "GuidedSchemaTests", dependencies: ["GuidedSchema", "GuidedTestSupport"]),
        .testTarget(name: "GuidedSyncTests", dependencies: ["GuidedSync"]),
        // GuidedMask and GuidedTokenizers: the matcher answers membership for member-set grammars, which
        // the reference recognizer cannot (Tests/GuidedGrammarTests/GrammarMembership.swift).
        .testTarget(name: "GuidedGrammarTests", dependencies: ["GuidedGrammar", "GuidedMask", "GuidedTokenizers", "GuidedTestSupport"]),
        .testTarget(name: "GuidedTokenizersTests", dependencies: ["GuidedTokenizers", "GuidedTestSupport"]),
        .testTarget(name: "GuidedMaskTests", dependencies: ["GuidedMask", "GuidedGrammar", "GuidedTokenizers", "GuidedTestSupport"]),
        // Runs the built executables (found beside the test bundle) and tests the parser in-process.
        .testTarget(name: "CLITests", dependencies: ["GuidedCLI"]),
        .testTarget(name: "GuidedModelsTests", dependencies: ["GuidedModels", "GuidedDecoding", "GuidedTestSupport"], exclude: ["Peers"]),
        // llama.cpp behind GuidedSession, and llama-server as a peer (docs/llama.md); empty without the trait.
        .testTarget(name: "GuidedLlamaTests", dependencies: ["GuidedDecoding", .target(name: "GuidedLlama", condition: llama)],
                    exclude: ["Peers"]),
        // docs/api.md: the page's examples compiled and checked (DocExamplesTests), and small programs
        // that run without ../shared (`swift run example-mask-loop`, `swift run example-local-session`).
        .testTarget(name: "DocExamplesTests", dependencies: ["GuidedDecoding", "GuidedTestSupport"]),
        .executableTarget(name: "example-mask-loop", dependencies: ["GuidedDecoding"], path: "Examples/mask-loop"),
        .executableTarget(name: "example-local-session", dependencies: ["GuidedDecoding"], path: "Examples/local-session"),
    ]
)
