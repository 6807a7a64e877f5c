// The GEMV's and GEMM's per-type tuning on an H200: rows per warp, which
// types stage their blocks or mark their loads streaming, how many blocks
// per SM the kernels leave room for, how wide a GEMM pass is. Each choice
// names the A/B run it came from (docs/BENCHMARKS.md has the runs). For
// gemv.cu only.
#pragma once

#include "gpu_dialect.h"
#include "vt/kernels/gpu/kernels.h"
#include "vt/policy/ggml_type.h"

namespace vt::gpu {

// Rows per warp: kFewRows for batch 1-2 (kGemvRowsAtFewActivations below
// for the plain GEMV), kManyRows for larger batches, so each activation load
// serves more rows.
constexpr int kFewRows = 2;
constexpr int kManyRows = 4;

// Activations the batch 1-2 kernels serve at most: their sums and their
// per-activation code exist only for these, so they carry no registers or
// instructions for activations 3-8. That took batch 1 on an H200 (one A/B
// run) from 2991 to 3164 GB/s for Q4_K, 3399 to 3586 for Q8_0, 2181 to 2520
// for MXFP4 and 2199 to 2694 for IQ4_XS. Batch 1 (and the expert GEMV,
// always one activation per slot) has a kernel of its own, with room for
// one: against the batch-2 kernel (two runs, batch 1 / expert GB/s) Q4_K
// 3298 / 2798 -> 3500 / 2828, IQ4_XS 3036 / 2463 -> 3180 / 2626, Q5_K 3318 /
// 2828 -> 3398 / 2784, Q6_K 2943 / 2731 -> 2976 / 2784, MXFP4 2671 / 2028
// -> 2708 / 2045; Q5_0 (2824 -> 2790) and IQ1_S lost about 1%.
constexpr int kFewActivations = 2;

// Types whose batch 1 and expert GEMV keep the two-activation kernel,
// where their own measured slower on an H200 (two runs, batch 1 / expert
// GB/s, two-activation kernel against their own): IQ2_XS 1288 / 1054
// against 1225 / 1031, IQ2_S 1296 / 1084 against 1257 / 1070, IQ1_M 824 /
// 674 against 806 / 666. In the same runs Q1_0 gained 17.6% at batch 1
// and Q2_K, Q3_K, TQ2_0 and Q2_0 3-4%. NVFP4 kept the two-activation kernel
// (2528 / 2138 against 2386 / 2061) until its scales were decoded without
// branches (Ue4m3Half); then (one A/B run, three rounds) 2772-2781 /
// 2331-2347 against 3009-3028 / 2495-2534 on its own. With their codebook
// copies the other three kept it (one A/B run, three rounds): IQ2_S 1416-1420
// / 1203-1211 against 1384-1389 / 1184-1196, IQ2_XS 1320-1324 / 1119-1122
// against 1304-1311 / 1114-1116, IQ1_M 823-828 / 714-717 against 826-834 /
// 714-720.
template <GgmlType T>
constexpr bool kBatchOneOnTwoActivationKernel =
    T == GgmlType::kIQ2_XS || T == GgmlType::kIQ2_S || T == GgmlType::kIQ1_M;

// Rows per warp of the plain (not expert) GEMV at batch 2, and at batch 1
// but where kGemvRowsAtBatchOne (below) says otherwise, per type: 3
// where that beat 2 on an H200 (two runs of 2, 3 and 4 rows each; batch 1
// GB/s, 2 against 3 rows): Q4_0 3217 / 3386, Q5_K 3156 / 3188, IQ4_XS 2721
// / 2736, IQ1_S 901 / 938, TQ2_0 1887 / 1952, Q2_K 2002 / 2049, IQ4_NL 2633
// / 2682, Q4_K 3266 / 3282, IQ2_XXS level at batch 1 and 1094 / 1140 at
// batch 2. Q4_1 (3377 / 2806), Q8_0 (3508 / 2508), Q6_K (since then 3 at
// batch 1 only), NVFP4, Q3_K, Q5_0 and Q5_1 lost; 4 rows lost for every
// type but Q4_0 (3384). MXFP4 lost too until its wide loads
// (int_decode_small.cuh), then took 3 (one A/B run, two rounds: 2956-2992
// / 3031-3049); its expert GEMV keeps 2 (2461 against 2371 with 3).
template <GgmlType T>
constexpr int kGemvRowsAtFewActivations =
    T == GgmlType::kQ4_0 || T == GgmlType::kQ2_K || T == GgmlType::kQ4_K || T == GgmlType::kQ5_K ||
            T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ1_S || T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS ||
            T == GgmlType::kTQ2_0 || T == GgmlType::kMXFP4
        ? 3
        : kFewRows;

// Rows per warp of the plain GEMV at batch 1: kGemvRowsAtFewActivations,
// but 3 for Q6_K, whose batch 1 went from 3297-3321 to 3331-3352 GB/s on an
// H200 with 3 (one A/B run, four rounds; Q4_K, the control, level) while
// its batch 2 fell from 2683-2760 to 2027-2055, so batch 2 keeps 2.
template <GgmlType T>
constexpr int kGemvRowsAtBatchOne = T == GgmlType::kQ6_K ? 3 : kGemvRowsAtFewActivations<T>;

// Rows per warp of the expert GEMV (of more than one expert): 3 for Q5_K,
// Q2_K and IQ4_NL, where that beat 2 on an H200 with the batch-1 kernel
// (two runs, expert GB/s, 2 against 3 rows: Q5_K 2776, 2773 / 2906, 2906;
// Q2_K 1571, 1566 / 1638, 1635; IQ4_NL 2376, 2360 / 2420, 2411). Q4_K
// (2822 / 2471), IQ2_XXS, Q4_0 and IQ4_XS lost 1-13%, IQ1_S and TQ2_0 moved
// within 1%; with the two-activation kernel 3 rows had lost for all. Since
// then Q6_K (2769-2778 / 2646-2663) and MXFP4 (2461 / 2371) lost too. With
// the early loads (one A/B run, three rounds, expert GEMV default / GEMV
// alone, 2 against 3 rows) Q4_0 went from 2893-2900 / 3160-3171 to
// 3034-3054 / 3378-3390, IQ4_XS from 2737-2748 / 3015-3050 to 2763-2777 /
// 3060-3068 and MXFP4 from 2723-2740 / 3038-3052 to 2739-2748 / 3127-3132,
// so they take 3 (their batch-1 kernel, kGemvRowsAtBatchOne); Q4_K
// (3058-3077 / 2669-2684), Q6_K, Q8_0, Q4_1, Q5_0, Q5_1 and NVFP4 lost
// 2-35%, and 1 row lost for every type (MXFP4 2300-2306, Q4_0 2579-2602).
// Q4_0 then took 6 rows, its loop unrolled by two (kDirectRowsUnroll),
// which fit its 80 registers without spills; 6 rows put its 8 x 2048-row
// call in one wave of resident blocks on an H200 (688 blocks of 4 warps,
// room for 792). NVFP4 lost with 3 rows again on its offset decoder (one
// A/B run, three rounds, default call: 2843-2866 against 2675-2691, and
// loading early 2904-2927 against 2732-2776).
// On an H200 (two A/B runs, three rounds each, expert GEMV default /
// GEMV alone, 3 rows against 6 rows unrolled): 3029-3036 / 3337-3340
// against 3254-3269 / 3603-3605, and 3047-3060 / 3373-3392 against
// 3304-3319 / 3652-3668; 6 rows rolled gave 3141-3164 / 3448-3469. The
// same 6 rows spilled (32-216 bytes of stack) and lost 9-45% for IQ4_NL,
// IQ4_XS, MXFP4, Q4_K, Q5_K and Q5_0; so did 6 or 8 rows at four blocks a
// SM, and 4 rows (docs/BENCHMARKS.md, the twenty-third session). So did
// one wave of spill-free blocks (one A/B run, four rounds, default /
// alone, IQ4_NL): 5 rows at seven blocks a SM 2600-2628 / 2809-2835, 4 rows
// at eight 2769-2779 / 2875-2890, against 2794-2819 / 3056-3067 (the
// twenty-fifth session).
template <GgmlType T>
constexpr int kExpertGemvRows = T == GgmlType::kQ4_0 ? 6
                                : T == GgmlType::kQ5_K || T == GgmlType::kQ2_K || T == GgmlType::kIQ4_NL ||
                                        T == GgmlType::kIQ4_XS || T == GgmlType::kMXFP4
                                    ? 3
                                    : kFewRows;

// Types whose GEMV stages spans through shared memory; the others load
// their blocks straight from global memory, lane by lane. Chosen per type
// on an H200 (docs/BENCHMARKS.md); Q8_0's 34-byte blocks, read lane by lane,
// touched many lines per load (batch 1: 2866 GB/s direct, 3172 staged).
template <GgmlType T>
constexpr bool kStagedGemv = T == GgmlType::kQ8_0 || T == GgmlType::kQ3_K || T == GgmlType::kQ6_K ||
                             T == GgmlType::kIQ1_S || T == GgmlType::kIQ1_M || T == GgmlType::kIQ2_XS ||
                             T == GgmlType::kIQ2_S || T == GgmlType::kIQ3_XXS || T == GgmlType::kIQ3_S;

// Staged types whose batch 1-2 GEMV copies its spans by cp.async
// (span_stage.cuh: no registers, no shared stores) instead of through
// registers; CUDA only. In one A/B run on an H200 (three rounds, batch 1
// GB/s, through registers against cp.async): IQ1_S 922-932 / 961-966,
// IQ2_XS 1285-1294 / 1323-1333, IQ2_S 1291-1294 / 1334-1343, IQ3_XXS
// 1293-1297 / 1363-1368, IQ3_S 1429-1442 / 1497-1510, IQ1_M 817-824 /
// 826-832. Q8_0 lost (3626-3642 / 3422-3427) and Q6_K and Q3_K moved
// within 1% at batch 1 while their expert GEMV lost 1-2%. IQ4_NL, IQ4_XS
// and MXFP4 lost 15-24% with cp.async at batch 1 and in the expert GEMV,
// with two, three or four spans a warp in flight (IQ4_NL batch 1 / expert
// 3360-3386 / 2809-2822 against 2718-2773 / 2226-2370; the twenty-fifth
// session).
template <GgmlType T>
constexpr bool kAsyncStagedGemv =
#if defined(VT_HIP)
    false;
#else
    T == GgmlType::kIQ1_S || T == GgmlType::kIQ1_M || T == GgmlType::kIQ2_XS || T == GgmlType::kIQ2_S ||
    T == GgmlType::kIQ3_XXS || T == GgmlType::kIQ3_S;
#endif

// Types whose plain batch 1-2 GEMV and expert GEMV set their first weight
// loads on their way before they wait for the quantizer: a staged type's first span, a direct type's
// first chunk, decoded before the wait. On an H200 (one A/B run, three
// rounds, batch 1 GB/s, waiting first against loading first): Q4_K
// 3533-3543 / 3666-3667, IQ4_XS 3264-3274 / 3387-3391, MXFP4 3244-3299 /
// 3363-3374, Q5_K 3401-3423 / 3471-3482, Q4_0 3778-3787 / 3830-3832,
// Q3_K 1910-1933 / 1960-1961, Q6_K 3203-3212 / 3222-3256; in another
// (two rounds, batch 1 / batch 2) Q5_0 3509-3535 / 2405-2406 against
// 3548-3554 / 2951-2954, Q5_1 +2-3%, Q4_1 +1.6% / -0.5%, IQ2_XXS +2% /
// +4%, Q2_K level / +2%, IQ4_NL level / +1-3%. Q8_0 (first run 3639-3655
// against 3593-3596, second 3619-3634 against 3516-3523), NVFP4, Q1_0 and
// Q2_0 lost 1-3%; the IQ1, IQ2_XS, IQ2_S, IQ3, TQ1_0 and TQ2_0 kernels
// moved within 1%. A third run (three rounds)
// confirmed the list at batch 1 / batch 2: for example Q4_K 3503-3515 /
// 2960-2969 against 3638-3640 / 3041-3049, MXFP4 3238-3279 / 2598-2607
// against 3317-3342 / 2785-2846; IQ2_XXS's batch 1 moved -2% there.
//
// Their expert GEMV, behind its own quantizer with ids that are not
// settled (ExpertGemvArgs::ids_settled), loads early too: its quantizer
// then lets it launch only after the quantizer's own wait
// (QuantizeActivationsQ8ReleasedAfterWait), so whatever the kernels before
// the call wrote (the ids, the weights) is in memory when it reads the ids
// (from L2) and the weights. On an H200 (two A/B runs, three rounds each,
// expert GEMV GB/s, waiting first against loading first): Q2_K 1755-1760
// / 1817-1821, Q4_K 3017-3031 / 3076-3083, Q5_K 2865-2880 / 2936-2956,
// IQ4_NL 2697-2732 / 2782-2794, MXFP4 2569-2590 / 2628-2638, Q4_1 +1.7%,
// Q3_K +1.5%, Q5_0, Q5_1, Q6_K and IQ2_XXS +0.7-1.7%; batch 1 level. Q4_0
// (-0.3%) and IQ4_XS (+0.1%) gained nothing in the first run and waited
// first until IQ4_XS's early kernels unrolled by two (6dffa93); then, in
// one run of four rounds, waiting first against loading first: Q4_0
// 2847-2867 / 2868-2888, IQ4_XS 2698-2729 / 2729-2755, every round higher.
// Releasing every GEMV after the quantizer's wait cost batch 1 1-3% (Q4_0
// 3825-3829 against 3757-3765), so the plain GEMV's quantizer releases it
// at once. So does an expert GEMV's with settled ids, which then loads
// early as the plain GEMV does. On an H200 (two full runs, expert GEMV
// GB/s, not settled against settled): Q4_K 3051-3056 / 3130-3136, Q6_K
// 2972-2989 / 3011-3034, IQ4_XS 2686-2712 / 2726-2762, MXFP4 2738-2745 /
// 2779-2788, Q5_0 3171-3183 / 3230-3240, Q4_1, Q5_1, IQ2_XXS and Q4_0
// +1-2%, IQ4_NL +0.3%, Q2_K -0.6%.
//
// NVFP4 joined once its dp4a decoder took the offset lookup
// (CodeOrder::kSubBlockPairs): on an H200 (one A/B run, three rounds,
// expert GEMV default call / batch 1 GB/s, waiting first against loading
// first) 2843-2866 / 3443-3465 against 2904-2927 / 3362-3378, and with
// its loop unrolled by two as well (kDirectRowsUnroll) 2915-2947 /
// 3413-3439.
template <GgmlType T>
constexpr bool kEarlyWeightsGemv =
    T == GgmlType::kQ4_0 || T == GgmlType::kQ4_1 || T == GgmlType::kQ5_0 || T == GgmlType::kQ5_1 ||
    T == GgmlType::kQ2_K || T == GgmlType::kQ3_K || T == GgmlType::kQ4_K || T == GgmlType::kQ5_K ||
    T == GgmlType::kQ6_K || T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS ||
    T == GgmlType::kMXFP4 || T == GgmlType::kNVFP4;

// Staged types whose plain batch-1 GEMV (kEarlyWeightsGemv) copies its
// spans by cp.async, while their expert GEMV keeps the copy through
// registers (kAsyncStagedGemv: the expert GEMV lost with cp.async). On an
// H200 (one A/B run, four rounds, Q6_K, both loading first; ceilings
// 4063-4094 GB/s): batch 1 3263-3283 against 3282-3302, the expert GEMV
// (the other kernel) 2940-2994 against 2853-2910. Eight blocks a SM lost
// (3136-3147). Its batch 2 fell with cp.async and the early loads
// together (another run: 2656-2684 with neither, 2623-2637 with both), so
// it copies through registers there. CUDA only.
template <GgmlType T>
constexpr bool kAsyncStagedEarly =
#if defined(VT_HIP)
    false;
#else
    T == GgmlType::kQ6_K;
#endif

// Q4_1 stages its blocks at batch 1-2 only: in one A/B run on an H200,
// batch 1 went from 3205 to 3378 GB/s and the expert GEMV from 2762 to
// 2860, while staging Q4_0, Q5_0, Q5_1, IQ4_NL, IQ4_XS, MXFP4, Q4_K and
// seven other types lost 2-22% (Q4_K 3204 -> 2816, IQ4_XS 2650 -> 2086).
template <GgmlType T>
constexpr bool kStagedAtFewRows = T == GgmlType::kQ4_1;

// How many of a lane's chunks (l, l + 32, ...) the batch-1 kernel (the
// expert GEMV's too) unrolls its direct loop by: 2 where that measured
// faster on an H200 (one A/B run, three rounds; batch 1 / expert GB/s,
// rolled against unrolled): Q4_K 3507-3514 / 2834-2839 against 3491-3523 /
// 2951-2993, IQ4_NL 3176-3187 / 2661-2677 against 3286-3302 / 2685-2701,
// Q5_0 3453-3457 / 3051-3058 against 3483-3514 / 3086-3121, IQ2_XXS
// 1360-1362 / 1044-1047 against 1383-1389 / 1045-1049, Q1_0 1389-1391 /
// 949-956 against 1413-1421 / 957-961; later (one run, three rounds)
// MXFP4 3366-3374 / 2615-2633 against 3425-3434 / 2720-2732, while IQ4_XS
// moved +0.5% / -1.3%. Q4_0 (batch 1 3741-3752 against 3560-3579), Q5_K,
// NVFP4 and TQ2_0 lost 4-9%. Their batch-2 kernels lost with it (another
// run: IQ4_NL 2684-2695 against 2317-2332, Q4_K 2946-2970 against
// 2673-2691, IQ2_XXS 1198-1205 against 1124-1125, Q5_0 2369-2379 against
// 2308-2317) and keep the loop rolled (1). IQ4_XS unrolls only where it
// loads its first weights before its wait (kEarly: the batch-1 kernel, and
// the expert GEMV with settled ids): one A/B run on an H200 (three rounds,
// expert GEMV GB/s, rolled against unrolled) gave settled ids 2762-2800 /
// 2796-2814, a shared quantizer 2871-2903 / 2904-2918, the GEMV alone
// 2978-3016 / 3018-3039, but unsettled ids (its expert GEMV then waits
// first) 2721-2756 / 2698-2723; batch 1 level (3393-3395 / 3389-3395).
// Q4_0's 6-row expert kernel (kExpertGemvRows) unrolls by 2 as well; its
// 3-row batch-1 kernel keeps the loop rolled. NVFP4, loading early, took
// it too (kEarlyWeightsGemv has the figures).
template <GgmlType T, int R, int N, bool kEarly>
constexpr int kDirectRowsUnroll =
    N == 1 && (T == GgmlType::kQ4_K || T == GgmlType::kIQ4_NL || T == GgmlType::kQ5_0 || T == GgmlType::kIQ2_XXS ||
               T == GgmlType::kQ1_0 || T == GgmlType::kMXFP4 || (T == GgmlType::kIQ4_XS && kEarly) ||
               T == GgmlType::kNVFP4 ||
               (T == GgmlType::kQ4_0 && R == kExpertGemvRows<T>))
        ? 2
        : 1;

// Types whose GEMV sums a chunk's 32 products as one integer and scales
// the sum once, where the decoder gives the chunk one scale and one min
// (IntBlock<T>::kHalfScales false; otherwise it always takes two sums).
// Chosen on an H200 (docs/BENCHMARKS.md; batch 1 GB/s, two sums against
// one, over two device sessions): IQ4_XS 2765-2796 against 2840-2860,
// IQ2_XXS 1298 / 1336-1344, Q1_0 1131 / 1176-1179, Q4_1, Q5_0, Q5_1,
// IQ4_NL, TQ2_0 and Q4_K 1-2% faster. The staged types lost (Q8_0
// 3575-3628 against 3502-3536, IQ1_S, IQ3_XXS and IQ3_S 2-3%), and so did
// Q5_K (3269-3294 against 3211-3247); they keep two sums.
template <GgmlType T>
constexpr bool kSummedChunkDot = !kStagedGemv<T> && T != GgmlType::kQ5_K;

// Types whose batch 1-2 GEMV marks its block loads streaming too. In one
// A/B run on an H200 (batch 1 / expert GEMV GB/s, cached against
// streaming): Q4_0 3140 / 2680 against 3204 / 2689, Q4_K 3201 / 2675
// against 3247 / 2771, Q5_K 3061 / 2615 against 3169 / 2709, IQ4_XS
// 2683 / 2160 against 2709 / 2255, Q2_K and TQ2_0 4-7% faster; Q5_0 and
// MXFP4 lost 3-4%. IQ4_NL lost 4% (one A/B run, four rounds, batch 1 /
// expert GEMV: 3347-3363 / 2807-2833 against 3206-3222 / 2702-2712), its
// streaming loads reading its blocks as AlignedRun.
template <GgmlType T>
constexpr bool kStreamingAtFewRows = T == GgmlType::kQ4_0 || T == GgmlType::kQ2_K || T == GgmlType::kQ4_K ||
                                     T == GgmlType::kQ5_K || T == GgmlType::kIQ4_XS || T == GgmlType::kTQ2_0;

// Resident blocks per SM the compiler must leave room for (it caps
// registers to fit): six for batch 1-2 kernels (at most 80 registers) or
// eight for some types (below); four for the batch 3-8 kernels of the
// types where that measured faster, none for the rest. Chosen on an H200
// (docs/BENCHMARKS.md has the runs): at batch 8 four took Q6_K from 842
// to 1021 GB/s and Q2_K from 439 to 699, but Q8_0 from 1442 down to 1011
// and IQ1_S from 414 to 305.
template <GgmlType T>
constexpr bool kFourBlocksAtManyRows =
    T == GgmlType::kQ4_0 || T == GgmlType::kQ4_1 || T == GgmlType::kQ2_K || T == GgmlType::kQ5_K ||
    T == GgmlType::kQ6_K || T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS ||
    T == GgmlType::kMXFP4 || T == GgmlType::kTQ2_0 || T == GgmlType::kQ1_0 || T == GgmlType::kQ2_0;

// The batch 1-2 kernels held to eight blocks (64 registers) instead of six,
// where that measured faster on an H200 (one A/B run, batch 1 / expert
// GEMV GB/s, six against eight): Q4_K 3164 / 2343 against 3203 / 2671,
// MXFP4 2520 / 1876 against 2573 / 1893, Q5_1 2610 / 2398 against
// 2754 / 2524. Q8_0 (2460 / 2460 with eight), Q5_K and Q6_K lost. MXFP4
// again with its wide loads and three rows: 3217-3231 / 2490-2501 with six
// against 3265-3288 / 2550-2581. NVFP4 with eight, loading early: batch 1
// 3362-3378 -> 3490-3506, expert GEMV 2904-2927 -> 2877-2885 (one A/B run,
// three rounds), so it keeps six.
template <GgmlType T>
constexpr bool kEightBlocksAtFewRows = T == GgmlType::kQ4_1 || T == GgmlType::kQ5_0 || T == GgmlType::kQ5_1 ||
                                       T == GgmlType::kQ4_K || T == GgmlType::kIQ2_XXS || T == GgmlType::kMXFP4;

template <GgmlType T, int N>
constexpr int kMinBlocksPerSm =
    N <= kFewActivations ? (kEightBlocksAtFewRows<T> ? 8 : 6) : kFourBlocksAtManyRows<T> ? 4 : 1;

// Codebook types whose dp4a GEMV (batch 1-8 below the tensor cores, and the
// expert GEMV) copies the grid into shared memory for its decoder
// (IntBlock<T>::Codebook()), for activation caps N (kernel template
// argument) where that measured faster. On an H200 (one A/B run, three
// rounds, batch 1 / expert GEMV GB/s, global grid against the copy):
// IQ2_XXS 1375-1388 / 1045-1054 against 1429-1436 / 1088-1100, IQ3_XXS
// 1362-1369 / 1190-1194 against 1379-1389 / 1217-1225, IQ3_S 1497-1512 /
// 1306-1310 against 1543-1553 / 1380-1393. The larger grids, read from
// global memory through L1 by 8-byte lookups at random places, kept L1 the
// busiest unit (ncu: L1/TEX 81% of its peak for IQ1_S's expert GEMV); with
// the copy (IQ1_S and IQ2_S as nibbles, iq_nibble_grids.cuh) another run
// (three rounds, batch 1 / expert GB/s) gave IQ1_S 956 / 715-720 against
// 1017-1020 / 790-796 (1189-1195 / 889-898 with nibbles), IQ2_S 1341-1348 /
// 1101-1111 against 1341-1344 / 1155-1160 (1425-1431 / 1206-1216 with
// nibbles), IQ2_XS 1330-1334 / 1090-1095 against 1323-1330 / 1122-1130,
// IQ1_M 827-829 / 670-674 against 827-829 / 714-719. IQ1_M's batch 3 (the
// kernel of up to kMaxGemvBatch activations) lost with its 16 KB copy
// (608-609 against 580-581 GB/s) and reads the global grid there; IQ2_XS's
// batch 3 moved within 1% (869-870 against 876-878), IQ2_S's gained (898
// against 950-956).
template <GgmlType T, int N>
constexpr bool kSharedCodebookGemv =
    T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ3_XXS || T == GgmlType::kIQ3_S || T == GgmlType::kIQ1_S ||
    T == GgmlType::kIQ2_XS || T == GgmlType::kIQ2_S || (T == GgmlType::kIQ1_M && N <= kFewActivations);

// Activations per GEMM pass over the weights: kGemmColumns, but 8 (the
// GEMV's passes) for Q4_K, whose 8-tile kernel measured slower at batch 64
// on an H200 (one A/B run, TFLOP/s: Q4_K 55.5 in passes of 8 against 52.2;
// IQ4_XS 40.5 against 66.1, Q4_0 51.7 against 62.2).
template <GgmlType T>
constexpr int kGemmPassColumns = T == GgmlType::kQ4_K ? kMaxGemvBatch : kGemmColumns;

}  // namespace vt::gpu
