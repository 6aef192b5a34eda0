// The stream sanitizer's per-access record (pyasc_core.stream_sanitizer.access) in C: the same
// check-then-record loop over the same Python dicts, without the interpreter's per-line cost on the
// launch hot path. It never raises a race itself: at the first access it cannot decide (a possible
// race, a value of an unexpected type) it stops and returns that index, and the Python loop goes on
// from there (and raises with the full report), so both implementations always agree.
#include <pybind11/pybind11.h>

#include "slots.h"

namespace py = pybind11;

namespace pyasc_npu {

namespace {

// An exact Python int as a long long (false: another type or out of range; no error left set).
bool as_ll(PyObject *o, long long *out) {
    if (!PyLong_CheckExact(o)) return false;
#if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
    // CPython up to 3.11 keeps an int as a signed digit count and 30-bit digits: the values recorded
    // here (device addresses below 2**60, sizes, clocks) have at most two, read directly.
    const Py_ssize_t size = Py_SIZE(o);
    if (size >= -2 && size <= 2) {
        const digit *d = reinterpret_cast<PyLongObject *>(o)->ob_digit;
        const long long mag = size == 0 ? 0
                              : (size == 1 || size == -1) ? static_cast<long long>(d[0])
                                                          : static_cast<long long>(d[0]) |
                                                                (static_cast<long long>(d[1]) << PyLong_SHIFT);
        *out = size < 0 ? -mag : mag;
        return true;
    }
#endif
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

// The sanitizer's state (self of both entry points) and one operation's clock.
struct Op {
    PyObject *blocks, *vc, *skey_obj, *now_obj, *op;
    long long skey, now;
    Py_ssize_t max_entries;
};

// Py_None: the clock needs the Python prelude (a new stream, a host join pending); nullptr: an error
// is set; else a new reference to the state's max_entries (the Op is filled in).
PyObject *begin(PyObject *self, PyObject *skey_obj, PyObject *op, Op *o) {
    PyObject *clocks = PyTuple_GET_ITEM(self, 0), *host = PyTuple_GET_ITEM(self, 2);
    PyObject *joined = PyTuple_GET_ITEM(self, 3), *host_gen = PyTuple_GET_ITEM(self, 4);
    o->blocks = PyTuple_GET_ITEM(self, 1);
    o->max_entries = PyLong_AsSsize_t(PyTuple_GET_ITEM(self, 5));
    o->skey_obj = skey_obj;
    o->op = op;
    if (!as_ll(skey_obj, &o->skey)) Py_RETURN_NONE;
    o->vc = PyDict_GetItemWithError(clocks, skey_obj);
    if (o->vc == nullptr || !PyDict_CheckExact(o->vc)) {
        if (PyErr_Occurred()) return nullptr;
        Py_RETURN_NONE;
    }
    if (PyDict_GET_SIZE(host)) {  // what the host waited for joins the clock first (Python's _clock)
        PyObject *gen = PyList_GET_ITEM(host_gen, 0);
        PyObject *j = PyDict_GetItemWithError(joined, skey_obj);
        if (j == nullptr && PyErr_Occurred()) return nullptr;
        int same = j == nullptr ? 0 : PyObject_RichCompareBool(j, gen, Py_EQ);
        if (same < 0) return nullptr;
        if (!same) {  // once per change of what the host waited for (after a synchronize)
            Py_ssize_t pos = 0;
            PyObject *k = nullptr, *c = nullptr;
            while (PyDict_Next(host, &pos, &k, &c)) {
                long long want = 0, have = 0;
                PyObject *cur = PyDict_GetItemWithError(o->vc, k);
                if (cur == nullptr && PyErr_Occurred()) return nullptr;
                if (!as_ll(c, &want) || (cur != nullptr && !as_ll(cur, &have))) Py_RETURN_NONE;
                if (have < want && PyDict_SetItem(o->vc, k, c) < 0) return nullptr;
            }
            if (PyDict_SetItem(joined, skey_obj, gen) < 0) return nullptr;
        }
    }
    o->now_obj = PyDict_GetItemWithError(o->vc, skey_obj);
    if (o->now_obj == nullptr || !as_ll(o->now_obj, &o->now)) {
        if (PyErr_Occurred()) return nullptr;
        Py_RETURN_NONE;
    }
    Py_RETURN_TRUE;
}

// Advances the stream's clock after all accesses of the operation were recorded (0, or -1: error).
int finish(const Op &o) {
    PyObject *next = PyLong_FromLongLong(o.now + 1);
    if (next == nullptr) return -1;
    int rc = PyDict_SetItem(o.vc, o.skey_obj, next);
    Py_DECREF(next);
    return rc;
}

// Checks, then records, one access (the body of the Python loop). 0: recorded; 1: left to the
// Python loop (a possible race, an unusual record), nothing changed; -1: an error is set.
int record_one(const Op &o, PyObject *block, PyObject *lo_obj, PyObject *hi_obj, long long lo, long long hi,
               bool write) {
    PyObject *write_obj = write ? Py_True : Py_False;
    PyObject *entries = PyDict_GetItemWithError(o.blocks, block);
    if (entries == nullptr && PyErr_Occurred()) return -1;
    if (entries != nullptr && !PyList_CheckExact(entries)) return 1;
    const Py_ssize_t m = entries ? PyList_GET_SIZE(entries) : 0;
    Entry e{};
    if (m == 1) {  // the common case: one earlier access, maybe this stream's, that this covers
        if (!read_entry(PyList_GET_ITEM(entries, 0), &e)) return 1;
        if (e.s == o.skey && lo <= e.lo && e.hi <= hi && (write || !e.write)) {
            PyObject *t = PyTuple_Pack(6, o.skey_obj, o.now_obj, lo_obj, hi_obj, write_obj, o.op);
            if (t == nullptr) return -1;
            PyList_SetItem(entries, 0, t);  // steals t
            return 0;
        }
    }
    for (Py_ssize_t k = 0; k < m; ++k) {  // another stream's unordered conflicting access?
        if (!read_entry(PyList_GET_ITEM(entries, k), &e)) return 1;
        if (e.s != o.skey && (write || e.write) && e.lo < hi && lo < e.hi) {
            PyObject *seen = PyDict_GetItemWithError(o.vc, e.stream);
            long long c = 0;
            if (seen == nullptr && PyErr_Occurred()) return -1;
            if (seen != nullptr && !as_ll(seen, &c)) return 1;
            if (c < e.c) return 1;  // a race: the Python loop reports it
        }
    }
    PyObject *t = PyTuple_Pack(6, o.skey_obj, o.now_obj, lo_obj, hi_obj, write_obj, o.op);
    if (t == nullptr) return -1;
    if (m == 0) {
        PyObject *fresh = PyList_New(1);
        if (fresh == nullptr) {
            Py_DECREF(t);
            return -1;
        }
        PyList_SET_ITEM(fresh, 0, t);  // steals t
        int rc = PyDict_SetItem(o.blocks, block, fresh);
        Py_DECREF(fresh);
        return rc < 0 ? -1 : 0;
    }
    read_entry(PyList_GET_ITEM(entries, m - 1), &e);  // read by the scan above
    if (!write && e.s == o.skey && !e.write && lo <= e.lo && e.hi <= hi) {
        PyList_SetItem(entries, m - 1, t);  // a read covering this stream's last read
        return 0;
    }
    PyObject *kept = PyList_New(0);  // drop the earlier accesses this one covers
    if (kept == nullptr) {
        Py_DECREF(t);
        return -1;
    }
    for (Py_ssize_t k = 0; k < m; ++k) {
        PyObject *eo = PyList_GET_ITEM(entries, k);
        read_entry(eo, &e);  // all read by the scan above
        bool covered = lo <= e.lo && e.hi <= hi && (write || (e.s == o.skey && !e.write));
        if (!covered && PyList_Append(kept, eo) < 0) {
            Py_DECREF(kept);
            Py_DECREF(t);
            return -1;
        }
    }
    int rc = PyList_Append(kept, t);
    Py_DECREF(t);
    if (rc == 0 && PyList_GET_SIZE(kept) > o.max_entries) rc = PyList_SetSlice(kept, 0, 1, nullptr);
    if (rc == 0) rc = PyList_SetSlice(entries, 0, m, kept);
    Py_DECREF(kept);
    return rc < 0 ? -1 : 0;
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
    PyObject *accesses = args[1];
    Op o{};
    PyObject *ok = begin(self, args[0], args[2], &o);
    if (ok != Py_True || !PyList_CheckExact(accesses)) {
        if (ok == nullptr) return nullptr;
        Py_DECREF(ok);
        return PyLong_FromLong(-1);
    }
    Py_DECREF(ok);
    const Py_ssize_t n = PyList_GET_SIZE(accesses);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject *a = PyList_GET_ITEM(accesses, i);
        if (!PyTuple_CheckExact(a) || PyTuple_GET_SIZE(a) != 5) return PyLong_FromSsize_t(i);
        PyObject *lo_obj = PyTuple_GET_ITEM(a, 1), *hi_obj = PyTuple_GET_ITEM(a, 2);
        long long lo = 0, hi = 0;
        if (!as_ll(lo_obj, &lo) || !as_ll(hi_obj, &hi)) return PyLong_FromSsize_t(i);
        int wr = PyObject_IsTrue(PyTuple_GET_ITEM(a, 3));
        if (wr < 0) {
            PyErr_Clear();
            return PyLong_FromSsize_t(i);
        }
        int rc = record_one(o, PyTuple_GET_ITEM(a, 0), lo_obj, hi_obj, lo, hi, wr != 0);
        if (rc < 0) return nullptr;
        if (rc > 0) return PyLong_FromSsize_t(i);
    }
    if (finish(o) < 0) return nullptr;
    return PyLong_FromSsize_t(n);
}

PyObject *g_data, *g_ptr, *g_nbytes;  // interned attribute names

// args: (stream key, launch args, spec, reads); spec: (kinds, labels, op, Tensor type, DeviceArray
// type) of the kernel (pyasc_acl.kernels._launch_context). The accesses the Python fast path would make of
// the launch (one per distinct block argument, in argument order; written unless it is a tiling
// parameter or in `reads`), checked and recorded without building them. Returns None when all were
// recorded (the clock advanced), else as `record` does (-1, or the index among those accesses).
PyObject *record_launch(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "launch record takes (stream key, args, spec, reads)");
        return nullptr;
    }
    if (!PyTuple_CheckExact(args[1]) || !PyTuple_CheckExact(args[2]) || PyTuple_GET_SIZE(args[2]) != 5)
        return PyLong_FromLong(-1);
    PyObject *largs = args[1], *spec = args[2], *reads = args[3];
    PyObject *kinds = PyTuple_GET_ITEM(spec, 0), *labels = PyTuple_GET_ITEM(spec, 1);
    PyObject *tensor_t = PyTuple_GET_ITEM(spec, 3), *array_t = PyTuple_GET_ITEM(spec, 4);
    const Py_ssize_t na = PyTuple_GET_SIZE(largs);
    if (!PyTuple_CheckExact(kinds) || !PyTuple_CheckExact(labels) || PyTuple_GET_SIZE(kinds) != na ||
        PyTuple_GET_SIZE(labels) != na || na > 64)
        return PyLong_FromLong(-1);
    Op o{};
    PyObject *ok = begin(self, args[0], PyTuple_GET_ITEM(spec, 2), &o);
    if (ok != Py_True) {
        if (ok == nullptr) return nullptr;
        Py_DECREF(ok);
        return PyLong_FromLong(-1);
    }
    Py_DECREF(ok);
    PyObject *ptrs[64], *sizes[64];  // new references
    long long ptr_v[64];
    bool writes[64];
    Py_ssize_t n = 0;
    PyObject *result = nullptr;
    // `reads` as values when it is a list of exact ints (the op path's list of input addresses):
    // `p in reads` is then a comparison of values, as int equality gives; else the protocol's
    long long read_v[16];
    Py_ssize_t n_reads = -1;  // -1: ask PySequence_Contains
    if (reads != Py_None && PyList_CheckExact(reads) && PyList_GET_SIZE(reads) <= 16) {
        n_reads = PyList_GET_SIZE(reads);
        for (Py_ssize_t k = 0; k < n_reads; ++k) {
            if (!as_ll(PyList_GET_ITEM(reads, k), &read_v[k])) {
                n_reads = -1;
                break;
            }
        }
    }
    for (Py_ssize_t i = 0; i < na; ++i) {
        PyObject *k = PyTuple_GET_ITEM(kinds, i);
        if (!PyLong_CheckExact(k) || PyLong_AsLong(k) != 0) continue;  // not a pointer parameter
        PyObject *a = PyTuple_GET_ITEM(largs, i), *d = nullptr;
        if (reinterpret_cast<PyObject *>(Py_TYPE(a)) == tensor_t) {
            d = slot_cache().get(a, g_data);
            if (d == nullptr) {  // not the Python loop's shape: it takes the launch
                PyErr_Clear();
                result = PyLong_FromLong(-1);
                goto done;
            }
        } else if (reinterpret_cast<PyObject *>(Py_TYPE(a)) == array_t) {
            d = Py_NewRef(a);
        } else {
            continue;  // a raw address: not tracked
        }
        PyObject *p = slot_cache().get(d, g_ptr), *nb = p ? slot_cache().get(d, g_nbytes) : nullptr;
        Py_DECREF(d);
        if (nb == nullptr) {
            Py_XDECREF(p);
            PyErr_Clear();
            result = PyLong_FromLong(-1);
            goto done;
        }
        long long pv = 0;
        PyObject *label = PyTuple_GET_ITEM(labels, i);
        if (!as_ll(p, &pv) || !PyTuple_CheckExact(label) || PyTuple_GET_SIZE(label) < 1) {
            Py_DECREF(p);
            Py_DECREF(nb);
            result = PyLong_FromLong(-1);
            goto done;
        }
        int tiling = PyObject_IsTrue(PyTuple_GET_ITEM(label, 0)), in_reads = 0;
        if (tiling == 0 && n_reads >= 0) {
            for (Py_ssize_t k = 0; k < n_reads && !in_reads; ++k) in_reads = read_v[k] == pv;
        } else if (tiling == 0 && reads != Py_None) {
            in_reads = PySequence_Contains(reads, p);
        }
        if (tiling < 0 || in_reads < 0) {
            Py_DECREF(p);
            Py_DECREF(nb);
            goto done;
        }
        bool write = !(tiling || in_reads);
        Py_ssize_t j = 0;
        while (j < n && ptr_v[j] != pv) ++j;
        if (j < n) {  // the same block again: one access, written if any use writes it
            writes[j] = writes[j] || write;
            Py_DECREF(p);
            Py_DECREF(nb);
            continue;
        }
        ptrs[n] = p;
        sizes[n] = nb;
        ptr_v[n] = pv;
        writes[n++] = write;
    }
    for (Py_ssize_t j = 0; j < n; ++j) {
        long long hi = 0;
        if (!as_ll(sizes[j], &hi)) {
            result = PyLong_FromSsize_t(j);
            goto done;
        }
        static PyObject *const zero = PyLong_FromLong(0);
        int rc = record_one(o, ptrs[j], zero, sizes[j], 0, hi, writes[j]);
        if (rc < 0) goto done;
        if (rc > 0) {
            result = PyLong_FromSsize_t(j);
            goto done;
        }
    }
    if (finish(o) == 0) result = Py_NewRef(Py_None);
done:
    for (Py_ssize_t j = 0; j < n; ++j) {
        Py_DECREF(ptrs[j]);
        Py_DECREF(sizes[j]);
    }
    return result;
}

