// Compatibility kernels (ours, in the style of public Ascend C for the Atlas inference series) for the
// region-proposal sort: ProposalConcat scores and ids into proposals, RpSort16 each group of 16,
// MrgSort4 four sorted groups into one list (optionally with exhausted suspension, then
// GetMrgSortResult), ProposalExtract the sorted scores and ids.  Built with soc="Ascend310P3".
// tests/test_sim_compat_proposal_sort.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kN = 64;        // four groups of 16 proposals
constexpr uint32_t kProp = 8;      // elements per proposal
}  // namespace

// scores: kN float; ids: kN float (labels that follow their proposal).
// outScores / outIds: the kN proposals after RpSort16 (groups = 1) or RpSort16 + MrgSort4 (groups = 4);
// counts (4 int32): GetMrgSortResult after the merge.
extern "C" __global__ __aicore__ void proposal_sort(GM_ADDR scores, GM_ADDR ids, GM_ADDR outScores, GM_ADDR outIds,
                                                   GM_ADDR counts, int32_t merge, int32_t suspend)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> propBuf, mergedBuf;
    pipe.InitBuffer(inQ, 1, 2 * kN * sizeof(float));
    pipe.InitBuffer(outQ, 1, 2 * kN * sizeof(float));
    pipe.InitBuffer(propBuf, kN * kProp * sizeof(float));
    pipe.InitBuffer(mergedBuf, kN * kProp * sizeof(float));
    GlobalTensor<float> sGm, iGm, osGm, oiGm;
    GlobalTensor<int32_t> cGm;
    sGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(scores), kN);
    iGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(ids), kN);
    osGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(outScores), kN);
    oiGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(outIds), kN);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(counts), 4);

    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopy(in, sGm, kN);
    DataCopy(in[kN], iGm, kN);
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    LocalTensor<float> prop = propBuf.Get<float>();
    LocalTensor<float> merged = mergedBuf.Get<float>();
    Duplicate(prop, 0.0f, kN * kProp);
    Duplicate(merged, 0.0f, kN * kProp);
    PipeBarrier<PIPE_V>();
    ProposalConcat(prop, in, kN / 16, 4);       // score field
    ProposalConcat(prop, in[kN], kN / 16, 5);   // label field: the id
    PipeBarrier<PIPE_V>();
    RpSort16(prop, prop, kN / 16);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> result = prop;
    if (merge != 0) {
        MrgSortSrcList<float> list(prop[0], prop[16 * kProp], prop[32 * kProp], prop[48 * kProp]);
        uint16_t lengths[4] = {16, 16, 16, 16};
        MrgSort4Info info(lengths, suspend != 0, 15, 1);
        MrgSort4(merged, list, info);
        PipeBarrier<PIPE_V>();
        result = merged;
        uint16_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
        GetMrgSortResult(c1, c2, c3, c4);
        cGm.SetValue(0, c1);
        cGm.SetValue(1, c2);
        cGm.SetValue(2, c3);
        cGm.SetValue(3, c4);
    }
    LocalTensor<float> out = outQ.AllocTensor<float>();
    ProposalExtract(out, result, kN / 16, 4);
    ProposalExtract(out[kN], result, kN / 16, 5);
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<float>();
    DataCopy(osGm, out, kN);
    DataCopy(oiGm, out[kN], kN);
    outQ.FreeTensor(out);
}

// A misuse: merging four lists into the buffer that holds them (the reference forbids the overlap).
extern "C" __global__ __aicore__ void mrg_sort4_overlap(GM_ADDR unused)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kN * kProp * sizeof(half));
    LocalTensor<half> p = buf.Get<half>();
    Duplicate(p, static_cast<half>(0), kN * kProp);
    PipeBarrier<PIPE_V>();
    MrgSortSrcList<half> list(p[0], p[16 * kProp], p[32 * kProp], p[48 * kProp]);
    uint16_t lengths[4] = {16, 16, 16, 16};
    MrgSort4Info info(lengths, false, 15, 1);
    MrgSort4(p, list, info);
    (void)unused;
}
