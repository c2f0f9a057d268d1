"""The C ABI from C: tests/c/cabi_test.c compiled against the installed header and library, and the
library's self-containment (no shared library of the Swift toolchain needed)."""

import shutil
import subprocess
from pathlib import Path

import pytest

import guided_decoding as gd

HERE = Path(__file__).resolve().parent


def _compiler():
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    return cc


def test_c_program(tmp_path):
    lib = gd.library_path()
    header = Path(gd.__file__).with_name("include") / "guided_decoding.h"
    include = header.parent if header.exists() else HERE.parents[1] / "Sources" / "GuidedDecodingC" / "include"
    exe = tmp_path / "cabi_test"
    subprocess.run([_compiler(), "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{include}", "-o", str(exe),
                    str(HERE / "c" / "cabi_test.c"), str(lib), f"-Wl,-rpath,{lib.parent}"], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    last = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 0, run.stdout
    assert last.endswith(" passed, 0 failed") and int(last.split()[0]) >= 190, run.stdout


def test_library_needs_no_swift_toolchain():
    out = subprocess.run(["ldd", str(gd.library_path())], capture_output=True, text=True, check=True).stdout
    needed = sorted(line.split()[0] for line in out.splitlines() if "=>" in line)
    allowed = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libpcre2-8.so.0"}
    assert set(needed) <= allowed, needed
