#!/usr/bin/env bash
# Runs the python/ tests as a user would meet the package: libGuidedDecodingC.so built once (release,
# scripts/build-c-abi.sh), `pip install ./python` into a FRESH venv, then pytest. The fresh venv sees the
# cached third-party packages (setup_test_venv.sh) through a .pth file, so torch is not reinstalled.
# Extra arguments go to pytest. GUIDED_DECODING_LIB=/path/lib.so skips the build.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

lib=${GUIDED_DECODING_LIB:-$(bash scripts/build-c-abi.sh)}
deps=$(bash python/tests/setup_test_venv.sh)
python=${GUIDED_PYTHON:-python3}

fresh=$(mktemp -d /tmp/guided-python-tests.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
"$python" -m venv "$fresh/venv"
site=$("$fresh/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
deps_site=$("$deps/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$deps_site" > "$site/guided-test-deps.pth"
GUIDED_DECODING_LIB="$lib" "$fresh/venv/bin/pip" install -q --disable-pip-version-check ./python

cd python/tests
"$fresh/venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
