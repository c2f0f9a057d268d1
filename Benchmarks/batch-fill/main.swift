// Batch mask fill on threads, through the C ABI (`gd_matcher_fill_bitmask_batch`), without Python in the
// process: 64 matchers filled into one [64, words] bitmask on 1 thread and on N threads.
//
//   --cold   (default) every timed batch is the first visit of 64 states: 64 grammars compiled afresh, all
//            different (each schema gains a required member of its own name, so no compile-cache entry or
//            automaton is shared), one matcher in each, walked a few random tokens in. A batch of new requests.
//   --warm   64 matchers over the three grammars, walked to random positions, every state's mask visited
//            once before timing: the steady state of a server step.
//   --mixed  63 matchers at visited states (as --warm) and one new request: a grammar compiled afresh, its
//            matcher walked a few random tokens in, so its row is a first visit. The step of a server when
//            a request joins the batch.
//   --private-grammars   with --warm: each matcher over a grammar of its own (the same three schemas,
//            compiled apart), so no two rows share a compiled grammar, its mask cache or its entries:
//            against the default, what rows sharing them cost each other on threads.
//   --pause-us N   with --warm: sleep N µs before each timed batch, as a server does between steps (the
//            GPU's forward pass), so the pool's workers have gone to sleep and must be woken.
//   --pool-floor   the pool alone, on the same rows: an empty body, and a body that copies a 19 KB row from
//            one of 24 source masks (what a visited state's fill does at least). What a machine allows a
//            batch of this size before any engine work.
//   --patience-us N   the pool takes another participant's index only once that one's current index has
//            run N µs, or it has not started (`ForkJoinPool.patienceNanoseconds`; default: at once).
//            `--row-times` counts the rows filled outside their owner's range.
// First visits are measured interleaved (round r times every count on its own fresh batch), so drift in
// the machine's state touches every column alike; visited states in blocks of one thread count. Prints µs per batch (median, p90) and the speed-up.
//
//   swift run -c release guided-batch-bench --tokenizer ../shared/vocab/qwen2.tokenizer.json --threads 2 4 8
import Foundation
import GuidedDecodingC
import GuidedMask
import GuidedSync

var tokenizerPath = "../shared/vocab/qwen2.tokenizer.json"
var threadCounts = [ProcessInfo.processInfo.activeProcessorCount]
var rounds = 20
var batch = 64
var cold = true
var rowTimes = false
var pauseMicroseconds = 0
var poolFloor = false
var mixed = false
var privateGrammars = false
var args = Array(CommandLine.arguments.dropFirst())
var k = 0
func printUsage() -> Never {
    print("usage: guided-batch-bench [--tokenizer PATH] [--threads N...] [--rounds N] [--batch N] [--cold | --warm | --mixed] [--row-times] [--pause-us N] [--pool-floor] [--private-grammars] [--patience-us N]")
    exit(2)
}
while k < args.count {
    switch args[k] {
    case "--tokenizer": k += 1; guard k < args.count else { printUsage() }; tokenizerPath = args[k]
    case "--rounds": k += 1; guard k < args.count, let n = Int(args[k]) else { printUsage() }; rounds = n
    case "--batch": k += 1; guard k < args.count, let n = Int(args[k]) else { printUsage() }; batch = n
    case "--cold": cold = true
    case "--warm": cold = false
    case "--mixed": cold = false; mixed = true
    case "--row-times": rowTimes = true
    case "--private-grammars": privateGrammars = true
    case "--pool-floor": poolFloor = true
    case "--patience-us": k += 1; guard k < args.count, let n = Double(args[k]) else { printUsage() }
        ForkJoinPool.shared.patienceNanoseconds = UInt64(n * 1000)
    case "--pause-us": k += 1; guard k < args.count, let n = Int(args[k]) else { printUsage() }; pauseMicroseconds = n
    case "--threads":
        threadCounts = []
        while k + 1 < args.count, let n = Int(args[k + 1]) { threadCounts.append(n); k += 1 }
        if threadCounts.isEmpty { printUsage() }
    default: printUsage()
    }
    k += 1
}
threadCounts = Array(Set([1] + threadCounts)).sorted()

func check(_ status: Int32, _ what: String) {
    if status != 0 { print("\(what): status \(status): \(String(cString: gd_last_error_message()))"); exit(1) }
}

