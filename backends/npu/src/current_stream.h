// The current stream lookup of pyasc_core.streams in C (the launch and allocation hot paths).
#ifndef PYASC_NPU_CURRENT_STREAM_H_
#define PYASC_NPU_CURRENT_STREAM_H_

#include <Python.h>

#include <vector>

namespace pyasc_npu {

// The current raw stream (_acl.Stream) of `device` as pyasc_core.streams.current_stream finds it
// when the stream object already exists: `current` is its ContextVar of stream stacks, `local` its
// thread-local cache of default streams. A borrowed reference (new references taken on the way are
// appended to `held`, for the caller to drop), or nullptr with no error set: the Python lookup
// must run (it makes the default stream object).
PyObject *current_raw_stream(PyObject *current, PyObject *local, PyObject *device, std::vector<PyObject *> &held);

}  // namespace pyasc_npu

#endif  // PYASC_NPU_CURRENT_STREAM_H_
