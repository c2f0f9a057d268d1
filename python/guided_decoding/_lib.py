"""Loading libGuidedDecodingC.so and declaring its functions for ctypes (guided_decoding.h)."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

ENV_LIBRARY = "GUIDED_DECODING_LIB"
LIBRARY_NAME = "libGuidedDecodingC.so"
ABI_VERSION = 1

_handle = ctypes.c_void_p
_status = ctypes.c_int32
_size = ctypes.c_size_t
_p_size = ctypes.POINTER(ctypes.c_size_t)
_p_i32 = ctypes.POINTER(ctypes.c_int32)
_p_u8 = ctypes.POINTER(ctypes.c_uint8)
_p_handle = ctypes.POINTER(ctypes.c_void_p)

# name: (restype, argtypes), as in the header.
_SIGNATURES = {
    "gd_abi_version": (ctypes.c_int32, []),
    "gd_last_error_status": (_status, []),
    "gd_last_error_message": (ctypes.c_char_p, []),
    "gd_last_error_keyword": (ctypes.c_char_p, []),
    "gd_last_error_pointer": (ctypes.c_char_p, []),
    "gd_vocab_new_from_tokens": (_status, [_p_u8, ctypes.POINTER(ctypes.c_uint32), _size, _p_i32, _size,
                                           _p_i32, _size, _size, _p_handle]),
    "gd_vocab_new_from_file": (_status, [ctypes.c_char_p, ctypes.c_char_p, _p_handle]),
    "gd_vocab_free": (_status, [_handle]),
    "gd_vocab_info": (_status, [_handle, _p_size, _p_size, _p_size]),
    "gd_vocab_eos_ids": (_status, [_handle, _p_i32, _size, _p_size]),
    "gd_vocab_token_bytes": (_status, [_handle, ctypes.c_int32, _p_u8, _size, _p_size]),
    "gd_compiler_new": (_status, [_handle, _size, _p_handle]),
    "gd_compiler_free": (_status, [_handle]),
    "gd_compiler_cache_size": (_status, [_handle, _p_size]),
    "gd_compile": (_status, [_handle, ctypes.c_int32, ctypes.c_char_p, _size, ctypes.c_char_p, ctypes.c_int32,
                             _p_handle]),
    "gd_grammar_free": (_status, [_handle]),
    "gd_grammar_status": (_status, [_handle]),
    "gd_grammar_wait": (_status, [_handle, ctypes.c_int64]),
    "gd_matcher_new": (_status, [_handle, ctypes.c_int32, _p_handle]),
    "gd_matcher_free": (_status, [_handle]),
    "gd_matcher_fork": (_status, [_handle, _p_handle]),
    "gd_matcher_reset": (_status, [_handle]),
    "gd_matcher_mask_words": (_status, [_handle, _p_size]),
    "gd_matcher_fill_bitmask": (_status, [_handle, ctypes.c_void_p, _size]),
    "gd_matcher_fill_bitmask_batch": (_status, [_p_handle, _size, ctypes.c_void_p, _size, _size, _p_i32, _size,
                                                _p_i32]),
    "gd_matcher_accept_tokens": (_status, [_handle, _p_i32, _size, _p_size]),
    "gd_matcher_accept_bytes": (_status, [_handle, ctypes.c_char_p, _size]),
    "gd_matcher_validate_tokens": (_status, [_handle, _p_i32, _size, _p_size]),
    "gd_matcher_rollback": (_status, [_handle, _size]),
    "gd_matcher_is_terminated": (_status, [_handle, _p_i32]),
    "gd_matcher_can_terminate": (_status, [_handle, _p_i32]),
    "gd_matcher_forced_bytes": (_status, [_handle, _p_u8, _size, _p_size]),
    "gd_matcher_forced_tokens": (_status, [_handle, _p_i32, _size, _p_size]),
    "gd_matcher_error": (_status, [_handle]),
}


def library_path() -> Path:
    """The library to load: $GUIDED_DECODING_LIB, else the copy shipped inside this package."""
    override = os.environ.get(ENV_LIBRARY)
    if override:
        return Path(override)
    return Path(__file__).with_name(LIBRARY_NAME)


def _load() -> ctypes.CDLL:
    path = library_path()
    if not path.exists():
        raise ImportError(
            f"guided_decoding: {path} does not exist; install the package with `pip install ./python` "
            f"(which builds it) or point {ENV_LIBRARY} at a built libGuidedDecodingC.so")
    lib = ctypes.CDLL(str(path))
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    version = lib.gd_abi_version()
    if version != ABI_VERSION:
        raise ImportError(f"guided_decoding: {path} has C ABI version {version}, this package needs {ABI_VERSION}")
    return lib


lib = _load()