PyMethodDef record_def = {"stream_record", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&record)),
                          METH_FASTCALL, "check and record one operation's accesses (see stream_recorder)"};
PyMethodDef launch_def = {"stream_record_launch",
                          reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&record_launch)), METH_FASTCALL,
                          "check and record a launch's accesses (see stream_launch_recorder)"};

py::object bound(PyMethodDef *def, py::tuple state) {
    PyObject *fn = PyCFunction_New(def, state.ptr());
    if (fn == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(fn);
}

}  // namespace

void bind_stream_record(py::module_ &m) {
    g_data = PyUnicode_InternFromString("_data");
    g_ptr = PyUnicode_InternFromString("_ptr");
    g_nbytes = PyUnicode_InternFromString("_nbytes");
    if (!g_data || !g_ptr || !g_nbytes) throw py::error_already_set();
    m.def("stream_recorder", [](py::dict clocks, py::dict blocks, py::dict host, py::dict joined, py::list host_gen,
                                Py_ssize_t max_entries) {
        return bound(&record_def, py::make_tuple(clocks, blocks, host, joined, host_gen, max_entries));
    }, py::arg("clocks"), py::arg("blocks"), py::arg("host"), py::arg("joined"), py::arg("host_gen"),
       py::arg("max_entries"),
       "pyasc_core.stream_sanitizer's access loop in C over its state: fn(stream key, accesses, op) -> "
       "len(accesses) when all were recorded, -1 or the index of the first access the caller must take "
       "(a possible race, an unusual value)");
    m.def("stream_launch_recorder", [](py::dict clocks, py::dict blocks, py::dict host, py::dict joined,
                                       py::list host_gen, Py_ssize_t max_entries) {
        return bound(&launch_def, py::make_tuple(clocks, blocks, host, joined, host_gen, max_entries));
    }, py::arg("clocks"), py::arg("blocks"), py::arg("host"), py::arg("joined"), py::arg("host_gen"),
       py::arg("max_entries"),
       "stream_recorder for a launch: fn(stream key, args, (kinds, labels, op, Tensor, DeviceArray), reads) "
       "makes the accesses of the launch fast path (pyasc_acl.kernels.TypedFunction.__call__) itself; None when all were recorded, else as "
       "stream_recorder's fn");
}

}  // namespace pyasc_npu
