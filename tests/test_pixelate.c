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

#include "harness.h"
#include "reference_pixelate.h"

#define ELEMENT "pixelate"

static guint32 base_seed;

typedef struct
{
  GstHarness *h;
  GstElement *el;
  GstVideoInfo info;
  RefPixelate ref;
  GRand *rand;
  guint32 seed;
  guint64 pts;
  guint n_elements;
} Fx;

static void
fx_init_full (Fx * fx, const gchar * launch, const gchar * name, guint salt)
{
  memset (fx, 0, sizeof (*fx));
  fx->seed = harness_fx_open (ELEMENT, launch, name, base_seed, salt, &fx->h,
      &fx->el, &fx->rand);
  ref_pixelate_init (&fx->ref);
  fx->n_elements = 1;
}

static void
fx_clear (Fx * fx)
{
  harness_fx_close (fx->h, fx->el, fx->rand, NULL);
}

static void
fx_set_block (Fx * fx, guint block_size)
{
  g_object_set (fx->el, "block-size", block_size, NULL);
  fx->ref.block_size = block_size;
}

/* Pushes `in` (taken) and checks the output against the reference. */
static void
fx_check_buffer (Fx * fx, GstBuffer * in, const gchar * what)
{
  GstVideoFrame fin, fout, fref;
  GstBuffer *out, *refbuf;
  Mismatch mm;

  out = harness_push_frame (fx->h, gst_buffer_ref (in), &fx->pts, &fx->info,
      ELEMENT);
  fail_unless (gst_video_frame_map (&fin, &fx->info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &fx->info, out, GST_MAP_READ));
  refbuf = new_frame_buffer (&fx->info, &fref);
  ref_pixelate (&fin, &fref, &fx->ref);
  if (compare_frames (&fout, &fref, 0, &mm) > 0) {
    const RefConv *r = &fx->ref.common;

    fail ("VKTILE_SEED=%u (test seed %u) %s: %s %dx%d, block-size %u, roi "
        "%d,%d %dx%d source %d,%d planes 0x%x: %u values differ; first at "
        "x=%d y=%d plane %u %s %u: got %u want %u", base_seed, fx->seed, what,
        GST_VIDEO_INFO_NAME (&fx->info), GST_VIDEO_INFO_WIDTH (&fx->info),
        GST_VIDEO_INFO_HEIGHT (&fx->info), fx->ref.block_size, r->roi_x,
        r->roi_y, r->roi_width, r->roi_height, r->source_x, r->source_y,
        r->planes, mm.count, mm.x, mm.y, mm.plane,
        mm.comp < 100 ? "component" : "padding byte",
        mm.comp < 100 ? mm.comp : mm.comp - 100, mm.got, mm.want);
  }
  fail_unless (count_metas (out) == fx->n_elements, "%s: %u timing metas",
      what, count_metas (out));
  free_frame_buffer (refbuf, &fref);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  poison_buffer (out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

static void
fx_check (Fx * fx, const gchar * what)
{
  fx_check_buffer (fx, make_frame (&fx->info, fx->rand, LAYOUT_DEFAULT,
          CONTENT_ANY), what);
}

GST_START_TEST (test_properties)
{
  static const gchar *const props[] = { "block-size", NULL };
  GObjectClass *klass;
  GstElement *el;

  require_element_named (ELEMENT);
  el = gst_element_factory_make (ELEMENT, NULL);
  klass = G_OBJECT_GET_CLASS (el);
  check_uint_spec (klass, "block-size", 2, 128, 16);
  check_base_class_specs (klass);
  check_blurbs (klass, props);
  check_controllable (klass, props);
  gst_object_unref (el);
  check_pad_templates (ELEMENT, all_formats, N_FORMATS);
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
      harness_set_video_caps (fx.h, NULL, &fx.info, fmt, cases[c].w,
          cases[c].h);
      fx_set_block (&fx, cases[c].block);
      fx_check (&fx, what);
      g_free (what);
    }
  }
  fx_clear (&fx);
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
  harness_set_video_caps (fx.h, NULL, &fx.info, fmts[__i__], 97, 61);
  fx_set_block (&fx, 6);
  harness_set_roi (fx.el, &fx.ref.common, 11, 7, 40, 30, -1, -1);
  fx_check (&fx, "a ROI");
  harness_set_roi (fx.el, &fx.ref.common, 50, 30, 60, 40, 3, 5);
  fx_check (&fx, "a ROI from elsewhere, clipped by the frame");
  harness_set_planes (fx.el, &fx.ref.common, 0x1);
  fx_check (&fx, "the first component only");
  harness_set_planes (fx.el, &fx.ref.common, 0x6);
  fx_check (&fx, "the second and third components");
  fx_clear (&fx);
}

