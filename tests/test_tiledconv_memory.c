/* vktile tests — tiledconv against the CPU reference (reference.c): the
 * memory paths (the "memory" case of test_tiledconv's table).
 *
 * Owns the tests of where tiledconv's frames live: input buffers with
 * padded strides and moved planes, system memory written into the pool
 * tiledconv proposes, VulkanBuffer memory in, VulkanBuffer memory between
 * two elements, and the timing meta each element adds; every output
 * checked against the reference as in test_tiledconv_filter.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

#include "plugin/gstvktiletimingmeta.h"
#include "tiledconv_fx.h"

/* Input buffers whose GstVideoMeta gives padded strides and moved planes
 * (4-aligned, then odd), with every algorithm. */
FX_GROUP_TEST (test_padded_input, 1000)
{
  guint a;

  fx_set_caps (fx, fmt, 33, 17);
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    fx_random_kernel (fx, a % KERNEL_KINDS, 5);
    fx_set_border (fx, (a + lead) % REF_BORDER_N, 0.6);
    fx_check_frame (fx, LAYOUT_PADDED, "padded strides (4-aligned)");
    fx_check_frame (fx, LAYOUT_ODD, "padded strides (odd)");
  }
  fx_check_frame (fx, LAYOUT_DEFAULT, "default strides after padded ones");
}

/* System-memory caps, upstream writing into the pool tiledconv proposes
 * (host-visible Vulkan buffers, so that no copy is needed). */
FX_GROUP_TEST (test_proposed_pool_input, 1050)
{
  guint a;

  fx_set_caps (fx, fmt, 45, 23);
  for (a = 0; a < N_ALGORITHMS; a++) {
    fx_set_algorithm (fx, algorithms[a]);
    fx_random_kernel (fx, (a + lead) % KERNEL_KINDS, 3 + 2 * (a % 3));
    fx_set_border (fx, (a + 2 * lead) % REF_BORDER_N, 0.2);
    fx_check_frame (fx, LAYOUT_PROPOSED_POOL, "input from the proposed pool");
  }
  check_pool_holds_vulkan (fx->base.pool, &fx->base.info);
}

/* vulkanupload ! video/x-raw(memory:VulkanBuffer) ! tiledconv, fed like
 * videotestsrc feeds it: into buffers of the pool vulkanupload proposes.
 * (vulkanupload 1.22 aborts on system-memory buffers of its own allocation
 * size, "plane_size < map_info.size", with or without tiledconv.) */
GST_START_TEST (test_vulkan_buffer_input)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_BGRx,
  };
  const gchar *fmt = gst_video_format_to_string (fmts[__i__]);
  gchar *launch = g_strdup_printf ("vulkanupload ! "
      "video/x-raw(memory:VulkanBuffer),format=%s ! tiledconv", fmt);
  guint counts[2] = { 0, 0 };
  guint i;
  Fx fx;

  fx_init_full (&fx, launch, NULL, 1100 + __i__);
  probe_pad_memory (fx.base.el, "sink", counts);
  fx_set_caps (&fx, fmts[__i__], 47, 25);
  for (i = 0; i < 3; i++) {
    fx_set_algorithm (&fx, algorithms[(i + __i__) % N_ALGORITHMS]);
    fx_random_kernel (&fx, i % KERNEL_KINDS, 3 + 2 * i);
    fx_set_border (&fx, (i + __i__) % REF_BORDER_N, 0.1);
    fx_check_frame (&fx, LAYOUT_PROPOSED_POOL, "VulkanBuffer input");
  }
  fail_unless (counts[0] == 3 && counts[1] == 0, "into tiledconv: %u "
      "VulkanBuffer frames, %u other", counts[0], counts[1]);
  fx_clear (&fx);
  g_free (launch);
}

GST_END_TEST;

/* One step of test_vulkan_buffer_chain: a an integer kernel (exact in
 * fp32), b a random one with border wrap, their algorithms rotating. */
static gconstpointer
chain_step (HarnessFx * base, GstElement * b, guint i)
{
  Fx *fx = FX (base);
  gdouble k[25];

  fx_set_preset (fx, i == 1 ? "sobel-y" : "sharpen");
  fx_set_gain (fx, 1.0, i == 1 ? 0.5 : 0.0, FALSE);
  fx_set_algorithm (fx, algorithms[i]);
  ref_conv_init (&fx->ref_b);
  random_taps (base->rand, k, 25);
  set_double_array (b, "kernel", k, 25);
  ref_conv_set_kernel (&fx->ref_b, k, 25);
  gst_util_set_object_arg (G_OBJECT (b), "border", "wrap");
  gst_util_set_object_arg (G_OBJECT (b), "algorithm", algorithms[3 - i]);
  fx->ref_b.border = REF_BORDER_WRAP;
  return &fx->ref_b;
}

