/* vktile tests — recursivefilter against the CPU reference (reference_iir.c).
 *
 * Owns the GstCheck/GstHarness tests of the recursivefilter element (the
 * reference's own tests are test_references.c's; the temporal filter's
 * are test_recursivefilter_temporal.c's):
 *
 * - the element against the reference on random frames (tolerance 1 code
 *   value): every filter, direction, axes,
 *   algorithm, tile size (small ones so that frames span many tiles), border
 *   (clamp, constant), format, frame size, ROI, plane mask, input layout;
 * - properties (names, ranges, defaults, refused values, changes while
 *   streaming), the timing meta, a VulkanBuffer chain of two elements.
 *
 * Lavapipe compiles every pipeline variant slowly, so a test keeps one
 * harness and changes properties between frames, and the matrix covers
 * every axis of variation without the full cross product.
 *
 * Output buffers are poisoned (0xA5) after they have been checked, before
 * they go back to the element's pool, so that a value the element fails to
 * write in a later frame shows up as a mismatch instead of a stale right
 * answer.
 *
 * Random data comes from VKTILE_SEED (or the time); every failure message
 * carries the seed, so `VKTILE_SEED=<n> GST_CHECKS=<test>
 * ./test_recursivefilter` reproduces it. VKTILE_TRACE=1 prints each
 * frame's settings before it is pushed and the time the element and the
 * reference took (a crash inside the Vulkan driver leaves no other trace).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/gstvktiletimingmeta.h"
#include "reference.h"
#include "recursivefilter_fx.h"



/* the formats that get every filter/direction/axes/algorithm */
static const GstVideoFormat matrix_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12,
};

/* The formats of test_y_row_end_16bit (16-bit lanes), one a run. */
static const GstVideoFormat row_end_formats[] = { GST_VIDEO_FORMAT_GRAY16_LE,
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y444_16LE
};

/* The frame sizes the tests cover. */
static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {5, 7}, {33, 17}, {127, 65}, {257, 130},
};

/* 0: automatic; 16 and 32 cut the small frames into many tiles; 4096: one
 * tile per line. */
static const guint tile_sizes[] = { 0, 16, 32, 4096 };


/* ------------------------------------------------------------------------ */
/* properties */

/* Names, types, defaults and ranges of the element's interface. */
GST_START_TEST (test_property_specs)
{
  static const gchar *filters[] = { "gaussian", "exponential", "box",
    "custom", NULL
  };
  static const gchar *directions[] = { "causal", "anticausal", "both", NULL };
  static const gchar *axes[] = { "x", "y", "xy", "none", NULL };
  static const gchar *algos[] = { "tiled", "scanline", NULL };
  static const gchar *borders[] = { "clamp", "constant", NULL };
  static const gchar *temporal_modes[] = { "fixed", "motion-adaptive", NULL };
  static const gchar *own[] = { "filter", "sigma", "alpha", "radius",
    "iterations", "feedforward", "feedback", "direction", "axes",
    "algorithm", "tile-size", "temporal-alpha", "temporal-mode",
    "noise-sigma", "noise-estimate", "keep-detail", NULL
  };
  static const gchar *animated[] = { "sigma", "temporal-alpha", NULL };
  GstElement *el = harness_new_element (ELEMENT);
  GObjectClass *klass = G_OBJECT_GET_CLASS (el);
  GParamSpec *pspec;
  gdouble fb[8], d;
  guint n;

  check_enum_nicks (klass, "filter", filters, "gaussian");
  check_enum_nicks (klass, "direction", directions, "both");
  check_enum_nicks (klass, "axes", axes, "xy");
  check_enum_nicks (klass, "algorithm", algos, "tiled");
  check_enum_nicks (klass, "border", borders, "clamp");
  check_enum_nicks (klass, "temporal-mode", temporal_modes, "fixed");

  check_double_spec (klass, "sigma", 0.5, 2048.0, 2.0);
  check_double_spec (klass, "alpha", -1.0, 0.999, -1.0);
  check_double_spec (klass, "temporal-alpha", 0.0, 0.999, 0.0);
  check_double_spec (klass, "noise-sigma", 0.0, 255.0, 0.0);
  pspec = g_object_class_find_property (klass, "keep-detail");
  fail_unless (pspec && G_IS_PARAM_SPEC_BOOLEAN (pspec)
      && G_PARAM_SPEC_BOOLEAN (pspec)->default_value, "keep-detail is not a "
      "boolean that defaults to true");
  check_double_spec (klass, "border-value", 0.0, 1.0, 0.0);
  check_uint_spec (klass, "radius", 0, 2048, 2);
  check_uint_spec (klass, "iterations", 1, 3, 1);
  check_uint_spec (klass, "tile-size", 0, 16384, 0);

  pspec = g_object_class_find_property (klass, "feedforward");
  fail_unless (pspec && G_IS_PARAM_SPEC_DOUBLE (pspec), "no double "
      "feedforward");
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->default_value == 0.5);
  g_object_get (el, "feedforward", &d, NULL);
  fail_unless (d == 0.5, "feedforward is %g", d);

  pspec = g_object_class_find_property (klass, "feedback");
  fail_unless (pspec != NULL, "no property feedback");
  fail_unless (G_PARAM_SPEC_VALUE_TYPE (pspec) == GST_TYPE_ARRAY,
      "feedback is not a GstValueArray");
  n = get_double_array (el, "feedback", fb, G_N_ELEMENTS (fb));
  fail_unless (n == 1 && fb[0] == 0.5, "feedback defaults to %u numbers "
      "(first %g), want <0.5>", n, n ? fb[0] : 0.0);
  pspec = g_object_class_find_property (klass, "noise-estimate");
  fail_unless (pspec && G_PARAM_SPEC_VALUE_TYPE (pspec) == GST_TYPE_ARRAY
      && (pspec->flags & G_PARAM_READABLE)
      && !(pspec->flags & G_PARAM_WRITABLE),
      "noise-estimate is not a read-only GstValueArray");
  n = get_double_array (el, "noise-estimate", fb, G_N_ELEMENTS (fb));
  fail_unless (n == 0, "noise-estimate has %u values before any frame", n);

  /* what makes sense to animate is controllable */
  check_element_interface (el, own, animated);
}

