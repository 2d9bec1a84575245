/* vktile tests — recursivefilter against the CPU reference (reference_iir.c).
 *
 * Owns the GstCheck/GstHarness tests of the recursivefilter element (the
 * reference's own tests are test_references.c's):
 *
 * - the element against the reference on random frames (tolerance 1 code
 *   value): every filter, direction, axes,
 *   algorithm, tile size (small ones so that frames span many tiles), border
 *   (clamp, constant), format, frame size, ROI, plane mask, input layout;
 * - the temporal filter (recursion across frames, resets on flush, discont,
 *   caps change and restart);
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
#include "harness.h"
#include "reference_iir.h"

#define ELEMENT "recursivefilter"
#define TOL 1

static guint32 base_seed;


/* the formats that get every filter/direction/axes/algorithm */
static const GstVideoFormat matrix_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12,
};

/* The frame sizes the tests cover. */
static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {5, 7}, {33, 17}, {127, 65}, {257, 130},
};

/* 0: automatic; 16 and 32 cut the small frames into many tiles; 4096: one
 * tile per line. */
static const guint tile_sizes[] = { 0, 16, 32, 4096 };

/* One harness around recursivefilter (or a launch line holding one), the
 * reference's mirror of its properties, the reference's temporal state and
 * the random stream. */
typedef struct
{
  GstHarness *h;
  GstElement *el;               /* the recursivefilter that ref mirrors */
  GstVideoInfo info;
  gboolean have_caps;
  RefIir ref;
  RefIirTemporal temporal;
  const gchar *algorithm;
  guint tile_size;
  GRand *rand;
  guint32 seed;
  guint n_frames;
  guint n_changed;              /* frames whose output differs from input */
  guint64 pts;
  GstBufferPool *pool;          /* LAYOUT_PROPOSED_POOL */
  guint n_elements;             /* vktile elements in h: timing metas */
} Fx;

/* ------------------------------------------------------------------------ */
/* helpers */

static void
require_element (void)
{
  require_element_named (ELEMENT);
}

static void
fx_init_full (Fx * fx, const gchar * launch, const gchar * name, guint salt)
{
  memset (fx, 0, sizeof (*fx));
  fx->seed = harness_fx_open (ELEMENT, launch, name, base_seed, salt, &fx->h,
      &fx->el, &fx->rand);
  ref_iir_init (&fx->ref);
  ref_iir_temporal_init (&fx->temporal);
  fx->algorithm = "tiled";
  fx->n_elements = 1;
}

static void
fx_init (Fx * fx, guint salt)
{
  fx_init_full (fx, NULL, NULL, salt);
}

static void
fx_clear (Fx * fx)
{
  harness_fx_close (fx->h, fx->el, fx->rand, &fx->pool);
  ref_iir_temporal_clear (&fx->temporal);
}

/* A caps change (other format or size) restarts the temporal recursion. */
static void
fx_set_caps (Fx * fx, GstVideoFormat format, gint width, gint height)
{
  GstVideoInfo old = fx->info;

  harness_set_video_caps (fx->h, &fx->pool, &fx->info, format, width,
      height);
  if (!fx->have_caps || !gst_video_info_is_equal (&old, &fx->info))
    ref_iir_temporal_reset (&fx->temporal);
  fx->have_caps = TRUE;
}

/* ---- the element's properties, mirrored in fx->ref ---- */

static void
fx_gaussian (Fx * fx, gdouble sigma)
{
  gst_util_set_object_arg (G_OBJECT (fx->el), "filter", "gaussian");
  g_object_set (fx->el, "sigma", sigma, NULL);
  fx->ref.filter = REF_IIR_GAUSSIAN;
  fx->ref.sigma = sigma;
}

/* alpha < 0: derived from sigma */
static void
fx_exponential (Fx * fx, gdouble alpha, gdouble sigma, RefIirDirection d)
{
  gst_util_set_object_arg (G_OBJECT (fx->el), "filter", "exponential");
  g_object_set (fx->el, "alpha", alpha, "sigma", sigma, NULL);
  gst_util_set_object_arg (G_OBJECT (fx->el), "direction",
      ref_iir_direction_nick (d));
  fx->ref.filter = REF_IIR_EXPONENTIAL;
  fx->ref.alpha = alpha;
  fx->ref.sigma = sigma;
  fx->ref.direction = d;
}

static void
fx_box (Fx * fx, guint radius, guint iterations)
{
  gst_util_set_object_arg (G_OBJECT (fx->el), "filter", "box");
  g_object_set (fx->el, "radius", radius, "iterations", iterations, NULL);
  fx->ref.filter = REF_IIR_BOX;
  fx->ref.radius = radius;
  fx->ref.iterations = iterations;
}

static void
fx_custom (Fx * fx, gdouble b0, const gdouble * a, guint k, RefIirDirection d)
{
  gst_util_set_object_arg (G_OBJECT (fx->el), "filter", "custom");
  g_object_set (fx->el, "feedforward", b0, NULL);
  set_double_array (fx->el, "feedback", a, k);
  gst_util_set_object_arg (G_OBJECT (fx->el), "direction",
      ref_iir_direction_nick (d));
  fx->ref.filter = REF_IIR_CUSTOM;
  fx->ref.feedforward = b0;
  memcpy (fx->ref.feedback, a, k * sizeof (gdouble));
  fx->ref.n_feedback = k;
  fx->ref.direction = d;
}

static void
fx_random_custom (Fx * fx, guint k, RefIirDirection d)
{
  gdouble b0, a[REF_IIR_MAX_ORDER];

  ref_iir_random_custom (fx->rand, k, &b0, a);
  fx_custom (fx, b0, a, k, d);
}

static void
fx_set_axes (Fx * fx, RefIirAxes axes)
{
  gst_util_set_object_arg (G_OBJECT (fx->el), "axes", ref_iir_axes_nick (axes));
  fx->ref.axes = axes;
}

static void
fx_set_algorithm (Fx * fx, const gchar * nick, guint tile_size)
{
  gst_util_set_object_arg (G_OBJECT (fx->el), "algorithm", nick);
  g_object_set (fx->el, "tile-size", tile_size, NULL);
  fx->algorithm = nick;
  fx->tile_size = tile_size;
}

static void
fx_set_border (Fx * fx, RefBorder b, gdouble value)
{
  g_assert (b == REF_BORDER_CLAMP || b == REF_BORDER_CONSTANT);
  harness_set_border (fx->el, &fx->ref.common, b, value);
}

/* constant (with a random value) when `constant`, else clamp */
static void
fx_set_border_rand (Fx * fx, gboolean constant)
{
  fx_set_border (fx, constant ? REF_BORDER_CONSTANT : REF_BORDER_CLAMP,
      g_rand_double (fx->rand));
}

static void
fx_set_roi (Fx * fx, gint x, gint y, gint w, gint h, gint sx, gint sy)
{
  harness_set_roi (fx->el, &fx->ref.common, x, y, w, h, sx, sy);
}

static void
fx_set_planes (Fx * fx, guint planes)
{
  harness_set_planes (fx->el, &fx->ref.common, planes);
}

static void
fx_set_temporal (Fx * fx, gdouble a)
{
  /* Switched on, the recursion starts from the next frame. */
  if (fx->ref.temporal_alpha == 0.0 && a > 0.0)
    ref_iir_temporal_reset (&fx->temporal);
  g_object_set (fx->el, "temporal-alpha", a, NULL);
  fx->ref.temporal_alpha = a;
}

/* temporal-mode=motion-adaptive with this noise-sigma; 0: fixed; < 0:
 * motion-adaptive with noise-sigma 0 (estimated). */
static void
fx_set_motion_adaptive (Fx * fx, gdouble noise_sigma)
{
  gst_util_set_object_arg (G_OBJECT (fx->el), "temporal-mode",
      noise_sigma != 0.0 ? "motion-adaptive" : "fixed");
  if (noise_sigma != 0.0)
    g_object_set (fx->el, "noise-sigma", MAX (noise_sigma, 0.0), NULL);
  fx->ref.noise_sigma = MAX (noise_sigma, 0.0);
  fx->ref.noise_auto = noise_sigma < 0.0;
  fx->ref.keep_detail = TRUE;   /* the element's default */
}

/* The element's defaults again (filter, direction, axes, algorithm,
 * border): a test that runs several formats through one harness starts
 * each of them from there. */
static void
fx_defaults (Fx * fx)
{
  fx_set_algorithm (fx, "tiled", 0);
  fx_set_border (fx, REF_BORDER_CLAMP, 0.0);
  fx_set_axes (fx, REF_IIR_AXES_XY);
  gst_util_set_object_arg (G_OBJECT (fx->el), "direction", "both");
  fx->ref.direction = REF_IIR_BOTH;
  fx_gaussian (fx, 2.0);
}

/* ---- frames ---- */

/* Checks out == the reference of fx (with its temporal state, which this
 * advances) applied to in; tolerance TOL. */
