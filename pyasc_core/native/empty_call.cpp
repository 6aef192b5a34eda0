// pyasc_core._native.empty: pyasc.empty's hot path in C (issue 13: `pyasc.empty` on sim <= 2 us).
// The common call, empty(shape or *dims of Python ints >= 0, dtype=None or a dtype name,
// device=a device string or Device) whose (device, dtype) creation.py has resolved and cached
// under the current registry version, for a backend with an `empty_tensor` maker: the maker is
// called as creation.empty's Python code calls it (same arguments, same checks, same cache reads),
// without that function's interpreter frame. Every other call (other argument forms, a cache miss,
// a stale registry, a size past MAX_NBYTES, a backend without a maker) goes to the Python function
// unchanged, so both always agree: it is the one place that parses, checks and raises.
#include <pybind11/pybind11.h>

#include <cstdint>

namespace py = pybind11;

namespace {

// Set once by empty_setup(): the Python empty, creation's caches, the registry, the Device type,
// MAX_NBYTES; interned names.
PyObject *g_fallback = nullptr, *g_default_dtype = nullptr, *g_resolved = nullptr, *g_registry = nullptr,
         *g_device_t = nullptr;
unsigned long long g_max_nbytes = 0;
PyObject *g_version, *g_itemsize, *g_kw_dtype, *g_kw_device;

PyObject *fallback(PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    return PyObject_Vectorcall(g_fallback, args, nargsf, kwnames);
}

// True when `name` (a keyword of the call) equals `want` (interned).
bool is_kw(PyObject *name, PyObject *want) {
    return name == want || (PyUnicode_CheckExact(name) && PyUnicode_Compare(name, want) == 0);
}

// The cached resolution of (device, dtype) (borrowed, a 6-tuple), or nullptr (no error left set):
// none, or a lookup that raised (creation.empty treats a TypeError as a miss; the Python path
// repeats the lookup and handles any other error itself).
PyObject *cached(PyObject *device, PyObject *dtype) {
    PyObject *hit = nullptr;
    if (dtype == nullptr) {
        hit = PyDict_GetItemWithError(g_default_dtype, device);
    } else {
        PyObject *key = PyTuple_Pack(2, device, dtype);
        if (key != nullptr) {
            hit = PyDict_GetItemWithError(g_resolved, key);
            Py_DECREF(key);
        }
    }
    if (hit == nullptr || !PyTuple_CheckExact(hit) || PyTuple_GET_SIZE(hit) != 6) {
        PyErr_Clear();
        return nullptr;
    }
    return hit;
}

// empty(*shape, dtype=None, device=None) -> Tensor (METH_FASTCALL | METH_KEYWORDS).
PyObject *empty(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    const size_t nargsf = static_cast<size_t>(nargs);
    if (g_fallback == nullptr) {
        PyErr_SetString(PyExc_RuntimeError, "pyasc_core._native.empty: empty_setup() was not called");
        return nullptr;
    }
    PyObject *dtype = nullptr, *device = Py_None;  // dtype nullptr: None (the default float)
    const Py_ssize_t nkw = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; ++i) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        if (is_kw(name, g_kw_device)) {
            device = value;
        } else if (is_kw(name, g_kw_dtype)) {
            dtype = value == Py_None ? nullptr : value;
        } else {
            return fallback(args, nargsf, kwnames);  // the Python function's TypeError
        }
    }
    // a dtype name (a non-empty str: `dtype or DEFAULT_FLOAT` is the name itself); other specs
    // (NumPy dtypes, types) take the Python path
    if (dtype != nullptr && !(PyUnicode_CheckExact(dtype) && PyUnicode_GET_LENGTH(dtype) > 0))
        return fallback(args, nargsf, kwnames);
    if (!PyUnicode_CheckExact(device) && reinterpret_cast<PyObject *>(Py_TYPE(device)) != g_device_t)
        return fallback(args, nargsf, kwnames);
    // dims: shape[0] when it is the one positional tuple, else the positional arguments
    const bool one_tuple = nargs == 1 && PyTuple_CheckExact(args[0]);
    PyObject *const *dims = one_tuple ? &PyTuple_GET_ITEM(args[0], 0) : args;
    const Py_ssize_t ndim = one_tuple ? PyTuple_GET_SIZE(args[0]) : nargs;
    unsigned long long n = 1;
    for (Py_ssize_t i = 0; i < ndim; ++i) {
        PyObject *d = dims[i];
        if (!PyLong_CheckExact(d)) return fallback(args, nargsf, kwnames);
        const long long v = PyLong_AsLongLong(d);
        if (v < 0 || __builtin_mul_overflow(n, static_cast<unsigned long long>(v), &n)) {
            PyErr_Clear();  // negative, or too large for C: the Python path decides
            return fallback(args, nargsf, kwnames);
        }
    }
    PyObject *hit = cached(device, dtype);
    if (hit == nullptr) return fallback(args, nargsf, kwnames);
    Py_INCREF(hit);  // the maker may clear the caches while it runs
    PyObject *dt = PyTuple_GET_ITEM(hit, 0), *dev = PyTuple_GET_ITEM(hit, 1), *maker = PyTuple_GET_ITEM(hit, 5);
    PyObject *version = PyObject_GetAttr(g_registry, g_version);  // hit[3] == REGISTRY.version
    int fresh = version != nullptr ? PyObject_RichCompareBool(PyTuple_GET_ITEM(hit, 3), version, Py_EQ) : -1;
    Py_XDECREF(version);
    int plain = fresh == 1 ? PyObject_IsTrue(PyTuple_GET_ITEM(hit, 4)) : 0;  // the backend's adopt is the base one
    PyObject *item = plain == 1 ? PyObject_GetAttr(dt, g_itemsize) : nullptr;
    unsigned long long itemsize = 0, nbytes = 0;
    bool fits = item != nullptr && PyLong_CheckExact(item);
    if (fits) {
        itemsize = PyLong_AsUnsignedLongLong(item);
        fits = !PyErr_Occurred() && !__builtin_mul_overflow(n, itemsize, &nbytes) && nbytes <= g_max_nbytes;
    }
    Py_XDECREF(item);
    if (!fits || maker == Py_None) {
        PyErr_Clear();
        Py_DECREF(hit);
        return fallback(args, nargsf, kwnames);
    }
    PyObject *shape = one_tuple ? Py_NewRef(args[0]) : PyTuple_New(nargs);
    if (shape == nullptr) {
        Py_DECREF(hit);
        return nullptr;
    }
    if (!one_tuple) {
        for (Py_ssize_t i = 0; i < nargs; ++i) PyTuple_SET_ITEM(shape, i, Py_NewRef(args[i]));
    }
    PyObject *margs[3] = {shape, dt, dev};
    PyObject *t = PyObject_Vectorcall(maker, margs, 3, nullptr);  // backend.empty_tensor(dims, dt, dev)
    Py_DECREF(shape);
    Py_DECREF(hit);
    return t;
}

