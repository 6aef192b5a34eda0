// Attribute access to Python-class instances with __slots__ (pyasc's Tensor and DeviceArray) on the
// launch and allocation hot paths: the slot's offset, found once per (type, name) and re-checked when
// the type changes, read or written directly; every other attribute through the generic protocol
// (so the result is always what getattr/setattr give).
#ifndef PYASC_NPU_SLOTS_H_
#define PYASC_NPU_SLOTS_H_

#include <Python.h>
#include <structmember.h>

#include <cstdint>

namespace pyasc_npu {

class SlotCache {
public:
    // A new reference to o.name, or nullptr with the error PyObject_GetAttr sets.
    PyObject *get(PyObject *o, PyObject *name) {
        const Py_ssize_t off = Py_TYPE(o)->tp_getattro == PyObject_GenericGetAttr ? offset(Py_TYPE(o), name) : -1;
        if (off > 0) {
            PyObject *v = *reinterpret_cast<PyObject **>(reinterpret_cast<char *>(o) + off);
            if (v != nullptr) return Py_NewRef(v);
        }
        return PyObject_GetAttr(o, name);
    }

    // setattr(o, name, v) (v not nullptr); 0, or -1 with an error set.
    int set(PyObject *o, PyObject *name, PyObject *v) {
        const Py_ssize_t off = Py_TYPE(o)->tp_setattro == PyObject_GenericSetAttr ? offset(Py_TYPE(o), name) : -1;
        if (off > 0 && v != nullptr) {
            PyObject **slot = reinterpret_cast<PyObject **>(reinterpret_cast<char *>(o) + off);
            PyObject *old = *slot;
            *slot = Py_NewRef(v);
            Py_XDECREF(old);
            return 0;
        }
        return PyObject_SetAttr(o, name, v);
    }

private:
    struct Entry {
        PyTypeObject *type;
        PyObject *name;
        unsigned int version;
        Py_ssize_t offset;
    };
    // Open addressing on (type, name) (a launch reads about 40 slots of a dozen (type, name) pairs:
    // one probe instead of a scan of every entry); entries are never removed, and once the table is
    // half full new pairs are looked up each time instead (as when a scan found no room).
    static constexpr int kEntries = 64;
    Entry entries_[kEntries] = {};
    int n_ = 0;

    static int slot_of(PyTypeObject *t, PyObject *name) {
        const uintptr_t h = (reinterpret_cast<uintptr_t>(t) >> 4) * 0x9E3779B97F4A7C15ull ^
                            (reinterpret_cast<uintptr_t>(name) >> 4);
        return static_cast<int>((h ^ (h >> 29)) & (kEntries - 1));
    }

    // The offset of `name`'s slot in instances of `t` (a Python class whose attribute `name` is its
    // own __slots__ member), or -1: use the generic protocol.
    Py_ssize_t offset(PyTypeObject *t, PyObject *name) {
        const bool versioned = PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG);
        int i = slot_of(t, name);
        for (; entries_[i].type != nullptr; i = (i + 1) & (kEntries - 1)) {
            Entry &e = entries_[i];
            if (e.type == t && e.name == name) {
                if (versioned && e.version == t->tp_version_tag) return e.offset;
                e.offset = lookup(t, name);  // the type changed since: look again
                e.version = PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG) ? t->tp_version_tag : 0;
                return PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG) ? e.offset : -1;
            }
        }
        const Py_ssize_t off = lookup(t, name);
        if (n_ < kEntries / 2 && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG)) {
            Py_INCREF(t);  // kept: an entry never outlives its type
            Py_INCREF(name);
            entries_[i] = Entry{t, name, t->tp_version_tag, off};  // i: the free slot the probe stopped at
            ++n_;
        }
        return off;
    }

    static Py_ssize_t lookup(PyTypeObject *t, PyObject *name) {
        if (!PyType_HasFeature(t, Py_TPFLAGS_HEAPTYPE) || !PyUnicode_CheckExact(name)) return -1;
        PyObject *d = _PyType_Lookup(t, name);  // borrowed; assigns the type a version tag
        if (d == nullptr || Py_TYPE(d) != &PyMemberDescr_Type) return -1;
        const PyMemberDef *m = reinterpret_cast<PyMemberDescrObject *>(d)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY) || m->offset <= 0) return -1;
        return m->offset;
    }
};

// The process-wide cache (GIL held by every caller).
inline SlotCache &slot_cache() {
    static SlotCache *cache = new SlotCache();  // never destroyed: entries hold type references
    return *cache;
}

}  // namespace pyasc_npu

#endif  // PYASC_NPU_SLOTS_H_
