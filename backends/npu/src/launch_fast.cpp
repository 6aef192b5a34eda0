// The launch hot path of pyasc_acl.kernels.TypedFunction in one C call: the arguments packed by the
// kernel's signature, the current stream looked up, the stream sanitizer's records made (through
// its C recorder) and the launch enqueued, without the interpreter or pybind11's dispatch. Any call
// it does not handle exactly as the Python path would (an unusual argument, a strided or offset
// view, an unknown stream, a value out of range) goes to that path untouched: both always agree.
#include <pybind11/pybind11.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "binary.h"
#include "current_stream.h"
#include "py_device.h"
#include "slots.h"

namespace py = pybind11;

namespace pyasc_npu {

namespace {

enum Kind { kPtr = 0, kInt = 1, kFloat = 2 };

struct Param {
    int kind;
    size_t offset, size;
    bool is_signed;
};

// The launcher of one kernel (built once per TypedFunction by pyasc_acl.kernels._fast_launcher).
struct Launcher {
    std::vector<Param> params;
    size_t blob_size = 0;
    // owned references: see make_launcher for what each is
    PyObject *slow, *binary, *raw_fn, *backend, *device, *index, *spec, *recorder, *partial, *current, *local,
        *san_active, *name, *stale, *reads, *busy, *tensor_t, *array_t;
    Function *fn_ptr = nullptr;  // the kernel's Function (raw_fn keeps it alive)
    PyTypeObject *block_t = nullptr;  // _acl.DeviceBlock (a pybind11 simple-layout instance)
    ~Launcher() {
        for (PyObject *o : {slow, binary, raw_fn, backend, device, index, spec, recorder, partial, current, local,
                            san_active, name, stale, reads, busy, tensor_t, array_t})
            Py_XDECREF(o);
    }
};

PyObject *g_defaults_key;  // the thread state dict's key of thread_defaults' entry
PyObject *g_unloaded, *g_devices, *g_device, *g_data, *g_contiguous, *g_ptr, *g_offset, *g_block,
    *g_defaults, *g_impl, *g_raw;

// A new reference (nullptr, no error left set: absent or failed).
PyObject *attr(PyObject *o, PyObject *name) {
    PyObject *v = slot_cache().get(o, name);
    if (v == nullptr) PyErr_Clear();
    return v;
}

static_assert(sizeof(unsigned long) == sizeof(unsigned long long), "an LP64 host: unsigned long is 64 bits");

// PyLong_AsUnsignedLongLong with the same results and errors on this LP64 host, without its slow
// path: CPython 3.11 converts an int of two or more digits (every device address) through
// _PyLong_AsByteArray there, where PyLong_AsUnsignedLong folds the digits in a loop.
inline unsigned long long as_u64(PyObject *v) { return PyLong_AsUnsignedLong(v); }

// Writes `v` (an exact int) as the parameter's integer type; false: not representable (the
// Python path's struct.pack raises and the general path names it).
bool pack_int(PyObject *v, const Param &p, unsigned char *out) {
    if (!PyLong_CheckExact(v)) return false;
    if (p.is_signed) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow || (x == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return false;
        }
        if (p.size < 8) {
            const long long lim = 1LL << (8 * p.size - 1);
            if (x < -lim || x >= lim) return false;
        }
        std::memcpy(out, &x, p.size);  // little-endian host: the low bytes
        return true;
    }
    unsigned long long x = as_u64(v);
    if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    if (p.size < 8 && x >= (1ULL << (8 * p.size))) return false;
    std::memcpy(out, &x, p.size);
    return true;
}

// The DeviceBlock of `block` (an _acl.DeviceBlock): read straight from its pybind11 instance when
// it has the type and layout seen before, else through py::cast (throws py::cast_error).
DeviceBlock *device_block(Launcher &l, PyObject *block) {
    if (Py_TYPE(block) == l.block_t) {
        auto *inst = reinterpret_cast<py::detail::instance *>(block);
        if (inst->simple_layout && inst->simple_value_holder[0] != nullptr)
            return static_cast<DeviceBlock *>(inst->simple_value_holder[0]);
    }
    DeviceBlock *b = &py::cast<DeviceBlock &>(py::handle(block));
    auto *inst = reinterpret_cast<py::detail::instance *>(block);
    if (inst->simple_layout && inst->simple_value_holder[0] == b) l.block_t = Py_TYPE(block);
    return b;
}

// The Python path with the same arguments; `given` (the op's read list a launch_with_reads call
// passed, or nullptr) is set as the op-reads ContextVar around it, as that path reads it there.
PyObject *take_slow(const Launcher &l, PyObject *const *args, Py_ssize_t nargs, PyObject *given = nullptr) {
    if (given == nullptr) return PyObject_Vectorcall(l.slow, args, static_cast<size_t>(nargs), nullptr);
    PyObject *token = PyContextVar_Set(l.reads, given);
    if (token == nullptr) return nullptr;
    PyObject *r = PyObject_Vectorcall(l.slow, args, static_cast<size_t>(nargs), nullptr);
    if (PyContextVar_Reset(l.reads, token) < 0) Py_CLEAR(r);
    Py_DECREF(token);
    return r;
}

PyObject *do_launch(Launcher *l, PyObject *const *args, Py_ssize_t nargs, PyObject *given);

// self: a capsule of a Launcher; args: (num_blocks, *kernel args). Returns None.
PyObject *fast_launch(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    auto *l = static_cast<Launcher *>(PyCapsule_GetPointer(self, "pyasc_launcher"));
    if (l == nullptr) return nullptr;
    return do_launch(l, args, nargs, nullptr);
}

// self: the same capsule; args: (reads, num_blocks, *kernel args): the launch of an op whose read
// list (the blocks it only reads; None: none) is passed here instead of through the op-reads ContextVar.
PyObject *fast_launch_reads(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    auto *l = static_cast<Launcher *>(PyCapsule_GetPointer(self, "pyasc_launcher"));
    if (l == nullptr) return nullptr;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "launch_with_reads(reads, num_blocks, *args): reads missing");
        return nullptr;
    }
    return do_launch(l, args + 1, nargs - 1, args[0]);
}

