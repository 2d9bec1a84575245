/* vktile tests — tiledconv against the CPU reference (reference.c): the
 * executable's table of tests, the element's settings and its streaming.
 *
 * The suite's files, one subject each, all on tiledconv_fx.c's fixture:
 *
 * - this file: properties (names, ranges, defaults, refused values,
 *   malformed and mismatched kernels, presets against kernels, kernels
 *   from strings) and streaming (caps changes, a property changed from
 *   another thread, a restart from NULL, a truncated buffer);
 * - test_tiledconv_filter.c: the element against the reference on random
 *   frames of every format, border mode, algorithm, kernel size and kind,
 *   frame size, ROI placement and plane mask, compared value by value with
 *   the double precision reference (tolerance 1 code value);
 * - test_tiledconv_memory.c: the memory paths (system memory, VulkanBuffer
 *   in, VulkanBuffer between two elements, the pool proposed upstream,
 *   padded input strides) and the timing meta.
 *
 * What the base class does for every element (choosing the device, none
 * at all) is test_basefilter.c's. The reference itself is checked in
 * test_references.c (a copy of the input must fail the comparison, so a
 * shader replaced by a copy cannot pass), and test_matrix also asserts
 * that every filtered frame changed.
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

#include "tiledconv_fx.h"

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
FX_TEST (test_separable_mismatch, 975)
{
  gdouble kx[3], ky[5], got[8];

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 33, 21);
  random_taps (fx->base.rand, kx, 3);
  random_taps (fx->base.rand, ky, 5);
  set_double_array (fx->base.el, "kernel-x", kx, 3);
  set_expecting_warning (fx->base.el, "kernel-y", ky, 5);
  fail_unless_equals_int (get_double_array (fx->base.el, "kernel-x", got,
          G_N_ELEMENTS (got)), 3);
  fail_unless (got[0] == kx[0] && got[1] == kx[1] && got[2] == kx[2],
      "kernel-x changed when kernel-y was refused");
  ref_conv_set_separable (&fx->ref, kx, NULL, 3);
  fx_check_frame (fx, LAYOUT_DEFAULT, "kernel-y of another length refused");
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "preset", "none");
  set_double_array (fx->base.el, "kernel-y", ky, 5);
  ref_conv_set_separable (&fx->ref, NULL, ky, 5);
  fx_check_frame (fx, LAYOUT_DEFAULT, "kernel-y after preset=none");
}

/* A malformed kernel is refused and the property keeps its old value, in
 * the property and in the output. */
FX_TEST (test_malformed_kernel, 1800)
{
  static const gdouble bad[50] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  gdouble k[9], got[64], kx[5];
  guint n, i;

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 31, 19);
  random_taps (fx->base.rand, k, 9);
  fx_set_kernel (fx, k, 9);
  fail_unless_equals_string (get_enum_nick (fx->base.el, "preset"), "none");

  set_expecting_warning (fx->base.el, "kernel", bad, 8);
  set_expecting_warning (fx->base.el, "kernel", bad, 10);
  set_expecting_warning (fx->base.el, "kernel", bad, 0);
  set_expecting_warning (fx->base.el, "kernel", bad, 50);
  set_expecting_warning (fx->base.el, "kernel", bad, 1);

  n = get_double_array (fx->base.el, "kernel", got, G_N_ELEMENTS (got));
  fail_unless_equals_int (n, 9);
  for (i = 0; i < 9; i++)
    fail_unless (got[i] == k[i], "kernel[%u] is %g, was %g", i, got[i], k[i]);
  fx_check_frame (fx, LAYOUT_DEFAULT, "after malformed kernels");

  /* a non-numeric entry */
  {
    GValue arr = G_VALUE_INIT, item = G_VALUE_INIT;

    g_value_init (&arr, GST_TYPE_ARRAY);
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_string (&item, "one");
    for (i = 0; i < 9; i++)
      gst_value_array_append_value (&arr, &item);
    _gst_check_expecting_log = TRUE;
    g_object_set_property (G_OBJECT (fx->base.el), "kernel", &arr);
    _gst_check_expecting_log = FALSE;
    g_value_unset (&item);
    g_value_unset (&arr);
  }
  n = get_double_array (fx->base.el, "kernel", got, G_N_ELEMENTS (got));
  fail_unless_equals_int (n, 9);
  fx_check_frame (fx, LAYOUT_DEFAULT, "after a non-numeric kernel");

  /* separable rows of a wrong length */
  random_taps (fx->base.rand, kx, 5);
  fx_set_separable (fx, kx, kx, 5);
  set_expecting_warning (fx->base.el, "kernel-x", bad, 4);
  set_expecting_warning (fx->base.el, "kernel-y", bad, 9);
  set_expecting_warning (fx->base.el, "kernel-x", bad, 2);
  n = get_double_array (fx->base.el, "kernel-x", got, G_N_ELEMENTS (got));
  fail_unless_equals_int (n, 5);
  for (i = 0; i < 5; i++)
    fail_unless (got[i] == kx[i], "kernel-x[%u] is %g, was %g", i, got[i],
        kx[i]);
  fx_check_frame (fx, LAYOUT_DEFAULT, "after malformed kernel-x/y");
}

