/* vktile tests — gaussblur against the CPU reference (reference_gauss.c):
 * the filter itself (the "filter" case of test_gaussblur's table).
 *
 * Owns the tests of gaussblur's output on random frames against the
 * double-precision reference (tolerance 1 code value, and rounding to
 * nearest): every format, border, algorithm, frame size of `sizes`, sigma
 * from 0.01 to 256 (kernels far larger than the frame), sigma-y, explicit
 * radius, amount (positive and negative), ROI and roi-meta, plane mask,
 * caps changes, identical outputs for identical inputs; and what the
 * algorithms are:
 *
 * - algorithm=recursive byte for byte against recursivefilter
 *   filter=gaussian (the same machinery), and against reference_iir's
 *   double van Vliet Gaussian where recursivefilter cannot follow (sigma-y,
 *   amount); its fallback to the exact blur for mirror/reflect/wrap and
 *   sigmas below 0.5;
 * - algorithm=auto: exact at small sigmas, the recursive Gaussian from a
 *   threshold on (found by comparing with algorithm=recursive, not
 *   hard-coded: the element measures it on a GPU), never back, exact with
 *   an explicit radius.
 *
 * The settings, the memory paths and the timing meta are test_gaussblur.c's.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "reference.h"
#include "gaussblur_fx.h"

/* The frame sizes the tests cover. */
static const gint sizes[][2] = {
  {1, 1}, {2, 3}, {5, 7}, {33, 17}, {127, 65}, {257, 130},
};

#define N_SIZES G_N_ELEMENTS (sizes)

/* The formats of test_roi, one a run. */
static const GstVideoFormat roi_formats[] = { GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420
};

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
FX_TEST (test_borders_algorithms, 200)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE
  };
  static const gdouble sigmas[] = { 1.0, 2.0, 4.0 };
  static const gdouble amounts[] = { 0.0, 0.8, 0.0, -0.4, 0.0 };
  guint b, a;

  fx_set_caps (fx, fmts[__i__], MID_W, MID_H);
  for (b = 0; b < REF_BORDER_N; b++) {
    for (a = 0; a < N_ALGORITHMS; a++) {
      fx_set_algorithm (fx, algorithms[a]);
      fx_blur (fx, sigmas[__i__ % 3], -1, 0, amounts[b]);
      fx_set_border_rand (fx, b);
      fx_check (fx, "border %s algorithm %s", ref_border_nick (b),
          algorithms[a]);
    }
  }
  fail_unless_equals_int (fx->base.n_changed, fx->base.n_frames);
}

/* sigma 0.5 to 64 (radius 2 to 192: most of them longer than the frame,
 * which the border extension repeats) with every algorithm (auto: up to
 * AUTO_EXACT_MAX_SIGMA, test_auto does the rest), the border rotating; in
 * 8 and 16 bits. */
FX_TEST (test_sigmas, 300)
{
  static const gdouble sigmas[] = { 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 64.0 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_GRAY8;
  guint s, a, k = 0;

  fx_set_caps (fx, fmt, __i__ ? MID_W : 33, __i__ ? MID_H : 17);
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    /* 16 bits: 0.5, 2, 8, 64 */
    if (__i__ && s % 2)
      continue;
    for (a = 0; a < N_ALGORITHMS; a++, k++) {
      /* auto above AUTO_EXACT_MAX_SIGMA: test_auto */
      if (a == 0 && sigmas[s] > AUTO_EXACT_MAX_SIGMA)
        continue;
      fx_set_algorithm (fx, algorithms[a]);
      fx_blur (fx, sigmas[s], -1, 0, 0.0);
      fx_set_border_rand (fx, (k + __i__) % REF_BORDER_N);
      fx_check (fx, "sigma %g", sigmas[s]);
    }
  }
}

/* The frame sizes of `sizes` (1x1 and 2x3 far smaller than the kernel)
 * through caps changes of one harness; algorithm, border, sigma rotate. */
