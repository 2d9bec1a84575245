/* vktile tests — CPU reference of denoise (see reference_denoise.h). */
#include "reference_denoise.h"
#include "reference_gauss.h"

#include <math.h>
#include <string.h>

void
ref_denoise_init (RefDenoise * p)
{
  memset (p, 0, sizeof (*p));
  /* ref_conv_init's clamp border of 0 and all planes are the element's
   * defaults too */
  ref_conv_init (&p->common);
  p->sigma = 0.8;
  p->temporal_alpha = 0.8;
  p->motion_adaptive = TRUE;
  p->noise_sigma = 0.0;
  p->keep_detail = TRUE;
}

static gboolean
estimated (const RefDenoise * p)
{
  return p->temporal_alpha > 0.0 && p->motion_adaptive
      && p->noise_sigma == 0.0;
}

/* What the Gaussian of sigma along both axes leaves of white noise of 1:
 * the root of its 2D impulse response's energy. */
static gdouble
noise_gain (gdouble sigma)
{
  gint r = ref_gauss_axis_radius (sigma, 0), j;
  gdouble *w = g_new (gdouble, 2 * r + 1), energy = 0.0;

  ref_gauss_weights (sigma, r, w);
  for (j = 0; j <= 2 * r; j++)
    energy += w[j] * w[j];
  g_free (w);
  return energy;                /* sqrt (energy) per axis, two axes */
}

/* T in sigmas of the blurred noise (SEMANTICS.md, denoise). */
#define MOTION_SIGMAS 2.25
/* A group's motion takes in the groups beside it within runs of this many
 * groups of a row. */
#define MOTION_RUN 8

/* The detail threshold's candidates t (D = sigma / t) and the first
 * frames' t. */
static const gdouble detail_ts[] = { 0.0, 1.0 / 6.0, 0.25, 1.0 / 3.0, 0.5 };

#define N_TS G_N_ELEMENTS (detail_ts)
#define FIRST_T (1.0 / 3.0)
#define RISK_UNITS 256.0
#define RISK_CLAMP 8.0

/* The centre weight of the 2D kernel: the 1D one squared. */
static gdouble
centre_weight (gdouble sigma)
{
  gint r = ref_gauss_axis_radius (sigma, 0);
  gdouble *w = g_new (gdouble, 2 * r + 1), c;

  ref_gauss_weights (sigma, r, w);
  c = w[r] * w[r];
  g_free (w);
  return c;
}

/* One frame's components after the spatial stage, before the temporal one:
 * the motion of a value is judged with the other values of its group, so
 * every component is blurred first. */
typedef struct
{
  const RefDenoise *p;
  RefCompRect rect[GST_VIDEO_MAX_COMPONENTS];
  gboolean have[GST_VIDEO_MAX_COMPONENTS];
} DenoiseFrame;

static void
blur_component (const GstVideoFrame * in, GstVideoFrame * out, guint c,
    gconstpointer data, RefIirTemporal * t)
{
  DenoiseFrame *f = (DenoiseFrame *) data;
  RefCompRect *r = &f->rect[c];
  RefGauss g;

  if (!ref_comp_rect_read (&f->p->common, in, c, r))
    return;
  ref_gauss_init (&g);
  g.common = f->p->common;
  g.sigma = f->p->sigma;
  ref_gauss_image (&g, r->src, r->w, r->h,
      f->p->common.border_value * r->maxv, r->dst);
  f->have[c] = TRUE;
}

/* The noise sigma of component c's motion test (8-bit code values). */
static gdouble
motion_sigma (const RefDenoise * p, const RefIirTemporal * t,
    const GstVideoFormatInfo * finfo, guint c)
{
  if (!p->motion_adaptive)
    return 0.0;
  /* a noise-sigma given counts as 0.001 at least */
  return estimated (p) ? t->noise_est[ref_comp_filtered_plane (finfo, c)] :
      MAX (p->noise_sigma, 1e-3);
}

/* Bytes of one value of component c. */
static gint
value_bytes (const GstVideoFormatInfo * finfo, guint c)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) > 8 ? 2 : 1;
}

