/* tests/tiledconv_fx.c: the fixture of the tiledconv suite
 * (tiledconv_fx.h): how the shared fixture runs tiledconv's reference
 * (ref_tiledconv() of reference.c), random kernels, and the element's
 * properties set on the element and mirrored in the reference. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tiledconv_fx.h"

guint32 base_seed;

const gchar *const algorithms[N_ALGORITHMS] = { "tiled", "naive",
  "two-pass", "shared"
};

static void
tiledconv_filter (HarnessFx * base, const GstVideoFrame * in,
    GstVideoFrame * out, gboolean ties_down)
{
  RefConv ref = FX (base)->ref;

  ref.ties_down = ties_down;
  ref_tiledconv (in, out, &ref);
}

/* ref_tiledconv () for check_chain_output() and
 * check_toggled_while_streaming(). */
void
ref_tiledconv_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref)
{
  ref_tiledconv (in, out, ref);
}

static gchar *
tiledconv_describe (HarnessFx * base)
{
  return ref_conv_describe (&FX (base)->ref);
}

static void
fx_reference_init (HarnessFx * base)
{
  ref_conv_init (&FX (base)->ref);
}

const FxElement fx_element = {
  .name = "tiledconv",
  .algorithm = "tiled",
  .tol = 1,
  .content = CONTENT_NOISE,
  /* fp32 noise moves only the values within a hair of a .5 boundary;
   * truncation would move about half of them. */
  .rounding = {.floor = 4,.fraction = 20,.ties_down_reference = TRUE},
  .init = fx_reference_init,
  .filter = tiledconv_filter,
  .describe = tiledconv_describe,
};

/* n taps summing to 1 with some negative ones: outputs stay near the input
 * range (little clamping hides little) while every tap matters. */
void
random_taps (GRand * r, gdouble * t, guint n)
{
  gdouble sum;
  guint i;

  do {
    sum = 0.0;
    for (i = 0; i < n; i++) {
      t[i] = g_rand_double_range (r, -0.3, 1.0);
      sum += t[i];
    }
  } while (sum < 0.1 * n);
  for (i = 0; i < n; i++)
    t[i] /= sum;
}

void
fx_set_kernel (Fx * fx, const gdouble * k, guint n)
{
  set_double_array (fx->base.el, "kernel", k, n);
  ref_conv_set_kernel (&fx->ref, k, n);
}

/* kx or ky may be NULL: that axis is left unset (the identity tap). */
void
fx_set_separable (Fx * fx, const gdouble * kx, const gdouble * ky, guint n)
{
  gdouble id[49] = { 0 };

  /* Start from a plain 2D kernel so that no axis of an earlier separable
   * kernel (of another length) is still set. */
  id[n * n / 2] = 1.0;
  set_double_array (fx->base.el, "kernel", id, n * n);
  if (kx)
    set_double_array (fx->base.el, "kernel-x", kx, n);
  if (ky)
    set_double_array (fx->base.el, "kernel-y", ky, n);
  ref_conv_set_separable (&fx->ref, kx, ky, n);
}

void
fx_random_kernel (Fx * fx, KernelKind kind, guint n)
{
  gdouble kx[7], ky[7], k[49];
  guint i, j;

  switch (kind) {
    case KERNEL_2D:
      random_taps (fx->base.rand, k, n * n);
      fx_set_kernel (fx, k, n * n);
      break;
    case KERNEL_SEPARABLE:
      random_taps (fx->base.rand, kx, n);
      random_taps (fx->base.rand, ky, n);
      fx_set_separable (fx, kx, ky, n);
      break;
    case KERNEL_RANK1:
      random_taps (fx->base.rand, kx, n);
      random_taps (fx->base.rand, ky, n);
      for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
          k[j * n + i] = ky[j] * kx[i];
      fx_set_kernel (fx, k, n * n);
      break;
    default:
      g_assert_not_reached ();
  }
}

void
fx_set_preset (Fx * fx, const gchar * nick)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "preset", nick);
  fail_unless (ref_conv_set_preset (&fx->ref, nick));
}

void
fx_set_border (Fx * fx, RefBorder b, gdouble value)
{
  harness_fx_set_border (&fx->base, b, value);
}

void
fx_set_algorithm (Fx * fx, const gchar * nick)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "algorithm", nick);
  fx->base.algorithm = nick;
}

void
fx_set_gain (Fx * fx, gdouble scale, gdouble bias, gboolean absolute)
{
  g_object_set (fx->base.el, "scale", scale, "bias", bias, "absolute", absolute,
      NULL);
  fx->ref.scale = scale;
  fx->ref.bias = bias;
  fx->ref.absolute = absolute;
}

