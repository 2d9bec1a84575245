/* vktile tests — the CPU references checked on their own, without an
 * element or a GPU: what the element suites compare with must itself be
 * right, and able to fail.
 *
 * - tiledconv's (reference.c): a copy of the input fails the comparison
 *   (so a shader replaced by a copy cannot pass), the reference reads each
 *   component where GStreamer's own unpack finds it, and the border rules;
 * - gaussblur's (reference_gauss.c): the weights against scipy.ndimage's
 *   values, their sum, symmetry and variance, the default radius; x-then-y
 *   against a direct 2D sum with the border rule on both axes; the border
 *   extensions against an independent construction for kernels much
 *   longer than the line; the recursive variant against reference_iir.c;
 * - recursivefilter's (reference_iir.c): the recursive Gaussian's unit sum
 *   and variance, the box against a direct sliding sum, the exponential
 *   against closed forms on a step, x-then-y equal to y-then-x, the
 *   Gaussian against the true sampled Gaussian;
 * - for both of the last two, proof that the comparison can fail: a copy,
 *   a wrong sigma, sigma-y ignored, a wrong border, radius, unsharp mask, a
 *   re-clamped anticausal boundary, ... all differ from the reference by
 *   more than the tolerance on the test data.
 *
 * Random data comes from VKTILE_SEED (or the time); every failure message
 * carries the seed, so `VKTILE_SEED=<n> GST_CHECKS=<test> ./test_references`
 * reproduces it. VKTILE_GAUSS_STATS=1 and VKTILE_IIR_STATS=1 print what
 * the tests measure (how many values each deliberate mistake changes, the
 * recursive-to-true-Gaussian distance).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "harness.h"
#include "reference_gauss.h"
#include "reference_iir.h"

/* the tolerance of the element suites, in code values */
#define TOL 1

static guint32 base_seed;

/* ------------------------------------------------------------------------ */
/* what the deliberate-mistake tests share */

static void
ref_gauss_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref)
{
  ref_gauss_frame (in, out, ref);
}

static void
ref_iir_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref)
{
  ref_iir_frame (in, out, ref, NULL);
}

/* Values (of all components) where the reference with settings pa and
 * that with pb (NULL: a copy of in) differ by more than TOL. */
static guint
ref_diff (RefApply ref, const GstVideoFrame * in, gconstpointer pa,
    gconstpointer pb)
{
  GstVideoFrame fa, fb;
  GstBuffer *ba = new_frame_buffer (&in->info, &fa);
  GstBuffer *bb = new_frame_buffer (&in->info, &fb);
  guint n;

  ref (in, &fa, pa);
  if (pb)
    ref (in, &fb, pb);
  else
    ref_frame_copy (&fb, in);
  n = count_diff (&fa, &fb, TOL);
  free_frame_buffer (ba, &fa);
  free_frame_buffer (bb, &fb);
  return n;
}

/* The frame of a deliberate-mistake test: the kind the element tests use,
 * 64x48, with a bright right and bottom edge over a dark noisy interior,
 * which makes the boundary mistakes visible. */
typedef struct
{
  GRand *rand;
  GstVideoInfo info;
  GstVideoFrame frame;          /* mapped */
  GstBuffer *buf;
} MistakesFrame;

/* GRAY8 for loop index 0, RGBA for 1, from the seed base_seed + 15 + i */
static void
mistakes_frame_init (MistakesFrame * m, gint i)
{
  GstVideoFormat fmt = i ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8;
  guint c;
  gint x, y;

  m->rand = g_rand_new_with_seed (base_seed + 15 + i);
  gst_video_info_set_format (&m->info, fmt, 64, 48);
  m->buf = new_frame_buffer (&m->info, &m->frame);
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&m->info); c++)
    for (y = 0; y < 48; y++)
      for (x = 0; x < 64; x++)
        ref_comp_set (&m->frame, c, x, y, x == 63 || y == 47 ? 255 :
            g_rand_int_range (m->rand, 0, 60));
}

static void
mistakes_frame_clear (MistakesFrame * m)
{
  free_frame_buffer (m->buf, &m->frame);
  g_rand_free (m->rand);
}

/* A deliberate mistake `what` changed n values by more than TOL: the tests
 * can tell it only if that is at least min. With `stats_env` set in the
 * environment, prints n. */
static void
expect_different (const GstVideoInfo * info, const gchar * what, guint n,
    guint min, const gchar * stats_env)
{
  if (g_getenv (stats_env))
    g_printerr ("%s: %s: %u values differ by more than %d\n",
        GST_VIDEO_INFO_NAME (info), what, n, TOL);
  fail_unless (n >= min, "%s: only %u values differ by more than %d: "
      "the tests could not tell", what, n, TOL);
}

/* ------------------------------------------------------------------------ */
/* tiledconv's reference (reference.c): a copy must fail it */

GST_START_TEST (test_reference_detects_copy)
{
  GstVideoFormat fmt = all_formats[__i__];
  GstVideoInfo info;
  GstVideoFrame fin, fref;
  GstBuffer *in, *ref;
  GRand *r = g_rand_new_with_seed (base_seed + __i__);
  RefConv p;
  Mismatch mm;

  gst_video_info_set_format (&info, fmt, 33, 17);
  in = make_frame (&info, r, LAYOUT_DEFAULT, CONTENT_NOISE);
  ref = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, &info, ref, GST_MAP_READWRITE));

  /* the default gaussian3 changes nearly every value of a random frame */
  ref_conv_init (&p);
  ref_tiledconv (&fin, &fref, &p);
  fail_unless (compare_frames (&fin, &fref, 1, &mm) >
      (guint) (GST_VIDEO_INFO_WIDTH (&info) * GST_VIDEO_INFO_HEIGHT (&info)) / 2,
      "a copy of the input passes the gaussian3 check (%u mismatches)",
      mm.count);

  /* the identity kernel is an exact copy */
  {
    gdouble id[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
    ref_conv_set_kernel (&p, id, 9);
    ref_tiledconv (&fin, &fref, &p);
    fail_unless_equals_int (compare_frames (&fin, &fref, 0, &mm), 0);
  }

  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fin);
  gst_buffer_unref (ref);
  gst_buffer_unref (in);
  g_rand_free (r);
}

GST_END_TEST;

