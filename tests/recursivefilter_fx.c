/* tests/recursivefilter_fx.c: the fixture of the recursivefilter suites
 * (recursivefilter_fx.h): how the shared fixture runs recursivefilter's
 * reference, and the element's properties set and mirrored in it. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "recursivefilter_fx.h"

guint32 base_seed;

/* The reference with its temporal state, which the first call of a frame
 * advances; the second (ties down) starts from where the first did. */
static void
iir_filter (HarnessFx * base, const GstVideoFrame * in, GstVideoFrame * out,
    gboolean ties_down)
{
  Fx *fx = FX (base);
  RefIir down;

  if (!ties_down) {
    ref_iir_temporal_copy (&fx->before, &fx->temporal);
    ref_iir_frame (in, out, &fx->ref, &fx->temporal);
    return;
  }
  down = fx->ref;
  down.common.ties_down = TRUE;
  ref_iir_frame (in, out, &down, &fx->before);
}

static gchar *
iir_describe (HarnessFx * base)
{
  Fx *fx = FX (base);
  gchar *desc = ref_iir_describe (&fx->ref);
  gchar *all = g_strdup_printf ("tile-size %u, %s", fx->tile_size, desc);

  g_free (desc);
  return all;
}

/* A caps change (other format or size), a flush: the temporal recursion
 * restarts. */
static void
iir_restart (HarnessFx * base)
{
  ref_iir_temporal_reset (&FX (base)->temporal);
}

static void
fx_reference_init (HarnessFx * base)
{
  Fx *fx = FX (base);

  ref_iir_init (&fx->ref);
  ref_iir_temporal_init (&fx->temporal);
  ref_iir_temporal_init (&fx->before);
}

static void
fx_reference_clear (HarnessFx * base)
{
  Fx *fx = FX (base);

  ref_iir_temporal_clear (&fx->temporal);
  ref_iir_temporal_clear (&fx->before);
}

const FxElement fx_element = {
  .name = ELEMENT,
  .algorithm = "tiled",
  .tol = TOL,
  .content = CONTENT_ANY,
  /* fp32 noise in a recursion moves only the values near a .5 boundary;
   * truncation would move about half of them. The bound is loose (a
   * quarter) because long recursions in fp32 carry more noise than a 7x7
   * convolution does; and only 8-bit values count: at 16 bits, fp32 noise
   * over long supports (a box of radius 300, sigma 128) is a good part of
   * a code value, and only the tolerance applies. */
  .rounding = {.floor = 8,.fraction = 4,.depth = 8,.ties_down_reference = TRUE},
  .init = fx_reference_init,
  .clear = fx_reference_clear,
  .filter = iir_filter,
  .describe = iir_describe,
  .restart = iir_restart,
};

/* ---- the element's properties, mirrored in fx->ref ---- */

void
fx_gaussian (Fx * fx, gdouble sigma)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "filter", "gaussian");
  g_object_set (fx->base.el, "sigma", sigma, NULL);
  fx->ref.filter = REF_IIR_GAUSSIAN;
  fx->ref.sigma = sigma;
}

/* alpha < 0: derived from sigma */
void
fx_exponential (Fx * fx, gdouble alpha, gdouble sigma, RefIirDirection d)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "filter", "exponential");
  g_object_set (fx->base.el, "alpha", alpha, "sigma", sigma, NULL);
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "direction",
      ref_iir_direction_nick (d));
  fx->ref.filter = REF_IIR_EXPONENTIAL;
  fx->ref.alpha = alpha;
  fx->ref.sigma = sigma;
  fx->ref.direction = d;
}

void
fx_box (Fx * fx, guint radius, guint iterations)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "filter", "box");
  g_object_set (fx->base.el, "radius", radius, "iterations", iterations, NULL);
  fx->ref.filter = REF_IIR_BOX;
  fx->ref.radius = radius;
  fx->ref.iterations = iterations;
}

void
fx_custom (Fx * fx, gdouble b0, const gdouble * a, guint k, RefIirDirection d)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "filter", "custom");
  g_object_set (fx->base.el, "feedforward", b0, NULL);
  set_double_array (fx->base.el, "feedback", a, k);
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "direction",
      ref_iir_direction_nick (d));
  fx->ref.filter = REF_IIR_CUSTOM;
  fx->ref.feedforward = b0;
  memcpy (fx->ref.feedback, a, k * sizeof (gdouble));
  fx->ref.n_feedback = k;
  fx->ref.direction = d;
}

