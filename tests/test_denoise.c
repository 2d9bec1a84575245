/* vktile tests — denoise against the CPU reference (reference_denoise.c).
 *
 * Owns the GstCheck/GstHarness tests of the denoise element:
 *
 * - every format, on random frames and noisy scenes, with the noise given
 *   (large, so that the motion weights span 0 to temporal-alpha and the
 *   detail kept none to all) and estimated, keep-detail on and off, the
 *   fixed mode, every border rule, frame sizes from 1x1, a ROI with a source
 *   offset, a plane mask; tolerance 1 code value, outputs poisoned before
 *   they go back to the pool;
 * - the recursion's restarts (flush, DISCONT, caps change, planes change,
 *   temporal-alpha switched on) and long recursions at a large
 *   temporal-alpha (the state's precision);
 * - the noise estimate read from noise-estimate, on the first two frames
 *   of a recursion and every 4th after;
 * - frames in VulkanBuffer memory on both sides;
 * - what it is for: a noisy still scene gains 4 dB and a cut is followed;
 * - where everything moves, the detail put back is no worse than none;
 * - the properties' defaults (the live-denoise recipe).
 *
 * Random data comes from VKTILE_SEED; every failure message carries it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "reference_denoise.h"

#define ELEMENT "denoise"
#define TOL 1
/* At most 1 value in this many may round the other way (check_rounding) */
#define ROUNDING_OFF_FRACTION 50

static guint32 base_seed;

/* The formats of test_roi_planes, one a run. */
static const GstVideoFormat roi_planes_formats[] = { GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12
};

/* The fixture, the reference's mirror of the element's properties and
 * its temporal state. */
typedef struct
{
  HarnessFx base;
  RefDenoise ref;
  RefIirTemporal temporal;
} Fx;

/* The largest difference of the element's detail threshold t (1 / the
 * detail-threshold it reports) from the reference's: the GPU takes the
 * residuals its risk sums are made of in single precision (the vertex,
 * on the CPU, in double; the candidates lie 0.04-0.17 apart). */
#define DETAIL_T_TOL 5e-3

/* The reference of the frame the element just filtered, with the
 * element's detail threshold (read back) in place of its own, once that is
 * checked to be the reference's within DETAIL_T_TOL: a t a hair apart
 * moves values by more than a code in 16-bit formats. */
static void
denoise_filter (HarnessFx * base, const GstVideoFrame * in,
    GstVideoFrame * out, gboolean ties_down)
{
  Fx *fx = FX (base);
  RefIirTemporal *t = &fx->temporal;
  gdouble thr[GST_VIDEO_MAX_PLANES];
  guint n = 0, v, i = 0, c;

  t->detail_given = FALSE;
  if (base->el)
    n = get_double_array (base->el, "detail-threshold", thr,
        G_N_ELEMENTS (thr));
  /* without keep-detail nothing is reported */
  if (!(fx->ref.keep_detail && fx->ref.motion_adaptive
          && fx->ref.temporal_alpha > 0.0))
    fail_unless_equals_int (n, 0);
  /* the planes the element reports: those with a selected component */
  for (v = 0; v < ref_n_filtered_planes (&in->info) && i < n; v++) {
    gboolean selected = FALSE;
    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&in->info); c++)
      selected |= (fx->ref.common.planes & (1u << c))
          && ref_comp_filtered_plane (in->info.finfo, c) == v;
    if (selected) {
      t->detail_t_given[v] = thr[i] > 0.0 ? 1.0 / thr[i] : 0.0;
      i++;
    }
  }
  t->detail_given = n > 0;
  ref_denoise_frame (in, out, &fx->ref, t);
  if (!t->detail_given)
    return;
  for (v = 0, i = 0; v < GST_VIDEO_MAX_PLANES; v++)
    i += (t->detail_planes >> v) & 1u;
  fail_unless_equals_int (n, i);
  for (v = 0; v < GST_VIDEO_MAX_PLANES; v++)
    if (t->detail_planes & (1u << v))
      fail_unless (fabs (t->detail_t_given[v] - t->detail_t[v]) <=
          DETAIL_T_TOL, "VKTILE_SEED=%u plane %u: detail threshold 1/%.6f, "
          "the reference's 1/%.6f", base->base_seed, v,
          t->detail_t_given[v], t->detail_t[v]);
}