/* The reference reads component c where GStreamer's own unpack function
 * finds it: every component of every pixel, set to a random code value,
 * comes back from the unpacked line (ARGB/AYUV, 8 or 16 bits) in its top
 * depth bits. Catches a wrong table offset, such as that of V in
 * GStreamer 1.22's P010_10LE. */
GST_START_TEST (test_reference_reads_what_gstreamer_unpacks)
{
  GstVideoFormat fmt = all_formats[__i__];
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (fmt);
  const GstVideoFormatInfo *uinfo =
      gst_video_format_get_info (finfo->unpack_format);
  guint ubits = GST_VIDEO_FORMAT_INFO_DEPTH (uinfo, 0);
  GRand *r = g_rand_new_with_seed (base_seed + __i__);
  GstVideoInfo info;
  GstVideoFrame f;
  GstBuffer *buf;
  guint16 *line16;
  guint8 *line8;
  guint c;
  gint x, y;

  gst_video_info_set_format (&info, fmt, 9, 5);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_READWRITE));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++)
        ref_comp_set (&f, c, x, y,
            g_rand_int_range (r, 0, (gint) ref_comp_maxv (finfo, c) + 1));

  line16 = g_new0 (guint16, 4 * GST_VIDEO_INFO_WIDTH (&info));
  line8 = (guint8 *) line16;
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (&info); y++) {
    finfo->unpack_func (finfo, GST_VIDEO_PACK_FLAG_NONE, line16, f.data,
        f.info.stride, 0, y, GST_VIDEO_INFO_WIDTH (&info));
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (&info); x++) {
      for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++) {
        guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
        guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
        /* unpacked: A, then R G B or Y U V */
        guint slot = 4 * x + (c == 3 ? 0 : c + 1);
        guint unpacked = ubits > 8 ? line16[slot] : line8[slot];
        guint mine = ref_comp_get (&f, c,
            x >> GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c),
            y >> GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c));

        fail_unless (mine >> shift == unpacked >> (ubits - depth),
            "%s component %u at %d,%d: the reference reads %u, GStreamer "
            "unpacks %u", gst_video_format_to_string (fmt), c, x, y, mine,
            unpacked);
      }
    }
  }
  g_free (line16);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (buf);
  g_rand_free (r);
}

GST_END_TEST;

/* The border rules of SEMANTICS.md / OpenCV on a range "abcd" and on ranges
 * shorter than the kernel radius. */
GST_START_TEST (test_reference_border_rules)
{
  /* index -5..8 into n = 4 */
  static const gint clamp4[] = { 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3 };
  static const gint mirror4[] = { 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2 };
  static const gint reflect4[] = { 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0 };
  static const gint wrap4[] = { 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0 };
  gint i;

  for (i = -5; i <= 8; i++) {
    fail_unless_equals_int (ref_border_map (REF_BORDER_CLAMP, i, 4),
        clamp4[i + 5]);
    fail_unless_equals_int (ref_border_map (REF_BORDER_MIRROR, i, 4),
        mirror4[i + 5]);
    fail_unless_equals_int (ref_border_map (REF_BORDER_REFLECT, i, 4),
        reflect4[i + 5]);
    fail_unless_equals_int (ref_border_map (REF_BORDER_WRAP, i, 4),
        wrap4[i + 5]);
    fail_unless_equals_int (ref_border_map (REF_BORDER_CONSTANT, i, 4),
        i >= 0 && i < 4 ? i : -1);
    /* n = 1 and 2: every rule stays inside the range */
    fail_unless_equals_int (ref_border_map (REF_BORDER_MIRROR, i, 1), 0);
    fail_unless_equals_int (ref_border_map (REF_BORDER_REFLECT, i, 1), 0);
    fail_unless (ref_border_map (REF_BORDER_MIRROR, i, 2) ==
        ((i % 2) + 2) % 2);
  }
  /* reflect with n = 2: ab|ab|ba -> b a | a b | b a */
  fail_unless_equals_int (ref_border_map (REF_BORDER_REFLECT, -1, 2), 0);
  fail_unless_equals_int (ref_border_map (REF_BORDER_REFLECT, -2, 2), 1);
  fail_unless_equals_int (ref_border_map (REF_BORDER_REFLECT, 2, 2), 1);
  fail_unless_equals_int (ref_border_map (REF_BORDER_REFLECT, 3, 2), 0);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* gaussblur's reference (reference_gauss.c) */

/* scipy.ndimage._filters._gaussian_kernel1d(sigma, 0, radius), i.e. the
 * weights of gaussian_filter1d(sigma, truncate=radius/sigma): the first
 * row as scipy prints it (8 digits), the others exp(-x^2/(2 sigma^2)) / sum
 * evaluated separately in Python (math.exp, double). */
GST_START_TEST (test_ref_weights)
{
  static const gdouble scipy_s1_r3[7] = { 0.00443305, 0.05400558,
    0.24203623, 0.39905028, 0.24203623, 0.05400558, 0.00443305
  };
  static const struct
  {
    gdouble sigma;
    gint radius;
    gdouble w[13];
  } known[] = {
    {1.0, 3, {0.004433048175243745, 0.054005582622414484, 0.2420362293761143,
            0.3990502796524549, 0.2420362293761143, 0.054005582622414484,
            0.004433048175243745}},
    {2.0, 6, {0.0022181958546457657, 0.008773134791588385,
            0.027023157602879527, 0.06482518513852684, 0.12110939007484814,
            0.17621312278855086, 0.19967562749792112, 0.17621312278855086,
            0.12110939007484814, 0.06482518513852684, 0.027023157602879527,
            0.008773134791588385, 0.0022181958546457657}},
    {0.5, 2, {0.00026386508273735414, 0.10645077197359151,
            0.7865707258873422, 0.10645077197359151,
            0.00026386508273735414}},
    {4.0, 1, {0.32984321744593287, 0.34031356510813426,
            0.32984321744593287}},
    {1.5, 5, {0.00102838008447911, 0.007598758135239185, 0.03600077212843083,
            0.10936068950970002, 0.2130055377112537, 0.26601172486179436,
            0.2130055377112537, 0.10936068950970002, 0.03600077212843083,
            0.007598758135239185, 0.00102838008447911}},
  };
  static const struct
  {
    gdouble sigma;
    gint radius;
  } default_radius[] = {
    {0.01, 1}, {0.3, 1}, {0.5, 2}, {0.7, 3}, {1.0, 3}, {2.0, 6}, {3.3, 10},
    {4.0, 12}, {8.0, 24}, {16.0, 48}, {64.0, 192}, {256.0, 768},
  };
  static const gdouble sigmas[] = { 0.01, 0.3, 0.5, 1.0, 2.5, 7.0, 64.0,
    256.0
  };
  static const guint radii[] = { 0, 1, 5, 1024 };
  gdouble w[2 * 1024 + 1];
  guint k, s, i;

  ref_gauss_weights (1.0, 3, w);
  for (i = 0; i < 7; i++)
    fail_unless (fabs (w[i] - scipy_s1_r3[i]) < 5.1e-9, "sigma 1 radius 3: "
        "w[%u] = %.10f, scipy %.8f", i, w[i], scipy_s1_r3[i]);
  for (k = 0; k < G_N_ELEMENTS (known); k++) {
    ref_gauss_weights (known[k].sigma, known[k].radius, w);
    for (i = 0; i < 2 * (guint) known[k].radius + 1; i++)
      fail_unless (fabs (w[i] - known[k].w[i]) < 1e-15, "sigma %g radius "
          "%d: w[%u] = %.17g, want %.17g", known[k].sigma, known[k].radius, i,
          w[i], known[k].w[i]);
  }
  for (k = 0; k < G_N_ELEMENTS (default_radius); k++)
    fail_unless_equals_int (ref_gauss_axis_radius (default_radius[k].sigma, 0),
        default_radius[k].radius);
  fail_unless_equals_int (ref_gauss_axis_radius (4.0, 1), 1);
  fail_unless_equals_int (ref_gauss_axis_radius (0.5, 20), 20);

  /* unit sum and symmetry, any sigma and radius */
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (k = 0; k < G_N_ELEMENTS (radii); k++) {
      gint r = ref_gauss_axis_radius (sigmas[s], radii[k]);
      gdouble sum = 0.0;

      if (r > 1024)
        continue;
      ref_gauss_weights (sigmas[s], r, w);
      for (i = 0; i <= 2 * (guint) r; i++) {
        sum += w[i];
        fail_unless (w[i] >= 0.0 && w[i] <= 1.0);
        fail_unless (w[i] == w[2 * r - i], "sigma %g radius %d: not "
            "symmetric at %u", sigmas[s], r, i);
        if (i > 0 && i <= (guint) r)
          fail_unless (w[i] >= w[i - 1], "sigma %g radius %d: not "
              "unimodal at %u", sigmas[s], r, i);
      }
      fail_unless (fabs (sum - 1.0) < 1e-12, "sigma %g radius %d: weights "
          "sum to %.17g", sigmas[s], r, sum);
    }
  }

  /* a sampled Gaussian of sigma >= 2, long enough, has variance sigma^2
   * (the aliasing error is about exp(-2 pi^2 sigma^2)) */
  for (s = 0; s < 3; s++) {
    gdouble sigma = s == 0 ? 2.0 : s == 1 ? 3.5 : 9.5, var = 0.0;
    gint r = (gint) ceil (10 * sigma), j;

    ref_gauss_weights (sigma, r, w);
    for (j = -r; j <= r; j++)
      var += w[j + r] * j * j;
    fail_unless (fabs (var - sigma * sigma) < 1e-9 * sigma * sigma,
        "sigma %g: variance %.15g", sigma, var);
  }
}