GST_END_TEST;

/* Out-of-range numbers are refused by the GParamSpec (GLib warns) and the
 * property keeps its value. */
GST_START_TEST (test_property_out_of_range)
{
  GstElement *el = harness_new_element (ELEMENT);

  g_object_set (el, "sigma", 3.5, "alpha", 0.25, "temporal-alpha", 0.5,
      "radius", 7u, "iterations", 2u, "tile-size", 64u, NULL);
  check_refused_numbers (el, "sigma", (const gdouble[]) {
      0.4, 2049.0}, 2);
  check_refused_numbers (el, "alpha", (const gdouble[]) {
      1.0, -1.5}, 2);
  check_refused_numbers (el, "temporal-alpha", (const gdouble[]) {
      1.0, -0.1}, 2);
  check_refused_numbers (el, "radius", (const gdouble[]) {
      2049}, 1);
  check_refused_numbers (el, "iterations", (const gdouble[]) {
      0, 4}, 2);
  check_refused_numbers (el, "tile-size", (const gdouble[]) {
      16385}, 1);
  gst_object_unref (el);
}

GST_END_TEST;

/* A g_warning that names the property, caught through GstCheck's log
 * filter (domain NULL: the plugin defines no G_LOG_DOMAIN), or a
 * GST_MESSAGE_WARNING naming it on the element's bus: either counts. */

typedef void (*SetFunc) (GstElement * el, gconstpointer data);

static void
expect_refused (GstElement * el, GstBus * bus, const gchar * prop,
    SetFunc set, gconstpointer data, const gchar * what)
{
  gchar *pattern = g_regex_escape_string (prop, -1);
  GRegex *re = g_regex_new (pattern, 0, 0, NULL);
  GstCheckLogFilter *filter;
  guint named = 0;

  filter = gst_check_add_log_filter (NULL, G_LOG_LEVEL_WARNING |
      G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_MESSAGE, re, count_caught_log,
      &named, NULL);
  _gst_check_raised_warning = FALSE;
  _gst_check_expecting_log = TRUE;
  set (el, data);
  _gst_check_expecting_log = FALSE;
  gst_check_remove_log_filter (filter);
  named += bus_warnings_naming (bus, prop);
  fail_unless (named > 0, "%s was refused%s without a warning naming "
      "'%s'", what, _gst_check_raised_warning ? " with a warning but" : "",
      prop);
  g_free (pattern);
}

typedef struct
{
  const gdouble *v;
  guint n;
} DoubleArray;

static void
set_feedback (GstElement * el, gconstpointer data)
{
  const DoubleArray *a = data;

  set_double_array (el, "feedback", a->v, a->n);
}

/* recursivefilter supports only clamp and constant borders, and its border
 * property lists only those: mirror, reflect and wrap are not among its
 * values, a pipeline that asks for one does not parse, and setting one
 * leaves the border as it was. */
FX_TEST (test_refused_border, 2300)
{
  static const gchar *bad[] = { "mirror", "reflect", "wrap" };
  GParamSpec *pspec;
  GEnumClass *values;
  guint i;

  pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (fx->base.el), "border");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec));
  values = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  fail_unless_equals_int (values->n_values, 2);
  fail_unless (g_enum_get_value_by_nick (values, "clamp")
      && g_enum_get_value_by_nick (values, "constant"));
  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 29, 17);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "recursivefilter border=%s ! fakesink", bad[i]);
    GError *error = NULL;
    GstElement *pipe = gst_parse_launch (desc, &error);

    fail_if (g_enum_get_value_by_nick (values, bad[i]), "%s listed", bad[i]);
    fail_unless (error != NULL, "%s: parsed", desc);
    g_clear_error (&error);
    gst_clear_object (&pipe);
    g_free (desc);
    gst_util_set_object_arg (G_OBJECT (fx->base.el), "border", bad[i]);
    fail_unless_equals_string (get_enum_nick (fx->base.el, "border"), "clamp");
  }
  fx_check (fx, "clamp after refused borders");
  fx_set_border (fx, REF_BORDER_CONSTANT, 0.8);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gst_util_set_object_arg (G_OBJECT (fx->base.el), "border", bad[i]);
    fail_unless_equals_string (get_enum_nick (fx->base.el, "border"),
        "constant");
  }
  fx_check (fx, "constant after refused borders");
}

/* feedback: 1 to 4 numbers, a stable recursion (every root of
 * z^k - a1 z^(k-1) - ... - ak inside the unit circle). Others are refused
 * with a warning naming the property; the old value stays, in the property
 * and in the output. Stable values are accepted as given. */
