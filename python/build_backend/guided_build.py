"""PEP 517 backend of the guided_decoding package: a platform wheel holding the Python sources, the C header
and libGuidedDecodingC.so. Metadata is written here (name, version from guided_decoding/__init__.py, the
vLLM plugin entry point), so the build needs nothing beyond the standard library and the Swift toolchain."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sysconfig
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # python/
REPO = HERE.parent
PACKAGE = HERE / "guided_decoding"
NAME = "guided_decoding"
DIST = "guided-decoding"
ENV_LIBRARY = "GUIDED_DECODING_LIB"


def _version() -> str:
    text = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if not match:
        raise RuntimeError("guided_decoding/__init__.py has no __version__")
    return match.group(1)


def _tag() -> str:
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{platform}"


def _metadata(version: str) -> str:
    return "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {DIST}",
        f"Version: {version}",
        "Summary: Grammar-constrained decoding (JSON Schema, GBNF, regex) for transformers, vLLM and SGLang",
        "Requires-Python: >=3.9",
        "Provides-Extra: torch",
        "Requires-Dist: numpy; extra == \"torch\"",
        "Requires-Dist: torch; extra == \"torch\"",
        "",
    ])


ENTRY_POINTS = """[vllm.general_plugins]
guided_decoding = guided_decoding.vllm_backend:register_plugin
"""


def _library() -> Path:
    """The library to ship: $GUIDED_DECODING_LIB, or a fresh release build."""
    given = os.environ.get(ENV_LIBRARY)
    if given:
        path = Path(given)
        if not path.is_file():
            raise RuntimeError(f"{ENV_LIBRARY}={given} is not a file")
        return path
    script = REPO / "scripts" / "build-c-abi.sh"
    if not script.exists():
        raise RuntimeError(f"{script} not found: build from a checkout of the repository, or set {ENV_LIBRARY}")
    out = subprocess.run(["bash", str(script)], cwd=REPO, check=True, stdout=subprocess.PIPE, text=True).stdout
    return Path(out.strip().splitlines()[-1])


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _files(library: Path) -> list[tuple[str, bytes]]:
    files = []
    for path in sorted(PACKAGE.rglob("*.py")):
        files.append((f"{NAME}/{path.relative_to(PACKAGE).as_posix()}", path.read_bytes()))
    header = REPO / "Sources" / "GuidedDecodingC" / "include" / "guided_decoding.h"
    if header.exists():
        files.append((f"{NAME}/include/guided_decoding.h", header.read_bytes()))
    files.append((f"{NAME}/libGuidedDecodingC.so", library.read_bytes()))
    return files


def _write_wheel(directory: str, files: list[tuple[str, bytes]]) -> str:
    version = _version()
    tag = _tag()
    dist_info = f"{NAME}-{version}.dist-info"
    wheel_name = f"{NAME}-{version}-{tag}.whl"
    meta = [
        (f"{dist_info}/METADATA", _metadata(version).encode()),
        (f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: guided_build\nRoot-Is-Purelib: false\nTag: {tag}\n".encode()),
        (f"{dist_info}/entry_points.txt", ENTRY_POINTS.encode()),
    ]
    records = []
    with zipfile.ZipFile(Path(directory) / wheel_name, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files + meta:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
            records.append(_record_line(name, data))
        records.append(f"{dist_info}/RECORD,,")
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    return wheel_name


# ---- PEP 517 hooks ----

def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _files(_library()))


def get_requires_for_build_editable(config_settings=None):
    return []


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """An editable install: a .pth file pointing at python/, with the library built into the package folder."""
    library = _library()
    target = PACKAGE / "libGuidedDecodingC.so"
    if library.resolve() != target.resolve():
        shutil.copyfile(library, target)
    with tempfile.TemporaryDirectory():
        return _write_wheel(wheel_directory, [(f"{NAME}_editable.pth", f"{HERE}\n".encode())])