/* Value slots of a pixel of c's plane as filtered: its values, a pixel of
 * three rounded up to four (RGB, BGR). */
static gint
slots_per_pixel (const GstVideoFormatInfo * finfo, guint c)
{
  gint n = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) / value_bytes (finfo, c);

  return n == 3 ? 4 : n;
}

/* Where a filtered plane's values fall in groups of four slots: the slots
 * of a pixel, the slot where the target ROI's row starts counting (the
 * start of the 4-byte word holding its first pixel), groups per row. */
typedef struct
{
  gint tx, slots, lane0, per_row;
} Groups;

static void
groups_init (Groups * g, const GstVideoFormatInfo * finfo, guint c,
    const RefCompRect * r)
{
  gint per_word = 4 / value_bytes (finfo, c);

  g->tx = r->tx;
  g->slots = slots_per_pixel (finfo, c);
  g->lane0 = r->tx * g->slots / per_word * per_word;
  g->per_row = ((r->tx + r->w) * g->slots - g->lane0) / 4 + 1;
}

/* The group of component c's value at (x, y) of the ROI. */
static gsize
value_group (const Groups * g, const GstVideoFormatInfo * finfo, guint c,
    gint x, gint y)
{
  gint slot = ref_comp_offset (finfo, c) / value_bytes (finfo, c);

  return (gsize) y * g->per_row + ((g->tx + x) * g->slots + slot -
      g->lane0) / 4;
}

/* The motion of group k: the mean over its values and those of the
 * groups beside it on the row, within its run of MOTION_RUN groups. */
static gdouble
neighbourhood_mean (const Groups * g, const gdouble * sum,
    const guint * count, gsize k)
{
  gsize j = k % g->per_row, run = j / MOTION_RUN;
  gdouble s = sum[k];
  guint n = count[k];

  if (j > 0 && (j - 1) / MOTION_RUN == run) {
    s += sum[k - 1];
    n += count[k - 1];
  }
  if (j + 1 < (gsize) g->per_row && (j + 1) / MOTION_RUN == run) {
    s += sum[k + 1];
    n += count[k + 1];
  }
  return s / MAX (n, 1);
}

/* motion[c] for every component whose recursion goes on: the mean of
 * ((s - m_prev) / T)^2 over the values of its group and of the groups
 * beside it (SEMANTICS.md, denoise): a group holds the components of one
 * filtered plane, on one row, whose slots fall in the same 4, counted
 * from the start of the 4-byte word holding the ROI's first pixel. */
static void
group_motion (const GstVideoFrame * in, DenoiseFrame * f,
    const RefIirTemporal * t, gdouble ** motion)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  guint views = ref_n_filtered_planes (&in->info), v, c;
  gdouble gain = noise_gain (f->p->sigma);

  for (v = 0; v < views; v++) {
    const RefCompRect *r0 = NULL;
    Groups g = { 0 };
    gdouble *sum = NULL;
    guint *count = NULL;
    gint x, y;

    for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++) {
      const RefCompRect *r = &f->rect[c];
      const gdouble *prev;
      gdouble T;

      if (!f->have[c] || ref_comp_filtered_plane (finfo, c) != v
          || motion_sigma (f->p, t, finfo, c) <= 0.0
          || !(prev = ref_temporal_prev_m (t, c, r->w, r->h)))
        continue;
      if (!r0) {
        r0 = r;
        groups_init (&g, finfo, c, r);
        sum = g_new0 (gdouble, (gsize) g.per_row * r->h);
        count = g_new0 (guint, (gsize) g.per_row * r->h);
      }
      g_assert (r->w == r0->w && r->h == r0->h && r->tx == r0->tx);
      T = ref_temporal_motion_scale (MOTION_SIGMAS, motion_sigma (f->p, t,
              finfo, c), gain, r->maxv);
      for (y = 0; y < r->h; y++)
        for (x = 0; x < r->w; x++) {
          gsize k = value_group (&g, finfo, c, x, y);
          gdouble d = (r->dst[(gsize) y * r->w + x] -
              prev[(gsize) y * r->w + x]) / T;
          sum[k] += d * d;
          count[k]++;
        }
      motion[c] = g_new (gdouble, (gsize) r->w * r->h);
    }
    for (c = 0; r0 && c < GST_VIDEO_MAX_COMPONENTS; c++) {
      const RefCompRect *r = &f->rect[c];

      if (!motion[c] || ref_comp_filtered_plane (finfo, c) != v)
        continue;
      for (y = 0; y < r->h; y++)
        for (x = 0; x < r->w; x++) {
          gsize k = value_group (&g, finfo, c, x, y);
          motion[c][(gsize) y * r->w + x] = neighbourhood_mean (&g, sum,
              count, k);
        }
    }
    g_free (sum);
    g_free (count);
  }
}

