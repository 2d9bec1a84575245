/* vktile tests — CPU reference of gaussblur (see reference_gauss.h).
 *
 * Straight transcription in double precision, slow and obvious on purpose:
 * the weights are computed from their formula every time, every output
 * value of a pass is its own loop over the taps, and every tap index goes
 * through ref_border_map (reference.c), which handles any index, so a
 * kernel far larger than the line repeats the extension as often as
 * needed.
 */
#include "reference_gauss.h"
#include "reference_iir.h"

#include <math.h>
#include <string.h>

void
ref_gauss_init (RefGauss * p)
{
  memset (p, 0, sizeof (*p));
  /* ref_conv_init's clamp border of 0 and all planes are the element's
   * defaults too */
  ref_conv_init (&p->common);
  p->sigma = 2.0;
  p->sigma_y = -1.0;
  p->radius = 0;
  p->amount = 0.0;
  p->recursive = FALSE;
}

gdouble
ref_gauss_sigma_y (const RefGauss * p)
{
  return p->sigma_y > 0.0 ? p->sigma_y : p->sigma;
}

gint
ref_gauss_axis_radius (gdouble sigma, guint radius)
{
  if (radius > 0)
    return radius;
  return (gint) ceil (3.0 * sigma);
}

static gint
axis_radius (const RefGauss * p, gdouble sigma)
{
  if (p->wrong_short_radius && p->radius == 0)
    return (gint) ceil (2.0 * sigma);
  return ref_gauss_axis_radius (sigma, p->radius);
}

void
ref_gauss_weights (gdouble sigma, gint r, gdouble * w)
{
  gdouble sum = 0.0;
  gint j;

  for (j = -r; j <= r; j++)
    sum += w[j + r] = exp (-(gdouble) j * j / (2.0 * sigma * sigma));
  for (j = 0; j <= 2 * r; j++)
    w[j] /= sum;
}

gboolean
ref_gauss_is_recursive (const RefGauss * p)
{
  return p->recursive && (p->common.border == REF_BORDER_CLAMP
      || p->common.border == REF_BORDER_CONSTANT) && p->sigma >= 0.5
      && ref_gauss_sigma_y (p) >= 0.5;
}

void
ref_gauss_line (const gdouble * w, gint r, const gdouble * in, gint n,
    gint is, RefBorder b, gdouble cval, gdouble * out, gint os)
{
  gint i, j;

  for (i = 0; i < n; i++) {
    gdouble sum = 0.0;

    for (j = -r; j <= r; j++) {
      gint m = ref_border_map (b, i + j, n);
      sum += w[j + r] * (m < 0 ? cval : in[(gsize) m * is]);
    }
    out[(gsize) i * os] = sum;
  }
}

/* The recursive Gaussian of one axis on the w x h image: reference_iir's
 * Gaussian with that axis only. For the constant border the y pass sees the
 * x-filtered constant, which is the constant (unit DC gain). */
static void
recursive_axis (const RefGauss * p, gdouble sigma, RefIirAxes axes,
    const gdouble * in, gint w, gint h, gdouble cval, gdouble * out)
{
  RefIir q;

  ref_iir_init (&q);
  q.filter = REF_IIR_GAUSSIAN;
  q.sigma = sigma;
  q.axes = axes;
  ref_iir_image (&q, in, w, h, p->common.border == REF_BORDER_CONSTANT, cval,
      out);
}

void
ref_gauss_image (const RefGauss * p, const gdouble * in, gint w, gint h,
    gdouble cval, gdouble * out)
{
  gdouble sx = p->sigma, sy = ref_gauss_sigma_y (p);
  gdouble *tmp = g_new (gdouble, (gsize) w * h);
  gint rx, ry, i, j;
  gdouble *wx, *wy;

  if (ref_gauss_is_recursive (p)) {
    recursive_axis (p, sx, REF_IIR_AXES_X, in, w, h, cval, tmp);
    recursive_axis (p, sy, REF_IIR_AXES_Y, tmp, w, h, cval, out);
    g_free (tmp);
    return;
  }

  rx = axis_radius (p, sx);
  ry = axis_radius (p, sy);
  wx = g_new (gdouble, 2 * rx + 1);
  wy = g_new (gdouble, 2 * ry + 1);
  ref_gauss_weights (sx, rx, wx);
  ref_gauss_weights (sy, ry, wy);
  /* along x: every row */
  for (j = 0; j < h; j++)
    ref_gauss_line (wx, rx, in + (gsize) j * w, w, 1, p->common.border, cval,
        tmp + (gsize) j * w, 1);
  /* along y: every column of that */
  for (i = 0; i < w; i++)
    ref_gauss_line (wy, ry, tmp + i, h, w, p->common.border, cval, out + i,
        w);
  g_free (wx);
  g_free (wy);
  g_free (tmp);
}

static void
filter_component (const GstVideoFrame * in, GstVideoFrame * out, guint c,
    gconstpointer data)
{
  const RefGauss *p = data;
  RefCompRect r;
  gint x, y;

  if (!ref_comp_rect_read (&p->common, in, c, &r))
    return;

  ref_gauss_image (p, r.src, r.w, r.h, p->common.border_value * r.maxv, r.dst);
  /* the unsharp mask: the source pushed away from its blur */
  if (p->amount != 0.0) {
    for (y = 0; y < r.h; y++) {
      for (x = 0; x < r.w; x++) {
        gsize i = (gsize) y * r.w + x;
        gdouble s = p->wrong_unsharp_target ?
            (gdouble) ref_comp_get (in, c, r.tx + x, r.ty + y) : r.src[i];

        r.dst[i] = s + p->amount * (s - r.dst[i]);
      }
    }
  }
  ref_comp_rect_write (out, c, &r, p->common.ties_down);
}

void
ref_gauss_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefGauss * p)
{
  ref_filter_planes (in, out, p->common.planes, filter_component, p);
}

gchar *
ref_gauss_describe (const RefGauss * p)
{
  const RefConv *q = &p->common;

  return g_strdup_printf ("sigma=%.17g sigma-y=%.17g radius=%u (x %d, y %d) "
      "amount=%.17g %s border=%s border-value=%g roi=%d,%d,%dx%d "
      "source=%d,%d planes=0x%x", p->sigma, p->sigma_y, p->radius,
      ref_gauss_axis_radius (p->sigma, p->radius),
      ref_gauss_axis_radius (ref_gauss_sigma_y (p), p->radius), p->amount,
      ref_gauss_is_recursive (p) ? "recursive (vV)" : "sampled weights",
      ref_border_nick (q->border), q->border_value, q->roi_x, q->roi_y,
      q->roi_width, q->roi_height, q->source_x, q->source_y, q->planes);
}
