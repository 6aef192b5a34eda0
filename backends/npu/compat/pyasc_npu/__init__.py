"""Deprecated: ``pyasc_npu`` is now :mod:`pyasc_acl` (the ACL binding and the ACL backend that both
the ``npu`` and the ``sim`` backend use). Importing it warns and yields ``pyasc_acl`` itself."""

from pyasc_acl._deprecated import alias

alias("pyasc_npu", "pyasc_acl",
      ("_acl", "backend", "errors", "fork", "kernels", "loader", "plugin", "storage", "streams"))
