// Ascend C on the CPU -- TPipe (buffer allocation), TQue / TQueBind (queues between pipes)
// and TBuf (scratch buffers).
#ifndef PYASC_SIM_KAPI_PIPE_H_
#define PYASC_SIM_KAPI_PIPE_H_

#include <memory>
#include <vector>

#include "pyasc_sim/kapi/order.h"
#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {

class TPipe;

namespace sim_detail {

// The pipe that fills a buffer of position `pos` (EnQue's SetFlag side) and the one that
// consumes it from position `dst` (DeQue's WaitFlag side), as the queue protocol syncs them.
inline int queue_producer(TPosition pos) {
    switch (pos) {
        case TPosition::VECIN:
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
        case TPosition::TSCM: return pyasc_sim::kapi::kPipeMTE2;
        case TPosition::A2:
        case TPosition::B2:
        case TPosition::C2: return pyasc_sim::kapi::kPipeMTE1;
        case TPosition::CO1: return pyasc_sim::kapi::kPipeM;
        case TPosition::CO2: return pyasc_sim::kapi::kPipeFIX;
        default: return pyasc_sim::kapi::kPipeV;  // VECOUT, VECCALC, ...
    }
}
inline int queue_consumer(TPosition dst) {
    switch (dst) {
        case TPosition::VECOUT:
        case TPosition::CO2: return pyasc_sim::kapi::kPipeMTE3;
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
        case TPosition::TSCM: return pyasc_sim::kapi::kPipeMTE1;
        case TPosition::A2:
        case TPosition::B2:
        case TPosition::C2: return pyasc_sim::kapi::kPipeM;
        case TPosition::CO1: return pyasc_sim::kapi::kPipeFIX;
        default: return pyasc_sim::kapi::kPipeV;  // VECIN, VECCALC, ...
    }
}

// The per-buffer book of a queue: each buffer's state, what EnQue / FreeTensor published for it, and
// where it was allocated.  On the NPU these live with the buffers in the TPipe, and a queue object
// points at them; so a copy of a queue (public kernels value-assign queue members, e.g. RecSDK's
// recops split_embedding `this->queIn = queIn`) shares the book with the original.
struct QueueBook {
    std::vector<uint8_t> state;
    std::vector<pyasc_sim::kapi::OrderSlot> ready;
    std::vector<pyasc_sim::kapi::OrderSlot> freed;
    std::vector<pyasc_sim::kapi::SrcLoc> alloc_loc;
};

// Shared implementation of every queue: `num` buffers of `len` bytes, a FIFO of at
// most `depth` enqueued buffers, and the state of each buffer (its book).  Copyable as the NPU's
// TQueBind is: the copy has its own FIFO (as the queue object's own fields are copied) and shares
// the buffers and their book, so a buffer freed through one copy is free for the other.
class QueueImpl {
public:
    enum State : uint8_t { kFree = 0, kAllocated, kEnqueued };

    QueueImpl(TPosition pos, int32_t depth, TPosition dst)
        : pos_(pos), depth_(depth), producer_(queue_producer(pos)), consumer_(queue_consumer(dst)) {}
    // The last queue object sharing the buffers checks them for leaks.
    ~QueueImpl() {
        if (book_.use_count() <= 1) check_leaks();
    }
    QueueImpl(const QueueImpl &) = default;
    QueueImpl &operator=(const QueueImpl &o) {
        if (this != &o) {
            if (book_ && book_ != o.book_ && book_.use_count() == 1) check_leaks();
            pos_ = o.pos_;
            depth_ = o.depth_;
            base_ = o.base_;
            num_ = o.num_;
            len_ = o.len_;
            book_ = o.book_;
            producer_ = o.producer_;
            consumer_ = o.consumer_;
            fifo_ = o.fifo_;
            head_ = o.head_;
            count_ = o.count_;
            next_ = o.next_;
            init_loc_ = o.init_loc_;
        }
        return *this;
    }

    void init(uint8_t *base, uint32_t num, uint32_t len, const pyasc_sim::kapi::SrcLoc &loc) {
        base_ = base;
        num_ = num;
        len_ = len;
        book_ = std::make_shared<QueueBook>();
        book_->state.assign(num, kFree);
        book_->ready.assign(num, {});
        book_->freed.assign(num, {});
        book_->alloc_loc.assign(num, loc);
        fifo_.assign(num, 0);
        head_ = count_ = 0;
        next_ = 0;
        init_loc_ = loc;
    }