// The launch (see fast_launch); `given`: the op's read list, or nullptr to read the ContextVar.
PyObject *do_launch(Launcher *l, PyObject *const *args, Py_ssize_t nargs, PyObject *given) {
    const Py_ssize_t n = nargs - 1;
    if (n < 0 || static_cast<size_t>(n) != l->params.size() || !PyLong_CheckExact(args[0]))
        return take_slow(*l, args, nargs, given);
    unsigned long long nb = as_u64(args[0]);
    if (nb == static_cast<unsigned long long>(-1) && PyErr_Occurred()) PyErr_Clear();
    if (nb == 0 || nb >= (1ULL << 32)) return take_slow(*l, args, nargs, given);
    HeldRefs refs;
    PyObject *unloaded = refs.keep(attr(l->binary, g_unloaded));
    PyObject *devices = refs.keep(attr(l->backend, g_devices));
    if (unloaded != Py_False || PyDict_GET_SIZE(l->stale) != 0 || devices == nullptr || !PyDict_CheckExact(devices))
        return take_slow(*l, args, nargs, given);
    PyObject *raw_device = PyDict_GetItemWithError(devices, l->index);
    PyObject *on = raw_device ? PyDict_GetItemWithError(l->san_active, l->name) : nullptr;
    if (on != Py_True && on != Py_False) {
        PyErr_Clear();
        return take_slow(*l, args, nargs, given);
    }
    unsigned char small[256];  // the blob (kernel arguments rarely take more)
    std::vector<unsigned char> large;
    unsigned char *out = small;
    if (l->blob_size > sizeof(small)) {
        large.resize(l->blob_size);
        out = large.data();
    }
    std::memset(out, 0, l->blob_size);
    DeviceBlock *blocks[64];  // a pointer parameter each at most (the params are at most 64: see launcher)
    size_t nblocks = 0;
    try {
        for (Py_ssize_t i = 0; i < n; ++i) {
            const Param &p = l->params[static_cast<size_t>(i)];
            PyObject *a = args[i + 1];
            if (p.kind == kPtr) {
                PyObject *d = nullptr;
                if (reinterpret_cast<PyObject *>(Py_TYPE(a)) == l->tensor_t) {
                    PyObject *dev = refs.keep(attr(a, g_device));
                    if (dev != l->device) return take_slow(*l, args, nargs, given);
                    d = refs.keep(attr(a, g_data));
                } else if (reinterpret_cast<PyObject *>(Py_TYPE(a)) == l->array_t) {
                    d = a;
                } else if (PyLong_CheckExact(a)) {  // a raw address
                    unsigned long long v = as_u64(a);
                    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
                        PyErr_Clear();
                        return take_slow(*l, args, nargs, given);
                    }
                    std::memcpy(out + p.offset, &v, 8);
                    continue;
                } else {
                    return take_slow(*l, args, nargs, given);
                }
                if (d == nullptr || reinterpret_cast<PyObject *>(Py_TYPE(d)) != l->array_t)
                    return take_slow(*l, args, nargs, given);
                PyObject *contiguous = refs.keep(attr(d, g_contiguous)), *offset = refs.keep(attr(d, g_offset));
                PyObject *ptr = refs.keep(attr(d, g_ptr)), *block = refs.keep(attr(d, g_block));
                if (contiguous != Py_True || offset == nullptr || !PyLong_CheckExact(offset) ||
                    PyLong_AsLong(offset) != 0 || ptr == nullptr || !PyLong_CheckExact(ptr) || block == nullptr)
                    return take_slow(*l, args, nargs, given);  // a view at an offset: the Python path
                unsigned long long v = as_u64(ptr);
                if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
                    PyErr_Clear();
                    return take_slow(*l, args, nargs, given);
                }
                std::memcpy(out + p.offset, &v, 8);
                blocks[nblocks++] = device_block(*l, block);
            } else if (p.kind == kInt) {
                if (!pack_int(a, p, out + p.offset)) return take_slow(*l, args, nargs, given);
            } else {
                if (!PyFloat_CheckExact(a)) return take_slow(*l, args, nargs, given);
                const double x = PyFloat_AS_DOUBLE(a);
                if (p.size == 8) {
                    std::memcpy(out + p.offset, &x, 8);
                } else {
                    const float f = static_cast<float>(x);
                    if (std::isinf(f) && !std::isinf(x)) return take_slow(*l, args, nargs, given);  // struct: OverflowError
                    std::memcpy(out + p.offset, &f, 4);
                }
            }
        }
    } catch (py::cast_error &) {
        return take_slow(*l, args, nargs, given);
    }
    PyObject *raw_stream = current_raw_stream(l->current, l->local, l->device, refs);
    Stream *stream = nullptr;
    PyDevice *dev = nullptr;
    Function *fn = nullptr;
    try {
        // (looked up each time: holding the last stream or device here would keep it alive)
        if (raw_stream != nullptr) stream = &py::cast<Stream &>(py::handle(raw_stream));
        dev = &py::cast<PyDevice &>(py::handle(raw_device));
        fn = l->fn_ptr != nullptr ? l->fn_ptr : (l->fn_ptr = &py::cast<Function &>(py::handle(l->raw_fn)));
    } catch (py::cast_error &) {
        stream = nullptr;
    }
    if (stream == nullptr) return take_slow(*l, args, nargs, given);
    if (on == Py_True && !stream->is_external()) {
        // the sanitizer's records, checked and made in C (_acl.stream_launch_recorder); the state is
        // the sanitizer's own: while Python code holds its lock (busy), the Python side records
        // under that lock instead. The GIL is held from here to the end of the record.
        PyObject *largs = refs.keep(PyTuple_New(n));
        PyObject *skey = refs.keep(PyLong_FromVoidPtr(raw_stream));
        if (largs == nullptr || skey == nullptr) return nullptr;
        for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(largs, i, Py_NewRef(args[i + 1]));
        PyObject *reads = given;
        if (reads == nullptr) {
            if (PyContextVar_Get(l->reads, Py_None, &reads) < 0) return nullptr;
            refs.keep(reads);
        }
        PyObject *busy = PyList_GET_ITEM(l->busy, 0);
        PyObject *left = nullptr;
        if (PyLong_CheckExact(busy) && PyLong_AsLong(busy) == 0) {
            PyObject *rargs[4] = {skey, largs, l->spec, reads};
            if (!PyList_CheckExact(l->recorder) || PyList_GET_SIZE(l->recorder) != 1) {
                PyErr_SetString(PyExc_RuntimeError, "launcher: the launch recorder list must hold one recorder");
                return nullptr;
            }
            left = PyObject_Vectorcall(PyList_GET_ITEM(l->recorder, 0), rargs, 4, nullptr);
            if (left == nullptr) return nullptr;
            refs.keep(left);
        } else {
            left = nullptr;  // the Python side records it under the sanitizer's lock
        }
        if (left != Py_None) {
            PyObject *pargs[4] = {raw_stream, largs, reads, left != nullptr ? left : Py_False};
            PyObject *r = PyObject_Vectorcall(l->partial, pargs, 4, nullptr);
            if (r == nullptr) return nullptr;  // a race: StreamRaceError
            Py_DECREF(r);
        }
    }
    try {
        for (size_t j = 0; j < nblocks; ++j) blocks[j]->record_stream(stream->handle());
        py::gil_scoped_release nogil;
        launch(*fn, static_cast<uint32_t>(nb), out, l->blob_size, *stream, *dev->alloc, *dev->host, true);
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyObject *g_shape;

// args: (op args tuple, Tensor type). AclBackend.adapt_kernel's check of an op's tensor inputs in
// one call: a list of the block addresses of those with elements (the blocks the op only reads)
// when every tensor is contiguous and starts at a KERNEL_ALIGN (32-byte) aligned block address at
// offset 0; None when any is not, or looks unusual: the Python loop then decides (and copies).
PyObject *ready_list(PyObject *const *items, Py_ssize_t count, PyObject *tensor_t);

PyObject *ready_reads(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyTuple_CheckExact(args[0])) Py_RETURN_NONE;
    return ready_list(&PyTuple_GET_ITEM(args[0], 0), PyTuple_GET_SIZE(args[0]), args[1]);
}

