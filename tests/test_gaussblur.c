/* vktile tests — gaussblur against the CPU reference (reference_gauss.c).
 *
 * Owns the GstCheck/GstHarness tests of the gaussblur element (the
 * reference's own tests are test_references.c's):
 *
 * - the element against the reference on random frames (tolerance 1 code
 *   value, and rounding to nearest): every format,
 *   border, algorithm, frame size of `sizes`, sigma from 0.01 to 256
 *   (kernels far larger than the frame), sigma-y, explicit radius, amount
 *   (positive and negative), ROI, plane mask, input layout;
 * - algorithm=recursive byte for byte against recursivefilter
 *   filter=gaussian (the same machinery), and against reference_iir's
 *   double van Vliet Gaussian where recursivefilter cannot follow (sigma-y,
 *   amount); its fallback to the exact blur for mirror/reflect/wrap and
 *   sigmas below 0.5;
 * - algorithm=auto: exact at small sigmas, the recursive Gaussian from a
 *   threshold on (found by comparing with algorithm=recursive, not
 *   hard-coded: the element measures it on a GPU), never back, exact with
 *   an explicit radius;
 * - properties (names, ranges, defaults, refused values, changes between
 *   frames and from another thread while streaming), caps changes, the
 *   timing meta (fused: one dispatch per filtered plane), a VulkanBuffer
 *   chain of two gaussblurs.
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
#include <gst/vulkan/vulkan.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/gstvktiletimingmeta.h"
#include "reference.h"
#include "fixture.h"
#include "reference_gauss.h"
#include "reference_iir.h"

#define ELEMENT "gaussblur"
#define TOL 1

/* algorithm=auto is exact (fused or two-pass) up to at least this sigma:
 * the benchmark's targets time "gaussblur sigma <= 4, fused". Above some
 * threshold that the element measures on a GPU and documents it runs the
 * recursive Gaussian, an approximation, with radius 0 and a clamp or
 * constant border. The tests other than test_auto use auto only up to
 * this sigma; test_auto finds the threshold by comparing with
 * algorithm=recursive. */
#define AUTO_EXACT_MAX_SIGMA 4.0

static guint32 base_seed;


/* The frame sizes the tests cover. */
static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {5, 7}, {33, 17}, {127, 65}, {257, 130},
};

#define N_SIZES G_N_ELEMENTS (sizes)

/* The frame most tests use (not a multiple of any tile). The recursive
 * path's pipelines depend on the format and the frame size, and lavapipe
 * compiles each in seconds: one size shared by the tests lets Mesa's shader
 * cache serve the forked tests after the first. */
#define MID_W 61
#define MID_H 37

static const gchar *algorithms[] = { "auto", "fused", "two-pass",
  "recursive"
};

#define N_ALGORITHMS G_N_ELEMENTS (algorithms)

/* The fixture and the reference's mirror of the element's properties. */
typedef struct
{
  HarnessFx base;
  RefGauss ref;
  gboolean auto_recursive;      /* auto runs recursive (test_auto) */
  RefGauss ref_b;               /* the second of a chain */
} Fx;

/* ------------------------------------------------------------------------ */
/* helpers */

/* Which definition the algorithm stands for with the current settings:
 * recursive is the recursive Gaussian (which the reference itself replaces
 * by the exact blur for mirror, reflect, wrap and sigmas below 0.5); auto
 * is too where test_auto found it so. */
static void
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
  fx_sync_algorithm FX (base);
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

static const FxElement fx_element = {
  .name = ELEMENT,
  .algorithm = "auto",
  .init = fx_reference_init,
  .filter = gauss_filter,
  .describe = gauss_describe,
  .rounding_bound = gauss_rounding_bound,
  .rounding_depth = 8,
  .ties_down_reference = TRUE,
  .tol = TOL,
  .content = CONTENT_ANY,
};

/* ---- the element's properties, mirrored in fx->ref ---- */

/* sigma_y < 0: unset (-1, the same as sigma) */
static void
fx_set_sigma (Fx * fx, gdouble sigma, gdouble sigma_y)
{
  if (sigma_y < 0)
    sigma_y = -1.0;
  g_object_set (fx->base.el, "sigma", sigma, "sigma-y", sigma_y, NULL);
  fx->ref.sigma = sigma;
  fx->ref.sigma_y = sigma_y;
}

static void
fx_set_radius (Fx * fx, guint radius)
{
  g_object_set (fx->base.el, "radius", radius, NULL);
  fx->ref.radius = radius;
}

static void
fx_set_amount (Fx * fx, gdouble amount)
{
  g_object_set (fx->base.el, "amount", amount, NULL);
  fx->ref.amount = amount;
}

/* sigma, sigma-y (< 0: unset), radius and amount at once */
static void
fx_blur (Fx * fx, gdouble sigma, gdouble sigma_y, guint radius,
    gdouble amount)
{
  fx_set_sigma (fx, sigma, sigma_y);
  fx_set_radius (fx, radius);
  fx_set_amount (fx, amount);
}

static void
fx_set_algorithm (Fx * fx, const gchar * nick)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "algorithm", nick);
  fail_unless_equals_string (get_enum_nick (fx->base.el, "algorithm"), nick);
  fx->base.algorithm = nick;
}

static void
fx_set_border (Fx * fx, RefBorder b, gdouble value)
{
  harness_fx_set_border (&fx->base, b, value);
}

/* border b, with a random border-value */
static void
fx_set_border_rand (Fx * fx, RefBorder b)
{
  fx_set_border (fx, b, g_rand_double (fx->base.rand));
}

/* ---- frames ---- */

/* ref_gauss_frame () for check_chain_output() and
 * check_toggled_while_streaming(). */
static void
ref_gauss_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref)
{
  ref_gauss_frame (in, out, ref);
}

