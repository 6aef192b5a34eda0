// Ascend C on the CPU -- GlobalTensor (global memory) and LocalTensor (a core's buffers).
#ifndef PYASC_SIM_KAPI_TENSOR_H_
#define PYASC_SIM_KAPI_TENSOR_H_

#include <utility>

#include "pyasc_sim/kapi/l2_cache.h"
#include "pyasc_sim/kapi/local_addr.h"
#include "pyasc_sim/kapi/state.h"

namespace AscendC {

template <typename T>
class LocalTensor;

// A view of global memory.  SetGlobalBuffer(ptr, size) gives it a size in elements; every
// access through the API is checked against that size and against the device allocation.
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    GlobalTensor() = default;

    void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize) {
        addr_ = buffer;
        origin_ = buffer;
        size_ = bufferSize;
        total_ = bufferSize;
        sized_ = true;
    }
    void SetGlobalBuffer(__gm__ T *buffer) {
        addr_ = buffer;
        origin_ = buffer;
        size_ = 0;
        total_ = 0;
        sized_ = false;
    }

    __gm__ T *GetPhyAddr() const { return addr_; }
    __gm__ T *GetPhyAddr(const uint64_t offset) const { return addr_ + offset; }
    uint64_t GetSize() const { return size_; }

    GlobalTensor operator[](const uint64_t offset) const {
        GlobalTensor r = *this;
        r.addr_ = addr_ + offset;
        r.size_ = offset <= size_ ? size_ - offset : 0;
        return r;
    }

    T GetValue(const uint64_t offset, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        // the first load of a line this core invalidated (DataCacheCleanAndInvalid): a flag poll, whose
        // read is recorded after its acquire (kapi/gm_poll.h)
        const uint64_t a = reinterpret_cast<uintptr_t>(addr_ + offset);
        const bool poll = b.checks && b.xrace && pyasc_sim::kapi::gm_poll_getvalue(b, a, sizeof(T));
        const bool mute = b.xmute;
        b.xmute = mute || poll;
        check(offset, 1, false, "GetValue reads", loc);
        b.xmute = mute;
        pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeS, pyasc_sim::cost::kScalarGmCycles);
        const T v = addr_[offset];
        if (poll && !mute) pyasc_sim::kapi::gm_poll_observed(b, a, sizeof(T), &v, loc);
        return v;
    }
    // A scalar store through the core's data cache.  SetAtomicAdd / Max / Min apply to DMA moves to
    // GM (DataCopy, Fixpipe), not to this: under them the value still overwrites GM, as on hardware
    // (warning 'setvalue-not-atomic': a kernel doing this usually expects accumulation), and the store
    // counts as a plain write for gm-cross-core-race.
    void SetValue(const uint64_t offset, const pyasc_sim::kapi::ident_t<T> &value,
                  pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        const int atomic = b.atomic_op;
        if (atomic != 0 && b.checks) {
            static const char *const kOps[] = {"", "Add", "Max", "Min"};
            pyasc_sim::kapi::warn("setvalue-not-atomic", loc,
                                  "GlobalTensor::SetValue(%llu, ...) under SetAtomic%s: SetValue is a scalar store "
                                  "through the core's data cache, not an atomic move, so it overwrites the GM value "
                                  "(no %s). Accumulate with DataCopy from a local tensor, or call SetAtomicNone() "
                                  "before SetValue",
                                  static_cast<unsigned long long>(offset), kOps[atomic & 3],
                                  atomic == 1 ? "addition" : "max/min");
        }
        b.atomic_op = 0;  // a plain write for the cross-core checks
        // every SoC: each AIC / AIV core has its own data cache, whose 64-byte line is written back
        // whole (SetValue page, every product; kernel API README, gm-cache-line-share)
        b.gm_scalar = true;
        check(offset, 1, true, "SetValue writes", loc);
        b.gm_scalar = false;
        b.atomic_op = atomic;
        pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeS, pyasc_sim::cost::kScalarGmCycles);
        if (b.checks) pyasc_sim::kapi::gm_poll_store(b, reinterpret_cast<uintptr_t>(addr_ + offset), sizeof(T));
        pyasc_sim::kapi::poll_gm_written(b);  // not a poll round (gm_poll_yield.h)
        addr_[offset] = value;
    }
    T &operator()(const uint64_t offset) const { return addr_[offset]; }

    // The documented L2 cache hint (kapi/l2_cache.h): the simulator has no L2 cache, so nothing changes.
    template <CacheRwMode rwMode = CacheRwMode::RW>
    void SetL2CacheHint(CacheMode mode) const { (void)mode; }

    // Checks an access of `count` elements starting `offset` elements after GetPhyAddr():
    // within the GlobalTensor's size (when set) and inside a live device allocation.
    // Records writes for the cross-core overlap check.
    void check(uint64_t offset, uint64_t count, bool write, const char *what,
               const pyasc_sim::kapi::SrcLoc &loc) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        if (!b.checks || count == 0) return;
        const T *p = addr_ + offset;
        if (addr_ == nullptr) {
            pyasc_sim::kapi::fail("gm-out-of-bounds", loc, "%s %llu elements through a GlobalTensor whose buffer was "
                                  "never set (call SetGlobalBuffer first)", what, static_cast<unsigned long long>(count));
        }
        if (sized_) {
            const int64_t start = p - origin_;
            if (start < 0 || static_cast<uint64_t>(start) + count > total_) past_size(p, start, count, write, what, loc);
        }
        pyasc_sim::kapi::check_gm_alloc(p, count * sizeof(T), what, loc, origin_);
        if (!write && b.gm_uninit != nullptr) check_initialised(p, count, what, loc);
        const uint64_t a = reinterpret_cast<uintptr_t>(p);
        if (write) {
            pyasc_sim::kapi::record_write(a, a + count * sizeof(T), loc, !b.gm_scalar);
        } else if (b.xrace && std::strstr(what, "write") == nullptr) {  // bounds checks of writes come here too
            pyasc_sim::kapi::record_read(a, a + count * sizeof(T), loc);
        }
    }
    // An access outside [0, size) of a sized GlobalTensor (SetGlobalBuffer(ptr, size)). The reference
    // defines bufferSize as the elements the tensor contains (SetGlobalBuffer page), but the NPU bounds
    // nothing by it: Huawei's own checks bound GM accesses by allocations (msSanitizer memcheck's illegal
    // read / write: "unallocated memory"; the kernel library's ASCENDC_OOM check: the launch's argument
    // ranges). So a *read* that stays inside the memory block the tensor points into is a warning
    // (gm-read-past-size): the hardware reads those bytes and nothing is corrupted; the bytes themselves
    // are still checked after it (gm-uninit-read, gm-cross-core-race when another block writes them).
    // A write past the size, or any access leaving the block, is the error gm-out-of-bounds (on hardware
    // a write lands in whatever owns those bytes, e.g. another core's slice).
    __attribute__((noinline, cold)) void past_size(const T *p, int64_t start, uint64_t count, bool write,
                                                   const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        uint64_t base = 0, end = 0;
        const uint64_t a0 = reinterpret_cast<uintptr_t>(p);
        const bool inside =
            pyasc_sim::kapi::gm_block_of(origin_, base, end) && a0 >= base && a0 + count * sizeof(T) <= end;
        const long long past = static_cast<long long>(start + static_cast<int64_t>(count) - static_cast<int64_t>(total_));
        if (inside && !write && std::strstr(what, "write") == nullptr) {
            pyasc_sim::kapi::warn(
                "gm-read-past-size", loc,
                "%s elements [%lld, %lld) (%llu bytes at global address %p) of a GlobalTensor of %llu elements "
                "(SetGlobalBuffer(%p, %llu)): %lld elements past its end, inside the memory block [0x%llx, 0x%llx) "
                "it points into. The NPU does not bound a GlobalTensor by its size, so the read gets those bytes "
                "and changes nothing (another block's writes there are still checked as gm-cross-core-race, "
                "never-written bytes as gm-uninit-read); the reference's bufferSize is the number of elements the "
                "tensor contains, so declare them in SetGlobalBuffer",
                what, static_cast<long long>(start), static_cast<long long>(start + static_cast<int64_t>(count)),
                static_cast<unsigned long long>(count * sizeof(T)), static_cast<const void *>(p),
                static_cast<unsigned long long>(total_), static_cast<const void *>(origin_),
                static_cast<unsigned long long>(total_), past, static_cast<unsigned long long>(base),
                static_cast<unsigned long long>(end));
            return;
        }
        // A write that still lies inside the memory the GlobalTensor points into is not caught by the NPU
        // (it has no size check): say so, since the usual cause is a size declared too small.
        char hint[320] = "";
        if (inside) {
            std::snprintf(hint, sizeof(hint),
                          "; the access stays inside the memory block [0x%llx, 0x%llx) it points into: the "
                          "NPU does not check a GlobalTensor's size, so there it touches those bytes, which "
                          "is right only if this block owns them (not another core's slice) -- if the tensor "
                          "really holds them, declare them in SetGlobalBuffer",
                          static_cast<unsigned long long>(base), static_cast<unsigned long long>(end));
        }
        pyasc_sim::kapi::fail(
            "gm-out-of-bounds", loc,
            "%s elements [%lld, %lld) (%llu bytes at global address %p) of a GlobalTensor of %llu elements "
            "(SetGlobalBuffer(%p, %llu)): %lld elements past its end%s",
            what, static_cast<long long>(start), static_cast<long long>(start + static_cast<int64_t>(count)),
            static_cast<unsigned long long>(count * sizeof(T)), static_cast<const void *>(p),
            static_cast<unsigned long long>(total_), static_cast<const void *>(origin_),
            static_cast<unsigned long long>(total_), past, hint);
    }
    // Initcheck: a read of bytes never written since the tensor was allocated (bounds-only
    // checks of a write range also come here: their `what` says "writes").
    void check_initialised(const T *p, uint64_t count, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        const uint64_t a = reinterpret_cast<uintptr_t>(p);
        const uint64_t u = pyasc_sim::kapi::gm_first_uninit(a, a + count * sizeof(T));
        if (u == 0 || std::strstr(what, "write") != nullptr) return;
        pyasc_sim::kapi::fail(
            "gm-uninit-read", loc,
            "%s %llu bytes at global address %p: byte 0x%llx (offset %llu) was never written since its tensor was "
            "allocated (an empty() tensor, or an output read before anything wrote it); on hardware the kernel reads "
            "whatever the memory held before. Initialise it first (copy data in, fill it, or write it in the kernel)",
            what, static_cast<unsigned long long>(count * sizeof(T)), static_cast<const void *>(p),
            static_cast<unsigned long long>(u), static_cast<unsigned long long>(u - a));
    }
    // Byte-granular variant (DataCopyPad bursts).
    void check_bytes(uint64_t byte_offset, uint64_t bytes, bool write, const char *what,
                     const pyasc_sim::kapi::SrcLoc &loc) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        if (!b.checks || bytes == 0) return;
        const uint64_t first = byte_offset / sizeof(T);
        const uint64_t last = (byte_offset + bytes + sizeof(T) - 1) / sizeof(T);
        if (write) {
            // check bounds without recording whole elements, then record the exact bytes
            check(first, last - first, false, what, loc);
            const uint64_t a = reinterpret_cast<uintptr_t>(addr_) + byte_offset;
            pyasc_sim::kapi::record_write(a, a + bytes, loc, !b.gm_scalar);
        } else {
            check(first, last - first, false, what, loc);
        }
    }

    // Records bytes [byte_offset, byte_offset + bytes) as written by the instruction at `loc`
    // (bounds already checked).
    void sim_record(uint64_t byte_offset, uint64_t bytes, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (!pyasc_sim::kapi::blk().checks) return;
        const uint64_t a = reinterpret_cast<uintptr_t>(addr_) + byte_offset;
        pyasc_sim::kapi::record_write(a, a + bytes, loc, !pyasc_sim::kapi::blk().gm_scalar);
    }

