"""The torch equivalents of built-in ops that are not one torch function called with the op's
arguments (those name the function on their record instead, e.g. torch="add").

Each takes the op's arguments with arrays as torch tensors; torch is imported on first call (it is
optional: ``pyasc bench`` times torch only when it is installed)."""

from __future__ import annotations

from typing import Any


def gelu(x: Any) -> Any:
    import torch.nn.functional as F

    return F.gelu(x, approximate="tanh")


def softmax(x: Any, axis: int = -1) -> Any:
    import torch

    return torch.softmax(x, dim=axis)


def log_softmax(x: Any, axis: int = -1) -> Any:
    import torch

    return torch.log_softmax(x, dim=axis)


def layer_norm(x: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5) -> Any:
    import torch.nn.functional as F

    return F.layer_norm(x, x.shape[-1:], weight, bias, eps)


def _reduction(name: str):
    def reduce(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        import torch

        if axis is None:
            axis = tuple(range(x.ndim))
        return getattr(torch, name)(x, dim=axis, keepdim=keepdims)

    reduce.__name__ = name
    return reduce


sum_ = _reduction("sum")
mean = _reduction("mean")
amax = _reduction("amax")
amin = _reduction("amin")


def transpose(x: Any, axes: Any = None) -> Any:
    return x.T.contiguous() if axes is None else x.permute(*axes).contiguous()