/* The algorithm of rotation step k. The recursive one's pipelines cost
 * lavapipe seconds each, per format, frame size and plane mask, so the
 * tests whose subject is something else (sizes, ROIs, layouts) run it only
 * where `recursive_ok`, and one of the exact algorithms otherwise. */
static const gchar *
rotating_algorithm (guint k, gboolean recursive_ok)
{
  const gchar *a = algorithms[k % N_ALGORITHMS];

  if (!recursive_ok && !strcmp (a, "recursive"))
    return algorithms[(k / N_ALGORITHMS) % 3];
  return a;
}

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
static gboolean
count_sigma_y_log (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer data)
{
  (*(guint *) data)++;
  return TRUE;
}

GST_START_TEST (test_refused_sigma_y)
{
  static const gdouble bad[] = { 0.0, 0.005, 0.0099 };
  GstBus *bus = gst_bus_new ();
  GstCheckLogFilter *filter;
  guint i, named;
  gdouble d;
  Fx fx;

  fx_init (&fx, 2100);
  gst_element_set_bus (fx.base.el, bus);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, MID_W, MID_H);
  fx_set_algorithm (&fx, "fused");
  fx_blur (&fx, 2.0, 1.0, 0, 0.0);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    named = 0;
    /* (the filter takes the regex) */
    filter = gst_check_add_log_filter (NULL, G_LOG_LEVEL_WARNING |
        G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_MESSAGE, g_regex_new ("sigma-y",
            0, 0, NULL), count_sigma_y_log, &named, NULL);
    _gst_check_expecting_log = TRUE;
    g_object_set (fx.base.el, "sigma-y", bad[i], NULL);
    _gst_check_expecting_log = FALSE;
    gst_check_remove_log_filter (filter);
    named += bus_warnings_naming (bus, "sigma-y");
    fail_unless (named > 0, "sigma-y %g was taken or refused without a "
        "warning naming 'sigma-y'", bad[i]);
    g_object_get (fx.base.el, "sigma-y", &d, NULL);
    fail_unless (d == 1.0, "sigma-y %g: the property reads %g, want the "
        "old 1", bad[i], d);
  }
  fx_check (&fx, "sigma-y 1 after refused values");
  g_object_set (fx.base.el, "sigma-y", -0.5, NULL);
  g_object_get (fx.base.el, "sigma-y", &d, NULL);
  fail_unless (d == -1.0 || d == -0.5, "sigma-y -0.5 reads %g", d);
  fx.ref.sigma_y = -1.0;
  fx_check (&fx, "sigma-y -0.5: the same as sigma");
  gst_element_set_bus (fx.base.el, NULL);
  gst_object_unref (bus);
  fx_clear (&fx);
}

GST_END_TEST;

/* Properties changed between frames take effect on the next frame. */
GST_START_TEST (test_property_changes_between_frames)
{
  Fx fx;

  fx_init (&fx, 1200);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_I420, MID_W, MID_H);
  fx_set_algorithm (&fx, "fused");
  fx_check (&fx, "defaults, fused");
  fx_set_sigma (&fx, 4.0, -1);
  fx_check (&fx, "sigma changed to 4");
  fx_set_sigma (&fx, 4.0, 1.0);
  fx_check (&fx, "sigma-y changed to 1");
  fx_set_sigma (&fx, 4.0, -1);
  fx_set_radius (&fx, 3);
  fx_check (&fx, "sigma-y unset, radius changed to 3");
  fx_set_radius (&fx, 0);
  fx_set_sigma (&fx, 1.0, -1);
  fx_set_amount (&fx, 1.5);
  fx_check (&fx, "radius back to automatic, sigma 1, amount changed to 1.5");
  fx_set_algorithm (&fx, "two-pass");
  fx_check (&fx, "algorithm changed to two-pass");
  fx_set_amount (&fx, 0.0);
  fx_check (&fx, "amount back to 0");
  fx_set_algorithm (&fx, "recursive");
  fx_set_sigma (&fx, 2.0, -1);
  fx_check (&fx, "algorithm changed to recursive");
  fx_set_border (&fx, REF_BORDER_CONSTANT, 0.9);
  fx_check (&fx, "border changed to constant");
  fx_set_border (&fx, REF_BORDER_CONSTANT, 0.1);
  fx_check (&fx, "border-value changed");
  fx_set_border (&fx, REF_BORDER_MIRROR, 0.1);
  fx_check (&fx, "border changed to mirror (recursive runs two-pass)");
  fx_set_algorithm (&fx, "auto");
  fx_check (&fx, "algorithm changed to auto");
  fx_set_planes (&fx, 0x5);
  fx_check (&fx, "planes changed");
  fx_set_roi (&fx, 3, 2, 30, 20, 9, 5);
  fx_check (&fx, "roi changed");
  fx_clear (&fx);
}

GST_END_TEST;

/* A control binding (GstController) ramps sigma from 1 to 10 over ten
 * frames: each frame is filtered with the value for its own timestamp,
 * ten different outputs, each that sigma's reference. */
