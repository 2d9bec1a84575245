/* vktile tests — tiledconv against the CPU reference (reference.c): the
 * filter itself (the "filter" case of test_tiledconv's table, but for its
 * streaming tests, which are test_tiledconv.c's).
 *
 * Owns the tests of tiledconv's output on random frames of every format,
 * border mode, algorithm, kernel size and kind (2D, separable, rank 1,
 * presets, one axis of a separable kernel), frame size (frames smaller
 * than the kernel too), ROI placement (and the ROI values at the ends of
 * their ranges, and roi-meta), plane mask, scale, bias and absolute,
 * compared value by value with the double precision reference (tolerance
 * 1 code value); that the filter changes a frame at all, and that
 * identical inputs give identical outputs.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

#include "tiledconv_fx.h"

/* The frame sizes the tests cover: none a multiple of the 32x32 tile. */
static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {5, 7}, {33, 17}, {127, 65}, {257, 130},
};

static const gchar *kernel_kind_names[] = { "2d", "separable", "rank1" };

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

FX_TEST (test_roi_meta, 3100)
{
  g_object_set (fx->base.el, "roi-meta", "face,license-plate", "roi-padding",
      2, NULL);
  harness_fx_for_group (&fx->base, __i__, roi_meta_format);
}

FX_TEST (test_roi_extremes, 550)
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

  fx_set_caps (fx, __i__ ? GST_VIDEO_FORMAT_I420 : GST_VIDEO_FORMAT_RGBA,
      33, 17);
  for (r = 0; r < G_N_ELEMENTS (rois); r++) {
    const gint *q = rois[r];
    gchar *what = g_strdup_printf ("extreme roi #%u", r);

    fx_set_algorithm (fx, algorithms[r % N_ALGORITHMS]);
    fx_set_roi (fx, q[0], q[1], q[2], q[3], q[4], q[5]);
    fx_check_frame (fx, LAYOUT_DEFAULT, what);
    g_free (what);
  }
}

/* `planes` selects components; the others (and RGBx's x) are copied. */
FX_TEST (test_planes, 600)
{
  guint i;

  fx_set_preset (fx, "box3");
  for (i = 0; i < n_planes_cases; i++) {
    gchar *what = g_strdup_printf ("planes case %u", i);

    fx_set_caps (fx, planes_cases[i].fmt, 35, 19);
    fx_set_planes (fx, planes_cases[i].planes);
    fx_check_frame (fx, LAYOUT_DEFAULT, what);
    g_free (what);
  }
}

/* Every preset against the SEMANTICS table, and `preset` read back. */
FX_TEST (test_presets, 700)
{
  static const gchar *presets[] = { "box3", "box5", "gaussian3",
    "gaussian5", "sharpen", "laplacian", "sobel-x", "sobel-y", "emboss",
  };
  guint i;

  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 34, 18);
  for (i = 0; i < G_N_ELEMENTS (presets); i++) {
    fx_set_preset (fx, presets[i]);
    fx_set_algorithm (fx, algorithms[i % N_ALGORITHMS]);
    fx_set_border (fx, i % REF_BORDER_N, 0.5);
    /* edge detectors need a bias to be seen at all */
    fx_set_gain (fx, 1.0, i >= 5 ? 0.5 : 0.0, FALSE);
    fx_check_frame (fx, LAYOUT_DEFAULT, presets[i]);
    fail_unless_equals_string (get_enum_nick (fx->base.el, "preset"),
        presets[i]);
  }
}

/* scale, bias and absolute with sobel-x (clamping both ways). */
FX_TEST (test_scale_bias_absolute, 800)
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

  fx_set_caps (fx, fmts[__i__], 39, 23);
  fx_set_preset (fx, "sobel-x");
  scale_spec = g_object_class_find_property (G_OBJECT_GET_CLASS (fx->base.el),
      "scale");
  for (i = 0; i < G_N_ELEMENTS (gains); i++) {
    gchar *what;

    if (gains[i].scale < G_PARAM_SPEC_DOUBLE (scale_spec)->minimum)
      continue;
    what = g_strdup_printf ("gain case %u", i);

    fx_set_algorithm (fx, algorithms[(i + __i__) % N_ALGORITHMS]);
    fx_set_gain (fx, gains[i].scale, gains[i].bias, gains[i].absolute);
    fx_check_frame (fx, LAYOUT_DEFAULT, what);
    g_free (what);
  }
}

/* Only one of kernel-x / kernel-y: the other axis is the identity. */
FX_TEST (test_separable_one_axis, 900)
{
  gdouble t[7];

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 45, 29);
  random_taps (fx->base.rand, t, 5);
  fx_set_separable (fx, t, NULL, 5);
  fx_check_frame (fx, LAYOUT_DEFAULT, "kernel-x only");
  random_taps (fx->base.rand, t, 7);
  fx_set_algorithm (fx, "two-pass");
  fx_set_separable (fx, NULL, t, 7);
  fx_check_frame (fx, LAYOUT_DEFAULT, "kernel-y only");
}

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


/* Identical inputs give identical outputs. */
FX_TEST (test_deterministic, 1400)
{
  fx_set_caps (fx, GST_VIDEO_FORMAT_NV12, 99, 51);
  fx_set_algorithm (fx, algorithms[__i__]);
  fx_random_kernel (fx, KERNEL_2D, 7);
  harness_fx_check_deterministic (&fx->base);
}

/* The default element changes a random frame, and the identity kernel does
 * not: the filter is really applied, and the plumbing around it is exact. */
FX_TEST (test_filter_changes_frame, 1500)
{
  gdouble id[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
  Mismatch mm;

  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 64, 48);

  fail_unless (harness_fx_push_changes (&fx->base, 1, FALSE, &mm) >
      64 * 48 * 4 / 2, "gaussian3 left a random frame nearly unchanged (%u "
      "values differ)", mm.count);

  fx_set_kernel (fx, id, 9);
  fail_unless (harness_fx_push_changes (&fx->base, 0, FALSE, &mm) == 0,
      "the identity kernel changed %u values", mm.count);
}

/* ------------------------------------------------------------------------ */

const SuiteEntry tiledconv_filter_tests[] = {
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
  SUITE_END
};