static void
verify_output (Fx * fx, GstBuffer * in, GstBuffer * out, const gchar * what)
{
  GstVideoFrame fin, fout, fref, fdown;
  GstBuffer *refbuf, *downbuf;
  RefIirTemporal before;
  RefIir down;
  Mismatch mm, same;
  guint n_values, off;

  fail_unless (gst_video_frame_map (&fin, &fx->info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &fx->info, out, GST_MAP_READ),
      "cannot map the output buffer as %s %dx%d",
      GST_VIDEO_INFO_NAME (&fx->info), GST_VIDEO_INFO_WIDTH (&fx->info),
      GST_VIDEO_INFO_HEIGHT (&fx->info));

  ref_iir_temporal_init (&before);
  ref_iir_temporal_copy (&before, &fx->temporal);
  refbuf = new_frame_buffer (&fx->info, &fref);
  ref_iir_frame (&fin, &fref, &fx->ref, &fx->temporal);

  if (compare_frames (&fout, &fref, TOL, &mm) > 0) {
    gchar *desc = ref_iir_describe (&fx->ref);
    guint input = mm.comp < 100 ? ref_comp_get (&fin, mm.comp, mm.x, mm.y) : 0;

    fail ("VKTILE_SEED=%u (test seed %u) %s: format %s %dx%d algorithm %s "
        "tile-size %u, %s: %u values off by more than %u; first at x=%d y=%d "
        "plane %u %s %u: got %u want %u (input %u)", base_seed, fx->seed,
        what, GST_VIDEO_INFO_NAME (&fx->info), GST_VIDEO_INFO_WIDTH (&fx->info),
        GST_VIDEO_INFO_HEIGHT (&fx->info), fx->algorithm, fx->tile_size, desc,
        mm.count, TOL, mm.x, mm.y, mm.plane, mm.comp < 100 ? "component" :
        "padding byte", mm.comp < 100 ? mm.comp : mm.comp - 100, mm.got,
        mm.want, input);
    g_free (desc);
  }

  /* Rounding to nearest: the tolerance of 1 would also pass truncation,
   * which moves about half of the values; fp32 noise in a recursion moves
   * only those near a .5 boundary. Exact ties may go either way. The bound
   * is loose (a quarter) because long recursions in fp32 carry more noise
   * than a 7x7 convolution does; and only 8-bit values count: at 16 bits,
   * fp32 noise over long supports (a box of radius 300, sigma 128) is a
   * good part of a code value, and only the tolerance applies. */
  down = fx->ref;
  down.common.ties_down = TRUE;
  downbuf = new_frame_buffer (&fx->info, &fdown);
  ref_iir_frame (&fin, &fdown, &down, &before);
  off = count_rounding_off (&fout, &fref, &fdown, 8, what, &n_values);
  fail_unless (off <= MAX (8, n_values / 4), "VKTILE_SEED=%u %s: format "
      "%s %dx%d algorithm %s: %u of %u values differ by 1 from the "
      "reference: not rounded to nearest?", base_seed, what,
      GST_VIDEO_INFO_NAME (&fx->info), GST_VIDEO_INFO_WIDTH (&fx->info),
      GST_VIDEO_INFO_HEIGHT (&fx->info), fx->algorithm, off, n_values);

  if (compare_frames (&fout, &fin, 0, &same) > 0)
    fx->n_changed++;
  fx->n_frames++;

  ref_iir_temporal_clear (&before);
  free_frame_buffer (downbuf, &fdown);
  free_frame_buffer (refbuf, &fref);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
}

/* ref_iir_frame () for check_chain_output() and
 * check_toggled_while_streaming(). */
static void
ref_iir_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref)
{
  ref_iir_frame (in, out, ref, NULL);
}

/* Pushes one frame through the harness; returns the output (owned). */
static GstBuffer *
fx_push (Fx * fx, GstBuffer * in)
{
  return harness_push_frame (fx->h, in, &fx->pts, &fx->info, fx->algorithm);
}

/* VKTILE_TRACE=1: each frame's settings before it is pushed (a crash
 * inside the driver leaves no other trace of what was running). */
static void
fx_trace (Fx * fx, Layout layout, const gchar * what)
{
  gchar *desc;

  if (!g_getenv ("VKTILE_TRACE"))
    return;
  desc = ref_iir_describe (&fx->ref);
  g_printerr ("[trace] %s: %s %dx%d layout %d algorithm %s tile-size %u, "
      "%s\n", what, GST_VIDEO_INFO_NAME (&fx->info),
      GST_VIDEO_INFO_WIDTH (&fx->info), GST_VIDEO_INFO_HEIGHT (&fx->info),
      layout, fx->algorithm, fx->tile_size, desc);
  g_free (desc);
}

/* One frame (with the given flags) through the element, checked against
 * the reference; every output buffer carries one timing meta. */
static void
fx_check_frame_full (Fx * fx, Layout layout, Content content,
    GstBufferFlags flags, const gchar * what)
{
  GstBuffer *in = make_test_frame (fx->h, &fx->info, &fx->pool, fx->rand,
      layout, content);
  GstBuffer *out;
  gint64 t0, t1;

  GST_BUFFER_FLAG_SET (in, flags);
  fx_trace (fx, layout, what);
  t0 = g_get_monotonic_time ();
  out = fx_push (fx, gst_buffer_ref (in));
  t1 = g_get_monotonic_time ();
  verify_output (fx, in, out, what);
  harness_trace_times (t0, t1);
  fail_unless (count_metas (out) == fx->n_elements, "%s: %u timing metas "
      "on an output buffer, want %u", what, count_metas (out),
      fx->n_elements);
  poison_buffer (out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

static void
fx_check_frame (Fx * fx, Layout layout, const gchar * what)
{
  fx_check_frame_full (fx, layout, CONTENT_ANY, 0, what);
}

/* A random frame through the element; `what` (taken) names it. */
static void
fx_check_what (Fx * fx, gchar * what)
{
  fx_check_frame (fx, LAYOUT_DEFAULT, what);
  g_free (what);
}

/* printf-style `what` */
#define fx_check(fx, ...) fx_check_what (fx, g_strdup_printf (__VA_ARGS__))

/* FLUSH_START, FLUSH_STOP and a new segment: the temporal recursion
 * restarts. */
static void
fx_flush (Fx * fx)
{
  harness_flush_restart (fx->h, &fx->pts);
  ref_iir_temporal_reset (&fx->temporal);
}

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
  GstElement *el;
  GObjectClass *klass;
  GParamSpec *pspec;
  gdouble fb[8], d;
  guint n;

  require_element ();
  el = gst_element_factory_make (ELEMENT, NULL);
  klass = G_OBJECT_GET_CLASS (el);

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

  /* the base class's properties, as for tiledconv */
  check_base_class_specs (klass);

  /* what makes sense to animate is controllable */
  check_controllable (klass, animated);

  check_blurbs (klass, own);

  gst_object_unref (el);
}

GST_END_TEST;

/* Both pads take every supported format, in system memory and in
 * VulkanBuffer memory. */
GST_START_TEST (test_pad_templates)
{
  require_element ();
  check_pad_templates (ELEMENT, all_formats, N_FORMATS);
}

GST_END_TEST;

/* Out-of-range numbers are refused by the GParamSpec (GLib warns) and the
 * property keeps its value. */
GST_START_TEST (test_property_out_of_range)
{
  GstElement *el;
  gdouble d;
  guint u;

  require_element ();
  el = gst_element_factory_make (ELEMENT, NULL);

  g_object_set (el, "sigma", 3.5, "alpha", 0.25, "temporal-alpha", 0.5,
      "radius", 7u, "iterations", 2u, "tile-size", 64u, NULL);
  ASSERT_WARNING (g_object_set (el, "sigma", 0.4, NULL));
  ASSERT_WARNING (g_object_set (el, "sigma", 2049.0, NULL));
  g_object_get (el, "sigma", &d, NULL);
  fail_unless (d == 3.5, "sigma changed to %g", d);
  ASSERT_WARNING (g_object_set (el, "alpha", 1.0, NULL));
  ASSERT_WARNING (g_object_set (el, "alpha", -1.5, NULL));
  g_object_get (el, "alpha", &d, NULL);
  fail_unless (d == 0.25, "alpha changed to %g", d);
  ASSERT_WARNING (g_object_set (el, "temporal-alpha", 1.0, NULL));
  ASSERT_WARNING (g_object_set (el, "temporal-alpha", -0.1, NULL));
  g_object_get (el, "temporal-alpha", &d, NULL);
  fail_unless (d == 0.5, "temporal-alpha changed to %g", d);
  ASSERT_WARNING (g_object_set (el, "radius", 2049u, NULL));
  g_object_get (el, "radius", &u, NULL);
  fail_unless_equals_int (u, 7);
  ASSERT_WARNING (g_object_set (el, "iterations", 0u, NULL));
  ASSERT_WARNING (g_object_set (el, "iterations", 4u, NULL));
  g_object_get (el, "iterations", &u, NULL);
  fail_unless_equals_int (u, 2);
  ASSERT_WARNING (g_object_set (el, "tile-size", 16385u, NULL));
  g_object_get (el, "tile-size", &u, NULL);
  fail_unless_equals_int (u, 64);
  gst_object_unref (el);
}

GST_END_TEST;

/* A g_warning that names the property, caught through GstCheck's log
 * filter (domain NULL: the plugin defines no G_LOG_DOMAIN), or a
 * GST_MESSAGE_WARNING naming it on the element's bus: either counts. */
static gboolean
count_named_warning (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer data)
{
  (*(guint *) data)++;
  return TRUE;                  /* handled: not a test failure */
}

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
      G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_MESSAGE, re, count_named_warning,
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
GST_START_TEST (test_refused_border)
{
  static const gchar *bad[] = { "mirror", "reflect", "wrap" };
  GParamSpec *pspec;
  GEnumClass *values;
  guint i;
  Fx fx;

  fx_init (&fx, 2300);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (fx.el), "border");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec));
  values = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  fail_unless_equals_int (values->n_values, 2);
  fail_unless (g_enum_get_value_by_nick (values, "clamp")
      && g_enum_get_value_by_nick (values, "constant"));
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 29, 17);
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
    gst_util_set_object_arg (G_OBJECT (fx.el), "border", bad[i]);
    fail_unless_equals_string (get_enum_nick (fx.el, "border"), "clamp");
  }
  fx_check (&fx, "clamp after refused borders");
  fx_set_border (&fx, REF_BORDER_CONSTANT, 0.8);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gst_util_set_object_arg (G_OBJECT (fx.el), "border", bad[i]);
    fail_unless_equals_string (get_enum_nick (fx.el, "border"), "constant");
  }
  fx_check (&fx, "constant after refused borders");
  fx_clear (&fx);
}

