"""Tutorial 7: matmul with the high-level Matmul API: the host computes a TCubeTiling
(pyasc_sim.hl_tiling.matmul_tiling), each core multiplies its singleCoreM x singleCoreN block of C
with IterateAll. A: M x K float16, B: K x N float16, C: M x N float32."""
import numpy as np
import pyasc
import pyasc.lang as asc


@pyasc.jit
def matmul_hl(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.TCubeTiling):
    if asc.get_block_idx() >= tiling.usedCoreNum:
        return
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, tiling.M * tiling.Ka)
    b_gm.set_global_buffer(b, tiling.Kb * tiling.N)
    c_gm.set_global_buffer(c, tiling.M * tiling.N)
    m_blocks = (tiling.M + tiling.singleCoreM - 1) // tiling.singleCoreM
    m0 = asc.get_block_idx() % m_blocks * tiling.singleCoreM
    n0 = asc.get_block_idx() // m_blocks * tiling.singleCoreN
    tail_m = tiling.M - m0 if tiling.M - m0 < tiling.singleCoreM else tiling.singleCoreM
    tail_n = tiling.N - n0 if tiling.N - n0 < tiling.singleCoreN else tiling.singleCoreN
    pipe = asc.TPipe()
    mm = asc.Matmul(asc.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a.dtype),
                    asc.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b.dtype),
                    asc.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c.dtype))
    asc.regist_matmul_obj(pipe, asc.get_sys_workspace_ptr(), mm, tiling)
    mm.set_tensor_a(a_gm[m0 * tiling.Ka:])
    mm.set_tensor_b(b_gm[n0:])
    mm.set_tail(tail_m, tail_n)
    mm.iterate_all(c_gm[m0 * tiling.N + n0:])
    mm.end()


def run(m=64, n=64, k=32, cores=2):
    from pyasc_sim import hl_tiling

    rng = np.random.default_rng(7)
    aa = rng.standard_normal((m, k)).astype(np.float16)
    ba = rng.standard_normal((k, n)).astype(np.float16)
    a, b, c = pyasc.tensor(aa.ravel()), pyasc.tensor(ba.ravel()), pyasc.zeros(m * n, dtype="float32")
    t = hl_tiling.matmul_tiling(m, n, k, core_num=cores)
    matmul_hl[t.usedCoreNum](a, b, c, t.to_bytes())
    return c.numpy().reshape(m, n), aa.astype(np.float32) @ ba.astype(np.float32)


if __name__ == "__main__":
    got, want = run()
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)
    print("high-level Matmul matches NumPy")