private:
    T *addr_ = nullptr;
    T *origin_ = nullptr;
    uint64_t size_ = 0;
    uint64_t total_ = 0;
    bool sized_ = false;
};

// A view of a core's local memory (UB, L1, L0A/B/C) obtained from a TQue or TBuf.
template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;
    LocalTensor(T *ptr, uint32_t size, TPosition pos, uint8_t *buf_begin, uint8_t *buf_end)
        : ptr_(ptr), size_(size), pos_(pos), buf_begin_(buf_begin), buf_end_(buf_end) {}
    // Static tensor programming (reference page "LocalTensor构造函数", atlasascendc_api_07_00101):
    // tileSize elements at byte address addr of the physical memory behind `pos`; addr must be
    // 32-byte aligned and addr + tileSize * sizeof(T) must stay inside that memory.
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize,
                pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc())
        : size_(tileSize), pos_(pos) {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        const int k = pyasc_sim::kapi::mem_of(pos);
        if (k < 0) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                  "LocalTensor(TPosition::%s, addr %u, tileSize %u): position %d is not a local "
                                  "memory; use VECIN / VECOUT / VECCALC (UB), A1 / B1 (L1), A2 / B2 / CO1 (L0)",
                                  pyasc_sim::kapi::pos_name(pos), addr, tileSize, static_cast<int>(pos));
        }
        const uint64_t bytes = static_cast<uint64_t>(tileSize) * sizeof(T);
        if (addr % 32 != 0) {
            pyasc_sim::kapi::fail("ub-alignment", loc,
                                  "LocalTensor(TPosition::%s, addr %u, tileSize %u): addr must be 32-byte aligned",
                                  pyasc_sim::kapi::pos_name(pos), addr, tileSize);
        }
        if (addr + bytes > b.capacity[k]) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                  "LocalTensor(TPosition::%s, addr %u, tileSize %u): %llu bytes end past the "
                                  "%zu-byte memory (%s)",
                                  pyasc_sim::kapi::pos_name(pos), addr, tileSize,
                                  static_cast<unsigned long long>(addr + bytes), b.capacity[k],
                                  pyasc_sim::kapi::mem_name(k));
        }
        uint8_t *base = b.memory(k);
        ptr_ = reinterpret_cast<T *>(base + addr);
        buf_begin_ = base + addr;
        buf_end_ = base + addr + bytes;
    }

    LocalTensor operator[](const uint32_t offset) const {
        LocalTensor r = *this;
        r.ptr_ = ptr_ + offset;
        r.size_ = offset <= size_ ? size_ - offset : 0;
        return r;
    }
    // (check_access directly, as check() would by the description: one block lookup, no strstr)
    T GetValue(const uint32_t index, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        const int64_t at = static_cast<int64_t>(index) * static_cast<int64_t>(sizeof(T));
        // checks off: check_access only notes the line for the timeline
        if (!b.checks || !scalar_read_checked(b, at, loc)) check_access(b, at, sizeof(T), kRead, "GetValue reads", loc);
        pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeS, pyasc_sim::cost::kScalarLocalCycles);
        return ptr_[index];
    }
    void SetValue(const uint32_t index, const pyasc_sim::kapi::ident_t<T> &value,
                  pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        check_access(b, static_cast<int64_t>(index) * static_cast<int64_t>(sizeof(T)), sizeof(T), kWrite,
                     "SetValue writes", loc);
        pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeS, pyasc_sim::cost::kScalarLocalCycles);
        ptr_[index] = value;
    }
    // The documented scalar access (S pipe) returns a reference, read or assigned through (`t(i) = v`, as the
    // zbal kernels fill their address tables).  The simulator cannot tell which, so the element's sector counts
    // as written for the initcheck (a later DMA read of what was assigned is no `local-uninit-read`); reads
    // through it are not checked (README, "Round 20 (s20g)").
    T &operator()(const uint32_t index) const {
        if (ptr_ != nullptr && buf_end_ != nullptr) {
            pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
            if (b.checks && kind() >= 0) {
                pyasc_sim::kapi::local_flush_pending(b);
                pyasc_sim::kapi::local_mark_written(b, kind(), mem_offset(b) + static_cast<uint64_t>(index) * sizeof(T),
                                                    sizeof(T));
            }
        }
        return ptr_[index];
    }

    uint32_t GetSize() const { return size_; }
    void SetSize(const uint32_t size) { size_ = size; }
    uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
    TPosition GetPosition() const { return pos_; }
    T *GetPhyAddr() const { return ptr_; }
    T *GetPhyAddr(const uint32_t offset) const { return ptr_ + offset; }
    void SetUserTag(int32_t tag) { tag_ = tag; }
    int32_t GetUserTag() const { return tag_; }

    // dst = src0 + src1 (and - * / | & < > <= >= == !=): see kapi/compat.h.
    template <typename E, typename = decltype(std::declval<const E &>().sim_assign(std::declval<const LocalTensor &>()))>
    LocalTensor &operator=(const E &expr) {
        expr.sim_assign(*this);
        return *this;
    }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(reinterpret_cast<U *>(ptr_), static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)), pos_,
                              buf_begin_, buf_end_);
    }

    // The SDK's internal address record (`t.address_.bufferAddr` / `.logicPos` / `.dataLen`): kapi/local_addr.h.
    [[no_unique_address]] pyasc_sim::kapi::LocalBuffAddr<LocalTensor> address_;
    // The same record as a TBuffAddr value (kapi/local_addr.h): re-points the tensor at a.bufferAddr.
    void SetAddr(const TBuffAddr &a) {
        if (a.logicPos != TBuffAddr::kUnsetPos) pos_ = static_cast<TPosition>(a.logicPos);
        ptr_ = reinterpret_cast<T *>(static_cast<uintptr_t>(a.bufferAddr));
        sim_rebind();
        const uint32_t n = static_cast<uint32_t>(a.dataLen / sizeof(T));
        if (a.dataLen != 0 && n < size_) size_ = n;
    }

    // ---- simulator internals -----------------------------------------------------------
    // address_.bufferAddr read: the host address; the bytes to the buffer's end count as written (raw
    // pointer stores are invisible to the initcheck: local_addr.h).
    uint64_t sim_raw_addr() const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        if (b.checks && ptr_ != nullptr && buf_end_ != nullptr && kind() >= 0) {
            pyasc_sim::kapi::local_flush_pending(b);
            pyasc_sim::kapi::local_mark_written(b, kind(), mem_offset(b),
                                                static_cast<uint64_t>(buf_end_ - reinterpret_cast<uint8_t *>(ptr_)));
        }
        return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr_));
    }
    // address_.bufferAddr = a: a view from a to the end of the memory of the tensor's position.
    void sim_set_raw_addr(uint64_t a) {
        ptr_ = reinterpret_cast<T *>(static_cast<uintptr_t>(a));
        sim_rebind();
    }
    uint8_t sim_pos_byte() const { return static_cast<uint8_t>(pos_); }
    void sim_set_pos_byte(uint8_t p) {
        pos_ = static_cast<TPosition>(p);
        if (ptr_ != nullptr) sim_rebind();
    }
    void sim_rebind() {
        buf_begin_ = buf_end_ = nullptr;
        size_ = 0;
        const int k = kind();
        if (k < 0 || ptr_ == nullptr) return;
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        uint8_t *base = b.memory(k);
        uint8_t *end = base + b.capacity[k];
        uint8_t *at = reinterpret_cast<uint8_t *>(ptr_);
        // A value below the memory's size is a local-memory byte address, as a `__ubuf__` pointer is on the NPU
        // (deepep's `(__ubuf__ T *)(UB_HEAD_OFFSET)` handed to address_.bufferAddr): that byte of the block's memory.
        const uint64_t raw = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr_));
        if (raw < b.capacity[k]) {
            at = base + raw;
            ptr_ = reinterpret_cast<T *>(at);
        }
        if (at < base || at >= end) return;
        buf_begin_ = base;
        buf_end_ = end;
        size_ = static_cast<uint32_t>((end - at) / static_cast<int64_t>(sizeof(T)));
    }
    T *ptr() const { return ptr_; }
    uint8_t *buf_begin() const { return buf_begin_; }
    uint8_t *buf_end() const { return buf_end_; }
    pyasc_sim::kapi::MemKind kind() const { return pyasc_sim::kapi::mem_of(pos_); }
    // Byte offset of this tensor inside its physical memory.
    uint64_t mem_offset() const { return mem_offset(pyasc_sim::kapi::blk()); }
    uint64_t mem_offset(const pyasc_sim::kapi::BlockState &b) const {
        const int k = kind();
        return (k >= 0 && b.mem[k] != nullptr) ? static_cast<uint64_t>(reinterpret_cast<uint8_t *>(ptr_) - b.mem[k])
                                               : reinterpret_cast<uintptr_t>(ptr_);
    }
    // Checks that elements [index, index + count) lie inside the buffer this tensor views.
    void check(int64_t index, int64_t count, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        check_bytes(index * static_cast<int64_t>(sizeof(T)), count * static_cast<int64_t>(sizeof(T)), what, loc);
    }
    // Initcheck by the access's description: "... writes" / an API name alone mark the bytes
    // written, "... reads" must find them written by an earlier instruction of this kernel.
    void check_bytes(int64_t byte_offset, int64_t bytes, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        const bool read = std::strstr(what, " reads") != nullptr && std::strstr(what, "write") == nullptr;
        check_access(byte_offset, bytes, read ? kRead : kWrite, what, loc);
    }
    // Vector operands: a source read of elements [index, index + count), and the destination,
    // marked written once the sources of the same instruction were checked.
    void check_read(int64_t index, int64_t count, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        check_access(index * static_cast<int64_t>(sizeof(T)), count * static_cast<int64_t>(sizeof(T)), kVecSrc, what,
                     loc);
    }
    void check_vec_dst(int64_t index, int64_t count, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        check_access(index * static_cast<int64_t>(sizeof(T)), count * static_cast<int64_t>(sizeof(T)), kVecDst, what,
                     loc);
    }
    enum Access { kWrite, kRead, kVecDst, kVecSrc, kReadSpan, kVecSrcSpan };
    // One block-state lookup per operand check (the state is thread-local: each lookup is a call).
    void check_access(int64_t byte_offset, int64_t bytes, Access mode, const char *what,
                      const pyasc_sim::kapi::SrcLoc &loc) const {
        check_access(pyasc_sim::kapi::blk(), byte_offset, bytes, mode, what, loc);
    }
    void check_access(pyasc_sim::kapi::BlockState &b, int64_t byte_offset, int64_t bytes, Access mode,
                      const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        pyasc_sim::kapi::timeline_loc(b, loc);  // the instruction's source line, for its timeline span
        if (!b.checks || bytes <= 0) return;
        bounds(byte_offset, bytes, what, loc);
        const int k = kind();
        const uint64_t off = mem_offset(b) + static_cast<uint64_t>(byte_offset);
        pyasc_sim::kapi::race(b).note(k, off, static_cast<uint64_t>(bytes), mode == kWrite || mode == kVecDst,
                                      loc.file, loc.line);
        if (mode != kVecSrc && mode != kVecSrcSpan) {
            pyasc_sim::kapi::local_flush_pending(b);
        } else {
            pyasc_sim::kapi::local_flush_pending_before_source(b, loc);
        }
        if (mode == kWrite) {
            pyasc_sim::kapi::local_mark_written(b, k, off, static_cast<uint64_t>(bytes));
            return;
        }
        if (mode == kVecDst) {
            pyasc_sim::kapi::local_defer_written(b, k, off, static_cast<uint64_t>(bytes), loc);
            return;
        }
        if (mode == kReadSpan || mode == kVecSrcSpan) return;  // the caller checks the parts it reads
        const int64_t u = mode == kVecSrc
                              ? pyasc_sim::kapi::local_vec_first_unwritten(b, k, off, static_cast<uint64_t>(bytes))
                              : pyasc_sim::kapi::local_first_unwritten(b, k, off, static_cast<uint64_t>(bytes));
        if (u >= 0) report_uninit(u, bytes, byte_offset, what, loc);
    }
    // GetValue's checks (check_access of its element as kRead, then the race detector's commit on the S pipe) in
    // one pass when none can report: bounds, the initcheck of the element's sector, the race detector's clean
    // scalar read (RaceState::scalar_read_clean), then the changes check_access makes (the previous instruction's
    // pending destination marked written); no note built or committed.  False when any test fails, nothing
    // changed but that pending destination marked written (check_access's first change in any case): the general
    // path then checks and reports.
    bool scalar_read_checked(pyasc_sim::kapi::BlockState &b, int64_t byte_offset,
                             const pyasc_sim::kapi::SrcLoc &loc) const {
        const int k = kind();
        if (ptr_ == nullptr || buf_begin_ == nullptr || k < 0 || b.mem[k] == nullptr) return false;
        const uint8_t *p = reinterpret_cast<const uint8_t *>(ptr_) + byte_offset;
        if (p < buf_begin_ || p + sizeof(T) > buf_end_) return false;
        const uint64_t off = static_cast<uint64_t>(p - b.mem[k]);
        pyasc_sim::kapi::local_flush_pending(b);
        if (pyasc_sim::kapi::local_first_unwritten(b, k, off, sizeof(T)) >= 0) return false;
        if (!pyasc_sim::kapi::race(b).scalar_read_clean(pyasc_sim::kapi::RaceState::Note(k, off, sizeof(T), false),
                                                        loc.file, loc.line)) {
            return false;
        }
        pyasc_sim::kapi::timeline_loc(b, loc);
        return true;
    }
    // Initcheck of a vector source: its first sector, and some sector of each 256-byte repeat it
    // reads (state.h, local_vec_first_unwritten).  Vector instructions legally read whole repeats
    // past the data they use (count forms that must cover whole repeats, e.g. Compare; a full mask
    // over a partly filled repeat) and ignore those lanes, which hardware tolerates; a repeat
    // nobody wrote at all is a real bug.
    void vec_init_read(int64_t byte_offset, int64_t bytes, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        if (!b.checks || bytes <= 0) return;
        const int64_t u = pyasc_sim::kapi::local_vec_first_unwritten(
            b, kind(), mem_offset(b) + static_cast<uint64_t>(byte_offset), static_cast<uint64_t>(bytes));
        if (u >= 0) report_uninit(u, bytes, byte_offset, what, loc);
    }
    // Initcheck of a read of bytes [byte_offset, byte_offset + bytes): every 32-byte sector it
    // touches must have been written by an earlier instruction of this kernel.
    void init_read(int64_t byte_offset, int64_t bytes, const char *what, const pyasc_sim::kapi::SrcLoc &loc,
                   int64_t reported = -1, int64_t reported_at = -1) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        if (!b.checks || bytes <= 0) return;
        if (reported < 0) reported = bytes;
        if (reported_at < 0) reported_at = byte_offset;
        const uint64_t off = mem_offset(b) + static_cast<uint64_t>(byte_offset);
        const int64_t u = pyasc_sim::kapi::local_first_unwritten(b, kind(), off, static_cast<uint64_t>(bytes));
        if (u >= 0) report_uninit(u, reported, reported_at, what, loc);
    }
    // Reports a read of `reported` bytes at `reported_at` (tensor byte offsets) whose memory offset u
    // no instruction of this kernel wrote.
    [[noreturn]] void report_uninit(int64_t u, int64_t reported, int64_t reported_at, const char *what,
                                    const pyasc_sim::kapi::SrcLoc &loc) const {
        const int k = kind();
        {
            pyasc_sim::kapi::fail(
                "local-uninit-read", loc,
                "%s %lld bytes at %s offset %llu, but no instruction of this kernel wrote %s offset %lld (its 32-byte "
                "sector) before: the read sees whatever an earlier kernel left in %s%s. Fill the buffer first (DataCopy, "
                "Duplicate, a vector op writing it)",
                what, static_cast<long long>(reported), pyasc_sim::kapi::mem_name(k),
                static_cast<unsigned long long>(mem_offset() + static_cast<uint64_t>(reported_at)),
                pyasc_sim::kapi::mem_name(k), static_cast<long long>(u),
                pyasc_sim::kapi::mem_name(k),
                k == pyasc_sim::kapi::kL0A || k == pyasc_sim::kapi::kL0B || k == pyasc_sim::kapi::kL0C
                    ? " (the cube carries never-written data: a LoadData of an L1 fractal no instruction wrote leaves "
                      "its L0A / L0B fractal unwritten, and an Mmad product of one leaves its L0C fractal unwritten)"
                    : "");
        }
    }
    // A strided local read: `count` bursts of `burst` bytes every `pitch` bytes.  Bounds and
    // pipe-race cover the span; initcheck covers only the bursts (the gaps are not read).
    // With `window` > 0 (cube fractal loads: 512), each window of a burst needs only some sector
    // written: partly filled fractals (matrix edges padded up to 16 rows / columns) are read whole.
    void check_read_bursts(uint64_t count, uint64_t burst, uint64_t pitch, const char *what,
                           const pyasc_sim::kapi::SrcLoc &loc, uint64_t start = 0, uint64_t window = 0) const {
        if (count == 0 || burst == 0) return;
        const int64_t span = static_cast<int64_t>((count - 1) * pitch + burst);
        const int64_t at = static_cast<int64_t>(start);
        if ((pitch == burst || count == 1) && window == 0) {
            check_access(at, span, kRead, what, loc);
            return;
        }
        check_access(at, span, kReadSpan, what, loc);
        if (!pyasc_sim::kapi::blk().checks) return;
        for (uint64_t i = 0; i < count; ++i) {
            const int64_t b0 = at + static_cast<int64_t>(i * pitch);
            if (window == 0) {
                init_read(b0, static_cast<int64_t>(burst), what, loc);
                continue;
            }
            for (uint64_t w = 0; w < burst; w += window) {
                const uint64_t len = std::min<uint64_t>(window, burst - w);
                if (!pyasc_sim::kapi::local_any_written(kind(), mem_offset() + static_cast<uint64_t>(b0) + w, len)) {
                    init_read(b0 + static_cast<int64_t>(w), static_cast<int64_t>(len), what, loc, span, at);
                }
            }
        }
    }
    // A DMA write of `count` bursts of `len` bytes, burst i at byte start + i * pitch, inside an extent of
    // `extent` bytes from byte 0 (DataCopyPad GM -> local with dstStride gaps between its slots, or padding
    // it does not fill): bounds over the extent, then pipe-race and initcheck per burst, so the bytes
    // between the bursts stay as they were -- the DMA does not write them.
    void check_write_bursts(uint64_t count, int64_t start, uint64_t len, uint64_t pitch, int64_t extent,
                            const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        if (!b.checks || count == 0) return;
        bounds(0, extent, what, loc);
        for (uint64_t i = 0; i < count; ++i) {
            check_access(b, start + static_cast<int64_t>(i * pitch), static_cast<int64_t>(len), kWrite, what, loc);
        }
    }
    // A vector-pipe read of bytes [byte_offset, byte_offset + bytes) (e.g. a local -> local DataCopy).
    void check_vec_read_bytes(int64_t byte_offset, int64_t bytes, const char *what,
                              const pyasc_sim::kapi::SrcLoc &loc) const {
        check_access(byte_offset, bytes, kVecSrc, what, loc);
    }
    // A vector source read through repeat strides: bounds and pipe-race over the extent, the caller
    // then runs init_read over the blocks the instruction reads.
    void check_read_span(int64_t index, int64_t count, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        check_access(index * static_cast<int64_t>(sizeof(T)), count * static_cast<int64_t>(sizeof(T)), kVecSrcSpan,
                     what, loc);
    }
    void check_bounds(int64_t byte_offset, int64_t bytes, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (!pyasc_sim::kapi::blk().checks || bytes <= 0) return;
        bounds(byte_offset, bytes, what, loc);
    }
    // check_bounds with the checks known on and bytes > 0 (the test inline, the reports out of line).
    void bounds(int64_t byte_offset, int64_t bytes, const char *what, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (ptr_ == nullptr || buf_begin_ == nullptr) fail_never_allocated(what, loc);
        const uint8_t *p = reinterpret_cast<const uint8_t *>(ptr_) + byte_offset;
        if (p < buf_begin_ || p + bytes > buf_end_) fail_out_of_bounds(byte_offset, bytes, what, loc);
    }
    // Checks the documented 32-byte alignment of a local operand's start address.
    void check_aligned(const char *api, const char *operand, const pyasc_sim::kapi::SrcLoc &loc,
                       uint32_t alignment = 32) const {
        check_aligned(pyasc_sim::kapi::blk(), api, operand, loc, alignment);
    }
    // The same in the running block b (an engine that looked it up once for all its operands).
    void check_aligned(const pyasc_sim::kapi::BlockState &b, const char *api, const char *operand,
                       const pyasc_sim::kapi::SrcLoc &loc, uint32_t alignment = 32) const {
        if (!b.checks) return;
        if (ptr_ == nullptr) fail_unallocated(api, operand, loc);
        const uint64_t off = mem_offset(b);
        // a mask for the power-of-two alignments (all of them in practice): no 64-bit division per operand
        const uint64_t rem = (alignment & (alignment - 1)) == 0 ? off & (alignment - 1) : off % alignment;
        if (rem != 0) fail_unaligned(api, operand, loc, off, alignment);
    }
    // A count-form vector operand: `bytes` from its start, read (src: initcheck of a vector source)
    // or written (deferred until the instruction's sources are checked).  Exactly check_aligned(b,
    // api, operand, loc) then check_access(b, 0, bytes, src ? kVecSrc : kVecDst, api, loc), the same
    // checks in the same order with the same reports, with the memory kind and the operand's offset
    // computed once for both (every operand of every checked vector instruction comes here).
    void check_vec_operand(pyasc_sim::kapi::BlockState &b, int64_t bytes, bool src, const char *api,
                           const char *operand, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (!b.checks) {  // check_aligned does nothing; check_access notes the line for the timeline
            pyasc_sim::kapi::timeline_loc(b, loc);
            return;
        }
        if (ptr_ == nullptr) fail_unallocated(api, operand, loc);
        const int k = kind();
        const uint64_t off = (k >= 0 && b.mem[k] != nullptr)
                                 ? static_cast<uint64_t>(reinterpret_cast<uint8_t *>(ptr_) - b.mem[k])
                                 : reinterpret_cast<uintptr_t>(ptr_);  // mem_offset(b)
        if ((off & 31) != 0) fail_unaligned(api, operand, loc, off, 32);
        pyasc_sim::kapi::timeline_loc(b, loc);
        if (bytes <= 0) return;
        bounds(0, bytes, api, loc);
        const uint64_t n = static_cast<uint64_t>(bytes);
        pyasc_sim::kapi::race(b).note(k, off, n, !src, loc.file, loc.line);
        if (!src) {
            pyasc_sim::kapi::local_flush_pending(b);
            pyasc_sim::kapi::local_defer_written(b, k, off, n, loc);
            return;
        }
        pyasc_sim::kapi::local_flush_pending_before_source(b, loc);
        const int64_t u = pyasc_sim::kapi::local_vec_first_unwritten(b, k, off, n);
        if (u >= 0) {
            // an elementwise instruction carries never-written lanes as taint (kapi/vector_taint.h)
            if (b.vtaint_on) {
                b.vtaint_hit = true;
                return;
            }
            report_uninit(u, bytes, 0, api, loc);
        }
    }

