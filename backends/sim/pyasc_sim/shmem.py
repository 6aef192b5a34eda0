"""SHMEM jobs on the simulator: N PEs with symmetric heaps on one simulated device.

Kernels written against the SHMEM SDK (``#include "shmem_api.h"`` / ``"shmem.h"``; the device layer is
``kernel_api/include/pyasc_sim/kapi/shmem.h``) run on every PE of a team. On hardware each PE is an NPU
with its own heap and the host program runs once per PE (``shmem_init`` / ``shmem_malloc`` /
a launch / ``shmem_free`` / ``shmem_finalize``). Here one Python process plays all PEs::

    team = pyasc_sim.shmem.Team(n_pes=4, heap_size=1 << 20)  # shmem_init on every PE
    gva = team.zeros((1024,), "float32")                     # shmem_malloc: the same offset on every PE
    team.launch(binary.function("allgather"), 8, lambda pe: (x[pe], gva, y[pe], 1024))
    team.synchronize()
    gva.numpy(2)                                             # PE 2's copy

``launch`` runs the kernel once for all PEs: one launch of ``n_pes * blocks`` blocks in which PE p's
blocks are ``p * blocks .. p * blocks + blocks - 1``, each reading PE p's arguments; ``GetBlockIdx()`` /
``GetBlockNum()`` count the PE's own blocks and ``shmem_my_pe()`` is p. A ``SymmetricArray`` among the
arguments becomes its address on that PE. The heaps are separate device allocations of ``heap_size``
bytes, so the sanitizer's bounds checks see each PE's heap on its own; the device layer checks every
translated address against the heap (``shmem-out-of-heap``, naming PE and offset).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pyasc_core.errors import ArgumentError

# The layouts kapi/shmem_launch.h reads (kShmem*).
LAUNCH_MAGIC = 0x314D454853534150  # "PASSHEM1"
STATE_MAGIC = 0x3154534D45485350  # "PSHEMST1"
MAX_PES = 16
MAX_BLOCKS = 64
FLAG_STRIDE = 64
FLAGS_OFFSET = 4096
STATE_BYTES = FLAGS_OFFSET + MAX_PES * MAX_BLOCKS * FLAG_STRIDE
ALIGN = 512  # shmem_malloc alignment


class SymmetricArray:
    """An array allocated at the same offset of every PE's heap (``Team.zeros`` / ``Team.malloc``)."""

    def __init__(self, team: Team, offset: int, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.team = team
        self.offset = offset
        self.shape = shape
        self.dtype = dtype
        self.nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize

    def address(self, pe: int) -> int:
        """The device address of PE ``pe``'s copy (what the kernel receives as a GM pointer)."""
        return self.team.heap_address(pe) + self.offset

    def numpy(self, pe: int) -> np.ndarray:
        """PE ``pe``'s copy, read back to the host."""
        heap = self.team.heaps[self.team._pe(pe)]
        raw = heap[self.offset:self.offset + self.nbytes].numpy()
        return raw.view(self.dtype).reshape(self.shape)

    def write(self, pe: int, value: Any) -> None:
        """Copies ``value`` (array-like of this shape) into PE ``pe``'s copy."""
        import pyasc

        arr = np.ascontiguousarray(np.asarray(value, dtype=self.dtype))
        if arr.shape != self.shape:
            raise ArgumentError(f"SymmetricArray.write: value has shape {arr.shape}, the array {self.shape}; "
                                "pass an array of the symmetric array's shape")
        heap = self.team.heaps[self.team._pe(pe)]
        heap[self.offset:self.offset + self.nbytes] = pyasc.tensor(arr.reshape(-1).view(np.uint8),
                                                                   device=self.team.device)

    def __repr__(self) -> str:
        return f"SymmetricArray(offset={self.offset}, shape={self.shape}, dtype={self.dtype})"


class Team:
    """``n_pes`` PEs (1..16), each with a symmetric heap of ``heap_size`` bytes on ``device``."""

    def __init__(self, n_pes: int, heap_size: int = 1 << 20, device: Any = "sim") -> None:
        import pyasc

        if isinstance(n_pes, bool) or not isinstance(n_pes, int) or not 1 <= n_pes <= MAX_PES:
            raise ArgumentError(f"Team: n_pes must be an int in 1..{MAX_PES}, got {n_pes!r}")
        if isinstance(heap_size, bool) or not isinstance(heap_size, int) or heap_size <= 0 or heap_size % ALIGN:
            raise ArgumentError(f"Team: heap_size must be a positive multiple of {ALIGN} bytes, got {heap_size!r}")
        self.n_pes = n_pes
        self.heap_size = heap_size
        self.heaps = [pyasc.zeros((heap_size,), dtype="uint8", device=device) for _ in range(n_pes)]
        self.device = self.heaps[0].device
        self._top = 0
        bases = [self.heap_address(p) for p in range(n_pes)] + [0] * (MAX_PES - n_pes)
        header = struct.pack(f"<QIIQ{MAX_PES}Q", STATE_MAGIC, n_pes, 0, heap_size, *bases)
        state = np.zeros(STATE_BYTES, dtype=np.uint8)
        state[:len(header)] = np.frombuffer(header, dtype=np.uint8)
        self.state = pyasc.tensor(state, device=self.device)

    def _pe(self, pe: int) -> int:
        if isinstance(pe, bool) or not isinstance(pe, (int, np.integer)) or not 0 <= pe < self.n_pes:
            raise ArgumentError(f"PE {pe!r} does not exist: the team has PEs 0..{self.n_pes - 1}")
        return int(pe)

    def heap_address(self, pe: int) -> int:
        """The device address of PE ``pe``'s heap."""
        return _address(self.heaps[self._pe(pe)])

    def malloc(self, nbytes: int) -> SymmetricArray:
        """``shmem_malloc``: ``nbytes`` bytes at the same offset of every heap (512-byte aligned, zeroed)."""
        return self.zeros((nbytes,), "uint8")

    def zeros(self, shape: Any, dtype: Any) -> SymmetricArray:
        """A zeroed symmetric array of ``shape`` / ``dtype`` (bump allocation in every heap)."""
        from pyasc_core import dtypes as _dt

        shape = (shape,) if isinstance(shape, int) else tuple(int(s) for s in shape)
        dt = np.dtype(_dt.bfloat16) if str(dtype) == "bfloat16" else np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        if self._top + nbytes > self.heap_size:
            raise ArgumentError(f"Team.zeros: {nbytes} bytes do not fit: {self.heap_size - self._top} of the "
                                f"{self.heap_size}-byte heap are left; make the Team with a larger heap_size")
        arr = SymmetricArray(self, self._top, shape, dt)
        self._top += (nbytes + ALIGN - 1) // ALIGN * ALIGN
        return arr

    def launch(self, function: Any, blocks: int, args: Callable[[int], Sequence[Any]] | Sequence[Sequence[Any]],
               stream: Any = None) -> None:
        """Runs ``function`` (a ``pyasc_acl`` Function) on every PE with ``blocks`` blocks each; ``args`` is
        ``pe -> argument tuple`` or a list of one tuple per PE. Asynchronous, as any launch."""
        from pyasc_acl import kernels as _k

        if isinstance(blocks, bool) or not isinstance(blocks, int) or not 1 <= blocks <= MAX_BLOCKS:
            raise ArgumentError(f"Team.launch: blocks must be an int in 1..{MAX_BLOCKS} (blocks per PE), "
                                f"got {blocks!r}")
        per_pe = [tuple(args(p)) for p in range(self.n_pes)] if callable(args) else [tuple(a) for a in args]
        if len(per_pe) != self.n_pes:
            raise ArgumentError(f"Team.launch: {len(per_pe)} argument tuples for {self.n_pes} PEs; pass one per "
                                "PE or a function pe -> arguments")
        binary = function.binary
        device = binary.device
        sig = function.signature
        blobs: list[bytes] = []
        refs: list[Any] = []
        for pe, a in enumerate(per_pe):
            a = tuple(x.address(pe) if isinstance(x, SymmetricArray) else x for x in a)
            blob, used = _k.pack_args(a, device) if sig is None else _k.pack_typed(sig, a, device, raw=True)
            blobs.append(bytes(blob))
            refs.extend(used)
        size = len(blobs[0])
        if any(len(b) != size for b in blobs):
            raise ArgumentError("Team.launch: the PEs' arguments pack to different sizes; pass the same kinds "
                                "of arguments on every PE")
        # barrier flags start at round 0 in every launch
        self.state[FLAGS_OFFSET:] = 0
        trailer = struct.pack("<5Q", size, self.n_pes, blocks, _address(self.state), LAUNCH_MAGIC)
        for h in self.heaps + [self.state]:
            refs.append(h._data.block)
        raw_stream = _k._raw_stream(stream, binary.backend, device)
        binary.backend.raw_device(device).launch(function.raw, self.n_pes * blocks, b"".join(blobs) + trailer,
                                                 raw_stream, refs, True)

    def synchronize(self) -> None:
        import pyasc

        pyasc.synchronize(self.device)


def _address(t: Any) -> int:
    d = t._data
    return int(d.block.ptr + d.byte_offset)