GST_END_TEST;

/* x then y (ref_gauss_image) equals the direct 2D sum of
 * outer(wy, wx) * source with the border rule applied to both indices
 * (constant where either index is outside), for every border, frames
 * smaller than the kernel, sigma-y and an explicit radius. A constant image
 * stays constant (for the constant border: with that constant as
 * border-value). */
GST_START_TEST (test_ref_separable_vs_direct)
{
  static const gint dims[][2] = { {1, 1}, {2, 3}, {5, 7}, {9, 4}, {13, 11} };
  static const gdouble sig[][2] = { {0.8, -1}, {1.5, 3.0}, {4.0, 0.6},
  {2.0, -1}
  };
  static const guint rads[] = { 0, 2, 9, 0 };
  GRand *r = g_rand_new_with_seed (base_seed + 11);
  guint d, s, b;

  for (d = 0; d < G_N_ELEMENTS (dims); d++) {
    for (s = 0; s < G_N_ELEMENTS (sig); s++) {
      for (b = 0; b < REF_BORDER_N; b++) {
        gint w = dims[d][0], h = dims[d][1], n = w * h, rx, ry, i, j, x, y;
        gdouble *in = g_new (gdouble, n), *o1 = g_new (gdouble, n);
        gdouble *wx, *wy, cval = g_rand_double_range (r, 0, 255);
        RefGauss p;

        ref_gauss_init (&p);
        p.sigma = sig[s][0];
        p.sigma_y = sig[s][1];
        p.radius = rads[s];
        p.common.border = b;
        rx = ref_gauss_axis_radius (p.sigma, p.radius);
        ry = ref_gauss_axis_radius (ref_gauss_sigma_y (&p), p.radius);
        wx = g_new (gdouble, 2 * rx + 1);
        wy = g_new (gdouble, 2 * ry + 1);
        ref_gauss_weights (p.sigma, rx, wx);
        ref_gauss_weights (ref_gauss_sigma_y (&p), ry, wy);
        for (i = 0; i < n; i++)
          in[i] = g_rand_int_range (r, 0, 256);
        ref_gauss_image (&p, in, w, h, cval, o1);
        for (y = 0; y < h; y++) {
          for (x = 0; x < w; x++) {
            gdouble sum = 0.0;

            for (j = -ry; j <= ry; j++) {
              gint my = ref_border_map (b, y + j, h);
              for (i = -rx; i <= rx; i++) {
                gint mx = ref_border_map (b, x + i, w);
                sum += wy[j + ry] * wx[i + rx] * (mx < 0 || my < 0 ? cval :
                    in[my * w + mx]);
              }
            }
            fail_unless (fabs (sum - o1[y * w + x]) < 1e-9, "%dx%d sigma "
                "%g/%g radius %u border %s: at %d,%d x-then-y %.12g, 2D "
                "%.12g", w, h, sig[s][0], sig[s][1], rads[s],
                ref_border_nick (b), x, y, o1[y * w + x], sum);
          }
        }
        /* constant in, constant out */
        for (i = 0; i < n; i++)
          in[i] = cval;
        ref_gauss_image (&p, in, w, h, cval, o1);
        for (i = 0; i < n; i++)
          fail_unless (fabs (o1[i] - cval) < 1e-9);
        g_free (wx);
        g_free (wy);
        g_free (in);
        g_free (o1);
      }
    }
  }
  g_rand_free (r);
}

