"""Deprecated: ``pyasc_sim.ops`` is now :mod:`pyasc_kernels` (the built-in kernels' host glue, next
to their Ascend C sources in kernels/). Importing it warns and yields ``pyasc_kernels`` itself."""

from pyasc_acl._deprecated import alias

alias("pyasc_sim.ops", "pyasc_kernels", ("_runtime", "elementwise", "linalg", "nn", "reduce", "shape"))
