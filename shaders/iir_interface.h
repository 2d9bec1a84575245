/* iir_interface.h: the interface of the recursive-filter shaders
 * (iir_*.comp), included by lib/vktiirplan.c and lib/vktiir.c and by
 * shaders/iir_common.glsl — the push constants of one scan, the
 * specialization ids, the block and work-group sizes and the layout of the
 * uniform tables. See vktile_interface.h for how one list serves both. */
#ifndef IIR_INTERFACE_H
#define IIR_INTERFACE_H

#include "vktile_interface.h"

/* A scan filters `lines` line groups of 4 lanes. Along x a line group is
 * 4 / NCOMP consecutive rows of the ROI and its lanes their components;
 * along y it is 4 consecutive components of a row, aligned to the output's
 * words.
 * Positions along the axis are ROI coordinates; the scan covers virtual
 * positions v = p - out_lo + off from 0 to chunks * chunk length, `off`
 * aligning the blocks of a packed x output to its words. */
#define IIR_PUSH_FIELDS \
  VKT_I32 (in_base)     /* packed input plane: words */ \
  VKT_I32 (in_stride) \
  VKT_I32 (out_base)    /* packed output plane: words */ \
  VKT_I32 (out_stride) \
  VKT_I32 (src_x)       /* source ROI, plane pixels */ \
  VKT_I32 (src_y) \
  VKT_I32 (dst_x)       /* target ROI */ \
  VKT_I32 (dst_y) \
  VKT_I32 (width)       /* ROI size, pixels */ \
  VKT_I32 (height) \
  VKT_I32 (fin_base)    /* float input: first float, floats per row, domain */ \
  VKT_I32 (fin_stride) \
  VKT_I32 (fin_x0) \
  VKT_I32 (fin_y0) \
  VKT_I32 (fin_w) \
  VKT_I32 (fin_h) \
  VKT_I32 (fout_base)   /* float output */ \
  VKT_I32 (fout_stride) \
  VKT_I32 (fout_x0) \
  VKT_I32 (fout_y0) \
  VKT_I32 (out_lo)      /* positions written: [out_lo, out_lo + out_len) */ \
  VKT_I32 (out_len) \
  VKT_I32 (off) \
  VKT_I32 (chunks) \
  VKT_I32 (lines) \
  VKT_I32 (lane_off)    /* along y: line group 0 starts at component -lane_off */ \
  VKT_I32 (tails_base)  /* floats */ \
  VKT_I32 (state_base)  /* temporal state: floats, ROI-dense */ \
  VKT_I32 (box_r)       /* box radius; bit 30: the input continues by clamping */ \
  VKT_U32 (chan_mask)   /* bit c: component slot c of a pixel is filtered */ \
  VKT_F32 (ext_value)   /* the constant beyond the input, code values */ \
  VKT_F32 (temporal_alpha) /* 0 on a restart: the state starts as the frame */

/* Specialization ids (after the shared ones of vktile_interface.h). */
#define IIR_SPEC_KC 5           /* causal stage order, 0: none */
#define IIR_SPEC_KA 6           /* anticausal stage order */
#define IIR_SPEC_FORM_C 7       /* IIR_FORM_* of the causal stage */
#define IIR_SPEC_FORM_A 8
#define IIR_SPEC_AXIS 9         /* 0: along rows, 1: along columns */
#define IIR_SPEC_IN_FLOAT 10     /* input: packed plane / floats */
#define IIR_SPEC_OUT_KIND 11    /* IIR_OUT_* */
#define IIR_SPEC_BOX 12         /* input is the box's x[p+r] - x[p-r-1] */
#define IIR_SPEC_TEMPORAL 13    /* the write smooths across frames */
#define IIR_SPEC_FULL_MASK 14   /* every lane of the plane is filtered */
#define IIR_SPEC_SUBS 15        /* iir_scan, iir_box: blocks per chunk, a power of 2 */
#define IIR_SPEC_LEVEL 15       /* iir_tails: index of the chunk transition */
#define IIR_SPEC_SLOTS 16       /* iir_tails: chunks + 1 per line group, a power of 2 */
#define IIR_SPEC_ALIGNED 17     /* along y: a line group is one source word */
#define IIR_SPEC_UNSHARP 18     /* out = x + amount (x - filtered) */
#define IIR_SPEC_ITER 19        /* iir_box: iterations of the box, 1 to 3 */
#define IIR_SPEC_FRAC 20        /* iir_box: fraction bits of its fixed point */
#define IIR_SPEC_IN_FIXED 21    /* iir_box: input is the fixed-point image */
#define IIR_SPEC_OUT_RUNS 22     /* along x, packed output: a subgroup stores whole runs */
#define IIR_SPEC_NOISE_STEP 23  /* iir_noise: IIR_NOISE_* */
#define IIR_SPEC_COUNT 24

#define IIR_FORM_DIRECT 1       /* y = b0 x + a . past outputs */
#define IIR_FORM_MODAL3 2       /* one real and one complex pole */
#define IIR_FORM_MODAL 3        /* up to 4 poles: two 2x2 blocks */

#define IIR_OUT_PACKED 0
#define IIR_OUT_FLOATS 1
#define IIR_OUT_TAILS 2
#define IIR_OUT_FIXED 3         /* iir_box_rows: the fixed-point image */

/* The box's image between the axes for 8-bit formats: 16-bit values with
 * IIR_FIXED_FRAC fraction bits, rows of whole 16-byte vectors. */
#define IIR_FIXED_FRAC 8