static gchar *
denoise_describe (HarnessFx * base)
{
  return ref_denoise_describe (&FX (base)->ref);
}

static void
denoise_restart (HarnessFx * base)
{
  ref_iir_temporal_reset (&FX (base)->temporal);
}

/* With the noise estimated, the estimate the element reports after each
 * frame is the reference's. */
static void
denoise_checked (HarnessFx * base, const gchar * what)
{
  Fx *fx = FX (base);
  gdouble latest[GST_VIDEO_MAX_PLANES];

  ref_noise_latest (&fx->temporal, latest);
  if (fx->ref.temporal_alpha > 0.0 && fx->ref.motion_adaptive
      && fx->ref.noise_sigma == 0.0)
    harness_fx_check_noise_estimate (base, latest, what);
}

static void
fx_reference_init (HarnessFx * base)
{
  Fx *fx = FX (base);

  ref_denoise_init (&fx->ref);
  ref_iir_temporal_init (&fx->temporal);
}

static void
fx_reference_clear (HarnessFx * base)
{
  ref_iir_temporal_clear (&FX (base)->temporal);
}

static const FxElement fx_element = {
  .name = ELEMENT,
  .tol = TOL,
  .content = CONTENT_ANY,
  /* Rounding to nearest, and a state as precise as the reference's: the
   * tolerance of a code value would also pass truncation, or a state kept
   * to 1/8 code value, which move a good part of the values by one. Only
   * 8-bit values count (at 16 bits fp32 noise alone is a good part of a
   * code). */
  .rounding = {.floor = 8,.fraction = ROUNDING_OFF_FRACTION,.depth = 8},
  .init = fx_reference_init,
  .clear = fx_reference_clear,
  .filter = denoise_filter,
  .describe = denoise_describe,
  .restart = denoise_restart,
  .checked = denoise_checked,
};

/* noise-sigma given (> 0) or estimated (0), motion-adaptive. */
static void
fx_set_noise (Fx * fx, gdouble noise_sigma)
{
  gst_util_set_object_arg (G_OBJECT (fx->base.el), "temporal-mode",
      "motion-adaptive");
  g_object_set (fx->base.el, "noise-sigma", noise_sigma, NULL);
  fx->ref.motion_adaptive = TRUE;
  fx->ref.noise_sigma = noise_sigma;
}

static void
fx_set_keep_detail (Fx * fx, gboolean keep)
{
  g_object_set (fx->base.el, "keep-detail", keep, NULL);
  fx->ref.keep_detail = keep;
}

/* A change of planes restarts the recursion. */
static void
fx_set_planes_restart (Fx * fx, guint planes)
{
  fx_set_planes (fx, planes);
  ref_iir_temporal_reset (&fx->temporal);
}

/* ------------------------------------------------------------------------ */

/* The defaults are the live-denoise recipe. */
GST_START_TEST (test_defaults)
{
  gdouble sigma, alpha, noise;
  gboolean keep;
  GstElement *el;

  require_element_named (ELEMENT);
  el = gst_element_factory_make (ELEMENT, NULL);
  g_object_get (el, "sigma", &sigma, "temporal-alpha", &alpha, "noise-sigma",
      &noise, "keep-detail", &keep, NULL);
  fail_unless (sigma == 0.8 && alpha == 0.8 && noise == 0.0 && keep);
  fail_unless_equals_string (get_enum_nick (el, "temporal-mode"),
      "motion-adaptive");
  fail_unless_equals_string (get_enum_nick (el, "border"), "clamp");
  gst_object_unref (el);
  check_pad_templates (ELEMENT, all_formats, N_FORMATS);
}

GST_END_TEST;

/* The first frame of a run whose detail threshold is chosen by the risk
 * of a frame before it. */
#define FIRST_CHOSEN (REF_DENOISE_DETAIL_INTERVAL + REF_DENOISE_DETAIL_PHASE)

/* Every format of a group through one harness: random frames with the
 * noise given (40: weights and detail span their range), keep-detail off
 * and on again (the motion reference not kept, then kept), the fixed mode,
 * a restart by flush, then noisy scenes with the noise estimated over
 * more than one interval of the estimate and of the detail threshold. */
