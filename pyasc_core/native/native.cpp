// pyasc_core._native: small C++ helpers for the Python core.
//
//   build_info()                        -> dict of facts about this build
//   to_dlpack(array, versioned=False)   -> DLPack capsule viewing a NumPy array (no copy)
//   from_dlpack(capsule)                -> (ndarray viewing the tensor, is_bfloat16)
//   OpCall, op_call_setup(...)          -> the op dispatcher's call in C (op_call.cpp)
//   empty, empty_setup(...)             -> pyasc.empty's hot path in C (empty_call.cpp)
//
// DLPack is needed because NumPy refuses to export ml_dtypes.bfloat16 arrays; one path serves
// every dtype. The DLPack declarations below are written from the public DLPack specification
// (v1.0); their layout is the spec's C ABI and must not be reordered.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;

// ---------------------------------------------------------------------------------------------
// DLPack ABI (public specification, v1.0)
// ---------------------------------------------------------------------------------------------
extern "C" {

typedef enum : int32_t {
    kDLCPU = 1,
    kDLCUDA = 2,
    kDLCUDAHost = 3,
    kDLOpenCL = 4,
    kDLVulkan = 7,
    kDLMetal = 8,
    kDLVPI = 9,
    kDLROCM = 10,
    kDLROCMHost = 11,
    kDLExtDev = 12,
    kDLCUDAManaged = 13,
    kDLOneAPI = 14,
    kDLWebGPU = 15,
    kDLHexagon = 16,
    kDLMAIA = 17,
} DLDeviceType;

typedef struct {
    DLDeviceType device_type;
    int32_t device_id;
} DLDevice;

typedef enum {
    kDLInt = 0U,
    kDLUInt = 1U,
    kDLFloat = 2U,
    kDLOpaqueHandle = 3U,
    kDLBfloat = 4U,
    kDLComplex = 5U,
    kDLBool = 6U,
} DLDataTypeCode;

typedef struct {
    uint8_t code;  // a DLDataTypeCode
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;  // in elements, not bytes
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

}  // extern "C"

// Layout checks against the spec's ABI (LP64 / LLP64 alike).
static_assert(sizeof(DLDevice) == 8, "DLDevice ABI");
static_assert(sizeof(DLDataType) == 4, "DLDataType ABI");
static_assert(offsetof(DLTensor, device) == sizeof(void *), "DLTensor ABI");
static_assert(offsetof(DLTensor, shape) == sizeof(void *) + 16, "DLTensor ABI");
static_assert(offsetof(DLManagedTensor, manager_ctx) == sizeof(DLTensor), "DLManagedTensor ABI");
static_assert(offsetof(DLManagedTensorVersioned, manager_ctx) == 8, "DLManagedTensorVersioned ABI");
static_assert(offsetof(DLManagedTensorVersioned, flags) == 8 + 2 * sizeof(void *),
              "DLManagedTensorVersioned ABI");
static_assert(offsetof(DLManagedTensorVersioned, dl_tensor) ==
                  offsetof(DLManagedTensorVersioned, flags) + 8,
              "DLManagedTensorVersioned ABI");

namespace {

constexpr const char *kCapsuleName = "dltensor";
constexpr const char *kUsedCapsuleName = "used_dltensor";
constexpr const char *kVersionedCapsuleName = "dltensor_versioned";
constexpr const char *kUsedVersionedCapsuleName = "used_dltensor_versioned";
constexpr const char *kSupportedDtypes =
    "bool, int8, int16, int32, int64, uint8, float16, float32, float64, bfloat16";

// Per managed-tensor type: the capsule name and how to fill the versioned header.
template <typename Managed>
struct CapsuleTraits;

template <>
struct CapsuleTraits<DLManagedTensor> {
    static constexpr const char *name = kCapsuleName;
    static void set_version(DLManagedTensor &, bool) {}
};

template <>
struct CapsuleTraits<DLManagedTensorVersioned> {
    static constexpr const char *name = kVersionedCapsuleName;
    static void set_version(DLManagedTensorVersioned &m, bool read_only) {
        m.version = DLPackVersion{1, 0};
        m.flags = read_only ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
    }
};

// ---------------------------------------------------------------------------------------------
// build_info
// ---------------------------------------------------------------------------------------------
#define PYASC_STR_(x) #x
#define PYASC_STR(x) PYASC_STR_(x)

// Compiler id and version from its predefined macros, e.g. "GCC 12.2.0".
std::string compiler_string() {
#if defined(__INTEL_LLVM_COMPILER)
    return "IntelLLVM " PYASC_STR(__INTEL_LLVM_COMPILER);
#elif defined(__clang__) && defined(__apple_build_version__)
    return "AppleClang " PYASC_STR(__clang_major__) "." PYASC_STR(__clang_minor__) "." PYASC_STR(
        __clang_patchlevel__);
#elif defined(__clang__)
    return "Clang " PYASC_STR(__clang_major__) "." PYASC_STR(__clang_minor__) "." PYASC_STR(
        __clang_patchlevel__);
#elif defined(__GNUC__)
    return "GCC " PYASC_STR(__GNUC__) "." PYASC_STR(__GNUC_MINOR__) "." PYASC_STR(
        __GNUC_PATCHLEVEL__);
#elif defined(_MSC_VER)
    return "MSVC " PYASC_STR(_MSC_FULL_VER);
#else
    return "unknown";
#endif
}

// Target platform in the style of sysconfig.get_platform(), e.g. "linux-x86_64".
std::string platform_string() {
#if defined(__linux__)
    std::string os = "linux";
#elif defined(__APPLE__)
    std::string os = "darwin";
#elif defined(_WIN32)
    std::string os = "windows";
#elif defined(__FreeBSD__)
    std::string os = "freebsd";
#else
    std::string os = "unknown";
#endif
#if defined(__x86_64__) || defined(_M_X64)
    const char *arch = "x86_64";
#elif defined(__aarch64__) || defined(_M_ARM64)
    const char *arch = "aarch64";
#elif defined(__i386__) || defined(_M_IX86)
    const char *arch = "x86";
#elif defined(__arm__) || defined(_M_ARM)
    const char *arch = "arm";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
    const char *arch = "ppc64le";
#elif defined(__s390x__)
    const char *arch = "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
    const char *arch = "riscv64";
#elif defined(__loongarch64)
    const char *arch = "loongarch64";
#else
    const char *arch = "unknown";
#endif
    return os + "-" + arch;
}

// Facts about how this extension was built (compiler, C++ standard, pybind11, build type, ...).
py::dict build_info() {
#if defined(_MSVC_LANG)
    const long cxx_standard = _MSVC_LANG;  // MSVC reports 199711L in __cplusplus by default
#else
    const long cxx_standard = __cplusplus;
#endif
#ifdef PYASC_VERSION_INFO
    std::string version = PYASC_VERSION_INFO;
    if (version.empty()) version = "unknown";  // a CMake build outside scikit-build-core
#else
    std::string version = "unknown";
#endif
    py::dict info;
    info["compiler"] = compiler_string();
    info["cxx_standard"] = cxx_standard;
    info["pybind11"] = PYASC_STR(PYBIND11_VERSION_MAJOR) "." PYASC_STR(
        PYBIND11_VERSION_MINOR) "." PYASC_STR(PYBIND11_VERSION_PATCH);
#ifdef NDEBUG
    info["build_type"] = "Release";
#else
    info["build_type"] = "Debug";
#endif
    info["version"] = version;
    info["platform"] = platform_string();
    return info;
}

// ---------------------------------------------------------------------------------------------
// to_dlpack: NumPy array -> DLPack capsule
// ---------------------------------------------------------------------------------------------

// What the producer allocates per export (its manager_ctx): the managed tensor, storage for its
// shape and strides, and a strong reference to the array.
template <typename Managed>
struct Export {
    Managed managed{};
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    PyObject *array = nullptr;  // owned reference, released by the deleter

    // The managed tensor's deleter. A consumer may call it from any thread, with or without
    // the GIL: take the GIL before dropping the array reference.
    static void deleter(Managed *self) {
        auto *ctx = static_cast<Export *>(self->manager_ctx);
        if (ctx == nullptr) return;
        if (!Py_IsInitialized()) {  // interpreter gone: the array is gone too; leak the ctx
            return;
        }
        PyGILState_STATE gil = PyGILState_Ensure();
        {
            py::error_scope keep_error;  // do not clobber an exception in flight
            Py_XDECREF(ctx->array);
            delete ctx;
        }
        PyGILState_Release(gil);
    }

    // Capsule destructor (runs with the GIL): call the deleter only if no consumer took the
    // tensor, i.e. the capsule still has its original name (consumers rename it "used_...").
    static void capsule_destructor(PyObject *capsule) {
        if (!PyCapsule_IsValid(capsule, CapsuleTraits<Managed>::name)) return;
        py::error_scope keep_error;
        auto *m =
            static_cast<Managed *>(PyCapsule_GetPointer(capsule, CapsuleTraits<Managed>::name));
        if (m != nullptr && m->deleter != nullptr) m->deleter(m);
    }
};

// The DLPack dtype of a NumPy dtype, or TypeError naming it and the supported dtypes.
DLDataType dlpack_dtype(const py::dtype &dt) {
    const char kind = dt.kind();
    const auto itemsize = dt.itemsize();
    const auto bits = static_cast<uint8_t>(itemsize * 8);
    const std::string name = py::str(dt);
    const bool int_size = itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8;
    const bool float_size = itemsize == 2 || itemsize == 4 || itemsize == 8;
    int code = -1;
    if (kind == 'b' && itemsize == 1) {
        code = kDLBool;
    } else if (kind == 'i' && int_size) {
        code = kDLInt;
    } else if (kind == 'u' && itemsize == 1) {
        code = kDLUInt;
    } else if (kind == 'f' && float_size) {
        code = kDLFloat;
    } else if (kind == 'V' && itemsize == 2 &&
               py::str(dt.attr("name")).cast<std::string>() == "bfloat16") {
        code = kDLBfloat;  // ml_dtypes.bfloat16
    }
    if (code < 0) {
        throw py::type_error("to_dlpack: unsupported dtype '" + name +
                             "'; supported dtypes: " + kSupportedDtypes);
    }
    if (!dt.attr("isnative").cast<bool>()) {
        throw py::type_error("to_dlpack: dtype '" + name +
                             "' is not in native byte order, which DLPack requires; convert with "
                             "array.astype(array.dtype.newbyteorder('='))");
    }
    return DLDataType{static_cast<uint8_t>(code), bits, 1};
}

// Fill and wrap one export of `arr` as a capsule of the given managed-tensor type.
template <typename Managed>
py::capsule make_capsule(const py::array &arr, DLDataType dtype) {
    using Ctx = Export<Managed>;
    const auto ndim = static_cast<size_t>(arr.ndim());
    const auto itemsize = arr.itemsize();
    auto ctx = std::make_unique<Ctx>();
    ctx->shape.resize(ndim);
    ctx->strides.resize(ndim);
    const py::ssize_t *shape = arr.shape();
    const py::ssize_t *byte_strides = arr.strides();
    for (size_t i = 0; i < ndim; ++i) {
        const py::ssize_t extent = shape[i];
        const py::ssize_t byte_stride = byte_strides[i];
        // A stride along an axis of extent <= 1 is never used, so any value is harmless there.
        if (extent > 1 && byte_stride % itemsize != 0) {
            throw py::value_error("to_dlpack: byte stride " + std::to_string(byte_stride) +
                                  " of axis " + std::to_string(i) +
                                  " is not a multiple of the itemsize " + std::to_string(itemsize) +
                                  "; DLPack strides count elements (copy the array first)");
        }
        ctx->shape[i] = extent;
        ctx->strides[i] = byte_stride / itemsize;
    }
    DLTensor &t = ctx->managed.dl_tensor;
    t.data = const_cast<void *>(arr.data());
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = static_cast<int32_t>(ndim);
    t.dtype = dtype;
    t.shape = ctx->shape.data();
    t.strides = ctx->strides.data();
    t.byte_offset = 0;
    CapsuleTraits<Managed>::set_version(ctx->managed, !arr.writeable());
    ctx->managed.manager_ctx = ctx.get();
    ctx->managed.deleter = &Ctx::deleter;

    PyObject *capsule =
        PyCapsule_New(&ctx->managed, CapsuleTraits<Managed>::name, &Ctx::capsule_destructor);
    if (capsule == nullptr) throw py::error_already_set();
    ctx->array = arr.inc_ref().ptr();  // the capsule now owns ctx, and ctx owns the array
    ctx.release();
    return py::reinterpret_steal<py::capsule>(capsule);
}

// Export a NumPy array as a DLPack capsule ("dltensor" or "dltensor_versioned"), without copying.
py::capsule to_dlpack(const py::object &obj, bool versioned) {
    if (!py::isinstance<py::array>(obj)) {
        throw py::type_error(std::string("to_dlpack: expected a numpy.ndarray, got ") +
                             Py_TYPE(obj.ptr())->tp_name);
    }
    auto arr = py::reinterpret_borrow<py::array>(obj);
    const DLDataType dtype = dlpack_dtype(arr.dtype());
    return versioned ? make_capsule<DLManagedTensorVersioned>(arr, dtype)
                     : make_capsule<DLManagedTensor>(arr, dtype);
}

// ---------------------------------------------------------------------------------------------
// from_dlpack: DLPack capsule -> NumPy array
// ---------------------------------------------------------------------------------------------

std::string device_type_name(int32_t type) {
    switch (type) {
        case kDLCPU: return "kDLCPU (1)";
        case kDLCUDA: return "kDLCUDA (2)";
        case kDLCUDAHost: return "kDLCUDAHost (3)";
        case kDLOpenCL: return "kDLOpenCL (4)";
        case kDLVulkan: return "kDLVulkan (7)";
        case kDLMetal: return "kDLMetal (8)";
        case kDLVPI: return "kDLVPI (9)";
        case kDLROCM: return "kDLROCM (10)";
        case kDLROCMHost: return "kDLROCMHost (11)";
        case kDLExtDev: return "kDLExtDev (12)";
        case kDLCUDAManaged: return "kDLCUDAManaged (13)";
        case kDLOneAPI: return "kDLOneAPI (14)";
        case kDLWebGPU: return "kDLWebGPU (15)";
        case kDLHexagon: return "kDLHexagon (16)";
        case kDLMAIA: return "kDLMAIA (17)";
        default: return "device type " + std::to_string(type);
    }
}

// The NumPy dtype for a DLPack dtype; bfloat16 comes back as uint16 with *is_bf16 set.
py::dtype numpy_dtype(DLDataType dt, bool *is_bf16) {
    *is_bf16 = false;
    const char *name = nullptr;
    if (dt.lanes == 1) {
        switch (dt.code) {
            case kDLInt:
                name = dt.bits == 8    ? "int8"
                       : dt.bits == 16 ? "int16"
                       : dt.bits == 32 ? "int32"
                       : dt.bits == 64 ? "int64"
                                       : nullptr;
                break;
            case kDLUInt: name = dt.bits == 8 ? "uint8" : nullptr; break;
            case kDLFloat:
                name = dt.bits == 16   ? "float16"
                       : dt.bits == 32 ? "float32"
                       : dt.bits == 64 ? "float64"
                                       : nullptr;
                break;
            case kDLBfloat:
                name = dt.bits == 16 ? "uint16" : nullptr;
                *is_bf16 = name != nullptr;
                break;
            case kDLBool: name = dt.bits == 8 ? "bool" : nullptr; break;
            default: break;
        }
    }
    if (name == nullptr) {
        throw py::type_error(
            "from_dlpack: unsupported DLPack dtype (code=" + std::to_string(dt.code) +
            ", bits=" + std::to_string(dt.bits) + ", lanes=" + std::to_string(dt.lanes) +
            "); supported dtypes: " + kSupportedDtypes);
    }
    return py::dtype(name);
}

// Owner of a consumed managed tensor: the array's base; calls the producer's deleter when freed.
template <typename Managed>
void release_managed(void *ptr) {
    auto *m = static_cast<Managed *>(ptr);
    if (m->deleter != nullptr) m->deleter(m);
}

// Consume a "dltensor" / "dltensor_versioned" capsule on kDLCPU into (ndarray, is_bfloat16).
std::tuple<py::array, bool> from_dlpack(const py::object &obj) {
    if (!PyCapsule_CheckExact(obj.ptr())) {
        throw py::type_error(std::string("from_dlpack: expected a DLPack PyCapsule, got ") +
                             Py_TYPE(obj.ptr())->tp_name);
    }
    PyObject *capsule = obj.ptr();
    const bool versioned = PyCapsule_IsValid(capsule, kVersionedCapsuleName) != 0;
    if (!versioned && !PyCapsule_IsValid(capsule, kCapsuleName)) {
        const char *name = PyCapsule_GetName(capsule);
        PyErr_Clear();
        const std::string shown = name ? std::string("'") + name + "'" : "None";
        if (name && (std::string(name) == kUsedCapsuleName ||
                     std::string(name) == kUsedVersionedCapsuleName)) {
            throw py::value_error(
                "from_dlpack: this DLPack capsule was already consumed (its name is " + shown +
                ")");
        }
        throw py::value_error(
            "from_dlpack: expected a capsule named 'dltensor' or 'dltensor_versioned', got " +
            shown);
    }

    void *managed = nullptr;
    DLTensor *t = nullptr;
    bool read_only = false;
    if (versioned) {
        auto *m = static_cast<DLManagedTensorVersioned *>(
            PyCapsule_GetPointer(capsule, kVersionedCapsuleName));
        if (m == nullptr) throw py::error_already_set();
        if (m->version.major != 1) {  // a later major version may change everything below
            throw py::value_error("from_dlpack: unsupported DLPack version " +
                                  std::to_string(m->version.major) + "." +
                                  std::to_string(m->version.minor) + " (supported: 1.x)");
        }
        managed = m;
        t = &m->dl_tensor;
        read_only = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    } else {
        auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, kCapsuleName));
        if (m == nullptr) throw py::error_already_set();
        managed = m;
        t = &m->dl_tensor;
    }

    // Validate everything before taking ownership, so a refused capsule stays the producer's.
    if (t->device.device_type != kDLCPU) {
        throw py::value_error("from_dlpack: the tensor is on " +
                              device_type_name(t->device.device_type) +
                              ", only kDLCPU (1) host memory can be viewed as a NumPy array");
    }
    bool is_bf16 = false;
    py::dtype dt = numpy_dtype(t->dtype, &is_bf16);
    const auto itemsize = static_cast<py::ssize_t>(dt.itemsize());
    if (t->ndim < 0 || (t->ndim > 0 && t->shape == nullptr)) {
        throw py::value_error("from_dlpack: malformed DLTensor (ndim=" + std::to_string(t->ndim) +
                              ", shape=" + (t->shape ? "set" : "NULL") + ")");
    }
    const auto ndim = static_cast<size_t>(t->ndim);
    std::vector<py::ssize_t> shape(ndim), strides(ndim);
    py::ssize_t size = 1;
    for (size_t i = 0; i < ndim; ++i) {
        if (t->shape[i] < 0)
            throw py::value_error("from_dlpack: negative extent in DLTensor shape");
        shape[i] = static_cast<py::ssize_t>(t->shape[i]);
        size *= shape[i];
    }
    py::ssize_t contiguous = itemsize;  // NULL strides mean compact row-major
    for (size_t i = ndim; i-- > 0;) {
        strides[i] = t->strides ? static_cast<py::ssize_t>(t->strides[i]) * itemsize : contiguous;
        contiguous *= shape[i];
    }
    if (t->data == nullptr && size != 0) {
        throw py::value_error("from_dlpack: DLTensor has NULL data but " + std::to_string(size) +
                              " elements");
    }
    void *data = static_cast<char *>(t->data) + t->byte_offset;

    // Take ownership: the owner capsule calls the deleter once the array (its only holder) dies.
    py::capsule owner = versioned ? py::capsule(managed, &release_managed<DLManagedTensorVersioned>)
                                  : py::capsule(managed, &release_managed<DLManagedTensor>);
    PyCapsule_SetName(capsule, versioned ? kUsedVersionedCapsuleName : kUsedCapsuleName);
    // With NULL data (an empty tensor) NumPy allocates; the owner then just runs the deleter.
    py::array result(dt, shape, strides, t->data ? data : nullptr, owner);
    if (read_only) result.attr("setflags")(py::arg("write") = false);
    return {std::move(result), is_bf16};
}

}  // namespace