/* tiledconv ! video/x-raw(memory:VulkanBuffer) ! tiledconv, system memory at
 * both ends: the output is the reference applied twice, the frame stays in
 * Vulkan buffers in between (RGB too, in its own 3-byte layout), and it
 * carries one meta per element. */
GST_START_TEST (test_vulkan_buffer_chain)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGB,
  };
  gchar *launch = harness_chain_launch ("tiledconv", fmts[__i__]);
  guint64 a_download = 0, b_upload = 0;
  Fx fx;

  fx_init_full (&fx, launch, "a", 1200 + __i__);
  /* two roundings: the first stage's +-1 goes through b's kernel */
  harness_fx_check_chain (&fx.base, fmts[__i__], 43, 31, 3, chain_step,
      ref_tiledconv_apply, &fx.ref, &a_download, &b_upload);
  /* checked last, so that the output checks above run whatever happens */
  fail_unless (a_download == 0 && b_upload == 0, "a: download_ns %"
      G_GUINT64_FORMAT ", b: upload_ns %" G_GUINT64_FORMAT ": both must be "
      "0, the frame stays on the GPU", a_download, b_upload);
  fx_clear (&fx);
  g_free (launch);
}

GST_END_TEST;

/* One element: one meta per buffer, frame_index counting up, dispatches,
 * and the work-groups of each border class. The tiled work-groups are 32x8
 * invocations of 4x4 GRAY8 pixels: tiles of 128x32 GRAY8 pixels. On a
 * 1000x130 frame with a 3x3 kernel they are 8 x 5 = 40; those reading only
 * inside the frame (and so writing only inside it) are columns 1-6 x rows
 * 1-3 = 18; none is free on read but not on write; columns 0-6 x rows 0-3
 * = 28 write inside, so 28 - 18 = 10 are free on write only; 12 are
 * neither ("Tiled Convolution", classes 1-4). Only GRAY8 gets exact counts. */
FX_TEST (test_timing_meta, 1300)
{
  guint i, a;
  gchar *name;

  fx_set_caps (fx, GST_VIDEO_FORMAT_GRAY8, 1000, 130);
  fx_set_preset (fx, "sharpen");
  name = gst_element_get_name (fx->base.el);
  for (i = 0; i < 2 + N_ALGORITHMS; i++) {
    GstVkTileTimingMeta *m;
    GstBuffer *out;

    a = i < 2 ? 0 : i - 2;
    fx_set_algorithm (fx, algorithms[a]);
    out = harness_fx_push_timed (&fx->base, name, i, &m);
    if (a == 0) {
      fail_unless (m->tile_classes[GST_VKTILE_TILES_FREE] == 18 &&
          m->tile_classes[GST_VKTILE_TILES_WRITE_CHECKED] == 0 &&
          m->tile_classes[GST_VKTILE_TILES_READ_CHECKED] == 10 &&
          m->tile_classes[GST_VKTILE_TILES_CHECKED] == 12,
          "tile classes (free, write-checked, read-checked, checked) "
          "%u %u %u %u, want 18 0 10 12", m->tile_classes[0],
          m->tile_classes[1], m->tile_classes[2], m->tile_classes[3]);
    } else {
      fail_unless (m->tile_classes[0] + m->tile_classes[1] +
          m->tile_classes[2] + m->tile_classes[3] == 0,
          "%s reports tile classes", algorithms[a]);
    }
    gst_buffer_unref (out);
  }

  /* RGBA: still interior tiles (32x32 pixels), and edge tiles */
  fx_set_caps (fx, GST_VIDEO_FORMAT_RGBA, 257, 130);
  fx_set_algorithm (fx, "tiled");
  {
    GstBuffer *out = fx_push (fx, make_frame (&fx->base.info, fx->base.rand,
            LAYOUT_DEFAULT, CONTENT_NOISE));
    GstVkTileTimingMeta *m = gst_vktile_timing_meta_get (out, name);

    fail_unless (m != NULL);
    fail_unless (m->tile_classes[GST_VKTILE_TILES_FREE] > 0 &&
        m->tile_classes[GST_VKTILE_TILES_CHECKED] > 0,
        "RGBA 257x130: tile classes %u %u %u %u", m->tile_classes[0],
        m->tile_classes[1], m->tile_classes[2], m->tile_classes[3]);
    gst_buffer_unref (out);
  }
  g_free (name);
}
/* ------------------------------------------------------------------------ */

const SuiteEntry tiledconv_memory_tests[] = {
  SUITE_LOOP_TEST (test_padded_input, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_proposed_pool_input, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_vulkan_buffer_input, 5),
  SUITE_LOOP_TEST (test_vulkan_buffer_chain, 4),
  SUITE_TEST (test_timing_meta),
  SUITE_END
};
