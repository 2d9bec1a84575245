/* vktiirplan.h: the plan of recursive-filter scans for one plane, shared by
 * the elements that run IIR filters (recursivefilter, gaussblur's
 * algorithm=recursive). It owns the filter's description (a VktIirSpec), the
 * tail tables of each axis's stages (cached per chunk length), the scratch a
 * plane needs, and recording: the axes in turn (y first, so that the last scan
 * writes the packed output along rows), box iterations as scans over padded
 * domains, per scan either "Compiling High Performance Recursive Filters"'s
 * tiled passes (intra-tile scan to tails, tails across tiles, final scan) or
 * the scanline baseline, and what the last scan fuses into its write (unsharp
 * mask, temporal smoothing). The element keeps its properties, the temporal
 * state buffer and the scratch buffer; the math is vktiir.c, the shaders
 * shaders/iir_*.comp. */
#ifndef __VKT_IIR_PLAN_H__
#define __VKT_IIR_PLAN_H__

#include "gstvktilefilter.h"
#include "vktiir.h"

G_BEGIN_DECLS

/* What to run on a plane. Axis 0 is along x, 1 along y; y runs first. */
typedef struct
{
  /* The stages of a pass along each axis; FORM_NONE: no stage. */
  VktIirStage causal[2], anticausal[2];
  /* Which axes run. None: one pass per pixel copies the ROI, smoothing it
   * across frames when there is temporal smoothing. */
  gboolean axis[2];
  /* The box of box_radius by running sums, `iterations` times (the
   * composite filter); the stages are then ignored. */
  gboolean box;
  guint box_radius, iterations;
  gboolean scanline;            /* the baseline instead of the tiled scans */
  guint tile_size;              /* tiled: chunk length in pixels, 0 auto */
  /* 0: the output is the filter v; else x + unsharp_amount (x - v), x the
   * source pixel (before temporal smoothing, rounding and clamping). */
  gfloat unsharp_amount;
} VktIirSpec;

/* Per-pixel smoothing across frames in the last write, y_t = w
 * y_(t-1) + (1 - w) k_t, in the float state buffer (refs[4]): w = alpha,
 * or with a motion scale T > 0, w = alpha exp(-((x_t - m_(t-1)) / T)^2),
 * x_t the spatially filtered value. k_t is x_t, or with a detail threshold
 * D > 0, x_t + r (1 - exp(-(r / D)^2)), r the source value minus x_t.
 * The motion reference m is y where k = x; with a detail threshold it is
 * x_t smoothed with the same weights, kept in the plane's ROI-sized region
 * after its y (m_(t-1) is y_(t-1) in the lane slots not in motion_ref_lanes:
 * the last frame kept no m there).
 * With `estimate_noise`, T and D are motion_scale and detail_threshold
 * times the noise sigma (8-bit code values) that the plan estimates from
 * the plane's input before filtering it, in VKT_IIR_NOISE_FLOATS floats
 * just before the plane's state, and also writes as float
 * noise_report_index of the buffer noise_report. */
typedef struct
{
  gfloat alpha;
  gfloat motion_scale;          /* T in the plane's code values; 0: w = alpha */
  gfloat detail_threshold;      /* D in the plane's code values; 0: none */
  guint motion_ref_lanes;       /* lane slots whose m is the last frame's */
  gboolean estimate_noise;
  gboolean clear_noise;         /* the estimate starts afresh */
  VktBufferRef noise_report;
  gint noise_report_index;
  gboolean reset;               /* the state starts as this frame */
  gint state_base;              /* floats: where this plane's state starts */
  /* The estimate also counts the differences from the last estimated
   * frame's samples (iir_interface.h, IIR_NOISE_COUNT_TEMPORAL), kept in
   * the state from uint noise_prev_base on; noise_prev_valid: they are
   * this recursion's. */
  gboolean noise_temporal;
  gint noise_prev_base;
  gboolean noise_prev_valid;
  /* The estimate's slot the count reads (0 or 1, iir_interface.h); with
   * noise_beside it writes the other slot and no barrier follows it: a
   * filter reading this slot runs beside it. */
  guint noise_slot;
  gboolean noise_beside;
} VktIirTemporal;

#define VKT_IIR_NOISE_FLOATS IIR_NOISE_FLOATS

/* The samples noise_temporal keeps of a plane of ROI w x h, lanes ncomp
 * per pixel (uints). */
#define VKT_IIR_NOISE_SAMPLES(w, h, ncomp) ((h) >= 3 && (w) >= 3 ? \
    (gsize) (((h) - 3) / IIR_NOISE_ROW_STEP + 1) * ((w) - 2) * (ncomp) : 0)

/* recursivefilter's motion-adaptive smoothing's scales, in standard
 * deviations of the noise (denoise narrows T and chooses D per frame:
 * gstdenoise.c).
 * Motion: a change of the filtered value by this many times what the
 * spatial filter leaves of the noise (T) is motion (its weight has fallen
 * to alpha / e). The filtered value is what moves between frames, and the
 * spatial filter has removed most of the noise from it: scaled by the raw
 * noise-sigma instead, a sigma=0.8 Gaussian took changes of three times
 * what it leaves for noise and let moving edges ghost.
 * Detail: keep-detail puts back what the spatial filter removed where it
 * exceeds this many noise-sigmas (D): at noise 5 on moving photos a
 * sigma=0.8 Gaussian alone scored below the noisy input, with this
 * 1.8-5.4 dB above it; at noise 20, where little detail stands out of the
 * noise, 0.1-0.9 dB below the plain filter (docs/DENOISE.md). */
#define VKT_MOTION_SIGMAS 3.0
#define VKT_DETAIL_SIGMAS 3.0

typedef struct _VktIirPlan VktIirPlan;

VktIirPlan *vkt_iir_plan_new (void);
void vkt_iir_plan_free (VktIirPlan * plan);

/* Copies the spec; drops the tables of an axis whose stages changed, and
 * computes the noise gain anew. Nothing when the spec is the same. */
void vkt_iir_plan_set_spec (VktIirPlan * plan, const VktIirSpec * spec);

/* How much of white noise's standard deviation the spatial filter keeps
 * (1 with no axis): the square root of its impulse response's energy. */
gdouble vkt_iir_plan_noise_gain (const VktIirPlan * plan);

/* Floats of scratch that recording plane `p` needs. */
gsize vkt_iir_plan_scratch_floats (const VktIirPlan * plan, const VktPlane * p);

/* Records every scan of plane `p`. refs: the packed input and output
 * planes' buffers, binding 2 (unused: the plan binds its uniforms), the
 * scratch buffer (at least vkt_iir_plan_scratch_floats() floats) and the
 * temporal state (any storage buffer when temporal is NULL). Borders:
 * clamp and constant (border_value, 0..1 of the format's range). */
gboolean vkt_iir_plan_record_plane (VktIirPlan * plan, VktCompute * compute,
    const VktBufferRef refs[5], const VktPlane * p, GstVkTileBorder border,
    gdouble border_value, const VktIirTemporal * temporal, GError ** error);

/* The noise estimate of `temporal` (estimate_noise) alone, as
 * vkt_iir_plan_record_plane() records it before the filter: refs 0 the
 * packed input plane, 4 the state (the estimate's VKT_IIR_NOISE_FLOATS
 * before temporal->state_base), followed by a barrier unless noise_beside. */
gboolean vkt_iir_record_noise_estimate (VktCompute * compute,
    const VktBufferRef refs[5], const VktPlane * p,
    const VktIirTemporal * temporal, GError ** error);

G_END_DECLS

#endif