FX_TEST (test_refused_feedback, 2400)
{
  static const gdouble five[5] = { 0.1, 0.1, 0.1, 0.1, 0.1 };
  static const gdouble one[1] = { 1.0 };        /* root 1 */
  static const gdouble big[1] = { 1.2 };
  static const gdouble minus_one[1] = { -1.0 };
  static const gdouble pm1[2] = { 0.0, 1.0 };   /* roots +-1 */
  static const gdouble unit_pair[2] = { 1.0, -1.0 };    /* |roots| = 1 */
  static const gdouble outside[2] = { 0.5, 0.6 };       /* root 1.064 */
  static const gdouble fourth[4] = { 0.0, 0.0, 0.0, 1.0 };      /* 4th roots of 1 */
  static const gdouble fourth_out[4] = { 0.0, 0.0, 0.0, 1.01 };
  static const gdouble double_pole[2] = { 1.9, -0.9025 };       /* 0.95 twice: stable */
  const DoubleArray bad[] = {
    {five, 0}, {five, 5}, {one, 1}, {big, 1}, {minus_one, 1}, {pm1, 2},
    {unit_pair, 2}, {outside, 2}, {fourth, 4}, {fourth_out, 4},
    {NULL, 3},                  /* filled below: poles 0.5, 0.5, 1.05 */
  };
  gdouble third[3], got[8], keep[4], b0;
  double complex poles[3] = { 0.5, 0.5, 1.05 };
  GstBus *bus = gst_bus_new ();
  DoubleArray arr;
  guint i, k, n;

  gst_element_set_bus (fx->base.el, bus);
  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 37, 21);
  ref_iir_feedback_from_poles (poles, 3, third);

  /* stable ones of every order are accepted and read back */
  for (k = 1; k <= 4; k++) {
    ref_iir_random_custom (fx->base.rand, k, &b0, keep);
    set_double_array (fx->base.el, "feedback", keep, k);
    n = get_double_array (fx->base.el, "feedback", got, G_N_ELEMENTS (got));
    fail_unless_equals_int (n, k);
    for (i = 0; i < k; i++)
      fail_unless (got[i] == keep[i], "feedback[%u] reads %g, set %g", i,
          got[i], keep[i]);
  }
  set_double_array (fx->base.el, "feedback", double_pole, 2);
  n = get_double_array (fx->base.el, "feedback", got, G_N_ELEMENTS (got));
  fail_unless (n == 2 && got[0] == 1.9 && got[1] == -0.9025, "a double pole "
      "at 0.95 was refused");

  fx_random_custom (fx, 3, REF_IIR_BOTH);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *what = g_strdup_printf ("unstable or malformed feedback #%u", i);

    arr = bad[i];
    if (!arr.v)
      arr.v = third;
    expect_refused (fx->base.el, bus, "feedback", set_feedback,
        &arr, what);
    n = get_double_array (fx->base.el, "feedback", got, G_N_ELEMENTS (got));
    fail_unless_equals_int (n, 3);
    for (k = 0; k < 3; k++)
      fail_unless (got[k] == fx->ref.feedback[k], "%s: feedback[%u] changed "
          "to %g", what, k, got[k]);
    g_free (what);
  }
  fx_check (fx, "custom filter after refused feedback");
  gst_element_set_bus (fx->base.el, NULL);
  gst_object_unref (bus);
}

/* ------------------------------------------------------------------------ */
/* the element against the reference */

/* Every format with a handful of settings that together use every filter,
 * direction, algorithm, both borders, tile sizes 0/16/32 and the x/y/xy
 * axes, on a frame of many 16-pixel tiles, then one on 257x130. The
 * formats of a group (format_groups) go through one harness, each from the
 * element's defaults. */
FX_GROUP_TEST (test_formats, 100)
{
  fx_defaults (fx);
  fx_set_caps (fx, fmt, 127, 65);
  fx_check (fx, "defaults (gaussian sigma 2, tiled, automatic tiles)");

  fx_set_algorithm (fx, "tiled", 16);
  fx_gaussian (fx, 8.0);
  fx_set_border_rand (fx, TRUE);
  fx_check (fx, "gaussian sigma 8, constant, tiles of 16");

  fx_set_algorithm (fx, "scanline", 0);
  fx_exponential (fx, 0.8, 2.0, REF_IIR_BOTH);
  fx_check (fx, "exponential both, scanline");

  fx_set_algorithm (fx, "tiled", 32);
  fx_exponential (fx, -1.0, 3.0, REF_IIR_CAUSAL);
  fx_set_border_rand (fx, FALSE);
  fx_set_axes (fx, REF_IIR_AXES_Y);
  fx_check (fx, "exponential from sigma, causal, axes y, tiles of 32");

  fx_set_axes (fx, REF_IIR_AXES_XY);
  fx_set_algorithm (fx, "tiled", 16);
  fx_box (fx, 5, 3);
  fx_check (fx, "box r 5 x3");

  fx_set_algorithm (fx, "scanline", 0);
  fx_box (fx, 1, 1);
  fx_set_border_rand (fx, TRUE);
  fx_set_axes (fx, REF_IIR_AXES_X);
  fx_check (fx, "box r 1, constant, axes x, scanline");

  fx_set_axes (fx, REF_IIR_AXES_XY);
  fx_set_algorithm (fx, "tiled", 16);
  fx_random_custom (fx, 3, REF_IIR_BOTH);
  fx_check (fx, "custom order 3 both, constant");

  fx_set_algorithm (fx, "scanline", 0);
  fx_random_custom (fx, 4, REF_IIR_ANTICAUSAL);
  fx_set_border_rand (fx, FALSE);
  fx_check (fx, "custom order 4 anticausal, scanline");

  fx_set_algorithm (fx, "tiled", 0);
  fx_random_custom (fx, 2, REF_IIR_CAUSAL);
  fx_set_border_rand (fx, TRUE);
  fx_set_axes (fx, REF_IIR_AXES_Y);
  fx_check (fx, "custom order 2 causal, axes y");

  fx_set_caps (fx, fmt, 257, 130);
  fx_set_axes (fx, REF_IIR_AXES_XY);
  fx_set_algorithm (fx, "tiled", fi % 2 ? 32 : 0);
  fx_random_custom (fx, 4, REF_IIR_BOTH);
  fx_set_border_rand (fx, TRUE);
  fx_check (fx, "257x130 custom order 4 both");
  /* every one of these changes a random frame: a copy cannot pass (the
   * count is the group's so far) */
  fail_unless_equals_int (fx->base.n_changed, fx->base.n_frames);
}

/* On GRAY8, RGBA and NV12: every direction x axes x algorithm for the
 * exponential; custom of order 1-4 x every direction; the Gaussian at
 * sigma 0.5, 2, 8, 32 x both algorithms; the box at r 0, 1, 5, 20 x 1-3
 * iterations. Tile sizes, borders and axes rotate. */
