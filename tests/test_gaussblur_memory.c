/* vktile tests — gaussblur against the CPU reference (reference_gauss.c):
 * the memory paths and the timing meta (the "memory" case of
 * test_gaussblur's table).
 *
 * Owns the tests of where gaussblur's frames live: input buffers with
 * padded strides and moved planes and buffers from the pool the element
 * proposes, a VulkanBuffer chain of two gaussblurs, and the timing meta
 * (fused: one dispatch per filtered plane); every output checked against
 * the reference as in test_gaussblur_filter.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "plugin/gstvktiletimingmeta.h"
#include "reference.h"
#include "gaussblur_fx.h"

/* Input buffers whose GstVideoMeta gives padded strides and moved planes
 * (4-aligned, then odd), buffers from the pool the element proposes, and
 * plain ones again: system memory in and out. */
FX_TEST (test_padded_input, 1000)
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

  fx_set_caps (fx, fmt, 33, 17);
  for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
    guint k = l + __i__;

    fx_set_algorithm (fx, rotating_algorithm (k, __i__ == 3));
    fx_blur (fx, k % 2 ? 1.0 : 2.0, -1, 0, k % 3 == 0 ? 0.8 : 0.0);
    fx_set_border_rand (fx, k % REF_BORDER_N);
    fx_check_frame (fx, layouts[l], names[l]);
  }
  if (fx->base.pool)
    check_pool_holds_vulkan (fx->base.pool, &fx->base.info);
}

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
FX_TEST (test_timing_meta, 1600)
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

  name = gst_element_get_name (fx->base.el);
  fail_unless (g_str_has_prefix (name, ELEMENT), "element named %s", name);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    fx_set_caps (fx, cases[i].fmt, MID_W, MID_H);
    fx_set_planes (fx, cases[i].planes);
    for (a = 0; a < N_ALGORITHMS; a++) {
      GstVkTileTimingMeta *m;
      GstBuffer *out;

      if (i > 0 && a != 1 && (i + a) % 3)
        continue;               /* fused on every case, the others on some */
      fx_set_algorithm (fx, algorithms[a]);
      out = harness_fx_push_timed (&fx->base, name, frame++, &m);
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
}

/* ------------------------------------------------------------------------ */

const SuiteEntry gaussblur_memory_tests[] = {
  SUITE_LOOP_TEST (test_padded_input, 5),
  SUITE_LOOP_TEST (test_vulkan_buffer_chain, 2),
  SUITE_TEST (test_timing_meta),
  SUITE_END
};