FX_TEST (test_sizes, 400)
{
  static const gdouble sigmas[] = { 1.0, 2.0, 4.0, 2.0, 1.0, 4.0, 2.0 };
  GstVideoFormat fmt = all_formats[__i__];
  guint s;

  for (s = 0; s < N_SIZES; s++) {
    guint k = s + __i__;

    fx_set_caps (fx, fmt, sizes[s][0], sizes[s][1]);
    /* recursive: on GRAY8 only (recursivefilter's tests cover its
     * machinery on every size and format) */
    fx_set_algorithm (fx, rotating_algorithm (k, fmt ==
            GST_VIDEO_FORMAT_GRAY8));
    fx_blur (fx, sigmas[k % G_N_ELEMENTS (sigmas)], -1, 0,
        k % 3 == 1 ? 1.2 : 0.0);
    fx_set_border_rand (fx, (k / 2) % REF_BORDER_N);
    fx_check (fx, "size %dx%d", sizes[s][0], sizes[s][1]);
  }
}

/* sigma-y different from sigma with every algorithm (recursive: x with
 * sigma, y with sigma-y), an explicit radius smaller and larger than sigma
 * would give (on both axes, also with sigma-y), and sigma 0.01 (the
 * identity: its one-sided tap weighs exp(-5000)). */
FX_TEST (test_sigma_y_radius, 500)
{
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_I420 : GST_VIDEO_FORMAT_RGBA;
  Mismatch mm;
  guint a;

  fx_set_caps (fx, fmt, MID_W, MID_H);
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    fx_blur (fx, a % 2 ? 1.0 : 4.0, a % 2 ? 4.0 : 1.0, 0, 0.0);
    fx_set_border_rand (fx, a % 2 ? REF_BORDER_CONSTANT : REF_BORDER_CLAMP);
    fx_check (fx, "sigma %g sigma-y %g", fx->ref.sigma, fx->ref.sigma_y);
  }
  fx_set_border (fx, REF_BORDER_REFLECT, 0.0);
  for (a = __i__ ? 0 : 1; a < (__i__ ? 3u : 2u); a++) {
    /* RGBA: fused; I420: auto, fused, two-pass */
    fx_set_algorithm (fx, algorithms[a]);
    fx_blur (fx, 4.0, -1, 1, 0.0);
    fx_check (fx, "sigma 4 radius 1");
    fx_blur (fx, 1.0, 2.0, 9, 0.0);
    fx_check (fx, "sigma 1 sigma-y 2 radius 9");
  }
  fx_set_algorithm (fx, "recursive");
  fx_set_border (fx, REF_BORDER_CLAMP, 0.0);
  fx_blur (fx, 2.0, 3.0, 1, 0.0);
  fx_check (fx, "recursive ignores radius");

  /* sigma 0.01 is a copy, whatever the algorithm */
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    fx_blur (fx, 0.01, -1, 0, 0.0);
    fail_unless (harness_fx_push_changes (&fx->base, 0, TRUE, &mm) == 0,
        "VKTILE_SEED=%u sigma 0.01 algorithm %s changed %u values (first at "
        "%d,%d: %u for %u)", base_seed, algorithms[a], mm.count, mm.x, mm.y,
        mm.got, mm.want);
  }
}

/* The unsharp mask, positive and negative (-1: the blur itself), with
 * every algorithm, in 8 and 16 bits, on smooth and noisy content. */
