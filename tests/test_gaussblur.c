/* vktile tests — gaussblur against the CPU reference (reference_gauss.c):
 * the executable's table of tests, and the element's settings.
 *
 * The suite's files, one subject each, all on gaussblur_fx.c's fixture
 * (the reference's own tests are test_references.c's):
 *
 * - this file: properties (names, ranges, defaults, refused values,
 *   changes between frames, a control binding, changes from another
 *   thread while streaming);
 * - test_gaussblur_filter.c: the element against the reference on random
 *   frames (tolerance 1 code value, and rounding to nearest): every
 *   format, border, algorithm, frame size, sigma from 0.01 to 256 (kernels
 *   far larger than the frame), sigma-y, explicit radius, amount (positive
 *   and negative), ROI, plane mask, caps changes; algorithm=recursive byte
 *   for byte against recursivefilter filter=gaussian, and algorithm=auto's
 *   switch to the recursive Gaussian;
 * - test_gaussblur_memory.c: padded input strides and the proposed pool, a
 *   VulkanBuffer chain of two gaussblurs, the timing meta (fused: one
 *   dispatch per filtered plane).
 *
 * Lavapipe compiles every pipeline variant in about a second (the
 * recursive path's in 5 to 12), and the variants depend on the format, the
 * radii, the unsharp mask, the plane mask and, for the recursive path, the
 * frame size: a test keeps one harness and changes properties between
 * frames, most tests use one frame size (MID_W x MID_H) and the sigmas 1, 2
 * and 4 so that Mesa's shader cache serves the forked tests after the
 * first, and the matrix covers every axis of variation without the full
 * cross product. The suite takes about 3.5 minutes on 2 cores with an
 * empty shader cache, seconds with a warm one.
 *
 * Output buffers are poisoned (0xA5) after they have been checked, before
 * they go back to the element's pool, so that a value the element fails to
 * write in a later frame shows up as a mismatch instead of a stale right
 * answer.
 *
 * Random data comes from VKTILE_SEED (or the time); every failure message
 * carries the seed, so `VKTILE_SEED=<n> GST_CHECKS=<test> ./test_gaussblur`
 * reproduces it. VKTILE_GAUSS_STATS=1 prints where auto switches to the
 * recursive Gaussian; VKTILE_TRACE=1 prints each frame's
 * settings before it is pushed and the time the element and the reference
 * took.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/controller/controller.h>
#include <gst/video/video.h>

#include "reference.h"
#include "gaussblur_fx.h"

/* ------------------------------------------------------------------------ */
/* properties */

/* Names, types, defaults and ranges of the element's interface. */
GST_START_TEST (test_property_specs)
{
  static const gchar *algos[] = { "auto", "fused", "two-pass", "recursive",
    NULL
  };
  static const gchar *borders[] = { "clamp", "mirror", "reflect", "wrap",
    "constant", NULL
  };
  static const gchar *own[] = { "sigma", "sigma-y", "radius", "amount",
    "algorithm", NULL
  };
  static const gchar *animated[] = { "sigma", "sigma-y", "amount", NULL };
  GstElement *el = harness_new_element (ELEMENT);
  GObjectClass *klass = G_OBJECT_GET_CLASS (el);

  check_enum_nicks (klass, "algorithm", algos, "auto");
  check_enum_nicks (klass, "border", borders, "clamp");

  check_double_spec (klass, "sigma", 0.01, 256.0, 2.0);
  check_double_spec (klass, "sigma-y", -1.0, 256.0, -1.0);
  check_double_spec (klass, "amount", -1.0, 100.0, 0.0);
  check_double_spec (klass, "border-value", 0.0, 1.0, 0.0);
  check_uint_spec (klass, "radius", 0, 1024, 0);

  /* what makes sense to animate is controllable */
  check_element_interface (el, own, animated);
}

GST_END_TEST;

/* Out-of-range numbers are refused by the GParamSpec (GLib warns) and the
 * property keeps its value. */