    template <typename T>
    LocalTensor<T> alloc(const pyasc_sim::kapi::SrcLoc &loc) {
        require_init("AllocTensor", loc);
        for (uint32_t k = 0; k < num_; ++k) {
            const uint32_t i = (next_ + k) % num_;
            if (book_->state[i] == kFree) {
                book_->state[i] = kAllocated;
                book_->alloc_loc[i] = loc;
                // the producer refills it once the consumer freed it (after the last FreeTensor)
                pyasc_sim::kapi::order_acquire(book_->freed[i], producer_, 0.0, loc);
                next_ = (i + 1) % num_;
                return tensor<T>(i);
            }
        }
        pyasc_sim::kapi::fail("queue-alloc-past-depth", loc,
                              "AllocTensor on a %s queue whose %u buffer(s) (InitBuffer at %s:%u) are all in use "
                              "(allocated or enqueued, none freed); on hardware AllocTensor waits forever. Free a "
                              "tensor first or give the queue more buffers",
                              pyasc_sim::kapi::pos_name(pos_), num_, init_loc_.file, init_loc_.line);
    }

    template <typename T>
    bool enque(const LocalTensor<T> &t, const pyasc_sim::kapi::SrcLoc &loc) {
        require_init("EnQue", loc);
        const uint32_t i = index_of(t.ptr(), "EnQue", loc);
        if (book_->state[i] != kAllocated) {
            pyasc_sim::kapi::fail("queue-misuse", loc, "EnQue of buffer %u of a %s queue that is %s, not allocated", i,
                                  pyasc_sim::kapi::pos_name(pos_), state_name(book_->state[i]));
        }
        if (depth_ > 0 && count_ >= static_cast<uint32_t>(depth_)) {
            pyasc_sim::kapi::fail("queue-enque-past-depth", loc,
                                  "EnQue on a %s queue of depth %d that already holds %u tensor(s); on hardware the "
                                  "queue overflows. DeQue before enqueuing more, or declare a deeper TQue",
                                  pyasc_sim::kapi::pos_name(pos_), depth_, count_);
        }
        fifo_[(head_ + count_) % num_] = i;
        ++count_;
        book_->state[i] = kEnqueued;
        // the producer's work so far, seen by DeQue; not the Scalar Unit's stores (a SetValue into the tensor
        // needs its own S -> consumer flag: race.h, RaceState::publish)
        pyasc_sim::kapi::order_publish(book_->ready[i], producer_, false);
        return true;
    }

    template <typename T>
    LocalTensor<T> deque(const pyasc_sim::kapi::SrcLoc &loc) {
        require_init("DeQue", loc);
        if (count_ == 0) {
            pyasc_sim::kapi::fail("queue-deque-empty", loc,
                                  "DeQue on an empty %s queue (nothing was EnQue'd, or it was already dequeued); on "
                                  "hardware DeQue waits forever",
                                  pyasc_sim::kapi::pos_name(pos_));
        }
        const uint32_t i = fifo_[head_];
        head_ = (head_ + 1) % num_;
        --count_;
        book_->state[i] = kAllocated;
        // the consumer pipe waits for the producer's work; not the Scalar Unit (a GetValue of the tensor needs its
        // own producer -> S flag: race.h, RaceState::acquire)
        pyasc_sim::kapi::order_acquire(book_->ready[i], consumer_, pyasc_sim::cost::kQueueSyncCycles, loc, false);
        return tensor<T>(i);
    }

    template <typename T>
    void free(const LocalTensor<T> &t, const pyasc_sim::kapi::SrcLoc &loc) {
        require_init("FreeTensor", loc);
        const uint32_t i = index_of(t.ptr(), "FreeTensor", loc);
        if (book_->state[i] != kAllocated) {
            pyasc_sim::kapi::fail("queue-misuse", loc,
                                  "FreeTensor of buffer %u of a %s queue that is %s (double free, or freeing a tensor "
                                  "still in the queue)",
                                  i, pyasc_sim::kapi::pos_name(pos_), state_name(book_->state[i]));
        }
        book_->state[i] = kFree;
        pyasc_sim::kapi::order_publish(book_->freed[i], consumer_);  // the old owner's accesses, seen by AllocTensor
    }

    uint32_t enqueued() const { return count_; }
    uint32_t free_buffers() const {
        uint32_t n = 0;
        for (uint8_t s : book_->state) n += s == kFree;
        return n;
    }
    int32_t depth() const { return depth_; }