/* Setting a kernel switches preset to none; a preset replaces the kernel. */
FX_TEST (test_preset_kernel_interplay, 1900)
{
  gdouble k[25];

  fx_set_caps (fx, GST_VIDEO_FORMAT_BGRA, 29, 15);
  fail_unless_equals_string (get_enum_nick (fx->base.el, "preset"),
      "gaussian3");
  fx_check_frame (fx, LAYOUT_DEFAULT, "defaults");

  random_taps (fx->base.rand, k, 25);
  fx_set_kernel (fx, k, 25);
  fail_unless_equals_string (get_enum_nick (fx->base.el, "preset"), "none");
  fx_check_frame (fx, LAYOUT_DEFAULT, "kernel after preset");

  fx_set_preset (fx, "emboss");
  fx_check_frame (fx, LAYOUT_DEFAULT, "preset after kernel");

  random_taps (fx->base.rand, k, 3);
  fx_set_separable (fx, k, k, 3);
  fail_unless_equals_string (get_enum_nick (fx->base.el, "preset"), "none");
  fx_check_frame (fx, LAYOUT_DEFAULT, "separable after preset");

  /* preset=none keeps the kernel in place */
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "preset", "none");
  fx_check_frame (fx, LAYOUT_DEFAULT, "preset none");
}

/* A kernel given as a string, as on a gst-launch line: integer entries are
 * numbers too. */
FX_TEST (test_kernel_from_string, 1700)
{
  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 30, 20);
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "kernel",
      "<0, -1, 0, -1, 5, -1, 0, -1, 0>");
  ref_conv_set_preset (&fx->ref, "sharpen");
  fx_check_frame (fx, LAYOUT_DEFAULT, "kernel <0,-1,0,-1,5,-1,0,-1,0>");
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "kernel-x",
      "<0.25, 0.5, 0.25>");
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "kernel-y", "<1, 2, 1>");
  {
    static const gdouble kx[3] = { 0.25, 0.5, 0.25 }, ky[3] = { 1, 2, 1 };
    ref_conv_set_separable (&fx->ref, kx, ky, 3);
  }
  fx_check_frame (fx, LAYOUT_DEFAULT, "kernel-x/kernel-y from strings");
}

/* ------------------------------------------------------------------------ */
/* streaming */

/* Size and format changes mid-stream keep producing correct output. */
FX_TEST (test_caps_change, 1600)
{
  fx_random_kernel (fx, KERNEL_2D, 5);
  fx_set_border (fx, REF_BORDER_MIRROR, 0);
  harness_fx_check_caps_changes (&fx->base);
}

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
FX_TEST (test_property_change_while_streaming, 2000)
{
  gdouble ka[9], kb[49];
  RefConv ra, rb;
  ToggleKernels kernels = { {ka, kb}, {9, 49} };
  Toggle toggle = { toggle_set_kernel, &kernels, ref_tiledconv_apply, &ra,
    &rb, "the 3x3 kernel", "the 7x7 kernel"
  };

  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 64, 40);
  fx_set_border (fx, REF_BORDER_MIRROR, 0);
  random_taps (fx->base.rand, ka, 9);
  random_taps (fx->base.rand, kb, 49);
  ra = rb = fx->ref;
  ref_conv_set_kernel (&ra, ka, 9);
  ref_conv_set_kernel (&rb, kb, 49);
  set_double_array (fx->base.el, "kernel", ka, 9);
  harness_fx_check_toggled (&fx->base, &toggle, 40);
}

/* Back to NULL and playing again: the element restarts cleanly. */
FX_TEST (test_restart, 2100)
{
  fx_set_caps (fx, GST_VIDEO_FORMAT_NV12, 33, 17);
  fx_random_kernel (fx, KERNEL_2D, 7);
  fx_check_frame (fx, LAYOUT_DEFAULT, "before the restart");
  fail_unless (gst_element_set_state (fx->base.h->element, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_harness_play (fx->base.h);
  fail_unless (gst_harness_push_event (fx->base.h,
          gst_event_new_stream_start ("restart")));
  fx_set_caps (fx, GST_VIDEO_FORMAT_I420, 35, 19);
  fx_check_frame (fx, LAYOUT_DEFAULT, "after the restart");
}

/* A buffer too small for its caps is an error, not a crash or a read past
 * its end. */
FX_TEST (test_truncated_buffer, 2200)
{
  GstFlowReturn ret;
  GstBuffer *in;

  fx_set_caps (fx, GST_VIDEO_FORMAT_I420, 64, 32);
  fx_check_frame (fx, LAYOUT_DEFAULT, "before a truncated buffer");
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&fx->base.info) / 2,
      NULL);
  gst_buffer_memset (in, 0, 0x55, gst_buffer_get_size (in));
  ret = gst_harness_push (fx->base.h, in);
  fail_unless (ret != GST_FLOW_OK, "a half-size buffer was accepted");
}

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
  SUITE_PART (tiledconv_filter_tests),
  SUITE_TEST (test_caps_change),
  SUITE_TEST (test_property_change_while_streaming),
  SUITE_TEST (test_restart),
  SUITE_TEST (test_truncated_buffer),

  SUITE_CASE ("memory"),
  SUITE_PART (tiledconv_memory_tests),
};

SUITE_MAIN ("tiledconv", tiledconv_tests, &base_seed, NULL);
