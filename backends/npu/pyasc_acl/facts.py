"""What a device says about itself through ``aclrtGetDeviceInfo`` (core counts, memory sizes):
kernels size their launches by these facts, read from the device, instead of assuming one SoC."""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

from pyasc_core.device import Device
from pyasc_core.errors import ArgumentError

from .backend import acl_backend_of
from .errors import AclError

# aclrtDevAttr values of the public ACL reference (the selector of aclrtGetDeviceInfo)
ACL_DEV_ATTR_AICPU_CORE_NUM = 1
ACL_DEV_ATTR_AICORE_CORE_NUM = 101
ACL_DEV_ATTR_CUBE_CORE_NUM = 102
ACL_DEV_ATTR_VECTOR_CORE_NUM = 201
ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301
ACL_DEV_ATTR_L2_CACHE_SIZE = 302


class DeviceFacts(NamedTuple):
    """The device facts the built-in kernels size their launches by (what every ACL version reports)."""

    vector_cores: int
    cube_cores: int


def device_info(attr: int, device: Any = None) -> int:
    """``aclrtGetDeviceInfo`` of ``device`` (a sim/npu device spec; None: the current device) for
    one aclrtDevAttr value, e.g. ``device_info(ACL_DEV_ATTR_VECTOR_CORE_NUM, "sim")``."""
    if isinstance(attr, bool) or not isinstance(attr, int):
        raise ArgumentError(f"device_info needs an aclrtDevAttr value (an int such as "
                            f"pyasc_acl.ACL_DEV_ATTR_VECTOR_CORE_NUM = 201), got {type(attr).__name__} {attr!r:.60}")
    backend, dev = acl_backend_of(device)
    return int(backend.raw_device(dev).device_info(attr))


_lock = threading.Lock()
_facts: dict[Device, DeviceFacts] = {}


def device_facts(device: Any = None) -> DeviceFacts:
    """The :class:`DeviceFacts` of ``device``, read from it once per process and cached (a launch
    asks for them, so a known Device is one dict lookup)."""
    facts = _facts.get(device) if isinstance(device, Device) else None
    if facts is not None:
        return facts
    backend, dev = acl_backend_of(device)
    facts = _facts.get(dev)
    if facts is not None:
        return facts
    raw = backend.raw_device(dev)
    try:
        cube = raw.device_info(ACL_DEV_ATTR_CUBE_CORE_NUM)
    except AclError:  # ACL versions before ACL_DEV_ATTR_CUBE_CORE_NUM count AI Cores by their cube cores
        cube = raw.device_info(ACL_DEV_ATTR_AICORE_CORE_NUM)
    facts = DeviceFacts(vector_cores=int(raw.device_info(ACL_DEV_ATTR_VECTOR_CORE_NUM)), cube_cores=int(cube))
    with _lock:
        _facts[dev] = facts
    return facts