GST_END_TEST;

/* feedback: 1 to 4 numbers, a stable recursion (every root of
 * z^k - a1 z^(k-1) - ... - ak inside the unit circle). Others are refused
 * with a warning naming the property; the old value stays, in the property
 * and in the output. Stable values are accepted as given. */
GST_START_TEST (test_refused_feedback)
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
  Fx fx;

  fx_init (&fx, 2400);
  gst_element_set_bus (fx.el, bus);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 37, 21);
  ref_iir_feedback_from_poles (poles, 3, third);

  /* stable ones of every order are accepted and read back */
  for (k = 1; k <= 4; k++) {
    ref_iir_random_custom (fx.rand, k, &b0, keep);
    set_double_array (fx.el, "feedback", keep, k);
    n = get_double_array (fx.el, "feedback", got, G_N_ELEMENTS (got));
    fail_unless_equals_int (n, k);
    for (i = 0; i < k; i++)
      fail_unless (got[i] == keep[i], "feedback[%u] reads %g, set %g", i,
          got[i], keep[i]);
  }
  set_double_array (fx.el, "feedback", double_pole, 2);
  n = get_double_array (fx.el, "feedback", got, G_N_ELEMENTS (got));
  fail_unless (n == 2 && got[0] == 1.9 && got[1] == -0.9025, "a double pole "
      "at 0.95 was refused");

  fx_random_custom (&fx, 3, REF_IIR_BOTH);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *what = g_strdup_printf ("unstable or malformed feedback #%u", i);

    arr = bad[i];
    if (!arr.v)
      arr.v = third;
    expect_refused (fx.el, bus, "feedback", set_feedback,
        &arr, what);
    n = get_double_array (fx.el, "feedback", got, G_N_ELEMENTS (got));
    fail_unless_equals_int (n, 3);
    for (k = 0; k < 3; k++)
      fail_unless (got[k] == fx.ref.feedback[k], "%s: feedback[%u] changed "
          "to %g", what, k, got[k]);
    g_free (what);
  }
  fx_check (&fx, "custom filter after refused feedback");
  gst_element_set_bus (fx.el, NULL);
  gst_object_unref (bus);
  fx_clear (&fx);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* the element against the reference */

/* One filter setting picked by k from a rotation over every filter, for
 * the tests whose subject is something else (sizes, ROIs, layouts). */
static void
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

/* Every format with a handful of settings that together use every filter,
 * direction, algorithm, both borders, tile sizes 0/16/32 and the x/y/xy
 * axes, on a frame of many 16-pixel tiles, then one on 257x130. The
 * formats of a group (format_groups) go through one harness, each from the
 * element's defaults. */
static void
formats_one (Fx * fx, GstVideoFormat fmt, guint fi)
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
}

GST_START_TEST (test_formats)
{
  GstVideoFormat fmt;
  guint i, fi;
  Fx fx;

  fx_init (&fx, 100 + __i__);
  for (i = 0; (fmt = harness_group_format (__i__, i, &fi)); i++)
    formats_one (&fx, fmt, fi);
  /* every one of these changes a random frame: a copy cannot pass */
  fail_unless_equals_int (fx.n_changed, fx.n_frames);
  fx_clear (&fx);
}

GST_END_TEST;

/* On GRAY8, RGBA and NV12: every direction x axes x algorithm for the
 * exponential; custom of order 1-4 x every direction; the Gaussian at
 * sigma 0.5, 2, 8, 32 x both algorithms; the box at r 0, 1, 5, 20 x 1-3
 * iterations. Tile sizes, borders and axes rotate. */
GST_START_TEST (test_matrix)
{
  static const gdouble sigmas[] = { 0.5, 2.0, 8.0, 32.0 };
  static const guint radii[] = { 0, 1, 5, 20 };
  static const RefIirAxes some_axes[] = { REF_IIR_AXES_XY, REF_IIR_AXES_X,
    REF_IIR_AXES_Y
  };
  GstVideoFormat fmt = matrix_formats[__i__];
  guint d, ax, alg, k, s, it, idx = 0, identities = 0;
  Fx fx;

  fx_init (&fx, 200 + __i__);
  fx_set_caps (&fx, fmt, 127, 65);
  /* NV12's Y plane is GRAY8 of the same size, which test_matrix:0 runs
   * through the same settings: here only the interleaved U and V (the one
   * plane of 2 components) are filtered, which halves the pipelines this
   * test creates. Both planes of NV12 together: test_formats, test_sizes,
   * test_roi and the others. */
  if (fmt == GST_VIDEO_FORMAT_NV12)
    fx_set_planes (&fx, 0x6);

  for (d = 0; d < REF_IIR_N_DIRECTIONS; d++) {
    for (ax = 0; ax < REF_IIR_N_AXES; ax++) {
      for (alg = 0; alg < 2; alg++, idx++) {
        fx_set_algorithm (&fx, alg ? "scanline" : "tiled",
            tile_sizes[idx % G_N_ELEMENTS (tile_sizes)]);
        fx_exponential (&fx, g_rand_double_range (fx.rand, 0.3, 0.95), 2.0,
            d);
        fx_set_axes (&fx, ax);
        fx_set_border_rand (&fx, idx % 2);
        identities += ax == REF_IIR_AXES_NONE;
        fx_check (&fx, "exponential %s axes %s", ref_iir_direction_nick (d),
            ref_iir_axes_nick (ax));
      }
    }
  }

  for (k = 1; k <= REF_IIR_MAX_ORDER; k++) {
    for (d = 0; d < REF_IIR_N_DIRECTIONS; d++, idx++) {
      fx_set_algorithm (&fx, (k + d) % 2 ? "scanline" : "tiled",
          tile_sizes[idx % G_N_ELEMENTS (tile_sizes)]);
      fx_random_custom (&fx, k, d);
      fx_set_axes (&fx, some_axes[(k + d) % 3]);
      fx_set_border_rand (&fx, idx % 2);
      fx_check (&fx, "custom order %u %s", k, ref_iir_direction_nick (d));
    }
  }

  fx_set_axes (&fx, REF_IIR_AXES_XY);
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (alg = 0; alg < 2; alg++, idx++) {
      fx_set_algorithm (&fx, alg ? "scanline" : "tiled",
          tile_sizes[idx % G_N_ELEMENTS (tile_sizes)]);
      fx_gaussian (&fx, sigmas[s]);
      fx_set_border_rand (&fx, idx % 2);
      fx_check (&fx, "gaussian sigma %g", sigmas[s]);
    }
  }

  for (s = 0; s < G_N_ELEMENTS (radii); s++) {
    for (it = 1; it <= 3; it++, idx++) {
      fx_set_algorithm (&fx, idx % 2 ? "scanline" : "tiled",
          tile_sizes[(idx / 2) % G_N_ELEMENTS (tile_sizes)]);
      fx_box (&fx, radii[s], it);
      fx_set_axes (&fx, some_axes[idx % 3]);
      fx_set_border_rand (&fx, (idx / 2) % 2);
      identities += radii[s] == 0;
      fx_check (&fx, "box r %u x%u", radii[s], it);
    }
  }

  fail_unless_equals_int (fx.n_changed, fx.n_frames - identities);
  fx_clear (&fx);
}

GST_END_TEST;

/* The frame sizes of `sizes` (1x1 and 2x3 smaller than any tile and than
 * most supports) x both algorithms, through caps changes of one harness;
 * filter, tile size, border and axes rotate. The formats of a group
 * (format_groups) get the same rotation, so that they share pipelines;
 * the groups' rotations start at different places. */