/* A risk term as the sums hold it: in 1/RISK_UNITS, rounded half up. */
static gdouble
risk_units (gdouble v)
{
  return floor (v * RISK_UNITS + 0.5);
}

/* t from a frame's risk sums: the vertex of the parabola through the risks
 * of the candidate of least risk and its two neighbours (the first three,
 * the last three at the ends), clamped to the candidates' range; where that
 * parabola has no minimum, whichever of its outer two candidates has the
 * smaller risk. */
static gdouble
choose_t (const gdouble * risk)
{
  guint best = 0, i;
  gdouble t0, t1, t2, d01, d12, a;

  for (i = 1; i < N_TS; i++)
    if (risk[i] < risk[best])
      best = i;
  i = CLAMP (best, 1, N_TS - 2);
  t0 = detail_ts[i - 1];
  t1 = detail_ts[i];
  t2 = detail_ts[i + 1];
  d01 = (risk[i] - risk[i - 1]) / (t1 - t0);
  d12 = (risk[i + 1] - risk[i]) / (t2 - t1);
  a = (d12 - d01) / (t2 - t0);
  if (a <= 0.0)
    return risk[i - 1] <= risk[i + 1] ? t0 : t2;
  return CLAMP ((t0 + t1 - d01 / a) / 2.0, detail_ts[0], detail_ts[N_TS - 1]);
}

/* Stein's unbiased risk estimate of the output for each t, up to terms all
 * share, from the residuals x - s of the sampled rows (1, 9, 17, ... of the
 * ROI) of filtered plane v, in sigmas, clamped to RISK_CLAMP; t for the
 * next frame, or FIRST_T without samples. */
static gdouble
detail_risk_choice (const GstVideoFrame * in, const DenoiseFrame * f,
    const RefIirTemporal * t, guint v)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gdouble sums[2 * G_N_ELEMENTS (detail_ts)] = { 0 }, risk[N_TS];
  gdouble count = 0.0, centre = centre_weight (f->p->sigma);
  guint c, j;
  gint x, y;

  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++) {
    const RefCompRect *r = &f->rect[c];
    gdouble sigma;

    if (!f->have[c] || ref_comp_filtered_plane (finfo, c) != v)
      continue;
    sigma = motion_sigma (f->p, t, finfo, c) * r->maxv / 255.0;
    for (y = 1; y < r->h; y += 8)
      for (x = 0; x < r->w; x++) {
        gsize i = (gsize) y * r->w + x;
        gdouble rho = CLAMP ((r->src[i] - r->dst[i]) / sigma, -RISK_CLAMP,
            RISK_CLAMP);
        sums[0] += risk_units (rho * rho);
        for (j = 1; j < N_TS; j++) {
          gdouble q = rho * detail_ts[j] * rho * detail_ts[j], e = exp (-q);
          sums[j] += risk_units (rho * rho * e * e);
          sums[N_TS - 1 + j] += risk_units (1.0 - e + 2.0 * q * e);
        }
        count++;
      }
  }
  if (count == 0.0)
    return FIRST_T;
  /* t = 0 puts nothing back: the squared residual is its risk. Otherwise
   * the residual kept out, plus 2 sigma^2 times the derivative of the
   * output by the pixel's own value: (1 - w0) through the residual. */
  risk[0] = sums[0];
  for (j = 1; j < N_TS; j++)
    risk[j] = sums[j] + 2.0 * (1.0 - centre) * sums[N_TS - 1 + j];
  return choose_t (risk);
}

