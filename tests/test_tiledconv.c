/* vktile tests — tiledconv against the CPU reference (reference.c).
 *
 * Owns the GstCheck/GstHarness tests of the tiledconv element: random frames
 * of every format, border mode, algorithm, kernel size and kind, frame size,
 * ROI placement and plane mask, compared value by value with the double
 * precision reference (tolerance 1 code value); the
 * memory paths (system memory, VulkanBuffer in, VulkanBuffer between two
 * elements, the pool proposed upstream, padded input strides); the timing
 * meta; property changes from another thread; and bad input (malformed
 * kernels, out-of-range properties, caps changes, frames smaller than the
 * kernel, ROI values at the ends of their ranges). What the base class
 * does for every element (choosing the device, none at all) is
 * test_basefilter.c's.
 *
 * The reference itself is checked in test_references.c (a copy of the
 * input must fail the comparison, so a shader replaced by a copy cannot
 * pass), and test_matrix also asserts that every filtered frame changed.
 *
 * Lavapipe compiles every pipeline variant slowly, so each test keeps one
 * harness and changes properties between frames (properties are safe to
 * change while playing) instead of building a harness per case.
 *
 * Random data comes from VKTILE_SEED (or the time); every failure message
 * carries the seed, so `VKTILE_SEED=<n> GST_CHECKS=<test> ./test_tiledconv`
 * reproduces it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/gstvktiletimingmeta.h"
#include "reference.h"
/* the reference is a RefConv, the base-class settings themselves */
#define FX_COMMON(fx) (&(fx)->ref)
#include "fixture.h"

static guint32 base_seed;


static const gchar *algorithms[] = { "tiled", "naive", "two-pass", "shared" };

#define N_ALGORITHMS G_N_ELEMENTS (algorithms)

/* The frame sizes the tests cover: none a multiple of the 32x32 tile. */
static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {5, 7}, {33, 17}, {127, 65}, {257, 130},
};

typedef enum
{
  KERNEL_2D,                    /* random, non-separable, via `kernel` */
  KERNEL_SEPARABLE,             /* random, via `kernel-x` and `kernel-y` */
  KERNEL_RANK1,                 /* random outer product, via `kernel` */
  KERNEL_KINDS
} KernelKind;

static const gchar *kernel_kind_names[] = { "2d", "separable", "rank1" };

/* The fixture and the reference's mirror of the element's properties. */
typedef struct
{
  HarnessFx base;
  RefConv ref;
  RefConv ref_b;                /* the second of a chain */
} Fx;

/* ------------------------------------------------------------------------ */
/* helpers */

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
static void
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

/* fp32 noise moves only the values within a hair of a .5 boundary;
 * truncation would move about half of them. */
static guint
tiledconv_rounding_bound (HarnessFx * base, guint n_values)
{
  return MAX (4, n_values / 20);
}

static void
fx_reference_init (HarnessFx * base)
{
  ref_conv_init (&FX (base)->ref);
}

static const FxElement fx_element = {
  .name = "tiledconv",
  .algorithm = "tiled",
  .init = fx_reference_init,
  .filter = tiledconv_filter,
  .describe = tiledconv_describe,
  .rounding_bound = tiledconv_rounding_bound,
  .ties_down_reference = TRUE,
  .tol = 1,
  .content = CONTENT_NOISE,
};

/* n taps summing to 1 with some negative ones: outputs stay near the input
 * range (little clamping hides little) while every tap matters. */
static void
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

static void
fx_set_kernel (Fx * fx, const gdouble * k, guint n)
{
  set_double_array (fx->base.el, "kernel", k, n);
  ref_conv_set_kernel (&fx->ref, k, n);
}

/* kx or ky may be NULL: that axis is left unset (the identity tap). */
static void
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

static void
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

static void
fx_set_preset (Fx * fx, const gchar * nick)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "preset", nick);
  fail_unless (ref_conv_set_preset (&fx->ref, nick));
}

static void
fx_set_border (Fx * fx, RefBorder b, gdouble value)
{
  harness_fx_set_border (&fx->base, b, value);
}

static void
fx_set_algorithm (Fx * fx, const gchar * nick)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "algorithm", nick);
  fx->base.algorithm = nick;
}

static void
fx_set_gain (Fx * fx, gdouble scale, gdouble bias, gboolean absolute)
{
  g_object_set (fx->base.el, "scale", scale, "bias", bias, "absolute", absolute,
      NULL);
  fx->ref.scale = scale;
  fx->ref.bias = bias;
  fx->ref.absolute = absolute;
}

/* ------------------------------------------------------------------------ */
/* the element on every format */

/* With the current format and algorithm: every border mode (a random
 * border-value) x kernel size 3, 5, 7 x kernel kind, a frame each, named
 * "<label> (<kind> <n>x<n> kernel)". */
static void
fx_check_borders_kernels (Fx * fx, const gchar * label)
{
  guint b, n, kind;

  for (b = 0; b < REF_BORDER_N; b++) {
    fx_set_border (fx, b, g_rand_double (fx->base.rand));
    for (n = 3; n <= 7; n += 2) {
      for (kind = 0; kind < KERNEL_KINDS; kind++) {
        gchar *what = g_strdup_printf ("%s (%s %ux%u kernel)", label,
            kernel_kind_names[kind], n, n);

        fx_random_kernel (fx, kind, n);
        fx_check_frame (fx, LAYOUT_DEFAULT, what);
        g_free (what);
      }
    }
  }
}

