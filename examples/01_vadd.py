import numpy as np
import pyasc
import pyasc.lang as asc

BUFFER_NUM = 2

@pyasc.jit
def vadd(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
         block_length: int, tile_length: int):
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()                      # element type from the buffer it is set to
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    y_gm.set_global_buffer(y + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_y = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_z = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    nbytes = tile_length * x.dtype.sizeof()
    pipe.init_buffer(in_x, BUFFER_NUM, nbytes)
    pipe.init_buffer(in_y, BUFFER_NUM, nbytes)
    pipe.init_buffer(out_z, BUFFER_NUM, nbytes)
    for i in range(block_length // tile_length):
        xl = in_x.alloc_tensor(x.dtype)
        yl = in_y.alloc_tensor(y.dtype)
        asc.data_copy(xl, x_gm[i * tile_length:], tile_length)
        asc.data_copy(yl, y_gm[i * tile_length:], tile_length)
        in_x.enque(xl)
        in_y.enque(yl)
        xl = in_x.deque(x.dtype)
        yl = in_y.deque(y.dtype)
        zl = out_z.alloc_tensor(z.dtype)
        asc.add(zl, xl, yl, tile_length)
        out_z.enque(zl)
        in_x.free_tensor(xl)
        in_y.free_tensor(yl)
        zl = out_z.deque(z.dtype)
        asc.data_copy(z_gm[i * tile_length:], zl, tile_length)
        out_z.free_tensor(zl)

n = 8 * 2048
x = pyasc.tensor(np.random.rand(n).astype(np.float32)); y = pyasc.tensor(np.random.rand(n).astype(np.float32))
z = pyasc.empty(n, dtype="float32")
vadd[8](x, y, z, n // 8, 256)
