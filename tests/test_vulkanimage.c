/* vktile tests — frames in Vulkan images (memory:VulkanImage), as
 * gstvulkan's elements and the Vulkan decoders hand them over.
 *
 * Owns the tests of the image paths of the base class: every element in
 * every format gstvulkan makes images of, reading images and writing
 * images, must give the bytes it gives on system memory; the negotiation
 * picks images where downstream asks for them; the timing meta counts the
 * copies into images as the download; the debug line names the path.
 *
 * The input images are made by a vktile element that copies every plane
 * (planes=0) into images, not by vulkanupload, whose image path crashes
 * now and then at teardown on lavapipe; the output images are read by
 * gstvulkan's vulkandownload, so that what vktile writes is checked by
 * gstvulkan's reading of it, and what it reads by the result.
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

#include <gst/vulkan/vulkan.h>

#include "harness.h"

/* gstvulkan 1.22's vulkanupload and vulkandownload copy a plane's rows as
 * if they lay tightly packed, whatever the buffer's stride: rows of planes
 * whose GStreamer stride is wider than the row (8-bit planes whose width is
 * not a multiple of 4) come out skewed. Frames read back by vulkandownload
 * are therefore a multiple of 8 wide; the other widths are read back by a
 * vktile element. */
#define TIGHT_WIDTH 72
#define PADDED_WIDTH 66
#define HEIGHT 38
#define N_FRAMES 3

static guint32 base_seed;

/* Every format of the elements that gstvulkan 1.22 makes images of. */
static const gchar *const image_formats[] = {
  "GRAY8", "GRAY16_LE", "RGBA", "BGRA", "RGBx", "BGRx", "I420", "NV12",
  "Y444", "NV21", "Y42B", "ARGB", "ABGR", "xRGB", "xBGR", "AYUV", "YUY2",
  "UYVY",
};

/* One configuration per element, each changing every plane. */
static const gchar *const elements[] = {
  "tiledconv preset=gaussian5",
  "gaussblur sigma=1.5",
  "recursivefilter sigma=2",
  "denoise",
  "pixelate block-size=4",
};

/* A vktile element that only copies (no plane selected), into images or
 * out of them. */
#define COPY_INTO_IMAGES "tiledconv planes=0 ! video/x-raw(memory:VulkanImage)"
#define COPY_OUT_OF_IMAGES "tiledconv planes=0"

static gchar *
caps_string (const gchar * format, gint width, const gchar * features)
{
  return g_strdup_printf ("video/x-raw%s,format=%s,width=%d,height=%d,"
      "framerate=30/1", features ? features : "", format, width, HEIGHT);
}

static GstHarness *
harness_for (const gchar * launch, const gchar * format, gint width,
    const gchar * out)
{
  GstHarness *h = gst_harness_new_parse (launch);
  gchar *in_caps = caps_string (format, width, NULL);
  gchar *out_caps = caps_string (format, width, out);

  gst_harness_set_src_caps_str (h, in_caps);
  gst_harness_set_sink_caps_str (h, out_caps);
  g_free (in_caps);
  g_free (out_caps);
  return h;
}

static GstBuffer *
random_frame (GRand * rand, const GstVideoInfo * info, guint i)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  fill_random (rand, map.data, map.size);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = i * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* `element` on N_FRAMES random frames of `format` and `width`, through
 * `launch` (where it reads and writes images) and alone on system memory:
 * byte for byte the same. */
static void
check_through_images (const gchar * element, const gchar * format,
    gint width, const gchar * launch, guint32 seed)
{
  GstHarness *plain = harness_for (element, format, width, NULL);
  GstHarness *images = harness_for (launch, format, width, NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, HEIGHT);
  for (i = 0; i < N_FRAMES; i++) {
    GstBuffer *in = random_frame (rand, &info, i);
    GstBuffer *want = gst_harness_push_and_pull (plain, gst_buffer_ref (in));
    GstBuffer *got = gst_harness_push_and_pull (images, in);
    GstVideoFrame fwant, fgot;
    Mismatch mm;

    fail_unless (want && got, "%s %s: no frame %u", element, format, i);
    fail_unless (gst_video_frame_map (&fwant, &info, want, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fgot, &info, got, GST_MAP_READ));
    if (compare_frames (&fgot, &fwant, 0, &mm) > 0)
      fail ("VKTILE_SEED=%u %s %s %dx%d frame %u through %s: %u values "
          "differ from system memory's; first at x=%d y=%d plane %u: got %u "
          "want %u", base_seed, element, format, width, HEIGHT, i, launch,
          mm.count, mm.x, mm.y, mm.plane, mm.got, mm.want);
    gst_video_frame_unmap (&fgot);
    gst_video_frame_unmap (&fwant);
    gst_buffer_unref (got);
    gst_buffer_unref (want);
  }
  g_rand_free (rand);
  gst_harness_teardown (images);
  gst_harness_teardown (plain);
}

