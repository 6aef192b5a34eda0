"""Tutorial 4: softmax of each row with reductions: max (reduce_max), x - max (adds), exp, sum
(reduce_sum), then a scale by 1 / sum (muls). Scalars read from the vector unit's results wait
for it (V_S); each block handles rows // blocks rows."""
import numpy as np
import pyasc
import pyasc.lang as asc


@pyasc.jit
def row_max(dst, src, work, cols: int):
    """The largest element of src[0:cols] (a helper: an __aicore__ inline function)."""
    asc.reduce_max(dst, src, work, cols)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    return dst.get_value(0)


@pyasc.jit
def softmax_rows(x: asc.GlobalAddress, y: asc.GlobalAddress, rows_per_block: int, cols: int):
    first = asc.get_block_idx() * rows_per_block * cols
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first, rows_per_block * cols)
    y_gm.set_global_buffer(y + first, rows_per_block * cols)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    calc = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(in_q, 1, cols * x.dtype.sizeof())
    pipe.init_buffer(out_q, 1, cols * y.dtype.sizeof())
    pipe.init_buffer(calc, 2 * cols * x.dtype.sizeof() + 64)
    red = calc.get(x.dtype)
    work = red[16:]
    for r in range(rows_per_block):
        xl = in_q.alloc_tensor(x.dtype)
        asc.data_copy(xl, x_gm[r * cols:], cols)
        in_q.enque(xl)
        xl = in_q.deque(x.dtype)
        m = row_max(red, xl, work, cols)
        yl = out_q.alloc_tensor(y.dtype)
        asc.adds(yl, xl, -m, cols)
        asc.exp(yl, yl, cols)
        asc.reduce_sum(red, yl, work, cols)
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
        total = red.get_value(0)
        asc.set_flag(asc.HardEvent.S_V, 0)
        asc.wait_flag(asc.HardEvent.S_V, 0)
        asc.muls(yl, yl, 1.0 / total, cols)
        in_q.free_tensor(xl)
        out_q.enque(yl)
        yl = out_q.deque(y.dtype)
        asc.data_copy(y_gm[r * cols:], yl, cols)
        out_q.free_tensor(yl)


def run(rows=64, cols=256, blocks=4):
    xa = np.random.default_rng(2).standard_normal((rows, cols)).astype(np.float32)
    x, y = pyasc.tensor(xa.ravel()), pyasc.empty(rows * cols, dtype="float32")
    softmax_rows[blocks](x, y, rows // blocks, cols)
    e = np.exp(xa - xa.max(axis=1, keepdims=True))
    return y.numpy().reshape(rows, cols), e / e.sum(axis=1, keepdims=True)


if __name__ == "__main__":
    got, want = run()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    print("row softmax matches NumPy")
