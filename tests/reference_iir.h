/* vktile tests — CPU reference of recursivefilter.
 *
 * The double-precision definition the tests compare the element against,
 * written from docs/SEMANTICS.md and the element's interface only (no code
 * shared with plugin/): each selected component of the source ROI is
 * extended infinitely by the border rule (clamp or constant), filtered along
 * x then y on that infinite image, cropped, optionally blended over time,
 * rounded to nearest and clamped. "Infinite" is done the simple way: every
 * line is padded with its (constant) extension until the impulse response
 * has decayed far below 1e-7, the recursions run in double over the padded
 * line, and the line is cropped. Slow and obvious on purpose.
 *
 * ROI, planes, border-value and the rounding of ties reuse RefConv
 * (reference.h): only its border, border_value, roi_*, source_*, planes and
 * ties_down fields are used here.
 */
#ifndef VKTILE_TESTS_REFERENCE_IIR_H
#define VKTILE_TESTS_REFERENCE_IIR_H

#include <gst/video/video.h>
#include <complex.h>

#include "reference.h"

G_BEGIN_DECLS

typedef enum
{
  REF_IIR_GAUSSIAN,
  REF_IIR_EXPONENTIAL,
  REF_IIR_BOX,
  REF_IIR_CUSTOM,
  REF_IIR_N_FILTERS
} RefIirFilter;

typedef enum
{
  REF_IIR_CAUSAL,
  REF_IIR_ANTICAUSAL,
  REF_IIR_BOTH,
  REF_IIR_N_DIRECTIONS
} RefIirDirection;

typedef enum
{
  REF_IIR_AXES_X,
  REF_IIR_AXES_Y,
  REF_IIR_AXES_XY,
  REF_IIR_AXES_NONE,
  REF_IIR_N_AXES
} RefIirAxes;

#define REF_IIR_MAX_ORDER 4

/* Everything that determines recursivefilter's output, in the units of the
 * element's properties. */
typedef struct
{
  RefConv common;               /* border (clamp/constant), border_value,
                                 * roi_*, source_*, planes, ties_down */
  RefIirFilter filter;
  gdouble sigma;                /* gaussian; exponential when alpha < 0 */
  gdouble alpha;                /* exponential's a; < 0: exp(-1/sigma) */
  guint radius;                 /* box */
  guint iterations;             /* box, 1..3 */
  gdouble feedforward;          /* custom b0 */
  gdouble feedback[REF_IIR_MAX_ORDER];  /* custom a1..ak */
  guint n_feedback;             /* k, 1..4 */
  RefIirDirection direction;    /* exponential and custom only */
  RefIirAxes axes;
  gdouble temporal_alpha;
  /* temporal-mode=motion-adaptive with this noise-sigma (8-bit code
   * values); 0: temporal-mode=fixed. The weight of the previous output is
   * then temporal_alpha exp(-(d / T)^2), d = s_t - m_(t-1) in code values
   * (m: see RefIirTemporal),
   * T = 3 noise-sigma ref_iir_noise_gain() scaled to the component's
   * range. */
  gdouble noise_sigma;
  /* noise-sigma 0 with motion-adaptive: the noise sigma of each plane is
   * estimated from its input (see ref_iir_frame()) instead. */
  gboolean noise_auto;
  /* keep-detail (with temporal smoothing, motion-adaptive and a spatial
   * axis): the source x is smoothed with the same weights as s (u), and the
   * output is m + r (1 - exp(-(r / D_t)^2)), r = u - m, D_t = D ((1 - w) /
   * (1 + w))^0.4 and D = 3 noise-sigma in the component's range. */
  gboolean keep_detail;

  /* Not properties: deliberately WRONG variants of the definition, used
   * only by the self-tests to show that the comparison can fail.
   * wrong_reclamp: with direction both, the anticausal pass sees the causal
   * result clamped at the line's end instead of the causal result of the
   * infinite extension. wrong_y_extension: the y pass of a constant border
   * extends with border-value itself instead of the x-filtered constant. */
  gboolean wrong_reclamp;
  gboolean wrong_y_extension;
} RefIir;

/* The element's defaults: gaussian sigma 2, direction both, axes xy, clamp,
 * full frame, all planes, no temporal filter. */
void ref_iir_init (RefIir * p);

const gchar *ref_iir_filter_nick (RefIirFilter f);
const gchar *ref_iir_direction_nick (RefIirDirection d);
const gchar *ref_iir_axes_nick (RefIirAxes a);

/* van Vliet, Young & Verbeek's 3rd-order recursive Gaussian: the causal
 * y[n] = b0 x[n] + a1 y[n-1] + a2 y[n-2] + a3 y[n-3] whose causal∘anticausal
 * cascade has unit DC gain and variance sigma^2. Returns q. */
gdouble ref_iir_vv_coefficients (gdouble sigma, gdouble * b0, gdouble a[3]);

/* The variance sum_i 2 d_i / (d_i - 1)^2 of the cascade for poles d_i^(1/q). */
gdouble ref_iir_vv_variance (gdouble q);