FX_TEST (test_amount, 600)
{
  static const gdouble amounts[] = { 1.5, -0.5, -1.0, 4.0, 0.3, 25.0 };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_GRAY8;
  guint a, m, k = 0;

  fx_set_caps (fx, fmt, MID_W, MID_H);
  for (m = 0; m < G_N_ELEMENTS (amounts); m++) {
    for (a = 0; a < N_ALGORITHMS; a++, k++) {
      if ((m + a) % 2)
        continue;
      fx_set_algorithm (fx, algorithms[a]);
      fx_blur (fx, k % 3 ? 2.0 : 1.0, -1, 0, amounts[m]);
      fx_set_border_rand (fx, (k / 2) % REF_BORDER_N);
      fx_check (fx, "amount %g", amounts[m]);
    }
  }
  /* with sigma-y and a moved source ROI: in is the source pixel */
  fx_set_algorithm (fx, "fused");
  fx_blur (fx, 1.0, 2.0, 0, 2.0);
  fx_set_roi (fx, 3, 4, 20, 15, 22, 11);
  fx_check (fx, "amount 2, moved source ROI");
  fx_set_algorithm (fx, "recursive");
  fx_blur (fx, 2.0, 1.0, 0, -0.7);
  fx_set_border_rand (fx, REF_BORDER_CONSTANT);
  fx_check (fx, "recursive amount -0.7, sigma-y, moved source ROI");
}

/* algorithm=recursive is recursivefilter filter=gaussian: byte for byte the
 * same output, with clamp and constant borders, ROIs, planes, formats. */
FX_TEST (test_recursive_is_recursivefilter, 700)
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

  hr = gst_harness_new ("recursivefilter");
  rf = gst_object_ref (hr->element);
  fx_set_algorithm (fx, "recursive");
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstVideoFrame f1, f2;
    GstBuffer *in, *o1, *o2;
    GstCaps *caps;
    Mismatch mm;
    gdouble bv = g_rand_double (fx->base.rand);
    const gint *q = cases[i].roi;

    fx_set_caps (fx, cases[i].fmt, cases[i].w, cases[i].h);
    caps = gst_video_info_to_caps (&fx->base.info);
    gst_harness_set_caps (hr, gst_caps_ref (caps), caps);
    fx_blur (fx, cases[i].sigma, -1, 0, 0.0);
    fx_set_border (fx, cases[i].constant ? REF_BORDER_CONSTANT :
        REF_BORDER_CLAMP, bv);
    fx_set_roi (fx, q[0], q[1], q[2], q[3], q[4], q[5]);
    fx_set_planes (fx, cases[i].planes);
    gst_util_set_object_arg (G_OBJECT (rf), "filter", "gaussian");
    gst_util_set_object_arg (G_OBJECT (rf), "border",
        cases[i].constant ? "constant" : "clamp");
    g_object_set (rf, "sigma", cases[i].sigma, "border-value", bv,
        "roi-x", q[0], "roi-y", q[1], "roi-width", q[2], "roi-height", q[3],
        "source-x", q[4], "source-y", q[5], "planes", cases[i].planes, NULL);

    in = make_frame (&fx->base.info, fx->base.rand, LAYOUT_DEFAULT,
        CONTENT_ANY);
    o1 = fx_push (fx, gst_buffer_ref (in));
    fail_unless (gst_harness_push (hr, gst_buffer_ref (in)) == GST_FLOW_OK);
    o2 = gst_harness_pull (hr);
    fail_unless (o2 != NULL);
    fail_unless (gst_video_frame_map (&f1, &fx->base.info, o1, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&f2, &fx->base.info, o2, GST_MAP_READ));
    fail_unless (compare_frames (&f1, &f2, 0, &mm) == 0, "VKTILE_SEED=%u "
        "case %u (%s %dx%d sigma %g %s): gaussblur algorithm=recursive and "
        "recursivefilter differ in %u values; first at x=%d y=%d plane %u: "
        "%u and %u", base_seed, i, GST_VIDEO_INFO_NAME (&fx->base.info),
        cases[i].w, cases[i].h, cases[i].sigma, cases[i].constant ?
        "constant" : "clamp", mm.count, mm.x, mm.y, mm.plane, mm.got,
        mm.want);
    gst_video_frame_unmap (&f1);
    gst_video_frame_unmap (&f2);
    /* and both are the double reference, within 1 */
    verify_output (fx, in, o1, "recursive vs recursivefilter");
    poison_buffer (o1);
    poison_buffer (o2);
    gst_buffer_unref (o1);
    gst_buffer_unref (o2);
    gst_buffer_unref (in);
  }
  gst_object_unref (rf);
  gst_harness_teardown (hr);
}

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
FX_TEST (test_auto, 1800)
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

  fx_set_caps (fx, fmt, MID_W, MID_H);
  for (i = 0; i < G_N_ELEMENTS (sigmas); i++) {
    fx_blur (fx, sigmas[i], -1, 0, 0.0);
    fx_set_border_rand (fx, border);
    rec = fx_check_auto (fx, "auto");
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
    fx_blur (fx, others[i].sigma, others[i].sigma_y, others[i].radius,
        i == 1 ? -0.4 : 0.0);
    fx_set_border_rand (fx, others[i].border);
    rec = fx_check_auto (fx, "auto, other case");
    fail_if (rec && others[i].radius > 0, "auto ran the recursive "
        "Gaussian with radius %u", others[i].radius);
  }
}