/* Every algorithm x border mode x kernel size x kernel kind on one format:
 * 180 frames through one harness, properties changed between frames. */
FX_GROUP_TEST (test_matrix, 100)
{
  guint a;

  fx_set_caps (fx, fmt, 37, 21);
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    fx_check_borders_kernels (fx, "matrix");
  }
  /* every one of those frames must have been changed by its filter: a
   * shader that copies would be caught here even if the reference agreed */
  fail_unless_equals_int (fx->base.n_changed, fx->base.n_frames);
}

/* The main algorithm on a frame with interior tiles in every format (also
 * GRAY8, whose 32-word tiles are 128 pixels wide): tiled x every border x
 * kernel size x kind, and each baseline with every border. */
FX_GROUP_TEST (test_matrix_large, 150)
{
  guint a, b;

  fx_set_caps (fx, fmt, 300, 100);
  fx_check_borders_kernels (fx, "large matrix");
  for (a = 1; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    for (b = 0; b < REF_BORDER_N; b++) {
      fx_set_border (fx, b, g_rand_double (fx->base.rand));
      fx_random_kernel (fx, (a + b) % KERNEL_KINDS, 3 + 2 * ((a + b) % 3));
      fx_check_frame (fx, LAYOUT_DEFAULT, "large matrix");
    }
  }
}

/* The frame sizes of `sizes` (none a multiple of the 32x32 tile; 1x1 and
 * 2x3 smaller than every kernel) x every algorithm, through caps changes of
 * one harness; border, kernel size and kind rotate. */
FX_GROUP_TEST (test_sizes, 200)
{
  guint s, a;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    fx_set_caps (fx, fmt, sizes[s][0], sizes[s][1]);
    for (a = 0; a < N_ALGORITHMS; a++) {
      guint k = s + a + lead;

      fx_set_algorithm (fx, algorithms[a]);
      fx_set_border (fx, k % REF_BORDER_N, 0.25);
      fx_random_kernel (fx, (s + 2 * a + lead) % KERNEL_KINDS,
          3 + 2 * (k % 3));
      fx_check (fx, "sizes #%u", s);
    }
  }
}

/* Target/source ROIs on a large frame whose edges cut through tiles, so
 * that the tiled algorithm's border classes meet ROI edges (the full-frame
 * case is test_matrix_large). */
FX_GROUP_TEST (test_roi_large, 300)
{
  guint r;

  fx_set_caps (fx, fmt, ROI_LARGE_W, ROI_LARGE_H);
  for (r = 0; r < n_roi_large_cases; r++) {
    fx_set_algorithm (fx, r == 3 ? "shared" : "tiled");
    fx_random_kernel (fx, (r + lead) % KERNEL_KINDS, 3 + 2 * (r % 3));
    fx_set_border (fx, (r + 2 * lead) % REF_BORDER_N, 0.3);
    fx_set_roi_case (fx, roi_large_cases[r]);
    fx_check (fx, "large frame, roi #%u", r);
  }
}

/* 5x5 and 7x7 kernels on frames smaller than the kernel, in every border
 * mode (the periodic extension of the border rules). */
FX_GROUP_TEST (test_smaller_than_kernel, 400)
{
  static const gint small[][2] = { {1, 1}, {2, 3}, {3, 2}, {1, 6}, {4, 1},
  {5, 7}
  };
  guint s, b;

  for (s = 0; s < G_N_ELEMENTS (small); s++) {
    fx_set_caps (fx, fmt, small[s][0], small[s][1]);
    for (b = 0; b < REF_BORDER_N; b++) {
      fx_set_algorithm (fx, algorithms[(s + b + lead) % N_ALGORITHMS]);
      fx_random_kernel (fx, (s + b) % KERNEL_KINDS, (s + b) % 2 ? 5 : 7);
      fx_set_border (fx, b, 0.75);
      fx_check (fx, "smaller than the kernel, %dx%d", small[s][0],
          small[s][1]);
    }
  }
}

/* Target and source ROIs x every algorithm: inside, moved, odd offsets
 * (chroma and byte lanes misaligned), clipped, 1 pixel wide/high, to the
 * edge (width 0), entirely outside (a copy). */
FX_GROUP_TEST (test_roi, 500)
{
  guint r, a;

  fx_set_caps (fx, fmt, ROI_SMALL_W, ROI_SMALL_H);
  for (r = 0; r < n_roi_small_tiledconv; r++) {
    fx_set_roi_case (fx, roi_small_cases[roi_small_tiledconv[r]]);
    for (a = 0; a < N_ALGORITHMS; a++) {
      fx_set_algorithm (fx, algorithms[a]);
      fx_set_border (fx, (r + a + 2 * lead) % REF_BORDER_N, 0.4);
      fx_random_kernel (fx, (r + a + lead) % KERNEL_KINDS,
          3 + 2 * ((r + a) % 3));
      fx_check (fx, "roi #%u", r);
    }
  }
}

/* ROI properties at the ends of their ranges: nothing to filter, or clipped
 * to the frame, never a crash or an overflow. */
/* roi-meta: the regions of the listed types filtered (the tiled
 * algorithm's border classes per region, a 7x7 kernel), everything else
 * the input; every algorithm, a group of formats each. */
