"""Tutorial 3: leaky relu whose sizes and slope come in a tiling struct computed on the host
(a pyasc.TilingStruct passed by value: the kernel reads its fields)."""
import numpy as np
import pyasc
import pyasc.lang as asc
from pyasc import tiling

BUFFER_NUM = 2


class LeakyReluTiling(pyasc.TilingStruct):
    block_length: tiling.uint32_t
    tile_length: tiling.uint32_t
    alpha: tiling.float32


@pyasc.jit
def leaky_relu(x: asc.GlobalAddress, y: asc.GlobalAddress, t: LeakyReluTiling):
    block_length = t.block_length
    tile_length = t.tile_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * block_length, block_length)
    y_gm.set_global_buffer(y + asc.get_block_idx() * block_length, block_length)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_q = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_q, BUFFER_NUM, tile_length * x.dtype.sizeof())
    pipe.init_buffer(out_q, BUFFER_NUM, tile_length * y.dtype.sizeof())
    tiles = block_length // tile_length
    i = 0
    while i < tiles:
        xl = in_q.alloc_tensor(x.dtype)
        asc.data_copy(xl, x_gm[i * tile_length:], tile_length)
        in_q.enque(xl)
        xl = in_q.deque(x.dtype)
        yl = out_q.alloc_tensor(y.dtype)
        asc.leaky_relu(yl, xl, t.alpha, tile_length)
        out_q.enque(yl)
        in_q.free_tensor(xl)
        yl = out_q.deque(y.dtype)
        asc.data_copy(y_gm[i * tile_length:], yl, tile_length)
        out_q.free_tensor(yl)
        i += 1


def host_tiling(n, blocks, alpha):
    """The tiling a host computes: each block gets n / blocks elements in tiles of up to 512."""
    block_length = n // blocks
    tile = 512 if block_length % 512 == 0 else block_length
    return LeakyReluTiling(block_length=block_length, tile_length=tile, alpha=alpha)


def run(dtype="float32", n=8 * 2048, blocks=8, alpha=0.1):
    xa = np.random.default_rng(1).standard_normal(n).astype(dtype)
    x, y = pyasc.tensor(xa), pyasc.empty(n, dtype=dtype)
    leaky_relu[blocks](x, y, host_tiling(n, blocks, alpha))
    return y.numpy(), np.where(xa >= 0, xa, xa * np.asarray(alpha, dtype)).astype(dtype)


if __name__ == "__main__":
    got, want = run()
    np.testing.assert_allclose(got, want, rtol=1e-6)
    print("leaky relu with a tiling struct matches NumPy")