FX_TEST (test_formats, 100)
{
  GstVideoFormat fmt;
  guint i, t, index;

  for (i = 0; (fmt = harness_group_format (__i__, i, &index)); i++) {
    const gchar *name = gst_video_format_to_string (fmt);

    fx_set_noise (fx, 40.0);
    fx_set_keep_detail (fx, TRUE);
    fx_set_caps (fx, fmt, 37, 22);
    for (t = 0; t < 3; t++)
      fx_check (fx, "%s noise 40, frame %u", name, t + 1);
    fx_set_keep_detail (fx, FALSE);
    fx_check (fx, "%s keep-detail=false", name);
    fx_set_keep_detail (fx, TRUE);
    for (t = 0; t < 2; t++)
      fx_check (fx, "%s keep-detail again, frame %u", name, t + 1);
    gst_util_set_object_arg (G_OBJECT (fx->base.el), "temporal-mode", "fixed");
    fx->ref.motion_adaptive = FALSE;
    for (t = 0; t < 2; t++)
      fx_check (fx, "%s fixed, frame %u", name, t + 1);
    fx_flush (fx);
    fx_check (fx, "%s fixed, after a flush", name);

    fx_set_noise (fx, 0.0);
    fx_set_caps (fx, fmt, 130, 84);
    /* through two choices of the detail threshold */
    for (t = 0; t < FIRST_CHOSEN + REF_DENOISE_DETAIL_INTERVAL + 1; t++)
      fx_check_buffer (fx, noisy_scene (&fx->base.info, fx->base.rand,
              1 + t / 3, t < 4 ? 6.0 : 12.0), "estimated noise");
  }
}

/* Sizes from one pixel to several tiles, every border rule and sigmas
 * from a tap to many, in the formats of one plane layout each. */
FX_TEST (test_sizes_borders, 200)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE
  };
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {5, 7}, {33, 17},
  {257, 130}
  };
  static const gdouble sigmas[] = { 0.5, 0.8, 1.5, 3.0, 0.8 };
  guint i, t;

  fx_set_noise (fx, 30.0);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    RefBorder b = (RefBorder) ((i + __i__) % REF_BORDER_N);

    harness_fx_set_border (&fx->base, b, g_rand_double (fx->base.rand));
    g_object_set (fx->base.el, "sigma", sigmas[i], NULL);
    fx->ref.sigma = sigmas[i];
    fx_set_caps (fx, fmts[__i__], sizes[i][0], sizes[i][1]);
    for (t = 0; t < 3; t++)
      fx_check (fx, "%dx%d border %s sigma %g, frame %u", sizes[i][0],
          sizes[i][1], ref_border_nick (b), sigmas[i], t + 1);
  }
}

/* A ROI with a source offset (the state is the ROI's), then a plane mask
 * (a change of planes restarts). */
FX_TEST (test_roi_planes, 300)
{
  guint t;

  fx_set_noise (fx, 30.0);
  fx_set_roi (fx, 5, 3, 40, 21, 8, 1);
  fx_set_caps (fx, roi_planes_formats[__i__], 61, 33);
  for (t = 0; t < 3; t++)
    fx_check (fx, "ROI, frame %u", t + 1);
  fx_set_planes_restart (fx, 0x5);
  for (t = 0; t < 2; t++)
    fx_check (fx, "ROI, planes 0x5, frame %u", t + 1);
  fx_set_planes_restart (fx, 0xf);
  fx_check (fx, "ROI, all planes again");
}

/* Restarts: a DISCONT buffer, a caps change of size, temporal-alpha 0
 * (the blur alone) and back; then a long recursion at temporal-alpha 0.95
 * on a still noisy scene, where the state's rounding would build up. */
