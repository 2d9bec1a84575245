/* vktiir.h: recursivefilter's coefficient math in plain C — the filters as
 * linear state-space stages (the van Vliet/Young/Verbeek Gaussian in modal
 * form, exponential, custom direct-form recursions, the box's running sum),
 * their stability, gains and steady states, and the tail matrices of text
 * 004's tiled scans: state transitions over a block, the causal-to-
 * anticausal cross term of a tile, and the exact right-edge boundary of a
 * causal + anticausal pair on an infinitely extended line. */
#ifndef __VKT_IIR_H__
#define __VKT_IIR_H__

#include <glib.h>

#include "iir_interface.h"

G_BEGIN_DECLS

#define VKT_IIR_MAX_ORDER IIR_MAX_ORDER
#define VKT_IIR_MAX_LEVELS IIR_MAX_LEVELS       /* A^(E * 2^d), d < this */
#define VKT_IIR_TAIL_MAX_LEN IIR_TAIL_MAX_LEN

typedef enum
{
  VKT_IIR_FORM_NONE,            /* no stage */
  VKT_IIR_FORM_DIRECT = IIR_FORM_DIRECT,        /* y = b0 x + a . (y[n-1], ..., y[n-k]) */
  VKT_IIR_FORM_MODAL3 = IIR_FORM_MODAL3,        /* one real and one complex pole, in parallel */
  VKT_IIR_FORM_MODAL = IIR_FORM_MODAL,  /* up to 4 poles in parallel: two 2x2 blocks */
} VktIirForm;

/* One recursive stage as a state-space system run along the line (causal:
 * left to right; anticausal: right to left): with s the state before a
 * sample, s' = A s + B x and y = C s + D x. `coef` is what the shaders read
 * (see shaders/iir_common.glsl): DIRECT b0, a1..a4; MODAL3 p, re q, im q,
 * r, cr, ci, for w' = p w + x, z' = q z + x (complex), y = r w' + cr re z' +
 * ci im z'; MODAL the two 2x2 blocks of A (row-major), B, then the output
 * weights W of y = W . s'. */
typedef struct
{
  VktIirForm form;
  gint order;
  gdouble A[VKT_IIR_MAX_ORDER][VKT_IIR_MAX_ORDER];
  gdouble B[VKT_IIR_MAX_ORDER];
  gdouble C[VKT_IIR_MAX_ORDER];
  gdouble D;
  gdouble coef[16];
} VktIirStage;

void vkt_iir_stage_none (VktIirStage * stage);

/* y[n] = b0 x[n] + a1 y[n-1] + ... + ak y[n-k], 1 <= k <= 4. */
void vkt_iir_stage_direct (VktIirStage * stage, gdouble b0, const gdouble * a,
    guint k);

/* The same recursion as its poles in parallel (modal form) when they are
 * well apart, else as vkt_iir_stage_direct(). In float the direct form of
 * poles near 1 loses digits with each order; the modal form does not. */
void vkt_iir_stage_recursion (VktIirStage * stage, gdouble b0,
    const gdouble * a, guint k);

/* The causal half of the 3rd-order recursive Gaussian of van Vliet, Young
 * and Verbeek (1998); the same stage run anticausally completes it. Modal
 * form: the direct form's rounding error grows like sigma^2.5 in float. */
void vkt_iir_stage_gaussian (VktIirStage * stage, gdouble sigma);

/* Its poles: 1/d_i of the paper, scaled for sigma. */
void vkt_iir_gaussian_poles (gdouble sigma, gdouble * real_pole,
    gdouble * complex_re, gdouble * complex_im);

/* Every root of z^k - a1 z^(k-1) - ... - ak strictly inside |z| < 1. */
gboolean vkt_iir_feedback_is_stable (const gdouble * a, guint k);

/* Response to a constant input of 1: DC gain and steady state. FALSE when
 * the stage has none (a pole at 1). */