GST_END_TEST;

/* The border rules of scipy.ndimage, built independently: the
 * line extended step by step by reflecting (or wrapping) until it is long
 * enough, then a plain correlation. Kernels up to 10 times longer than the
 * line; mirror on a line of 1 is the pixel. */
static gdouble
extend_by_hand (RefBorder b, const gdouble * in, gint n, gint i, gdouble cval)
{
  /* fold i into [0, n) one reflection at a time */
  while (i < 0 || i >= n) {
    switch (b) {
      case REF_BORDER_CLAMP:
        i = i < 0 ? 0 : n - 1;
        break;
      case REF_BORDER_MIRROR:  /* dcb|abcd|cba */
        if (n == 1)
          i = 0;
        else
          i = i < 0 ? -i : 2 * (n - 1) - i;
        break;
      case REF_BORDER_REFLECT: /* cba|abcd|dcb */
        i = i < 0 ? -i - 1 : 2 * n - 1 - i;
        break;
      case REF_BORDER_WRAP:
        i = i < 0 ? i + n : i - n;
        break;
      default:
        return cval;
    }
  }
  return in[i];
}

GST_START_TEST (test_ref_border_extension)
{
  static const gint lens[] = { 1, 2, 3, 4, 7 };
  static const gdouble sigmas[] = { 0.7, 3.0, 12.0 };
  gdouble in[7] = { 10, 200, 35, 90, 0, 255, 128 }, out[7], wt[2 * 36 + 1];
  guint l, s, b;
  gint i, j;

  for (l = 0; l < G_N_ELEMENTS (lens); l++) {
    for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
      gint r = ref_gauss_axis_radius (sigmas[s], 0), n = lens[l];

      ref_gauss_weights (sigmas[s], r, wt);
      for (b = 0; b < REF_BORDER_N; b++) {
        ref_gauss_line (wt, r, in, n, 1, b, 77.0, out, 1);
        for (i = 0; i < n; i++) {
          gdouble want = 0.0;

          for (j = -r; j <= r; j++)
            want += wt[j + r] * extend_by_hand (b, in, n, i + j, 77.0);
          fail_unless (fabs (out[i] - want) < 1e-9, "line of %d, sigma %g, "
              "%s: at %d %.12g, by hand %.12g", n, sigmas[s],
              ref_border_nick (b), i, out[i], want);
        }
        if (n == 1 && b != REF_BORDER_CONSTANT)
          fail_unless (fabs (out[0] - in[0]) < 1e-9, "%s on one pixel is "
              "not that pixel", ref_border_nick (b));
      }
    }
  }
}

GST_END_TEST;

/* algorithm=recursive: with sigma-y unset it is reference_iir's Gaussian
 * (what recursivefilter computes); with mirror, reflect, wrap or a sigma
 * below 0.5 it is the sampled Gaussian. */
GST_START_TEST (test_ref_recursive)
{
  GRand *r = g_rand_new_with_seed (base_seed + 12);
  const gint w = 23, h = 17, n = 23 * 17;
  gdouble in[23 * 17], o1[23 * 17], o2[23 * 17];
  guint b, i;

  for (i = 0; i < (guint) n; i++)
    in[i] = g_rand_int_range (r, 0, 256);
  for (b = 0; b < REF_BORDER_N; b++) {
    RefGauss p, e;
    RefIir q;

    ref_gauss_init (&p);
    p.sigma = 3.0;
    p.recursive = TRUE;
    p.radius = 2;               /* ignored by the recursive filter */
    p.common.border = b;
    e = p;
    e.recursive = FALSE;
    ref_gauss_image (&p, in, w, h, 100.0, o1);
    if (b == REF_BORDER_CLAMP || b == REF_BORDER_CONSTANT) {
      fail_unless (ref_gauss_is_recursive (&p));
      ref_iir_init (&q);
      q.sigma = 3.0;
      ref_iir_image (&q, in, w, h, b == REF_BORDER_CONSTANT, 100.0, o2);
    } else {
      fail_if (ref_gauss_is_recursive (&p));
      ref_gauss_image (&e, in, w, h, 100.0, o2);
    }
    for (i = 0; i < (guint) n; i++)
      fail_unless (fabs (o1[i] - o2[i]) < 1e-9, "border %s at %u: %.12g "
          "%.12g", ref_border_nick (b), i, o1[i], o2[i]);
  }
  {
    RefGauss p;

    ref_gauss_init (&p);
    p.recursive = TRUE;
    p.sigma = 0.4;
    fail_if (ref_gauss_is_recursive (&p));
    p.sigma = 0.5;
    fail_unless (ref_gauss_is_recursive (&p));
    p.sigma_y = 0.3;
    fail_if (ref_gauss_is_recursive (&p));
  }
  g_rand_free (r);
}

GST_END_TEST;

/* The comparison can fail: on the kind of frames the element tests use
 * (MistakesFrame), each of these plausible mistakes changes values by more
 * than the tolerance. */