GST_START_TEST (test_sizes)
{
  GstVideoFormat fmt;
  guint s, alg, i, fi, lead = 0;
  Fx fx;

  fx_init (&fx, 300 + __i__);
  harness_group_format (__i__, 0, &lead);
  for (i = 0; (fmt = harness_group_format (__i__, i, &fi)); i++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      fx_set_caps (&fx, fmt, sizes[s][0], sizes[s][1]);
      for (alg = 0; alg < 2; alg++) {
        guint k = 2 * s + alg + lead;

        fx_set_algorithm (&fx, alg ? "scanline" : "tiled",
            tile_sizes[(s + lead) % G_N_ELEMENTS (tile_sizes)]);
        fx_rotating_filter (&fx, k);
        fx_set_border_rand (&fx, k % 2);
        fx_set_axes (&fx, k % 5 == 4 ? REF_IIR_AXES_Y : k % 5 == 3 ?
            REF_IIR_AXES_X : REF_IIR_AXES_XY);
        fx_check (&fx, "size %dx%d", sizes[s][0], sizes[s][1]);
      }
    }
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Tile sizes from 1 (rounded up) to 16384, on frames that are many tiles
 * long and not a multiple of any of them (127x65: all of them; 257x130:
 * every other one); the filters with the longest tails (cross-tile
 * carries). */
GST_START_TEST (test_tile_sizes)
{
  static const guint tiles[] = { 0, 1, 16, 17, 32, 100, 4096, 16384 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8;
  guint t, s;
  Fx fx;

  fx_init (&fx, 400 + __i__);
  for (s = 0; s < 2; s++) {
    fx_set_caps (&fx, fmt, s ? 257 : 127, s ? 130 : 65);
    for (t = s; t < G_N_ELEMENTS (tiles); t += 1 + s) {
      guint k = t + s;

      fx_set_algorithm (&fx, "tiled", tiles[t]);
      switch (k % 4) {
        case 0:
          fx_gaussian (&fx, 8.0);
          break;
        case 1:
          fx_random_custom (&fx, 4, REF_IIR_BOTH);
          break;
        case 2:
          fx_box (&fx, 20, 3);
          break;
        default:
          fx_exponential (&fx, 0.95, 2.0, REF_IIR_ANTICAUSAL);
          break;
      }
      fx_set_border_rand (&fx, k % 2);
      fx_check (&fx, "tile-size %u", tiles[t]);
    }
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Along y the scans write a row's lanes four at a time. With 16-bit lanes
 * (two words a group) and an odd number of lanes in a row, the last
 * group's second word lies past the row's end, where the next row begins:
 * nothing may be written there. (It was written with the input, racing
 * the next row's first word, which then often stayed unfiltered.) */
GST_START_TEST (test_y_row_end_16bit)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY16_LE,
    GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y444_16LE
  };
  guint a;
  Fx fx;

  fx_init (&fx, 440 + __i__);
  fx_set_caps (&fx, formats[__i__], 257, 67);
  fx_set_axes (&fx, REF_IIR_AXES_Y);
  for (a = 0; a < 3; a++) {
    fx_set_algorithm (&fx, a == 1 ? "scanline" : "tiled", 0);
    if (a == 2)
      fx_box (&fx, 3, 2);
    else
      fx_gaussian (&fx, 3.0);
    fx_check (&fx, "axes=y, %s", a == 2 ? "box" : a ? "scanline" : "tiled");
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Lines of more chunks than one work-group of the tails pass completes at
 * once (tile-size 1: chunks of 16, 4133 positions: 259 of them), along x
 * and along y; the longest tails. */
GST_START_TEST (test_many_chunks)
{
  Fx fx;

  fx_init (&fx, 420 + __i__);
  fx_set_caps (&fx, __i__ ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8,
      __i__ ? 3 : 4133, __i__ ? 4133 : 3);
  fx_set_algorithm (&fx, "tiled", 1);
  fx_random_custom (&fx, 4, REF_IIR_BOTH);
  fx_set_border_rand (&fx, __i__);
  fx_check (&fx, "custom, both directions");
  fx_exponential (&fx, 0.95, 2.0, REF_IIR_ANTICAUSAL);
  fx_check (&fx, "exponential, anticausal");
  fx_gaussian (&fx, 30.0);
  fx_check (&fx, "gaussian sigma 30");
  fx_clear (&fx);
}

GST_END_TEST;

/* Along x, a subgroup whose blocks fill whole vectors of the output rows
 * stores them as runs contiguous across the subgroup (through shuffles); a
 * subgroup with a partial block takes the plain writer. Widths of 8, 8 and
 * a quarter, 9 and 33 blocks of 16 positions (a whole subgroup of 8 on
 * lavapipe, of 32 on NVIDIA, and one more) in the formats whose blocks fill
 * 2 or 4 vectors per row, along x and xy, with temporal smoothing on the
 * second frame. */
GST_START_TEST (test_x_rows_coalesced)
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
  Fx fx;

  fx_init (&fx, 440 + __i__);
  for (c = __i__; c < G_N_ELEMENTS (cases); c += 2) {
    fx_set_temporal (&fx, 0.0);
    fx_set_caps (&fx, cases[c].fmt, cases[c].w, cases[c].h);
    fx_set_axes (&fx, c % 4 < 2 ? REF_IIR_AXES_X : REF_IIR_AXES_XY);
    if (c % 3 == 0)
      fx_exponential (&fx, 0.8, 2.0, REF_IIR_ANTICAUSAL);
    else
      fx_gaussian (&fx, 3.0);
    fx_check (&fx, "%s %dx%d", gst_video_format_to_string (cases[c].fmt),
        cases[c].w, cases[c].h);
    fx_set_temporal (&fx, 0.5);
    fx_check (&fx, "%s %dx%d, temporal smoothing",
        gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h);
    fx_check (&fx, "%s %dx%d, temporal smoothing, second frame",
        gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Supports far larger than the frame: sigma 128 and 512 on tiny frames,
 * boxes wider than the frame, alpha 0.999, sigma 32 on 257x130; in 8 and
 * 16 bits, both algorithms. */
GST_START_TEST (test_large_support)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA
  };
  guint c, alg;
  Fx fx;

  fx_init (&fx, 500 + __i__);
  for (c = 0; c < 8; c++) {
    static const gint dims[8][2] = { {33, 17}, {5, 7}, {2, 3}, {33, 17},
    {5, 7}, {127, 65}, {257, 130}, {1, 1}
    };
    fx_set_caps (&fx, fmts[__i__], dims[c][0], dims[c][1]);
    for (alg = 0; alg < 2; alg++) {
      fx_set_algorithm (&fx, alg ? "scanline" : "tiled", c == 6 ? 16 : 0);
      fx_set_border_rand (&fx, (c + alg) % 2);
      switch (c) {
        case 0:
        case 1:
          fx_gaussian (&fx, 128.0);
          break;
        case 2:
          fx_gaussian (&fx, 512.0);
          break;
        case 3:
          fx_box (&fx, 300, 3);
          break;
        case 4:
          fx_box (&fx, 2048, 1);
          break;
        case 5:
          fx_exponential (&fx, 0.999, 2.0, REF_IIR_BOTH);
          break;
        case 6:
          fx_gaussian (&fx, 32.0);
          break;
        default:
          fx_random_custom (&fx, 4, REF_IIR_BOTH);
          break;
      }
      fx_check (&fx, "large support case %u", c);
    }
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Target and source ROIs: inside, moved, odd offsets (chroma and the 4
 * GRAY8 pixels of a word split), clipped, 1 pixel wide/high/both, to the
 * edge, outside (a copy); with the spatial filter off (axes none) a moved
 * ROI is a move. */
GST_START_TEST (test_roi)
{
  /* x, y, w, h, source-x, source-y on a 41x27 frame */
  static const gint rois[][6] = {
    {6, 4, 20, 12, -1, -1},     /* inside, even */
    {1, 3, 19, 11, -1, -1},     /* x = 1: GRAY8 words split */
    {3, 2, 15, 8, 17, 13},      /* source elsewhere, x = 3 */
    {5, 5, 11, 9, 24, 7},       /* odd target and source */
    {2, 1, 9, 7, 1, 16},        /* source below, odd */
    {30, 20, 20, 20, -1, -1},   /* clipped by the frame */
    {4, 4, 16, 10, 33, 22},     /* source clipped by the frame */
    {9, 0, 1, 0, -1, -1},       /* 1 wide, to the bottom edge */
    {0, 13, 0, 1, 7, 3},        /* 1 high, to the right edge, moved */
    {10, 3, 1, 1, 21, 8},       /* a single pixel, moved */
    {17, 9, 0, 0, -1, -1},      /* to the edges */
    {41, 0, 5, 5, -1, -1},      /* outside: a copy */
    {0, 0, 0, 0, 40, 26},       /* source is the last pixel: 1x1 */
    {1, 1, 39, 25, 0, 0},       /* overlapping, shifted by one */
  };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_NV12
  };
  guint r;
  Fx fx;

  fx_init (&fx, 600 + __i__);
  fx_set_caps (&fx, fmts[__i__], 41, 27);
  for (r = 0; r < G_N_ELEMENTS (rois); r++) {
    const gint *q = rois[r];
    guint k = r + __i__;

    fx_set_roi (&fx, q[0], q[1], q[2], q[3], q[4], q[5]);
    fx_set_algorithm (&fx, k % 2 ? "scanline" : "tiled", k % 4 ? 16 : 0);
    fx_rotating_filter (&fx, k);
    fx_set_border_rand (&fx, (k / 2) % 2);
    fx_set_axes (&fx, r == 2 ? REF_IIR_AXES_NONE : REF_IIR_AXES_XY);
    fx_check (&fx, "roi #%u", r);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* ROIs on a frame of many tiles, whose edges cut through tiles. */
/* The reference of a RefIir with roi's ROI and no temporal state, for
 * check_roi_meta(). */
static void
ref_iir_with_roi (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * roi, gpointer data)
{
  RefIir r = *(const RefIir *) data;

  ref_conv_set_roi (&r.common, roi);
  ref_iir_frame (in, out, &r, NULL);
}

/* roi-meta: the regions of the listed types filtered (the border rule at
 * their edges: the infinite extension of each region), everything else
 * the input, the tiled and the scanline algorithm; with temporal-alpha
 * set, regions are not smoothed across frames (they move), and the frame
 * after roi-meta is switched off starts the recursion afresh. */
GST_START_TEST (test_roi_meta)
{
  static const gchar *const listed[] = { "face", "license-plate", NULL };
  guint t;
  Fx fx;

  fx_init (&fx, 1900 + __i__);
  fx_set_caps (&fx, matrix_formats[__i__], ROI_META_W, ROI_META_H);
  fx_gaussian (&fx, 3.0);
  fx_set_border_rand (&fx, __i__ == 1);
  g_object_set (fx.el, "roi-meta", "face,license-plate", "roi-padding", 2,
      "temporal-alpha", 0.8, NULL);
  for (t = 0; t < 2; t++) {
    GstBuffer *in = make_frame (&fx.info, fx.rand, LAYOUT_DEFAULT,
        CONTENT_ANY);
    GstBuffer *out;

    fx_set_algorithm (&fx, t ? "scanline" : "tiled", 0);
    add_region_metas (in, roi_meta_regions, n_roi_meta_regions);
    out = fx_push (&fx, gst_buffer_ref (in));
    check_roi_meta (&fx.info, in, out, roi_meta_regions, n_roi_meta_regions,
        listed, 2, fx.ref.common.planes, ref_iir_with_roi, &fx.ref, TOL,
        base_seed, t ? "roi-meta, scanline" : "roi-meta, tiled");
    poison_buffer (out);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  g_object_set (fx.el, "roi-meta", "", NULL);
  fx_set_temporal (&fx, 0.8);
  ref_iir_temporal_reset (&fx.temporal);
  fx_check (&fx, "roi-meta off, temporal: first frame");
  fx_check (&fx, "roi-meta off, temporal: second frame");
  fx_clear (&fx);
}

GST_END_TEST;

GST_START_TEST (test_roi_large)
{
  /* x, y, w, h, source-x, source-y on 257x130 */
  static const gint rois[][6] = {
    {37, 21, 150, 90, 61, 33},
    {64, 32, 128, 64, 1, 3},    /* tile-aligned target, odd source */
    {3, 5, 0, 0, -1, -1},       /* to the edges */
    {100, 40, 200, 200, 0, 0},  /* clipped */
  };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_GRAY8;
  guint r;
  Fx fx;

  fx_init (&fx, 650 + __i__);
  fx_set_caps (&fx, fmt, 257, 130);
  for (r = 0; r < G_N_ELEMENTS (rois); r++) {
    const gint *q = rois[r];

    fx_set_roi (&fx, q[0], q[1], q[2], q[3], q[4], q[5]);
    fx_set_algorithm (&fx, r == 3 ? "scanline" : "tiled", r % 2 ? 32 : 16);
    fx_rotating_filter (&fx, r + 2 * __i__ + 1);
    fx_set_border_rand (&fx, r % 2);
    fx_check (&fx, "large frame, roi #%u", r);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* `planes` selects components; the others (and RGBx's x) are copied. */
GST_START_TEST (test_planes)
{
  guint i;
  Fx fx;

  fx_init (&fx, 700);
  for (i = 0; i < n_planes_cases; i++) {
    fx_set_caps (&fx, planes_cases[i].fmt, 35, 19);
    fx_set_planes (&fx, planes_cases[i].planes);
    fx_set_algorithm (&fx, i % 2 ? "scanline" : "tiled", 16);
    fx_rotating_filter (&fx, i + 1);
    fx_check (&fx, "planes case %u", i);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Input buffers whose GstVideoMeta gives padded strides and moved planes
 * (4-aligned, then odd), buffers from the pool the element proposes, and
 * plain ones again: system memory in and out. The formats of a group
 * (format_groups) go through one harness with the same filters. */
GST_START_TEST (test_padded_input)
{
  static const Layout layouts[] = { LAYOUT_PADDED, LAYOUT_ODD,
    LAYOUT_PROPOSED_POOL, LAYOUT_DEFAULT
  };
  static const gchar *names[] = { "padded strides (4-aligned)",
    "padded strides (odd)", "the proposed pool", "default strides"
  };
  GstVideoFormat fmt;
  guint l, i, fi, lead = 0;
  Fx fx;

  fx_init (&fx, 800 + __i__);
  harness_group_format (__i__, 0, &lead);
  for (i = 0; (fmt = harness_group_format (__i__, i, &fi)); i++) {
    fx_set_caps (&fx, fmt, 33, 17);
    for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
      fx_set_algorithm (&fx, l % 2 ? "scanline" : "tiled", l ? 16 : 0);
      fx_rotating_filter (&fx, l + lead);
      fx_set_border_rand (&fx, (l + lead) % 2);
      fx_check_frame (&fx, layouts[l], names[l]);
    }
    /* fx_set_caps drops the pool: look at each format's */
    if (fx.pool)
      check_pool_holds_vulkan (fx.pool, &fx.info);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* temporal */

/* One frame through the element with the temporal filter on, checked
 * against the reference recursion; `blended`: also check that the output is
 * not simply the spatial filter of this frame (the recursion is really
 * running), else that it is (a reset). */
static void
fx_check_temporal (Fx * fx, GstBufferFlags flags, gboolean blended,
    const gchar * what)
{
  GstBuffer *in = make_frame (&fx->info, fx->rand, LAYOUT_DEFAULT,
      CONTENT_ANY);
  GstVideoFrame fin, fout, fsp;
  GstBuffer *out, *spbuf;
  guint n, total;

  GST_BUFFER_FLAG_SET (in, flags);
  out = fx_push (fx, gst_buffer_ref (in));
  verify_output (fx, in, out, what);

  fail_unless (gst_video_frame_map (&fin, &fx->info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &fx->info, out, GST_MAP_READ));
  spbuf = new_frame_buffer (&fx->info, &fsp);
  ref_iir_frame (&fin, &fsp, &fx->ref, NULL);
  n = count_diff (&fout, &fsp, TOL);
  total = GST_VIDEO_INFO_WIDTH (&fx->info) * GST_VIDEO_INFO_HEIGHT (&fx->info);
  if (blended)
    fail_unless (n >= total / 10, "VKTILE_SEED=%u %s: only %u values differ "
        "from the spatial filter of the frame alone: no temporal blending?",
        base_seed, what, n);
  else
    fail_unless (n == 0, "VKTILE_SEED=%u %s: %u values differ from the "
        "spatial filter of the frame alone: the recursion was not reset",
        base_seed, what, n);
  free_frame_buffer (spbuf, &fsp);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  poison_buffer (out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* y_t = a y_(t-1) + (1 - a) s_t over 4 frames of different content; reset
 * (y = s) by a flush, a DISCONT buffer and a caps change; then with the
 * spatial filter off (axes none, s = the input). */
GST_START_TEST (test_temporal)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE
  };
  guint t;
  Fx fx;

  fx_init (&fx, 900 + __i__);
  fx_set_temporal (&fx, 0.6);
  fx_set_algorithm (&fx, __i__ % 2 ? "scanline" : "tiled", 16);
  fx_rotating_filter (&fx, __i__);
  fx_set_caps (&fx, fmts[__i__], 33, 17);

  fx_check_temporal (&fx, 0, FALSE, "temporal: first frame");
  for (t = 1; t < 4; t++)
    fx_check_temporal (&fx, 0, TRUE, "temporal: frames 2-4");

  fx_flush (&fx);
  fx_check_temporal (&fx, 0, FALSE, "temporal: first frame after a flush");
  fx_check_temporal (&fx, 0, TRUE, "temporal: second frame after a flush");

  ref_iir_temporal_reset (&fx.temporal);
  fx_check_temporal (&fx, GST_BUFFER_FLAG_DISCONT, FALSE,
      "temporal: a DISCONT frame");
  fx_check_temporal (&fx, 0, TRUE, "temporal: the frame after a DISCONT one");

  fx_set_caps (&fx, fmts[__i__], 35, 19);
  fx_check_temporal (&fx, 0, FALSE, "temporal: first frame after a caps "
      "change");
  fx_check_temporal (&fx, 0, TRUE, "temporal: second frame after a caps "
      "change");

  /* s = the input; a larger alpha, from a flush */
  fx_set_axes (&fx, REF_IIR_AXES_NONE);
  fx_set_temporal (&fx, 0.8);
  fx_flush (&fx);
  fx_check_temporal (&fx, 0, FALSE, "temporal, axes none: first frame");
  fx_check_temporal (&fx, 0, TRUE, "temporal, axes none: second frame");
  fx_check_temporal (&fx, 0, TRUE, "temporal, axes none: third frame");
  fx_clear (&fx);
}

GST_END_TEST;

/* The formats of the motion-adaptive tests: one of each kind of plane
 * layout, lanes per word and depth. */
static const GstVideoFormat adaptive_formats[] = { GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_BGRx
};

/* Motion-adaptive smoothing against the reference recursion, in every
 * format: frames of random content (noise-sigma 40, so that the weights
 * span 0 to alpha and the detail kept 0 to all), the spatial filter on
 * (tiled or scanline) and off, the whole frame and a ROI (the temporal
 * pass's vector and lane paths), keep-detail on, off and on again (the
 * motion reference kept and not). */
GST_START_TEST (test_temporal_adaptive)
{
  guint t;
  Fx fx;

  fx_init (&fx, 960 + __i__);
  fx_set_temporal (&fx, 0.8);
  fx_set_motion_adaptive (&fx, 40.0);
  fx_set_algorithm (&fx, __i__ % 2 ? "scanline" : "tiled", 0);
  fx_gaussian (&fx, 1.0);
  fx_set_caps (&fx, adaptive_formats[__i__], 35, 18);
  for (t = 0; t < 3; t++)
    fx_check (&fx, "motion-adaptive, frame %u", t + 1);
  fx_set_axes (&fx, REF_IIR_AXES_NONE);
  for (t = 0; t < 2; t++)
    fx_check (&fx, "motion-adaptive, axes none, frame %u", t + 1);
  fx_set_roi (&fx, 3, 2, 21, 11, -1, -1);
  fx_set_caps (&fx, adaptive_formats[__i__], 35, 18);
  for (t = 0; t < 2; t++)
    fx_check (&fx, "motion-adaptive, axes none, ROI, frame %u", t + 1);
  fx_set_axes (&fx, REF_IIR_AXES_XY);
  fx_check (&fx, "motion-adaptive, ROI, next frame");
  g_object_set (fx.el, "keep-detail", FALSE, NULL);
  fx.ref.keep_detail = FALSE;
  fx_check (&fx, "motion-adaptive, keep-detail=false, ROI, next frame");
  /* The motion reference the last frame did not keep is its y. */
  g_object_set (fx.el, "keep-detail", TRUE, NULL);
  fx.ref.keep_detail = TRUE;
  for (t = 0; t < 2; t++)
    fx_check (&fx, "motion-adaptive, keep-detail again, ROI, frame %u", t + 1);
  fx_clear (&fx);
}

GST_END_TEST;

/* A GRAY8 frame: `clean` (a ramp of 20..120) plus `offset`, plus Gaussian
 * noise of sigma `noise` (8-bit code values), clamped. */
static GstBuffer *
noisy_ramp (const GstVideoInfo * info, GRand * r, gdouble offset,
    gdouble noise, guint8 * clean)
{
  GstVideoFrame f;
  GstBuffer *buf = new_frame_buffer (info, &f);
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      gdouble v = 20.0 + 100.0 * (x + y) / (w + h) + offset;
      gdouble n = noise * gauss_sample (r);
      clean[y * w + x] = (guint8) lround (v);
      ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0))[y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0) + x] =
          (guint8) CLAMP (lround (v + n), 0, 255);
    }
  gst_video_frame_unmap (&f);
  return buf;
}

/* Root-mean-square difference of a GRAY8 buffer from `clean`; and the
 * largest difference from the buffer `other`. */
static gdouble
rms_from (const GstVideoInfo * info, GstBuffer * buf, const guint8 * clean,
    GstBuffer * other, gint * max_from_other)
{
  GstVideoFrame f, o;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint x, y;
  gdouble sum = 0.0;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&o, info, other, GST_MAP_READ));
  *max_from_other = 0;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      gint v = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0))[y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0) + x];
      gint u = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&o, 0))[y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&o, 0) + x];
      sum += (gdouble) (v - clean[y * w + x]) * (v - clean[y * w + x]);
      *max_from_other = MAX (*max_from_other, ABS (v - u));
    }
  gst_video_frame_unmap (&o);
  gst_video_frame_unmap (&f);
  return sqrt (sum / (w * h));
}

/* What the motion-adaptive mode is for, on a still scene with noise sigma
 * 6 and then a cut to another scene (the ramp 100 codes brighter): the
 * still scene gains at least 4 dB of PSNR within 20 frames,
 * and the first frame after the cut is the new input, not a blend of the
 * two scenes (within a code value); with noise-sigma given (0) and
 * estimated (2). The fixed mode (1), on the same frames, blends across the
 * cut: the check can fail. */
GST_START_TEST (test_temporal_adaptive_still_and_cut)
{
  gint w = 48, h = 32, max_diff, t;
  guint8 *clean = g_new (guint8, w * h);
  gdouble rms_in = 0.0, rms_out = 0.0;
  GstBuffer *in, *out;
  Fx fx;

  fx_init (&fx, 980 + __i__);
  fx_set_axes (&fx, REF_IIR_AXES_NONE);
  fx_set_temporal (&fx, 0.9);
  fx_set_motion_adaptive (&fx, __i__ == 1 ? 0.0 : __i__ == 2 ? -1.0 : 6.0);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, w, h);
  for (t = 0; t < 20; t++) {
    in = noisy_ramp (&fx.info, fx.rand, 0.0, 6.0, clean);
    out = fx_push (&fx, gst_buffer_ref (in));
    verify_output (&fx, in, out, "still scene");
    rms_in = rms_from (&fx.info, in, clean, in, &max_diff);
    rms_out = rms_from (&fx.info, out, clean, in, &max_diff);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  /* 4 dB of PSNR (simulated in double: the motion-adaptive recursion
   * keeps 0.54 of the noise here, the fixed one 0.23) */
  fail_unless (rms_out < 0.631 * rms_in, "%s: a still scene kept noise of "
      "%.2f codes rms against the input's %.2f", __i__ == 1 ? "fixed" :
      "motion-adaptive", rms_out, rms_in);

  in = noisy_ramp (&fx.info, fx.rand, 100.0, 6.0, clean);
  out = fx_push (&fx, gst_buffer_ref (in));
  verify_output (&fx, in, out, "the frame after a cut");
  rms_from (&fx.info, out, clean, in, &max_diff);
  if (__i__ == 1)
    fail_unless (max_diff > 50, "fixed weights did not blend across the "
        "cut (largest difference from the new input %d)", max_diff);
  else
    fail_unless (max_diff <= 1, "motion-adaptive: the frame after a cut "
        "differs from the new input by up to %d codes: the scenes blended",
        max_diff);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (clean);
  fx_clear (&fx);
}

GST_END_TEST;

/* Pushes `in` and checks the output against the reference, and the
 * noise-estimate the element reports (per plane, after the frame) against
 * the reference's estimate. */
static void
fx_check_noise_estimate (Fx * fx, GstBuffer * in, const gchar * what)
{
  GstBuffer *out = fx_push (fx, gst_buffer_ref (in));
  gdouble est[GST_VIDEO_MAX_PLANES];
  guint plane, n;

  verify_output (fx, in, out, what);
  n = get_double_array (fx->el, "noise-estimate", est, G_N_ELEMENTS (est));
  fail_unless_equals_int (n, GST_VIDEO_INFO_N_PLANES (&fx->info));
  for (plane = 0; plane < n; plane++)
    fail_unless (fabs (est[plane] / fx->temporal.noise_est[plane] - 1.0)
        < 1e-5, "VKTILE_SEED=%u %s %s plane %u: noise-estimate %.7g, the "
        "reference's %.7g", base_seed, what, GST_VIDEO_INFO_NAME (&fx->info),
        plane, est[plane], fx->temporal.noise_est[plane]);
  poison_buffer (out);
  gst_buffer_unref (out);
}

/* noise-sigma 0: each plane's noise estimated on the GPU, against the
 * reference's estimate (the same definition in double), in every format,
 * on a noisy still scene, a cut to another and a change of noise level:
 * read from noise-estimate, and through the output it weights; and the
 * reference's estimate itself within 20 % of the noise added. */
GST_START_TEST (test_temporal_noise_estimate)
{
  static const struct
  {
    guint scene;
    gdouble noise;
  } frames[] = { {1, 5.0}, {1, 5.0}, {1, 5.0}, {2, 5.0}, {2, 5.0}, {2, 12.0},
  {2, 12.0}
  };
  guint t, plane;
  Fx fx;

  fx_init (&fx, 990 + __i__);
  fx_set_temporal (&fx, 0.8);
  fx_set_motion_adaptive (&fx, -1.0);
  fx_gaussian (&fx, 0.8);
  /* Large enough for 760 positions in a chroma plane of I420, where the
   * median's standard error is 4 %: with 180, estimates were 20 % off
   * now and then. */
  fx_set_caps (&fx, adaptive_formats[__i__], 194, 122);
  for (t = 0; t < G_N_ELEMENTS (frames); t++) {
    GstBuffer *in = noisy_scene (&fx.info, fx.rand, frames[t].scene,
        frames[t].noise);
    gchar *what = g_strdup_printf ("estimated noise, frame %u (scene %u, "
        "noise %g)", t + 1, frames[t].scene, frames[t].noise);

    fx_check_noise_estimate (&fx, in, what);
    g_free (what);
    gst_buffer_unref (in);
    /* While the noise stays at 5 (scene or no scene change). */
    if (t == 0 || t == 3) {
      for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (&fx.info); plane++)
        fail_unless (fabs (fx.temporal.noise_est[plane] / frames[t].noise -
                1.0) < 0.2, "%s plane %u: noise sigma %g estimated as %g",
            GST_VIDEO_INFO_NAME (&fx.info), plane, frames[t].noise,
            fx.temporal.noise_est[plane]);
    }
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* The motion-adaptive mode with its frames in Vulkan buffers on both
 * sides: a copy before it and one after (planes=0) take them out of and
 * back to system memory, so the element itself reads and writes only
 * Vulkan buffers, pushes its frames without waiting for them, and keeps
 * its state and noise estimate across frames on the GPU. In every format:
 * random frames with noise-sigma given (40: weights and detail kept span
 * their range), then noisy frames with it estimated, noise-estimate read
 * back after each, keep-detail on and off. */
GST_START_TEST (test_temporal_adaptive_vulkan_memory)
{
  GstVideoFormat fmt = adaptive_formats[__i__];
  guint in_counts[2] = { 0, 0 }, out_counts[2] = { 0, 0 };
  guint t;
  Fx fx;

  fx_init_full (&fx, ELEMENT " planes=0 ! "
      "video/x-raw(memory:VulkanBuffer) ! " ELEMENT " name=a ! "
      "video/x-raw(memory:VulkanBuffer) ! " ELEMENT " planes=0", "a",
      1800 + __i__);
  fx.n_elements = 3;
  probe_pad_memory (fx.el, "sink", in_counts);
  probe_pad_memory (fx.el, "src", out_counts);

  fx_set_temporal (&fx, 0.8);
  fx_set_motion_adaptive (&fx, 40.0);
  fx_gaussian (&fx, 1.0);
  fx_set_caps (&fx, fmt, 37, 22);
  for (t = 0; t < 3; t++)
    fx_check (&fx, "Vulkan memory, motion-adaptive, frame %u", t + 1);

  fx_set_motion_adaptive (&fx, -1.0);
  fx_set_caps (&fx, fmt, 130, 84);
  for (t = 0; t < 3; t++) {
    GstBuffer *in = noisy_scene (&fx.info, fx.rand, 1, 6.0);
    gchar *what = g_strdup_printf ("Vulkan memory, estimated noise, %s, "
        "frame %u", t < 2 ? "keep-detail" : "keep-detail=false", t + 1);

    if (t == 2) {
      g_object_set (fx.el, "keep-detail", FALSE, NULL);
      fx.ref.keep_detail = FALSE;
    }
    fx_check_noise_estimate (&fx, in, what);
    gst_buffer_unref (in);
    g_free (what);
  }
  fail_unless (in_counts[0] == 6 && in_counts[1] == 0 && out_counts[0] == 6
      && out_counts[1] == 0, "%s: frames in %u VulkanBuffer, %u other; out "
      "%u VulkanBuffer, %u other", GST_VIDEO_INFO_NAME (&fx.info),
      in_counts[0], in_counts[1], out_counts[0], out_counts[1]);
  fx_clear (&fx);
}

GST_END_TEST;

/* The state of the temporal recursion lives on across a change of axes
 * (spatial scans write it lane by lane; with axes none, frames whose rows
 * are whole words move it a word at a time), for formats of 4 and of 2
 * lanes per word and for both planes of NV12. */
GST_START_TEST (test_temporal_axes_switch)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_NV12
  };
  guint t;
  Fx fx;

  fx_init (&fx, 950 + __i__);
  fx_set_temporal (&fx, 0.7);
  fx_gaussian (&fx, 1.5);
  fx_set_caps (&fx, fmts[__i__], 36, 20);
  fx_check_temporal (&fx, 0, FALSE, "axes switch: first frame");
  fx_check_temporal (&fx, 0, TRUE, "axes switch: xy");
  fx_set_axes (&fx, REF_IIR_AXES_NONE);
  for (t = 0; t < 2; t++)
    fx_check_temporal (&fx, 0, TRUE, "axes switch: none after xy");
  fx_set_axes (&fx, REF_IIR_AXES_Y);
  fx_check_temporal (&fx, 0, TRUE, "axes switch: y after none");
  fx_clear (&fx);
}

GST_END_TEST;

/* Back to NULL and playing again: the recursion starts afresh. */
GST_START_TEST (test_temporal_restart)
{
  Fx fx;

  fx_init (&fx, 950);
  fx_set_temporal (&fx, 0.7);
  fx_gaussian (&fx, 1.5);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 33, 17);
  fx_check_temporal (&fx, 0, FALSE, "before the restart: first frame");
  fx_check_temporal (&fx, 0, TRUE, "before the restart: second frame");
  fail_unless (gst_element_set_state (fx.h->element, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_harness_play (fx.h);
  fail_unless (gst_harness_push_event (fx.h,
          gst_event_new_stream_start ("restart")));
  ref_iir_temporal_reset (&fx.temporal);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 33, 17);
  fx_check_temporal (&fx, 0, FALSE, "after the restart: first frame");
  fx_check_temporal (&fx, 0, TRUE, "after the restart: second frame");
  fx_clear (&fx);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* more of the element */

/* The recursive Gaussian of the element against the true sampled Gaussian
 * on smooth frames: within the bound the vV design itself has (measured
 * by test_references' test_ref_gaussian_vs_true,
 * ref_iir_gaussian_true_bound()) plus 1 code value. */
GST_START_TEST (test_gaussian_vs_true)
{
  static const gdouble sigmas[] = { 1.0, 2.0, 8.0 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8;
  guint s, b;
  Fx fx;

  fx_init (&fx, 1000 + __i__);
  fx_set_caps (&fx, fmt, __i__ ? 64 : 127, __i__ ? 40 : 65);
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (b = 0; b < 2; b++) {
      GstBuffer *in = make_frame (&fx.info, fx.rand, LAYOUT_DEFAULT,
          CONTENT_NOISE);
      GstVideoFrame fin, fout;
      GstBuffer *out;
      gdouble bound = ref_iir_gaussian_true_bound (sigmas[s]);
      gdouble worst = 0, worst_vv = 0;
      guint c;

      fx_set_algorithm (&fx, (s + b) % 2 ? "scanline" : "tiled", 16);
      fx_gaussian (&fx, sigmas[s]);
      fx_set_border_rand (&fx, b);
      fail_unless (gst_video_frame_map (&fin, &fx.info, in, GST_MAP_WRITE));
      for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fin); c++)
        fill_smooth (&fin, fx.rand, c, 12.0, 0.01);
      gst_video_frame_unmap (&fin);

      out = fx_push (&fx, gst_buffer_ref (in));
      verify_output (&fx, in, out, "gaussian vs vV reference");
      fail_unless (gst_video_frame_map (&fin, &fx.info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fout, &fx.info, out, GST_MAP_READ));
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
            fx.ref.common.border_value * 255.0, tg);
        ref_iir_image (&fx.ref, src, w, h, b,
            fx.ref.common.border_value * 255.0, vv);
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
  fx_clear (&fx);
}

GST_END_TEST;

/* Identity settings are exact copies (box r 0, axes none, custom b0 = 1
 * with feedback <0>), and the defaults change a random frame: the filter is
 * really applied, and the plumbing around it is exact. */
GST_START_TEST (test_identity_and_change)
{
  static const gdouble zero[1] = { 0.0 };
  Mismatch mm;
  guint i;
  Fx fx;

  fx_init (&fx, 1100);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 64, 48);

  fail_unless (harness_push_changes (fx.h, &fx.pts, &fx.info, fx.algorithm,
          fx.rand, 1, FALSE, &mm) > 64 * 48 * 4 / 2,
      "the default Gaussian left a random frame nearly unchanged (%u values "
      "differ)", mm.count);

  for (i = 0; i < 4; i++) {
    switch (i) {
      case 0:
        fx_box (&fx, 0, 3);
        break;
      case 1:
        fx_set_algorithm (&fx, "scanline", 0);
        break;
      case 2:
        fx_gaussian (&fx, 4.0);
        fx_set_axes (&fx, REF_IIR_AXES_NONE);
        break;
      default:
        fx_set_axes (&fx, REF_IIR_AXES_XY);
        fx_set_algorithm (&fx, "tiled", 16);
        fx_custom (&fx, 1.0, zero, 1, REF_IIR_BOTH);
        break;
    }
    fail_unless (harness_push_changes (fx.h, &fx.pts, &fx.info, fx.algorithm,
            fx.rand, 0, TRUE, &mm) == 0,
        "identity case %u changed %u values (first at %d,%d: %u for %u)", i,
        mm.count, mm.x, mm.y, mm.got, mm.want);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Properties changed between frames take effect on the next frame. */
GST_START_TEST (test_property_changes_between_frames)
{
  Fx fx;

  fx_init (&fx, 1200);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 45, 29);
  fx_set_algorithm (&fx, "tiled", 16);
  fx_check (&fx, "sigma 2");
  fx_gaussian (&fx, 8.0);
  fx_check (&fx, "sigma changed to 8");
  fx_gaussian (&fx, 0.7);
  fx_check (&fx, "sigma changed to 0.7");
  fx_box (&fx, 4, 2);
  fx_check (&fx, "filter changed to box");
  fx_box (&fx, 4, 3);
  fx_check (&fx, "iterations changed");
  fx_box (&fx, 9, 3);
  fx_check (&fx, "radius changed");
  fx_random_custom (&fx, 3, REF_IIR_BOTH);
  fx_check (&fx, "filter changed to custom");
  fx_random_custom (&fx, 1, REF_IIR_BOTH);
  fx_check (&fx, "feedback changed to order 1");
  fx_random_custom (&fx, 1, REF_IIR_CAUSAL);
  fx_check (&fx, "direction changed");
  fx_set_axes (&fx, REF_IIR_AXES_Y);
  fx_check (&fx, "axes changed");
  fx_set_algorithm (&fx, "scanline", 0);
  fx_check (&fx, "algorithm changed");
  fx_set_algorithm (&fx, "tiled", 32);
  fx_exponential (&fx, 0.9, 2.0, REF_IIR_ANTICAUSAL);
  fx_check (&fx, "filter changed to exponential");
  fx_exponential (&fx, -1.0, 6.0, REF_IIR_ANTICAUSAL);
  fx_check (&fx, "alpha from sigma");
  fx_set_border (&fx, REF_BORDER_CONSTANT, 0.9);
  fx_check (&fx, "border changed");
  fx_set_border (&fx, REF_BORDER_CONSTANT, 0.1);
  fx_check (&fx, "border-value changed");
  fx_set_planes (&fx, 0x5);
  fx_check (&fx, "planes changed");
  fx_set_roi (&fx, 3, 2, 30, 20, 9, 5);
  fx_check (&fx, "roi changed");
  fx_clear (&fx);
}

GST_END_TEST;

/* sigma changed from another thread while frames stream (properties are
 * safe to change while playing): every output is entirely the filter of one of
 * the two sigmas, never a mix, never a crash. */
GST_START_TEST (test_property_change_while_streaming)
{
  static const ToggleDouble sigmas = { "sigma", {1.0, 6.0} };
  RefIir ra, rb;
  Toggle toggle = { toggle_set_double, &sigmas, ref_iir_apply, &ra, &rb,
    "sigma 1", "sigma 6"
  };
  Fx fx;

  fx_init (&fx, 1300);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_RGBA, 64, 40);
  fx_set_algorithm (&fx, "tiled", 16);
  fx_gaussian (&fx, 1.0);
  ra = rb = fx.ref;
  ra.sigma = 1.0;
  rb.sigma = 6.0;
  check_toggled_while_streaming (fx.h, fx.el, &fx.info, fx.rand,
      CONTENT_ANY, &fx.pts, fx.algorithm, &toggle, 30, TOL, base_seed);
  fx_clear (&fx);
}