gboolean vkt_iir_stage_steady (const VktIirStage * stage, gdouble * gain,
    gdouble * state);

/* The sum of squares of the impulse response of `causal` then
 * `anticausal` (either may be FORM_NONE: that stage passes its input) on an
 * infinite line: the fraction of white noise's variance the pass keeps. */
gdouble vkt_iir_noise_energy (const VktIirStage * causal,
    const VktIirStage * anticausal);

/* The same for `iterations` boxes of 2 radius + 1 samples (normalised). */
gdouble vkt_iir_box_noise_energy (guint radius, guint iterations);

/* Everything a tiled scan along one axis needs besides the coefficients. A
 * chunk of the line is split into `subs` blocks of `elems` samples. */
typedef struct
{
  gint levels;                  /* log2 (subs) + 1 */
  /* Transitions: P[d] = A^(elems * 2^d); P[levels - 1] spans a chunk, and
   * P[levels - 1 + d] 2^d chunks. */
  gdouble Pc[VKT_IIR_MAX_LEVELS][VKT_IIR_MAX_ORDER][VKT_IIR_MAX_ORDER];
  gdouble Pa[VKT_IIR_MAX_LEVELS][VKT_IIR_MAX_ORDER][VKT_IIR_MAX_ORDER];
  /* Causal state entering a line that continues a constant 1 forever to
   * the left. */
  gdouble left[VKT_IIR_MAX_ORDER];
  /* The anticausal state leaving a chunk to the left, from the causal state
   * entering it (zero input, zero anticausal state at its right end). */
  gdouble cross[VKT_IIR_MAX_ORDER][VKT_IIR_MAX_ORDER];
  /* The anticausal state entering the last sample from the right, from the
   * causal state there (columns 0..kc-1) and the value E the line continues
   * with forever (column kc): the infinite extension, exactly. */
  gdouble right[VKT_IIR_MAX_ORDER][VKT_IIR_MAX_ORDER + 1];
  gdouble gain;                 /* DC gain of the chain */
  /* The output at step n of a block entered with state e_j and no input,
   * steps counted along the stage's direction: zir_c[n][j], zir_a[n][j]. */
  gdouble zir_c[IIR_BLOCK][VKT_IIR_MAX_ORDER];
  gdouble zir_a[IIR_BLOCK][VKT_IIR_MAX_ORDER];
  /* A chunk's tails from rest as weights of its samples (chunks of at most
   * VKT_IIR_TAIL_MAX_LEN; tail_len 0 otherwise): tail i = sum_n
   * tail_w[n][i] x[n], i < kc the causal state leaving the chunk, then the
   * anticausal state leaving it to the left. */
  gint tail_len;
  gdouble tail_w[VKT_IIR_TAIL_MAX_LEN][2 * VKT_IIR_MAX_ORDER];
} VktIirTables;

/* causal / anticausal: either may be FORM_NONE; a stage without a steady
 * state (the box's running sum) only as the causal one, without an
 * anticausal one. */
void vkt_iir_tables (VktIirTables * t, const VktIirStage * causal,
    const VktIirStage * anticausal, gint elems, gint subs);

/* The floats one scan pass reads from its uniform buffer, laid out as
 * iir_interface.h's IIR_U_* say. scale multiplies the filtered values;
 * unsharp is the amount of the unsharp mask of the last write. */
#define VKT_IIR_UNIFORM_FLOATS IIR_U_FLOATS
void vkt_iir_pack (const VktIirTables * t, const VktIirStage * causal,
    const VktIirStage * anticausal, gfloat scale, gfloat unsharp,
    gfloat * out);

/* The tail weights for iir_chunk_tails.comp, written after the floats of
 * vkt_iir_pack(): `out` holds VKT_IIR_TAIL_FLOATS. */
#define VKT_IIR_TAIL_FLOATS IIR_U_TAIL_FLOATS
void vkt_iir_pack_tail_weights (const VktIirTables * t, gfloat * out);

G_END_DECLS

#endif
