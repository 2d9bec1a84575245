/* vktile tests — CPU reference of recursivefilter (see reference_iir.h).
 *
 * Transcription of the definition in double precision:
 *
 * - A line x[0..n-1] is continued by a constant on each side: the border's
 *   value (clamp: the edge sample; constant: border-value * max). It is padded
 *   with P copies of those constants, P long enough for the impulse response
 *   to have decayed below 1e-13 of its peak (box: exactly iterations*radius).
 * - causal: y[i] = b0 x[i] + sum_j a_j y[i-j], started in the steady state of
 *   the left constant (which the infinite line has been in since -inf);
 *   anticausal: the same from the right end, y[i+j]; both: causal over the
 *   whole padded line, then anticausal over the causal result (so the
 *   anticausal pass sees the causal result beyond the edge); crop.
 * - box: direct convolution with the n-fold convolution of the 2r+1 box.
 * - 2D: every row along x, then every column of that along y. The rows above
 *   and below the image are, for clamp, copies of the edge rows, so their
 *   x-filtered values are the edge row's, i.e. the column is continued by
 *   its end values; for constant they are constant rows, whose x-filtered
 *   value is the x filter of a constant line (the DC gain times the
 *   constant, not the constant itself when the gain is not 1).
 * - temporal: y = a y_prev + (1 - a) s per value, unrounded; round to
 *   nearest, clamp. Motion-adaptive: a exp(-(d / T)^2) instead of a,
 *   d = s - y_prev, T = 3 sigma gain max / 255 with gain the root of the
 *   spatial filter's impulse energy and sigma the noise-sigma, or (noise
 *   sigma 0) each plane's estimate: the median m of |L| over the plane's
 *   filtered components, L the 3x3 operator [1 -2 1; -2 4 -2; 1 -2 1] at
 *   every source-ROI pixel one away from its edges on rows 1, 9, 17, ...,
 *   m read from a histogram of |L| in 8-bit code values in bins of 1/2
 *   (the last one open-ended) by linear interpolation in the bin where the
 *   count reaches half the total; sigma_f = m / (0.6745 * 6); the estimate
 *   starts as sigma_f (reset, or the previous frame without it) and then
 *   moves 1/8 of the way to each frame's; never below 0.25; a frame with
 *   no position keeps it (0.25 at a start).
 */
#include "reference_iir.h"

#include <complex.h>
#include <math.h>
#include <string.h>

void
ref_iir_init (RefIir * p)
{
  memset (p, 0, sizeof (*p));
  /* ref_conv_init's clamp border of 0 and all planes are the element's
   * defaults too */
  ref_conv_init (&p->common);
  p->filter = REF_IIR_GAUSSIAN;
  p->sigma = 2.0;
  p->alpha = -1.0;
  p->radius = 2;
  p->iterations = 1;
  p->feedforward = 0.5;
  p->feedback[0] = 0.5;
  p->n_feedback = 1;
  p->direction = REF_IIR_BOTH;
  p->axes = REF_IIR_AXES_XY;
  p->temporal_alpha = 0.0;
  p->noise_sigma = 0.0;
}

const gchar *
ref_iir_filter_nick (RefIirFilter f)
{
  static const gchar *nicks[] = { "gaussian", "exponential", "box", "custom" };
  g_assert (f < REF_IIR_N_FILTERS);
  return nicks[f];
}

const gchar *
ref_iir_direction_nick (RefIirDirection d)
{
  static const gchar *nicks[] = { "causal", "anticausal", "both" };
  g_assert (d < REF_IIR_N_DIRECTIONS);
  return nicks[d];
}

const gchar *
ref_iir_axes_nick (RefIirAxes a)
{
  static const gchar *nicks[] = { "x", "y", "xy", "none" };
  g_assert (a < REF_IIR_N_AXES);
  return nicks[a];
}

/* ------------------------------------------------------------------------ */
/* van Vliet, Young & Verbeek 1998 */

/* The poles for sigma0 = 2 given by the definition. */
static void
vv_poles (gdouble q, double complex d[3])
{
  const double complex d1 = 1.41650 + 1.00829 * I;
  const double complex d3 = 1.86543;

  d[0] = cpow (d1, 1.0 / q);
  d[1] = conj (d[0]);
  d[2] = cpow (d3, 1.0 / q);
}

gdouble
ref_iir_vv_variance (gdouble q)
{
  double complex d[3], v = 0;
  gint i;

  vv_poles (q, d);
  for (i = 0; i < 3; i++)
    v += 2.0 * d[i] / ((d[i] - 1.0) * (d[i] - 1.0));
  return creal (v);
}

