/* tests/gaussblur_fx.c: the fixture of the gaussblur suite
 * (gaussblur_fx.h): how the shared fixture runs gaussblur's reference,
 * and the element's properties set on the element and mirrored in it. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gaussblur_fx.h"

guint32 base_seed;

const gchar *const algorithms[N_ALGORITHMS] = { "auto", "fused",
  "two-pass", "recursive"
};

/* Which definition the algorithm stands for with the current settings:
 * recursive is the recursive Gaussian (which the reference itself replaces
 * by the exact blur for mirror, reflect, wrap and sigmas below 0.5); auto
 * is too where test_auto found it so. */
void
fx_sync_algorithm (Fx * fx)
{
  if (!strcmp (fx->base.algorithm, "auto"))
    fx->ref.recursive = fx->auto_recursive;
  else
    fx->ref.recursive = !strcmp (fx->base.algorithm, "recursive");
}

static void
gauss_filter (HarnessFx * base, const GstVideoFrame * in, GstVideoFrame * out,
    gboolean ties_down)
{
  Fx *fx = FX (base);
  RefGauss ref;

  fx_sync_algorithm (fx);
  ref = fx->ref;
  ref.common.ties_down = ties_down;
  ref_gauss_frame (in, out, &ref);
}

static gchar *
gauss_describe (HarnessFx * base)
{
  fx_sync_algorithm (FX (base));
  return ref_gauss_describe (&FX (base)->ref);
}

/* fp32 noise in a weighted sum moves only the values within a few 1e-4
 * of a .5 boundary; truncation would move about half of them. The
 * recursive Gaussian carries more fp32 noise: the bound of
 * test_recursivefilter.c. */
static guint
gauss_rounding_bound (HarnessFx * base, guint n_values)
{
  return ref_gauss_is_recursive (&FX (base)->ref) ? MAX (8,
      n_values / 4) : MAX (8, n_values / 50);
}

static void
fx_reference_init (HarnessFx * base)
{
  ref_gauss_init (&FX (base)->ref);
}

const FxElement fx_element = {
  .name = ELEMENT,
  .algorithm = "auto",
  .tol = TOL,
  .content = CONTENT_ANY,
  .rounding = {.bound = gauss_rounding_bound,.depth = 8,
      .ties_down_reference = TRUE},
  .init = fx_reference_init,
  .filter = gauss_filter,
  .describe = gauss_describe,
};

/* ---- the element's properties, mirrored in fx->ref ---- */

/* sigma_y < 0: unset (-1, the same as sigma) */
void
fx_set_sigma (Fx * fx, gdouble sigma, gdouble sigma_y)
{
  if (sigma_y < 0)
    sigma_y = -1.0;
  g_object_set (fx->base.el, "sigma", sigma, "sigma-y", sigma_y, NULL);
  fx->ref.sigma = sigma;
  fx->ref.sigma_y = sigma_y;
}

void
fx_set_radius (Fx * fx, guint radius)
{
  g_object_set (fx->base.el, "radius", radius, NULL);
  fx->ref.radius = radius;
}

void
fx_set_amount (Fx * fx, gdouble amount)
{
  g_object_set (fx->base.el, "amount", amount, NULL);
  fx->ref.amount = amount;
}

/* sigma, sigma-y (< 0: unset), radius and amount at once */
void
fx_blur (Fx * fx, gdouble sigma, gdouble sigma_y, guint radius,
    gdouble amount)
{
  fx_set_sigma (fx, sigma, sigma_y);
  fx_set_radius (fx, radius);
  fx_set_amount (fx, amount);
}

void
fx_set_algorithm (Fx * fx, const gchar * nick)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "algorithm", nick);
  fail_unless_equals_string (get_enum_nick (fx->base.el, "algorithm"), nick);
  fx->base.algorithm = nick;
}

void
fx_set_border (Fx * fx, RefBorder b, gdouble value)
{
  harness_fx_set_border (&fx->base, b, value);
}

/* border b, with a random border-value */
void
fx_set_border_rand (Fx * fx, RefBorder b)
{
  fx_set_border (fx, b, g_rand_double (fx->base.rand));
}

/* ---- frames ---- */

/* ref_gauss_frame () for check_chain_output() and
 * check_toggled_while_streaming(). */
void
ref_gauss_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref)
{
  ref_gauss_frame (in, out, ref);
}

/* The algorithm of rotation step k. The recursive one's pipelines cost
 * lavapipe seconds each, per format, frame size and plane mask, so the
 * tests whose subject is something else (sizes, ROIs, layouts) run it only
 * where `recursive_ok`, and one of the exact algorithms otherwise. */
const gchar *
rotating_algorithm (guint k, gboolean recursive_ok)
{
  const gchar *a = algorithms[k % N_ALGORITHMS];

  if (!recursive_ok && !strcmp (a, "recursive"))
    return algorithms[(k / N_ALGORITHMS) % 3];
  return a;
}