GST_START_TEST (test_property_out_of_range)
{
  GstElement *el = harness_new_element (ELEMENT);
  gdouble d;

  g_object_set (el, "sigma", 3.5, "sigma-y", 1.25, "amount", 0.75,
      "radius", 7u, "border-value", 0.25, NULL);
  check_refused_numbers (el, "sigma", (const gdouble[]) {
      0.005, 0.0, -1.0, 256.5}, 4);
  check_refused_numbers (el, "sigma-y", (const gdouble[]) {
      -1.5, 300.0}, 2);
  check_refused_numbers (el, "amount", (const gdouble[]) {
      -1.01, 100.5}, 2);
  check_refused_numbers (el, "radius", (const gdouble[]) {
      1025}, 1);
  check_refused_numbers (el, "border-value", (const gdouble[]) {
      1.5}, 1);
  /* the ends of the ranges are accepted */
  g_object_set (el, "sigma", 0.01, "sigma-y", -1.0, "amount", -1.0,
      "radius", 1024u, NULL);
  g_object_set (el, "sigma", 256.0, "sigma-y", 256.0, "amount", 100.0,
      "radius", 0u, NULL);
  g_object_get (el, "sigma", &d, NULL);
  fail_unless (d == 256.0);
  g_object_get (el, "sigma-y", &d, NULL);
  fail_unless (d == 256.0);
  g_object_set (el, "sigma-y", 0.01, NULL);
  g_object_get (el, "sigma-y", &d, NULL);
  fail_unless (d == 0.01);
  gst_object_unref (el);
}

GST_END_TEST;

/* sigma-y between -1 and 0.01 has no meaning: 0 to 0.01 is refused with a
 * warning that names the property (a bus message or a log line), and the
 * old value stays, in the property and in the output; a negative value is
 * "unset" (-1). */

FX_TEST (test_refused_sigma_y, 2100)
{
  static const gdouble bad[] = { 0.0, 0.005, 0.0099 };
  GstBus *bus = gst_bus_new ();
  GstCheckLogFilter *filter;
  guint i, named;
  gdouble d;

  gst_element_set_bus (fx->base.el, bus);
  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, MID_W, MID_H);
  fx_set_algorithm (fx, "fused");
  fx_blur (fx, 2.0, 1.0, 0, 0.0);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    named = 0;
    /* (the filter takes the regex) */
    filter = gst_check_add_log_filter (NULL, G_LOG_LEVEL_WARNING |
        G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_MESSAGE, g_regex_new ("sigma-y",
            0, 0, NULL), count_caught_log, &named, NULL);
    _gst_check_expecting_log = TRUE;
    g_object_set (fx->base.el, "sigma-y", bad[i], NULL);
    _gst_check_expecting_log = FALSE;
    gst_check_remove_log_filter (filter);
    named += bus_warnings_naming (bus, "sigma-y");
    fail_unless (named > 0, "sigma-y %g was taken or refused without a "
        "warning naming 'sigma-y'", bad[i]);
    g_object_get (fx->base.el, "sigma-y", &d, NULL);
    fail_unless (d == 1.0, "sigma-y %g: the property reads %g, want the "
        "old 1", bad[i], d);
  }
  fx_check (fx, "sigma-y 1 after refused values");
  g_object_set (fx->base.el, "sigma-y", -0.5, NULL);
  g_object_get (fx->base.el, "sigma-y", &d, NULL);
  fail_unless (d == -1.0 || d == -0.5, "sigma-y -0.5 reads %g", d);
  fx->ref.sigma_y = -1.0;
  fx_check (fx, "sigma-y -0.5: the same as sigma");
  gst_element_set_bus (fx->base.el, NULL);
  gst_object_unref (bus);
}

/* Properties changed between frames take effect on the next frame. */
FX_TEST (test_property_changes_between_frames, 1200)
{
  fx_set_caps (fx, GST_VIDEO_FORMAT_I420, MID_W, MID_H);
  fx_set_algorithm (fx, "fused");
  fx_check (fx, "defaults, fused");
  fx_set_sigma (fx, 4.0, -1);
  fx_check (fx, "sigma changed to 4");
  fx_set_sigma (fx, 4.0, 1.0);
  fx_check (fx, "sigma-y changed to 1");
  fx_set_sigma (fx, 4.0, -1);
  fx_set_radius (fx, 3);
  fx_check (fx, "sigma-y unset, radius changed to 3");
  fx_set_radius (fx, 0);
  fx_set_sigma (fx, 1.0, -1);
  fx_set_amount (fx, 1.5);
  fx_check (fx, "radius back to automatic, sigma 1, amount changed to 1.5");
  fx_set_algorithm (fx, "two-pass");
  fx_check (fx, "algorithm changed to two-pass");
  fx_set_amount (fx, 0.0);
  fx_check (fx, "amount back to 0");
  fx_set_algorithm (fx, "recursive");
  fx_set_sigma (fx, 2.0, -1);
  fx_check (fx, "algorithm changed to recursive");
  fx_set_border (fx, REF_BORDER_CONSTANT, 0.9);
  fx_check (fx, "border changed to constant");
  fx_set_border (fx, REF_BORDER_CONSTANT, 0.1);
  fx_check (fx, "border-value changed");
  fx_set_border (fx, REF_BORDER_MIRROR, 0.1);
  fx_check (fx, "border changed to mirror (recursive runs two-pass)");
  fx_set_algorithm (fx, "auto");
  fx_check (fx, "algorithm changed to auto");
  fx_set_planes (fx, 0x5);
  fx_check (fx, "planes changed");
  fx_set_roi (fx, 3, 2, 30, 20, 9, 5);
  fx_check (fx, "roi changed");
}

