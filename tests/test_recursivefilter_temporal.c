/* vktile tests — recursivefilter's temporal filter against the CPU
 * reference (reference_iir.c).
 *
 * Owns the GstCheck/GstHarness tests of the recursion across frames: the
 * fixed weights (y_t = a y_(t-1) + (1 - a) s_t) and its restarts (flush,
 * DISCONT, caps change, back to NULL), the state kept across a change of
 * axes, the motion-adaptive mode in every kind of format (what it is for:
 * a noisy still scene and a cut), the noise estimate read back from
 * noise-estimate, and the motion-adaptive mode with its frames in Vulkan
 * buffers on both sides. The spatial filter is test_recursivefilter.c's.
 *
 * Random data comes from VKTILE_SEED (or the time); every failure message
 * carries the seed, so `VKTILE_SEED=<n> GST_CHECKS=<test>
 * ./test_recursivefilter_temporal` reproduces it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>
#include <string.h>

#include "recursivefilter_fx.h"

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
  GstBuffer *in = make_frame (&fx->base.info, fx->base.rand, LAYOUT_DEFAULT,
      CONTENT_ANY);
  GstVideoFrame fin, fout, fsp;
  GstBuffer *out, *spbuf;
  guint n, total;

  GST_BUFFER_FLAG_SET (in, flags);
  out = fx_push (fx, gst_buffer_ref (in));
  verify_output (fx, in, out, what);

  fail_unless (gst_video_frame_map (&fin, &fx->base.info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &fx->base.info, out, GST_MAP_READ));
  spbuf = new_frame_buffer (&fx->base.info, &fsp);
  ref_iir_frame (&fin, &fsp, &fx->ref, NULL);
  n = count_diff (&fout, &fsp, TOL);
  total =
      GST_VIDEO_INFO_WIDTH (&fx->base.info) *
      GST_VIDEO_INFO_HEIGHT (&fx->base.info);
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
FX_TEST (test_temporal, 900)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE
  };
  guint t;

  fx_set_temporal (fx, 0.6);
  fx_set_algorithm (fx, __i__ % 2 ? "scanline" : "tiled", 16);
  fx_rotating_filter (fx, __i__);
  fx_set_caps (fx, fmts[__i__], 33, 17);

  fx_check_temporal (fx, 0, FALSE, "temporal: first frame");
  for (t = 1; t < 4; t++)
    fx_check_temporal (fx, 0, TRUE, "temporal: frames 2-4");

  fx_flush (fx);
  fx_check_temporal (fx, 0, FALSE, "temporal: first frame after a flush");
  fx_check_temporal (fx, 0, TRUE, "temporal: second frame after a flush");

  ref_iir_temporal_reset (&fx->temporal);
  fx_check_temporal (fx, GST_BUFFER_FLAG_DISCONT, FALSE,
      "temporal: a DISCONT frame");
  fx_check_temporal (fx, 0, TRUE, "temporal: the frame after a DISCONT one");

  fx_set_caps (fx, fmts[__i__], 35, 19);
  fx_check_temporal (fx, 0, FALSE, "temporal: first frame after a caps "
      "change");
  fx_check_temporal (fx, 0, TRUE, "temporal: second frame after a caps "
      "change");

  /* s = the input; a larger alpha, from a flush */
  fx_set_axes (fx, REF_IIR_AXES_NONE);
  fx_set_temporal (fx, 0.8);
  fx_flush (fx);
  fx_check_temporal (fx, 0, FALSE, "temporal, axes none: first frame");
  fx_check_temporal (fx, 0, TRUE, "temporal, axes none: second frame");
  fx_check_temporal (fx, 0, TRUE, "temporal, axes none: third frame");
}

/* The formats of the motion-adaptive tests: one of each kind of plane
 * layout, lanes per word and depth. */
static const GstVideoFormat adaptive_formats[] = { GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_BGRx
};

/* The formats of test_temporal_axes_switch, one a run. */
static const GstVideoFormat axes_switch_formats[] = { GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_NV12
};

/* Motion-adaptive smoothing against the reference recursion, in every
 * format: frames of random content (noise-sigma 40, so that the weights
 * span 0 to alpha and the detail kept 0 to all), the spatial filter on
 * (tiled or scanline) and off, the whole frame and a ROI (the temporal
 * pass's vector and lane paths), keep-detail on, off and on again (the
 * motion reference kept and not). */