/* The recursion one pass of p runs (gaussian, exponential, custom):
 * order k, b0 and a1..ak. FALSE for box. */
gboolean ref_iir_recursion (const RefIir * p, guint * k, gdouble * b0,
    gdouble a[REF_IIR_MAX_ORDER]);

/* The box FIR of radius r, n iterations: 2 n r + 1 taps, centred. */
void ref_iir_box_kernel (guint r, guint n, gdouble * k);

/* Samples of padding after which the one-pass impulse response of p stays
 * below 1e-13 of its peak (box: exactly iterations * radius). */
gint ref_iir_padding (const RefIir * p);

/* One 1D spatial filter of p (as along one axis) on the infinite line that
 * is in[0..n-1] continued by `left` before it and `right` after it. */
void ref_iir_filter_line (const RefIir * p, const gdouble * in, gint n,
    gdouble left, gdouble right, gdouble * out);

/* The spatial filter of p on a w x h image (row-major doubles) extended
 * infinitely by clamp, or by the constant cval when `constant`; out may not
 * alias in. Axes none copies. */
void ref_iir_image (const RefIir * p, const gdouble * in, gint w, gint h,
    gboolean constant, gdouble cval, gdouble * out);

/* Temporal state, per component: where the previous frame kept detail
 * (m_kept), the source's average u (in y) and the motion reference m, the
 * filtered value s smoothed with the same weights; elsewhere its unrounded
 * output y (m is y). */
typedef struct
{
  gboolean primed[GST_VIDEO_MAX_COMPONENTS];
  gint w[GST_VIDEO_MAX_COMPONENTS], h[GST_VIDEO_MAX_COMPONENTS];
  gdouble *y[GST_VIDEO_MAX_COMPONENTS];
  gboolean m_kept[GST_VIDEO_MAX_COMPONENTS];
  gdouble *m[GST_VIDEO_MAX_COMPONENTS];
  /* noise_auto: each plane's running noise estimate (8-bit code values),
   * valid while noise_primed. */
  gboolean noise_primed[GST_VIDEO_MAX_PLANES];
  gdouble noise_est[GST_VIDEO_MAX_PLANES];
  guint noise_age[GST_VIDEO_MAX_PLANES];        /* frames since estimated */
  /* The temporal estimate: each component's sampled values (rows 1, 9,
   * ..., x from 1, row by row) of the last estimated frame, this
   * recursion's where noise_prev_valid. */
  guint *noise_prev[GST_VIDEO_MAX_COMPONENTS];
  gsize noise_prev_n[GST_VIDEO_MAX_COMPONENTS];
  gboolean noise_prev_valid[GST_VIDEO_MAX_PLANES];
  gboolean noise_temporal_taken[GST_VIDEO_MAX_PLANES];
  /* With temporal differences, an estimate after the first temporal one
   * takes effect on the next frame: noise_next, where noise_next_due. */
  gdouble noise_next[GST_VIDEO_MAX_PLANES];
  gboolean noise_next_due[GST_VIDEO_MAX_PLANES];
  /* denoise's detail threshold, per filtered plane: frames of the run that
   * kept detail, t from the risk of the last frame that summed it, and the
   * t the frames keep until the next choice; the t of the last frame
   * (detail_t, of the planes in detail_planes), and with detail_given the
   * t the next frame takes instead of its own (the element's, whose sums
   * come from residuals in single precision: the tests check it against
   * detail_t) */
  guint detail_frames[GST_VIDEO_MAX_PLANES];
  gdouble detail_t_next[GST_VIDEO_MAX_PLANES];
  gdouble detail_t_kept[GST_VIDEO_MAX_PLANES];
  gdouble detail_t[GST_VIDEO_MAX_PLANES];
  guint detail_planes;
  gboolean detail_given;
  gdouble detail_t_given[GST_VIDEO_MAX_PLANES];
} RefIirTemporal;

/* The standard deviation of white noise of 1 after the spatial filter
 * (1 for axes none). */
gdouble ref_iir_noise_gain (const RefIir * p);

void ref_iir_temporal_init (RefIirTemporal * t);
/* The next frame starts the recursion afresh (y = s): start, flush,
 * discont, caps change. */
void ref_iir_temporal_reset (RefIirTemporal * t);
void ref_iir_temporal_copy (RefIirTemporal * dst, const RefIirTemporal * src);
void ref_iir_temporal_clear (RefIirTemporal * t);

/* The temporal stage of component c, shared by recursivefilter and
 * denoise: src the source ROI's values and s the spatial filter's, w x h
 * row-major, s replaced by the values output (unrounded); t used and
 * updated. sigma: the noise sigma in 8-bit code values (0: a fixed weight
 * a), gain what the spatial filter leaves of white noise of 1, keep_detail
 * keep-detail with a spatial filter. */
void ref_temporal_stage (RefIirTemporal * t, guint c, const gdouble * src,
    gdouble * s, gint w, gint h, gdouble maxv, gdouble a, gdouble sigma,
    gdouble gain, gboolean keep_detail);