private:
    // bounds()'s and check_aligned's reports (out of line: off the path of every operand check).
    [[noreturn]] __attribute__((noinline, cold)) void fail_never_allocated(const char *what,
                                                                         const pyasc_sim::kapi::SrcLoc &loc) const {
        pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                              "%s a LocalTensor that was never allocated (use TQue::AllocTensor, TQue::DeQue or "
                              "TBuf::Get)", what);
    }
    [[noreturn]] __attribute__((noinline, cold)) void fail_out_of_bounds(int64_t byte_offset, int64_t bytes,
                                                                       const char *what,
                                                                       const pyasc_sim::kapi::SrcLoc &loc) const {
        const uint8_t *p = reinterpret_cast<const uint8_t *>(ptr_) + byte_offset;
        pyasc_sim::kapi::fail(
            "local-out-of-bounds", loc,
            "%s %lld bytes at %s offset %lld, outside the %lld-byte %s buffer at %s offset %lld (by %lld bytes)",
            what, static_cast<long long>(bytes), pyasc_sim::kapi::mem_name(kind()),
            static_cast<long long>(mem_offset() + byte_offset), static_cast<long long>(buf_end_ - buf_begin_),
            pyasc_sim::kapi::pos_name(pos_), pyasc_sim::kapi::mem_name(kind()),
            static_cast<long long>(mem_offset() - (reinterpret_cast<uint8_t *>(ptr_) - buf_begin_)),
            static_cast<long long>(p < buf_begin_ ? buf_begin_ - p : p + bytes - buf_end_));
    }
    [[noreturn]] __attribute__((noinline, cold)) void fail_unallocated(const char *api, const char *operand,
                                                                     const pyasc_sim::kapi::SrcLoc &loc) const {
        pyasc_sim::kapi::fail("local-out-of-bounds", loc, "%s: %s is a LocalTensor that was never allocated", api,
                              operand);
    }
    [[noreturn]] __attribute__((noinline, cold)) void fail_unaligned(const char *api, const char *operand,
                                                                   const pyasc_sim::kapi::SrcLoc &loc, uint64_t off,
                                                                   uint32_t alignment) const {
        const uint64_t rem = off % alignment;
        pyasc_sim::kapi::fail("ub-alignment", loc,
                              "%s: %s starts at %s offset %llu (0x%llx), which is not %u-byte aligned (%llu bytes "
                              "past a boundary); local operands must start on %u-byte boundaries",
                              api, operand, pyasc_sim::kapi::mem_name(kind()), static_cast<unsigned long long>(off),
                              static_cast<unsigned long long>(off), alignment, static_cast<unsigned long long>(rem),
                              alignment);
    }

    T *ptr_ = nullptr;
    uint32_t size_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    uint8_t *buf_begin_ = nullptr;
    uint8_t *buf_end_ = nullptr;
    int32_t tag_ = 0;
};

