#!/usr/bin/env bash
# Runs the project's fuzz targets (Sources/guided-fuzz) under libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh --list               names the targets
#   scripts/fuzz.sh TARGET SECONDS       fuzzes one target for SECONDS
#   scripts/fuzz.sh --all SECONDS        fuzzes every target, SECONDS each
#   scripts/fuzz.sh --replay             replays Fuzz/regressions and Fuzz/seeds through every target
#                                        (a plain debug build, no sanitizer: fast, for CI and tests)
#   scripts/fuzz.sh --ci [TARGET...]     every target (or those named) for a fixed number of inputs
#                                        (about 20 s each), seed 1, deterministic hashing, a fresh corpus:
#                                        the same exploration on every run, so CI fails on a regression,
#                                        not on luck
#
# The instrumented build lives in .build-fuzz (release, ASan, coverage); corpora grow in
# .build-fuzz/corpus/TARGET, seeded from Fuzz/seeds, Fuzz/regressions and, when ../shared is present,
# the shared corpora. A crash or finding stops the run with exit 1 and leaves its input in
# .build-fuzz/crashes/TARGET. Each run appends one line to .build-fuzz/runs.tsv (target, seconds,
# executions, coverage, corpus size, result) for docs/reliability.md. GUIDED_FUZZ_SEED fixes libFuzzer's
# seed; GUIDED_FUZZ_RUNS stops a run after that many inputs (whichever of time and runs comes first);
# GUIDED_FUZZ_BINARY runs an instrumented binary built earlier instead of building one.
# GUIDED_FUZZ_ASAN=0 builds with coverage and no AddressSanitizer (in .build-fuzz-cov): 10-30 times the
# inputs a second on the compile targets, Swift's own checks (bounds, overflow, unwraps) still trap;
# long campaigns use it, CI and short runs keep ASan.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-fuzz
clang_lib=$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/clang
fuzzer_lib=$(ls "$clang_lib"/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1 || true)

build_fuzzer() {
    # A binary built earlier (copied aside for a long campaign while the tree changes).
    if [ -n "${GUIDED_FUZZ_BINARY:-}" ]; then echo "$GUIDED_FUZZ_BINARY"; return; fi
    [ -n "$fuzzer_lib" ] || { echo "fuzz: libclang_rt.fuzzer_no_main not found under $clang_lib" >&2; exit 1; }
    if [ "${GUIDED_FUZZ_ASAN:-1}" = 0 ]; then
        # The driver refuses -sanitize-coverage without a sanitizer, and -sanitize=fuzzer would link a
        # second libFuzzer with its own main; the frontend takes both flags for instrumentation alone.
        swift build -c release --scratch-path .build-fuzz-cov --product guided-fuzz \
            -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer \
            -Xswiftc -Xfrontend -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
            -Xcc -fsanitize=fuzzer-no-link \
            -Xlinker --whole-archive -Xlinker "$fuzzer_lib" -Xlinker --no-whole-archive -Xlinker -lstdc++ >&2 \
            || { echo "fuzz: the instrumented build failed" >&2; return 1; }
        echo ".build-fuzz-cov/release/guided-fuzz"
        return
    fi
    # Coverage and ASan on the Swift code; libFuzzer's driver without its main (SwiftPM owns main).
    swift build -c release --scratch-path "$scratch" --product guided-fuzz \
        -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
        -Xcc -fsanitize=fuzzer-no-link,address \
        -Xlinker --whole-archive -Xlinker "$fuzzer_lib" -Xlinker --no-whole-archive -Xlinker -lstdc++ >&2 \
        || { echo "fuzz: the instrumented build failed" >&2; return 1; }
    # (A command substitution does not inherit `set -e`: without the return above, a failed build went
    # on to fuzz the binary of the build before it.)
    echo "$scratch/release/guided-fuzz"
}

