"""Tutorial 2: vector add with explicit pipe synchronisation (set_flag / wait_flag) instead of
queues: three TBuf buffers, and each pipe waits for the one that produced what it reads."""
import numpy as np
import pyasc
import pyasc.lang as asc


@pyasc.jit
def add_flags(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
              block_length: int, tile_length: int):
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    y_gm.set_global_buffer(y + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)
    pipe = asc.TPipe()
    buf_x = asc.TBuf(asc.TPosition.VECCALC)
    buf_y = asc.TBuf(asc.TPosition.VECCALC)
    buf_z = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf_x, tile_length * x.dtype.sizeof())
    pipe.init_buffer(buf_y, tile_length * y.dtype.sizeof())
    pipe.init_buffer(buf_z, tile_length * z.dtype.sizeof())
    xl = buf_x.get(x.dtype)
    yl = buf_y.get(y.dtype)
    zl = buf_z.get(z.dtype)
    for i in range(block_length // tile_length):
        asc.data_copy(xl, x_gm[i * tile_length:], tile_length)
        asc.data_copy(yl, y_gm[i * tile_length:], tile_length)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)      # the loads are done ...
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)     # ... before the vector unit reads them
        asc.add(zl, xl, yl, tile_length)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)      # the sum is done before it is stored
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * tile_length:], zl, tile_length)
        asc.set_flag(asc.HardEvent.V_MTE2, 0)      # the next loads overwrite what add read
        asc.wait_flag(asc.HardEvent.V_MTE2, 0)
        asc.set_flag(asc.HardEvent.MTE3_V, 0)      # the next add overwrites what was stored
        asc.wait_flag(asc.HardEvent.MTE3_V, 0)


def run(dtype="float32", n=8 * 1024, blocks=8, tile=256):
    rng = np.random.default_rng(0)
    xa, ya = rng.random(n).astype(dtype), rng.random(n).astype(dtype)
    x, y, z = pyasc.tensor(xa), pyasc.tensor(ya), pyasc.empty(n, dtype=dtype)
    add_flags[blocks](x, y, z, n // blocks, tile)
    return z.numpy(), xa + ya


if __name__ == "__main__":
    got, want = run()
    np.testing.assert_allclose(got, want, rtol=1e-6)
    print("add with set_flag/wait_flag matches NumPy")