void
fx_random_custom (Fx * fx, guint k, RefIirDirection d)
{
  gdouble b0, a[REF_IIR_MAX_ORDER];

  ref_iir_random_custom (fx->base.rand, k, &b0, a);
  fx_custom (fx, b0, a, k, d);
}

void
fx_set_axes (Fx * fx, RefIirAxes axes)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "axes",
      ref_iir_axes_nick (axes));
  fx->ref.axes = axes;
}

void
fx_set_algorithm (Fx * fx, const gchar * nick, guint tile_size)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "algorithm", nick);
  g_object_set (fx->base.el, "tile-size", tile_size, NULL);
  fx->base.algorithm = nick;
  fx->tile_size = tile_size;
}

void
fx_set_border (Fx * fx, RefBorder b, gdouble value)
{
  g_assert (b == REF_BORDER_CLAMP || b == REF_BORDER_CONSTANT);
  harness_fx_set_border (&fx->base, b, value);
}

/* constant (with a random value) when `constant`, else clamp */
void
fx_set_border_rand (Fx * fx, gboolean constant)
{
  fx_set_border (fx, constant ? REF_BORDER_CONSTANT : REF_BORDER_CLAMP,
      g_rand_double (fx->base.rand));
}

void
fx_set_temporal (Fx * fx, gdouble a)
{
  /* Switched on, the recursion starts from the next frame. */
  if (fx->ref.temporal_alpha == 0.0 && a > 0.0)
    ref_iir_temporal_reset (&fx->temporal);
  g_object_set (fx->base.el, "temporal-alpha", a, NULL);
  fx->ref.temporal_alpha = a;
}

/* temporal-mode=motion-adaptive with this noise-sigma; 0: fixed; < 0:
 * motion-adaptive with noise-sigma 0 (estimated). */
void
fx_set_motion_adaptive (Fx * fx, gdouble noise_sigma)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "temporal-mode",
      noise_sigma != 0.0 ? "motion-adaptive" : "fixed");
  if (noise_sigma != 0.0)
    g_object_set (fx->base.el, "noise-sigma", MAX (noise_sigma, 0.0), NULL);
  fx->ref.noise_sigma = MAX (noise_sigma, 0.0);
  fx->ref.noise_auto = noise_sigma < 0.0;
  fx->ref.keep_detail = TRUE;   /* the element's default */
}

/* The element's defaults again (filter, direction, axes, algorithm,
 * border): a test that runs several formats through one harness starts
 * each of them from there. */
void
fx_defaults (Fx * fx)
{
  fx_set_algorithm (fx, "tiled", 0);
  fx_set_border (fx, REF_BORDER_CLAMP, 0.0);
  fx_set_axes (fx, REF_IIR_AXES_XY);
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "direction", "both");
  fx->ref.direction = REF_IIR_BOTH;
  fx_gaussian (fx, 2.0);
}

/* ---- frames ---- */

/* ref_iir_frame () for check_chain_output() and
 * check_toggled_while_streaming(). */
void
ref_iir_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref)
{
  ref_iir_frame (in, out, ref, NULL);
}

/* One filter setting picked by k from a rotation over every filter, for
 * the tests whose subject is something else (sizes, ROIs, layouts). */
void
fx_rotating_filter (Fx * fx, guint k)
{
  static const gdouble sigmas[] = { 0.5, 2.0, 8.0, 3.3 };
  static const guint radii[] = { 1, 3, 20, 0 };

  switch (k % 4) {
    case 0:
      fx_gaussian (fx, sigmas[(k / 4) % G_N_ELEMENTS (sigmas)]);
      break;
    case 1:
      fx_exponential (fx, (k / 4) % 2 ? 0.85 : -1.0, 2.5,
          (k / 4) % REF_IIR_N_DIRECTIONS);
      break;
    case 2:
      fx_box (fx, radii[(k / 4) % G_N_ELEMENTS (radii)], 1 + (k / 4) % 3);
      break;
    default:
      fx_random_custom (fx, 1 + (k / 4) % 4, (k / 4) % REF_IIR_N_DIRECTIONS);
      break;
  }
}