static void
roi_meta_format (HarnessFx * base, GstVideoFormat fmt, guint i,
    guint fi, guint lead)
{
  static const gchar *const listed[] = { "face", "license-plate", NULL };
  Fx *fx = FX (base);
  const gchar *algorithm = algorithms[(i + base->group) % N_ALGORITHMS];
  gchar *what = g_strdup_printf ("roi-meta, algorithm %s", algorithm);

  fx_set_caps (fx, fmt, ROI_META_W, ROI_META_H);
  fx_set_algorithm (fx, algorithm);
  fx_random_kernel (fx, KERNEL_SEPARABLE, 7);
  fx_set_border (fx, (RefBorder) ((i + base->group) % REF_BORDER_N),
      g_rand_double (base->rand));
  harness_fx_check_roi_meta (base, n_roi_meta_regions, listed, 2, what);
  g_free (what);
}

GST_START_TEST (test_roi_meta)
{
  Fx fx;

  fx_init (&fx, 3100 + __i__);
  g_object_set (fx.base.el, "roi-meta", "face,license-plate", "roi-padding",
      2, NULL);
  harness_fx_for_group (&fx.base, __i__, roi_meta_format);
  fx_clear (&fx);
}

GST_END_TEST;

GST_START_TEST (test_roi_extremes)
{
  static const gint rois[][6] = {
    {G_MAXINT, 0, 0, 0, -1, -1},
    {0, G_MAXINT, 4, 4, -1, -1},
    {3, 2, G_MAXINT, G_MAXINT, -1, -1},
    {0, 0, 5, 5, G_MAXINT, 0},
    {0, 0, 5, 5, 3, G_MAXINT},
    {G_MAXINT - 1, G_MAXINT - 1, G_MAXINT, G_MAXINT, 0, 0},
    {2, 2, 6, 6, G_MAXINT - 3, 1},
  };
  guint r;
  Fx fx;

  fx_init (&fx, 550 + __i__);
  fx_set_caps (&fx, __i__ ? GST_VIDEO_FORMAT_I420 : GST_VIDEO_FORMAT_RGBA,
      33, 17);
  for (r = 0; r < G_N_ELEMENTS (rois); r++) {
    const gint *q = rois[r];
    gchar *what = g_strdup_printf ("extreme roi #%u", r);

    fx_set_algorithm (&fx, algorithms[r % N_ALGORITHMS]);
    fx_set_roi (&fx, q[0], q[1], q[2], q[3], q[4], q[5]);
    fx_check_frame (&fx, LAYOUT_DEFAULT, what);
    g_free (what);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* `planes` selects components; the others (and RGBx's x) are copied. */
GST_START_TEST (test_planes)
{
  guint i;
  Fx fx;

  fx_init (&fx, 600);
  fx_set_preset (&fx, "box3");
  for (i = 0; i < n_planes_cases; i++) {
    gchar *what = g_strdup_printf ("planes case %u", i);

    fx_set_caps (&fx, planes_cases[i].fmt, 35, 19);
    fx_set_planes (&fx, planes_cases[i].planes);
    fx_check_frame (&fx, LAYOUT_DEFAULT, what);
    g_free (what);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Every preset against the SEMANTICS table, and `preset` read back. */
GST_START_TEST (test_presets)
{
  static const gchar *presets[] = { "box3", "box5", "gaussian3",
    "gaussian5", "sharpen", "laplacian", "sobel-x", "sobel-y", "emboss",
  };
  guint i;
  Fx fx;

  fx_init (&fx, 700);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 34, 18);
  for (i = 0; i < G_N_ELEMENTS (presets); i++) {
    fx_set_preset (&fx, presets[i]);
    fx_set_algorithm (&fx, algorithms[i % N_ALGORITHMS]);
    fx_set_border (&fx, i % REF_BORDER_N, 0.5);
    /* edge detectors need a bias to be seen at all */
    fx_set_gain (&fx, 1.0, i >= 5 ? 0.5 : 0.0, FALSE);
    fx_check_frame (&fx, LAYOUT_DEFAULT, presets[i]);
    fail_unless_equals_string (get_enum_nick (fx.base.el, "preset"),
        presets[i]);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* scale, bias and absolute with sobel-x (clamping both ways). */
GST_START_TEST (test_scale_bias_absolute)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12,
  };
  static const struct
  {
    gdouble scale, bias;
    gboolean absolute;
  } gains[] = {
    {0.25, 0.5, FALSE},
    {1.0, 0.0, TRUE},
    {0.5, 0.1, TRUE},
    {2.0, 0.0, FALSE},          /* negative sums clamp to 0 */
    {-0.7, 0.3, FALSE},         /* only where scale may be negative */
  };
  GParamSpec *scale_spec;
  guint i;
  Fx fx;

  fx_init (&fx, 800 + __i__);
  fx_set_caps (&fx, fmts[__i__], 39, 23);
  fx_set_preset (&fx, "sobel-x");
  scale_spec = g_object_class_find_property (G_OBJECT_GET_CLASS (fx.base.el),
      "scale");
  for (i = 0; i < G_N_ELEMENTS (gains); i++) {
    gchar *what;

    if (gains[i].scale < G_PARAM_SPEC_DOUBLE (scale_spec)->minimum)
      continue;
    what = g_strdup_printf ("gain case %u", i);

    fx_set_algorithm (&fx, algorithms[(i + __i__) % N_ALGORITHMS]);
    fx_set_gain (&fx, gains[i].scale, gains[i].bias, gains[i].absolute);
    fx_check_frame (&fx, LAYOUT_DEFAULT, what);
    g_free (what);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Only one of kernel-x / kernel-y: the other axis is the identity. */
GST_START_TEST (test_separable_one_axis)
{
  gdouble t[7];
  Fx fx;

  fx_init (&fx, 900);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 45, 29);
  random_taps (fx.base.rand, t, 5);
  fx_set_separable (&fx, t, NULL, 5);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "kernel-x only");
  random_taps (fx.base.rand, t, 7);
  fx_set_algorithm (&fx, "two-pass");
  fx_set_separable (&fx, NULL, t, 7);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "kernel-y only");
  fx_clear (&fx);
}

GST_END_TEST;

/* A 5- or 7-tap separable kernel set on a fresh element, the way a launch
 * line sets it (kernel-x first, while kernel-y still has its default
 * length), and from a launch line itself. */
GST_START_TEST (test_separable_fresh_element)
{
  static const gdouble kx[7] = { 0.1, -0.2, 0.3, 0.4, 0.2, 0.1, 0.1 };
  static const gdouble ky[7] = { 0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05 };
  guint n = __i__ ? 7 : 5;
  GString *launch = g_string_new ("tiledconv kernel-x=\"<");
  guint i;
  Fx fx;

  fx_init (&fx, 950 + __i__);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 40, 22);
  set_double_array (fx.base.el, "kernel-x", kx, n);
  set_double_array (fx.base.el, "kernel-y", ky, n);
  ref_conv_set_separable (&fx.ref, kx, ky, n);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "separable on a fresh element");
  fx_clear (&fx);

  for (i = 0; i < n; i++)
    g_string_append_printf (launch, "%s%g", i ? ", " : "", kx[i]);
  g_string_append (launch, ">\" kernel-y=\"<");
  for (i = 0; i < n; i++)
    g_string_append_printf (launch, "%s%g", i ? ", " : "", ky[i]);
  g_string_append (launch, ">\"");
  fx_init_full (&fx, launch->str, NULL, 960 + __i__);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 40, 22);
  ref_conv_set_separable (&fx.ref, kx, ky, n);
  fx_check_frame (&fx, LAYOUT_DEFAULT, launch->str);
  fx_clear (&fx);
  g_string_free (launch, TRUE);
}

