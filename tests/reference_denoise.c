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
  return estimated (p) ? t->noise_est[ref_comp_filtered_plane (finfo, c)] :
      p->noise_sigma;
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

/* motion[c] for every component whose recursion goes on: the mean of
 * ((s - m_prev) / T)^2 over the values of its group (SEMANTICS.md,
 * denoise): the components of one filtered plane, on one row, whose slots
 * fall in the same 4, counted from the start of the 4-byte word holding
 * the ROI's first pixel. */
static void
group_motion (const GstVideoFrame * in, DenoiseFrame * f,
    const RefIirTemporal * t, gdouble ** motion)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  guint views = ref_n_filtered_planes (&in->info), v, c;
  gdouble gain = noise_gain (f->p->sigma);

  for (v = 0; v < views; v++) {
    const RefCompRect *r0 = NULL;
    gint slots = 0, per_word = 0, lane0 = 0, groups = 0, x, y;
    gdouble *sum = NULL;
    guint *count = NULL;
    gsize i;

    for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++) {
      const RefCompRect *r = &f->rect[c];
      const gdouble *prev;
      gdouble T;
      gint slot;

      if (!f->have[c] || ref_comp_filtered_plane (finfo, c) != v
          || motion_sigma (f->p, t, finfo, c) <= 0.0
          || !(prev = ref_temporal_prev_m (t, c, r->w, r->h)))
        continue;
      if (!r0) {
        r0 = r;
        slots = slots_per_pixel (finfo, c);
        per_word = 4 / value_bytes (finfo, c);
        lane0 = r->tx * slots / per_word * per_word;
        groups = ((r->tx + r->w) * slots - lane0) / 4 + 1;
        sum = g_new0 (gdouble, (gsize) groups * r->h);
        count = g_new0 (guint, (gsize) groups * r->h);
      }
      g_assert (r->w == r0->w && r->h == r0->h && r->tx == r0->tx);
      T = ref_temporal_motion_scale (motion_sigma (f->p, t, finfo, c), gain,
          r->maxv);
      slot = ref_comp_offset (finfo, c) / value_bytes (finfo, c);
      for (y = 0; y < r->h; y++)
        for (x = 0; x < r->w; x++) {
          gsize k = (gsize) y * groups + ((r->tx + x) * slots + slot -
              lane0) / 4;
          gdouble d = (r->dst[(gsize) y * r->w + x] -
              prev[(gsize) y * r->w + x]) / T;
          sum[k] += d * d;
          count[k]++;
        }
      motion[c] = g_new (gdouble, (gsize) r->w * r->h);
    }
    for (c = 0; r0 && c < GST_VIDEO_MAX_COMPONENTS; c++) {
      const RefCompRect *r = &f->rect[c];
      gint slot;

      if (!motion[c] || ref_comp_filtered_plane (finfo, c) != v)
        continue;
      slot = ref_comp_offset (finfo, c) / value_bytes (finfo, c);
      for (i = 0; i < (gsize) r->w * r->h; i++) {
        gsize k = i / r->w * groups + ((r->tx + (gint) (i % r->w)) * slots +
            slot - lane0) / 4;
        motion[c][i] = sum[k] / count[k];
      }
    }
    g_free (sum);
    g_free (count);
  }
}

void
ref_denoise_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefDenoise * p, RefIirTemporal * t)
{
  DenoiseFrame f = { p };
  gdouble *motion[GST_VIDEO_MAX_COMPONENTS] = { NULL };
  guint c;

  if (t && p->temporal_alpha == 0.0)
    ref_iir_temporal_reset (t);
  ref_temporal_frame (in, out, &p->common, t, estimated (p),
      REF_DENOISE_NOISE_INTERVAL, TRUE, blur_component, &f);
  if (t && p->temporal_alpha > 0.0)
    group_motion (in, &f, t, motion);
  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++) {
    RefCompRect *r = &f.rect[c];

    if (!f.have[c])
      continue;
    if (t && p->temporal_alpha > 0.0)
      ref_temporal_stage_motion (t, c, r->src, r->dst, r->w, r->h, r->maxv,
          p->temporal_alpha, motion_sigma (p, t, in->info.finfo, c),
          noise_gain (p->sigma), p->keep_detail, motion[c]);
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