    // Called when the queue goes away (normally when the kernel returns): a buffer that
    // is still allocated or enqueued is a leak.
    void check_leaks() {
        if (base_ == nullptr || !pyasc_sim::kapi::blk().checks) return;
        for (uint32_t i = 0; i < num_; ++i) {
            if (book_->state[i] != kFree) {
                // Hardware tolerates it (the buffers are simply not reused): a warning.
                pyasc_sim::kapi::defer_warning(
                    "queue-leak", book_->alloc_loc[i],
                    "a tensor of a %s queue (buffer %u, allocated here) was not freed when the kernel ended (it is "
                    "still %s); every AllocTensor / DeQue needs a matching FreeTensor",
                    pyasc_sim::kapi::pos_name(pos_), i, state_name(book_->state[i]));
                return;
            }
        }
    }
    void reset() { base_ = nullptr; }

private:
    static const char *state_name(uint8_t s) {
        return s == kFree ? "free" : s == kAllocated ? "allocated" : "enqueued";
    }
    void require_init(const char *api, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (base_ == nullptr) {
            pyasc_sim::kapi::fail("queue-misuse", loc, "%s on a %s queue that has no buffers (call TPipe::InitBuffer "
                                  "first)", api, pyasc_sim::kapi::pos_name(pos_));
        }
    }
    uint32_t index_of(const void *p, const char *api, const pyasc_sim::kapi::SrcLoc &loc) const {
        const uint8_t *q = static_cast<const uint8_t *>(p);
        if (q >= base_ && q < base_ + static_cast<size_t>(num_) * len_) {
            return static_cast<uint32_t>((q - base_) / len_);
        }
        pyasc_sim::kapi::fail("queue-misuse", loc, "%s of a tensor that does not belong to this %s queue", api,
                              pyasc_sim::kapi::pos_name(pos_));
    }
    template <typename T>
    LocalTensor<T> tensor(uint32_t i) const {
        uint8_t *b = base_ + static_cast<size_t>(i) * len_;
        return LocalTensor<T>(reinterpret_cast<T *>(b), static_cast<uint32_t>(len_ / sizeof(T)), pos_, b, b + len_);
    }

    TPosition pos_;
    int32_t depth_;
    uint8_t *base_ = nullptr;
    uint32_t num_ = 0;
    uint32_t len_ = 0;
    // per buffer: its state and what the happens-before stream (order.h) published: at EnQue (DeQue
    // waits for it) and at FreeTensor (the next AllocTensor waits for it); shared by copies
    std::shared_ptr<QueueBook> book_;
    int producer_, consumer_;    // timeline: the pipes the queue protocol syncs
    std::vector<uint32_t> fifo_;
    uint32_t head_ = 0;
    uint32_t count_ = 0;
    uint32_t next_ = 0;
    pyasc_sim::kapi::SrcLoc init_loc_;
};

}  // namespace sim_detail

// A queue moving tensors from position src to position dst; `depth` tensors may wait in it.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    TQueBind() : impl_(sim_position, depth, dst) {}

    template <typename T>
    LocalTensor<T> AllocTensor(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return impl_.template alloc<T>(loc);
    }
    template <typename T>
    bool EnQue(const LocalTensor<T> &tensor, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return impl_.enque(tensor, loc);
    }
    template <typename T>
    LocalTensor<T> DeQue(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return impl_.template deque<T>(loc);
    }
    // The inplace forms (AllocTensor page atlasascendc_api_07_0149 / DeQue page atlasascendc_api_07_0152, CANN
    // 8.3+): the tensor comes back through the reference instead of a new LocalTensor; the pages ask for
    // depth 0 on such queues (the simulator's queues take either form at any depth: the same buffers move).
    template <typename T>
    void AllocTensor(LocalTensor<T> &tensor, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        tensor = impl_.template alloc<T>(loc);
    }
    template <typename T>
    void DeQue(LocalTensor<T> &tensor, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        tensor = impl_.template deque<T>(loc);
    }
    template <typename T>
    void FreeTensor(LocalTensor<T> &tensor, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        impl_.free(tensor, loc);
    }
    template <typename T>
    void FreeTensor(const LocalTensor<T> &tensor, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        impl_.free(tensor, loc);
    }
    bool VacantInQue() const { return depth <= 0 || impl_.enqueued() < static_cast<uint32_t>(depth); }
    bool HasTensorInQue() const { return impl_.enqueued() > 0; }
    int32_t GetTensorCountInQue() const { return static_cast<int32_t>(impl_.enqueued()); }
    bool HasIdleBuffer() const { return impl_.free_buffers() > 0; }

    sim_detail::QueueImpl &sim_impl() { return impl_; }
    // Where the buffers live: a queue into TSCM (the TSCM alias below) holds them in L1 whatever its
    // source position; every other queue in its source position's memory.
    static constexpr TPosition sim_position = dst == TPosition::TSCM ? TPosition::TSCM : src;