GST_END_TEST;

/* Input buffers whose GstVideoMeta gives padded strides and moved planes
 * (4-aligned, then odd), with every algorithm. */
FX_GROUP_TEST (test_padded_input, 1000)
{
  guint a;

  fx_set_caps (fx, fmt, 33, 17);
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    fx_random_kernel (fx, a % KERNEL_KINDS, 5);
    fx_set_border (fx, (a + lead) % REF_BORDER_N, 0.6);
    fx_check_frame (fx, LAYOUT_PADDED, "padded strides (4-aligned)");
    fx_check_frame (fx, LAYOUT_ODD, "padded strides (odd)");
  }
  fx_check_frame (fx, LAYOUT_DEFAULT, "default strides after padded ones");
}

/* System-memory caps, upstream writing into the pool tiledconv proposes
 * (host-visible Vulkan buffers, so that no copy is needed). */
FX_GROUP_TEST (test_proposed_pool_input, 1050)
{
  guint a;

  fx_set_caps (fx, fmt, 45, 23);
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    fx_random_kernel (fx, (a + lead) % KERNEL_KINDS, 3 + 2 * (a % 3));
    fx_set_border (fx, (a + 2 * lead) % REF_BORDER_N, 0.2);
    fx_check_frame (fx, LAYOUT_PROPOSED_POOL, "input from the proposed pool");
  }
  check_pool_holds_vulkan (fx->base.pool, &fx->base.info);
}

/* vulkanupload ! video/x-raw(memory:VulkanBuffer) ! tiledconv, fed like
 * videotestsrc feeds it: into buffers of the pool vulkanupload proposes.
 * (vulkanupload 1.22 aborts on system-memory buffers of its own allocation
 * size, "plane_size < map_info.size", with or without tiledconv.) */
GST_START_TEST (test_vulkan_buffer_input)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_BGRx,
  };
  const gchar *fmt = gst_video_format_to_string (fmts[__i__]);
  gchar *launch = g_strdup_printf ("vulkanupload ! "
      "video/x-raw(memory:VulkanBuffer),format=%s ! tiledconv", fmt);
  guint counts[2] = { 0, 0 };
  guint i;
  Fx fx;

  fx_init_full (&fx, launch, NULL, 1100 + __i__);
  probe_pad_memory (fx.base.el, "sink", counts);
  fx_set_caps (&fx, fmts[__i__], 47, 25);
  for (i = 0; i < 3; i++) {
    fx_set_algorithm (&fx, algorithms[(i + __i__) % N_ALGORITHMS]);
    fx_random_kernel (&fx, i % KERNEL_KINDS, 3 + 2 * i);
    fx_set_border (&fx, (i + __i__) % REF_BORDER_N, 0.1);
    fx_check_frame (&fx, LAYOUT_PROPOSED_POOL, "VulkanBuffer input");
  }
  fail_unless (counts[0] == 3 && counts[1] == 0, "into tiledconv: %u "
      "VulkanBuffer frames, %u other", counts[0], counts[1]);
  fx_clear (&fx);
  g_free (launch);
}

GST_END_TEST;

/* One step of test_vulkan_buffer_chain: a an integer kernel (exact in
 * fp32), b a random one with border wrap, their algorithms rotating. */