#define IIR_MAX_ORDER 4
#define IIR_BLOCK 16            /* positions per invocation of a scan */
#define IIR_GROUP_SIZE 256      /* invocations per work-group of a scan */
#define IIR_MIN_SUBGROUP 4      /* iir_scan needs subgroups of at least this */
#define IIR_MAX_SUBS 256        /* blocks per chunk, at most */
#define IIR_MAX_LEVELS 16       /* transitions A^(BLOCK 2^d), d < this: blocks,
                                 * then chunks of up to IIR_MAX_SUBS blocks */
#define IIR_LINEAR_GROUP 64     /* iir_scanline, iir_box: lines per group */
#define IIR_COLS_LINES 16       /* iir_box_cols: line groups x segments of */
#define IIR_COLS_SEGS 16        /*   rows per work-group, */
#define IIR_COLS_ROWS 4         /*   rows per segment */
#define IIR_TEMPORAL_GROUP_X 64 /* iir_temporal: words x rows per group */
#define IIR_TEMPORAL_GROUP_Y 4
#define IIR_TAIL_MAX_LEN 256    /* iir_chunk_tails: longest chunk it sums */
#define IIR_TAIL_GROUP_X 32     /* iir_chunk_tails: line groups x */
#define IIR_TAIL_SPLIT 8        /*   stretches of a chunk per group */

/* noise-sigma estimated from the input (iir_noise.comp). Before each
 * plane's temporal state (push state_base) lie IIR_NOISE_FLOATS words:
 * IIR_NOISE_BINS counts of |Laplacian| (Immerkaer's 3x3 operator, whose
 * taps have an energy of 36) in bins of 1 / IIR_NOISE_BINS_PER_CODE 8-bit
 * code values, as many counts of the temporal differences (below), then a
 * vec4: x the estimate in 8-bit code values, y (a uint) the work-groups of
 * the count that have finished. The operator is evaluated on every
 * IIR_NOISE_ROW_STEP-th row. The count also writes the estimate to binding
 * 3 at float tails_base, where the CPU reads it.
 * IIR_NOISE_COUNT_TEMPORAL also keeps the code value of each sampled
 * position (x, component c, sampled row k) at uint fin_base + (k * (width -
 * 2) + x - 1) * NCOMP + c of the state, and where fin_stride is 1 (they
 * hold the last estimated frame's) counts |now - then| beside the
 * Laplacians: the estimate is then the smaller of the two medians', which
 * texture cannot raise where the scene holds still.
 * The vec4's z is a second estimate: the count reads the estimate from
 * word fout_base and writes it to word fout_stride after x (0: x, 2: z;
 * push fields no other use of the pass has), so that a filter reading
 * the one runs beside the count writing the other (denoise). */
#define IIR_NOISE_BINS 512
#define IIR_NOISE_BINS_PER_CODE 2
#define IIR_NOISE_FLOATS (2 * IIR_NOISE_BINS + 4)
#define IIR_NOISE_ESTIMATE_BACK 4 /* the estimate: state_base - this */
#define IIR_NOISE_ROW_STEP 8
#define IIR_NOISE_GROUP_X 256   /* positions along a row per work-group */
#define IIR_NOISE_GROUP_ROWS 8  /* sampled rows per work-group */
#define IIR_NOISE_CLEAR 0       /* steps: zero the counts and the estimate, */
#define IIR_NOISE_COUNT 1       /*   count a frame and update the estimate, */
#define IIR_NOISE_COUNT_TEMPORAL 2 /*   the same with temporal differences */
/* The estimate follows each frame's by this weight (a few frames' memory:
 * a change of gain settles, one frame's content does not swing it). */
#define IIR_NOISE_FOLLOW 0.125
/* Below this (8-bit code values) noise is taken as this: a clean synthetic
 * input still smooths what rounding leaves. */
#define IIR_NOISE_MIN_SIGMA 0.25

/* The uniform tables (binding 2, std140, vec4 rows), offsets in floats. */
#define IIR_U_COEF_C 0          /* causal stage coefficients, 16 */
#define IIR_U_COEF_A 16         /* anticausal, 16 */
#define IIR_U_LEFT 32           /* causal state entering a line of 1s */
#define IIR_U_MISC 36           /* output scale, DC gain, unsharp amount,
                                 * temporal motion scale T (< 0: -T per
                                 * 8-bit code of the noise estimate) */
#define IIR_U_DETAIL 40         /* x: the detail threshold of the
                                 * motion-adaptive mode in code values (0:
                                 * none, < 0: -x per 8-bit code of the
                                 * noise estimate); y: bit c set where
                                 * lane slot c's motion reference holds the
                                 * last frame's (else it is y's) */
#define IIR_U_PC 44             /* causal block transitions, 4x4 each */
#define IIR_U_PA (IIR_U_PC + 16 * IIR_MAX_LEVELS)
#define IIR_U_CROSS (IIR_U_PA + 16 * IIR_MAX_LEVELS)
#define IIR_U_RIGHT (IIR_U_CROSS + 16)  /* 4x4 */
#define IIR_U_RIGHT_E (IIR_U_RIGHT + 16)
/* Per step e of a block along a stage's direction, a vec4 row: the output
 * there from entering state j (entry j) with no input. */
#define IIR_U_ZIR_C (IIR_U_RIGHT_E + 4)
#define IIR_U_ZIR_A (IIR_U_ZIR_C + 4 * IIR_BLOCK)
#define IIR_U_FLOATS (IIR_U_ZIR_A + 4 * IIR_BLOCK)
/* iir_chunk_tails' uniform only: after the tables, per position n of a
 * chunk two vec4 rows of weights W[n][i], tail i = sum_n W[n][i] x[n]
 * (causal states, then anticausal). */
#define IIR_U_TAIL_W IIR_U_FLOATS
#define IIR_U_TAIL_FLOATS (IIR_U_TAIL_W + 8 * IIR_TAIL_MAX_LEN)

#endif