FX_TEST (test_restarts_and_long_recursion, 400)
{
  GstBuffer *in;
  guint t;

  fx_set_noise (fx, 20.0);
  fx_set_caps (fx, __i__ ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_RGBx,
      35, 19);
  fx_check (fx, "first frame");
  fx_check (fx, "second frame");
  in = make_frame (&fx->base.info, fx->base.rand, LAYOUT_DEFAULT, CONTENT_ANY);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  ref_iir_temporal_reset (&fx->temporal);
  fx_check_buffer (fx, in, "a DISCONT frame");
  fx_check (fx, "the frame after a DISCONT one");
  fx_set_caps (fx, GST_VIDEO_INFO_FORMAT (&fx->base.info), 36, 20);
  fx_check (fx, "after a caps change");
  g_object_set (fx->base.el, "temporal-alpha", 0.0, NULL);
  fx->ref.temporal_alpha = 0.0;
  fx_check (fx, "temporal-alpha 0");
  g_object_set (fx->base.el, "temporal-alpha", 0.95, NULL);
  fx->ref.temporal_alpha = 0.95;
  fx_set_noise (fx, 8.0);
  for (t = 0; t < 40; t++)
    fx_check_buffer (fx, noisy_scene (&fx->base.info, fx->base.rand, 7, 5.0),
        "temporal-alpha 0.95 on a still scene");
  /* keep-detail off and on starts the detail threshold's schedule again */
  fx_set_keep_detail (fx, FALSE);
  fx_check (fx, "keep-detail off in a long recursion");
  fx_set_keep_detail (fx, TRUE);
  for (t = 0; t < FIRST_CHOSEN + 2; t++)
    fx_check_buffer (fx, noisy_scene (&fx->base.info, fx->base.rand, 7, 5.0),
        "keep-detail on again");
}

/* With frames in flight beyond the threshold's delay (its read-back waits
 * for the frame that summed), the same frames as one at a time. */
GST_START_TEST (test_frames_in_flight)
{
  GstHarness *h[2];
  GstVideoInfo info;
  GRand *rand = g_rand_new_with_seed (base_seed);
  const guint n = FIRST_CHOSEN + 2 * REF_DENOISE_DETAIL_INTERVAL;
  GstBuffer *in[FIRST_CHOSEN + 2 * REF_DENOISE_DETAIL_INTERVAL];
  guint t, k;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 130, 84);
  h[0] = gst_harness_new_parse (ELEMENT " frames-in-flight=6");
  h[1] = gst_harness_new_parse (ELEMENT " frames-in-flight=1");
  for (t = 0; t < n; t++)
    in[t] = noisy_scene (&info, rand, 1 + t / 5, 6.0);
  for (k = 0; k < 2; k++) {
    gchar *caps = g_strdup_printf ("video/x-raw,format=NV12,width=130,"
        "height=84,framerate=30/1");

    gst_harness_set_caps_str (h[k], caps, caps);
    g_free (caps);
    /* all of them before any comes out */
    for (t = 0; t < n; t++)
      fail_unless_equals_int (gst_harness_push (h[k],
              gst_buffer_ref (in[t])), GST_FLOW_OK);
  }
  for (t = 0; t < n; t++) {
    GstBuffer *a = gst_harness_pull (h[0]), *b = gst_harness_pull (h[1]);
    GstMapInfo ma, mb;

    fail_unless (a != NULL && b != NULL);
    fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
    fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
    fail_unless (ma.size == mb.size && memcmp (ma.data, mb.data,
            ma.size) == 0, "VKTILE_SEED=%u frame %u differs with 6 frames "
        "in flight", base_seed, t);
    gst_buffer_unmap (a, &ma);
    gst_buffer_unmap (b, &mb);
    gst_buffer_unref (a);
    gst_buffer_unref (b);
  }
  for (t = 0; t < n; t++)
    gst_buffer_unref (in[t]);
  gst_harness_teardown (h[0]);
  gst_harness_teardown (h[1]);
  g_rand_free (rand);
}

GST_END_TEST;

/* Frames in Vulkan buffers on both sides (a copy before and after,
 * planes=0), the state and the estimate kept on the GPU. */
GST_START_TEST (test_vulkan_memory)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_GRAY16_LE
  };
  guint t;
  Fx fx;

  fx_init_full (&fx, VULKAN_BETWEEN_COPIES ("tiledconv", ELEMENT), "a",
      500 + __i__);
  fx.base.n_elements = 3;
  harness_fx_watch_memory (&fx.base);

  fx_set_caps (&fx, fmts[__i__], 130, 84);
  for (t = 0; t < FIRST_CHOSEN + 1; t++)
    fx_check_buffer (&fx, noisy_scene (&fx.base.info, fx.base.rand, 1, 6.0),
        "Vulkan memory, estimated noise");
  harness_fx_check_vulkan_memory (&fx.base, FIRST_CHOSEN + 1);
  fx_clear (&fx);
}

GST_END_TEST;