// The schemas of python/benchmarks/_common.py: a small record, a nested list of objects, a tool call.
let schemas: [[String: Any]] = [
    ["type": "object", "properties": ["name": ["type": "string"], "age": ["type": "integer", "minimum": 0],
                                      "email": ["type": "string", "format": "email"]],
     "required": ["name", "age"]],
    ["type": "object", "properties": ["items": ["type": "array", "items": [
        "type": "object", "properties": ["sku": ["type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"],
                                         "qty": ["type": "integer"], "price": ["type": "number"]],
        "required": ["sku", "qty"]] as [String: Any]] as [String: Any], "total": ["type": "number"]], "required": ["items"]],
    ["type": "object", "properties": ["tool": ["enum": ["search", "calculator", "weather"]],
                                      "arguments": ["type": "object", "properties": [
                                          "query": ["type": "string"], "units": ["enum": ["metric", "imperial"]]]] as [String: Any]],
     "required": ["tool", "arguments"]],
]

var vocab: OpaquePointer? = nil
check(gd_vocab_new_from_file(tokenizerPath, #"{"vocab_size": 151936}"#, &vocab), "vocabulary")
var compiler: OpaquePointer? = nil
check(gd_compiler_new(vocab, 0, &compiler), "compiler")
var words = 0
check(gd_vocab_info(vocab, nil, nil, &words), "mask words")
var eos = Set<Int>()
do {
    var n = 0
    var ids = [Int32](repeating: 0, count: 64)
    check(gd_vocab_eos_ids(vocab, &ids, ids.count, &n), "eos ids")
    ids = Array(ids.prefix(n))
    eos = Set(ids.map(Int.init))
}

@MainActor func compile(_ schema: [String: Any]) -> OpaquePointer {
    let text = String(decoding: try! JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
    var grammar: OpaquePointer? = nil
    check(text.withCString { gd_compile(compiler, 1, $0, strlen($0), #"{"whitespace":"compact"}"#, 0, &grammar) }, "compile")
    return grammar!
}

var one = [Int32](repeating: 0, count: words)
/// A random walk of up to `most` allowed tokens, never end of sequence (SplitMix64: every run walks the
/// same tokens). Fills the masks of the states it
/// passes, not of the one it stops in.
@MainActor func walk(_ m: OpaquePointer, _ rng: inout SplitMix64Generator, most: Int) {
    for _ in 0..<Int.random(in: 0..<most, using: &rng) {
        check(gd_matcher_fill_bitmask(m, &one, words), "fill")
        var allowed: [Int32] = []
        for w in 0..<words where one[w] != 0 {
            var bits = UInt32(bitPattern: one[w])
            while bits != 0 {
                let t = w * 32 + bits.trailingZeroBitCount
                if !eos.contains(t) { allowed.append(Int32(t)) }
                bits &= bits - 1
            }
        }
        guard let t = allowed.randomElement(using: &rng) else { return }
        var token = t, n = 0
        check(gd_matcher_accept_tokens(m, &token, 1, &n), "accept")
    }
}

struct Batch {
    var grammars: [OpaquePointer]
    var matchers: [OpaquePointer?]
    func free() {
        for m in matchers { _ = gd_matcher_free(m) }
        for g in grammars { _ = gd_grammar_free(g) }
    }
}

@MainActor func coldBatch(tag: String, count: Int = batch, firstSchema: Int = 0) -> Batch {
    var rng = SplitMix64Generator(seed: tag.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 })
    var grammars: [OpaquePointer] = [], matchers: [OpaquePointer?] = []
    for i in 0..<count {
        var s = schemas[(i + firstSchema) % schemas.count]
        var properties = s["properties"] as! [String: Any]
        properties["\(tag)_\(i)"] = ["type": "string"]
        s["properties"] = properties
        s["required"] = (s["required"] as? [String] ?? []) + ["\(tag)_\(i)"]
        let g = compile(s)
        var m: OpaquePointer? = nil
        check(gd_matcher_new(g, 0, &m), "matcher")
        walk(m!, &rng, most: 12)
        grammars.append(g)
        matchers.append(m)
    }
    return Batch(grammars: grammars, matchers: matchers)
}

@MainActor func warmBatch() -> Batch {
    var rng = SplitMix64Generator(seed: 7)
    let grammars = privateGrammars
        ? (0..<batch).map { i in var s = schemas[i % schemas.count]; s["$comment"] = "warm \(i)"; return compile(s) }
        : schemas.map { var s = $0; s["$comment"] = "warm"; return compile(s) }
    var matchers: [OpaquePointer?] = []
    for i in 0..<batch {
        var m: OpaquePointer? = nil
        check(gd_matcher_new(grammars[i % grammars.count], 0, &m), "matcher")
        walk(m!, &rng, most: 40)
        matchers.append(m)
    }
    return Batch(grammars: grammars, matchers: matchers)
}

var bitmask = [Int32](repeating: 0, count: batch * words)
/// Process CPU time (all threads, user + system) in µs and minor page faults so far.
func usage() -> (cpu: Double, faults: Int) {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    let cpu = Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec)
    return (cpu, u.ru_minflt)
}
var cpuTimes: [Int: [Double]] = [:]
var faultCounts: [Int: [Double]] = [:]
func microseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
}
@MainActor func fill(_ b: Batch, threads: Int) -> Double {
    let before = usage()
    let wall = microseconds {
        check(gd_matcher_fill_bitmask_batch(b.matchers, batch, &bitmask, batch, words, nil, threads, nil), "batch fill")
    }
    let after = usage()
    cpuTimes[threads, default: []].append(after.cpu - before.cpu)
    faultCounts[threads, default: []].append(Double(after.faults - before.faults))
    return wall
}

var times: [Int: [Double]] = [:]
var rows: [Double] = []
/// Rows of batches filled on `threadCounts.last` threads, each row timed where it ran: wall and thread CPU
/// time (µs). Against `rows` (the same kind of rows filled alone): longer in parallel with as much CPU
/// means contention for the caches or memory; longer in wall time only, waiting (a lock, the kernel).
var parallelWall: [Double] = [], parallelCPU: [Double] = [], parallelSpan: [Double] = []

final class RowClock: @unchecked Sendable {
    // @unchecked: row i's slots are written by the one thread the pool gave index i.
    var wall: [Double], cpu: [Double], participant: [Int]
    init(_ n: Int) { wall = Array(repeating: 0, count: n); cpu = Array(repeating: 0, count: n); participant = Array(repeating: 0, count: n) }
}
/// Rows filled by a participant other than the one whose range holds them (the pool's ranges are
/// `p * n / P ..< (p + 1) * n / P`), and the wall times of the rows each way.
var stolenRows = 0, ownWall: [Double] = [], stolenWall: [Double] = []
func threadCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
}
@MainActor func parallelRows(_ b: Batch, threads: Int, free: Bool = true) {
    let clock = RowClock(batch)
    let handles = b.matchers.map { UInt(bitPattern: $0) }, w = words
    // Touched before the clock starts: a fresh allocation of this size is fresh pages, and their first
    // writes (page faults) would be counted in the rows' times.
    let buffers = UnsafeMutablePointer<Int32>.allocate(capacity: batch * w)
    buffers.initialize(repeating: 0, count: batch * w)
    let out = UInt(bitPattern: buffers)
    let span = microseconds {
        ForkJoinPool.shared.run(iterations: batch, threads: threads) { i, p in
            let c0 = threadCPU(), t0 = DispatchTime.now().uptimeNanoseconds
            _ = gd_matcher_fill_bitmask(OpaquePointer(bitPattern: handles[i]), UnsafeMutablePointer<Int32>(bitPattern: out)! + i * w, w)
            clock.wall[i] = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000
            clock.cpu[i] = threadCPU() - c0
            clock.participant[i] = p
        }
    }
    let participants = min(threads, batch)
    for i in 0..<batch {
        let owner = (0..<participants).last { $0 * batch / participants <= i }!
        if clock.participant[i] == owner { ownWall.append(clock.wall[i]) } else { stolenRows += 1; stolenWall.append(clock.wall[i]) }
    }
    buffers.deallocate()
    parallelWall += clock.wall
    parallelCPU += clock.cpu
    parallelSpan.append(span)
    if free { b.free() }
}
if poolFloor {
    let sources = (0..<24).map { s in (0..<words).map { w in Int32(truncatingIfNeeded: (s &* 7919 &+ w) &* 2_654_435_761) } }
    let from = UnsafeMutablePointer<Int32>.allocate(capacity: sources.count * words)
    for (s, source) in sources.enumerated() { (from + s * words).update(from: source, count: words) }
    let out = UInt(bitPattern: UnsafeMutablePointer<Int32>.allocate(capacity: batch * words)), src = UInt(bitPattern: from)
    let w = words, n = sources.count
    print("the pool alone, \(batch) iterations, \(rounds) rounds (median µs per loop, speed-up)")
    print("threads  empty  copy_19KB  copy_speedup")
    var copyBase = 0.0
    for t in threadCounts {
        var empty: [Double] = [], copy: [Double] = []
        for _ in 0..<rounds {
            empty.append(microseconds { ForkJoinPool.shared.run(iterations: batch, threads: t) { _ in } })
            copy.append(microseconds {
                ForkJoinPool.shared.run(iterations: batch, threads: t) { i in
                    (UnsafeMutablePointer<Int32>(bitPattern: out)! + i * w).update(from: UnsafePointer<Int32>(bitPattern: src)! + (i % n) * w, count: w)
                }
            })
        }
        let e = empty.sorted()[rounds / 2], c = copy.sorted()[rounds / 2]
        if t == 1 { copyBase = c }
        print(String(format: "%7d  %5.2f  %9.1f  %11.2fx", t, e, c, copyBase / c))
    }
    exit(0)
}
if mixed {
    let b = warmBatch()
    _ = fill(b, threads: 1)
    // Interleaved: round r times every count on its own new request, beside the same visited rows.
    for r in 0..<rounds {
        for t in threadCounts {
            let fresh = coldBatch(tag: "m\(t)r\(r)", count: 1, firstSchema: r)
            let rows = Batch(grammars: [], matchers: [fresh.matchers[0]] + b.matchers.dropFirst())
            times[t, default: []].append(fill(rows, threads: t))
            fresh.free()
        }
    }
    b.free()
} else if cold {
    for r in 0..<rounds {
        for t in threadCounts {
            let b = coldBatch(tag: "t\(t)r\(r)")
            times[t, default: []].append(fill(b, threads: t))
            b.free()
        }
        if rowTimes {
            let b = coldBatch(tag: "rows\(r)")
            for m in b.matchers { rows.append(microseconds { check(gd_matcher_fill_bitmask(m, &one, words), "fill") }) }
            b.free()
            parallelRows(coldBatch(tag: "prows\(r)"), threads: threadCounts.last!)
        }
    }
} else {
    let b = warmBatch()
    _ = fill(b, threads: 1)
    // In blocks, one thread count after another: interleaved, the 1-thread batch would run beside the
    // workers of the batch before it, still spinning (`ForkJoinPool.spinNanoseconds`).
    for t in threadCounts {
        usleep(2_000)
        for _ in 0..<rounds {
            if pauseMicroseconds > 0 { usleep(UInt32(pauseMicroseconds)) }
            times[t, default: []].append(fill(b, threads: t))
        }
    }
    if rowTimes {
        for _ in 0..<rounds {
            for m in b.matchers { rows.append(microseconds { check(gd_matcher_fill_bitmask(m, &one, words), "fill") }) }
            parallelRows(b, threads: threadCounts.last!, free: false)
        }
    }
    b.free()
}

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
func p90(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[min(s.count - 1, Int(0.9 * Double(s.count)))] }
print("batch fill of \(batch) matchers (\(mixed ? "one new request among visited states" : cold ? "first visits" : "visited states")), vocabulary 151936, "
      + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs, \(rounds) rounds")
// cpu_us: the process's CPU time during the call (every thread; getrusage, coarse on some kernels): above
// the 1-thread figure, the threads did more work than one would (contention, cache misses, spinning).
print("threads  median_us  p90_us  p99_us  max_us  speedup  cpu_us  page_faults")
let base = median(times[1]!)
func p99(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[min(s.count - 1, Int(0.99 * Double(s.count)))] }
for t in threadCounts {
    print(String(format: "%7d  %9.1f  %6.1f  %6.1f  %6.1f  %6.2fx  %6.0f  %6.0f", t, median(times[t]!), p90(times[t]!), p99(times[t]!),
                 times[t]!.max()!, base / median(times[t]!), median(cpuTimes[t]!), median(faultCounts[t]!)))
}
if rowTimes, !rows.isEmpty {
    let sorted = rows.sorted()
    print(String(format: "rows alone: %d rows, median %.1f us, p90 %.1f, p99 %.1f, slowest %.1f; sum per batch %.1f us",
                 rows.count, median(rows), sorted[Int(0.9 * Double(rows.count))], sorted[Int(0.99 * Double(rows.count))],
                 sorted.last!, rows.reduce(0, +) / Double(rounds)))
    // A batch on N threads takes at least its slowest row: its share of the batch's serial work bounds the
    // speed-up (1 / share).
    let shares = (0..<rounds).map { r in let b = rows[r * batch..<(r + 1) * batch]; return b.max()! / b.reduce(0, +) }
    print(String(format: "slowest row's share of its batch's work: median %.3f, max %.3f", median(shares), shares.max()!))
    print(String(format: "rows on %d threads (ForkJoinPool, one fill call per row): wall median %.1f us, sum per batch %.1f; "
                 + "thread CPU sum per batch %.1f; batch span median %.1f us",
                 threadCounts.last!, median(parallelWall), parallelWall.reduce(0, +) / Double(rounds),
                 parallelCPU.reduce(0, +) / Double(rounds), median(parallelSpan)))
    print(String(format: "rows taken from another participant's range: %.1f per batch; wall median %.2f us own, %.2f us taken",
                 Double(stolenRows) / Double(rounds), ownWall.isEmpty ? 0 : median(ownWall), stolenWall.isEmpty ? 0 : median(stolenWall)))
}
