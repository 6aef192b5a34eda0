"""Tutorial 5: C (M x N, float32) = A (M x K, float16) x B (K x N, float16) on the cube path.
Each block computes `rows` rows of C: GM -> L1 in the NZ layout (data_copy with Nd2NzParams),
L1 -> L0A / L0B (load_data; B's 16x16 fractals transposed), mmad into L0C, fixpipe to GM.
rows, N and K are multiples of 16."""
import numpy as np
import pyasc
import pyasc.lang as asc

F = 16          # a fractal is F x F elements
FRAC = F * F


@pyasc.jit
def load_l0(a1, b1, a2, b2, rows: int, n: int, k: int):
    """L1 -> L0A (A's fractals row block by row block) and L1 -> L0B (B's, transposed)."""
    mb = rows // F
    kb = k // F
    nb = n // F
    for i in range(mb):
        pa = asc.LoadData2DParams()
        pa.repeatTimes = kb
        pa.srcStride = mb
        asc.load_data(a2[i * kb * FRAC:], a1[i * FRAC:], pa)
    for i in range(kb):
        pb = asc.LoadData2DParams()
        pb.repeatTimes = nb
        pb.srcStride = kb
        pb.ifTranspose = True
        asc.load_data(b2[i * nb * FRAC:], b1[i * FRAC:], pb)


@pyasc.jit
def matmul(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, rows: int, n: int, k: int):
    row0 = asc.get_block_idx() * rows
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a + row0 * k, rows * k)
    b_gm.set_global_buffer(b, k * n)
    c_gm.set_global_buffer(c + row0 * n, rows * n)
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, rows * k * a.dtype.sizeof())
    pipe.init_buffer(qb1, 1, k * n * b.dtype.sizeof())
    pipe.init_buffer(qa2, 1, rows * k * a.dtype.sizeof())
    pipe.init_buffer(qb2, 1, k * n * b.dtype.sizeof())
    pipe.init_buffer(qc, 1, rows * n * c.dtype.sizeof())
    # GM (ND) -> L1 (NZ): column block j of an r-row matrix starts at j * r * 16 elements
    a1 = qa1.alloc_tensor(a.dtype)
    b1 = qb1.alloc_tensor(b.dtype)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, rows, k, 0, k, rows, 1, 0))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, k, n, 0, n, k, 1, 0))
    qa1.enque(a1)
    qb1.enque(b1)
    a1 = qa1.deque(a.dtype)
    b1 = qb1.deque(b.dtype)
    a2 = qa2.alloc_tensor(a.dtype)
    b2 = qb2.alloc_tensor(b.dtype)
    load_l0(a1, b1, a2, b2, rows, n, k)
    qa1.free_tensor(a1)
    qb1.free_tensor(b1)
    qa2.enque(a2)
    qb2.enque(b2)
    a2 = qa2.deque(a.dtype)
    b2 = qb2.deque(b.dtype)
    c1 = qc.alloc_tensor(c.dtype)
    mp = asc.MmadParams()
    mp.m = rows
    mp.n = n
    mp.k = k
    asc.mmad(c1, a2, b2, mp)
    qc.enque(c1)
    qa2.free_tensor(a2)
    qb2.free_tensor(b2)
    c1 = qc.deque(c.dtype)
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(n, rows, rows, n, False))
    qc.free_tensor(c1)


def run(m=64, n=32, k=32, blocks=2):
    rng = np.random.default_rng(3)
    aa = rng.standard_normal((m, k)).astype(np.float16)
    ba = rng.standard_normal((k, n)).astype(np.float16)
    a, b, c = pyasc.tensor(aa.ravel()), pyasc.tensor(ba.ravel()), pyasc.empty(m * n, dtype="float32")
    matmul[blocks](a, b, c, m // blocks, n, k)
    return c.numpy().reshape(m, n), aa.astype(np.float32) @ ba.astype(np.float32)


if __name__ == "__main__":
    got, want = run()
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)
    print("cube matmul matches NumPy")