// ready_reads over `count` arguments: a new list, a new reference to None, or nullptr (an error).
PyObject *ready_list(PyObject *const *items, Py_ssize_t count, PyObject *tensor_t) {
    PyObject *reads = PyList_New(0);
    if (reads == nullptr) return nullptr;
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject *a = items[i];
        if (reinterpret_cast<PyObject *>(Py_TYPE(a)) != tensor_t) continue;
        HeldRefs refs;
        PyObject *d = refs.keep(attr(a, g_data));
        PyObject *contiguous = d ? refs.keep(attr(d, g_contiguous)) : nullptr;
        PyObject *offset = d ? refs.keep(attr(d, g_offset)) : nullptr;
        PyObject *ptr = d ? refs.keep(attr(d, g_ptr)) : nullptr;
        PyObject *shape = d ? refs.keep(attr(d, g_shape)) : nullptr;
        bool ok = contiguous == Py_True && offset != nullptr && PyLong_CheckExact(offset) && PyLong_AsLong(offset) == 0 &&
                  ptr != nullptr && PyLong_CheckExact(ptr) && shape != nullptr && PyTuple_CheckExact(shape);
        unsigned long long p = ok ? as_u64(ptr) : 0;
        if (ok && p == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
            PyErr_Clear();
            ok = false;
        }
        if (!ok || p % 32 != 0) {
            Py_DECREF(reads);
            Py_RETURN_NONE;
        }
        bool empty = false;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(shape); ++k) {
            PyObject *dim = PyTuple_GET_ITEM(shape, k);
            if (!PyLong_CheckExact(dim)) {
                Py_DECREF(reads);
                Py_RETURN_NONE;
            }
            empty = empty || PyLong_AsLong(dim) == 0;
        }
        if (!empty && PyList_Append(reads, ptr) < 0) {
            Py_DECREF(reads);
            return nullptr;
        }
    }
    return reads;
}

