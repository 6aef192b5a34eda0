"""A kernel calling a helper of another module (jit_kernels.constants)."""
import pyasc
import pyasc.lang as asc

from jit_kernels import constants


@pyasc.jit
def scaled(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)
    m = constants.times_scale(n)