gdouble
ref_iir_vv_coefficients (gdouble sigma, gdouble * b0, gdouble a[3])
{
  gdouble lo = log (1e-4), hi = log (1e6), target = sigma * sigma, q;
  double complex d[3], p[3];
  gint it, i;

  /* the variance grows with q (the poles move towards 1): bisect on log q */
  for (it = 0; it < 200; it++) {
    gdouble mid = 0.5 * (lo + hi);
    if (ref_iir_vv_variance (exp (mid)) < target)
      lo = mid;
    else
      hi = mid;
  }
  q = exp (0.5 * (lo + hi));
  vv_poles (q, d);
  for (i = 0; i < 3; i++)
    p[i] = 1.0 / d[i];
  /* prod (1 - p_i z^-1) = 1 - a1 z^-1 - a2 z^-2 - a3 z^-3 */
  a[0] = creal (p[0] + p[1] + p[2]);
  a[1] = -creal (p[0] * p[1] + p[0] * p[2] + p[1] * p[2]);
  a[2] = creal (p[0] * p[1] * p[2]);
  *b0 = 1.0 - a[0] - a[1] - a[2];
  return q;
}

/* ------------------------------------------------------------------------ */
/* one pass, as prepared once per image */

gboolean
ref_iir_recursion (const RefIir * p, guint * k, gdouble * b0,
    gdouble a[REF_IIR_MAX_ORDER])
{
  gdouble e;
  guint i;

  memset (a, 0, REF_IIR_MAX_ORDER * sizeof (gdouble));
  switch (p->filter) {
    case REF_IIR_GAUSSIAN:
      ref_iir_vv_coefficients (p->sigma, b0, a);
      *k = 3;
      return TRUE;
    case REF_IIR_EXPONENTIAL:
      e = p->alpha >= 0.0 ? p->alpha : exp (-1.0 / p->sigma);
      *k = 1;
      *b0 = 1.0 - e;
      a[0] = e;
      return TRUE;
    case REF_IIR_CUSTOM:
      g_assert (p->n_feedback >= 1 && p->n_feedback <= REF_IIR_MAX_ORDER);
      *k = p->n_feedback;
      *b0 = p->feedforward;
      for (i = 0; i < p->n_feedback; i++)
        a[i] = p->feedback[i];
      return TRUE;
    case REF_IIR_BOX:
    default:
      return FALSE;
  }
}

void
ref_iir_box_kernel (guint r, guint n, gdouble * k)
{
  guint len = 2 * r + 1, total = 1, it, i, j;
  gdouble *tmp;

  g_assert (n >= 1);
  tmp = g_new0 (gdouble, 2 * n * r + 1);
  k[0] = 1.0;
  for (it = 0; it < n; it++) {
    guint out_len = total + len - 1;

    memset (tmp, 0, out_len * sizeof (gdouble));
    for (i = 0; i < total; i++)
      for (j = 0; j < len; j++)
        tmp[i + j] += k[i] / len;
    memcpy (k, tmp, out_len * sizeof (gdouble));
    total = out_len;
  }
  g_free (tmp);
}

typedef struct
{
  gboolean box;
  gdouble *kernel;              /* box: 2 * half + 1 taps */
  gint half;
  guint k;
  gdouble b0, a[REF_IIR_MAX_ORDER], gain;       /* gain: b0 / (1 - sum a) */
  gboolean causal, anticausal;
  gint pad;
  gboolean wrong_reclamp;
} Pass;

gdouble
ref_iir_impulse_step (gdouble * y, const gdouble * a, guint k, gdouble x)
{
  gdouble v = x;
  guint j;

  for (j = 0; j < k; j++)
    v += a[j] * y[j];
  for (j = k - 1; j > 0; j--)
    y[j] = y[j - 1];
  y[0] = v;
  return v;
}

static gint
iir_padding (guint k, gdouble b0, const gdouble * a)
{
  /* the impulse response, until 16k consecutive values are below 1e-13 of
   * the largest so far (its state is then negligible) */
  gdouble y[REF_IIR_MAX_ORDER] = { 0 }, peak = 0.0;
  gint n, small = 0;

  for (n = 0; n < (1 << 24); n++) {
    gdouble v = ref_iir_impulse_step (y, a, k, n == 0 ? b0 : 0.0);

    peak = MAX (peak, fabs (v));
    if (fabs (v) <= 1e-13 * peak)
      small++;
    else
      small = 0;
    if (small >= (gint) (16 * k) && n > 8)
      return n + 1;
  }
  g_error ("recursion does not decay: not stable?");
  return n;
}

