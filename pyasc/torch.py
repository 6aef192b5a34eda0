"""pyasc.torch: the PyTorch bridge (torch is optional: pip install 'pyasc-runtime[torch]').

``register("ns::name")`` makes a pyasc op a torch custom op (torch.ops.ns.name) with a fake
implementation from its meta function and its backward; ``register_autograd`` declares a
backward; CPU torch tensors run on the 'numpy' backend (zero-copy) or 'sim' (``set_cpu_backend``);
torch_npu tensors run in place on 'npu:N' (``from_torch`` wraps their data pointer) on torch_npu's
current stream.
"""

from pyasc_core.torch_ops import register, register_autograd, torch_schema
from pyasc_core.torch_tensors import (
    CPU_BACKENDS,
    current_stream,
    device_of,
    from_torch,
    get_cpu_backend,
    set_cpu_backend,
    to_torch,
    using_cpu_backend,
)

__all__ = ["CPU_BACKENDS", "current_stream", "device_of", "from_torch", "get_cpu_backend", "register", "register_autograd", "set_cpu_backend",
           "to_torch", "torch_schema", "using_cpu_backend"]
