// The stream sanitizer's per-access record (pyasc_core.stream_sanitizer.access) in C: the same
// check-then-record loop over the same Python dicts, without the interpreter's per-line cost on the
// launch hot path. It never raises a race itself: at the first access it cannot decide (a possible
// race, a value of an unexpected type) it stops and returns that index, and the Python loop goes on
// from there (and raises with the full report), so both implementations always agree.
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace pyasc_npu {

namespace {

// An exact Python int as a long long (false: another type or out of range; no error left set).
bool as_ll(PyObject *o, long long *out) {
    if (!PyLong_CheckExact(o)) return false;
    int overflow = 0;
    *out = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (*out == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return false;
    }
    return true;
}

// One recorded access: (stream key, clock, lo, hi, write, op), a tuple made by either side.
struct Entry {
    PyObject *stream;
    long long s, c, lo, hi;
    bool write;
};

bool read_entry(PyObject *e, Entry *out) {
    if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 6) return false;
    out->stream = PyTuple_GET_ITEM(e, 0);
    if (!as_ll(out->stream, &out->s) || !as_ll(PyTuple_GET_ITEM(e, 1), &out->c) ||
        !as_ll(PyTuple_GET_ITEM(e, 2), &out->lo) || !as_ll(PyTuple_GET_ITEM(e, 3), &out->hi))
        return false;
    int w = PyObject_IsTrue(PyTuple_GET_ITEM(e, 4));
    if (w < 0) {
        PyErr_Clear();
        return false;
    }
    out->write = w != 0;
    return true;
}

// self: (clocks, blocks, host, joined, host_gen, max_entries); args: (stream key, accesses, op).
// Returns len(accesses) when every access was checked and recorded (and the stream's clock
// advanced), -1 when the stream's clock needs the Python prelude (new stream, host join pending),
// else the index of the first access left to the Python loop (nothing of it was recorded).
PyObject *record(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "stream record takes (stream key, accesses, op)");
        return nullptr;
    }
    PyObject *skey_obj = args[0], *accesses = args[1], *op = args[2];
    PyObject *clocks = PyTuple_GET_ITEM(self, 0), *blocks = PyTuple_GET_ITEM(self, 1);
    PyObject *host = PyTuple_GET_ITEM(self, 2), *joined = PyTuple_GET_ITEM(self, 3);
    PyObject *host_gen = PyTuple_GET_ITEM(self, 4);
    Py_ssize_t max_entries = PyLong_AsSsize_t(PyTuple_GET_ITEM(self, 5));
    long long skey = 0, now = 0;
    if (!as_ll(skey_obj, &skey) || !PyList_CheckExact(accesses)) return PyLong_FromLong(-1);
    PyObject *vc = PyDict_GetItemWithError(clocks, skey_obj);
    if (vc == nullptr || !PyDict_CheckExact(vc)) {
        if (PyErr_Occurred()) return nullptr;
        return PyLong_FromLong(-1);
    }
    if (PyDict_GET_SIZE(host)) {  // what the host waited for joins the clock first (Python's _clock)
        PyObject *j = PyDict_GetItemWithError(joined, skey_obj);
        if (j == nullptr) {
            if (PyErr_Occurred()) return nullptr;
            return PyLong_FromLong(-1);
        }
        int same = PyObject_RichCompareBool(j, PyList_GET_ITEM(host_gen, 0), Py_EQ);
        if (same < 0) return nullptr;
        if (!same) return PyLong_FromLong(-1);
    }
    PyObject *now_obj = PyDict_GetItemWithError(vc, skey_obj);
    if (now_obj == nullptr || !as_ll(now_obj, &now)) {
        if (PyErr_Occurred()) return nullptr;
        return PyLong_FromLong(-1);
    }
    const Py_ssize_t n = PyList_GET_SIZE(accesses);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject *a = PyList_GET_ITEM(accesses, i);
        if (!PyTuple_CheckExact(a) || PyTuple_GET_SIZE(a) != 5) return PyLong_FromSsize_t(i);
        PyObject *block = PyTuple_GET_ITEM(a, 0), *lo_obj = PyTuple_GET_ITEM(a, 1);
        PyObject *hi_obj = PyTuple_GET_ITEM(a, 2), *write_obj = PyTuple_GET_ITEM(a, 3);
        long long lo = 0, hi = 0;
        if (!as_ll(lo_obj, &lo) || !as_ll(hi_obj, &hi)) return PyLong_FromSsize_t(i);
        int wr = PyObject_IsTrue(write_obj);
        if (wr < 0) {
            PyErr_Clear();
            return PyLong_FromSsize_t(i);
        }
        const bool write = wr != 0;
        PyObject *entries = PyDict_GetItemWithError(blocks, block);
        if (entries == nullptr && PyErr_Occurred()) return nullptr;
        if (entries != nullptr && !PyList_CheckExact(entries)) return PyLong_FromSsize_t(i);
        const Py_ssize_t m = entries ? PyList_GET_SIZE(entries) : 0;
        Entry e{};
        if (m == 1) {  // the common case: one earlier access, maybe this stream's, that this covers
            if (!read_entry(PyList_GET_ITEM(entries, 0), &e)) return PyLong_FromSsize_t(i);
            if (e.s == skey && lo <= e.lo && e.hi <= hi && (write || !e.write)) {
                PyObject *t = PyTuple_Pack(6, skey_obj, now_obj, lo_obj, hi_obj, write_obj, op);
                if (t == nullptr) return nullptr;
                PyList_SetItem(entries, 0, t);  // steals t
                continue;
            }
        }
        for (Py_ssize_t k = 0; k < m; ++k) {  // another stream's unordered conflicting access?
            if (!read_entry(PyList_GET_ITEM(entries, k), &e)) return PyLong_FromSsize_t(i);
            if (e.s != skey && (write || e.write) && e.lo < hi && lo < e.hi) {
                PyObject *seen = PyDict_GetItemWithError(vc, e.stream);
                long long c = 0;
                if (seen == nullptr && PyErr_Occurred()) return nullptr;
                if (seen != nullptr && !as_ll(seen, &c)) return PyLong_FromSsize_t(i);
                if (c < e.c) return PyLong_FromSsize_t(i);  // a race: the Python loop reports it
            }
        }
        PyObject *t = PyTuple_Pack(6, skey_obj, now_obj, lo_obj, hi_obj, write_obj, op);
        if (t == nullptr) return nullptr;
        if (m == 0) {
            PyObject *fresh = PyList_New(1);
            if (fresh == nullptr) {
                Py_DECREF(t);
                return nullptr;
            }
            PyList_SET_ITEM(fresh, 0, t);  // steals t
            int rc = PyDict_SetItem(blocks, block, fresh);
            Py_DECREF(fresh);
            if (rc < 0) return nullptr;
            continue;
        }
        if (!read_entry(PyList_GET_ITEM(entries, m - 1), &e)) {
            Py_DECREF(t);
            return PyLong_FromSsize_t(i);
        }
        if (!write && e.s == skey && !e.write && lo <= e.lo && e.hi <= hi) {
            PyList_SetItem(entries, m - 1, t);  // a read covering this stream's last read
            continue;
        }
        PyObject *kept = PyList_New(0);  // drop the earlier accesses this one covers
        if (kept == nullptr) {
            Py_DECREF(t);
            return nullptr;
        }
        for (Py_ssize_t k = 0; k < m; ++k) {
            PyObject *eo = PyList_GET_ITEM(entries, k);
            read_entry(eo, &e);  // all read above
            bool covered = lo <= e.lo && e.hi <= hi && (write || (e.s == skey && !e.write));
            if (!covered && PyList_Append(kept, eo) < 0) {
                Py_DECREF(kept);
                Py_DECREF(t);
                return nullptr;
            }
        }
        int rc = PyList_Append(kept, t);
        Py_DECREF(t);
        if (rc == 0 && PyList_GET_SIZE(kept) > max_entries) rc = PyList_SetSlice(kept, 0, 1, nullptr);
        if (rc == 0) rc = PyList_SetSlice(entries, 0, m, kept);
        Py_DECREF(kept);
        if (rc < 0) return nullptr;
    }
    PyObject *next = PyLong_FromLongLong(now + 1);
    if (next == nullptr) return nullptr;
    int rc = PyDict_SetItem(vc, skey_obj, next);
    Py_DECREF(next);
    if (rc < 0) return nullptr;
    return PyLong_FromSsize_t(n);
}

PyMethodDef record_def = {"stream_record", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&record)),
                          METH_FASTCALL, "check and record one operation's accesses (see stream_recorder)"};

}  // namespace

void bind_stream_record(py::module_ &m) {
    m.def("stream_recorder", [](py::dict clocks, py::dict blocks, py::dict host, py::dict joined, py::list host_gen,
                                Py_ssize_t max_entries) {
        py::tuple state = py::make_tuple(clocks, blocks, host, joined, host_gen, max_entries);
        PyObject *fn = PyCFunction_New(&record_def, state.ptr());
        if (fn == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(fn);
    }, py::arg("clocks"), py::arg("blocks"), py::arg("host"), py::arg("joined"), py::arg("host_gen"),
       py::arg("max_entries"),
       "pyasc_core.stream_sanitizer's access loop in C over its state: fn(stream key, accesses, op) -> "
       "len(accesses) when all were recorded, -1 or the index of the first access the caller must take "
       "(a possible race, an unusual value)");
}

}  // namespace pyasc_npu