/* Frames smaller than the kernel (the elements take frames of any size,
 * including frames smaller than the kernel): every border on 1x1, 2x3 and
 * 5x7 with radii up to 192, where the extension repeats the frame many
 * times. */
FX_TEST (test_smaller_than_kernel, 1900)
{
  static const gint dims[][2] = { {1, 1}, {2, 3}, {5, 7} };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_I420 : GST_VIDEO_FORMAT_RGBA;
  guint d, b, k = 0;

  for (d = 0; d < G_N_ELEMENTS (dims); d++) {
    fx_set_caps (fx, fmt, dims[d][0], dims[d][1]);
    for (b = 0; b < REF_BORDER_N; b++, k++) {
      fx_set_algorithm (fx, k % 2 ? "two-pass" : "fused");
      fx_blur (fx, k % 3 == 2 ? 64.0 : 4.0, -1, 0, 0.0);
      fx_set_border_rand (fx, b);
      fx_check (fx, "%dx%d border %s", dims[d][0], dims[d][1],
          ref_border_nick (b));
    }
  }
}

/* ROIs on a frame of many tiles, whose edges cut through tiles. */
FX_TEST (test_roi_large, 2000)
{
  static const gchar *algos[] = { "fused", "two-pass", "auto", "fused" };
  GstVideoFormat fmt = __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_GRAY8;
  guint r;

  fx_set_caps (fx, fmt, ROI_LARGE_W, ROI_LARGE_H);
  for (r = 0; r < n_roi_large_cases; r++) {
    guint k = r + __i__;

    fx_set_roi_case (fx, roi_large_cases[r]);
    fx_set_algorithm (fx, algos[r]);
    fx_blur (fx, k % 2 ? 4.0 : 2.0, k % 3 == 1 ? 1.0 : -1, 0,
        k % 2 ? 0.0 : -0.3);
    fx_set_border_rand (fx, r == 3 ? (k % 2 ? REF_BORDER_CONSTANT :
            REF_BORDER_CLAMP) : (r + 2 * __i__) % REF_BORDER_N);
    fx_check (fx, "large frame, roi #%u", r);
  }
}

/* Target and source ROIs: inside, moved, odd offsets, clipped, 1 pixel
 * wide/high/both, to the edge, outside (a copy), overlapping; algorithms,
 * borders and the unsharp mask rotate. */
FX_TEST (test_roi, 800)
{
  guint r;

  fx_set_caps (fx, roi_formats[__i__], ROI_SMALL_W, ROI_SMALL_H);
  for (r = 0; r < n_roi_small_gaussblur; r++) {
    guint k = r + __i__;

    fx_set_roi_case (fx, roi_small_cases[roi_small_gaussblur[r]]);
    fx_set_algorithm (fx, rotating_algorithm (k, __i__ == 0));
    fx_blur (fx, k % 3 ? 2.0 : 1.0, k % 5 == 2 ? 4.0 : -1, 0,
        k % 4 == 1 ? 1.3 : 0.0);
    fx_set_border_rand (fx, (k / 2) % REF_BORDER_N);
    fx_check (fx, "roi #%u", r);
  }
}

