"""Python kernels with one planted bug each (the faulty statement is marked ``# BUG``)."""
import pyasc
import pyasc.lang as asc


@pyasc.jit
def copy_past_end(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, n)
    z_gm.set_global_buffer(z, n)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 2 * n * x.dtype.sizeof())
    xl = q.alloc_tensor(x.dtype)
    asc.data_copy(xl, x_gm, 2 * n)  # BUG: oob
    q.enque(xl)
    xl = q.deque(x.dtype)
    asc.data_copy(z_gm, xl, n)
    q.free_tensor(xl)


@pyasc.jit
def deque_empty(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, n)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, n * x.dtype.sizeof())
    xl = q.deque(x.dtype)  # BUG: deque
    asc.data_copy(z_gm, xl, n)
    q.free_tensor(xl)


@pyasc.jit
def cpp_error(x: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, n)
    asc.add(x_gm, x_gm, n)  # BUG: compile
