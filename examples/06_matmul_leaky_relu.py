"""Tutorial 6: fused matmul + leaky relu: the cube path of tutorial 5 writes C's rows, then the
vector unit of the same block reads them back and applies leaky relu in place (one launch)."""
import numpy as np
import pyasc
import pyasc.lang as asc

F = 16
FRAC = F * F


@pyasc.jit
def cube_rows(a_gm, b_gm, c_gm, rows: int, n: int, k: int):
    """C rows = A rows x B on the cube: GM -> L1 (NZ) -> L0A/L0B -> mmad -> fixpipe -> GM."""
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, rows * k * a_gm.dtype.sizeof())
    pipe.init_buffer(qb1, 1, k * n * b_gm.dtype.sizeof())
    pipe.init_buffer(qa2, 1, rows * k * a_gm.dtype.sizeof())
    pipe.init_buffer(qb2, 1, k * n * b_gm.dtype.sizeof())
    pipe.init_buffer(qc, 1, rows * n * c_gm.dtype.sizeof())
    a1 = qa1.alloc_tensor(a_gm.dtype)
    b1 = qb1.alloc_tensor(b_gm.dtype)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, rows, k, 0, k, rows, 1, 0))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, k, n, 0, n, k, 1, 0))
    qa1.enque(a1)
    qb1.enque(b1)
    a1 = qa1.deque(a_gm.dtype)
    b1 = qb1.deque(b_gm.dtype)
    a2 = qa2.alloc_tensor(a_gm.dtype)
    b2 = qb2.alloc_tensor(b_gm.dtype)
    mb, kb, nb = rows // F, k // F, n // F
    for i in range(mb):
        asc.load_data(a2[i * kb * FRAC:], a1[i * FRAC:], asc.LoadData2DParams(repeatTimes=kb, srcStride=mb))
    for i in range(kb):
        asc.load_data(b2[i * nb * FRAC:], b1[i * FRAC:],
                      asc.LoadData2DParams(repeatTimes=nb, srcStride=kb, ifTranspose=True))
    qa1.free_tensor(a1)
    qb1.free_tensor(b1)
    qa2.enque(a2)
    qb2.enque(b2)
    a2 = qa2.deque(a_gm.dtype)
    b2 = qb2.deque(b_gm.dtype)
    c1 = qc.alloc_tensor(c_gm.dtype)
    asc.mmad(c1, a2, b2, asc.MmadParams(m=rows, n=n, k=k))
    qc.enque(c1)
    qa2.free_tensor(a2)
    qb2.free_tensor(b2)
    c1 = qc.deque(c_gm.dtype)
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(n, rows, rows, n, False))
    qc.free_tensor(c1)


@pyasc.jit
def matmul_leaky_relu(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                      rows: int, n: int, k: int, alpha: float):
    row0 = asc.get_block_idx() * rows
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a + row0 * k, rows * k)
    b_gm.set_global_buffer(b, k * n)
    c_gm.set_global_buffer(c + row0 * n, rows * n)
    cube_rows(a_gm, b_gm, c_gm, rows, n, k)
    asc.pipe_barrier(asc.PIPE_ALL)                 # C is in GM before the vector unit reads it
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, rows * n * c.dtype.sizeof())
    cl = buf.get(c.dtype)
    asc.data_copy(cl, c_gm, rows * n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.leaky_relu(cl, cl, alpha, rows * n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(c_gm, cl, rows * n)


def run(m=64, n=32, k=32, blocks=2, alpha=0.1):
    rng = np.random.default_rng(4)
    aa = rng.standard_normal((m, k)).astype(np.float16)
    ba = rng.standard_normal((k, n)).astype(np.float16)
    a, b, c = pyasc.tensor(aa.ravel()), pyasc.tensor(ba.ravel()), pyasc.empty(m * n, dtype="float32")
    matmul_leaky_relu[blocks](a, b, c, m // blocks, n, k, alpha)
    mm = aa.astype(np.float32) @ ba.astype(np.float32)
    return c.numpy().reshape(m, n), np.where(mm >= 0, mm, mm * np.float32(alpha))


if __name__ == "__main__":
    got, want = run()
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)
    print("fused matmul + leaky relu matches NumPy")
