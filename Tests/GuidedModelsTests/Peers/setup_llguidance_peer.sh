#!/usr/bin/env bash
# Installs llguidance (the Python package of microsoft/llguidance: its Lark reader and matcher) into a venv
# kept outside the repository, for LlguidancePeerTests: our Lark export and reader checked against the
# engine whose dialect they follow. One wheel from PyPI, no dependencies; a second run that finds the venv
# complete returns at once. Any failure exits non-zero with the reason.
#
# Environment: GUIDED_PEER_CACHE (default /var/cache/guided-decoding), PYTHON (default python3).
set -euo pipefail

LLGUIDANCE_VERSION=1.9.1
cache="${GUIDED_PEER_CACHE:-/var/cache/guided-decoding}"
venv="$cache/llguidance-$LLGUIDANCE_VERSION"
python="${PYTHON:-python3}"

if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import llguidance, sys, importlib.metadata as m; sys.exit(0 if m.version('llguidance') == sys.argv[1] else 1)" "$LLGUIDANCE_VERSION" 2>/dev/null; then
    echo "llguidance peer: ready ($venv)"
    exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.llguidance-setup.lock"
flock 9
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "llguidance==$LLGUIDANCE_VERSION"
"$venv/bin/python" -c "import llguidance, importlib.metadata as m; print('llguidance peer: installed', m.version('llguidance'))"