private:
    sim_detail::QueueImpl impl_;
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// TSCM: a queue whose buffers are user-managed L1 (Temp Swap Cache Memory), filled from pos (GM or
// VECIN) and handed to Matmul as a TSCM-position operand; the documented definition.
template <TPosition pos, int32_t depth, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

// A scratch buffer of one position, without queue semantics.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    template <typename T>
    LocalTensor<T> Get(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        require_init("Get", loc);
        return LocalTensor<T>(reinterpret_cast<T *>(base_), static_cast<uint32_t>(len_ / sizeof(T)), pos, base_,
                              base_ + len_);
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t len, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        require_init("Get", loc);
        if (static_cast<uint64_t>(len) * sizeof(T) > len_ && pyasc_sim::kapi::blk().checks) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc, "TBuf::Get(%u) asks for %llu bytes of a %u-byte %s buffer",
                                  len, static_cast<unsigned long long>(len * sizeof(T)), len_,
                                  pyasc_sim::kapi::pos_name(pos));
        }
        return LocalTensor<T>(reinterpret_cast<T *>(base_), len, pos, base_, base_ + len_);
    }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        require_init("GetWithOffset", loc);
        if ((static_cast<uint64_t>(bufOffset) + static_cast<uint64_t>(size) * sizeof(T) > len_) &&
            pyasc_sim::kapi::blk().checks) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                  "TBuf::GetWithOffset(%u, %u) reaches past the %u-byte %s buffer", size, bufOffset,
                                  len_, pyasc_sim::kapi::pos_name(pos));
        }
        return LocalTensor<T>(reinterpret_cast<T *>(base_ + bufOffset), size, pos, base_, base_ + len_);
    }

    // TBuf inherits TQueBind on the NPU (reference page "TBuf简介"), so public kernels reach
    // AllocTensor / FreeTensor through it: on a TBuf they hand out its one buffer (as Get) and
    // release nothing (tensors obtained from a TBuf need no release).
    template <typename T>
    LocalTensor<T> AllocTensor(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return Get<T>(loc);
    }
    template <typename T>
    void FreeTensor(const LocalTensor<T> &tensor, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        require_init("FreeTensor", loc);
        if (reinterpret_cast<uint8_t *>(tensor.ptr()) != base_ && pyasc_sim::kapi::blk().checks) {
            pyasc_sim::kapi::fail("queue-misuse", loc, "TBuf::FreeTensor of a tensor that is not this %s buffer's",
                                  pyasc_sim::kapi::pos_name(pos));
        }
    }

    void sim_init(uint8_t *base, uint32_t len) {
        base_ = base;
        len_ = len;
    }
    static constexpr TPosition sim_position = pos;

private:
    void require_init(const char *api, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (base_ == nullptr) {
            pyasc_sim::kapi::fail("queue-misuse", loc, "TBuf::%s on a %s buffer that has no memory (call "
                                  "TPipe::InitBuffer first)", api, pyasc_sim::kapi::pos_name(pos));
        }
    }
    uint8_t *base_ = nullptr;
    uint32_t len_ = 0;
};

// Allocates the buffers of queues and TBufs from the core's local memories.
class TPipe {
public:
    TPipe() {
        pyasc_sim::kapi::blk().pipe_obj = this;
    }
    ~TPipe() {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        if (b.pipe_obj == this) b.pipe_obj = nullptr;
    }
    // Copies are what the NPU compiler's implicit ones are: the allocation state (how much of each local
    // memory is in use) is copied; the copy does not become the pipe GetTPipePtr() returns (only the
    // constructor registers). Public kernels take a pipe by pointer and keep a copy in a member
    // (`this->pipe = *tPipe;`, IndexSDK's ascendc_ivfpq_subspace_distance): the member then allocates from
    // where *tPipe stood, so buffers the two pipes hand out overlap, as on the device.
    TPipe(const TPipe &o) {
        for (int k = 0; k < pyasc_sim::kapi::kMemKinds; ++k) used_[k] = o.used_[k];
    }
    TPipe &operator=(const TPipe &o) {
        for (int k = 0; k < pyasc_sim::kapi::kMemKinds; ++k) used_[k] = o.used_[k];
        return *this;
    }

