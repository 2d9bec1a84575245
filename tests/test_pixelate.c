/* vktile tests — pixelate against the CPU reference (reference_pixelate.c).
 *
 * Owns the GstCheck/GstHarness tests of the pixelate element: every format
 * at odd sizes with blocks of several sizes (smaller than a word, larger
 * than the frame), a ROI with a source offset, a plane mask, the regions
 * of roi-meta, frames in VulkanBuffer memory on both sides, and the
 * properties as gst-inspect shows them. The means are exact: tolerance 0,
 * and every value outside the ROI is the input's, byte for byte. Outputs
 * are poisoned before they go back to the pool.
 *
 * Random data comes from VKTILE_SEED; every failure message carries it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

#include "fixture.h"
#include "reference_pixelate.h"

#define ELEMENT "pixelate"

static guint32 base_seed;

/* The fixture, and the reference's mirror of the element's properties. */
typedef struct
{
  HarnessFx base;
  RefPixelate ref;
} Fx;

static void
pixelate_filter (HarnessFx * base, const GstVideoFrame * in,
    GstVideoFrame * out, gboolean ties_down)
{
  ref_pixelate (in, out, &FX (base)->ref);
}

static gchar *
pixelate_describe (HarnessFx * base)
{
  const RefPixelate *ref = &FX (base)->ref;
  const RefConv *r = &ref->common;

  return g_strdup_printf ("block-size %u, roi %d,%d %dx%d source %d,%d "
      "planes 0x%x", ref->block_size, r->roi_x, r->roi_y, r->roi_width,
      r->roi_height, r->source_x, r->source_y, r->planes);
}

static void
fx_reference_init (HarnessFx * base)
{
  ref_pixelate_init (&FX (base)->ref);
}

/* The means are exact: no tolerance, nothing to round. */
static const FxElement fx_element = {
  .name = ELEMENT,
  .content = CONTENT_ANY,
  .init = fx_reference_init,
  .filter = pixelate_filter,
  .describe = pixelate_describe,
};

static void
fx_set_block (Fx * fx, guint block_size)
{
  g_object_set (fx->base.el, "block-size", block_size, NULL);
  fx->ref.block_size = block_size;
}

GST_START_TEST (test_properties)
{
  static const gchar *const props[] = { "block-size", NULL };
  GstElement *el = harness_new_element (ELEMENT);

  check_uint_spec (G_OBJECT_GET_CLASS (el), "block-size", 2, 128, 16);
  check_element_interface (el, props, props);
}

GST_END_TEST;

/* Every format of a group through one harness, at sizes that leave
 * partial blocks and partial words, with blocks from 2 (smaller than a
 * subsampled plane's word) to larger than the frame. */
GST_START_TEST (test_formats)
{
  static const struct
  {
    gint w, h;
    guint block;
  } cases[] = { {61, 37, 2}, {61, 37, 5}, {130, 66, 16}, {33, 17, 128},
  {1, 1, 7}
  };
  GstVideoFormat fmt;
  guint i, c, index;
  Fx fx;

  fx_init_full (&fx, NULL, NULL, 100 + __i__);
  for (i = 0; (fmt = harness_group_format (__i__, i, &index)) !=
      GST_VIDEO_FORMAT_UNKNOWN; i++) {
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      gchar *what = g_strdup_printf ("%dx%d, blocks of %u", cases[c].w,
          cases[c].h, cases[c].block);
      fx_set_caps (&fx, fmt, cases[c].w, cases[c].h);
      fx_set_block (&fx, cases[c].block);
      fx_check (&fx, "%s", what);
      g_free (what);
    }
  }
  harness_fx_clear (&fx.base);
}

GST_END_TEST;

/* A ROI read from elsewhere (source-x/y), clipped by the frame, and a
 * plane mask: the rest of the frame is the input's. */
GST_START_TEST (test_roi_planes)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420_10LE
  };
  Fx fx;

  fx_init_full (&fx, NULL, NULL, 200 + __i__);
  fx_set_caps (&fx, fmts[__i__], 97, 61);
  fx_set_block (&fx, 6);
  fx_set_roi (&fx, 11, 7, 40, 30, -1, -1);
  fx_check (&fx, "a ROI");
  fx_set_roi (&fx, 50, 30, 60, 40, 3, 5);
  fx_check (&fx, "a ROI from elsewhere, clipped by the frame");
  fx_set_planes (&fx, 0x1);
  fx_check (&fx, "the first component only");
  fx_set_planes (&fx, 0x6);
  fx_check (&fx, "the second and third components");
  harness_fx_clear (&fx.base);
}

GST_END_TEST;

/* The privacy mask: the regions a detector attached, padded, each
 * pixelated from its own corner; a frame without regions passes as it
 * came. */
GST_START_TEST (test_roi_meta)
{
  static const gchar *const listed[] = { "face", "license-plate", NULL };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_BGRx
  };
  Fx fx;

  fx_init_full (&fx, NULL, NULL, 300 + __i__);
  fx_set_caps (&fx, fmts[__i__], ROI_META_W, ROI_META_H);
  fx_set_block (&fx, 4);
  g_object_set (fx.base.el, "roi-meta", "face,license-plate",
      "roi-padding", 2, NULL);
  harness_fx_check_roi_meta (&fx.base, n_roi_meta_regions, listed, 2,
      "roi-meta face,license-plate");
  harness_fx_check_roi_meta (&fx.base, 0, listed, 2, "a frame without metas");
  harness_fx_clear (&fx.base);
}

GST_END_TEST;

/* Frames in Vulkan buffers on both sides (a copy before and after). */
GST_START_TEST (test_vulkan_memory)
{
  guint t;
  Fx fx;

  fx_init_full (&fx, VULKAN_BETWEEN_COPIES ("tiledconv", ELEMENT), "a",
      400);
  fx.base.n_elements = 3;
  harness_fx_watch_memory (&fx.base);
  fx_set_caps (&fx, GST_VIDEO_FORMAT_NV12, 130, 84);
  fx_set_block (&fx, 10);
  for (t = 0; t < 3; t++)
    fx_check (&fx, "Vulkan memory");
  harness_fx_check_vulkan_memory (&fx.base, 3);
  harness_fx_clear (&fx.base);
}

GST_END_TEST;

static const SuiteEntry pixelate_tests[] = {
  SUITE_CASE ("pixelate"),
  SUITE_TEST (test_properties),
  SUITE_LOOP_TEST (test_formats, N_FORMAT_GROUPS),
  SUITE_LOOP_TEST (test_roi_planes, 3),
  SUITE_LOOP_TEST (test_roi_meta, 2),
  SUITE_TEST (test_vulkan_memory),
};

SUITE_MAIN ("pixelate", pixelate_tests, &base_seed, NULL);