FX_TEST (test_matrix, 200)
{
  static const gdouble sigmas[] = { 0.5, 2.0, 8.0, 32.0 };
  static const guint radii[] = { 0, 1, 5, 20 };
  static const RefIirAxes some_axes[] = { REF_IIR_AXES_XY, REF_IIR_AXES_X,
    REF_IIR_AXES_Y
  };
  GstVideoFormat fmt = matrix_formats[__i__];
  guint d, ax, alg, k, s, it, idx = 0, identities = 0;

  fx_set_caps (fx, fmt, 127, 65);
  /* NV12's Y plane is GRAY8 of the same size, which test_matrix:0 runs
   * through the same settings: here only the interleaved U and V (the one
   * plane of 2 components) are filtered, which halves the pipelines this
   * test creates. Both planes of NV12 together: test_formats, test_sizes,
   * test_roi and the others. */
  if (fmt == GST_VIDEO_FORMAT_NV12)
    fx_set_planes (fx, 0x6);

  for (d = 0; d < REF_IIR_N_DIRECTIONS; d++) {
    for (ax = 0; ax < REF_IIR_N_AXES; ax++) {
      for (alg = 0; alg < 2; alg++, idx++) {
        fx_set_algorithm (fx, alg ? "scanline" : "tiled",
            tile_sizes[idx % G_N_ELEMENTS (tile_sizes)]);
        fx_exponential (fx, g_rand_double_range (fx->base.rand, 0.3, 0.95), 2.0,
            d);
        fx_set_axes (fx, ax);
        fx_set_border_rand (fx, idx % 2);
        identities += ax == REF_IIR_AXES_NONE;
        fx_check (fx, "exponential %s axes %s", ref_iir_direction_nick (d),
            ref_iir_axes_nick (ax));
      }
    }
  }

  for (k = 1; k <= REF_IIR_MAX_ORDER; k++) {
    for (d = 0; d < REF_IIR_N_DIRECTIONS; d++, idx++) {
      fx_set_algorithm (fx, (k + d) % 2 ? "scanline" : "tiled",
          tile_sizes[idx % G_N_ELEMENTS (tile_sizes)]);
      fx_random_custom (fx, k, d);
      fx_set_axes (fx, some_axes[(k + d) % 3]);
      fx_set_border_rand (fx, idx % 2);
      fx_check (fx, "custom order %u %s", k, ref_iir_direction_nick (d));
    }
  }

  fx_set_axes (fx, REF_IIR_AXES_XY);
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (alg = 0; alg < 2; alg++, idx++) {
      fx_set_algorithm (fx, alg ? "scanline" : "tiled",
          tile_sizes[idx % G_N_ELEMENTS (tile_sizes)]);
      fx_gaussian (fx, sigmas[s]);
      fx_set_border_rand (fx, idx % 2);
      fx_check (fx, "gaussian sigma %g", sigmas[s]);
    }
  }

  for (s = 0; s < G_N_ELEMENTS (radii); s++) {
    for (it = 1; it <= 3; it++, idx++) {
      fx_set_algorithm (fx, idx % 2 ? "scanline" : "tiled",
          tile_sizes[(idx / 2) % G_N_ELEMENTS (tile_sizes)]);
      fx_box (fx, radii[s], it);
      fx_set_axes (fx, some_axes[idx % 3]);
      fx_set_border_rand (fx, (idx / 2) % 2);
      identities += radii[s] == 0;
      fx_check (fx, "box r %u x%u", radii[s], it);
    }
  }

  fail_unless_equals_int (fx->base.n_changed, fx->base.n_frames - identities);
}

/* The frame sizes of `sizes` (1x1 and 2x3 smaller than any tile and than
 * most supports) x both algorithms, through caps changes of one harness;
 * filter, tile size, border and axes rotate. The formats of a group
 * (format_groups) get the same rotation, so that they share pipelines;
 * the groups' rotations start at different places. */
FX_GROUP_TEST (test_sizes, 300)
{
  guint s, alg;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    fx_set_caps (fx, fmt, sizes[s][0], sizes[s][1]);
    for (alg = 0; alg < 2; alg++) {
      guint k = 2 * s + alg + lead;

      fx_set_algorithm (fx, alg ? "scanline" : "tiled",
          tile_sizes[(s + lead) % G_N_ELEMENTS (tile_sizes)]);
      fx_rotating_filter (fx, k);
      fx_set_border_rand (fx, k % 2);
      fx_set_axes (fx, k % 5 == 4 ? REF_IIR_AXES_Y : k % 5 == 3 ?
          REF_IIR_AXES_X : REF_IIR_AXES_XY);
      fx_check (fx, "size %dx%d", sizes[s][0], sizes[s][1]);
    }
  }
}

/* Tile sizes from 1 (rounded up) to 16384, on frames that are many tiles
 * long and not a multiple of any of them (127x65: all of them; 257x130:
 * every other one); the filters with the longest tails (cross-tile
 * carries). */