// An op's launch plan as the dispatcher's hot path (built by _acl.op_plan; see its doc).
struct OpPlan {
    Py_ssize_t n_inputs = 0;
    PyObject *fallback, *san_active, *name, *stale, *tensor_t, *guards, *make, *shape, *dtype, *device, *launch,
        *blocks, *tail, *counts, *place;
    ~OpPlan() {
        for (PyObject *o : {fallback, san_active, name, stale, tensor_t, guards, make, shape, dtype, device, launch,
                            blocks, tail, counts, place})
            Py_XDECREF(o);
    }
};

PyObject *op_plan_fallback(const OpPlan &p, PyObject *const *args, Py_ssize_t nargs) {
    return PyObject_Vectorcall(p.fallback, args, static_cast<size_t>(nargs), nullptr);
}

// self: a capsule of an OpPlan; args: (meta, *inputs). The output tensor, or the fallback's result.
PyObject *op_plan_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    auto *p = static_cast<OpPlan *>(PyCapsule_GetPointer(self, "pyasc_op_plan"));
    if (p == nullptr) return nullptr;
    if (nargs - 1 != p->n_inputs || PyDict_GET_SIZE(p->stale) != 0) return op_plan_fallback(*p, args, nargs);
    PyObject *on = PyDict_GetItemWithError(p->san_active, p->name);
    if (on != Py_True && on != Py_False) {
        if (PyErr_Occurred()) return nullptr;
        return op_plan_fallback(*p, args, nargs);
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p->guards); ++i) {  // (namespace dict, key, expected)
        PyObject *g = PyTuple_GET_ITEM(p->guards, i);
        PyObject *v = PyDict_GetItemWithError(PyTuple_GET_ITEM(g, 0), PyTuple_GET_ITEM(g, 1));
        if (v != PyTuple_GET_ITEM(g, 2)) {
            if (v == nullptr && PyErr_Occurred()) return nullptr;
            return op_plan_fallback(*p, args, nargs);
        }
    }
    PyObject *reads = ready_list(args + 1, p->n_inputs, p->tensor_t);
    if (reads == nullptr) return nullptr;
    if (reads == Py_None) {
        Py_DECREF(reads);
        return op_plan_fallback(*p, args, nargs);
    }
    PyObject *margs[3] = {p->shape, p->dtype, p->device};
    PyObject *out = PyObject_Vectorcall(p->make, margs, 3, nullptr);
    if (out == nullptr) {
        Py_DECREF(reads);
        return nullptr;
    }
    // launch(reads, blocks, *inputs, out, *tail)
    const Py_ssize_t ntail = PyTuple_GET_SIZE(p->tail);
    PyObject *small[24];
    std::vector<PyObject *> large;
    const Py_ssize_t total = 3 + p->n_inputs + ntail;
    PyObject **largs = small;
    if (total > 24) {
        large.resize(static_cast<size_t>(total));
        largs = large.data();
    }
    largs[0] = reads;
    largs[1] = p->blocks;
    for (Py_ssize_t i = 0; i < p->n_inputs; ++i) largs[2 + i] = args[1 + i];
    largs[2 + p->n_inputs] = out;
    for (Py_ssize_t i = 0; i < ntail; ++i) largs[3 + p->n_inputs + i] = PyTuple_GET_ITEM(p->tail, i);
    PyObject *r = PyObject_Vectorcall(p->launch, largs, static_cast<size_t>(total), nullptr);
    Py_DECREF(reads);
    if (r == nullptr) {
        Py_DECREF(out);
        return nullptr;
    }
    Py_DECREF(r);
    if (p->counts != Py_None) {  // counts[place] += 1
        PyObject *c = PyDict_GetItemWithError(p->counts, p->place);
        const long long v = c != nullptr ? PyLong_AsLongLong(c) : -1;
        PyObject *next = (c == nullptr || (v == -1 && PyErr_Occurred())) ? nullptr : PyLong_FromLongLong(v + 1);
        if (next == nullptr || PyDict_SetItem(p->counts, p->place, next) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "op plan: the placement counter");
            Py_XDECREF(next);
            Py_DECREF(out);
            return nullptr;
        }
        Py_DECREF(next);
    }
    return out;
}

