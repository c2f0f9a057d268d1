#!/usr/bin/env bash
# Installs the real llama-cpp-python peer of the test suite into a venv kept outside the repository.
#
# llama-cpp-python is published as an sdist only: installing it compiles llama.cpp (about 20 min on 2 cores,
# longer with one). The wheel is built once into $GUIDED_PEER_CACHE/wheels (with the wheels of the server
# extras and of `gguf`) and reused from then on; the venv is $GUIDED_PEER_CACHE/venv. A second run that
# finds the venv complete returns at once. Any failure exits non-zero with the reason (never a silent skip).
#
# Environment: GUIDED_PEER_CACHE (default /var/cache/guided-decoding), GUIDED_PEER_BUILD_JOBS (compile jobs
# for a first build; default: all cores), PYTHON (default python3).
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36
GGUF_VERSION=0.19.0
cache="${GUIDED_PEER_CACHE:-/var/cache/guided-decoding}"
wheels="$cache/wheels"
venv="$cache/venv"
python="${PYTHON:-python3}"
jobs="${GUIDED_PEER_BUILD_JOBS:-$(nproc)}"

check() {
    "$venv/bin/python" - "$LLAMA_CPP_PYTHON_VERSION" <<'EOF' 2>/dev/null
import sys
import gguf, uvicorn, fastapi, sse_starlette, starlette_context, pydantic_settings
import llama_cpp, llama_cpp.server.app
sys.exit(0 if llama_cpp.__version__ == sys.argv[1] else 1)
EOF
}

if [ -x "$venv/bin/python" ] && check; then
    echo "llama peer: ready ($venv, llama-cpp-python $LLAMA_CPP_PYTHON_VERSION)"
    exit 0
fi

mkdir -p "$wheels"
exec 9>"$cache/.setup.lock"
flock 9   # one build at a time (a second caller waits, then finds everything done)

if ! ls "$wheels"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION"-*.whl >/dev/null 2>&1; then
    echo "llama peer: building the llama-cpp-python $LLAMA_CPP_PYTHON_VERSION wheel into $wheels ($jobs jobs; ~20-60 min)"
    start=$(date +%s)
    log="$cache/wheel-build.log"
    if ! CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL="$jobs" \
        "$python" -m pip wheel --find-links "$wheels" -w "$wheels" \
        "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "gguf==$GGUF_VERSION" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "llama peer: the wheel build failed (full log: $log)" >&2
        exit 1
    fi
    echo "llama peer: wheel built in $(( $(date +%s) - start )) s"
fi
"$venv/bin/python" -c "" 2>/dev/null || { rm -rf "$venv"; "$python" -m venv "$venv"; }
install() {
    "$venv/bin/python" -m pip install -q --no-index --find-links "$wheels" \
        "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "gguf==$GGUF_VERSION"
}
if ! install 2>/dev/null; then
    # Some wheel of the server extras or of gguf is not in the cache yet: collect them (no compiling).
    "$python" -m pip wheel -q --find-links "$wheels" -w "$wheels" \
        "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "gguf==$GGUF_VERSION"
    install
fi
if ! check; then
    echo "llama peer: installed into $venv but llama_cpp / its server / gguf do not import" >&2
    exit 1
fi
echo "llama peer: ready ($venv, llama-cpp-python $LLAMA_CPP_PYTHON_VERSION)"