FX_TEST (test_tile_sizes, 400)
{
  static const guint tiles[] = { 0, 1, 16, 17, 32, 100, 4096, 16384 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8;
  guint t, s;

  for (s = 0; s < 2; s++) {
    fx_set_caps (fx, fmt, s ? 257 : 127, s ? 130 : 65);
    for (t = s; t < G_N_ELEMENTS (tiles); t += 1 + s) {
      guint k = t + s;

      fx_set_algorithm (fx, "tiled", tiles[t]);
      switch (k % 4) {
        case 0:
          fx_gaussian (fx, 8.0);
          break;
        case 1:
          fx_random_custom (fx, 4, REF_IIR_BOTH);
          break;
        case 2:
          fx_box (fx, 20, 3);
          break;
        default:
          fx_exponential (fx, 0.95, 2.0, REF_IIR_ANTICAUSAL);
          break;
      }
      fx_set_border_rand (fx, k % 2);
      fx_check (fx, "tile-size %u", tiles[t]);
    }
  }
}

/* Along y the scans write a row's lanes four at a time. With 16-bit lanes
 * (two words a group) and an odd number of lanes in a row, the last
 * group's second word lies past the row's end, where the next row begins:
 * nothing may be written there. (It was written with the input, racing
 * the next row's first word, which then often stayed unfiltered.) */
FX_TEST (test_y_row_end_16bit, 440)
{
  guint a;

  fx_set_caps (fx, row_end_formats[__i__], 257, 67);
  fx_set_axes (fx, REF_IIR_AXES_Y);
  for (a = 0; a < 3; a++) {
    fx_set_algorithm (fx, a == 1 ? "scanline" : "tiled", 0);
    if (a == 2)
      fx_box (fx, 3, 2);
    else
      fx_gaussian (fx, 3.0);
    fx_check (fx, "axes=y, %s", a == 2 ? "box" : a ? "scanline" : "tiled");
  }
}

/* Lines of more chunks than one work-group of the tails pass completes at
 * once (tile-size 1: chunks of 16, 4133 positions: 259 of them), along x
 * and along y; the longest tails. */
FX_TEST (test_many_chunks, 420)
{
  fx_set_caps (fx, __i__ ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8,
      __i__ ? 3 : 4133, __i__ ? 4133 : 3);
  fx_set_algorithm (fx, "tiled", 1);
  fx_random_custom (fx, 4, REF_IIR_BOTH);
  fx_set_border_rand (fx, __i__);
  fx_check (fx, "custom, both directions");
  fx_exponential (fx, 0.95, 2.0, REF_IIR_ANTICAUSAL);
  fx_check (fx, "exponential, anticausal");
  fx_gaussian (fx, 30.0);
  fx_check (fx, "gaussian sigma 30");
}

/* Along x, a subgroup whose blocks fill whole vectors of the output rows
 * stores them as runs contiguous across the subgroup (through shuffles); a
 * subgroup with a partial block takes the plain writer. Widths of 8, 8 and
 * a quarter, 9 and 33 blocks of 16 positions (a whole subgroup of 8 on
 * lavapipe, of 32 on NVIDIA, and one more) in the formats whose blocks fill
 * 2 or 4 vectors per row, along x and xy, with temporal smoothing on the
 * second frame. */
FX_TEST (test_x_rows_coalesced, 440)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
  } cases[] = {
    {GST_VIDEO_FORMAT_RGBA, 128, 5}, {GST_VIDEO_FORMAT_RGBA, 132, 3},
    {GST_VIDEO_FORMAT_RGBA, 144, 7}, {GST_VIDEO_FORMAT_RGBA, 528, 3},
    {GST_VIDEO_FORMAT_NV12, 288, 6}, {GST_VIDEO_FORMAT_NV12, 256, 4},
    {GST_VIDEO_FORMAT_GRAY16_LE, 144, 9}, {GST_VIDEO_FORMAT_GRAY16_LE, 136, 6},
  };
  guint c;

  for (c = __i__; c < G_N_ELEMENTS (cases); c += 2) {
    fx_set_temporal (fx, 0.0);
    fx_set_caps (fx, cases[c].fmt, cases[c].w, cases[c].h);
    fx_set_axes (fx, c % 4 < 2 ? REF_IIR_AXES_X : REF_IIR_AXES_XY);
    if (c % 3 == 0)
      fx_exponential (fx, 0.8, 2.0, REF_IIR_ANTICAUSAL);
    else
      fx_gaussian (fx, 3.0);
    fx_check (fx, "%s %dx%d", gst_video_format_to_string (cases[c].fmt),
        cases[c].w, cases[c].h);
    fx_set_temporal (fx, 0.5);
    fx_check (fx, "%s %dx%d, temporal smoothing",
        gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h);
    fx_check (fx, "%s %dx%d, temporal smoothing, second frame",
        gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h);
  }
}

/* Supports far larger than the frame: sigma 128 and 512 on tiny frames,
 * boxes wider than the frame (radius 2048 three times on 64x48), alpha
 * 0.999, sigma 32 on 257x130; in 8 and 16 bits, both algorithms. */
FX_TEST (test_large_support, 500)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA
  };
  guint c, alg;

  for (c = 0; c < 9; c++) {
    static const gint dims[9][2] = { {33, 17}, {5, 7}, {2, 3}, {33, 17},
    {5, 7}, {127, 65}, {257, 130}, {1, 1}, {64, 48}
    };
    fx_set_caps (fx, fmts[__i__], dims[c][0], dims[c][1]);
    for (alg = 0; alg < 2; alg++) {
      fx_set_algorithm (fx, alg ? "scanline" : "tiled", c == 6 ? 16 : 0);
      fx_set_border_rand (fx, (c + alg) % 2);
      switch (c) {
        case 0:
        case 1:
          fx_gaussian (fx, 128.0);
          break;
        case 2:
          fx_gaussian (fx, 512.0);
          break;
        case 3:
          fx_box (fx, 300, 3);
          break;
        case 4:
          fx_box (fx, 2048, 1);
          break;
        case 5:
          fx_exponential (fx, 0.999, 2.0, REF_IIR_BOTH);
          break;
        case 6:
          fx_gaussian (fx, 32.0);
          break;
        case 8:
          /* Its scratch grows with radius times the frame's side, not
           * with the radius squared (once 3.2 GB for this frame). */
          fx_box (fx, 2048, 3);
          break;
        default:
          fx_random_custom (fx, 4, REF_IIR_BOTH);
          break;
      }
      fx_check (fx, "large support case %u", c);
    }
  }
}

/* Target and source ROIs: inside, moved, odd offsets (chroma and the 4
 * GRAY8 pixels of a word split), clipped, 1 pixel wide/high/both, to the
 * edge, outside (a copy); with the spatial filter off (axes none) a moved
 * ROI is a move. */
