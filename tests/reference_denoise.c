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

static void
filter_component (const GstVideoFrame * in, GstVideoFrame * out, guint c,
    gconstpointer data, RefIirTemporal * t)
{
  const RefDenoise *p = data;
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gdouble maxv = ref_comp_maxv (finfo, c);
  gint tx, ty, px, py, w, h;
  gdouble *src, *s, sigma;
  RefGauss g;

  if (!ref_comp_roi (&p->common, in, c, &tx, &ty, &px, &py, &w, &h))
    return;
  src = ref_comp_read_rect (in, c, px, py, w, h);
  s = g_new (gdouble, (gsize) w * h);
  ref_gauss_init (&g);
  g.common = p->common;
  g.sigma = p->sigma;
  ref_gauss_image (&g, src, w, h, p->common.border_value * maxv, s);

  if (t && p->temporal_alpha > 0.0) {
    sigma = !p->motion_adaptive ? 0.0 : estimated (p) ?
        t->noise_est[ref_comp_filtered_plane (finfo, c)] : p->noise_sigma;
    ref_temporal_stage (t, c, src, s, w, h, maxv, p->temporal_alpha, sigma,
        noise_gain (p->sigma), p->keep_detail);
  }
  ref_comp_store_rect (out, c, tx, ty, w, h, s, p->common.ties_down);
  g_free (s);
  g_free (src);
}

void
ref_denoise_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefDenoise * p, RefIirTemporal * t)
{
  if (t && p->temporal_alpha == 0.0)
    ref_iir_temporal_reset (t);
  ref_temporal_frame (in, out, &p->common, t, estimated (p),
      REF_DENOISE_NOISE_INTERVAL, TRUE, filter_component, p);
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