PyMethodDef op_plan_def = {"op_plan", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&op_plan_call)),
                           METH_FASTCALL, "plan(meta, *inputs): see _acl.op_plan"};

void drop_op_plan(PyObject *capsule) { delete static_cast<OpPlan *>(PyCapsule_GetPointer(capsule, "pyasc_op_plan")); }

PyMethodDef ready_def = {"ready_reads", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&ready_reads)),
                         METH_FASTCALL,
                         "ready_reads(args, Tensor) -> [block address of each tensor input with elements], or None "
                         "when a tensor input is not contiguous at a 32-byte aligned address with offset 0 (the "
                         "caller's Python check decides then)"};

PyMethodDef launch_def = {"fast_launch", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_launch)),
                          METH_FASTCALL, "launcher(num_blocks, *args): see _acl.launcher"};

PyMethodDef launch_reads_def = {
    "fast_launch_with_reads", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_launch_reads)),
    METH_FASTCALL, "launch_with_reads(reads, num_blocks, *args): see _acl.launch_with_reads"};

void drop_launcher(PyObject *capsule) {
    delete static_cast<Launcher *>(PyCapsule_GetPointer(capsule, "pyasc_launcher"));
}

PyObject *intern(const char *s) {
    PyObject *o = PyUnicode_InternFromString(s);
    if (o == nullptr) throw py::error_already_set();
    return o;
}

}  // namespace