FX_TEST (test_roi, 600)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_NV12
  };
  guint r;

  fx_set_caps (fx, fmts[__i__], ROI_SMALL_W, ROI_SMALL_H);
  for (r = 0; r < n_roi_small_recursivefilter; r++) {
    guint k = r + __i__;

    fx_set_roi_case (fx, roi_small_cases[roi_small_recursivefilter[r]]);
    fx_set_algorithm (fx, k % 2 ? "scanline" : "tiled", k % 4 ? 16 : 0);
    fx_rotating_filter (fx, k);
    fx_set_border_rand (fx, (k / 2) % 2);
    fx_set_axes (fx, r == 2 ? REF_IIR_AXES_NONE : REF_IIR_AXES_XY);
    fx_check (fx, "roi #%u", r);
  }
}

/* ROIs on a frame of many tiles, whose edges cut through tiles. */
/* roi-meta: the regions of the listed types filtered (the border rule at
 * their edges: the infinite extension of each region), everything else
 * the input, the tiled and the scanline algorithm; with temporal-alpha
 * set, regions are not smoothed across frames (they move), and the frame
 * after roi-meta is switched off starts the recursion afresh. */
FX_TEST (test_roi_meta, 1900)
{
  static const gchar *const listed[] = { "face", "license-plate", NULL };
  guint t;

  fx_set_caps (fx, matrix_formats[__i__], ROI_META_W, ROI_META_H);
  fx_gaussian (fx, 3.0);
  fx_set_border_rand (fx, __i__ == 1);
  g_object_set (fx->base.el, "roi-meta", "face,license-plate", "roi-padding", 2,
      "temporal-alpha", 0.8, NULL);
  for (t = 0; t < 2; t++) {
    fx_set_algorithm (fx, t ? "scanline" : "tiled", 0);
    harness_fx_check_roi_meta (&fx->base, n_roi_meta_regions, listed, 2,
        t ? "roi-meta, scanline" : "roi-meta, tiled");
  }
  g_object_set (fx->base.el, "roi-meta", "", NULL);
  fx_set_temporal (fx, 0.8);
  ref_iir_temporal_reset (&fx->temporal);
  fx_check (fx, "roi-meta off, temporal: first frame");
  fx_check (fx, "roi-meta off, temporal: second frame");
}

FX_TEST (test_roi_large, 650)
{
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_GRAY8;
  guint r;

  fx_set_caps (fx, fmt, ROI_LARGE_W, ROI_LARGE_H);
  for (r = 0; r < n_roi_large_cases; r++) {
    fx_set_roi_case (fx, roi_large_cases[r]);
    fx_set_algorithm (fx, r == 3 ? "scanline" : "tiled", r % 2 ? 32 : 16);
    fx_rotating_filter (fx, r + 2 * __i__ + 1);
    fx_set_border_rand (fx, r % 2);
    fx_check (fx, "large frame, roi #%u", r);
  }
}

/* `planes` selects components; the others (and RGBx's x) are copied. */
FX_TEST (test_planes, 700)
{
  guint i;

  for (i = 0; i < n_planes_cases; i++) {
    fx_set_caps (fx, planes_cases[i].fmt, 35, 19);
    fx_set_planes (fx, planes_cases[i].planes);
    fx_set_algorithm (fx, i % 2 ? "scanline" : "tiled", 16);
    fx_rotating_filter (fx, i + 1);
    fx_check (fx, "planes case %u", i);
  }
}

/* Input buffers whose GstVideoMeta gives padded strides and moved planes
 * (4-aligned, then odd), buffers from the pool the element proposes, and
 * plain ones again: system memory in and out. The formats of a group
 * (format_groups) go through one harness with the same filters. */
FX_GROUP_TEST (test_padded_input, 800)
{
  static const Layout layouts[] = { LAYOUT_PADDED, LAYOUT_ODD,
    LAYOUT_PROPOSED_POOL, LAYOUT_DEFAULT
  };
  static const gchar *names[] = { "padded strides (4-aligned)",
    "padded strides (odd)", "the proposed pool", "default strides"
  };
  guint l;

  fx_set_caps (fx, fmt, 33, 17);
  for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
    fx_set_algorithm (fx, l % 2 ? "scanline" : "tiled", l ? 16 : 0);
    fx_rotating_filter (fx, l + lead);
    fx_set_border_rand (fx, (l + lead) % 2);
    fx_check_frame (fx, layouts[l], names[l]);
  }
  /* fx_set_caps drops the pool: look at each format's */
  if (fx->base.pool)
    check_pool_holds_vulkan (fx->base.pool, &fx->base.info);
}

/* ------------------------------------------------------------------------ */
/* more of the element */

/* The recursive Gaussian of the element against the true sampled Gaussian
 * on smooth frames: within the bound the vV design itself has (measured
 * by test_references' test_ref_gaussian_vs_true,
 * ref_iir_gaussian_true_bound()) plus 1 code value. */