GST_START_TEST (test_gauss_ref_detects_mistakes)
{
  MistakesFrame m;
  RefGauss good, bad;
  guint n, a, b;

  mistakes_frame_init (&m, __i__);

#define EXPECT_DIFFERENT(what, min) G_STMT_START {                       \
    n = ref_diff (ref_gauss_apply, &m.frame, &good, &bad);               \
    expect_different (&m.info, what, n, min, "VKTILE_GAUSS_STATS");      \
  } G_STMT_END

  /* a copy */
  ref_gauss_init (&good);
  n = ref_diff (ref_gauss_apply, &m.frame, &good, NULL);
  fail_unless (n > 64 * 48 / 2, "a copy passes (%u mismatches)", n);

  /* sigma, sigma-y, radius */
  bad = good;
  bad.sigma = 2.2;
  EXPECT_DIFFERENT ("sigma 2.2 for 2", 20);
  good.sigma = 1.0;
  good.sigma_y = 4.0;
  bad = good;
  bad.sigma_y = -1.0;
  EXPECT_DIFFERENT ("sigma-y ignored", 20);
  bad = good;
  bad.sigma = 4.0;
  bad.sigma_y = 1.0;
  EXPECT_DIFFERENT ("sigma and sigma-y swapped", 20);
  ref_gauss_init (&good);
  good.sigma = 4.0;
  bad = good;
  bad.radius = 1;
  EXPECT_DIFFERENT ("radius 1 for sigma 4 ignored", 20);
  bad = good;
  bad.wrong_short_radius = TRUE;
  EXPECT_DIFFERENT ("default radius ceil(2 sigma) for ceil(3 sigma)", 20);
  bad = good;
  bad.radius = 6;
  EXPECT_DIFFERENT ("radius 6 for sigma 4", 20);
  /* (a radius beyond 3 sigma moves values by less than a code: the tail
   * holds 0.27% of the weight) */

  /* every border against every other one */
  for (a = 0; a < REF_BORDER_N; a++) {
    for (b = 0; b < REF_BORDER_N; b++) {
      gchar *what;

      if (a == b)
        continue;
      ref_gauss_init (&good);
      good.sigma = 3.0;
      good.common.border = a;
      good.common.border_value = 0.5;
      bad = good;
      bad.common.border = b;
      what = g_strdup_printf ("border %s for %s", ref_border_nick (b),
          ref_border_nick (a));
      EXPECT_DIFFERENT (what, 20);
      g_free (what);
    }
  }
  good.common.border = REF_BORDER_CONSTANT;
  good.common.border_value = 0.3;
  bad = good;
  bad.common.border_value = 0.7;
  EXPECT_DIFFERENT ("border-value 0.7 for 0.3", 20);

  /* the recursive Gaussian is not the sampled one */
  ref_gauss_init (&good);
  good.sigma = 1.0;
  bad = good;
  bad.recursive = TRUE;
  EXPECT_DIFFERENT ("recursive for the sampled Gaussian", 20);

  /* the unsharp mask */
  ref_gauss_init (&good);
  good.amount = 1.5;
  bad = good;
  bad.amount = 0.0;
  EXPECT_DIFFERENT ("amount ignored", 20);
  bad.amount = -1.5;
  EXPECT_DIFFERENT ("amount's sign", 20);
  bad.amount = 1.3;
  EXPECT_DIFFERENT ("amount 1.3 for 1.5", 20);
  good.amount = -0.5;
  bad = good;
  bad.amount = -0.4;
  EXPECT_DIFFERENT ("amount -0.4 for -0.5", 20);
  good.amount = 0.8;
  good.common.roi_x = 5;
  good.common.roi_y = 6;
  good.common.roi_width = 30;
  good.common.roi_height = 20;
  good.common.source_x = 21;
  good.common.source_y = 13;
  bad = good;
  bad.wrong_unsharp_target = TRUE;
  EXPECT_DIFFERENT ("unsharp mask of the target's pixel", 20);

  /* ROI and planes */
  ref_gauss_init (&good);
  bad = good;
  bad.common.source_x = 1;
  EXPECT_DIFFERENT ("source ROI moved by one", 20);
  if (__i__) {
    bad = good;
    bad.common.planes = 0x7;
    EXPECT_DIFFERENT ("alpha not filtered", 20);
  }

#undef EXPECT_DIFFERENT

  mistakes_frame_clear (&m);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* recursivefilter's reference (reference_iir.c) */

/* The recursive Gaussian: causal∘anticausal has unit sum, zero mean and
 * variance sigma^2 (the impulse response, on a line long enough for it to
 * decay), q solves the variance equation, sigma 2 is q = 1 (the poles are
 * given for sigma0 = 2), and the poles are stable. */
GST_START_TEST (test_ref_vv_moments)
{
  static const gdouble sigmas[] = { 0.5, 0.8, 1.0, 2.0, 3.7, 8.0, 32.0,
    128.0, 700.0
  };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    gdouble sigma = sigmas[s], b0, a[3], q, sum = 0, mean = 0, var = 0;
    gdouble *in, *out;
    RefIir p;
    gint P, n, i;

    ref_iir_init (&p);
    p.sigma = sigma;
    q = ref_iir_vv_coefficients (sigma, &b0, a);
    fail_unless (fabs (ref_iir_vv_variance (q) - sigma * sigma) <
        1e-9 * sigma * sigma, "sigma %g: q %g gives variance %.12g", sigma, q,
        ref_iir_vv_variance (q));
    fail_unless (fabs (b0 - (1.0 - a[0] - a[1] - a[2])) < 1e-15);
    if (sigma == 2.0)
      fail_unless (fabs (q - 1.0) < 1e-4, "sigma 2: q = %g, want ~1", q);

    P = ref_iir_padding (&p);
    fail_unless (P > 0 && P < (1 << 20), "sigma %g: padding %d", sigma, P);
    n = 2 * P + 1;
    in = g_new0 (gdouble, n);
    out = g_new0 (gdouble, n);
    in[P] = 1.0;
    ref_iir_filter_line (&p, in, n, 0.0, 0.0, out);
    for (i = 0; i < n; i++) {
      sum += out[i];
      mean += out[i] * (i - P);
    }
    mean /= sum;
    for (i = 0; i < n; i++)
      var += out[i] * (i - P - mean) * (i - P - mean);
    var /= sum;
    fail_unless (fabs (sum - 1.0) < 1e-6, "sigma %g: impulse response sums "
        "to %.12g", sigma, sum);
    fail_unless (fabs (mean) < 1e-6 * MAX (sigma, 1.0), "sigma %g: mean %g",
        sigma, mean);
    fail_unless (fabs (var - sigma * sigma) < 1e-6 * sigma * sigma,
        "sigma %g: variance %.12g, want %.12g", sigma, var, sigma * sigma);
    /* symmetric, like a Gaussian */
    for (i = 1; i < P / 2; i++)
      fail_unless (fabs (out[P + i] - out[P - i]) < 1e-9,
          "sigma %g: response not symmetric at +-%d", sigma, i);
    g_free (in);
    g_free (out);
  }
}

