"""pyasc.testing: differential testing against the golden model (re-exported from pyasc_core)."""

from pyasc_core.testing import *  # noqa: F401,F403
from pyasc_core.testing import __all__  # noqa: F401