/* roi-meta and roi-padding, the privacy blur: a large sigma in small
 * regions of the listed types, overlapping, clipped, a pixel wide and
 * outside the frame; a frame without metas passes unchanged; another list
 * of types, and off again (the roi-* properties apply). */
FX_TEST (test_roi_meta, 2100)
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

  fx_set_caps (fx, fmts[__i__], ROI_META_W, ROI_META_H);
  fx_set_algorithm (fx, algos[__i__]);
  fx_blur (fx, 9.0, -1, 0, 0.0);
  fx_set_border_rand (fx, borders[__i__]);
  g_object_set (fx->base.el, "roi-meta", " face , license-plate", "roi-padding",
      2, NULL);
  harness_fx_check_roi_meta (&fx->base, n_roi_meta_regions, listed, 2,
      "roi-meta face,license-plate");
  harness_fx_check_roi_meta (&fx->base, 0, listed, 2,
      "a frame without metas");
  g_object_set (fx->base.el, "roi-meta", "person", "roi-padding", 0, NULL);
  harness_fx_check_roi_meta (&fx->base, n_roi_meta_regions, person, 0,
      "roi-meta person");

  /* Off: the whole frame (the roi-* properties) again. */
  g_object_set (fx->base.el, "roi-meta", "", NULL);
  fx_check (fx, "roi-meta off");
}

/* `planes` selects components; the others (and RGBx's x) are copied. */
FX_TEST (test_planes, 900)
{
  guint i;

  for (i = 0; i < n_planes_cases; i++) {
    fx_set_caps (fx, planes_cases[i].fmt, MID_W, MID_H);
    fx_set_planes (fx, planes_cases[i].planes);
    fx_set_algorithm (fx, rotating_algorithm (i, i == 3));
    fx_blur (fx, i % 2 ? 1.0 : 2.0, -1, 0, i % 3 == 2 ? 0.9 : 0.0);
    fx_set_border_rand (fx, i % REF_BORDER_N);
    fx_check (fx, "planes case %u", i);
  }
}

/* Size and format changes mid-stream keep producing correct output. */
FX_TEST (test_caps_change, 1400)
{
  fx_set_algorithm (fx, "fused");
  fx_blur (fx, 2.0, 1.0, 0, 0.5);
  fx_set_border_rand (fx, REF_BORDER_CONSTANT);
  harness_fx_check_caps_changes (&fx->base);
}

/* Identical inputs give identical outputs. */
FX_TEST (test_deterministic, 1500)
{
  fx_set_caps (fx, GST_VIDEO_FORMAT_NV12, MID_W, MID_H);
  fx_set_algorithm (fx, algorithms[__i__]);
  fx_blur (fx, 2.0, -1, 0, 0.6);
  harness_fx_check_deterministic (&fx->base);
}

/* ------------------------------------------------------------------------ */

const SuiteEntry gaussblur_filter_tests[] = {
  SUITE_LOOP_TEST (test_formats, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_borders_algorithms, 4),
  SUITE_LOOP_TEST (test_sigmas, 2),
  SUITE_LOOP_TEST (test_sizes, N_FORMATS),
  SUITE_LOOP_TEST (test_sigma_y_radius, 2),
  SUITE_LOOP_TEST (test_amount, 2),
  SUITE_TEST (test_recursive_is_recursivefilter),
  SUITE_LOOP_TEST (test_auto, 2),
  SUITE_LOOP_TEST (test_smaller_than_kernel, 2),
  SUITE_LOOP_TEST (test_roi, G_N_ELEMENTS (roi_formats)),
  SUITE_LOOP_TEST (test_roi_large, 2),
  SUITE_LOOP_TEST (test_roi_meta, 3),
  SUITE_TEST (test_planes),
  SUITE_TEST (test_caps_change),
  SUITE_LOOP_TEST (test_deterministic, N_ALGORITHMS),
  SUITE_END
};