static gconstpointer
chain_step (HarnessFx * base, GstElement * b, guint i)
{
  Fx *fx = FX (base);
  gdouble k[25];

  fx_set_preset (fx, i == 1 ? "sobel-y" : "sharpen");
  fx_set_gain (fx, 1.0, i == 1 ? 0.5 : 0.0, FALSE);
  fx_set_algorithm (fx, algorithms[i]);
  ref_conv_init (&fx->ref_b);
  random_taps (base->rand, k, 25);
  set_double_array (b, "kernel", k, 25);
  ref_conv_set_kernel (&fx->ref_b, k, 25);
  gst_util_set_object_arg (G_OBJECT (b), "border", "wrap");
  gst_util_set_object_arg (G_OBJECT (b), "algorithm", algorithms[3 - i]);
  fx->ref_b.border = REF_BORDER_WRAP;
  return &fx->ref_b;
}

/* tiledconv ! video/x-raw(memory:VulkanBuffer) ! tiledconv, system memory at
 * both ends: the output is the reference applied twice, the frame stays in
 * Vulkan buffers in between, and it carries one meta per element. */
GST_START_TEST (test_vulkan_buffer_chain)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8,
  };
  gchar *launch = harness_chain_launch ("tiledconv", fmts[__i__]);
  guint64 a_download = 0, b_upload = 0;
  Fx fx;

  fx_init_full (&fx, launch, "a", 1200 + __i__);
  /* two roundings: the first stage's +-1 goes through b's kernel */
  harness_fx_check_chain (&fx.base, fmts[__i__], 43, 31, 3, chain_step,
      ref_tiledconv_apply, &fx.ref, &a_download, &b_upload);
  /* checked last, so that the output checks above run whatever happens */
  fail_unless (a_download == 0 && b_upload == 0, "a: download_ns %"
      G_GUINT64_FORMAT ", b: upload_ns %" G_GUINT64_FORMAT ": both must be "
      "0, the frame stays on the GPU", a_download, b_upload);
  fx_clear (&fx);
  g_free (launch);
}

GST_END_TEST;

/* One element: one meta per buffer, frame_index counting up, dispatches,
 * and the work-groups of each border class. The tiled work-groups are 32x8
 * invocations of 4x4 GRAY8 pixels: tiles of 128x32 GRAY8 pixels. On a
 * 1000x130 frame with a 3x3 kernel they are 8 x 5 = 40; those reading only
 * inside the frame (and so writing only inside it) are columns 1-6 x rows
 * 1-3 = 18; none is free on read but not on write; columns 0-6 x rows 0-3
 * = 28 write inside, so 28 - 18 = 10 are free on write only; 12 are
 * neither ("Tiled Convolution", classes 1-4). Only GRAY8 gets exact counts. */
GST_START_TEST (test_timing_meta)
{
  guint i, a;
  gchar *name;
  Fx fx;

  fx_init (&fx, 1300);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 1000, 130);
  fx_set_preset (&fx, "sharpen");
  name = gst_element_get_name (fx.base.el);
  for (i = 0; i < 2 + N_ALGORITHMS; i++) {
    GstVkTileTimingMeta *m;
    GstBuffer *out;

    a = i < 2 ? 0 : i - 2;
    fx_set_algorithm (&fx, algorithms[a]);
    out = harness_fx_push_timed (&fx.base, name, i, &m);
    if (a == 0) {
      fail_unless (m->tile_classes[GST_VKTILE_TILES_FREE] == 18 &&
          m->tile_classes[GST_VKTILE_TILES_WRITE_CHECKED] == 0 &&
          m->tile_classes[GST_VKTILE_TILES_READ_CHECKED] == 10 &&
          m->tile_classes[GST_VKTILE_TILES_CHECKED] == 12,
          "tile classes (free, write-checked, read-checked, checked) "
          "%u %u %u %u, want 18 0 10 12", m->tile_classes[0],
          m->tile_classes[1], m->tile_classes[2], m->tile_classes[3]);
    } else {
      fail_unless (m->tile_classes[0] + m->tile_classes[1] +
          m->tile_classes[2] + m->tile_classes[3] == 0,
          "%s reports tile classes", algorithms[a]);
    }
    gst_buffer_unref (out);
  }

  /* RGBA: still interior tiles (32x32 pixels), and edge tiles */
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 257, 130);
  fx_set_algorithm (&fx, "tiled");
  {
    GstBuffer *out = fx_push (&fx, make_frame (&fx.base.info, fx.base.rand,
            LAYOUT_DEFAULT, CONTENT_NOISE));
    GstVkTileTimingMeta *m = gst_vktile_timing_meta_get (out, name);

    fail_unless (m != NULL);
    fail_unless (m->tile_classes[GST_VKTILE_TILES_FREE] > 0 &&
        m->tile_classes[GST_VKTILE_TILES_CHECKED] > 0,
        "RGBA 257x130: tile classes %u %u %u %u", m->tile_classes[0],
        m->tile_classes[1], m->tile_classes[2], m->tile_classes[3]);
    gst_buffer_unref (out);
  }
  g_free (name);
  fx_clear (&fx);
}

GST_END_TEST;

/* Identical inputs give identical outputs. */
GST_START_TEST (test_deterministic)
{
  Fx fx;

  fx_init (&fx, 1400 + __i__);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_NV12, 99, 51);
  fx_set_algorithm (&fx, algorithms[__i__]);
  fx_random_kernel (&fx, KERNEL_2D, 7);
  harness_fx_check_deterministic (&fx.base);
  fx_clear (&fx);
}

