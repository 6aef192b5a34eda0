// The current stream lookup of pyasc_core.streams in C (the launch and allocation hot paths).
#ifndef PYASC_NPU_CURRENT_STREAM_H_
#define PYASC_NPU_CURRENT_STREAM_H_

#include <Python.h>

#include <vector>

namespace pyasc_npu {

// New references taken along a hot path, dropped together at its end (no heap use for the first 64).
class HeldRefs {
public:
    HeldRefs() = default;
    HeldRefs(const HeldRefs &) = delete;
    HeldRefs &operator=(const HeldRefs &) = delete;
    ~HeldRefs() {
        for (int i = 0; i < n_; ++i) Py_DECREF(inline_[i]);
        for (PyObject *o : more_) Py_DECREF(o);
    }
    // Keeps `o` (a new reference, or nullptr) until the end; returns it.
    PyObject *keep(PyObject *o) {
        if (o == nullptr) return o;
        if (n_ < kInline) {
            inline_[n_++] = o;
        } else {
            more_.push_back(o);
        }
        return o;
    }

private:
    static constexpr int kInline = 64;
    PyObject *inline_[kInline];
    int n_ = 0;
    std::vector<PyObject *> more_;
};

// The current raw stream (_acl.Stream) of `device` as pyasc_core.streams.current_stream finds it
// when the stream object already exists: `current` is its ContextVar of stream stacks, `local` its
// thread-local cache of default streams. A borrowed reference (new references taken on the way are
// kept in `held`), or nullptr with no error set: the Python lookup must run (it makes the default
// stream object).
PyObject *current_raw_stream(PyObject *current, PyObject *local, PyObject *device, HeldRefs &held);

}  // namespace pyasc_npu

#endif  // PYASC_NPU_CURRENT_STREAM_H_