GST_END_TEST;

/* The reference of fx (a RefPixelate) with roi's ROI, for
 * check_roi_meta(). */
static void
ref_pixelate_with_roi (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * roi, gpointer data)
{
  RefPixelate r = *(const RefPixelate *) data;

  ref_conv_set_roi (&r.common, roi);
  ref_pixelate (in, out, &r);
}

/* The privacy mask: the regions a detector attached, padded, each
 * pixelated from its own corner; a frame without regions passes as it
 * came. */
GST_START_TEST (test_roi_meta)
{
  static const gchar *const listed[] = { "face", "license-plate", NULL };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_BGRx
  };
  guint n;
  Fx fx;

  fx_init_full (&fx, NULL, NULL, 300 + __i__);
  harness_set_video_caps (fx.h, NULL, &fx.info, fmts[__i__], ROI_META_W,
      ROI_META_H);
  fx_set_block (&fx, 4);
  g_object_set (fx.el, "roi-meta", "face,license-plate", "roi-padding", 2,
      NULL);
  for (n = n_roi_meta_regions; ; n = 0) {
    GstBuffer *in = make_frame (&fx.info, fx.rand, LAYOUT_DEFAULT,
        CONTENT_ANY);
    GstBuffer *out;

    add_region_metas (in, roi_meta_regions, n);
    out = harness_push_frame (fx.h, gst_buffer_ref (in), &fx.pts, &fx.info,
        ELEMENT);
    check_roi_meta (&fx.info, in, out, roi_meta_regions, n, listed, 2,
        fx.ref.common.planes, ref_pixelate_with_roi, &fx.ref, 0, base_seed,
        n ? "roi-meta face,license-plate" : "a frame without metas");
    poison_buffer (out);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    if (n == 0)
      break;
  }
  fx_clear (&fx);
}

GST_END_TEST;

/* Frames in Vulkan buffers on both sides (a copy before and after). */
GST_START_TEST (test_vulkan_memory)
{
  guint in_counts[2] = { 0, 0 }, out_counts[2] = { 0, 0 };
  guint t;
  Fx fx;

  fx_init_full (&fx, "tiledconv planes=0 ! "
      "video/x-raw(memory:VulkanBuffer) ! " ELEMENT " name=a ! "
      "video/x-raw(memory:VulkanBuffer) ! tiledconv planes=0", "a", 400);
  fx.n_elements = 3;
  probe_pad_memory (fx.el, "sink", in_counts);
  probe_pad_memory (fx.el, "src", out_counts);
  harness_set_video_caps (fx.h, NULL, &fx.info, GST_VIDEO_FORMAT_NV12, 130,
      84);
  fx_set_block (&fx, 10);
  for (t = 0; t < 3; t++)
    fx_check (&fx, "Vulkan memory");
  fail_unless (in_counts[0] == 3 && in_counts[1] == 0 && out_counts[0] == 3
      && out_counts[1] == 0, "frames in %u VulkanBuffer, %u other; out %u "
      "VulkanBuffer, %u other", in_counts[0], in_counts[1], out_counts[0],
      out_counts[1]);
  fx_clear (&fx);
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
