"""Device-memory statistics and control, the same on every backend (PyTorch's names and keys)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from .errors import ArgumentError
from .registry import backend_for_device
from .selection import resolve_device


def _backend(device: Any):
    dev = resolve_device(device)
    return backend_for_device(dev), dev


def memory_stats(device: Any = None) -> dict[str, int]:
    """Counters keyed like ``torch.cuda.memory_stats`` (allocated_bytes.all.current, ...)."""
    backend, dev = _backend(device)
    return dict(backend.memory_stats(dev))


def memory_allocated(device: Any = None) -> int:
    """Bytes currently held by live tensors."""
    return memory_stats(device)["allocated_bytes.all.current"]


def max_memory_allocated(device: Any = None) -> int:
    return memory_stats(device)["allocated_bytes.all.peak"]


def memory_reserved(device: Any = None) -> int:
    """Bytes held by the allocator, including cached free blocks."""
    return memory_stats(device)["reserved_bytes.all.current"]


def max_memory_reserved(device: Any = None) -> int:
    return memory_stats(device)["reserved_bytes.all.peak"]


def reset_peak_memory_stats(device: Any = None) -> None:
    backend, dev = _backend(device)
    backend.reset_peak_memory_stats(dev)


def empty_cache(device: Any = None) -> None:
    """Return cached, unused blocks to the device. Never waits: memory that work queued on a
    stream may still touch stays cached until a later call finds that work done."""
    backend, dev = _backend(device)
    backend.empty_cache(dev)


MAX_MEMORY_LIMIT = 2**64 - 1
"""The largest byte count ``set_memory_limit`` takes (a 64-bit size; None means no cap)."""


def set_memory_limit(nbytes: int | None, device: Any = None) -> None:
    """Cap the bytes tensors may hold on the device (None removes the cap)."""
    if nbytes is not None:
        if isinstance(nbytes, np.integer):
            nbytes = int(nbytes)
        if not isinstance(nbytes, int) or isinstance(nbytes, bool):
            raise ArgumentError(
                f"set_memory_limit needs a byte count >= 0 or None, got {nbytes!r} "
                f"({type(nbytes).__name__}); pass an int number of bytes, e.g. 2 * 2**30 for 2 GiB, "
                "or None for no cap"
            )
        if not 0 <= nbytes <= MAX_MEMORY_LIMIT:
            raise ArgumentError(
                f"set_memory_limit needs a byte count >= 0 or None, got {nbytes!r}; "
                + ("the largest limit is 2**64 - 1 bytes: pass None to remove the cap" if nbytes > 0
                   else "a limit cannot be negative")
            )
    backend, dev = _backend(device)
    backend.set_memory_limit(dev, nbytes)


def mem_get_info(device: Any = None) -> tuple[int, int]:
    """(free, total) bytes of the device."""
    backend, dev = _backend(device)
    return backend.mem_get_info(dev)


def _fmt(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


def memory_summary(device: Any = None) -> str:
    """A readable table of the memory statistics."""
    from rich.console import Console
    from rich.table import Table

    backend, dev = _backend(device)
    stats = backend.memory_stats(dev)
    free, total = backend.mem_get_info(dev)
    table = Table(title=f"pyasc memory summary: {dev}")
    for col in ("metric", "current", "peak", "total allocated", "total freed"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for label, prefix, fmt in (
        ("allocated memory", "allocated_bytes.all", _fmt),
        ("reserved memory", "reserved_bytes.all", _fmt),
        ("allocations", "allocation.all", str),
    ):
        table.add_row(
            label,
            fmt(stats[f"{prefix}.current"]),
            fmt(stats[f"{prefix}.peak"]),
            fmt(stats[f"{prefix}.allocated"]),
            fmt(stats[f"{prefix}.freed"]),
        )
    table.caption = (
        f"device free {_fmt(free)} of {_fmt(total)}; OOMs {stats['num_ooms']}, "
        f"alloc retries {stats['num_alloc_retries']}, releases deferred for queued work "
        f"{stats.get('num_deferred_releases', 0)}"
    )
    out = io.StringIO()
    Console(file=out, width=100, force_terminal=False, color_system=None).print(table)
    return out.getvalue()