/* A still scene of texture as rough as it gets (every value random, the
 * same in every frame) under fresh noise of 5 codes each frame: the
 * spatial estimate reads the texture as noise, the differences from the
 * last estimated frame do not. Checked against the reference after every
 * frame, and within 15 % of the noise added from the second frame on (the
 * first temporal estimate). The frame is large enough that a 4:2:0
 * chroma plane has about 1900 samples, whose median strays by 3 % (one
 * standard deviation; every format stayed within 7 % in two runs): at
 * 130x84 an I420 chroma plane's 315 strayed by 19 % now and then. */
static void
check_texture_estimate (Fx * fx, GstVideoFormat fmt)
{
  GstBuffer *texture;
  GstVideoFrame ft;
  guint t, plane, c;
  gint x, y;

  fx_set_caps (fx, fmt, 320, 192);
  texture =
      make_frame (&fx->base.info, fx->base.rand, LAYOUT_DEFAULT, CONTENT_NOISE);
  for (t = 0; t < 9; t++) {
    GstBuffer *in = gst_buffer_copy_deep (texture);
    GstVideoFrame f;

    fail_unless (gst_video_frame_map (&f, &fx->base.info, in,
            GST_MAP_READWRITE));
    for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++) {
      gdouble maxv = ref_comp_maxv (fx->base.info.finfo, c);
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
        for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++) {
          gdouble v = ref_comp_get (&f, c, x, y) + 5.0 * maxv / 255.0 *
              gauss_sample (fx->base.rand);
          ref_comp_store (&f, c, x, y, CLAMP (v, 0.0, maxv), FALSE);
        }
    }
    gst_video_frame_unmap (&f);
    fx_check_buffer (fx, in, "texture under noise 5");
    for (plane = 0; t > 0 && plane < ref_n_filtered_planes (&fx->base.info);
        plane++)
      fail_unless (fabs (fx->temporal.noise_est[plane] / 5.0 - 1.0) < 0.15,
          "%s plane %u: noise 5 on a still texture estimated as %.2f after "
          "%u frames", GST_VIDEO_INFO_NAME (&fx->base.info), plane,
          fx->temporal.noise_est[plane], t + 1);
  }
  fail_unless (gst_video_frame_map (&ft, &fx->base.info, texture,
          GST_MAP_READ));
  gst_video_frame_unmap (&ft);
  gst_buffer_unref (texture);
}

/* Every format of a group (harness.c): the planes, subsampling, packed
 * 4:2:2, the 3-byte and padded orders and the deeper codes. */
FX_TEST (test_noise_estimate_texture, 700)
{
  GstVideoFormat fmt;
  guint i, index;

  for (i = 0; (fmt = harness_group_format (__i__, i, &index)); i++)
    check_texture_estimate (fx, fmt);
}

/* Root-mean-square difference of the first component from `clean`. */
static gdouble
rms_from (const GstVideoInfo * info, GstBuffer * buf, GstBuffer * clean)
{
  GstVideoFrame f, o;
  gdouble sum = 0.0, d;
  gint x, y, w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&o, info, clean, GST_MAP_READ));
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      d = (gdouble) ref_comp_get (&f, 0, x, y) - ref_comp_get (&o, 0, x, y);
      sum += d * d;
    }
  gst_video_frame_unmap (&o);
  gst_video_frame_unmap (&f);
  return sqrt (sum / (w * h));
}

/* What it is for, with the element's defaults: on a still scene with noise
 * 5 the output gains at least 4 dB of PSNR over the input within 20 frames;
 * after a cut to another scene, the first frame is not a blend of the two
 * (its error is the blur's of a first frame, not the scenes' difference). */
