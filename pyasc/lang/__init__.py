"""pyasc.lang (``import pyasc.lang as asc``): Ascend C in Python, one Python name per Ascend C name.

Classes (``GlobalTensor``, ``LocalTensor``, ``TPipe``, ``TQue``, ``TQueBind``, ``TBuf``), enums
(``TPosition``, ``HardEvent``, ...), params structs and snake_case functions (``data_copy``,
``add``, ``set_flag``, ...) as listed in :mod:`pyasc.lang.table` (docs/pyasc-lang-api.md); element
types ``asc.float16``, ``asc.float32``, ... with ``.sizeof()``. Used inside ``@pyasc.jit`` kernels."""

from .api import exports as _exports
from .documented import documented_names, undocumented_tokens
from .dtypes import (DType, GlobalAddress, bfloat16, bool_, constexpr, float16, float32, float64, int8, int16,
                     int32, int64, uint8, uint16, uint32, uint64)
from .errors import CompileError, UndocumentedNameError
from .jit import JitFunction, jit

globals().update(_exports())
for _m in ("PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_FIX"):
    globals()[_m] = getattr(pipe_t, _m)  # noqa: F821  (exported above): asc.PIPE_V as Ascend C spells it
del _m