GST_END_TEST;

/* The default element changes a random frame, and the identity kernel does
 * not: the filter is really applied, and the plumbing around it is exact. */
GST_START_TEST (test_filter_changes_frame)
{
  gdouble id[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
  Mismatch mm;
  Fx fx;

  fx_init (&fx, 1500);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 64, 48);

  fail_unless (harness_fx_push_changes (&fx.base, 1, FALSE, &mm) >
      64 * 48 * 4 / 2, "gaussian3 left a random frame nearly unchanged (%u "
      "values differ)", mm.count);

  fx_set_kernel (&fx, id, 9);
  fail_unless (harness_fx_push_changes (&fx.base, 0, FALSE, &mm) == 0,
      "the identity kernel changed %u values", mm.count);
  fx_clear (&fx);
}

GST_END_TEST;

/* Size and format changes mid-stream keep producing correct output. */
GST_START_TEST (test_caps_change)
{
  Fx fx;

  fx_init (&fx, 1600);
  fx_random_kernel (&fx, KERNEL_2D, 5);
  fx_set_border (&fx, REF_BORDER_MIRROR, 0);
  harness_fx_check_caps_changes (&fx.base);
  fx_clear (&fx);
}

GST_END_TEST;

/* The kernels test_property_change_while_streaming toggles between. */
typedef struct
{
  const gdouble *k[2];
  guint n[2];
} ToggleKernels;

static void
toggle_set_kernel (GstElement * el, guint which, gconstpointer data)
{
  const ToggleKernels *t = data;

  set_double_array (el, "kernel", t->k[which], t->n[which]);
}

/* A property changed from another thread while frames stream (properties
 * are safe to change while playing): every output is entirely the filter of
 * one of the two kernels (3x3 and 7x7), never a mix, never a crash. */
GST_START_TEST (test_property_change_while_streaming)
{
  gdouble ka[9], kb[49];
  RefConv ra, rb;
  ToggleKernels kernels = { {ka, kb}, {9, 49} };
  Toggle toggle = { toggle_set_kernel, &kernels, ref_tiledconv_apply, &ra,
    &rb, "the 3x3 kernel", "the 7x7 kernel"
  };
  Fx fx;

  fx_init (&fx, 2000);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 64, 40);
  fx_set_border (&fx, REF_BORDER_MIRROR, 0);
  random_taps (fx.base.rand, ka, 9);
  random_taps (fx.base.rand, kb, 49);
  ra = rb = fx.ref;
  ref_conv_set_kernel (&ra, ka, 9);
  ref_conv_set_kernel (&rb, kb, 49);
  set_double_array (fx.base.el, "kernel", ka, 9);
  harness_fx_check_toggled (&fx.base, &toggle, 40);
  fx_clear (&fx);
}

GST_END_TEST;

/* Back to NULL and playing again: the element restarts cleanly. */
GST_START_TEST (test_restart)
{
  Fx fx;

  fx_init (&fx, 2100);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_NV12, 33, 17);
  fx_random_kernel (&fx, KERNEL_2D, 7);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "before the restart");
  fail_unless (gst_element_set_state (fx.base.h->element, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_harness_play (fx.base.h);
  fail_unless (gst_harness_push_event (fx.base.h,
          gst_event_new_stream_start ("restart")));
  fx_set_caps (&fx, GST_VIDEO_FORMAT_I420, 35, 19);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "after the restart");
  fx_clear (&fx);
}

GST_END_TEST;

/* A buffer too small for its caps is an error, not a crash or a read past
 * its end. */
GST_START_TEST (test_truncated_buffer)
{
  GstFlowReturn ret;
  GstBuffer *in;
  Fx fx;

  fx_init (&fx, 2200);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_I420, 64, 32);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "before a truncated buffer");
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&fx.base.info) / 2,
      NULL);
  gst_buffer_memset (in, 0, 0x55, gst_buffer_get_size (in));
  ret = gst_harness_push (fx.base.h, in);
  fail_unless (ret != GST_FLOW_OK, "a half-size buffer was accepted");
  fx_clear (&fx);
}

GST_END_TEST;

/* A kernel given as a string, as on a gst-launch line: integer entries are
 * numbers too. */
GST_START_TEST (test_kernel_from_string)
{
  Fx fx;

  fx_init (&fx, 1700);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 30, 20);
  gst_util_set_object_arg (G_OBJECT (fx.base.el), "kernel",
      "<0, -1, 0, -1, 5, -1, 0, -1, 0>");
  ref_conv_set_preset (&fx.ref, "sharpen");
  fx_check_frame (&fx, LAYOUT_DEFAULT, "kernel <0,-1,0,-1,5,-1,0,-1,0>");
  gst_util_set_object_arg (G_OBJECT (fx.base.el), "kernel-x",
      "<0.25, 0.5, 0.25>");
  gst_util_set_object_arg (G_OBJECT (fx.base.el), "kernel-y", "<1, 2, 1>");
  {
    static const gdouble kx[3] = { 0.25, 0.5, 0.25 }, ky[3] = { 1, 2, 1 };
    ref_conv_set_separable (&fx.ref, kx, ky, 3);
  }
  fx_check_frame (&fx, LAYOUT_DEFAULT, "kernel-x/kernel-y from strings");
  fx_clear (&fx);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* properties */