seed_corpus() {   # target dir
    local target=$1 dir=$2
    mkdir -p "$dir"
    for src in Fuzz/seeds/"$target" Fuzz/regressions/"$target"; do
        [ -d "$src" ] && cp -n "$src"/* "$dir"/ 2>/dev/null || true
    done
    local shared=../shared/corpora
    [ -d "$shared" ] || return 0
    case $target in
        schema|validator)
            # Schemas of the shared corpus (the schema target's first byte picks the member order).
            python3 - "$shared/maskbench-dev" "$dir" "$target" <<'PY'
import json, os, sys
src, dst, target = sys.argv[1:]
for name in sorted(os.listdir(src))[::17]:
    doc = json.load(open(os.path.join(src, name)))
    text = json.dumps(doc["schema"], separators=(",", ":")).encode()
    if len(text) > 2000: continue
    if target == "schema":
        data = b"\x00" + text
    else:
        tests = doc.get("tests") or [{}]
        data = text + b"\x00" + json.dumps(tests[0].get("data")).encode()
    open(os.path.join(dst, "mb-" + name), "wb").write(data)
PY
            ;;
        json|partial-json|stream-monitor)
            head -n 300 "$shared/json-instances.jsonl" | split -l 1 - "$dir/inst-" ;;
        gbnf|ebnf|export)
            cp -n Grammars/*.gbnf "$dir"/ ;;
        lark)
            cp -n Corpora/grammars/llguidance/*.lark "$dir"/ ;;
    esac
}

dict_for() {
    case $1 in
        json|partial-json|stream-monitor|sse) echo Fuzz/dicts/json.dict ;;
        schema|validator) echo Fuzz/dicts/schema.dict ;;
        gbnf|matcher|ebnf|export) echo Fuzz/dicts/gbnf.dict ;;
        structural-tag) echo Fuzz/dicts/structural-tag.dict ;;
        lark) echo Fuzz/dicts/lark.dict ;;
        gguf) echo Fuzz/dicts/gguf.dict ;;
        *) echo "" ;;
    esac
}

# Inputs per target for --ci: about 20 s each on the 2-core CI machine under ASan (rates of the CI run
# of 2026-12-01), so the whole pass stays near 5 minutes. (schema-deadline stays time-dependent: its
# inputs run against a 10 ms deadline.)
ci_runs() {
    case $1 in
        json|partial-json) echo 400000 ;;
        tiktoken|tokenizer-json|sentencepiece|gguf|sse) echo 120000 ;;
        validator|gbnf|matcher) echo 30000 ;;
        schema) echo 20000 ;;
        regex|schema-deadline) echo 10000 ;;
        stream-monitor) echo 6000 ;;
        *) echo 10000 ;;
    esac
}

fuzz_one() {   # binary target seconds [corpus]
    local bin=$1 target=$2 seconds=$3
    local corpus=${4:-$scratch/corpus/$target} crashes=$scratch/crashes/$target log=$scratch/logs/$target.log
    mkdir -p "$crashes" "$(dirname "$log")"
    seed_corpus "$target" "$corpus"
    local dict; dict=$(dict_for "$target")
    local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                -artifact_prefix="$crashes/")
    [ -n "$dict" ] && args+=(-dict="$dict")
    # A fixed seed (CI sets one) makes a run explore the same inputs in the same order.
    [ -n "${GUIDED_FUZZ_SEED:-}" ] && args+=(-seed="$GUIDED_FUZZ_SEED")
    [ -n "${GUIDED_FUZZ_RUNS:-}" ] && args+=(-runs="$GUIDED_FUZZ_RUNS")
    # Deterministic mode (--ci): no periodic corpus reload, no address randomisation (compare traces
    # feed pointer values into the mutations), Swift's hashing unseeded.
    local prefix=()
    if [ -n "${GUIDED_FUZZ_DETERMINISTIC:-}" ]; then
        args+=(-reload=0)
        setarch -R true 2>/dev/null && prefix=(setarch -R)
    fi
    echo "fuzz: $target for ${seconds}s (corpus $corpus)"
    set +e
    ASAN_OPTIONS=detect_leaks=0 ${prefix[@]+"${prefix[@]}"} "$bin" "$target" "${args[@]}" "$corpus" >"$log" 2>&1
    local status=$?
    set -e
    local execs cov units
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || echo 0)
    units=$(ls "$corpus" | wc -l)
    local result=ok
    [ $status -eq 0 ] || result="crash(status $status)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$(git rev-parse --short HEAD)" "$target" \
        "$seconds" "$execs" "$cov" "$units" "$result" >> "$scratch/runs.tsv"
    echo "fuzz: $target: $execs executions, coverage $cov, corpus $units, $result"
    if [ $status -ne 0 ]; then
        tail -n 40 "$log" >&2
        return 1
    fi
}

replay() {
    swift build --product guided-fuzz >&2
    local bin; bin=$(swift build --show-bin-path)/guided-fuzz
    local failed=0
    for target in $("$bin" --list | awk '{print $1}'); do
        local inputs=()
        for d in Fuzz/seeds/"$target" Fuzz/regressions/"$target"; do [ -d "$d" ] && inputs+=("$d"); done
        [ ${#inputs[@]} -gt 0 ] || continue
        # Every input here takes milliseconds; a minute means a regression (F2 took 99 s and 15 GB).
        timeout 120 "$bin" "$target" "${inputs[@]}" || { echo "fuzz: replay of $target failed or took over 120 s" >&2; failed=1; }
    done
    return $failed
}

case ${1:-} in
    --list)
        swift build --product guided-fuzz >&2
        "$(swift build --show-bin-path)/guided-fuzz" --list ;;
    --replay)
        replay ;;
    --all)
        seconds=${2:?usage: scripts/fuzz.sh --all SECONDS}
        bin=$(build_fuzzer)
        status=0
        for target in $("$bin" --list | awk '{print $1}'); do fuzz_one "$bin" "$target" "$seconds" || status=1; done
        exit $status ;;
    --ci)
        shift
        bin=$(build_fuzzer)
        status=0
        targets=("$@")
        [ ${#targets[@]} -gt 0 ] || read -r -a targets <<<"$("$bin" --list | awk '{print $1}' | tr '\n' ' ')"
        for target in "${targets[@]}"; do
            "$bin" --list | awk '{print $1}' | grep -qx "$target" || { echo "fuzz: unknown target '$target'" >&2; exit 2; }
            fresh=$scratch/ci-corpus/$target
            rm -rf "$fresh"
            GUIDED_FUZZ_SEED=1 GUIDED_FUZZ_RUNS=$(ci_runs "$target") SWIFT_DETERMINISTIC_HASHING=1 \
                GUIDED_FUZZ_DETERMINISTIC=1 GUIDED_FUZZ_SCRATCH="$PWD/$scratch/ci-files" \
                fuzz_one "$bin" "$target" 300 "$fresh" || status=1
        done
        exit $status ;;
    ""|-h|--help)
        sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' ;;
    *)
        target=$1 seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
        bin=$(build_fuzzer)
        "$bin" --list | awk '{print $1}' | grep -qx "$target" || { echo "fuzz: unknown target '$target'" >&2; exit 2; }
        fuzz_one "$bin" "$target" "$seconds" ;;
esac