FX_TEST (test_still_and_cut, 600)
{
  gdouble rms_in = 0.0, rms_out = 0.0;
  GstBuffer *in, *out, *clean;
  guint t;

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 160, 96);
  clean = noisy_scene (&fx->base.info, fx->base.rand, 3, 0.0);
  for (t = 0; t < 20; t++) {
    in = noisy_scene (&fx->base.info, fx->base.rand, 3, 5.0);
    out = fx_push (fx, gst_buffer_ref (in));
    rms_in = rms_from (&fx->base.info, in, clean);
    rms_out = rms_from (&fx->base.info, out, clean);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless (rms_out < 0.631 * rms_in, "a still scene kept noise of %.2f "
      "codes rms against the input's %.2f", rms_out, rms_in);
  gst_buffer_unref (clean);

  clean = noisy_scene (&fx->base.info, fx->base.rand, 4, 0.0);
  in = noisy_scene (&fx->base.info, fx->base.rand, 4, 5.0);
  out = fx_push (fx, gst_buffer_ref (in));
  rms_out = rms_from (&fx->base.info, out, clean);
  rms_in = rms_from (&fx->base.info, in, clean);
  fail_unless (rms_out < rms_in, "the frame after a cut is %.2f codes rms "
      "from the new scene, the input %.2f: the scenes blended", rms_out,
      rms_in);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_buffer_unref (clean);
}

/* A noise-sigma too small for single precision counts as 0.001: still
 * motion-adaptive with detail kept (it once became a fixed weight). */
FX_TEST (test_tiny_noise_sigma, 200)
{
  guint t;

  fx_set_noise (fx, 1e-50);
  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 37, 22);
  for (t = 0; t < 4; t++)
    fx_check (fx, "noise-sigma 1e-50, frame %u", t + 1);
}

/* Mean squared error, from `clean`, of what denoise makes of frames
 * FIRST_CHOSEN.. (from 0) of `in` (n frames), from a restart. */
static gdouble
moving_error (Fx * fx, GstBuffer ** in, GstBuffer ** clean, guint n)
{
  gdouble sq = 0.0, r;
  guint t;

  fx_flush (fx);
  for (t = 0; t < n; t++) {
    GstBuffer *out = fx_push (fx, gst_buffer_ref (in[t]));
    if (t >= FIRST_CHOSEN) {
      r = rms_from (&fx->base.info, out, clean[t]);
      sq += r * r;
    }
    gst_buffer_unref (out);
  }
  return sq / (n - FIRST_CHOSEN);
}

/* Where every pixel moves at once (here every frame another smooth
 * scene, at noise 20) nothing averages, and keep-detail puts back this
 * frame's detail: with the threshold chosen by its risk, within 2 % (rms)
 * of putting none back, which is best on such a scene; a fixed 3 sigma
 * kept so much noise that it ended 20 % worse. */
FX_TEST (test_moving_detail_not_worse, 600)
{
  GstBuffer *in[FIRST_CHOSEN + 6], *clean[FIRST_CHOSEN + 6];
  gdouble kept, none;
  guint t;

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 160, 96);
  for (t = 0; t < G_N_ELEMENTS (in); t++) {
    clean[t] = noisy_scene (&fx->base.info, fx->base.rand, 20 + t, 0.0);
    in[t] = noisy_scene (&fx->base.info, fx->base.rand, 20 + t, 20.0);
  }
  g_object_set (fx->base.el, "noise-sigma", 20.0, NULL);
  kept = moving_error (fx, in, clean, G_N_ELEMENTS (in));
  g_object_set (fx->base.el, "keep-detail", FALSE, NULL);
  none = moving_error (fx, in, clean, G_N_ELEMENTS (in));
  fail_unless (kept <= 1.02 * 1.02 * none, "with keep-detail the moving frames are %.3f "
      "codes rms from the clean ones, without it %.3f", sqrt (kept),
      sqrt (none));
  for (t = 0; t < G_N_ELEMENTS (in); t++) {
    gst_buffer_unref (in[t]);
    gst_buffer_unref (clean[t]);
  }
}

static const SuiteEntry denoise_tests[] = {
  SUITE_CASE ("denoise"),
  SUITE_TEST (test_defaults),
  SUITE_LOOP_TEST (test_formats, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_sizes_borders, 4),
  SUITE_LOOP_TEST (test_roi_planes, G_N_ELEMENTS (roi_planes_formats)),
  SUITE_LOOP_TEST (test_restarts_and_long_recursion, 2),
  SUITE_TEST (test_frames_in_flight),
  SUITE_LOOP_TEST (test_vulkan_memory, 3),
  SUITE_TEST (test_still_and_cut),
  SUITE_TEST (test_moving_detail_not_worse),
  SUITE_TEST (test_tiny_noise_sigma),
  SUITE_LOOP_TEST (test_noise_estimate_texture, N_FORMAT_GROUPS),
};

SUITE_MAIN ("denoise", denoise_tests, &base_seed, NULL);