GST_START_TEST (test_controller_ramp)
{
  const GstClockTime frame = GST_SECOND / 30;   /* harness_push_frame's */
  GstControlSource *cs;
  GstTimedValueControlSource *tv;
  GstBuffer *prev = NULL;
  Fx fx;
  guint k;

  fx_init (&fx, 1250);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 67, 41);
  cs = gst_interpolation_control_source_new ();
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  tv = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  fail_unless (gst_timed_value_control_source_set (tv, fx.base.pts, 1.0));
  fail_unless (gst_timed_value_control_source_set (tv, fx.base.pts + 9 * frame,
          10.0));
  fail_unless (gst_object_add_control_binding (GST_OBJECT (fx.base.el),
          gst_direct_control_binding_new_absolute (GST_OBJECT (fx.base.el),
              "sigma", cs)));
  for (k = 0; k < 10; k++) {
    GstBuffer *in = make_frame (&fx.base.info, fx.base.rand, LAYOUT_DEFAULT,
        CONTENT_ANY), *out;
    gchar *what = g_strdup_printf ("frame %u, sigma %u from the control "
        "binding", k, k + 1);

    /* the reference only: the element learns sigma from the binding */
    fx.ref.sigma = 1.0 + k;
    out = fx_push (&fx, gst_buffer_ref (in));
    verify_output (&fx, in, out, what);
    if (prev) {
      GstVideoFrame a, b;
      Mismatch mm;
      fail_unless (gst_video_frame_map (&a, &fx.base.info, prev, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&b, &fx.base.info, out, GST_MAP_READ));
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
  fx_clear (&fx);
}

GST_END_TEST;

/* sigma changed from another thread while frames stream (properties are
 * safe to change while playing): every output is entirely the filter of one of
 * the two sigmas, never a mix, never a crash. */
GST_START_TEST (test_property_change_while_streaming)
{
  static const ToggleDouble sigmas = { "sigma", {1.0, 4.0} };
  RefGauss ra, rb;
  Toggle toggle = { toggle_set_double, &sigmas, ref_gauss_apply, &ra, &rb,
    "sigma 1", "sigma 4"
  };
  Fx fx;

  fx_init (&fx, 1300);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_I420, MID_W, MID_H);
  fx_set_algorithm (&fx, "fused");
  fx_blur (&fx, 1.0, -1, 0, 0.0);
  ra = rb = fx.ref;
  ra.sigma = 1.0;
  rb.sigma = 4.0;
  harness_fx_check_toggled (&fx.base, &toggle, 20);
  fx_clear (&fx);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* the element against the reference */

/* Every format with a handful of settings that together use every
 * algorithm, every border, sigma-y, an explicit radius and the unsharp
 * mask of both signs; the sigmas give radii 3, 6 and 12 only. */
/* One step of test_formats: algorithm, blur (fx_blur()'s arguments),
 * border b (border-value 0, or a random one for constant), a frame. */
static void
formats_step (Fx * fx, const gchar * algorithm, gdouble sigma,
    gdouble sigma_y, guint radius, gdouble amount, RefBorder b,
    const gchar * what)
{
  fx_set_algorithm (fx, algorithm);
  fx_blur (fx, sigma, sigma_y, radius, amount);
  if (b == REF_BORDER_CONSTANT)
    fx_set_border_rand (fx, b);
  else
    fx_set_border (fx, b, 0.0);
  fx_check (fx, "%s", what);
}

/* One format of test_formats, from the element's defaults (the formats of
 * a group share one harness: see format_groups). */
FX_GROUP_TEST (test_formats, 100)
{
  fx_set_algorithm (fx, "auto");
  fx_blur (fx, 2.0, -1, 0, 0.0);
  fx_set_border (fx, REF_BORDER_CLAMP, 0.0);
  fx_set_caps (fx, fmt, MID_W, MID_H);
  fx_check (fx, "defaults (sigma 2, auto, clamp)");

  formats_step (fx, "fused", 1.0, -1, 0, 0.0, REF_BORDER_MIRROR,
      "fused sigma 1, mirror");
  formats_step (fx, "two-pass", 4.0, -1, 0, 1.5, REF_BORDER_REFLECT,
      "two-pass sigma 4, amount 1.5, reflect");
  /* (not on RGBx/BGRx: recursivefilter's tests run the machinery on them,
   * and its pipelines for a new kind of plane cost lavapipe 8 s) */
  formats_step (fx, fmt == GST_VIDEO_FORMAT_RGBx
      || fmt == GST_VIDEO_FORMAT_BGRx ? "two-pass" : "recursive", 3.0, -1, 0,
      0.0, REF_BORDER_CONSTANT, "recursive sigma 3, constant");
  formats_step (fx, "fused", 2.0, 1.0, 0, -0.6, REF_BORDER_WRAP,
      "fused sigma 2 sigma-y 1, amount -0.6, wrap");
  if (fi % 3 == 0) {
    /* GRAY8, RGBx, I420 */
    formats_step (fx, "two-pass", 1.0, 4.0, 0, 0.0, REF_BORDER_CONSTANT,
        "two-pass sigma 1 sigma-y 4, constant");
    formats_step (fx, "auto", 4.0, -1, 6, 0.7, REF_BORDER_CLAMP,
        "auto sigma 4 radius 6, amount 0.7");
  }
  formats_step (fx, "recursive", 2.0, -1, 0, 0.0, REF_BORDER_MIRROR,
      "recursive sigma 2 with mirror (runs two-pass)");
  /* every one of these changes a random frame: a copy cannot pass (the
   * count is the group's so far) */
  fail_unless_equals_int (fx->base.n_changed, fx->base.n_frames);
}

/* Every border x every algorithm (mirror/reflect/wrap with recursive: the
 * exact fallback), on GRAY8, RGBA, NV12 and GRAY16_LE; one sigma per
 * format (the border is no pipeline constant, the radius is), the unsharp
 * mask with mirror and wrap. */
GST_START_TEST (test_borders_algorithms)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE
  };
  static const gdouble sigmas[] = { 1.0, 2.0, 4.0 };
  static const gdouble amounts[] = { 0.0, 0.8, 0.0, -0.4, 0.0 };
  guint b, a;
  Fx fx;

  fx_init (&fx, 200 + __i__);
  fx_set_caps (&fx, fmts[__i__], MID_W, MID_H);
  for (b = 0; b < REF_BORDER_N; b++) {
    for (a = 0; a < N_ALGORITHMS; a++) {
      fx_set_algorithm (&fx, algorithms[a]);
      fx_blur (&fx, sigmas[__i__ % 3], -1, 0, amounts[b]);
      fx_set_border_rand (&fx, b);
      fx_check (&fx, "border %s algorithm %s", ref_border_nick (b),
          algorithms[a]);
    }
  }
  fail_unless_equals_int (fx.base.n_changed, fx.base.n_frames);
  fx_clear (&fx);
}

