// swift-tools-version: 6.0
// GuidedDecoding: constrained decoding for Swift. Layers depend one way only:
// GuidedSchema -> GuidedGrammar -> GuidedMask <- GuidedTokenizers; GuidedModels on top.
import PackageDescription

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
        .executable(name: "schema-check", targets: ["schema-check"]),
        .executable(name: "guided-conformance", targets: ["guided-conformance"]),
        .executable(name: "guided-fuzz", targets: ["guided-fuzz"]),
        // The C ABI (include/guided_decoding.h); scripts/build-c-abi.sh links the self-contained .so.
        .library(name: "GuidedDecodingC", type: .dynamic, targets: ["GuidedDecodingC"]),
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
        .target(name: "GuidedSync"),
        // Relaxed atomic loads/stores on raw memory (the lazily built automaton's tables; inline C).
        .target(name: "CGuidedAtomics"),
        .target(name: "GuidedSchema", dependencies: ["PCRE2Kit"]),
        .target(name: "GuidedGrammar", dependencies: ["GuidedSchema"]),
        .target(name: "GuidedTokenizers", dependencies: ["PCRE2Kit"]),
        .target(name: "GuidedMask", dependencies: ["GuidedGrammar", "GuidedTokenizers", "GuidedSync", "CGuidedAtomics"]),
        .target(name: "GuidedModels", dependencies: ["GuidedSchema", "GuidedGrammar", "GuidedTokenizers", "GuidedMask", "GuidedSync"]),
        .target(name: "GuidedDecoding", dependencies: ["GuidedSchema", "GuidedGrammar", "GuidedTokenizers", "GuidedMask", "GuidedModels"]),
        // The command-line tools' option parser, help and error wording; no library target depends on it.
        .target(name: "GuidedCLI"),
        .executableTarget(name: "schema-check", dependencies: ["GuidedDecoding", "GuidedCLI"]),
        .executableTarget(name: "guided-conformance", dependencies: ["GuidedDecoding", "GuidedCLI"]),
        // The fuzz targets (scripts/fuzz.sh); the C bridge reaches libFuzzer's driver when it is linked.
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "guided-fuzz", dependencies: ["GuidedDecoding", "CFuzzDriver"]),
        // The C ABI over the mask engine, for Python and other languages (docs/python.md).
        .target(name: "GuidedDecodingC", dependencies: ["GuidedMask", "GuidedGrammar", "GuidedTokenizers", "GuidedSchema", "GuidedSync"],
                exclude: ["include"]),
        // What the C ABI adds to a mask fill (docs/performance.md): `swift run -c release guided-cabi-bench`.
        .executableTarget(name: "guided-cabi-bench", dependencies: ["GuidedDecodingC", "GuidedMask", "GuidedGrammar", "GuidedTokenizers"],
                          path: "Benchmarks/cabi-bench"),
        .testTarget(name: "GuidedSchemaTests", dependencies: ["GuidedSchema"]),
        .testTarget(name: "GuidedGrammarTests", dependencies: ["GuidedGrammar"]),
        .testTarget(name: "GuidedTokenizersTests", dependencies: ["GuidedTokenizers"]),
        .testTarget(name: "GuidedMaskTests", dependencies: ["GuidedMask", "GuidedGrammar", "GuidedTokenizers"]),
        // Runs the built executables (found beside the test bundle) and tests the parser in-process.
        .testTarget(name: "CLITests", dependencies: ["GuidedCLI"]),
        .testTarget(name: "GuidedModelsTests", dependencies: ["GuidedModels", "GuidedDecoding"], exclude: ["Peers"]),
        // docs/api.md: the page's examples compiled and checked (DocExamplesTests), and small programs
        // that run without ../shared (`swift run example-mask-loop`, `swift run example-local-session`).
        .testTarget(name: "DocExamplesTests", dependencies: ["GuidedDecoding"]),
        .executableTarget(name: "example-mask-loop", dependencies: ["GuidedDecoding"], path: "Examples/mask-loop"),
        .executableTarget(name: "example-local-session", dependencies: ["GuidedDecoding"], path: "Examples/local-session"),
    ]
)
