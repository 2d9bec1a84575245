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
  RefCompRect r;
  gdouble sigma;
  RefGauss g;

  if (!ref_comp_rect_read (&p->common, in, c, &r))
    return;
  ref_gauss_init (&g);
  g.common = p->common;
  g.sigma = p->sigma;
  ref_gauss_image (&g, r.src, r.w, r.h, p->common.border_value * r.maxv, r.dst);

  if (t && p->temporal_alpha > 0.0) {
    sigma = !p->motion_adaptive ? 0.0 : estimated (p) ?
        t->noise_est[ref_comp_filtered_plane (in->info.finfo, c)] :
        p->noise_sigma;
    ref_temporal_stage (t, c, r.src, r.dst, r.w, r.h, r.maxv,
        p->temporal_alpha, sigma, noise_gain (p->sigma), p->keep_detail);
  }
  ref_comp_rect_write (out, c, &r, p->common.ties_down);
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