// In a SHMEM launch (kapi/shmem_launch.h) both count the blocks of the calling block's PE.
inline int64_t GetBlockIdx() {
    const pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    return static_cast<int64_t>(b.block_idx) - static_cast<int64_t>(b.shmem_pe) * b.shmem_blocks * b.ratio;
}
inline int64_t GetBlockNum() {
    const pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    return static_cast<int64_t>(b.shmem_blocks != 0 ? b.shmem_blocks : b.block_dim);
}
// Mixed cube/vector kernels (KERNEL_TYPE_MIX_AIC_1_2): on the AIC GetBlockIdx() is the block
// (AI Core group) g, on its two AIV g * 2 + GetSubBlockIdx(); GetTaskRation() is 1 on the AIC and 2
// on the AIV (1 everywhere in vector-only kernels); GetBlockNum() is the launch's block count.
inline int64_t GetSubBlockIdx() { return static_cast<int64_t>(pyasc_sim::kapi::blk().sub_idx); }
inline int64_t GetTaskRation() { return static_cast<int64_t>(pyasc_sim::kapi::blk().ratio); }
inline int64_t GetTaskRatio() { return GetTaskRation(); }  // the spelling of newer references
inline int64_t GetSubBlockNum() { return GetTaskRation(); }

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_TENSOR_H_
