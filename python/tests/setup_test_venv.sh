#!/usr/bin/env bash
# The third-party packages of the python/ tests, in a venv cached outside the repository:
# /var/cache/guided-decoding/python-deps-<hash of the requirement files and the Python version>. Built once
# per machine (a few minutes, ~2.5 GB: torch and triton), reused after. Prints the venv's path.
#
# torch: PyPI's Linux wheel pulls ~3 GB of CUDA libraries; /opt/wheels (this machine kind's pip find-links)
# carries the CPU build torch 2.13.0+cpu (190 MB), used when present. Debian bookworm's python3-torch is
# 1.13, older than transformers 5 accepts (torch >= 2.2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${GUIDED_PYTHON:-python3}
cache=${GUIDED_PEER_CACHE:-/var/cache/guided-decoding}

cpu_torch=$(ls /opt/wheels/torch-2.13.0+cpu-cp3*-manylinux*_x86_64.whl 2>/dev/null | head -1 || true)
torch_spec=${cpu_torch:-torch==2.13.0}
key=$( { cat "$here/requirements.txt" "$here/requirements-sglang.txt"; "$python" --version; echo "$torch_spec"; } \
      | sha256sum | cut -c1-12)
venv="$cache/python-deps-$key"

if [ ! -f "$venv/.complete" ]; then
    echo "python tests: building $venv (once per machine)" >&2
    rm -rf "$venv"
    mkdir -p "$cache"
    "$python" -m venv "$venv"
    pip=("$venv/bin/pip" install -q --disable-pip-version-check)
    "${pip[@]}" "$torch_spec" >&2
    "${pip[@]}" -r "$here/requirements.txt" >&2
    # sglang without its dependencies (they pin CUDA packages); the modules its grammar backend imports, with theirs.
    "${pip[@]}" --no-deps "$(grep '^sglang==' "$here/requirements-sglang.txt")" >&2
    grep -v -e '^sglang==' -e '^#' "$here/requirements-sglang.txt" > "$venv/requirements-sglang-imports.txt"
    "${pip[@]}" -r "$venv/requirements-sglang-imports.txt" >&2
    touch "$venv/.complete"
    # Venvs of earlier requirement sets are 2.5 GB each: keep only this one.
    for old in "$cache"/python-deps-*; do
        [ "$old" = "$venv" ] || rm -rf "$old"
    done
fi
echo "$venv"