GST_END_TEST;

/* The box reference (an FIR with the n-fold convolved kernel) against n
 * running sums over a line padded by n r, the way one would compute it
 * without kernels. */
GST_START_TEST (test_ref_box_sliding_sum)
{
  static const guint radii[] = { 0, 1, 2, 5, 20, 40 };
  static const gint lens[] = { 1, 2, 7, 33, 100 };
  GRand *r = g_rand_new_with_seed (base_seed + 11);
  guint ri, it, li, b;

  for (ri = 0; ri < G_N_ELEMENTS (radii); ri++) {
    for (it = 1; it <= 3; it++) {
      for (li = 0; li < G_N_ELEMENTS (lens); li++) {
        for (b = 0; b < 2; b++) {
          guint rad = radii[ri];
          gint n = lens[li], P = it * rad, L = n + 2 * P, i, m, k;
          gdouble *in = g_new (gdouble, n), *ref = g_new (gdouble, n);
          gdouble *cur = g_new (gdouble, L), *nxt = g_new (gdouble, L);
          gdouble left, right, cval = g_rand_double_range (r, 0, 255);
          RefIir p;

          for (i = 0; i < n; i++)
            in[i] = g_rand_int_range (r, 0, 256);
          left = b ? cval : in[0];
          right = b ? cval : in[n - 1];
          ref_iir_init (&p);
          p.filter = REF_IIR_BOX;
          p.radius = rad;
          p.iterations = it;
          fail_unless_equals_int (ref_iir_padding (&p), P);
          ref_iir_filter_line (&p, in, n, left, right, ref);

          for (i = 0; i < L; i++)
            cur[i] = i < P ? left : i >= P + n ? right : in[i - P];
          /* after each running sum the valid part shrinks by r each side */
          for (k = 1; k <= (gint) it; k++) {
            gdouble s = 0.0;
            gint lo = k * rad, hi = L - k * rad;      /* [lo, hi) valid */

            for (m = lo - (gint) rad; m <= lo + (gint) rad; m++)
              s += cur[m];
            for (i = lo; i < hi; i++) {
              nxt[i] = s / (2 * rad + 1);
              if (i + 1 < hi)
                s += cur[i + rad + 1] - cur[i - rad];
            }
            memcpy (cur + lo, nxt + lo, (hi - lo) * sizeof (gdouble));
          }
          for (i = 0; i < n; i++)
            fail_unless (fabs (cur[P + i] - ref[i]) < 1e-9, "box r=%u n=%u "
                "len %d %s: at %d sliding sums give %.12g, reference %.12g",
                rad, it, n, b ? "constant" : "clamp", i, cur[P + i], ref[i]);
          g_free (in);
          g_free (ref);
          g_free (cur);
          g_free (nxt);
        }
      }
    }
  }
  g_rand_free (r);
}

GST_END_TEST;

/* The exponential on a step 0 -> V at index m (clamp: 0 before, V after):
 *   causal      y[i] = V (1 - a^(i-m+1)) for i >= m, 0 before;
 *   anticausal  y[i] = V a^(m-i) for i < m, V from m on;
 *   both        y[i] = V (1 - a^(i-m+1) / (1 + a)) for i >= m,
 *               V a^(m-i) / (1 + a) before
 * (both: the anticausal pass over the causal result, which keeps rising
 * towards V beyond the right edge). alpha < 0 derives a = exp(-1/sigma). */
GST_START_TEST (test_ref_exponential_step)
{
  static const gdouble alphas[] = { 0.0, 0.3, 0.9, -1.0 };
  const gint m = 20, n = 45;
  const gdouble V = 200.0;
  gdouble in[45], out[45];
  guint ai, d;
  gint i;

  for (i = 0; i < n; i++)
    in[i] = i < m ? 0.0 : V;
  for (ai = 0; ai < G_N_ELEMENTS (alphas); ai++) {
    for (d = 0; d < REF_IIR_N_DIRECTIONS; d++) {
      RefIir p;
      gdouble a;

      ref_iir_init (&p);
      p.filter = REF_IIR_EXPONENTIAL;
      p.alpha = alphas[ai];
      p.sigma = 5.0;
      p.direction = d;
      a = alphas[ai] >= 0 ? alphas[ai] : exp (-1.0 / 5.0);
      ref_iir_filter_line (&p, in, n, 0.0, V, out);
      for (i = 0; i < n; i++) {
        gdouble want;

        if (d == REF_IIR_CAUSAL)
          want = i >= m ? V * (1 - pow (a, i - m + 1)) : 0.0;
        else if (d == REF_IIR_ANTICAUSAL)
          want = i >= m ? V : V * pow (a, m - i);
        else
          want = i >= m ? V * (1 - pow (a, i - m + 1) / (1 + a))
              : V * pow (a, m - i) / (1 + a);
        fail_unless (fabs (out[i] - want) < 1e-9, "exponential a=%g %s: "
            "y[%d] = %.12g, closed form %.12g", a,
            ref_iir_direction_nick (d), i, out[i], want);
      }
    }
  }
}

GST_END_TEST;

/* custom b0 = 1 - a, feedback <a> is the exponential, in every direction
 * and on images (both axes, both borders). */