GST_END_TEST;

/* sigma 0.5 to 64 (radius 2 to 192: most of them longer than the frame,
 * which the border extension repeats) with every algorithm (auto: up to
 * AUTO_EXACT_MAX_SIGMA, test_auto does the rest), the border rotating; in
 * 8 and 16 bits. */
GST_START_TEST (test_sigmas)
{
  static const gdouble sigmas[] = { 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 64.0 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_GRAY8;
  guint s, a, k = 0;
  Fx fx;

  fx_init (&fx, 300 + __i__);
  fx_set_caps (&fx, fmt, __i__ ? MID_W : 33, __i__ ? MID_H : 17);
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    /* 16 bits: 0.5, 2, 8, 64 */
    if (__i__ && s % 2)
      continue;
    for (a = 0; a < N_ALGORITHMS; a++, k++) {
      /* auto above AUTO_EXACT_MAX_SIGMA: test_auto */
      if (a == 0 && sigmas[s] > AUTO_EXACT_MAX_SIGMA)
        continue;
      fx_set_algorithm (&fx, algorithms[a]);
      fx_blur (&fx, sigmas[s], -1, 0, 0.0);
      fx_set_border_rand (&fx, (k + __i__) % REF_BORDER_N);
      fx_check (&fx, "sigma %g", sigmas[s]);
    }
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* The frame sizes of `sizes` (1x1 and 2x3 far smaller than the kernel)
 * through caps changes of one harness; algorithm, border, sigma rotate. */
GST_START_TEST (test_sizes)
{
  static const gdouble sigmas[] = { 1.0, 2.0, 4.0, 2.0, 1.0, 4.0, 2.0 };
  GstVideoFormat fmt = all_formats[__i__];
  guint s;
  Fx fx;

  fx_init (&fx, 400 + __i__);
  for (s = 0; s < N_SIZES; s++) {
    guint k = s + __i__;

    fx_set_caps (&fx, fmt, sizes[s][0], sizes[s][1]);
    /* recursive: on GRAY8 only (recursivefilter's tests cover its
     * machinery on every size and format) */
    fx_set_algorithm (&fx, rotating_algorithm (k, fmt ==
            GST_VIDEO_FORMAT_GRAY8));
    fx_blur (&fx, sigmas[k % G_N_ELEMENTS (sigmas)], -1, 0,
        k % 3 == 1 ? 1.2 : 0.0);
    fx_set_border_rand (&fx, (k / 2) % REF_BORDER_N);
    fx_check (&fx, "size %dx%d", sizes[s][0], sizes[s][1]);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* sigma-y different from sigma with every algorithm (recursive: x with
 * sigma, y with sigma-y), an explicit radius smaller and larger than sigma
 * would give (on both axes, also with sigma-y), and sigma 0.01 (the
 * identity: its one-sided tap weighs exp(-5000)). */
GST_START_TEST (test_sigma_y_radius)
{
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_I420 : GST_VIDEO_FORMAT_RGBA;
  Mismatch mm;
  guint a;
  Fx fx;

  fx_init (&fx, 500 + __i__);
  fx_set_caps (&fx, fmt, MID_W, MID_H);
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (&fx, algorithms[a]);
    fx_blur (&fx, a % 2 ? 1.0 : 4.0, a % 2 ? 4.0 : 1.0, 0, 0.0);
    fx_set_border_rand (&fx, a % 2 ? REF_BORDER_CONSTANT : REF_BORDER_CLAMP);
    fx_check (&fx, "sigma %g sigma-y %g", fx.ref.sigma, fx.ref.sigma_y);
  }
  fx_set_border (&fx, REF_BORDER_REFLECT, 0.0);
  for (a = __i__ ? 0 : 1; a < (__i__ ? 3u : 2u); a++) {
    /* RGBA: fused; I420: auto, fused, two-pass */
    fx_set_algorithm (&fx, algorithms[a]);
    fx_blur (&fx, 4.0, -1, 1, 0.0);
    fx_check (&fx, "sigma 4 radius 1");
    fx_blur (&fx, 1.0, 2.0, 9, 0.0);
    fx_check (&fx, "sigma 1 sigma-y 2 radius 9");
  }
  fx_set_algorithm (&fx, "recursive");
  fx_set_border (&fx, REF_BORDER_CLAMP, 0.0);
  fx_blur (&fx, 2.0, 3.0, 1, 0.0);
  fx_check (&fx, "recursive ignores radius");

  /* sigma 0.01 is a copy, whatever the algorithm */
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (&fx, algorithms[a]);
    fx_blur (&fx, 0.01, -1, 0, 0.0);
    fail_unless (harness_fx_push_changes (&fx.base, 0, TRUE, &mm) == 0,
        "VKTILE_SEED=%u sigma 0.01 algorithm %s changed %u values (first at "
        "%d,%d: %u for %u)", base_seed, algorithms[a], mm.count, mm.x, mm.y,
        mm.got, mm.want);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* The unsharp mask, positive and negative (-1: the blur itself), with
 * every algorithm, in 8 and 16 bits, on smooth and noisy content. */
GST_START_TEST (test_amount)
{
  static const gdouble amounts[] = { 1.5, -0.5, -1.0, 4.0, 0.3, 25.0 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_GRAY8;
  guint a, m, k = 0;
  Fx fx;

  fx_init (&fx, 600 + __i__);
  fx_set_caps (&fx, fmt, MID_W, MID_H);
  for (m = 0; m < G_N_ELEMENTS (amounts); m++) {
    for (a = 0; a < N_ALGORITHMS; a++, k++) {
      if ((m + a) % 2)
        continue;
      fx_set_algorithm (&fx, algorithms[a]);
      fx_blur (&fx, k % 3 ? 2.0 : 1.0, -1, 0, amounts[m]);
      fx_set_border_rand (&fx, (k / 2) % REF_BORDER_N);
      fx_check (&fx, "amount %g", amounts[m]);
    }
  }
  /* with sigma-y and a moved source ROI: in is the source pixel */
  fx_set_algorithm (&fx, "fused");
  fx_blur (&fx, 1.0, 2.0, 0, 2.0);
  fx_set_roi (&fx, 3, 4, 20, 15, 22, 11);
  fx_check (&fx, "amount 2, moved source ROI");
  fx_set_algorithm (&fx, "recursive");
  fx_blur (&fx, 2.0, 1.0, 0, -0.7);
  fx_set_border_rand (&fx, REF_BORDER_CONSTANT);
  fx_check (&fx, "recursive amount -0.7, sigma-y, moved source ROI");
  fx_clear (&fx);
}

GST_END_TEST;

/* algorithm=recursive is recursivefilter filter=gaussian: byte for byte the
 * same output, with clamp and constant borders, ROIs, planes, formats. */
GST_START_TEST (test_recursive_is_recursivefilter)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
    gdouble sigma;
    gboolean constant;
    gint roi[6];
    guint planes;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, MID_W, MID_H, 2.0, FALSE, {0, 0, 0, 0, -1, -1},
        0xf},
    {GST_VIDEO_FORMAT_RGBA, MID_W, MID_H, 8.0, TRUE, {0, 0, 0, 0, -1, -1},
        0xf},
    {GST_VIDEO_FORMAT_NV12, MID_W, MID_H, 0.7, TRUE, {0, 0, 0, 0, -1, -1},
        0xf},
    {GST_VIDEO_FORMAT_GRAY16_LE, MID_W, MID_H, 40.0, FALSE,
        {0, 0, 0, 0, -1, -1}, 0xf},
    {GST_VIDEO_FORMAT_I420, MID_W, MID_H, 5.0, FALSE, {7, 2, 21, 0, 1, 9},
        0x5},
  };
  GstHarness *hr;
  GstElement *rf;
  guint i;
  Fx fx;

  fx_init (&fx, 700);
  hr = gst_harness_new ("recursivefilter");
  rf = gst_object_ref (hr->element);
  fx_set_algorithm (&fx, "recursive");
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstVideoFrame f1, f2;
    GstBuffer *in, *o1, *o2;
    GstCaps *caps;
    Mismatch mm;
    gdouble bv = g_rand_double (fx.base.rand);
    const gint *q = cases[i].roi;

    fx_set_caps (&fx, cases[i].fmt, cases[i].w, cases[i].h);
    caps = gst_video_info_to_caps (&fx.base.info);
    gst_harness_set_caps (hr, gst_caps_ref (caps), caps);
    fx_blur (&fx, cases[i].sigma, -1, 0, 0.0);
    fx_set_border (&fx, cases[i].constant ? REF_BORDER_CONSTANT :
        REF_BORDER_CLAMP, bv);
    fx_set_roi (&fx, q[0], q[1], q[2], q[3], q[4], q[5]);
    fx_set_planes (&fx, cases[i].planes);
    gst_util_set_object_arg (G_OBJECT (rf), "filter", "gaussian");
    gst_util_set_object_arg (G_OBJECT (rf), "border",
        cases[i].constant ? "constant" : "clamp");
    g_object_set (rf, "sigma", cases[i].sigma, "border-value", bv,
        "roi-x", q[0], "roi-y", q[1], "roi-width", q[2], "roi-height", q[3],
        "source-x", q[4], "source-y", q[5], "planes", cases[i].planes, NULL);

    in = make_frame (&fx.base.info, fx.base.rand, LAYOUT_DEFAULT, CONTENT_ANY);
    o1 = fx_push (&fx, gst_buffer_ref (in));
    fail_unless (gst_harness_push (hr, gst_buffer_ref (in)) == GST_FLOW_OK);
    o2 = gst_harness_pull (hr);
    fail_unless (o2 != NULL);
    fail_unless (gst_video_frame_map (&f1, &fx.base.info, o1, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&f2, &fx.base.info, o2, GST_MAP_READ));
    fail_unless (compare_frames (&f1, &f2, 0, &mm) == 0, "VKTILE_SEED=%u "
        "case %u (%s %dx%d sigma %g %s): gaussblur algorithm=recursive and "
        "recursivefilter differ in %u values; first at x=%d y=%d plane %u: "
        "%u and %u", base_seed, i, GST_VIDEO_INFO_NAME (&fx.base.info),
        cases[i].w, cases[i].h, cases[i].sigma, cases[i].constant ?
        "constant" : "clamp", mm.count, mm.x, mm.y, mm.plane, mm.got,
        mm.want);
    gst_video_frame_unmap (&f1);
    gst_video_frame_unmap (&f2);
    /* and both are the double reference, within 1 */
    verify_output (&fx, in, o1, "recursive vs recursivefilter");
    poison_buffer (o1);
    poison_buffer (o2);
    gst_buffer_unref (o1);
    gst_buffer_unref (o2);
    gst_buffer_unref (in);
  }
  gst_object_unref (rf);
  gst_harness_teardown (hr);
  fx_clear (&fx);
}

GST_END_TEST;

/* Which algorithm=auto ran on a frame: the same frame is pushed again
 * with algorithm=recursive; identical bytes mean recursive (when the
 * settings allow it at all), anything else the exact blur. The auto output
 * is then checked against that definition. */
static gboolean
fx_check_auto (Fx * fx, const gchar * what)
{
  GstBuffer *in, *out, *out2;
  GstVideoFrame f1, f2;
  gboolean recursive;
  Mismatch mm;

  in = make_frame (&fx->base.info, fx->base.rand, LAYOUT_DEFAULT, CONTENT_ANY);
  fx_set_algorithm (fx, "recursive");
  out2 = fx_push (fx, gst_buffer_ref (in));
  fx_set_algorithm (fx, "auto");
  out = fx_push (fx, gst_buffer_ref (in));
  fail_unless (gst_video_frame_map (&f1, &fx->base.info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&f2, &fx->base.info, out2, GST_MAP_READ));
  fx->ref.recursive = TRUE;
  recursive = ref_gauss_is_recursive (&fx->ref)
      && compare_frames (&f1, &f2, 0, &mm) == 0;
  gst_video_frame_unmap (&f1);
  gst_video_frame_unmap (&f2);
  fx->auto_recursive = recursive;
  verify_output (fx, in, out, what);
  fx->auto_recursive = FALSE;
  poison_buffer (out2);
  poison_buffer (out);
  gst_buffer_unref (out2);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  return recursive;
}

/* algorithm=auto: the exact blur at small sigmas, the recursive
 * Gaussian above a threshold (clamp and constant borders, radius 0), and
 * never back once switched, up to sigma 256; with an explicit radius it
 * stays exact (the radius asks for that truncation); with mirror or wrap
 * it is exact (recursive cannot run them). Each output is checked against
 * the definition that auto chose (fx_check_auto). */
GST_START_TEST (test_auto)
{
  static const gdouble sigmas[] = { 1.0, 4.0, 8.0, 12.0, 16.0, 20.0, 24.0,
    32.0, 48.0, 64.0, 256.0
  };
  static const struct
  {
    gdouble sigma, sigma_y;
    guint radius;
    RefBorder border;
  } others[] = {
    {40.0, -1, 50, REF_BORDER_CLAMP},   /* exact */
    {256.0, -1, 20, REF_BORDER_CONSTANT},       /* exact */
    {40.0, -1, 0, REF_BORDER_MIRROR},   /* exact */
    {64.0, -1, 0, REF_BORDER_WRAP},     /* exact */
    {40.0, 2.0, 0, REF_BORDER_CONSTANT},        /* either */
    {2.0, 64.0, 0, REF_BORDER_CLAMP},   /* either */
    {64.0, 48.0, 0, REF_BORDER_CLAMP},  /* either */
  };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_GRAY8;
  RefBorder border = __i__ ? REF_BORDER_CONSTANT : REF_BORDER_CLAMP;
  gdouble first = 0.0;
  gboolean rec;
  guint i;
  Fx fx;

  fx_init (&fx, 1800 + __i__);
  fx_set_caps (&fx, fmt, MID_W, MID_H);
  for (i = 0; i < G_N_ELEMENTS (sigmas); i++) {
    fx_blur (&fx, sigmas[i], -1, 0, 0.0);
    fx_set_border_rand (&fx, border);
    rec = fx_check_auto (&fx, "auto");
    if (g_getenv ("VKTILE_GAUSS_STATS"))
      g_printerr ("auto, sigma %g %s: %s\n", sigmas[i],
          ref_border_nick (border), rec ? "recursive" : "exact");
    fail_if (rec && sigmas[i] <= AUTO_EXACT_MAX_SIGMA, "auto runs the "
        "recursive approximation at sigma %g", sigmas[i]);
    fail_if (!rec && first > 0.0, "auto runs the exact blur at sigma %g, "
        "after the recursive Gaussian at sigma %g", sigmas[i], first);
    if (rec && first == 0.0)
        first = sigmas[i];
  }
  fail_unless (first > 0.0, "auto never ran the recursive Gaussian, up to "
      "sigma 256 with %s (it should, above a sigma threshold)",
      ref_border_nick (border));

  for (i = 0; i < G_N_ELEMENTS (others); i++) {
    fx_blur (&fx, others[i].sigma, others[i].sigma_y, others[i].radius,
        i == 1 ? -0.4 : 0.0);
    fx_set_border_rand (&fx, others[i].border);
    rec = fx_check_auto (&fx, "auto, other case");
    fail_if (rec && others[i].radius > 0, "auto ran the recursive "
        "Gaussian with radius %u", others[i].radius);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Frames smaller than the kernel (the elements take frames of any size,
 * including frames smaller than the kernel): every border on 1x1, 2x3 and
 * 5x7 with radii up to 192, where the extension repeats the frame many
 * times. */
GST_START_TEST (test_smaller_than_kernel)
{
  static const gint dims[][2] = { {1, 1}, {2, 3}, {5, 7} };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_I420 : GST_VIDEO_FORMAT_RGBA;
  guint d, b, k = 0;
  Fx fx;

  fx_init (&fx, 1900 + __i__);
  for (d = 0; d < G_N_ELEMENTS (dims); d++) {
    fx_set_caps (&fx, fmt, dims[d][0], dims[d][1]);
    for (b = 0; b < REF_BORDER_N; b++, k++) {
      fx_set_algorithm (&fx, k % 2 ? "two-pass" : "fused");
      fx_blur (&fx, k % 3 == 2 ? 64.0 : 4.0, -1, 0, 0.0);
      fx_set_border_rand (&fx, b);
      fx_check (&fx, "%dx%d border %s", dims[d][0], dims[d][1],
          ref_border_nick (b));
    }
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* ROIs on a frame of many tiles, whose edges cut through tiles. */
GST_START_TEST (test_roi_large)
{
  static const gchar *algos[] = { "fused", "two-pass", "auto", "fused" };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_GRAY8;
  guint r;
  Fx fx;

  fx_init (&fx, 2000 + __i__);
  fx_set_caps (&fx, fmt, ROI_LARGE_W, ROI_LARGE_H);
  for (r = 0; r < n_roi_large_cases; r++) {
    guint k = r + __i__;

    fx_set_roi_case (&fx, roi_large_cases[r]);
    fx_set_algorithm (&fx, algos[r]);
    fx_blur (&fx, k % 2 ? 4.0 : 2.0, k % 3 == 1 ? 1.0 : -1, 0,
        k % 2 ? 0.0 : -0.3);
    fx_set_border_rand (&fx, r == 3 ? (k % 2 ? REF_BORDER_CONSTANT :
            REF_BORDER_CLAMP) : (r + 2 * __i__) % REF_BORDER_N);
    fx_check (&fx, "large frame, roi #%u", r);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Target and source ROIs: inside, moved, odd offsets, clipped, 1 pixel
 * wide/high/both, to the edge, outside (a copy), overlapping; algorithms,
 * borders and the unsharp mask rotate. */
GST_START_TEST (test_roi)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420
  };
  guint r;
  Fx fx;

  fx_init (&fx, 800 + __i__);
  fx_set_caps (&fx, fmts[__i__], ROI_SMALL_W, ROI_SMALL_H);
  for (r = 0; r < n_roi_small_gaussblur; r++) {
    guint k = r + __i__;

    fx_set_roi_case (&fx, roi_small_cases[roi_small_gaussblur[r]]);
    fx_set_algorithm (&fx, rotating_algorithm (k, __i__ == 0));
    fx_blur (&fx, k % 3 ? 2.0 : 1.0, k % 5 == 2 ? 4.0 : -1, 0,
        k % 4 == 1 ? 1.3 : 0.0);
    fx_set_border_rand (&fx, (k / 2) % REF_BORDER_N);
    fx_check (&fx, "roi #%u", r);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* roi-meta and roi-padding, the privacy blur: a large sigma in small
 * regions of the listed types, overlapping, clipped, a pixel wide and
 * outside the frame; a frame without metas passes unchanged; another list
 * of types, and off again (the roi-* properties apply). */
GST_START_TEST (test_roi_meta)
{
  static const gchar *const listed[] = { "face", "license-plate", NULL };
  static const gchar *const person[] = { "person", NULL };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBA
  };
  static const gchar *algos[] = { "fused", "two-pass", "recursive" };
  static const RefBorder borders[] = { REF_BORDER_MIRROR, REF_BORDER_WRAP,
    REF_BORDER_CLAMP
  };
  Fx fx;

  fx_init (&fx, 2100 + __i__);
  fx_set_caps (&fx, fmts[__i__], ROI_META_W, ROI_META_H);
  fx_set_algorithm (&fx, algos[__i__]);
  fx_blur (&fx, 9.0, -1, 0, 0.0);
  fx_set_border_rand (&fx, borders[__i__]);
  g_object_set (fx.base.el, "roi-meta", " face , license-plate", "roi-padding",
      2, NULL);
  harness_fx_check_roi_meta (&fx.base, n_roi_meta_regions, listed, 2,
      "roi-meta face,license-plate");
  harness_fx_check_roi_meta (&fx.base, 0, listed, 2,
      "a frame without metas");
  g_object_set (fx.base.el, "roi-meta", "person", "roi-padding", 0, NULL);
  harness_fx_check_roi_meta (&fx.base, n_roi_meta_regions, person, 0,
      "roi-meta person");

  /* Off: the whole frame (the roi-* properties) again. */
  g_object_set (fx.base.el, "roi-meta", "", NULL);
  fx_check (&fx, "roi-meta off");
  fx_clear (&fx);
}

GST_END_TEST;

/* `planes` selects components; the others (and RGBx's x) are copied. */
GST_START_TEST (test_planes)
{
  guint i;
  Fx fx;

  fx_init (&fx, 900);
  for (i = 0; i < n_planes_cases; i++) {
    fx_set_caps (&fx, planes_cases[i].fmt, MID_W, MID_H);
    fx_set_planes (&fx, planes_cases[i].planes);
    fx_set_algorithm (&fx, rotating_algorithm (i, i == 3));
    fx_blur (&fx, i % 2 ? 1.0 : 2.0, -1, 0, i % 3 == 2 ? 0.9 : 0.0);
    fx_set_border_rand (&fx, i % REF_BORDER_N);
    fx_check (&fx, "planes case %u", i);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Size and format changes mid-stream keep producing correct output. */
GST_START_TEST (test_caps_change)
{
  Fx fx;

  fx_init (&fx, 1400);
  fx_set_algorithm (&fx, "fused");
  fx_blur (&fx, 2.0, 1.0, 0, 0.5);
  fx_set_border_rand (&fx, REF_BORDER_CONSTANT);
  harness_fx_check_caps_changes (&fx.base);
  fx_clear (&fx);
}

GST_END_TEST;

/* Identical inputs give identical outputs. */
GST_START_TEST (test_deterministic)
{
  Fx fx;

  fx_init (&fx, 1500 + __i__);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_NV12, MID_W, MID_H);
  fx_set_algorithm (&fx, algorithms[__i__]);
  fx_blur (&fx, 2.0, -1, 0, 0.6);
  harness_fx_check_deterministic (&fx.base);
  fx_clear (&fx);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* memory and meta */

/* Input buffers whose GstVideoMeta gives padded strides and moved planes
 * (4-aligned, then odd), buffers from the pool the element proposes, and
 * plain ones again: system memory in and out. */
GST_START_TEST (test_padded_input)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_NV12
  };
  static const Layout layouts[] = { LAYOUT_PADDED, LAYOUT_ODD,
    LAYOUT_PROPOSED_POOL, LAYOUT_DEFAULT
  };
  static const gchar *names[] = { "padded strides (4-aligned)",
    "padded strides (odd)", "the proposed pool", "default strides"
  };
  GstVideoFormat fmt = fmts[__i__];
  guint l;
  Fx fx;

  fx_init (&fx, 1000 + __i__);
  fx_set_caps (&fx, fmt, 33, 17);
  for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
    guint k = l + __i__;

    fx_set_algorithm (&fx, rotating_algorithm (k, __i__ == 3));
    fx_blur (&fx, k % 2 ? 1.0 : 2.0, -1, 0, k % 3 == 0 ? 0.8 : 0.0);
    fx_set_border_rand (&fx, k % REF_BORDER_N);
    fx_check_frame (&fx, layouts[l], names[l]);
  }
  if (fx.base.pool)
    check_pool_holds_vulkan (fx.base.pool, &fx.base.info);
  fx_clear (&fx);
}

GST_END_TEST;

/* One step of test_vulkan_buffer_chain: a fused, b two-pass with mirror;
 * then a recursive with constant, b fused with sigma-y and wrap. */
static gconstpointer
chain_step (HarnessFx * base, GstElement * b, guint i)
{
  Fx *fx = FX (base);

  ref_gauss_init (&fx->ref_b);
  if (i == 0) {
    fx_set_algorithm (fx, "fused");
    fx_blur (fx, 2.0, -1, 0, 0.0);
    set_properties (b, "algorithm=two-pass border=mirror sigma=1");
    fx->ref_b.sigma = 1.0;
    fx->ref_b.common.border = REF_BORDER_MIRROR;
  } else {
    fx_set_algorithm (fx, "recursive");
    fx_blur (fx, 3.0, -1, 0, 0.0);
    fx_set_border_rand (fx, REF_BORDER_CONSTANT);
    set_properties (b, "algorithm=fused border=wrap sigma=1 sigma-y=2");
    fx->ref_b.sigma = 1.0;
    fx->ref_b.sigma_y = 2.0;
    fx->ref_b.common.border = REF_BORDER_WRAP;
  }
  fx_sync_algorithm (fx);
  return &fx->ref_b;
}

/* gaussblur ! video/x-raw(memory:VulkanBuffer) ! gaussblur, system memory
 * at both ends: the output is the two references in a row (tolerance 2:
 * the first stage's +-1 passes through the second, whose kernel is
 * positive with unit gain), the frame stays in Vulkan buffers in between,
 * and carries one meta per element. */
GST_START_TEST (test_vulkan_buffer_chain)
{
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_RGBA;
  gchar *launch = harness_chain_launch (ELEMENT, fmt);
  Fx fx;

  fx_init_full (&fx, launch, "a", 1700 + __i__);
  harness_fx_check_chain (&fx.base, fmt, MID_W, MID_H, 2, chain_step,
      ref_gauss_apply, &fx.ref, NULL, NULL);
  fx_clear (&fx);
  g_free (launch);
}

GST_END_TEST;

/* One meta per buffer, named after the element, frame_index counting up,
 * dispatches for every algorithm; fused: one dispatch per plane that has a
 * filtered component ("Fusing Convolution Kernels through Tiling": one dispatch); two-pass: at least two. The
 * meta survives a copy. */
GST_START_TEST (test_timing_meta)
{
  static const struct
  {
    GstVideoFormat fmt;
    guint planes;
    guint active;               /* planes with a filtered component */
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 0xf, 1},
    {GST_VIDEO_FORMAT_RGBA, 0xf, 1},
    {GST_VIDEO_FORMAT_RGBA, 0x2, 1},
    {GST_VIDEO_FORMAT_NV12, 0xf, 2},
    {GST_VIDEO_FORMAT_I420, 0xf, 3},
    {GST_VIDEO_FORMAT_I420, 0x1, 1},
    {GST_VIDEO_FORMAT_I420, 0x6, 2},
  };
  gchar *name;
  guint i, a, frame = 0;
  Fx fx;

  fx_init (&fx, 1600);
  name = gst_element_get_name (fx.base.el);
  fail_unless (g_str_has_prefix (name, ELEMENT), "element named %s", name);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    fx_set_caps (&fx, cases[i].fmt, MID_W, MID_H);
    fx_set_planes (&fx, cases[i].planes);
    for (a = 0; a < N_ALGORITHMS; a++) {
      GstVkTileTimingMeta *m;
      GstBuffer *out;

      if (i > 0 && a != 1 && (i + a) % 3)
        continue;               /* fused on every case, the others on some */
      fx_set_algorithm (&fx, algorithms[a]);
      out = harness_fx_push_timed (&fx.base, name, frame++, &m);
      if (a == 1)
        fail_unless (m->dispatches == cases[i].active, "fused, %s planes "
            "0x%x: %u dispatches, want one per filtered plane (%u)",
            gst_video_format_to_string (cases[i].fmt), cases[i].planes,
            m->dispatches, cases[i].active);
      if (a == 2)
        fail_unless (m->dispatches >= 2, "two-pass: %u dispatches",
            m->dispatches);
      gst_buffer_unref (out);
    }
  }
  g_free (name);
  fx_clear (&fx);
}

GST_END_TEST;

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
  SUITE_LOOP_TEST (test_formats, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_borders_algorithms, 4),
  SUITE_LOOP_TEST (test_sigmas, 2),
  SUITE_LOOP_TEST (test_sizes, N_FORMATS),
  SUITE_LOOP_TEST (test_sigma_y_radius, 2),
  SUITE_LOOP_TEST (test_amount, 2),
  SUITE_TEST (test_recursive_is_recursivefilter),
  SUITE_LOOP_TEST (test_auto, 2),
  SUITE_LOOP_TEST (test_smaller_than_kernel, 2),
  SUITE_LOOP_TEST (test_roi, 3),
  SUITE_LOOP_TEST (test_roi_large, 2),
  SUITE_LOOP_TEST (test_roi_meta, 3),
  SUITE_TEST (test_planes),
  SUITE_TEST (test_caps_change),
  SUITE_LOOP_TEST (test_deterministic, N_ALGORITHMS),

  SUITE_CASE ("memory"),
  SUITE_LOOP_TEST (test_padded_input, 5),
  SUITE_LOOP_TEST (test_vulkan_buffer_chain, 2),
  SUITE_TEST (test_timing_meta),
};

SUITE_MAIN ("gaussblur", gaussblur_tests, &base_seed, NULL);