// `local.defaults` (pyasc_core.streams' per-thread dict of default Stream objects, made once per
// thread and only ever filled in place after) for this thread, borrowed, or nullptr (no error set):
// not made yet. Remembered in the thread state's dict as (local, defaults), which, like the
// threading.local, lives as long as the thread: a lookup there is a fraction of threading.local's.
static PyObject *thread_defaults(PyObject *local, HeldRefs &held) {
    PyObject *tsd = PyThreadState_GetDict();  // borrowed; nullptr only without a thread state
    PyObject *seen = tsd != nullptr ? PyDict_GetItemWithError(tsd, g_defaults_key) : nullptr;
    if (seen != nullptr && PyTuple_CheckExact(seen) && PyTuple_GET_SIZE(seen) == 2 && PyTuple_GET_ITEM(seen, 0) == local)
        return PyTuple_GET_ITEM(seen, 1);
    PyErr_Clear();
    PyObject *cache = held.keep(attr(local, g_defaults));
    if (cache == nullptr || !PyDict_CheckExact(cache)) return nullptr;
    PyObject *pair = tsd != nullptr ? PyTuple_Pack(2, local, cache) : nullptr;
    if (pair == nullptr || PyDict_SetItem(tsd, g_defaults_key, pair) < 0) PyErr_Clear();
    Py_XDECREF(pair);
    return cache;
}