/* Element `__i__ / formats`, format `__i__ % formats`, images in and out,
 * the output read back by gstvulkan's vulkandownload. */
GST_START_TEST (test_images_in_and_out)
{
  const gchar *format = image_formats[__i__ % G_N_ELEMENTS (image_formats)];
  const gchar *element = elements[__i__ / G_N_ELEMENTS (image_formats)];
  gchar *launch = g_strdup_printf (COPY_INTO_IMAGES " ! %s ! "
      "video/x-raw(memory:VulkanImage) ! vulkandownload", element);

  check_through_images (element, format, TIGHT_WIDTH, launch,
      base_seed + __i__);
  g_free (launch);
}

GST_END_TEST;

/* The same at a width whose 8-bit planes have rows shorter than their
 * stride, read back by a vktile element. */
GST_START_TEST (test_images_padded_rows)
{
  const gchar *format = image_formats[__i__ % G_N_ELEMENTS (image_formats)];
  const gchar *element = elements[__i__ / G_N_ELEMENTS (image_formats)];
  gchar *launch = g_strdup_printf (COPY_INTO_IMAGES " ! %s ! "
      "video/x-raw(memory:VulkanImage) ! " COPY_OUT_OF_IMAGES, element);

  check_through_images (element, format, PADDED_WIDTH, launch,
      base_seed + __i__);
  g_free (launch);
}

GST_END_TEST;

/* A frame written into images carries images, one per plane, and a timing
 * meta whose download is the copies into them. */
GST_START_TEST (test_image_output_meta)
{
  GstHarness *h = harness_for ("gaussblur sigma=2", "NV12", TIGHT_WIDTH,
      "(memory:VulkanImage)");
  GRand *rand = g_rand_new_with_seed (base_seed);
  GstVideoInfo info;
  const GstVkTileTimingMeta *meta;
  GstBuffer *out;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, TIGHT_WIDTH,
      HEIGHT);
  out = gst_harness_push_and_pull (h, random_frame (rand, &info, 0));
  fail_unless (out != NULL);
  fail_unless_equals_int (gst_buffer_n_memory (out), 2);
  for (i = 0; i < gst_buffer_n_memory (out); i++)
    fail_unless (gst_is_vulkan_image_memory (gst_buffer_peek_memory (out, i)),
        "memory %u of the output is not an image", i);
  meta = gst_vktile_timing_meta_get (out, "gaussblur0");
  fail_unless (meta != NULL, "no timing meta on the output");
  if (meta->gpu_ns > 0)
    fail_unless (meta->download_ns > 0, "gpu_ns %" G_GUINT64_FORMAT
        " but no time for the copies into images", meta->gpu_ns);
  fail_unless_equals_uint64 (meta->upload_ns, 0);
  gst_buffer_unref (out);
  g_rand_free (rand);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Downstream that takes images gets images; downstream that takes
 * anything (a harness sink, filesink) gets system memory. */
GST_START_TEST (test_image_negotiation)
{
  const gchar *const sinks[] = { NULL, "(memory:VulkanImage)" };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sinks); s++) {
    GstHarness *h = gst_harness_new_parse ("tiledconv");
    gchar *in_caps = caps_string ("RGBA", TIGHT_WIDTH, NULL);
    gchar *out_caps = sinks[s] ? caps_string ("RGBA", TIGHT_WIDTH,
        sinks[s]) : NULL;
    GstCaps *caps;
    GstVideoInfo info;
    GstBuffer *out;
    GRand *rand = g_rand_new_with_seed (base_seed);

    gst_harness_set_src_caps_str (h, in_caps);
    if (out_caps)
      gst_harness_set_sink_caps_str (h, out_caps);
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, TIGHT_WIDTH,
        HEIGHT);
    out = gst_harness_push_and_pull (h, random_frame (rand, &info, 0));
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (out != NULL && caps != NULL);
    fail_unless_equals_int (gst_caps_features_contains (gst_caps_get_features
            (caps, 0), GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE), sinks[s] != NULL);
    fail_unless_equals_int (gst_is_vulkan_image_memory (gst_buffer_peek_memory
            (out, 0)), sinks[s] != NULL);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    g_rand_free (rand);
    g_free (in_caps);
    g_free (out_caps);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static const SuiteEntry vulkanimage_tests[] = {
  SUITE_CASE ("images"),
  SUITE_LOOP_TEST (test_images_in_and_out,
      G_N_ELEMENTS (image_formats) * G_N_ELEMENTS (elements)),
  SUITE_LOOP_TEST (test_images_padded_rows,
      G_N_ELEMENTS (image_formats) * G_N_ELEMENTS (elements)),
  SUITE_TEST (test_image_output_meta),
  SUITE_TEST (test_image_negotiation),
};

SUITE_MAIN ("vulkanimage", vulkanimage_tests, &base_seed, NULL);