/* Names, types, defaults and ranges of the element's interface. */
GST_START_TEST (test_property_specs)
{
  static const gchar *borders[] = { "clamp", "mirror", "reflect", "wrap",
    "constant", NULL
  };
  static const gchar *algos[] = { "tiled", "naive", "two-pass", "shared",
    NULL
  };
  static const gchar *presets[] = { "none", "box3", "box5", "gaussian3",
    "gaussian5", "sharpen", "laplacian", "sobel-x", "sobel-y", "emboss", NULL
  };
  static const gchar *animated[] = { "scale", "bias", NULL };
  GstElement *el = harness_new_element ("tiledconv");
  GObjectClass *klass = G_OBJECT_GET_CLASS (el);
  GParamSpec *pspec;

  check_enum_nicks (klass, "border", borders, "clamp");
  check_enum_nicks (klass, "algorithm", algos, "tiled");
  check_enum_nicks (klass, "preset", presets, "gaussian3");

  pspec = g_object_class_find_property (klass, "border-value");
  fail_unless (pspec && G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->minimum == 0.0 &&
      G_PARAM_SPEC_DOUBLE (pspec)->maximum == 1.0, "border-value not 0..1");

  pspec = g_object_class_find_property (klass, "scale");
  fail_unless (pspec && G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->default_value == 1.0);
  pspec = g_object_class_find_property (klass, "bias");
  fail_unless (pspec && G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->default_value == 0.0);
  pspec = g_object_class_find_property (klass, "absolute");
  fail_unless (pspec && G_IS_PARAM_SPEC_BOOLEAN (pspec));
  fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == FALSE);
  fail_unless (g_object_class_find_property (klass, "kernel") != NULL);
  fail_unless (g_object_class_find_property (klass, "kernel-x") != NULL);
  fail_unless (g_object_class_find_property (klass, "kernel-y") != NULL);

  /* animatable numbers are controllable */
  check_element_interface (el, NULL, animated);
}

GST_END_TEST;

/* Out-of-range values are refused by the GParamSpec (GLib warns) and the
 * property keeps its value; so do unknown enum nicks. */
GST_START_TEST (test_property_out_of_range)
{
  GstElement *el = harness_new_element ("tiledconv");
  gint e;

  g_object_set (el, "roi-x", 5, "source-x", 3, "border-value", 0.25,
      "planes", 0x5, NULL);
  check_refused_numbers (el, "roi-x", (const gdouble[]) {
      -3}, 1);
  check_refused_numbers (el, "source-x", (const gdouble[]) {
      -2}, 1);
  check_refused_numbers (el, "border-value", (const gdouble[]) {
      1.5, -0.5}, 2);
  check_refused_numbers (el, "planes", (const gdouble[]) {
      0x10}, 1);

  g_object_get (el, "border", &e, NULL);
  _gst_check_expecting_log = TRUE;
  gst_util_set_object_arg (G_OBJECT (el), "border", "no-such-border");
  _gst_check_expecting_log = FALSE;
  {
    gint e2;
    g_object_get (el, "border", &e2, NULL);
    fail_unless_equals_int (e2, e);
  }
  gst_object_unref (el);
}

GST_END_TEST;

static void
set_expecting_warning (GstElement * el, const gchar * prop, const gdouble * v,
    guint n)
{
  /* the element may warn (a refused value gets a warning naming the
   * property), through g_warning or the debug log: accept either */
  _gst_check_expecting_log = TRUE;
  set_double_array (el, prop, v, n);
  _gst_check_expecting_log = FALSE;
}

/* kernel-x and kernel-y set to different lengths: the second is refused
 * with a warning, the first stays and the other axis is the identity (it
 * was reset silently before); after preset=none either length starts
 * over. */
GST_START_TEST (test_separable_mismatch)
{
  gdouble kx[3], ky[5], got[8];
  Fx fx;

  fx_init (&fx, 975);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 33, 21);
  random_taps (fx.base.rand, kx, 3);
  random_taps (fx.base.rand, ky, 5);
  set_double_array (fx.base.el, "kernel-x", kx, 3);
  set_expecting_warning (fx.base.el, "kernel-y", ky, 5);
  fail_unless_equals_int (get_double_array (fx.base.el, "kernel-x", got,
          G_N_ELEMENTS (got)), 3);
  fail_unless (got[0] == kx[0] && got[1] == kx[1] && got[2] == kx[2],
      "kernel-x changed when kernel-y was refused");
  ref_conv_set_separable (&fx.ref, kx, NULL, 3);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "kernel-y of another length refused");
  gst_util_set_object_arg (G_OBJECT (fx.base.el), "preset", "none");
  set_double_array (fx.base.el, "kernel-y", ky, 5);
  ref_conv_set_separable (&fx.ref, NULL, ky, 5);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "kernel-y after preset=none");
  fx_clear (&fx);
}

GST_END_TEST;

/* A malformed kernel is refused and the property keeps its old value, in
 * the property and in the output. */