PyObject *current_raw_stream(PyObject *current, PyObject *local, PyObject *device, HeldRefs &held) {
    auto keep = [&held](PyObject *o) { return held.keep(o); };
    PyObject *stacks = nullptr;
    if (PyContextVar_Get(current, nullptr, &stacks) < 0) {
        PyErr_Clear();
        return nullptr;
    }
    if (stacks == nullptr) return nullptr;
    keep(stacks);
    if (!PyDict_CheckExact(stacks)) return nullptr;
    PyObject *stack = PyDict_GetItemWithError(stacks, device), *s = nullptr;
    if (stack == nullptr && PyErr_Occurred()) {
        PyErr_Clear();
        return nullptr;
    }
    if (stack != nullptr && PyTuple_CheckExact(stack) && PyTuple_GET_SIZE(stack) > 0) {
        s = PyTuple_GET_ITEM(stack, PyTuple_GET_SIZE(stack) - 1);
    } else if (stack != nullptr && PyList_CheckExact(stack) && PyList_GET_SIZE(stack) > 0) {
        s = PyList_GET_ITEM(stack, PyList_GET_SIZE(stack) - 1);
    } else if (stack != nullptr && PyObject_Length(stack) != 0) {
        PyErr_Clear();
        return nullptr;  // another kind of stack: the Python path
    } else {
        PyObject *cache = thread_defaults(local, held);
        if (cache == nullptr) return nullptr;
        s = PyDict_GetItemWithError(cache, device);
        if (s == nullptr || s == Py_None) {
            PyErr_Clear();
            return nullptr;
        }
    }
    PyObject *impl = keep(attr(s, g_impl));
    return impl == nullptr ? nullptr : keep(attr(impl, g_raw));
}

