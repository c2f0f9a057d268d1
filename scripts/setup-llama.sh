#!/usr/bin/env bash
# Builds llama.cpp once, from the source vendored in the pinned llama-cpp-python sdist on PyPI, into a cache
# prefix outside the repository: the library GuidedLlama links (`swift build --traits Llama`), the
# `llama-server` the tests start as a peer, and the library the llama-cpp-python peer loads
# (Tests/GuidedModelsTests/Peers/setup_llama_peer.sh), so a fresh machine compiles llama.cpp once.
#
#   scripts/setup-llama.sh          build (first run) or check; progress on stderr
#   scripts/setup-llama.sh --env    the same, then print `export GUIDED_LLAMA_PREFIX=…`,
#                                   `PKG_CONFIG_PATH=…` and `LD_LIBRARY_PATH=…` on stdout (for `eval`)
#   scripts/setup-llama.sh --prefix print the prefix this run would use, build nothing
#
# CPU only, GGML_NATIVE=OFF (AVX2/FMA/F16C, so the build runs on any x86-64-v3 machine, not only the one
# that built it), shared libraries, Release; only the targets `llama` (with its ggml libraries) and
# `llama-server` are compiled (the server needs llama-common and mtmd). Installed into
#   $GUIDED_LLAMA_PREFIX   (default $GUIDED_PEER_CACHE/llama.cpp-<commit, 12 digits>;
#                           GUIDED_PEER_CACHE defaults to /var/cache/guided-decoding)
# as lib/ (the shared libraries), include/ (llama.h and the ggml headers), bin/llama-server (all with
# RPATH $ORIGIN/../lib:$ORIGIN, nothing absolute) and lib/pkgconfig/guided-llama.pc. SwiftPM drops an
# -rpath from a pkg-config file ("prohibited flag"), so what links the library finds it at run time
# through LD_LIBRARY_PATH (printed by --env) or `-Xlinker -rpath -Xlinker PREFIX/lib`. The file
# `.complete` is written last: a run that finds it returns at once. Concurrent runs wait on a lock and
# then find the work done. Any failure exits non-zero with the reason.
#
# Environment: GUIDED_PEER_CACHE, GUIDED_LLAMA_PREFIX, GUIDED_LLAMA_BUILD_JOBS (compile jobs; default all
# cores), PYTHON (for `pip download`; default python3).
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36
# The llama.cpp commit vendored in that sdist, and the sdist's SHA-256 (both checked after download).
LLAMA_CPP_COMMIT=0c1e57098bba43ac29e6e3b677cdceebdd22334f
SDIST_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e

cache="${GUIDED_PEER_CACHE:-/var/cache/guided-decoding}"
prefix="${GUIDED_LLAMA_PREFIX:-$cache/llama.cpp-${LLAMA_CPP_COMMIT:0:12}}"
jobs="${GUIDED_LLAMA_BUILD_JOBS:-$(nproc)}"
python="${PYTHON:-python3}"
marker="$prefix/.complete"
stamp="llama.cpp $LLAMA_CPP_COMMIT from llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (cpu, GGML_NATIVE=OFF, shared)"

mode=build
case "${1:-}" in
    "") ;;
    --env) mode=env ;;
    --prefix) echo "$prefix"; exit 0 ;;
    *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

fail() { echo "setup-llama: $*" >&2; exit 1; }

complete() {
    [ -f "$marker" ] && [ "$(cat "$marker")" = "$stamp" ] \
        && [ -f "$prefix/lib/libllama.so" ] && [ -x "$prefix/bin/llama-server" ] \
        && [ -f "$prefix/include/llama.h" ] && [ -f "$prefix/lib/pkgconfig/guided-llama.pc" ]
}

report() {
    echo "setup-llama: ready ($prefix)" >&2
    if [ "$mode" = env ]; then
        echo "export GUIDED_LLAMA_PREFIX='$prefix'"
        echo "export PKG_CONFIG_PATH='$prefix/lib/pkgconfig'\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
        echo "export LD_LIBRARY_PATH='$prefix/lib'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    fi
}

if complete; then report; exit 0; fi

mkdir -p "$cache" || fail "cannot create the cache directory $cache"
exec 9>"$cache/.llama-build.lock" || fail "cannot open the lock $cache/.llama-build.lock"
flock 9   # one build at a time: a second caller waits here, then finds the marker
if complete; then report; exit 0; fi

command -v cmake >/dev/null || fail "cmake not found (apt-get install cmake; .ci/run installs it)"
command -v c++ >/dev/null || fail "no C++ compiler (apt-get install g++)"
command -v "$python" >/dev/null || fail "$python not found (needed for pip download)"