void
ref_denoise_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefDenoise * p, RefIirTemporal * t)
{
  DenoiseFrame f = { p };
  gdouble *motion[GST_VIDEO_MAX_COMPONENTS] = { NULL };
  gdouble detail_t[GST_VIDEO_MAX_PLANES];
  gboolean keep = p->keep_detail && p->motion_adaptive;
  guint c, v;

  if (t && p->temporal_alpha == 0.0)
    ref_iir_temporal_reset (t);
  ref_temporal_frame (in, out, &p->common, t, estimated (p),
      REF_DENOISE_NOISE_INTERVAL, TRUE, blur_component, &f);
  if (t && p->temporal_alpha > 0.0)
    group_motion (in, &f, t, motion);
  /* The detail threshold of each filtered plane: the risk is summed on
   * every REF_DENOISE_DETAIL_INTERVAL-th frame of a recursion that keeps
   * detail on, from its third; from the second of those frames on, each
   * first takes t from the risk of the one before, and the frames until
   * the next keep that t. Before the first choice, t is 1/3. */
  if (t)
    t->detail_planes = 0;
  for (v = 0; t && v < ref_n_filtered_planes (&in->info); v++) {
    gboolean goes_on = FALSE, filtered = FALSE;
    guint age;
    gboolean chosen;

    for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++)
      if (f.have[c] && ref_comp_filtered_plane (in->info.finfo, c) == v) {
        filtered = TRUE;
        goes_on |= ref_temporal_prev_m (t, c, f.rect[c].w,
            f.rect[c].h) != NULL;
      }
    if (!goes_on || !keep || p->temporal_alpha == 0.0)
      t->detail_frames[v] = 0;
    age = t->detail_frames[v];
    chosen = age >= REF_DENOISE_DETAIL_INTERVAL + REF_DENOISE_DETAIL_PHASE;
    if (age % REF_DENOISE_DETAIL_INTERVAL == REF_DENOISE_DETAIL_PHASE && chosen)
      t->detail_t_kept[v] = t->detail_t_next[v];
    detail_t[v] = chosen ? t->detail_t_kept[v] : FIRST_T;
    t->detail_t[v] = detail_t[v];
    if (filtered && keep && p->temporal_alpha > 0.0)
      t->detail_planes |= 1u << v;
    if (t->detail_given)
      detail_t[v] = t->detail_t_given[v];
    if (keep && p->temporal_alpha > 0.0) {
      if (age % REF_DENOISE_DETAIL_INTERVAL == REF_DENOISE_DETAIL_PHASE)
        t->detail_t_next[v] = detail_risk_choice (in, &f, t, v);
      t->detail_frames[v]++;
    }
  }
  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++) {
    RefCompRect *r = &f.rect[c];

    if (!f.have[c])
      continue;
    if (t && p->temporal_alpha > 0.0)
      ref_temporal_stage_motion (t, c, r->src, r->dst, r->w, r->h, r->maxv,
          p->temporal_alpha, motion_sigma (p, t, in->info.finfo, c),
          noise_gain (p->sigma), p->keep_detail, motion[c],
          detail_t[ref_comp_filtered_plane (in->info.finfo, c)]);
    ref_comp_rect_write (out, c, r, p->common.ties_down);
    g_free (motion[c]);
  }
}

gchar *
ref_denoise_describe (const RefDenoise * p)
{
  const RefConv *q = &p->common;

  return g_strdup_printf ("sigma=%.17g temporal-alpha=%g temporal-mode=%s "
      "noise-sigma=%g%s keep-detail=%d border=%s border-value=%g "
      "roi=%d,%d,%dx%d source=%d,%d planes=0x%x", p->sigma,
      p->temporal_alpha, p->motion_adaptive ? "motion-adaptive" : "fixed",
      p->noise_sigma, estimated (p) ? " (estimated)" : "", p->keep_detail,
      ref_border_nick (q->border), q->border_value, q->roi_x, q->roi_y,
      q->roi_width, q->roi_height, q->source_x, q->source_y, q->planes);
}