FX_TEST (test_temporal_adaptive, 960)
{
  guint t;

  fx_set_temporal (fx, 0.8);
  fx_set_motion_adaptive (fx, 40.0);
  fx_set_algorithm (fx, __i__ % 2 ? "scanline" : "tiled", 0);
  fx_gaussian (fx, 1.0);
  fx_set_caps (fx, adaptive_formats[__i__], 35, 18);
  for (t = 0; t < 3; t++)
    fx_check (fx, "motion-adaptive, frame %u", t + 1);
  fx_set_axes (fx, REF_IIR_AXES_NONE);
  for (t = 0; t < 2; t++)
    fx_check (fx, "motion-adaptive, axes none, frame %u", t + 1);
  fx_set_roi (fx, 3, 2, 21, 11, -1, -1);
  fx_set_caps (fx, adaptive_formats[__i__], 35, 18);
  for (t = 0; t < 2; t++)
    fx_check (fx, "motion-adaptive, axes none, ROI, frame %u", t + 1);
  fx_set_axes (fx, REF_IIR_AXES_XY);
  fx_check (fx, "motion-adaptive, ROI, next frame");
  g_object_set (fx->base.el, "keep-detail", FALSE, NULL);
  fx->ref.keep_detail = FALSE;
  fx_check (fx, "motion-adaptive, keep-detail=false, ROI, next frame");
  /* The motion reference the last frame did not keep is its y. */
  g_object_set (fx->base.el, "keep-detail", TRUE, NULL);
  fx->ref.keep_detail = TRUE;
  for (t = 0; t < 2; t++)
    fx_check (fx, "motion-adaptive, keep-detail again, ROI, frame %u", t + 1);
}

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
FX_TEST (test_temporal_adaptive_still_and_cut, 980)
{
  gint w = 48, h = 32, max_diff, t;
  guint8 *clean = g_new (guint8, w * h);
  gdouble rms_in = 0.0, rms_out = 0.0;
  GstBuffer *in, *out;

  fx_set_axes (fx, REF_IIR_AXES_NONE);
  fx_set_temporal (fx, 0.9);
  fx_set_motion_adaptive (fx, __i__ == 1 ? 0.0 : __i__ == 2 ? -1.0 : 6.0);
  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, w, h);
  for (t = 0; t < 20; t++) {
    in = noisy_ramp (&fx->base.info, fx->base.rand, 0.0, 6.0, clean);
    out = fx_push (fx, gst_buffer_ref (in));
    verify_output (fx, in, out, "still scene");
    rms_in = rms_from (&fx->base.info, in, clean, in, &max_diff);
    rms_out = rms_from (&fx->base.info, out, clean, in, &max_diff);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  /* 4 dB of PSNR (simulated in double: the motion-adaptive recursion
   * keeps 0.54 of the noise here, the fixed one 0.23) */
  fail_unless (rms_out < 0.631 * rms_in, "%s: a still scene kept noise of "
      "%.2f codes rms against the input's %.2f", __i__ == 1 ? "fixed" :
      "motion-adaptive", rms_out, rms_in);

  in = noisy_ramp (&fx->base.info, fx->base.rand, 100.0, 6.0, clean);
  out = fx_push (fx, gst_buffer_ref (in));
  verify_output (fx, in, out, "the frame after a cut");
  rms_from (&fx->base.info, out, clean, in, &max_diff);
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
}

/* Checks `in` (taken) through the element against the reference, and
 * the noise-estimate the element reports (per plane, after the frame)
 * against the reference's estimate. */
static void
fx_check_noise_estimate (Fx * fx, GstBuffer * in, const gchar * what)
{
  fx_check_buffer (fx, in, what);
  harness_fx_check_noise_estimate (&fx->base, fx->temporal.noise_est, what);
}

/* noise-sigma 0: each plane's noise estimated on the GPU, against the
 * reference's estimate (the same definition in double), in every format,
 * on a noisy still scene, a cut to another and a change of noise level:
 * read from noise-estimate, and through the output it weights; and the
 * reference's estimate itself within 20 % of the noise added. */