# The sdist, kept in the cache (76.6 MB). `--no-binary llama-cpp-python` for this package only: with
# `:all:`, pip would also compile cmake and ninja from source to read the sdist's metadata.
sdist_dir="$cache/sdist"
sdist="$sdist_dir/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
if [ ! -f "$sdist" ] || [ "$(sha256sum "$sdist" | cut -d' ' -f1)" != "$SDIST_SHA256" ]; then
    echo "setup-llama: downloading the llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist" >&2
    mkdir -p "$sdist_dir"
    rm -f "$sdist"
    "$python" -m pip download -q --no-deps --no-binary llama-cpp-python \
        "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$sdist_dir" >&2 \
        || fail "pip download of llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION failed"
    [ -f "$sdist" ] || fail "pip download left no $sdist"
    got=$(sha256sum "$sdist" | cut -d' ' -f1)
    [ "$got" = "$SDIST_SHA256" ] || fail "$sdist has SHA-256 $got, expected $SDIST_SHA256"
fi

work=$(mktemp -d "$cache/llama-build.XXXXXX") || fail "cannot create a build directory in $cache"
trap 'rm -rf "$work"' EXIT
top="llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION"
tar -xzf "$sdist" -C "$work" "$top/vendor/llama.cpp" "$top/.git/modules/vendor/llama.cpp/HEAD" \
    || fail "cannot unpack vendor/llama.cpp from $sdist"
src="$work/$top/vendor/llama.cpp"
head=$(cat "$work/$top/.git/modules/vendor/llama.cpp/HEAD")
[ "$head" = "$LLAMA_CPP_COMMIT" ] || fail "the sdist vendors llama.cpp $head, expected $LLAMA_CPP_COMMIT"

log="$cache/llama-build.log"
echo "setup-llama: building llama.cpp ${LLAMA_CPP_COMMIT:0:12} into $prefix ($jobs jobs; log $log)" >&2
start=$(date +%s)
# LLAMA_BUILD_TOOLS is on only because llama-server lives under tools/; the other tools are configured
# but never built (only the two targets below are). No OpenSSL (the server listens on 127.0.0.1), no web
# UI (neither npm nor a download from Hugging Face), no tests, examples or the unified app.
# LLAMA_BUILD_NUMBER/COMMIT: the sdist has no git history for build-info to read. RPATH: exactly
# $ORIGIN/../lib (bin/llama-server in the prefix) and $ORIGIN (the libraries beside each other); the build
# tree is deleted, so no absolute path may stay in them (cmake's own build RPATH also gained an empty
# entry, which the loader reads as the current directory).
if ! {
    cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_SHARED_LIBS=ON -DGGML_NATIVE=OFF -DGGML_BACKEND_DL=OFF \
        -DGGML_CUDA=OFF -DGGML_METAL=OFF -DGGML_VULKAN=OFF -DGGML_RPC=OFF -DGGML_BLAS=OFF \
        -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
        -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
        -DLLAMA_BUILD_NUMBER=0 -DLLAMA_BUILD_COMMIT="${LLAMA_CPP_COMMIT:0:12}" \
        -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON -DCMAKE_INSTALL_RPATH='$ORIGIN/../lib:$ORIGIN' \
        && nice -n 10 cmake --build "$work/build" --target llama llama-server -j "$jobs"
} >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    fail "the llama.cpp build failed (full log: $log)"
fi
echo "setup-llama: built in $(( $(date +%s) - start )) s" >&2

# Install by hand: `cmake --install` would also install the tools that were configured but not built.
stage="$work/stage"
mkdir -p "$stage/lib/pkgconfig" "$stage/include" "$stage/bin"
cp -P "$work/build/bin/"*.so* "$stage/lib/" || fail "no shared libraries in $work/build/bin"
cp "$work/build/bin/llama-server" "$stage/bin/" || fail "no llama-server in $work/build/bin"
cp "$src/include/llama.h" "$src/include/llama-cpp.h" "$src/ggml/include/"*.h "$stage/include/"
cat >"$stage/lib/pkgconfig/guided-llama.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: guided-llama
Description: llama.cpp ${LLAMA_CPP_COMMIT:0:12} (from llama-cpp-python $LLAMA_CPP_PYTHON_VERSION), CPU, for GuidedLlama
Version: 0.0.0-${LLAMA_CPP_COMMIT:0:12}
Libs: -L\${libdir} -lllama -lggml -lggml-base
Cflags: -I\${includedir}
EOF
"$stage/bin/llama-server" --version >/dev/null 2>&1 || fail "the built llama-server does not run"

rm -rf "$prefix"
mkdir -p "$(dirname "$prefix")"
mv "$stage" "$prefix" || fail "cannot move the build into $prefix"
echo "$stamp" >"$marker"
complete || fail "installed into $prefix but the result is incomplete"
report
