"""Token bitmasks as numpy arrays or torch tensors, in the layout vLLM, SGLang, XGrammar and llguidance
share: int32 words, token t allowed when bit (t & 31) of word (t >> 5) is set.

The engine fills rows on the CPU. `apply_token_bitmask_inplace` works on CPU and CUDA tensors alike (the
bitmask is moved to the logits' device once per call, then unpacked with tensor ops); on a GPU it launches
a few elementwise kernels, no host synchronisation."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

from ._lib import lib
from .core import Matcher
from .errors import check


def mask_words(vocab_size: int) -> int:
    return (int(vocab_size) + 31) // 32


def allocate_token_bitmask(batch_size: int, vocab_size: int, *, library: str = "torch") -> Any:
    """A [batch_size, (vocab_size + 31) // 32] int32 bitmask, all bits set (every token allowed), on the
    CPU: a torch tensor, or a numpy array with library="numpy"."""
    shape = (int(batch_size), mask_words(vocab_size))
    if library == "numpy":
        import numpy as np
        return np.full(shape, -1, dtype=np.int32)
    import torch
    return torch.full(shape, -1, dtype=torch.int32)


def _row_address(bitmask: Any, index: int) -> tuple[int, int]:
    """(address of row `index`, words in a row) of a CPU int32 bitmask, checked."""
    if hasattr(bitmask, "data_ptr"):  # torch
        import torch
        if bitmask.dtype != torch.int32:
            raise TypeError(f"bitmask must be int32, not {bitmask.dtype}")
        if bitmask.device.type != "cpu":
            raise ValueError("the bitmask is filled on the CPU: allocate it there and move it to the GPU after")
        if bitmask.dim() == 1:
            bitmask = bitmask.unsqueeze(0)
        if bitmask.dim() != 2 or bitmask.stride(1) != 1:
            raise ValueError("bitmask must be a 1-D or 2-D tensor with contiguous rows")
        if not 0 <= index < bitmask.shape[0]:
            raise IndexError(f"row {index} outside a bitmask of {bitmask.shape[0]} rows")
        return bitmask.data_ptr() + index * bitmask.stride(0) * 4, bitmask.shape[1]
    import numpy as np
    array = bitmask if bitmask.ndim == 2 else bitmask.reshape(1, -1)
    if array.dtype != np.int32:
        raise TypeError(f"bitmask must be int32, not {array.dtype}")
    if array.strides[1] != 4 or not array.flags.writeable:
        raise ValueError("bitmask must be a writable array with contiguous rows")
    if not 0 <= index < array.shape[0]:
        raise IndexError(f"row {index} outside a bitmask of {array.shape[0]} rows")
    return array.ctypes.data + index * array.strides[0], array.shape[1]


def fill_next_token_bitmask(matcher: Matcher, bitmask: Any, index: int = 0) -> None:
    """Writes the matcher's allowed next tokens into row `index` of a CPU int32 bitmask."""
    address, words = _row_address(bitmask, index)
    matcher.fill_bitmask_ptr(address, words)


def fill_next_token_bitmask_batch(matchers: Sequence[Matcher], bitmask: Any, indices: Sequence[int] | None = None,
                                  threads: int = 0) -> None:
    """Fills row indices[i] (default i) for each matchers[i], on `threads` threads (0: one per CPU, at most 16)."""
    n = len(matchers)
    if n == 0:
        return
    address, words = _row_address(bitmask, 0)
    rows = bitmask.shape[0] if len(bitmask.shape) == 2 else 1
    row_stride = (bitmask.stride(0) if hasattr(bitmask, "stride") and callable(bitmask.stride)
                  else bitmask.strides[0] // 4) if len(bitmask.shape) == 2 else words
    if row_stride != words:
        raise ValueError("bitmask rows must be contiguous with each other for a batch fill")
    handles = (ctypes.c_void_p * n)(*[m.handle.value for m in matchers])
    row_list = (ctypes.c_int32 * n)(*(indices if indices is not None else range(n)))
    check(lib.gd_matcher_fill_bitmask_batch(handles, n, address, rows, words, row_list, int(threads), None))


def apply_token_bitmask_inplace(logits: Any, bitmask: Any, indices: Sequence[int] | None = None) -> None:
    """Sets logits[i, t] to -inf wherever bit t of bitmask row i is clear (rows `indices` of logits only,
    when given: row k of the bitmask masks logits row indices[k]... see below). Tokens past the bitmask's
    width are masked; bitmask bits past the logits' width are ignored. logits: torch [batch, vocab] or
    [vocab] on any device (CUDA included), or numpy; bitmask: int32 [batch, words] (or [words]).

    With `indices`, bitmask row indices[k] applies to logits row indices[k] (vLLM's and SGLang's use:
    only the structured requests of a batch are masked)."""
    if hasattr(logits, "masked_fill_"):
        _apply_torch(logits, bitmask, indices)
    else:
        _apply_numpy(logits, bitmask, indices)


_POWERS: dict = {}


def _blocked_torch(bitmask, width: int):
    """[rows, width] bool: True where the token is NOT allowed (bit clear, or past the bitmask's width).
    One AND against the 32 bit values and one compare: about 3x fewer passes over the [rows, words, 32]
    intermediate than shifting and masking."""
    import torch
    powers = _POWERS.get(bitmask.device)
    if powers is None:
        powers = torch.tensor([(1 << k) - (1 << 32 if k == 31 else 0) for k in range(32)], dtype=torch.int32,
                              device=bitmask.device)
        _POWERS[bitmask.device] = powers
    blocked = (bitmask.unsqueeze(-1) & powers) == 0  # [rows, words, 32]
    blocked = blocked.reshape(*bitmask.shape[:-1], bitmask.shape[-1] * 32)
    if blocked.shape[-1] >= width:
        return blocked[..., :width]
    pad = torch.ones(*blocked.shape[:-1], width - blocked.shape[-1], dtype=torch.bool, device=blocked.device)
    return torch.cat([blocked, pad], dim=-1)


def _apply_torch(logits, bitmask, indices) -> None:
    import torch
    if not hasattr(bitmask, "data_ptr"):
        bitmask = torch.from_numpy(bitmask)
    bitmask = bitmask.to(logits.device, non_blocking=True)
    one_row = logits.dim() == 1
    target = logits.unsqueeze(0) if one_row else logits
    mask = bitmask if bitmask.dim() == 2 else bitmask.unsqueeze(0)
    width = target.shape[-1]
    if indices is None:
        target.masked_fill_(_blocked_torch(mask[: target.shape[0]], width), float("-inf"))
    else:
        index = torch.as_tensor(list(indices), dtype=torch.long, device=logits.device)
        rows = target.index_select(0, index).masked_fill_(_blocked_torch(mask.index_select(0, index), width),
                                                          float("-inf"))
        target.index_copy_(0, index, rows)


def _apply_numpy(logits, bitmask, indices) -> None:
    import numpy as np
    target = logits.reshape(1, -1) if logits.ndim == 1 else logits
    mask = np.asarray(bitmask, dtype=np.int32)
    mask = mask.reshape(1, -1) if mask.ndim == 1 else mask
    width = target.shape[-1]
    rows = list(indices) if indices is not None else list(range(target.shape[0]))
    for r in rows:
        bits = np.unpackbits(mask[r].view(np.uint8), bitorder="little")[:width].astype(bool)
        if bits.shape[0] < width:
            bits = np.concatenate([bits, np.zeros(width - bits.shape[0], dtype=bool)])
        target[r, ~bits] = -np.inf