GST_START_TEST (test_ref_custom_is_exponential)
{
  GRand *r = g_rand_new_with_seed (base_seed + 12);
  const gint w = 23, h = 17;
  gdouble in[23 * 17], o1[23 * 17], o2[23 * 17];
  guint d, b, i;

  for (i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = g_rand_int_range (r, 0, 256);
  for (d = 0; d < REF_IIR_N_DIRECTIONS; d++) {
    for (b = 0; b < 2; b++) {
      RefIir pe, pc;

      ref_iir_init (&pe);
      pe.filter = REF_IIR_EXPONENTIAL;
      pe.alpha = 0.7;
      pe.direction = d;
      ref_iir_init (&pc);
      pc.filter = REF_IIR_CUSTOM;
      pc.feedforward = 0.3;
      pc.feedback[0] = 0.7;
      pc.n_feedback = 1;
      pc.direction = d;
      ref_iir_image (&pe, in, w, h, b, 77.0, o1);
      ref_iir_image (&pc, in, w, h, b, 77.0, o2);
      for (i = 0; i < G_N_ELEMENTS (in); i++)
        fail_unless (fabs (o1[i] - o2[i]) < 1e-9);
    }
  }
  g_rand_free (r);
}

GST_END_TEST;

static void
transpose (const gdouble * in, gint w, gint h, gdouble * out)
{
  gint i, j;

  for (j = 0; j < h; j++)
    for (i = 0; i < w; i++)
      out[(gsize) i * h + j] = in[(gsize) j * w + i];
}

/* On the infinite image, clamp/constant and these LTI filters, x then y
 * equals y then x: the reference's xy on the transposed image, transposed
 * back, is its xy. This needs the y pass of a constant border to see the
 * x-filtered constant (gain * c); the wrong variant that extends with c
 * itself is not symmetric when the DC gain is not 1, which the last check
 * shows. */
GST_START_TEST (test_ref_xy_commutes)
{
  GRand *r = g_rand_new_with_seed (base_seed + 13);
  const gint w = 19, h = 13, n = 19 * 13;
  gdouble in[19 * 13], t[19 * 13], o1[19 * 13], o2[19 * 13], o3[19 * 13];
  gdouble worst_wrong = 0.0;
  guint f, b, i;

  for (i = 0; i < (guint) n; i++)
    in[i] = g_rand_int_range (r, 0, 256);
  for (f = 0; f < 5; f++) {
    for (b = 0; b < 2; b++) {
      RefIir p;

      ref_iir_init (&p);
      switch (f) {
        case 0:
          p.sigma = 3.0;
          break;
        case 1:
          p.filter = REF_IIR_EXPONENTIAL;
          p.alpha = 0.8;
          p.direction = REF_IIR_CAUSAL;
          break;
        case 2:
          p.filter = REF_IIR_BOX;
          p.radius = 3;
          p.iterations = 3;
          break;
        default:
          /* gain 1.3 (per pass) */
          p.filter = REF_IIR_CUSTOM;
          ref_iir_random_custom (r, 3, &p.feedforward, p.feedback);
          p.feedforward *= 1.3 / (p.feedforward / (1 - p.feedback[0] -
                  p.feedback[1] - p.feedback[2]));
          p.n_feedback = 3;
          p.direction = f == 3 ? REF_IIR_BOTH : REF_IIR_ANTICAUSAL;
          break;
      }
      ref_iir_image (&p, in, w, h, b, 100.0, o1);
      transpose (in, w, h, t);
      ref_iir_image (&p, t, h, w, b, 100.0, o3);
      transpose (o3, h, w, o2);
      for (i = 0; i < (guint) n; i++)
        fail_unless (fabs (o1[i] - o2[i]) < 1e-6 * MAX (1.0, fabs (o1[i])),
            "filter %u border %u: xy and yx differ at %u: %.12g %.12g", f, b,
            i, o1[i], o2[i]);
      if (b && f >= 3) {
        p.wrong_y_extension = TRUE;
        ref_iir_image (&p, in, w, h, b, 100.0, o1);
        ref_iir_image (&p, t, h, w, b, 100.0, o3);
        transpose (o3, h, w, o2);
        for (i = 0; i < (guint) n; i++)
          worst_wrong = MAX (worst_wrong, fabs (o1[i] - o2[i]));
      }
    }
  }
  fail_unless (worst_wrong > 1.0, "extending the y pass by the constant "
      "itself is as symmetric as the definition (%g)", worst_wrong);
  g_rand_free (r);
}

GST_END_TEST;

/* The recursive Gaussian against the true sampled Gaussian (normalised
 * weights, truncated at 5 sigma, same border) on smooth 8-bit images, in
 * double: the approximation error of the vV design itself, the bound the
 * element is held to in test_gaussian_vs_true. VKTILE_IIR_STATS=1 prints
 * the maxima of a run; the table at gaussian_true_bound() gives them over
 * many runs. */
static gdouble
measure_vv_vs_true (GRand * r, gdouble sigma, gboolean constant, gint w,
    gint h, GstVideoFrame * frame)
{
  gdouble *in = g_new (gdouble, (gsize) w * h);
  gdouble *a = g_new (gdouble, (gsize) w * h);
  gdouble *b = g_new (gdouble, (gsize) w * h);
  gdouble cval = 255.0 * g_rand_double (r), worst = 0.0;
  RefIir p;
  gint i, x, y;

  fill_smooth (frame, r, 0, 12.0, 0.01);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      in[y * w + x] = ref_comp_get (frame, 0, x, y);
  ref_iir_init (&p);
  p.sigma = sigma;
  ref_iir_image (&p, in, w, h, constant, cval, a);
  ref_true_gaussian_image (sigma, in, w, h, constant, cval, b);
  for (i = 0; i < w * h; i++)
    worst = MAX (worst, fabs (a[i] - b[i]));
  g_free (in);
  g_free (a);
  g_free (b);
  return worst;
}

GST_START_TEST (test_ref_gaussian_vs_true)
{
  static const gdouble sigmas[] = { 1.0, 2.0, 8.0 };
  GRand *r = g_rand_new_with_seed (base_seed + 14);
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  guint s, k;

  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    gdouble worst = 0.0;

    for (k = 0; k < 24; k++) {
      gint w = k % 2 ? 127 : 40, h = k % 2 ? 65 : 30;

      gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
      buf = new_frame_buffer (&info, &frame);
      worst = MAX (worst, measure_vv_vs_true (r, sigmas[s], k % 4 >= 2, w, h,
              &frame));
      free_frame_buffer (buf, &frame);
    }
    if (g_getenv ("VKTILE_IIR_STATS"))
      g_printerr ("vV vs true Gaussian, sigma %g: max |diff| %.4f code "
          "values\n", sigmas[s], worst);
    fail_unless (worst <= ref_iir_gaussian_true_bound (sigmas[s]),
        "VKTILE_SEED=%u sigma %g: the recursive Gaussian is %g code values "
        "from the true one, beyond the bound %g", base_seed, sigmas[s], worst,
        ref_iir_gaussian_true_bound (sigmas[s]));
  }
  g_rand_free (r);
}

GST_END_TEST;