FX_TEST (test_gaussian_vs_true, 1000)
{
  static const gdouble sigmas[] = { 1.0, 2.0, 8.0 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8;
  guint s, b;

  fx_set_caps (fx, fmt, __i__ ? 64 : 127, __i__ ? 40 : 65);
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (b = 0; b < 2; b++) {
      GstBuffer *in = make_frame (&fx->base.info, fx->base.rand, LAYOUT_DEFAULT,
          CONTENT_NOISE);
      GstVideoFrame fin, fout;
      GstBuffer *out;
      gdouble bound = ref_iir_gaussian_true_bound (sigmas[s]);
      gdouble worst = 0, worst_vv = 0;
      guint c;

      fx_set_algorithm (fx, (s + b) % 2 ? "scanline" : "tiled", 16);
      fx_gaussian (fx, sigmas[s]);
      fx_set_border_rand (fx, b);
      fail_unless (gst_video_frame_map (&fin, &fx->base.info, in,
              GST_MAP_WRITE));
      for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fin); c++)
        fill_smooth (&fin, fx->base.rand, c, 12.0, 0.01);
      gst_video_frame_unmap (&fin);

      out = fx_push (fx, gst_buffer_ref (in));
      verify_output (fx, in, out, "gaussian vs vV reference");
      fail_unless (gst_video_frame_map (&fin, &fx->base.info, in,
              GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fout, &fx->base.info, out,
              GST_MAP_READ));
      for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fin); c++) {
        gint w = GST_VIDEO_FRAME_COMP_WIDTH (&fin, c);
        gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&fin, c);
        gdouble *src = g_new (gdouble, w * h), *tg = g_new (gdouble, w * h);
        gdouble *vv = g_new (gdouble, w * h);
        gint x, y;

        for (y = 0; y < h; y++)
          for (x = 0; x < w; x++)
            src[y * w + x] = ref_comp_get (&fin, c, x, y);
        ref_true_gaussian_image (sigmas[s], src, w, h, b,
            fx->ref.common.border_value * 255.0, tg);
        ref_iir_image (&fx->ref, src, w, h, b,
            fx->ref.common.border_value * 255.0, vv);
        for (y = 0; y < h; y++) {
          for (x = 0; x < w; x++) {
            worst = MAX (worst, fabs (ref_comp_get (&fout, c, x, y) -
                    tg[y * w + x]));
            worst_vv = MAX (worst_vv, fabs (vv[y * w + x] - tg[y * w + x]));
          }
        }
        g_free (src);
        g_free (tg);
        g_free (vv);
      }
      fail_unless (worst_vv <= bound, "VKTILE_SEED=%u sigma %g: the vV "
          "reference itself is %g from the true Gaussian (bound %g)",
          base_seed, sigmas[s], worst_vv, bound);
      fail_unless (worst <= bound + 1.0, "VKTILE_SEED=%u sigma %g %s: the "
          "element is %g code values from the true Gaussian, beyond %g + 1",
          base_seed, sigmas[s], b ? "constant" : "clamp", worst, bound);
      gst_video_frame_unmap (&fout);
      gst_video_frame_unmap (&fin);
      poison_buffer (out);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
  }
}

/* Identity settings are exact copies (box r 0, axes none, custom b0 = 1
 * with feedback <0>), and the defaults change a random frame: the filter is
 * really applied, and the plumbing around it is exact. */
FX_TEST (test_identity_and_change, 1100)
{
  static const gdouble zero[1] = { 0.0 };
  Mismatch mm;
  guint i;

  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 64, 48);

  fail_unless (harness_fx_push_changes (&fx->base, 1, FALSE, &mm) >
      64 * 48 * 4 / 2, "the default Gaussian left a random frame nearly "
      "unchanged (%u values differ)", mm.count);

  for (i = 0; i < 4; i++) {
    switch (i) {
      case 0:
        fx_box (fx, 0, 3);
        break;
      case 1:
        fx_set_algorithm (fx, "scanline", 0);
        break;
      case 2:
        fx_gaussian (fx, 4.0);
        fx_set_axes (fx, REF_IIR_AXES_NONE);
        break;
      default:
        fx_set_axes (fx, REF_IIR_AXES_XY);
        fx_set_algorithm (fx, "tiled", 16);
        fx_custom (fx, 1.0, zero, 1, REF_IIR_BOTH);
        break;
    }
    fail_unless (harness_fx_push_changes (&fx->base, 0, TRUE, &mm) == 0,
        "identity case %u changed %u values (first at %d,%d: %u for %u)", i,
        mm.count, mm.x, mm.y, mm.got, mm.want);
  }
}

/* Properties changed between frames take effect on the next frame. */
FX_TEST (test_property_changes_between_frames, 1200)
{
  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 45, 29);
  fx_set_algorithm (fx, "tiled", 16);
  fx_check (fx, "sigma 2");
  fx_gaussian (fx, 8.0);
  fx_check (fx, "sigma changed to 8");
  fx_gaussian (fx, 0.7);
  fx_check (fx, "sigma changed to 0.7");
  fx_box (fx, 4, 2);
  fx_check (fx, "filter changed to box");
  fx_box (fx, 4, 3);
  fx_check (fx, "iterations changed");
  fx_box (fx, 9, 3);
  fx_check (fx, "radius changed");
  fx_random_custom (fx, 3, REF_IIR_BOTH);
  fx_check (fx, "filter changed to custom");
  fx_random_custom (fx, 1, REF_IIR_BOTH);
  fx_check (fx, "feedback changed to order 1");
  fx_random_custom (fx, 1, REF_IIR_CAUSAL);
  fx_check (fx, "direction changed");
  fx_set_axes (fx, REF_IIR_AXES_Y);
  fx_check (fx, "axes changed");
  fx_set_algorithm (fx, "scanline", 0);
  fx_check (fx, "algorithm changed");
  fx_set_algorithm (fx, "tiled", 32);
  fx_exponential (fx, 0.9, 2.0, REF_IIR_ANTICAUSAL);
  fx_check (fx, "filter changed to exponential");
  fx_exponential (fx, -1.0, 6.0, REF_IIR_ANTICAUSAL);
  fx_check (fx, "alpha from sigma");
  fx_set_border (fx, REF_BORDER_CONSTANT, 0.9);
  fx_check (fx, "border changed");
  fx_set_border (fx, REF_BORDER_CONSTANT, 0.1);
  fx_check (fx, "border-value changed");
  fx_set_planes (fx, 0x5);
  fx_check (fx, "planes changed");
  fx_set_roi (fx, 3, 2, 30, 20, 9, 5);
  fx_check (fx, "roi changed");
}

/* sigma changed from another thread while frames stream (properties are
 * safe to change while playing): every output is entirely the filter of one of
 * the two sigmas, never a mix, never a crash. */