PyMethodDef empty_def = {
    "empty", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&empty)), METH_FASTCALL | METH_KEYWORDS,
    "empty(*shape, dtype=None, device=None)\n--\n\n"
    "An uninitialised tensor (float32 unless ``dtype`` says otherwise)."};

}  // namespace

void bind_empty(py::module_ &m) {
    g_version = PyUnicode_InternFromString("version");
    g_itemsize = PyUnicode_InternFromString("itemsize");
    g_kw_dtype = PyUnicode_InternFromString("dtype");
    g_kw_device = PyUnicode_InternFromString("device");
    if (!g_version || !g_itemsize || !g_kw_dtype || !g_kw_device) throw py::error_already_set();
    PyObject *fn = PyCFunction_NewEx(&empty_def, m.ptr(), m.attr("__name__").ptr());
    if (fn == nullptr) throw py::error_already_set();
    m.add_object("empty", py::reinterpret_steal<py::object>(fn));
    m.def("empty_setup", [](py::function python_empty, py::dict default_dtype, py::dict resolved, py::object registry,
                            py::type device_type, unsigned long long max_nbytes) {
        for (PyObject **slot : {&g_fallback, &g_default_dtype, &g_resolved, &g_registry, &g_device_t})
            Py_CLEAR(*slot);
        g_fallback = Py_NewRef(python_empty.ptr());
        g_default_dtype = Py_NewRef(default_dtype.ptr());
        g_resolved = Py_NewRef(resolved.ptr());
        g_registry = Py_NewRef(registry.ptr());
        g_device_t = Py_NewRef(device_type.ptr());
        g_max_nbytes = max_nbytes;
    }, py::arg("python_empty"), py::arg("default_dtype"), py::arg("resolved"), py::arg("registry"),
       py::arg("device_type"), py::arg("max_nbytes"),
       "Bind `empty` to pyasc_core.creation: its Python empty (every call the C path does not take), its "
       "_DEFAULT_DTYPE and _RESOLVED caches, REGISTRY, the Device type and MAX_NBYTES.");
}