static void
pass_prepare (const RefIir * p, Pass * s)
{
  memset (s, 0, sizeof (*s));
  s->wrong_reclamp = p->wrong_reclamp;
  if (p->filter == REF_IIR_BOX) {
    g_assert (p->iterations >= 1 && p->iterations <= 3);
    s->box = TRUE;
    s->half = p->radius * p->iterations;
    s->kernel = g_new (gdouble, 2 * s->half + 1);
    ref_iir_box_kernel (p->radius, p->iterations, s->kernel);
    s->pad = s->half;
    return;
  }
  ref_iir_recursion (p, &s->k, &s->b0, s->a);
  {
    gdouble sum = 0.0;
    guint j;
    for (j = 0; j < s->k; j++)
      sum += s->a[j];
    s->gain = s->b0 / (1.0 - sum);
  }
  if (p->filter == REF_IIR_GAUSSIAN) {
    s->causal = s->anticausal = TRUE;
  } else {
    s->causal = p->direction != REF_IIR_ANTICAUSAL;
    s->anticausal = p->direction != REF_IIR_CAUSAL;
  }
  s->pad = iir_padding (s->k, s->b0, s->a);
}

static void
pass_clear (Pass * s)
{
  g_free (s->kernel);
}

/* buf: scratch of n + 2 * pad doubles */
static void
pass_line (const Pass * s, const gdouble * in, gint n, gdouble left,
    gdouble right, gdouble * out, gdouble * buf)
{
  gint P = s->pad, L = n + 2 * P, i, m;
  guint j;

  for (i = 0; i < P; i++) {
    buf[i] = left;
    buf[P + n + i] = right;
  }
  memcpy (buf + P, in, n * sizeof (gdouble));

  if (s->box) {
    for (i = 0; i < n; i++) {
      gdouble sum = 0.0;
      for (m = -s->half; m <= s->half; m++)
        sum += s->kernel[m + s->half] * buf[P + i + m];
      out[i] = sum;
    }
    return;
  }

  if (s->causal) {
    /* in place: buf[i] only feeds y[i] */
    for (i = 0; i < L; i++) {
      gdouble v = s->b0 * buf[i];
      for (j = 1; j <= s->k; j++)
        v += s->a[j - 1] * (i - (gint) j >= 0 ? buf[i - j] : s->gain * left);
      buf[i] = v;
    }
  }
  if (s->anticausal) {
    gdouble end;

    if (s->causal && s->wrong_reclamp)
      for (i = P + n; i < L; i++)
        buf[i] = buf[P + n - 1];
    /* beyond the padded line the input is (within 1e-13) a constant */
    end = buf[L - 1];
    for (i = L - 1; i >= 0; i--) {
      gdouble v = s->b0 * buf[i];
      for (j = 1; j <= s->k; j++)
        v += s->a[j - 1] * (i + (gint) j < L ? buf[i + j] : s->gain * end);
      buf[i] = v;
    }
  }
  memcpy (out, buf + P, n * sizeof (gdouble));
}

gint
ref_iir_padding (const RefIir * p)
{
  Pass s;
  gint pad;

  pass_prepare (p, &s);
  pad = s.pad;
  pass_clear (&s);
  return pad;
}

void
ref_iir_filter_line (const RefIir * p, const gdouble * in, gint n,
    gdouble left, gdouble right, gdouble * out)
{
  Pass s;
  gdouble *buf;

  pass_prepare (p, &s);
  buf = g_new (gdouble, n + 2 * s.pad);
  pass_line (&s, in, n, left, right, out, buf);
  g_free (buf);
  pass_clear (&s);
}