GST_START_TEST (test_malformed_kernel)
{
  static const gdouble bad[50] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  gdouble k[9], got[64], kx[5];
  guint n, i;
  Fx fx;

  fx_init (&fx, 1800);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 31, 19);
  random_taps (fx.base.rand, k, 9);
  fx_set_kernel (&fx, k, 9);
  fail_unless_equals_string (get_enum_nick (fx.base.el, "preset"), "none");

  set_expecting_warning (fx.base.el, "kernel", bad, 8);
  set_expecting_warning (fx.base.el, "kernel", bad, 10);
  set_expecting_warning (fx.base.el, "kernel", bad, 0);
  set_expecting_warning (fx.base.el, "kernel", bad, 50);
  set_expecting_warning (fx.base.el, "kernel", bad, 1);

  n = get_double_array (fx.base.el, "kernel", got, G_N_ELEMENTS (got));
  fail_unless_equals_int (n, 9);
  for (i = 0; i < 9; i++)
    fail_unless (got[i] == k[i], "kernel[%u] is %g, was %g", i, got[i], k[i]);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "after malformed kernels");

  /* a non-numeric entry */
  {
    GValue arr = G_VALUE_INIT, item = G_VALUE_INIT;

    g_value_init (&arr, GST_TYPE_ARRAY);
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_string (&item, "one");
    for (i = 0; i < 9; i++)
      gst_value_array_append_value (&arr, &item);
    _gst_check_expecting_log = TRUE;
    g_object_set_property (G_OBJECT (fx.base.el), "kernel", &arr);
    _gst_check_expecting_log = FALSE;
    g_value_unset (&item);
    g_value_unset (&arr);
  }
  n = get_double_array (fx.base.el, "kernel", got, G_N_ELEMENTS (got));
  fail_unless_equals_int (n, 9);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "after a non-numeric kernel");

  /* separable rows of a wrong length */
  random_taps (fx.base.rand, kx, 5);
  fx_set_separable (&fx, kx, kx, 5);
  set_expecting_warning (fx.base.el, "kernel-x", bad, 4);
  set_expecting_warning (fx.base.el, "kernel-y", bad, 9);
  set_expecting_warning (fx.base.el, "kernel-x", bad, 2);
  n = get_double_array (fx.base.el, "kernel-x", got, G_N_ELEMENTS (got));
  fail_unless_equals_int (n, 5);
  for (i = 0; i < 5; i++)
    fail_unless (got[i] == kx[i], "kernel-x[%u] is %g, was %g", i, got[i],
        kx[i]);
  fx_check_frame (&fx, LAYOUT_DEFAULT, "after malformed kernel-x/y");
  fx_clear (&fx);
}

GST_END_TEST;

/* Setting a kernel switches preset to none; a preset replaces the kernel. */
GST_START_TEST (test_preset_kernel_interplay)
{
  gdouble k[25];
  Fx fx;

  fx_init (&fx, 1900);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_BGRA, 29, 15);
  fail_unless_equals_string (get_enum_nick (fx.base.el, "preset"), "gaussian3");
  fx_check_frame (&fx, LAYOUT_DEFAULT, "defaults");

  random_taps (fx.base.rand, k, 25);
  fx_set_kernel (&fx, k, 25);
  fail_unless_equals_string (get_enum_nick (fx.base.el, "preset"), "none");
  fx_check_frame (&fx, LAYOUT_DEFAULT, "kernel after preset");

  fx_set_preset (&fx, "emboss");
  fx_check_frame (&fx, LAYOUT_DEFAULT, "preset after kernel");

  random_taps (fx.base.rand, k, 3);
  fx_set_separable (&fx, k, k, 3);
  fail_unless_equals_string (get_enum_nick (fx.base.el, "preset"), "none");
  fx_check_frame (&fx, LAYOUT_DEFAULT, "separable after preset");

  /* preset=none keeps the kernel in place */
  gst_util_set_object_arg (G_OBJECT (fx.base.el), "preset", "none");
  fx_check_frame (&fx, LAYOUT_DEFAULT, "preset none");
  fx_clear (&fx);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */

static const SuiteEntry tiledconv_tests[] = {
  SUITE_CASE ("properties"),
  SUITE_TEST (test_property_specs),
  SUITE_TEST (test_property_out_of_range),
  SUITE_TEST (test_separable_mismatch),
  SUITE_TEST (test_malformed_kernel),
  SUITE_TEST (test_preset_kernel_interplay),
  SUITE_TEST (test_kernel_from_string),

  SUITE_CASE ("filter"),
  SUITE_TEST (test_filter_changes_frame),
  SUITE_LOOP_TEST (test_matrix, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_matrix_large, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_sizes, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_roi_large, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_smaller_than_kernel, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_roi, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_roi_extremes, 2),
  SUITE_LOOP_TEST (test_roi_meta, N_FORMAT_GROUPS),
  SUITE_TEST (test_planes),
  SUITE_TEST (test_presets),
  SUITE_LOOP_TEST (test_scale_bias_absolute, 4),
  SUITE_TEST (test_separable_one_axis),
  SUITE_LOOP_TEST (test_separable_fresh_element, 2),
  SUITE_LOOP_TEST (test_deterministic, N_ALGORITHMS),
  SUITE_TEST (test_caps_change),
  SUITE_TEST (test_property_change_while_streaming),
  SUITE_TEST (test_restart),
  SUITE_TEST (test_truncated_buffer),

  SUITE_CASE ("memory"),
  SUITE_LOOP_TEST (test_padded_input, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_proposed_pool_input, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_vulkan_buffer_input, 5),
  SUITE_LOOP_TEST (test_vulkan_buffer_chain, 3),
  SUITE_TEST (test_timing_meta),
};

SUITE_MAIN ("tiledconv", tiledconv_tests, &base_seed, NULL);