    template <class Q>
    bool InitBuffer(Q &que, uint8_t num, uint32_t len, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        constexpr TPosition pos = Q::sim_position;
        uint8_t *base = reserve(pos, static_cast<uint64_t>(num) * round32(len), num, len, "queue", loc);
        que.sim_impl().init(base, num, round32(len), loc);
        return true;
    }
    template <TPosition pos>
    bool InitBuffer(TBuf<pos> &buf, uint32_t len, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        uint8_t *base = reserve(pos, round32(len), 1, len, "TBuf", loc);
        buf.sim_init(base, round32(len));
        return true;
    }
    void Reset() {
        for (auto &u : used_) u = 0;
    }
    void Destroy() { Reset(); }
    void Init() {}

    template <HardEvent evt>
    TEventID AllocEventID(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        auto &slots = pyasc_sim::kapi::blk().event_alloc[static_cast<int>(evt)];
        for (int i = 0; i < pyasc_sim::kapi::kEventIds; ++i) {
            if (!slots[i]) {
                slots[i] = true;
                return static_cast<TEventID>(i);
            }
        }
        pyasc_sim::kapi::fail("event-id", loc, "AllocEventID: all %d event ids of this HardEvent are in use "
                              "(ReleaseEventID the ones you are done with)", pyasc_sim::kapi::kEventIds);
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID id) {
        if (id >= 0 && id < pyasc_sim::kapi::kEventIds) pyasc_sim::kapi::blk().event_alloc[static_cast<int>(evt)][id] = false;
    }
    template <HardEvent evt>
    TEventID FetchEventID() {
        return FetchEventID(evt);
    }
    TEventID FetchEventID(HardEvent evt) {
        auto &slots = pyasc_sim::kapi::blk().event_alloc[static_cast<int>(evt)];
        for (int i = 0; i < pyasc_sim::kapi::kEventIds; ++i) {
            if (!slots[i]) return static_cast<TEventID>(i);
        }
        return 0;
    }

private:
    static uint32_t round32(uint32_t len) { return (len + 31u) / 32u * 32u; }
    uint8_t *reserve(TPosition pos, uint64_t bytes, uint32_t num, uint32_t len, const char *what,
                     const pyasc_sim::kapi::SrcLoc &loc) {
        pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
        const int k = pyasc_sim::kapi::mem_of(pos);
        if (k < 0) {
            pyasc_sim::kapi::fail("buffer-capacity", loc, "InitBuffer: a %s cannot live in global memory", what);
        }
        if (num == 0) {
            pyasc_sim::kapi::fail("buffer-capacity", loc, "InitBuffer: a %s of %u buffer(s) of %u bytes is empty", what,
                                  num, len);
        }
        if (len == 0) {
            // The SDK checks len > 0 only in its CPU-debug build (kernel_tpipe_impl.h: an ASCENDC_ASSERT /
            // ASCENDC_DEBUG_ASSERT under ASCENDC_CPU_DEBUG); on the NPU the buffer reserves nothing. Kernels size a
            // buffer they then never use by a tiling value that can be 0 (DrivingSDK scatter_max_v3: the left-over
            // source buffer when the indices divide evenly over the cores). Any use of it is out of bounds.
            pyasc_sim::kapi::warn("buffer-empty", loc,
                                  "InitBuffer: a %s of %u buffer(s) of 0 bytes reserves nothing (the SDK asserts len > 0 "
                                  "in its CPU-debug build only); any access to it is out of bounds",
                                  what, num);
        }
        if (used_[k] + bytes > b.capacity[k]) {
            pyasc_sim::kapi::fail("buffer-capacity", loc,
                                  "InitBuffer: a %s %s of %u x %u bytes (%llu bytes after 32-byte rounding) does not "
                                  "fit: %llu of the %zu-byte %s are already in use (exceeds it by %llu bytes)",
                                  pyasc_sim::kapi::pos_name(pos), what, num, len,
                                  static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(used_[k]),
                                  b.capacity[k], pyasc_sim::kapi::mem_name(k),
                                  static_cast<unsigned long long>(used_[k] + bytes - b.capacity[k]));
        }
        uint8_t *base = b.memory(k) + used_[k];
        used_[k] += bytes;
        return base;
    }
    uint64_t used_[pyasc_sim::kapi::kMemKinds] = {};
};

inline TPipe *GetTPipePtr() { return static_cast<TPipe *>(pyasc_sim::kapi::blk().pipe_obj); }

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_PIPE_H_