void
ref_iir_image (const RefIir * p, const gdouble * in, gint w, gint h,
    gboolean constant, gdouble cval, gdouble * out)
{
  gboolean along_x = p->axes == REF_IIR_AXES_X || p->axes == REF_IIR_AXES_XY;
  gboolean along_y = p->axes == REF_IIR_AXES_Y || p->axes == REF_IIR_AXES_XY;
  gdouble *line, *res, *buf, cy = cval;
  Pass s;
  gint i, j;

  memcpy (out, in, (gsize) w * h * sizeof (gdouble));
  if (!along_x && !along_y)
    return;
  pass_prepare (p, &s);
  buf = g_new (gdouble, MAX (w, h) + 2 * s.pad);
  line = g_new (gdouble, MAX (w, h));
  res = g_new (gdouble, MAX (w, h));

  if (along_x) {
    for (j = 0; j < h; j++) {
      gdouble *row = out + (gsize) j * w;
      pass_line (&s, row, w, constant ? cval : row[0],
          constant ? cval : row[w - 1], res, buf);
      memcpy (row, res, w * sizeof (gdouble));
    }
    /* the rows beyond the top and bottom edges: constant rows, filtered */
    if (constant && !p->wrong_y_extension)
      pass_line (&s, &cval, 1, cval, cval, &cy, buf);
  }
  if (along_y) {
    for (i = 0; i < w; i++) {
      for (j = 0; j < h; j++)
        line[j] = out[(gsize) j * w + i];
      pass_line (&s, line, h, constant ? cy : line[0],
          constant ? cy : line[h - 1], res, buf);
      for (j = 0; j < h; j++)
        out[(gsize) j * w + i] = res[j];
    }
  }
  g_free (res);
  g_free (line);
  g_free (buf);
  pass_clear (&s);
}

/* ------------------------------------------------------------------------ */
/* temporal state */

void
ref_iir_temporal_init (RefIirTemporal * t)
{
  memset (t, 0, sizeof (*t));
}

void
ref_iir_temporal_reset (RefIirTemporal * t)
{
  guint c;

  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++)
    t->primed[c] = FALSE;
}

void
ref_iir_temporal_copy (RefIirTemporal * dst, const RefIirTemporal * src)
{
  guint c;

  ref_iir_temporal_clear (dst);
  *dst = *src;
  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++) {
    gsize size = (gsize) src->w[c] * src->h[c] * sizeof (gdouble);

    dst->y[c] = src->y[c] ? g_memdup2 (src->y[c], size) : NULL;
    dst->m[c] = src->m[c] ? g_memdup2 (src->m[c], size) : NULL;
    dst->noise_prev[c] = src->noise_prev[c] ?
        g_memdup2 (src->noise_prev[c], src->noise_prev_n[c] * sizeof (guint))
        : NULL;
  }
}

void
ref_iir_temporal_clear (RefIirTemporal * t)
{
  guint c;

  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++) {
    g_free (t->y[c]);
    g_free (t->m[c]);
    g_free (t->noise_prev[c]);
  }
  memset (t, 0, sizeof (*t));
}

/* The standard deviation the spatial filter leaves of white noise of 1: the
 * root of the energy of its impulse response, each axis's line filter
 * applied to an impulse far from the line's ends. */
gdouble
ref_iir_noise_gain (const RefIir * p)
{
  gint pad = ref_iir_padding (p), n = 2 * pad + 1, i, axes;
  gdouble *line = g_new0 (gdouble, n), *out = g_new0 (gdouble, n);
  gdouble energy = 0.0;

  line[pad] = 1.0;
  ref_iir_filter_line (p, line, n, 0.0, 0.0, out);
  for (i = 0; i < n; i++)
    energy += out[i] * out[i];
  g_free (line);
  g_free (out);
  axes = p->axes == REF_IIR_AXES_XY ? 2 : p->axes == REF_IIR_AXES_NONE ? 0 : 1;
  return pow (sqrt (energy), axes);
}

/* ------------------------------------------------------------------------ */
/* frames */

#define NOISE_BINS 512

/* Component c's recursion goes on from t this frame, its ROI w x h: else it
 * restarts (y = s), and so does its plane's noise estimate. */
static gboolean
recursion_continues (const RefIirTemporal * t, guint c, gint w, gint h)
{
  return t->primed[c] && t->w[c] == w && t->h[c] == h;
}

/* The median of a histogram of NOISE_BINS bins, linear inside the bin
 * where the count reaches half the total; < 0 when it is empty. */
static gdouble
hist_median (const guint64 * hist)
{
  guint64 total = 0;
  gdouble below = 0.0;
  gint i;

  for (i = 0; i < NOISE_BINS; i++)
    total += hist[i];
  if (total == 0)
    return -1.0;
  for (i = 0; i < NOISE_BINS; i++) {
    if (hist[i] > 0 && below + hist[i] >= 0.5 * total)
      return i + (0.5 * total - below) / hist[i];
    below += hist[i];
  }
  return NOISE_BINS;
}

/* This frame's noise sigma of plane `plane`, 8-bit code values, from the
 * components the planes mask selects; < 0 when it has no position. With
 * `temporal`, also from the differences of the sampled values from t's
 * (where t holds this recursion's), the smaller; the samples are kept. */