void bind_op_call(py::module_ &m);  // op_call.cpp
void bind_empty(py::module_ &m);    // empty_call.cpp

PYBIND11_MODULE(_native, m) {
    m.doc() =
        "pyasc_core._native: build facts and DLPack export/import of NumPy arrays "
        "(including ml_dtypes.bfloat16).";
    m.def(
        "build_info", &build_info,
        "Facts about this build: compiler, cxx_standard, pybind11, build_type, version, platform.");
    m.def("to_dlpack", &to_dlpack, py::arg("array"), py::arg("versioned") = false,
          "Export a NumPy array (bool, int8/16/32/64, uint8, float16/32/64 or\n"
          "ml_dtypes.bfloat16) as a DLPack capsule viewing its memory without a copy:\n"
          "'dltensor' (DLManagedTensor) or, with versioned=True, 'dltensor_versioned'\n"
          "(DLManagedTensorVersioned 1.0, READ_ONLY flag set for a non-writeable array).\n"
          "The capsule keeps the array alive until it is consumed and released, or\n"
          "destroyed unconsumed.");
    m.def("from_dlpack", &from_dlpack, py::arg("capsule"),
          "Consume a 'dltensor' or 'dltensor_versioned' capsule of a kDLCPU tensor and\n"
          "return (array, is_bfloat16): an ndarray viewing the same memory (bfloat16 as\n"
          "uint16; view it as ml_dtypes.bfloat16 when is_bfloat16 is True). The producer's\n"
          "deleter runs when the array is garbage collected.");
    bind_op_call(m);
    bind_empty(m);
}