void bind_launch_fast(py::module_ &m) {
    g_unloaded = intern("unloaded");
    g_devices = intern("_devices");
    g_device = intern("_device");
    g_data = intern("_data");
    g_contiguous = intern("contiguous");
    g_ptr = intern("_ptr");
    g_offset = intern("offset");
    g_block = intern("_block");
    g_defaults = intern("defaults");
    g_defaults_key = intern("pyasc_npu.stream_defaults");
    g_impl = intern("_impl");
    g_raw = intern("raw");
    g_shape = intern("shape");
    PyObject *ready = PyCFunction_NewEx(&ready_def, nullptr, m.attr("__name__").ptr());
    if (ready == nullptr) throw py::error_already_set();
    m.add_object("ready_reads", py::reinterpret_steal<py::object>(ready));
    m.def("op_plan", [](Py_ssize_t n_inputs, py::tuple refs) {
        if (refs.size() != 15) throw py::value_error("op_plan: refs must hold 15 objects");
        auto *p = new OpPlan();
        p->n_inputs = n_inputs;
        PyObject **fields[15] = {&p->fallback, &p->san_active, &p->name, &p->stale, &p->tensor_t, &p->guards,
                                 &p->make, &p->shape, &p->dtype, &p->device, &p->launch, &p->blocks, &p->tail,
                                 &p->counts, &p->place};
        for (size_t i = 0; i < 15; ++i) *fields[i] = Py_NewRef(refs[i].ptr());
        py::capsule cap(p, "pyasc_op_plan", &drop_op_plan);
        if (n_inputs < 0 || n_inputs > 16) throw py::value_error("op_plan: 0..16 inputs");
        if (!PyDict_CheckExact(p->san_active) || !PyDict_CheckExact(p->stale) || !PyTuple_CheckExact(p->guards) ||
            !PyTuple_CheckExact(p->tail) || (p->counts != Py_None && !PyDict_CheckExact(p->counts)))
            throw py::value_error("op_plan: sanitizer switches and stale must be dicts, guards and tail tuples, "
                                  "counts a dict or None");
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p->guards); ++i) {
            PyObject *g = PyTuple_GET_ITEM(p->guards, i);
            if (!PyTuple_CheckExact(g) || PyTuple_GET_SIZE(g) != 3 || !PyDict_CheckExact(PyTuple_GET_ITEM(g, 0)))
                throw py::value_error("op_plan: each guard is (dict, key, expected object)");
        }
        PyObject *fn = PyCFunction_New(&op_plan_def, cap.ptr());
        if (fn == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(fn);
    }, py::arg("n_inputs"), py::arg("refs"),
       "An op's launch plan as one C call, plan(meta, *inputs) (exactly `n_inputs` inputs): when the sanitizer "
       "switch of the backend is known, the device is not stale after fork, every guard (d, key, obj) has "
       "d[key] is obj and every tensor input is ready (ready_reads), the output make(shape, dtype, device) is "
       "launched as launch(reads, blocks, *inputs, out, *tail), counts[place] is incremented (counts None: not) "
       "and out returned; otherwise fallback(meta, *inputs). refs: (fallback, sanitizer switches, backend name, "
       "fork.stale, Tensor, guards, make, shape, dtype, device, launch, blocks, tail, counts, place)");
    m.def("launch_with_reads", [](py::object launcher) {
        PyObject *f = launcher.ptr();
        if (!PyCFunction_Check(f) || PyCFunction_GET_FUNCTION(f) != launch_def.ml_meth)
            throw py::type_error("launch_with_reads: pass a function _acl.launcher made");
        PyObject *fn = PyCFunction_New(&launch_reads_def, PyCFunction_GET_SELF(f));
        if (fn == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(fn);
    }, py::arg("launcher"),
       "launch_with_reads(launcher) -> fn(reads, num_blocks, *args): the launch of `launcher` (an _acl.launcher) "
       "with the op's read list passed (the blocks the op only reads, for the stream sanitizer; None: none) "
       "instead of read from the op-reads ContextVar (which the Python path it falls back to sees set to it)");
    m.def("launcher", [](py::tuple params, size_t blob_size, py::tuple refs) {
        if (refs.size() != 18) throw py::value_error("launcher: refs must hold 18 objects");
        auto *l = new Launcher();
        l->blob_size = blob_size;
        PyObject **fields[18] = {&l->slow, &l->binary, &l->raw_fn, &l->backend, &l->device, &l->index,
                                 &l->spec, &l->recorder, &l->partial, &l->current, &l->local, &l->san_active,
                                 &l->name, &l->stale, &l->reads, &l->busy, &l->tensor_t, &l->array_t};
        for (size_t i = 0; i < 18; ++i) *fields[i] = Py_NewRef(refs[i].ptr());
        py::capsule cap(l, "pyasc_launcher", &drop_launcher);
        for (auto item : params) {
            auto t = item.cast<py::tuple>();
            Param p{t[0].cast<int>(), t[1].cast<size_t>(), t[2].cast<size_t>(), t[3].cast<bool>()};
            if (p.offset + p.size > blob_size || (p.kind == kPtr && p.size != 8) ||
                (p.kind == kFloat && p.size != 4 && p.size != 8) || p.size == 0 || p.size > 8)
                throw py::value_error("launcher: a parameter does not fit the blob");
            l->params.push_back(p);
        }
        if (l->params.size() > 64) throw py::value_error("launcher: at most 64 parameters");
        if (!PyDict_CheckExact(l->stale)) throw py::value_error("launcher: stale must be pyasc_acl.fork.stale (a dict)");
        if (!PyList_CheckExact(l->busy) || PyList_GET_SIZE(l->busy) != 1)
            throw py::value_error("launcher: busy must be a one-item list");
        PyObject *fn = PyCFunction_New(&launch_def, cap.ptr());
        if (fn == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(fn);
    }, py::arg("params"), py::arg("blob_size"), py::arg("refs"),
       "The launch hot path of one kernel in C: launcher(num_blocks, *args) packs the arguments by `params` "
       "((kind 0 pointer / 1 int / 2 float, offset, size, signed) each), finds the current stream, makes the "
       "stream sanitizer's records and enqueues the launch; any other call goes to refs[0] (the Python path). "
       "refs: (slow, binary, raw function, backend, device, device index, record spec, [launch recorder] (read "
       "at each launch), "
       "partial record, current-stream ContextVar, thread-local defaults, sanitizer switches, backend name, "
       "fork.stale (a dict: empty unless forked), op-reads ContextVar, sanitizer busy list, Tensor, DeviceArray)");
}

}  // namespace pyasc_npu