static gdouble
frame_noise_sigma (const GstVideoFrame * in, const RefConv * common,
    guint plane, gboolean temporal, RefIirTemporal * t)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  guint64 hist[NOISE_BINS] = { 0 }, hist_t[NOISE_BINS] = { 0 };
  gdouble m, m_t, temporal_maxv = 0.0;
  guint c;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++) {
    gdouble maxv = ref_comp_maxv (finfo, c);
    gint tx, ty, px, py, w, h, x, y;
    gsize k = 0;

    if (ref_comp_filtered_plane (finfo, c) != plane
        || !(common->planes & (1u << c))
        || !ref_comp_roi (common, in, c, &tx, &ty, &px, &py, &w, &h))
      continue;
    temporal_maxv = maxv;
    if (temporal && (!t->noise_prev[c] || t->noise_prev_n[c] != (gsize) w * h))
      t->noise_prev_valid[plane] = FALSE;
    if (temporal && !t->noise_prev_valid[plane]) {
      g_free (t->noise_prev[c]);
      t->noise_prev[c] = g_new0 (guint, (gsize) w * h);
      t->noise_prev_n[c] = (gsize) w * h;
    }
    for (y = 1; y < h - 1; y += 8) {
      for (x = 1; x < w - 1; x++, k++) {
        gdouble L = 0.0;
        guint64 bin;
        gint dx, dy;
        for (dy = -1; dy <= 1; dy++)
          for (dx = -1; dx <= 1; dx++)
            L += (dx == 0 ? -2.0 : 1.0) * (dy == 0 ? -2.0 : 1.0) *
                ref_comp_get (in, c, px + x + dx, py + y + dy);
        /* floor (|L| 510 / maxv), exactly */
        bin = (guint64) fabs (L) * 510 / (guint64) maxv;
        hist[MIN (bin, NOISE_BINS - 1)]++;
        if (temporal) {
          guint now = ref_comp_get (in, c, px + x, py + y);
          if (t->noise_prev_valid[plane]) {
            bin = (guint64) ABS ((gint) now - (gint) t->noise_prev[c][k]) *
                510 / (guint64) maxv;
            hist_t[MIN (bin, NOISE_BINS - 1)]++;
          }
          t->noise_prev[c][k] = now;
        }
      }
    }
  }
  m = hist_median (hist);
  m_t = hist_median (hist_t);
  if (m < 0.0)
    return -1.0;
  m = m / 2.0 / (0.6745 * 6.0);
  if (m_t >= 0.0) {
    /* 8-bit differences are whole codes: each spread over [k - 1/2,
     * k + 1/2), [0, 1/2) for 0 (a grouped median). */
    if (temporal_maxv == 255.0) {
      gdouble k = floor (m_t / 2.0), frac = m_t - 2.0 * k;
      m_t = k == 0.0 ? 0.5 * frac : k - 0.5 + frac;
    } else {
      m_t /= 2.0;
    }
    m = MIN (m, m_t / (0.6745 * G_SQRT2));
  }
  return m;
}

void
ref_noise_estimates (const GstVideoFrame * in, const RefConv * common,
    guint interval, gboolean temporal, RefIirTemporal * t)
{
  guint plane, c;

  for (plane = 0; plane < ref_n_filtered_planes (&in->info); plane++) {
    gboolean restart = !t->noise_primed[plane];
    gboolean later;
    gdouble f, est;

    /* the last frame's estimate, taken beside its filter */
    if (t->noise_next_due[plane])
      t->noise_est[plane] = t->noise_next[plane];
    t->noise_next_due[plane] = FALSE;

    /* A restart of the recursion restarts the estimate. */
    for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++) {
      gint tx, ty, px, py, w, h;

      if (ref_comp_filtered_plane (in->info.finfo, c) == plane
          && (common->planes & (1u << c))
          && ref_comp_roi (common, in, c, &tx, &ty, &px, &py, &w, &h)
          && !recursion_continues (t, c, w, h))
        restart = TRUE;
    }
    /* Besides every interval-th frame, the first after a restart takes
     * the first temporal estimate. */
    if (!restart && ++t->noise_age[plane] < MAX (interval, 1)
        && !(temporal && !t->noise_temporal_taken[plane]))
      continue;
    t->noise_age[plane] = 0;
    later = temporal && !restart && t->noise_temporal_taken[plane];
    if (restart) {
      t->noise_est[plane] = 0.0;
      t->noise_prev_valid[plane] = FALSE;
    } else if (temporal && !t->noise_temporal_taken[plane]) {
      /* The first sigma with temporal differences replaces the spatial
       * ones before it. */
      t->noise_est[plane] = 0.0;
      t->noise_temporal_taken[plane] = TRUE;
    }
    if (restart)
      t->noise_temporal_taken[plane] = FALSE;
    f = frame_noise_sigma (in, common, plane, temporal, t);
    t->noise_prev_valid[plane] = temporal;
    est = t->noise_est[plane];
    if (f >= 0.0)
      est = est > 0.0 ? est + (f - est) / 8.0 : f;
    est = MAX (est, 0.25);
    if (later) {
      t->noise_next[plane] = est;
      t->noise_next_due[plane] = TRUE;
    } else {
      t->noise_est[plane] = est;
    }
    t->noise_primed[plane] = TRUE;
  }
}

