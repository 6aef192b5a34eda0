"""A helper in another module reading that module's constant."""
import pyasc

SCALE = 3


@pyasc.jit
def times_scale(v):
    return v * SCALE