GST_END_TEST;

/* Size and format changes mid-stream keep producing correct output. */
GST_START_TEST (test_caps_change)
{
  guint s;
  Fx fx;

  fx_init (&fx, 1400);
  fx_set_algorithm (&fx, "tiled", 16);
  fx_random_custom (&fx, 2, REF_IIR_BOTH);
  fx_set_border (&fx, REF_BORDER_CONSTANT, 0.3);
  for (s = 0; s < n_caps_change_steps; s++) {
    fx_set_caps (&fx, caps_change_steps[s].fmt,
        caps_change_steps[s].w, caps_change_steps[s].h);
    fx_check (&fx, "after a caps change (step %u)", s);
    fx_check (&fx, "second frame after a caps change (step %u)", s);
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Identical inputs give identical outputs. */
GST_START_TEST (test_deterministic)
{
  Fx fx;

  fx_init (&fx, 1500 + __i__);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_NV12, 99, 51);
  fx_set_algorithm (&fx, __i__ ? "scanline" : "tiled", __i__ ? 0 : 16);
  fx_random_custom (&fx, 4, REF_IIR_BOTH);
  check_deterministic (fx.h, make_frame (&fx.info, fx.rand, LAYOUT_DEFAULT,
          CONTENT_ANY), &fx.pts, &fx.info, fx.algorithm);
  fx_clear (&fx);
}

GST_END_TEST;

/* One meta per buffer, named after the element, frame_index counting up,
 * dispatches for both algorithms; it survives a copy. */
GST_START_TEST (test_timing_meta)
{
  gchar *name;
  guint i;
  Fx fx;

  fx_init (&fx, 1600);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_GRAY8, 127, 65);
  name = gst_element_get_name (fx.el);
  fail_unless (g_str_has_prefix (name, ELEMENT), "element named %s", name);
  for (i = 0; i < 4; i++) {
    GstBuffer *out, *copy;

    fx_set_algorithm (&fx, i % 2 ? "scanline" : "tiled", i < 2 ? 0 : 16);
    out = fx_push (&fx, make_frame (&fx.info, fx.rand, LAYOUT_DEFAULT,
            CONTENT_NOISE));
    fail_unless_equals_int (count_metas (out), 1);
    check_meta (out, name, i);
    copy = gst_buffer_copy (out);
    fail_unless_equals_int (count_metas (copy), 1);
    gst_buffer_unref (copy);
    gst_buffer_unref (out);
  }
  g_free (name);
  fx_clear (&fx);
}