void
ref_noise_latest (const RefIirTemporal * t, gdouble est[GST_VIDEO_MAX_PLANES])
{
  guint plane;

  for (plane = 0; plane < GST_VIDEO_MAX_PLANES; plane++)
    est[plane] = t->noise_next_due[plane] ? t->noise_next[plane] :
        t->noise_est[plane];
}

const gdouble *
ref_temporal_prev_m (const RefIirTemporal * t, guint c, gint w, gint h)
{
  if (!recursion_continues (t, c, w, h))
    return NULL;
  return t->m_kept[c] ? t->m[c] : t->y[c];
}

gdouble
ref_temporal_motion_scale (gdouble sigmas, gdouble sigma, gdouble gain,
    gdouble maxv)
{
  return sigmas * sigma * gain * maxv / 255.0;
}

void
ref_temporal_stage (RefIirTemporal * t, guint c, const gdouble * src,
    gdouble * s, gint w, gint h, gdouble maxv, gdouble a, gdouble sigma,
    gdouble gain, gboolean keep_detail)
{
  ref_temporal_stage_motion (t, c, src, s, w, h, maxv, a, sigma, gain,
      keep_detail, NULL, 1.0 / 3.0);
}

void
ref_temporal_stage_motion (RefIirTemporal * t, guint c, const gdouble * src,
    gdouble * s, gint w, gint h, gdouble maxv, gdouble a, gdouble sigma,
    gdouble gain, gboolean keep_detail, const gdouble * motion,
    gdouble detail_t)
{
  /* Motion is judged on s alone, against m, s's own recursion. Without
   * keep-detail the output y is that recursion. With it, the source has a
   * recursion of its own (kept in y), and the output is m plus the part of
   * their difference that stands out of the noise the average leaves. */
  gboolean keep = a > 0.0 && sigma > 0.0 && keep_detail;
  gboolean continues = recursion_continues (t, c, w, h);
  gsize n = (gsize) w * h, i;
  gdouble *y = g_memdup2 (keep ? src : s, n * sizeof (gdouble));
  gdouble *m = g_memdup2 (s, n * sizeof (gdouble));
  gdouble T = ref_temporal_motion_scale (3.0, sigma, gain, maxv);
  gdouble D = sigma * maxv / 255.0 / detail_t;  /* infinite for t = 0 */

  for (i = 0; i < n; i++) {
    gdouble wt = 0.0, r, q;
    if (continues) {
      const gdouble *prev_m = t->m_kept[c] ? t->m[c] : t->y[c];
      wt = a;
      if (sigma > 0.0) {
        gdouble d = (s[i] - prev_m[i]) / T;
        wt = a * exp (motion ? -motion[i] : -d * d);
      }
      y[i] = wt * (keep ? t->y[c][i] : prev_m[i]) + (1.0 - wt) * y[i];
      m[i] = wt * prev_m[i] + (1.0 - wt) * s[i];
    }
    if (keep) {
      r = y[i] - m[i];
      q = r / (D * pow ((1.0 - wt) / (1.0 + wt), 0.4));
      s[i] = m[i] + r * (1.0 - exp (-q * q));
    } else {
      s[i] = y[i];
    }
  }
  g_free (t->y[c]);
  g_free (t->m[c]);
  t->y[c] = y;
  t->m[c] = m;
  t->m_kept[c] = keep;
  t->w[c] = w;
  t->h[c] = h;
  t->primed[c] = TRUE;
}

