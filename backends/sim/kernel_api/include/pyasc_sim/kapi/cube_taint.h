// Ascend C on the CPU -- the initcheck of the cube path as taint (`local-uninit-read`).
//
// Cube kernels load whole fractals from L1 into L0A / L0B and multiply whole tiles, also where
// the tail rows / columns of a tile were never written; the products that depend on such data
// are simply never stored, and hardware gives the right result.  So the cube carries "never
// written" instead of reporting it: a 2D LoadData of an L1 fractal no instruction wrote leaves
// its L0A / L0B destination fractal unwritten, and an Mmad marks each L0C fractal whose row of A
// fractals (over the k range) or column of B fractals holds an unwritten sector unwritten.  The
// error is raised where such data leaves the cube or is read elsewhere: Fixpipe (L0C -> GM / L1),
// the L0C copies and every other read need every sector written, as before (tensor.h).  The
// granularity is the fractal (512 bytes of L0A / L0B, 16 x 16 elements of L0C), which is also
// the granularity in which the cube reads: partly filled fractals count as written (edge
// fractals are padded), as the fractal loads always did.
#ifndef PYASC_SIM_KAPI_CUBE_TAINT_H_
#define PYASC_SIM_KAPI_CUBE_TAINT_H_

#include <cstdint>
#include <vector>

#include "pyasc_sim/kapi/params.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"

// local_mark_unwritten: state.h (shared with the vector taint, kapi/vector_taint.h).

namespace AscendC {
namespace sim_detail {

// The source side of a fractal load between local memories: bounds and pipe order over the span it reads --
// `count` source squares of `square` bytes every `pitch` bytes from byte `start` of src -- and the byte offsets
// (in dst) of the destination fractals whose source square no instruction wrote (not one sector of it), for
// mark_load_taint after the copy: square r lands at r * dstPitch (and, for LoadDataWithTranspose's 8 / 32-bit
// forms, a second fractal `second` bytes after it).  Round 26 (s26b) gave the transposing loads the 2D
// LoadData's rule: before, they reported such a square at once.
template <typename T>
inline std::vector<uint64_t> fractal_source_taint(const LocalTensor<T> &src, uint64_t count, uint64_t start,
                                                  uint64_t pitch, uint64_t square, uint64_t dstPitch, uint64_t second,
                                                  const char *what, const pyasc_sim::kapi::SrcLoc &loc) {
    std::vector<uint64_t> tainted;
    if (count == 0) return tainted;
    src.check_access(static_cast<int64_t>(start), static_cast<int64_t>((count - 1) * pitch + square),
                     LocalTensor<T>::kReadSpan, what, loc);
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.checks) return tainted;
    const uint64_t base = src.mem_offset(b) + start;
    for (uint64_t r = 0; r < count; ++r) {
        if (!pyasc_sim::kapi::local_any_written(b, src.kind(), base + r * pitch, square)) {
            tainted.push_back(r * dstPitch);
            if (second != 0) tainted.push_back(r * dstPitch + second);
        }
    }
    return tainted;
}

// A 2D LoadData: 512-byte fractals.
template <typename T>
inline std::vector<uint64_t> load2d_source_taint(const LocalTensor<T> &src, const LoadData2DParams &p,
                                                 const char *what, const pyasc_sim::kapi::SrcLoc &loc) {
    return fractal_source_taint(src, p.repeatTimes, p.startIndex * 512ull, p.srcStride * 512ull, 512,
                                (1ull + p.dstGap) * 512ull, 0, what, loc);
}

// After the copy: the destination fractals loaded from never-written source fractals are unwritten.
template <typename T>
inline void mark_load_taint(const LocalTensor<T> &dst, const std::vector<uint64_t> &tainted) {
    if (tainted.empty()) return;
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    const uint64_t base = dst.mem_offset(b);
    for (uint64_t at : tainted) pyasc_sim::kapi::local_mark_unwritten(b, dst.kind(), base + at, 512);
}

// Mmad's operands: bounds and pipe order over A (mb x kb fractals, zZ) and B (kb x nb, nZ), C
// marked written; then, if some A or B sector is unwritten, the L0C fractals (nb x mb, column
// fractals of 16 x 16) whose A row or B column holds one are marked unwritten again.
template <typename Dst, typename A, typename B>
inline void mmad_operands_taint(const LocalTensor<Dst> &c, const LocalTensor<A> &a, const LocalTensor<B> &b,
                                uint64_t mb, uint64_t kb, uint64_t nb, const pyasc_sim::kapi::SrcLoc &loc) {
    const uint64_t aBytes = mb * kb * 512, bBytes = kb * nb * 512, cFrac = 256 * sizeof(Dst);
    a.check_access(0, static_cast<int64_t>(aBytes), LocalTensor<A>::kReadSpan, "Mmad reads A", loc);
    b.check_access(0, static_cast<int64_t>(bBytes), LocalTensor<B>::kReadSpan, "Mmad reads B", loc);
    c.check_access(0, static_cast<int64_t>(mb * nb * cFrac), LocalTensor<Dst>::kWrite, "Mmad writes C", loc);
    pyasc_sim::kapi::BlockState &s = pyasc_sim::kapi::blk();
    if (!s.checks || aBytes == 0 || bBytes == 0) return;
    const int ka = a.kind(), kbm = b.kind();
    const uint64_t ao = a.mem_offset(s), bo = b.mem_offset(s);
    const bool aClean = pyasc_sim::kapi::local_first_unwritten(s, ka, ao, aBytes) < 0;
    const bool bClean = pyasc_sim::kapi::local_first_unwritten(s, kbm, bo, bBytes) < 0;
    if (aClean && bClean) return;
    std::vector<uint8_t> row(mb, 0), col(nb, 0);
    for (uint64_t mi = 0; !aClean && mi < mb; ++mi) {
        for (uint64_t ki = 0; ki < kb && !row[mi]; ++ki) {
            row[mi] = pyasc_sim::kapi::local_first_unwritten(s, ka, ao + (mi * kb + ki) * 512, 512) >= 0;
        }
    }
    for (uint64_t ni = 0; !bClean && ni < nb; ++ni) {
        for (uint64_t ki = 0; ki < kb && !col[ni]; ++ki) {
            col[ni] = pyasc_sim::kapi::local_first_unwritten(s, kbm, bo + (ki * nb + ni) * 512, 512) >= 0;
        }
    }
    const uint64_t co = c.mem_offset(s);
    for (uint64_t ni = 0; ni < nb; ++ni) {
        for (uint64_t mi = 0; mi < mb; ++mi) {
            if (row[mi] || col[ni]) pyasc_sim::kapi::local_mark_unwritten(s, c.kind(), co + (ni * mb + mi) * cFrac, cFrac);
        }
    }
}

}  // namespace sim_detail
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_CUBE_TAINT_H_