FX_TEST (test_temporal_noise_estimate, 990)
{
  static const struct
  {
    guint scene;
    gdouble noise;
  } frames[] = { {1, 5.0}, {1, 5.0}, {1, 5.0}, {2, 5.0}, {2, 5.0}, {2, 12.0},
  {2, 12.0}
  };
  guint t, plane;

  fx_set_temporal (fx, 0.8);
  fx_set_motion_adaptive (fx, -1.0);
  fx_gaussian (fx, 0.8);
  /* Large enough for 760 positions in a chroma plane of I420, where the
   * median's standard error is 4 %: with 180, estimates were 20 % off
   * now and then. */
  fx_set_caps (fx, adaptive_formats[__i__], 194, 122);
  for (t = 0; t < G_N_ELEMENTS (frames); t++) {
    GstBuffer *in = noisy_scene (&fx->base.info, fx->base.rand, frames[t].scene,
        frames[t].noise);
    gchar *what = g_strdup_printf ("estimated noise, frame %u (scene %u, "
        "noise %g)", t + 1, frames[t].scene, frames[t].noise);

    fx_check_noise_estimate (fx, in, what);
    g_free (what);
    /* While the noise stays at 5 (scene or no scene change). */
    if (t == 0 || t == 3) {
      for (plane = 0; plane < ref_n_filtered_planes (&fx->base.info); plane++)
        fail_unless (fabs (fx->temporal.noise_est[plane] / frames[t].noise -
                1.0) < 0.2, "%s plane %u: noise sigma %g estimated as %g",
            GST_VIDEO_INFO_NAME (&fx->base.info), plane, frames[t].noise,
            fx->temporal.noise_est[plane]);
    }
  }
}

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
  guint t;
  Fx fx;

  fx_init_full (&fx, VULKAN_BETWEEN_COPIES (ELEMENT, ELEMENT), "a",
      1800 + __i__);
  fx.base.n_elements = 3;
  harness_fx_watch_memory (&fx.base);

  fx_set_temporal (&fx, 0.8);
  fx_set_motion_adaptive (&fx, 40.0);
  fx_gaussian (&fx, 1.0);
  fx_set_caps (&fx, fmt, 37, 22);
  for (t = 0; t < 3; t++)
    fx_check (&fx, "Vulkan memory, motion-adaptive, frame %u", t + 1);

  fx_set_motion_adaptive (&fx, -1.0);
  fx_set_caps (&fx, fmt, 130, 84);
  for (t = 0; t < 3; t++) {
    GstBuffer *in = noisy_scene (&fx.base.info, fx.base.rand, 1, 6.0);
    gchar *what = g_strdup_printf ("Vulkan memory, estimated noise, %s, "
        "frame %u", t < 2 ? "keep-detail" : "keep-detail=false", t + 1);

    if (t == 2) {
      g_object_set (fx.base.el, "keep-detail", FALSE, NULL);
      fx.ref.keep_detail = FALSE;
    }
    fx_check_noise_estimate (&fx, in, what);
    g_free (what);
  }
  harness_fx_check_vulkan_memory (&fx.base, 6);
  fx_clear (&fx);
}

GST_END_TEST;

/* The state of the temporal recursion lives on across a change of axes
 * (spatial scans write it lane by lane; with axes none, frames whose rows
 * are whole words move it a word at a time), for formats of 4 and of 2
 * lanes per word and for both planes of NV12. */
FX_TEST (test_temporal_axes_switch, 950)
{
  guint t;

  fx_set_temporal (fx, 0.7);
  fx_gaussian (fx, 1.5);
  fx_set_caps (fx, axes_switch_formats[__i__], 36, 20);
  fx_check_temporal (fx, 0, FALSE, "axes switch: first frame");
  fx_check_temporal (fx, 0, TRUE, "axes switch: xy");
  fx_set_axes (fx, REF_IIR_AXES_NONE);
  for (t = 0; t < 2; t++)
    fx_check_temporal (fx, 0, TRUE, "axes switch: none after xy");
  fx_set_axes (fx, REF_IIR_AXES_Y);
  fx_check_temporal (fx, 0, TRUE, "axes switch: y after none");
}

/* Back to NULL and playing again: the recursion starts afresh. */
FX_TEST (test_temporal_restart, 950)
{
  fx_set_temporal (fx, 0.7);
  fx_gaussian (fx, 1.5);
  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 33, 17);
  fx_check_temporal (fx, 0, FALSE, "before the restart: first frame");
  fx_check_temporal (fx, 0, TRUE, "before the restart: second frame");
  fail_unless (gst_element_set_state (fx->base.h->element, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_harness_play (fx->base.h);
  fail_unless (gst_harness_push_event (fx->base.h,
          gst_event_new_stream_start ("restart")));
  ref_iir_temporal_reset (&fx->temporal);
  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 33, 17);
  fx_check_temporal (fx, 0, FALSE, "after the restart: first frame");
  fx_check_temporal (fx, 0, TRUE, "after the restart: second frame");
}

/* ------------------------------------------------------------------------ */

static const SuiteEntry recursivefilter_temporal_tests[] = {
  SUITE_CASE ("temporal"),
  SUITE_LOOP_TEST (test_temporal, 4),
  SUITE_TEST (test_temporal_restart),
  SUITE_LOOP_TEST (test_temporal_adaptive, G_N_ELEMENTS (adaptive_formats)),
  SUITE_LOOP_TEST (test_temporal_adaptive_still_and_cut, 3),
  SUITE_LOOP_TEST (test_temporal_noise_estimate,
      G_N_ELEMENTS (adaptive_formats)),
  SUITE_LOOP_TEST (test_temporal_axes_switch,
      G_N_ELEMENTS (axes_switch_formats)),

  SUITE_CASE ("memory"),
  SUITE_LOOP_TEST (test_temporal_adaptive_vulkan_memory,
      G_N_ELEMENTS (adaptive_formats)),
};

SUITE_MAIN ("recursivefilter_temporal", recursivefilter_temporal_tests,
    &base_seed, NULL);