static void
filter_component (const GstVideoFrame * in, GstVideoFrame * out, guint c,
    gconstpointer data, RefIirTemporal * t)
{
  const RefIir *p = data;
  RefCompRect r;

  g_assert (p->common.border == REF_BORDER_CLAMP
      || p->common.border == REF_BORDER_CONSTANT);
  if (!ref_comp_rect_read (&p->common, in, c, &r))
    return;

  ref_iir_image (p, r.src, r.w, r.h, p->common.border == REF_BORDER_CONSTANT,
      p->common.border_value * r.maxv, r.dst);

  if (t)
    ref_temporal_stage (t, c, r.src, r.dst, r.w, r.h, r.maxv,
        p->temporal_alpha, p->noise_auto ?
        t->noise_est[ref_comp_filtered_plane (in->info.finfo, c)] :
        p->noise_sigma, ref_iir_noise_gain (p), p->keep_detail
        && p->axes != REF_IIR_AXES_NONE);

  ref_comp_rect_write (out, c, &r, p->common.ties_down);
}

void
ref_iir_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefIir * p, RefIirTemporal * t)
{
  ref_temporal_frame (in, out, &p->common, t, p->noise_auto
      && p->temporal_alpha > 0.0, 1, FALSE, filter_component, p);
}

void
ref_temporal_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * common, RefIirTemporal * t, gboolean estimate,
    guint interval, gboolean temporal, RefCompFilter filter,
    gconstpointer data)
{
  guint c;

  g_return_if_fail (GST_VIDEO_FRAME_FORMAT (in) == GST_VIDEO_FRAME_FORMAT (out));
  /* padding bytes, unselected components and pixels outside the target ROI
   * are the input unchanged */
  ref_frame_copy (out, in);
  if (t && estimate) {
    ref_noise_estimates (in, common, interval, temporal, t);
  } else if (t) {
    memset (t->noise_primed, 0, sizeof (t->noise_primed));
    memset (t->noise_next_due, 0, sizeof (t->noise_next_due));
  }
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++)
    if (common->planes & (1u << c))
      filter (in, out, c, data, t);
}

gchar *
ref_iir_describe (const RefIir * p)
{
  GString *s = g_string_new (ref_iir_filter_nick (p->filter));
  const RefConv *q = &p->common;
  guint i;

  switch (p->filter) {
    case REF_IIR_GAUSSIAN:
      g_string_append_printf (s, " sigma=%.17g", p->sigma);
      break;
    case REF_IIR_EXPONENTIAL:
      g_string_append_printf (s, " alpha=%.17g sigma=%.17g direction=%s",
          p->alpha, p->sigma, ref_iir_direction_nick (p->direction));
      break;
    case REF_IIR_BOX:
      g_string_append_printf (s, " radius=%u iterations=%u", p->radius,
          p->iterations);
      break;
    case REF_IIR_CUSTOM:
      g_string_append_printf (s, " feedforward=%.17g feedback=<",
          p->feedforward);
      for (i = 0; i < p->n_feedback; i++)
        g_string_append_printf (s, "%s%.17g", i ? ", " : "", p->feedback[i]);
      g_string_append_printf (s, "> direction=%s",
          ref_iir_direction_nick (p->direction));
      break;
    default:
      break;
  }
  g_string_append_printf (s, " axes=%s temporal-alpha=%g noise-sigma=%g%s "
      "border=%s border-value=%g roi=%d,%d,%dx%d source=%d,%d planes=0x%x",
      ref_iir_axes_nick (p->axes), p->temporal_alpha, p->noise_sigma,
      p->noise_auto ? " (estimated)" : "",
      ref_border_nick (q->border), q->border_value, q->roi_x, q->roi_y,
      q->roi_width, q->roi_height, q->source_x, q->source_y, q->planes);
  return g_string_free (s, FALSE);
}

/* ---- the true sampled Gaussian, which the recursive one approximates ---- */

/* One pass of ref_true_gaussian_image(): n_lines lines of len values,
 * the lines line_step apart and their values step apart. */
static void
true_gaussian_pass (const gdouble * wt, gint R, const gdouble * in,
    gdouble * out, gint n_lines, gint len, gsize line_step, gsize step,
    gboolean constant, gdouble cval)
{
  gint i, j, k;

  for (j = 0; j < n_lines; j++) {
    for (i = 0; i < len; i++) {
      gdouble v = 0.0;
      for (k = -R; k <= R; k++) {
        gint at = i + k;
        v += wt[k + R] * ((at < 0 || at >= len) && constant ? cval :
            in[j * line_step + CLAMP (at, 0, len - 1) * step]);
      }
      out[j * line_step + i * step] = v;
    }
  }
}

