import CFuzzDriver
import Foundation

// guided-fuzz: the project's fuzz targets. Built by scripts/fuzz.sh with libFuzzer and AddressSanitizer
// it fuzzes; built plainly (`swift build`) it replays files through a target, so CI and a developer can
// rerun a seed corpus or a crash input without sanitizers.

let usage = """
    usage: guided-fuzz --list
           guided-fuzz TARGET [libFuzzer flags] [CORPUS_DIR...]   (a build with libFuzzer: fuzz)
           guided-fuzz TARGET FILE_OR_DIR...                      (a plain build: replay inputs)
           guided-fuzz --time TARGET FILE...                      (each input's time and peak memory)

    Runs one fuzz target. scripts/fuzz.sh builds this with libFuzzer and runs it; see docs/reliability.md.
    Exit status: 0 no crash; 1 a crash or finding (libFuzzer writes the input); 2 usage error.
    """

/// The target a libFuzzer callback runs: set once, before the driver starts.
nonisolated(unsafe) var selected: FuzzTarget? = nil

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
switch arguments[1] {
case "--list":
    for t in FuzzTarget.all { print(t.name.padding(toLength: 16, withPad: " ", startingAt: 0) + t.summary) }
    exit(0)
case "--help", "-h":
    print(usage)
    print("\ntargets:")
    for t in FuzzTarget.all { print("  " + t.name.padding(toLength: 16, withPad: " ", startingAt: 0) + t.summary) }
    exit(0)
case "--time":
    guard arguments.count >= 4, let target = FuzzTarget.named(arguments[2]) else {
        FileHandle.standardError.write(Data("guided-fuzz: usage: guided-fuzz --time TARGET FILE...\n".utf8))
        exit(2)
    }
    FuzzTiming.run(target, files: Array(arguments.dropFirst(3)))
    exit(0)
default:
    break
}
guard let target = FuzzTarget.named(arguments[1]) else {
    FileHandle.standardError.write(Data("guided-fuzz: unknown target '\(arguments[1])' (guided-fuzz --list names them)\n".utf8))
    exit(2)
}
selected = target

if guided_fuzz_has_driver() != 0 {
    // libFuzzer sees argv[0] and what follows the target name; max_len defaults to the target's.
    var driverArguments = [arguments[0]] + arguments.dropFirst(2)
    if !driverArguments.contains(where: { $0.hasPrefix("-max_len=") }) { driverArguments.append("-max_len=\(target.maxLength)") }
    var cStrings = driverArguments.map { strdup($0) }
    cStrings.append(nil)
    let status = guided_fuzz_run_driver(Int32(driverArguments.count), &cStrings, { data, size in
        let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        selected!.run(bytes.count > selected!.maxLength ? Array(bytes.prefix(selected!.maxLength)) : bytes)
        return 0
    })
    exit(status)
}

// Replay: every file named, and every file in every folder named.
var files: [String] = []
for path in arguments.dropFirst(2) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("guided-fuzz: cannot read \(path): no such file or folder\n".utf8))
        exit(2)
    }
    if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        files += names.sorted().map { path + "/" + $0 }
    } else {
        files.append(path)
    }
}
for file in files {
    guard let data = FileManager.default.contents(atPath: file) else { continue }
    let bytes = [UInt8](data)
    target.run(bytes.count > target.maxLength ? Array(bytes.prefix(target.maxLength)) : bytes)
}
print("guided-fuzz \(target.name): replayed \(files.count) inputs, no crash")