/* ref_temporal_stage() with the motion of each value given: motion[i] in
 * place of (d / T)^2 in the weight (NULL: that of the value itself), and
 * the detail threshold D = sigma / detail_t (code values; 0: no detail put
 * back, the state as with keep-detail) instead of 3 sigma. */
void ref_temporal_stage_motion (RefIirTemporal * t, guint c,
    const gdouble * src, gdouble * s, gint w, gint h, gdouble maxv,
    gdouble a, gdouble sigma, gdouble gain, gboolean keep_detail,
    const gdouble * motion, gdouble detail_t);

/* The motion reference m of component c's last frame, w x h row-major, or
 * NULL where this frame (re)starts the recursion. */
const gdouble *ref_temporal_prev_m (const RefIirTemporal * t, guint c,
    gint w, gint h);

/* T, the motion scale in code values: sigmas sigma gain maxv / 255. */
gdouble ref_temporal_motion_scale (gdouble sigmas, gdouble sigma,
    gdouble gain, gdouble maxv);

/* One step of the causal recursion v = x + a1 y1 + ... + ak yk, y[] its
 * last k outputs (newest first, shifted in place): fed b0 then zeros, the
 * impulse response, one value a call. */
gdouble ref_iir_impulse_step (gdouble * y, const gdouble * a, guint k,
    gdouble x);

/* Updates each plane's noise estimate in t for frame `in` (the components
 * and ROI of `common`): on the frame the recursion (re)starts, then on
 * every interval-th frame after it. With `temporal`, a frame's sigma is
 * the smaller of the spatial one and the one from the differences of its
 * sampled values from the last estimated frame's (from the second estimate
 * of a recursion on, which replaces the estimate instead of moving it);
 * then the estimates after that one move the estimate from the next frame
 * on, the frame that takes them filtering with the estimate as it stood.
 * Call before ref_temporal_stage(). */
void ref_noise_estimates (const GstVideoFrame * in, const RefConv * common,
    guint interval, gboolean temporal, RefIirTemporal * t);

/* Each plane's latest estimate (what noise-estimate reads): the one the
 * next frame takes where one is due, else the one in use. */
void ref_noise_latest (const RefIirTemporal * t,
    gdouble est[GST_VIDEO_MAX_PLANES]);

/* Filters component c of in into out with the settings `data` and the
 * temporal state t (NULL: none): a reference's per-component stage. */
typedef void (*RefCompFilter) (const GstVideoFrame * in, GstVideoFrame * out,
    guint c, gconstpointer data, RefIirTemporal * t);

/* What recursivefilter's and denoise's references do with a frame: out a
 * copy of in, then, with a state t, the noise estimates updated
 * (ref_noise_estimates() with interval and temporal) where `estimate`,
 * else forgotten, then `filter` on every component common->planes
 * selects. */
void ref_temporal_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * common, RefIirTemporal * t, gboolean estimate,
    guint interval, gboolean temporal, RefCompFilter filter,
    gconstpointer data);

/* out = recursivefilter(in). Both frames mapped with the same format and
 * size; strides may differ. t: NULL for no temporal filter at all (as if
 * every frame were the first), else the state, which is used and updated
 * (always updated, also while temporal_alpha is 0). */
void ref_iir_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefIir * p, RefIirTemporal * t);

/* A one-line description of p for failure messages; g_free() it. */
gchar *ref_iir_describe (const RefIir * p);

/* The feedback a1..ak of prod_i (1 - p_i z^-1) = 1 - a1 z^-1 - ... - ak z^-k
 * (the poles of the recursion are the p_i). */
void ref_iir_feedback_from_poles (const double complex * p, guint k,
    gdouble * a);

/* k random stable feedback coefficients from random poles inside
 * |z| < 0.95 (complex pairs and real ones), and b0 such that the DC gain
 * b0 / (1 - sum a) is near 1 (0.9 to 1.1: with a constant border, a gain
 * other than 1 shows whether the y pass sees the x-filtered constant).
 * Resonant ones whose impulse response has an L1 norm above 3 are drawn
 * again: they amplify fp32 rounding beyond what a 16-bit output can hide
 * (a gain of ~100 over two passes puts 65535-range values at an fp32
 * spacing of 0.5 codes), which is not what these tests are about. */
void ref_iir_random_custom (GRand * r, guint k, gdouble * b0, gdouble * a);

/* The true sampled Gaussian of an image (w x h doubles, row by row):
 * normalised weights exp(-k^2 / 2 sigma^2), |k| <= ceil(5 sigma), along x
 * then y, with the same border as the element (clamp: index clamp;
 * constant: cval). */
void ref_true_gaussian_image (gdouble sigma, const gdouble * in, gint w,
    gint h, gboolean constant, gdouble cval, gdouble * out);

/* How far (8-bit code values) the recursive Gaussian may be from the true
 * sampled one on smooth images, for sigma (measured: reference_iir.c). */
gdouble ref_iir_gaussian_true_bound (gdouble sigma);

G_END_DECLS

#endif /* VKTILE_TESTS_REFERENCE_IIR_H */