void
ref_true_gaussian_image (gdouble sigma, const gdouble * in, gint w, gint h,
    gboolean constant, gdouble cval, gdouble * out)
{
  gint R = (gint) ceil (5 * sigma), k;
  gdouble *wt = g_new (gdouble, 2 * R + 1), sum = 0.0;
  gdouble *tmp = g_new (gdouble, (gsize) w * h);

  for (k = -R; k <= R; k++)
    sum += wt[k + R] = exp (-(gdouble) k * k / (2 * sigma * sigma));
  for (k = 0; k <= 2 * R; k++)
    wt[k] /= sum;
  /* x: h rows of w; then y: w columns of h */
  true_gaussian_pass (wt, R, in, tmp, h, w, w, 1, constant, cval);
  true_gaussian_pass (wt, R, tmp, out, w, h, 1, w, constant, cval);
  g_free (tmp);
  g_free (wt);
}

/* The bound on max |vV - true| on smooth 8-bit images: three sinusoids of
 * periods >= 12 pixels plus +-1% noise, 40x30 and 127x65, clamp and
 * constant borders (random border-value). Measured in double, over 6000
 * such images per sigma:
 *
 *   sigma   clamp   constant   bound used
 *     1     0.73     2.74        3.0
 *     2     1.45     1.92        2.25
 *     8     1.29     2.05        2.25
 *
 * The constant border dominates: the step from the content to the border
 * value is where the vV design is furthest from the sampled Gaussian (on a
 * lone step of 255: 1.8, 0.84, 0.77 codes per axis). For comparison, a
 * sigma 5% off moves the maximum to 4-6 codes, 10% off to 6-13. (The
 * bound for any image at all, 127.5 times the L1 norm of the 2D kernel
 * difference, is 13.0, 6.3 and 4.8: too loose to be useful.) */
#define GAUSS_BOUND_S1 3.0
#define GAUSS_BOUND_S2 2.25
#define GAUSS_BOUND_S8 2.25

gdouble
ref_iir_gaussian_true_bound (gdouble sigma)
{
  if (sigma <= 1.0)
    return GAUSS_BOUND_S1;
  if (sigma <= 2.0)
    return GAUSS_BOUND_S2;
  return GAUSS_BOUND_S8;
}

/* ---- random custom filters for the tests ---- */

void
ref_iir_feedback_from_poles (const double complex * p, guint k, gdouble * a)
{
  double complex c[REF_IIR_MAX_ORDER + 1] = { 1.0 };
  guint i, j;

  g_assert (k <= REF_IIR_MAX_ORDER);
  for (i = 0; i < k; i++)
    for (j = i + 1; j > 0; j--)
      c[j] -= p[i] * c[j - 1];
  for (j = 1; j <= k; j++)
    a[j - 1] = -creal (c[j]);
}

static void
random_custom_once (GRand * r, guint k, gdouble * b0, gdouble * a)
{
  double complex p[REF_IIR_MAX_ORDER];
  guint n = 0;
  gdouble sum = 0.0;
  guint j;

  while (n < k) {
    if (k - n >= 2 && g_rand_boolean (r)) {
      /* a conjugate pair */
      gdouble mod = g_rand_double_range (r, 0.3, 0.95);
      gdouble arg = g_rand_double_range (r, 0.05, 0.9) * G_PI;
      p[n++] = mod * cexp (I * arg);
      p[n++] = mod * cexp (-I * arg);
    } else {
      p[n++] = g_rand_double_range (r, -0.9, 0.95);
    }
  }
  ref_iir_feedback_from_poles (p, k, a);
  for (j = 0; j < k; j++)
    sum += a[j];
  *b0 = (1.0 - sum) * g_rand_double_range (r, 0.9, 1.1);
}

/* Sum of |h[n]| of the causal recursion b0, a1..ak: how much it can
 * amplify (fp32 rounding noise included). */
static gdouble
impulse_l1 (gdouble b0, const gdouble * a, guint k)
{
  gdouble y[REF_IIR_MAX_ORDER] = { 0 }, l1 = 0.0;
  guint n;

  for (n = 0; n < 4000; n++)
    l1 += fabs (ref_iir_impulse_step (y, a, k, n == 0 ? b0 : 0.0));
  return l1;
}

void
ref_iir_random_custom (GRand * r, guint k, gdouble * b0, gdouble * a)
{
  do {
    random_custom_once (r, k, b0, a);
  } while (impulse_l1 (*b0, a, k) > 3.0);
}
