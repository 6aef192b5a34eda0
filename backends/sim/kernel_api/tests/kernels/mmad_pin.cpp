// Pins the simulator's blocked Mmad (kapi/mmad_kernel.h) against its reference loop
// (sim_detail::mmad_reference) bit for bit. The host passes raw L0A / L0B contents (mb x kb Zz and
// kb x nb Zn fractals, padding included) and an initial L0C (mb x nb Nz fractals); the kernel loads
// them, runs one implementation (`variant`: 0 the reference, 1 the public Mmad, 2 / 3 / 4 / 5 the
// blocked kernel forced to its baseline / AVX2 / AVX-512 micro-kernel / AVX-512 without its float
// epilogue) and writes the whole L0C back.
// Simulator-only: it calls the simulator's internals.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

template <typename T>
__aicore__ inline void ToLocal(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t fractals) {
    for (uint32_t f0 = 0; f0 < fractals; f0 += 255) {
        LoadData2DParams p;
        p.startIndex = static_cast<uint16_t>(f0);
        p.repeatTimes = static_cast<uint8_t>(fractals - f0 < 255 ? fractals - f0 : 255);
        p.srcStride = 1;
        LoadData(dst[f0 * (512 / sizeof(T))], src, p);
    }
}

template <typename T, typename D>
__aicore__ inline void MmadPin(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k, uint32_t init,
                               uint32_t variant) {
    constexpr uint32_t c0 = 32 / sizeof(T);
    const uint32_t mb = (m + 15) / 16, kb = (k + c0 - 1) / c0, nb = (n + 15) / 16;
    GlobalTensor<T> ga, gb;
    GlobalTensor<D> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), mb * kb * 16 * c0);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), kb * nb * 16 * c0);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ D *>(c), mb * nb * 256);
    TPipe pipe;
    TQue<TPosition::A2, 1> qa;
    TQue<TPosition::B2, 1> qb;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa, 1, mb * kb * 512);
    pipe.InitBuffer(qb, 1, kb * nb * 512);
    pipe.InitBuffer(qc, 1, mb * nb * 256 * sizeof(D));
    LocalTensor<T> a2 = qa.AllocTensor<T>();
    LocalTensor<T> b2 = qb.AllocTensor<T>();
    LocalTensor<D> c1 = qc.AllocTensor<D>();
    ToLocal(a2, ga, mb * kb);
    ToLocal(b2, gb, kb * nb);
    qa.EnQue(a2);
    qb.EnQue(b2);
    a2 = qa.DeQue<T>();
    b2 = qb.DeQue<T>();
    for (uint32_t i = 0; i < mb * nb * 256; ++i) c1.ptr()[i] = gc.GetValue(i);
    MmadParams mp;
    mp.m = static_cast<uint16_t>(m);
    mp.n = static_cast<uint16_t>(n);
    mp.k = static_cast<uint16_t>(k);
    mp.cmatrixInitVal = init != 0;
    const bool acc = init == 0;
    auto zero = [](uint64_t) { return 0.0; };
    if (variant == 0) {
        sim_detail::mmad_reference(c1, a2, b2, mp, acc, zero);
    } else if (variant == 1) {
        Mmad(c1, a2, b2, mp);
    } else {
        pyasc_sim::mmad::Kernel kern{pyasc_sim::mmad::micro_generic<2>, 2};
#if defined(__x86_64__)
        if (variant == 3) kern = {pyasc_sim::mmad::micro_avx2, 2};
        if (variant == 4) kern = {pyasc_sim::mmad::micro_avx512, 8, pyasc_sim::mmad::micro_avx512_f32};
        if (variant == 5) kern = {pyasc_sim::mmad::micro_avx512, 8};
#endif
        if (!pyasc_sim::mmad::blocked(c1.ptr(), a2.ptr(), b2.ptr(), m, n, k, acc, zero, &kern)) {
            sim_detail::mmad_reference(c1, a2, b2, mp, acc, zero);
        }
    }
    for (uint32_t i = 0; i < mb * nb * 256; ++i) gc.SetValue(i, c1.ptr()[i]);
    qa.FreeTensor(a2);
    qb.FreeTensor(b2);
    qc.FreeTensor(c1);
}

}  // namespace

extern "C" __global__ __aicore__ void mmad_pin_half(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
    uint32_t k, uint32_t init, uint32_t variant)
{
    MmadPin<half, float>(a, b, c, m, n, k, init, variant);
}
extern "C" __global__ __aicore__ void mmad_pin_bfloat16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
    uint32_t k, uint32_t init, uint32_t variant)
{
    MmadPin<bfloat16_t, float>(a, b, c, m, n, k, init, variant);
}
extern "C" __global__ __aicore__ void mmad_pin_float(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
    uint32_t k, uint32_t init, uint32_t variant)
{
    MmadPin<float, float>(a, b, c, m, n, k, init, variant);
}
extern "C" __global__ __aicore__ void mmad_pin_int8(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
    uint32_t k, uint32_t init, uint32_t variant)
{
    MmadPin<int8_t, int32_t>(a, b, c, m, n, k, init, variant);
}