FX_TEST (test_property_change_while_streaming, 1300)
{
  static const ToggleDouble sigmas = { "sigma", {1.0, 6.0} };
  RefIir ra, rb;
  Toggle toggle = { toggle_set_double, &sigmas, ref_iir_apply, &ra, &rb,
    "sigma 1", "sigma 6"
  };

  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 64, 40);
  fx_set_algorithm (fx, "tiled", 16);
  fx_gaussian (fx, 1.0);
  ra = rb = fx->ref;
  ra.sigma = 1.0;
  rb.sigma = 6.0;
  harness_fx_check_toggled (&fx->base, &toggle, 30);
}

/* Size and format changes mid-stream keep producing correct output. */
FX_TEST (test_caps_change, 1400)
{
  fx_set_algorithm (fx, "tiled", 16);
  fx_random_custom (fx, 2, REF_IIR_BOTH);
  fx_set_border (fx, REF_BORDER_CONSTANT, 0.3);
  harness_fx_check_caps_changes (&fx->base);
}

/* Identical inputs give identical outputs. */
FX_TEST (test_deterministic, 1500)
{
  fx_set_caps (fx, GST_VIDEO_FORMAT_NV12, 99, 51);
  fx_set_algorithm (fx, __i__ ? "scanline" : "tiled", __i__ ? 0 : 16);
  fx_random_custom (fx, 4, REF_IIR_BOTH);
  harness_fx_check_deterministic (&fx->base);
}

/* One meta per buffer, named after the element, frame_index counting up,
 * dispatches for both algorithms; it survives a copy. */
FX_TEST (test_timing_meta, 1600)
{
  gchar *name;
  guint i;

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 127, 65);
  name = gst_element_get_name (fx->base.el);
  fail_unless (g_str_has_prefix (name, ELEMENT), "element named %s", name);
  for (i = 0; i < 4; i++) {
    fx_set_algorithm (fx, i % 2 ? "scanline" : "tiled", i < 2 ? 0 : 16);
    gst_buffer_unref (harness_fx_push_timed (&fx->base, name, i, NULL));
  }
  g_free (name);
}

/* One step of test_vulkan_buffer_chain: a the Gaussian, b a box with
 * border constant; then a custom filter, b the exponential. */
static gconstpointer
chain_step (HarnessFx * base, GstElement * b, guint i)
{
  Fx *fx = FX (base);

  ref_iir_init (&fx->ref_b);
  if (i == 0) {
    fx_set_algorithm (fx, "tiled", 16);
    fx_gaussian (fx, 3.0);
    set_properties (b, "filter=box algorithm=scanline border=constant "
        "radius=2 iterations=3 border-value=0.7");
    fx->ref_b.filter = REF_IIR_BOX;
    fx->ref_b.radius = 2;
    fx->ref_b.iterations = 3;
    fx->ref_b.common.border = REF_BORDER_CONSTANT;
    fx->ref_b.common.border_value = 0.7;
  } else {
    fx_set_algorithm (fx, "scanline", 0);
    fx_random_custom (fx, 2, REF_IIR_CAUSAL);
    set_properties (b, "filter=exponential algorithm=tiled border=clamp "
        "alpha=0.7 tile-size=16");
    fx->ref_b.filter = REF_IIR_EXPONENTIAL;
    fx->ref_b.alpha = 0.7;
  }
  return &fx->ref_b;
}

/* recursivefilter ! video/x-raw(memory:VulkanBuffer) ! recursivefilter,
 * system memory at both ends: the output is the two references in a row
 * (tolerance 2: the first stage's +-1 passes through the second, whose
 * kernel is positive with unit gain), the frame stays in Vulkan buffers in
 * between, and carries one meta per element. */
GST_START_TEST (test_vulkan_buffer_chain)
{
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_RGBA;
  gchar *launch = harness_chain_launch (ELEMENT, fmt);
  Fx fx;

  fx_init_full (&fx, launch, "a", 1700 + __i__);
  harness_fx_check_chain (&fx.base, fmt, 43, 31, 2, chain_step,
      ref_iir_apply, &fx.ref, NULL, NULL);
  fx_clear (&fx);
  g_free (launch);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */

static const SuiteEntry recursivefilter_tests[] = {
  SUITE_CASE ("properties"),
  SUITE_TEST (test_property_specs),
  SUITE_TEST (test_property_out_of_range),
  SUITE_TEST (test_refused_border),
  SUITE_TEST (test_refused_feedback),
  SUITE_TEST (test_property_changes_between_frames),
  SUITE_TEST (test_property_change_while_streaming),

  /* tests/run.sh runs the test cases tagged "settings", those tagged
   * "filter" and the others in three processes side by side (its PARTS). */
  SUITE_TAGGED_CASE ("settings", "settings"),
  SUITE_TEST (test_identity_and_change),
  SUITE_LOOP_TEST (test_formats, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_matrix, G_N_ELEMENTS (matrix_formats)),

  SUITE_TAGGED_CASE ("filter", "filter"),
  SUITE_LOOP_TEST (test_sizes, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_tile_sizes, 2),
  SUITE_LOOP_TEST (test_y_row_end_16bit, G_N_ELEMENTS (row_end_formats)),
  SUITE_LOOP_TEST (test_many_chunks, 2),
  SUITE_LOOP_TEST (test_x_rows_coalesced, 2),
  SUITE_LOOP_TEST (test_large_support, 3),
  SUITE_LOOP_TEST (test_roi, 5),
  SUITE_LOOP_TEST (test_roi_large, 2),
  SUITE_LOOP_TEST (test_roi_meta, G_N_ELEMENTS (matrix_formats)),
  SUITE_TEST (test_planes),
  SUITE_LOOP_TEST (test_gaussian_vs_true, 2),
  SUITE_TEST (test_caps_change),
  SUITE_LOOP_TEST (test_deterministic, 2),

  SUITE_CASE ("memory"),
  SUITE_LOOP_TEST (test_padded_input, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_vulkan_buffer_chain, 2),
  SUITE_TEST (test_timing_meta),
};

SUITE_MAIN ("recursivefilter", recursivefilter_tests, &base_seed, NULL);
