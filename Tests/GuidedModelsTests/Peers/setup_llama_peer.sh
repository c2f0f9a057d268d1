#!/usr/bin/env bash
# Installs the real llama-cpp-python peer of the test suite into a venv kept outside the repository.
#
# llama-cpp-python is published as an sdist only, and installing it normally compiles llama.cpp. Here it
# does not: the wheel is built with LLAMA_BUILD=OFF (Python code only, about a minute) and the package
# loads the llama.cpp that scripts/setup-llama.sh builds from the same sdist's vendored source (same
# commit, so the same C API its ctypes bindings were written for): the venv's llama_cpp/lib is a link to
# that build's lib/. So a fresh machine compiles llama.cpp once, for GuidedLlama, llama-server and this
# peer together. The wheel goes to $GUIDED_PEER_CACHE/wheels/llama-cpp-python-nolib (with the wheels of the
# server extras and of `gguf` in $GUIDED_PEER_CACHE/wheels) and is reused from then on; the venv is
# $GUIDED_PEER_CACHE/venv. A second run that finds the venv complete returns at once. Any failure exits
# non-zero with the reason (never a silent skip).
#
# Environment: GUIDED_PEER_CACHE (default /var/cache/guided-decoding), GUIDED_LLAMA_PREFIX (as
# scripts/setup-llama.sh), PYTHON (default python3).
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36
GGUF_VERSION=0.19.0
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cache="${GUIDED_PEER_CACHE:-/var/cache/guided-decoding}"
wheels="$cache/wheels"
nolib="$wheels/llama-cpp-python-nolib"
venv="$cache/venv"
python="${PYTHON:-python3}"

# llama.cpp itself (returns at once when it is built).
bash "$root/scripts/setup-llama.sh"
prefix="$(bash "$root/scripts/setup-llama.sh" --prefix)"

check() {
    "$venv/bin/python" - "$LLAMA_CPP_PYTHON_VERSION" "$prefix" <<'EOF' 2>/dev/null
import os, sys
import gguf, uvicorn, fastapi, sse_starlette, starlette_context, pydantic_settings
import llama_cpp, llama_cpp.server.app
loaded = os.path.realpath(llama_cpp.llama_cpp._lib._name)
ours = os.path.realpath(os.path.join(sys.argv[2], "lib")) + os.sep
llama_cpp.llama_backend_init()
sys.exit(0 if llama_cpp.__version__ == sys.argv[1] and loaded.startswith(ours) else 1)
EOF
}

if [ -x "$venv/bin/python" ] && check; then
    echo "llama peer: ready ($venv, llama-cpp-python $LLAMA_CPP_PYTHON_VERSION on $prefix/lib)"
    exit 0
fi

mkdir -p "$nolib"
exec 9>"$cache/.setup.lock"
flock 9   # one setup at a time (a second caller waits, then finds everything done)

if ! ls "$nolib"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION"-*.whl >/dev/null 2>&1; then
    echo "llama peer: building the llama-cpp-python $LLAMA_CPP_PYTHON_VERSION wheel without llama.cpp into $nolib"
    start=$(date +%s)
    log="$cache/wheel-build.log"
    # From the sdist setup-llama.sh downloaded and checked (no second download).
    sdist="$cache/sdist/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
    if ! CMAKE_ARGS="-DLLAMA_BUILD=OFF -DLLAVA_BUILD=OFF" \
        "$python" -m pip wheel --no-deps -w "$nolib" "$sdist" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "llama peer: the wheel build failed (full log: $log)" >&2
        exit 1
    fi
    echo "llama peer: wheel built in $(( $(date +%s) - start )) s"
fi
# A wheel with llama.cpp compiled in (an older cache's) must not be picked instead.
rm -f "$wheels"/llama_cpp_python-*.whl
"$venv/bin/python" -c "" 2>/dev/null || { rm -rf "$venv"; "$python" -m venv "$venv"; }
install() {
    "$venv/bin/python" -m pip install -q --no-index --find-links "$nolib" --find-links "$wheels" \
        "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "gguf==$GGUF_VERSION"
}
if ! install 2>/dev/null; then
    # Some wheel of the dependencies is not in the cache yet: collect them (no compiling).
    "$python" -m pip wheel -q --find-links "$nolib" --find-links "$wheels" -w "$wheels" \
        "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "gguf==$GGUF_VERSION"
    rm -f "$wheels"/llama_cpp_python-*.whl
    install
fi
# The package's own lib/ (empty in this wheel) becomes the shared build's.
package=$("$venv/bin/python" -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('llama_cpp').origin))")
rm -rf "$package/lib"
ln -s "$prefix/lib" "$package/lib"
if ! check; then
    echo "llama peer: installed into $venv but llama_cpp (on $prefix/lib), its server or gguf do not import" >&2
    exit 1
fi
echo "llama peer: ready ($venv, llama-cpp-python $LLAMA_CPP_PYTHON_VERSION on $prefix/lib)"
