"""The engine's failures as Python exceptions: one class per gd_status, each carrying the engine's message."""

from __future__ import annotations

OK = 0


class GuidedDecodingError(Exception):
    """A call into the engine failed. `status` is the C status code, `message` the engine's words."""

    status = -1

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NullArgumentError(GuidedDecodingError):
    status = 1


class InvalidHandleError(GuidedDecodingError):
    """The object was freed (closed) or is of another kind."""
    status = 2


class BufferTooSmallError(GuidedDecodingError):
    status = 3


class InvalidArgumentError(GuidedDecodingError, ValueError):
    status = 4


class TokenizerError(GuidedDecodingError):
    status = 5


class SchemaError(GuidedDecodingError):
    """A refused JSON Schema: `keyword` and `pointer` (a JSON pointer) say where."""
    status = 6

    def __init__(self, message: str, keyword: str = "", pointer: str = ""):
        super().__init__(message)
        self.keyword = keyword
        self.pointer = pointer


class GrammarSyntaxError(GuidedDecodingError):
    status = 7


class CompileError(GuidedDecodingError):
    status = 8


class PendingError(GuidedDecodingError):
    """A grammar compiling in the background is not ready yet."""
    status = 9


class MatcherFailedError(GuidedDecodingError):
    status = 10


class TokenRejectedError(GuidedDecodingError):
    status = 11


class RollbackError(GuidedDecodingError):
    status = 12


class InternalError(GuidedDecodingError):
    status = 99


_BY_STATUS = {cls.status: cls for cls in (
    NullArgumentError, InvalidHandleError, BufferTooSmallError, InvalidArgumentError, TokenizerError, SchemaError,
    GrammarSyntaxError, CompileError, PendingError, MatcherFailedError, TokenRejectedError, RollbackError,
    InternalError)}


def check(status: int) -> None:
    """Raises the exception for a failed call (reading this thread's last error), or returns."""
    if status == OK:
        return
    from ._lib import lib
    message = (lib.gd_last_error_message() or b"").decode("utf-8", "replace")
    cls = _BY_STATUS.get(status, GuidedDecodingError)
    if cls is SchemaError:
        keyword = (lib.gd_last_error_keyword() or b"").decode("utf-8", "replace")
        pointer = (lib.gd_last_error_pointer() or b"").decode("utf-8", "replace")
        raise SchemaError(message, keyword, pointer)
    if cls is GuidedDecodingError:
        raise GuidedDecodingError(message, status)
    raise cls(message)