GST_END_TEST;

/* recursivefilter ! video/x-raw(memory:VulkanBuffer) ! recursivefilter,
 * system memory at both ends: the output is the two references in a row
 * (tolerance 2: the first stage's +-1 passes through the second, whose
 * kernel is positive with unit gain), the frame stays in Vulkan buffers in
 * between, and carries one meta per element. */
GST_START_TEST (test_vulkan_buffer_chain)
{
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_RGBA;
  gchar *launch = g_strdup_printf (ELEMENT " name=a ! "
      "video/x-raw(memory:VulkanBuffer),format=%s ! " ELEMENT " name=b",
      gst_video_format_to_string (fmt));
  guint counts[2] = { 0, 0 };
  GstElement *b;
  RefIir ref_b;
  guint i;
  Fx fx;

  fx_init_full (&fx, launch, "a", 1700 + __i__);
  b = harness_get_element (fx.h, ELEMENT, "b");
  probe_pad_memory (b, "sink", counts);
  fx_set_caps (&fx, fmt, 43, 31);

  for (i = 0; i < 2; i++) {
    GstBuffer *in, *out;

    ref_iir_init (&ref_b);
    if (i == 0) {
      fx_set_algorithm (&fx, "tiled", 16);
      fx_gaussian (&fx, 3.0);
      gst_util_set_object_arg (G_OBJECT (b), "filter", "box");
      gst_util_set_object_arg (G_OBJECT (b), "algorithm", "scanline");
      gst_util_set_object_arg (G_OBJECT (b), "border", "constant");
      g_object_set (b, "radius", 2u, "iterations", 3u, "border-value", 0.7,
          NULL);
      ref_b.filter = REF_IIR_BOX;
      ref_b.radius = 2;
      ref_b.iterations = 3;
      ref_b.common.border = REF_BORDER_CONSTANT;
      ref_b.common.border_value = 0.7;
    } else {
      fx_set_algorithm (&fx, "scanline", 0);
      fx_random_custom (&fx, 2, REF_IIR_CAUSAL);
      gst_util_set_object_arg (G_OBJECT (b), "filter", "exponential");
      gst_util_set_object_arg (G_OBJECT (b), "algorithm", "tiled");
      gst_util_set_object_arg (G_OBJECT (b), "border", "clamp");
      g_object_set (b, "alpha", 0.7, "tile-size", 16u, NULL);
      ref_b.filter = REF_IIR_EXPONENTIAL;
      ref_b.alpha = 0.7;
    }

    in = make_frame (&fx.info, fx.rand, LAYOUT_DEFAULT, CONTENT_ANY);
    out = fx_push (&fx, gst_buffer_ref (in));
    check_chain_output (&fx.info, in, out, ref_iir_apply, &fx.ref, &ref_b, i,
        counts, base_seed);
  }
  gst_object_unref (b);
  fx_clear (&fx);
  g_free (launch);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */

static const SuiteEntry recursivefilter_tests[] = {
  SUITE_CASE ("properties"),
  SUITE_TEST (test_property_specs),
  SUITE_TEST (test_pad_templates),
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
  SUITE_LOOP_TEST (test_y_row_end_16bit, 3),
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

  SUITE_CASE ("temporal"),
  SUITE_LOOP_TEST (test_temporal, 4),
  SUITE_TEST (test_temporal_restart),
  SUITE_LOOP_TEST (test_temporal_adaptive, G_N_ELEMENTS (adaptive_formats)),
  SUITE_LOOP_TEST (test_temporal_adaptive_still_and_cut, 3),
  SUITE_LOOP_TEST (test_temporal_noise_estimate,
      G_N_ELEMENTS (adaptive_formats)),
  SUITE_LOOP_TEST (test_temporal_axes_switch, 3),

  SUITE_CASE ("memory"),
  SUITE_LOOP_TEST (test_padded_input, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_vulkan_buffer_chain, 2),
  SUITE_LOOP_TEST (test_temporal_adaptive_vulkan_memory,
      G_N_ELEMENTS (adaptive_formats)),
  SUITE_TEST (test_timing_meta),
};

SUITE_MAIN ("recursivefilter", recursivefilter_tests, &base_seed, NULL);