/* A control binding (GstController) ramps sigma from 1 to 10 over ten
 * frames: each frame is filtered with the value for its own timestamp,
 * ten different outputs, each that sigma's reference. */
FX_TEST (test_controller_ramp, 1250)
{
  const GstClockTime frame = GST_SECOND / 30;   /* harness_push_frame's */
  GstControlSource *cs;
  GstTimedValueControlSource *tv;
  GstBuffer *prev = NULL;
  guint k;

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 67, 41);
  cs = gst_interpolation_control_source_new ();
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  tv = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  fail_unless (gst_timed_value_control_source_set (tv, fx->base.pts, 1.0));
  fail_unless (gst_timed_value_control_source_set (tv, fx->base.pts + 9 * frame,
          10.0));
  fail_unless (gst_object_add_control_binding (GST_OBJECT (fx->base.el),
          gst_direct_control_binding_new_absolute (GST_OBJECT (fx->base.el),
              "sigma", cs)));
  for (k = 0; k < 10; k++) {
    GstBuffer *in = make_frame (&fx->base.info, fx->base.rand, LAYOUT_DEFAULT,
        CONTENT_ANY), *out;
    gchar *what = g_strdup_printf ("frame %u, sigma %u from the control "
        "binding", k, k + 1);

    /* the reference only: the element learns sigma from the binding */
    fx->ref.sigma = 1.0 + k;
    out = fx_push (fx, gst_buffer_ref (in));
    verify_output (fx, in, out, what);
    if (prev) {
      GstVideoFrame a, b;
      Mismatch mm;
      fail_unless (gst_video_frame_map (&a, &fx->base.info, prev,
              GST_MAP_READ));
      fail_unless (gst_video_frame_map (&b, &fx->base.info, out, GST_MAP_READ));
      fail_unless (compare_frames (&a, &b, 0, &mm) > 0, "%s: the same "
          "output as the frame before", what);
      gst_video_frame_unmap (&b);
      gst_video_frame_unmap (&a);
      gst_buffer_unref (prev);
    }
    prev = out;
    gst_buffer_unref (in);
    g_free (what);
  }
  gst_buffer_unref (prev);
  gst_object_unref (cs);
}

/* sigma changed from another thread while frames stream (properties are
 * safe to change while playing): every output is entirely the filter of one of
 * the two sigmas, never a mix, never a crash. */
FX_TEST (test_property_change_while_streaming, 1300)
{
  static const ToggleDouble sigmas = { "sigma", {1.0, 4.0} };
  RefGauss ra, rb;
  Toggle toggle = { toggle_set_double, &sigmas, ref_gauss_apply, &ra, &rb,
    "sigma 1", "sigma 4"
  };

  fx_set_caps (fx, GST_VIDEO_FORMAT_I420, MID_W, MID_H);
  fx_set_algorithm (fx, "fused");
  fx_blur (fx, 1.0, -1, 0, 0.0);
  ra = rb = fx->ref;
  ra.sigma = 1.0;
  rb.sigma = 4.0;
  harness_fx_check_toggled (&fx->base, &toggle, 20);
}

/* ------------------------------------------------------------------------ */

static const SuiteEntry gaussblur_tests[] = {
  SUITE_CASE ("properties"),
  SUITE_TEST (test_property_specs),
  SUITE_TEST (test_property_out_of_range),
  SUITE_TEST (test_refused_sigma_y),
  SUITE_TEST (test_property_changes_between_frames),
  SUITE_TEST (test_controller_ramp),
  SUITE_TEST (test_property_change_while_streaming),

  SUITE_CASE ("filter"),
  SUITE_PART (gaussblur_filter_tests),

  SUITE_CASE ("memory"),
  SUITE_PART (gaussblur_memory_tests),
};

SUITE_MAIN ("gaussblur", gaussblur_tests, &base_seed, NULL);