/* The comparison can fail (as test_gauss_ref_detects_mistakes has it), for
 * the mistakes a recursive filter invites. */
GST_START_TEST (test_iir_ref_detects_mistakes)
{
  MistakesFrame m;
  RefIir good, bad;
  guint c, n;
  gint x, y;

  mistakes_frame_init (&m, __i__);

#define EXPECT_DIFFERENT(what) G_STMT_START {                            \
    n = ref_diff (ref_iir_apply, &m.frame, &good, &bad);                 \
    expect_different (&m.info, what, n, 20, "VKTILE_IIR_STATS");         \
  } G_STMT_END

  /* the exponential "both" with clamp: anticausal over the causal result
   * beyond the edge, versus over a re-clamped causal result */
  ref_iir_init (&good);
  good.filter = REF_IIR_EXPONENTIAL;
  good.alpha = 0.9;
  bad = good;
  bad.wrong_reclamp = TRUE;
  EXPECT_DIFFERENT ("re-clamped anticausal boundary (exponential)");
  /* the same for the Gaussian, which is always both */
  ref_iir_init (&good);
  good.sigma = 8.0;
  bad = good;
  bad.wrong_reclamp = TRUE;
  EXPECT_DIFFERENT ("re-clamped anticausal boundary (gaussian)");

  /* a copy */
  ref_iir_init (&good);
  n = ref_diff (ref_iir_apply, &m.frame, &good, NULL);
  fail_unless (n > 64 * 48 / 2, "a copy passes (%u mismatches)", n);

  /* a wrong sigma */
  bad = good;
  bad.sigma = 2.3;
  EXPECT_DIFFERENT ("sigma 2.3 for 2");

  /* the y pass of a constant border extending with the constant itself
   * instead of the x-filtered constant, for a DC gain of 1.1 */
  ref_iir_init (&good);
  good.filter = REF_IIR_CUSTOM;
  good.feedback[0] = 0.6;
  good.feedback[1] = 0.2;
  good.n_feedback = 2;
  good.feedforward = 0.2 * 1.1;
  good.common.border = REF_BORDER_CONSTANT;
  good.common.border_value = 1.0;
  bad = good;
  bad.wrong_y_extension = TRUE;
  EXPECT_DIFFERENT ("y pass extended by border-value for gain 1.1");

  /* axes, direction, iterations, border, ROI, temporal */
  ref_iir_init (&good);
  bad = good;
  bad.axes = REF_IIR_AXES_X;
  EXPECT_DIFFERENT ("axes x for xy");
  bad.axes = REF_IIR_AXES_Y;
  EXPECT_DIFFERENT ("axes y for xy");
  good.filter = bad.filter = REF_IIR_EXPONENTIAL;
  good.axes = bad.axes = REF_IIR_AXES_XY;
  good.alpha = bad.alpha = 0.8;
  good.direction = REF_IIR_CAUSAL;
  bad.direction = REF_IIR_ANTICAUSAL;
  EXPECT_DIFFERENT ("anticausal for causal");
  bad.direction = REF_IIR_BOTH;
  EXPECT_DIFFERENT ("both for causal");
  good.filter = bad.filter = REF_IIR_BOX;
  good.radius = bad.radius = 3;
  good.iterations = 3;
  bad.iterations = 2;
  EXPECT_DIFFERENT ("box of 2 iterations for 3");
  ref_iir_init (&good);
  good.sigma = 4.0;
  bad = good;
  bad.common.border = REF_BORDER_CONSTANT;
  bad.common.border_value = 0.5;
  EXPECT_DIFFERENT ("constant border for clamp");
  bad = good;
  bad.common.source_x = 1;
  EXPECT_DIFFERENT ("source ROI moved by one");

#undef EXPECT_DIFFERENT

  /* temporal: a second frame blended with the first, versus alone */
  {
    RefIirTemporal t;
    GstVideoFrame f1, f2, f3;
    GstBuffer *b1 = new_frame_buffer (&m.info, &f1);
    GstBuffer *b2 = new_frame_buffer (&m.info, &f2);
    GstBuffer *b3 = new_frame_buffer (&m.info, &f3);

    ref_iir_init (&good);
    good.temporal_alpha = 0.5;
    ref_iir_temporal_init (&t);
    ref_iir_frame (&m.frame, &f2, &good, &t);
    /* a different second frame: the first inverted */
    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&m.info); c++)
      for (y = 0; y < 48; y++)
        for (x = 0; x < 64; x++)
          ref_comp_set (&f1, c, x, y, 255 - ref_comp_get (&m.frame, c, x, y));
    ref_iir_frame (&f1, &f2, &good, &t);
    ref_iir_frame (&f1, &f3, &good, NULL);
    n = count_diff (&f2, &f3, TOL);
    fail_unless (n >= 20, "temporal blending is invisible (%u)", n);
    ref_iir_temporal_clear (&t);
    free_frame_buffer (b1, &f1);
    free_frame_buffer (b2, &f2);
    free_frame_buffer (b3, &f3);
  }

  mistakes_frame_clear (&m);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */

static const SuiteEntry references_tests[] = {
  SUITE_CASE ("conv"),
  SUITE_LOOP_TEST (test_reference_detects_copy, N_FORMATS),
  SUITE_LOOP_TEST (test_reference_reads_what_gstreamer_unpacks, N_FORMATS),
  SUITE_TEST (test_reference_border_rules),

  SUITE_CASE ("gauss"),
  SUITE_TEST (test_ref_weights),
  SUITE_TEST (test_ref_separable_vs_direct),
  SUITE_TEST (test_ref_border_extension),
  SUITE_TEST (test_ref_recursive),
  SUITE_LOOP_TEST (test_gauss_ref_detects_mistakes, 2),

  SUITE_CASE ("iir"),
  SUITE_TEST (test_ref_vv_moments),
  SUITE_TEST (test_ref_box_sliding_sum),
  SUITE_TEST (test_ref_exponential_step),
  SUITE_TEST (test_ref_custom_is_exponential),
  SUITE_TEST (test_ref_xy_commutes),
  SUITE_TEST (test_ref_gaussian_vs_true),
  SUITE_LOOP_TEST (test_iir_ref_detects_mistakes, 2),
};

SUITE_MAIN ("references", references_tests, &base_seed, NULL);
