/* vktile tests — frames in Vulkan images (memory:VulkanImage), as
 * gstvulkan's elements and the Vulkan decoders hand them over.
 *
 * Owns the tests of the image paths of the base class: every element in
 * every format gstvulkan makes images of, reading images and writing
 * images, must give the bytes it gives on system memory; the negotiation
 * picks images where downstream asks for them; the timing meta counts the
 * copies into images as the download; and vulkansink's window, in an X
 * server without a screen (Xvfb, grabbed with xwd), shows what the
 * element gives on system memory.
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
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* `element` on N_FRAMES random frames of `format` (its name, and caps
 * fields after a comma) and `width`, through `launch` (where it reads and
 * writes images) and alone on system memory: byte for byte the same. */
static void
check_through_images (const gchar * element, const gchar * format,
    gint width, const gchar * launch, guint32 seed)
{
  GstHarness *plain = harness_for (element, format, width, NULL);
  GstHarness *images = harness_for (launch, format, width, NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  gchar **name = g_strsplit (format, ",", 2);
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, gst_video_format_from_string (name[0]),
      width, HEIGHT);
  g_strfreev (name);
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
  const gchar *format =
      gst_video_format_to_string (image_formats[__i__ % N_IMAGE_FORMATS]);
  const gchar *element = elements[__i__ / N_IMAGE_FORMATS];
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
  const gchar *format =
      gst_video_format_to_string (image_formats[__i__ % N_IMAGE_FORMATS]);
  const gchar *element = elements[__i__ / N_IMAGE_FORMATS];
  gchar *launch = g_strdup_printf (COPY_INTO_IMAGES " ! %s ! "
      "video/x-raw(memory:VulkanImage) ! " COPY_OUT_OF_IMAGES, element);

  check_through_images (element, format, PADDED_WIDTH, launch,
      base_seed + __i__);
  g_free (launch);
}

GST_END_TEST;

/* RGB of another colorimetry than sRGB: gstvulkan 1.22 gives RGBA and
 * BGRA images an sRGB format then, and xRGB, ARGB, ABGR and xBGR none. */
GST_START_TEST (test_images_colorimetry)
{
  static const gchar *const formats[] = { "RGBA", "BGRA", "xRGB", "ARGB",
    "ABGR", "xBGR",
  };
  gchar *format = g_strdup_printf ("%s,colorimetry=bt709", formats[__i__]);
  gchar *launch = g_strdup_printf (COPY_INTO_IMAGES " ! gaussblur sigma=2 ! "
      "video/x-raw(memory:VulkanImage) ! vulkandownload");

  check_through_images ("gaussblur sigma=2", format, TIGHT_WIDTH, launch,
      base_seed + __i__);
  g_free (launch);
  g_free (format);
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
  /* upload_ns is the system-memory input's path: 0 where the device reads
   * host memory in place (lavapipe), the copy across the bus on a discrete
   * GPU; nothing this test can pin down */
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

/* ---- on screen ---- */

#define SCREEN_W 320            /* gstvulkan's X11 window opens this size */
#define SCREEN_H 240

/* The X server goes when the test's process does, should a failed check
 * end the test before it is stopped. */
static void
die_with_parent (gpointer unused)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static void
stop_xvfb (GPid pid)
{
  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

/* An X server without a screen (Xvfb) of exactly the window's size, so
 * that the window shows the frame 1:1 and a grab of the root window is a
 * grab of it. Xvfb picks a free display and writes its number once it
 * accepts clients (-displayfd). -noreset: an X server resets when its last
 * client leaves, and Mesa's device-select layer connects and leaves on
 * every Vulkan instance made while DISPLAY is set, so that vulkansink's
 * own connection, made a moment later, now and then met a server in the
 * middle of its reset and failed ("non-XCB display"). Returns the
 * display's name, or NULL (failed). */
static gchar *
start_xvfb (GPid * pid)
{
  gchar *size = g_strdup_printf ("%dx%dx24", SCREEN_W, SCREEN_H);
  gchar *argv[] = { (gchar *) "Xvfb", (gchar *) "-displayfd", (gchar *) "1",
    (gchar *) "-screen", (gchar *) "0", size, (gchar *) "-nolisten",
    (gchar *) "tcp", (gchar *) "-noreset", NULL
  };
  gchar *display = NULL, number[16];
  gint out = -1;
  gsize len = 0;

  /* No intermediate process (DO_NOT_REAP_CHILD): the parent whose death
   * ends Xvfb is the test's, not one that exits at once. */
  if (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
          die_with_parent, NULL, pid, NULL, &out, NULL, NULL)) {
    struct pollfd pfd = { out, POLLIN, 0 };
    /* the number and a newline, within 10 s */
    while (len < sizeof (number) - 1 && poll (&pfd, 1, 10000) > 0) {
      gssize n = read (out, number + len, 1);
      if (n <= 0 || number[len] == '\n')
        break;
      len++;
    }
    number[len] = '\0';
    close (out);
    if (len > 0)
      display = g_strdup_printf (":%s", number);
    else
      stop_xvfb (*pid);
  }
  g_free (size);
  return display;
}

static guint32
be32 (const guint8 * p)
{
  return GST_READ_UINT32_BE (p);
}

/* The root window of `display` as BGRx rows of SCREEN_W pixels (xwd's
 * 32-bit ZPixmap, least significant byte first), or NULL. */
static guint8 *
grab_screen (const gchar * display)
{
  gchar *argv[] = { (gchar *) "xwd", (gchar *) "-root", (gchar *) "-silent",
    (gchar *) "-display", (gchar *) display, NULL
  };
  gchar *out = NULL;
  gsize len;
  guint8 *pixels = NULL;
  gint status;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL))
    return NULL;
  /* xwd's own output can hold NUL bytes: its length from the header. */
  len = 0;
  if (out && g_spawn_check_wait_status (status, NULL)) {
    const guint8 *d = (const guint8 *) out;
    guint32 header = be32 (d), bpp = be32 (d + 44), bpl = be32 (d + 48),
        ncolors = be32 (d + 76), w = be32 (d + 16), h = be32 (d + 20);
    guint y;

    if (bpp == 32 && w == SCREEN_W && h == SCREEN_H && be32 (d + 28) == 0) {
      len = header + ncolors * 12;
      pixels = g_malloc (SCREEN_W * SCREEN_H * 4);
      for (y = 0; y < SCREEN_H; y++)
        memcpy (pixels + y * SCREEN_W * 4, d + len + y * bpl, SCREEN_W * 4);
    }
  }
  g_free (out);
  return pixels;
}

/* The first error message on the bus of `pipe` with its debug text, or a
 * note that there was none: what a failed state change says for itself. */
static gchar *
first_bus_error (GstElement * pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL, *why;

  if (!msg) {
    gst_object_unref (bus);
    return g_strdup ("no error message on the bus");
  }
  gst_message_parse_error (msg, &err, &debug);
  why = g_strdup_printf ("%s: %s (%s)", GST_MESSAGE_SRC_NAME (msg),
      err->message, debug ? debug : "no details");
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  gst_object_unref (bus);
  return why;
}

static GstPadProbeReturn
count_shown (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  g_atomic_int_inc ((gint *) data);
  return GST_PAD_PROBE_OK;
}

/* gaussblur straight into vulkansink, in an X server without a screen:
 * the window shows what gaussblur gives on system memory, byte for byte
 * (BGRA: the swapchain format lavapipe's X11 surface offers). */
GST_START_TEST (test_vulkansink_window)
{
  const gchar *source = "videotestsrc pattern=smpte num-buffers=1 ! "
      "video/x-raw,format=BGRA,width=320,height=240,framerate=30/1";
  gchar *launch = g_strdup_printf ("%s ! imagefreeze ! gaussblur sigma=2 ! "
      "vulkansink name=sink", source);
  gchar *ref_launch = g_strdup_printf ("%s ! gaussblur sigma=2 ! appsink "
      "name=sink", source);
  GstElement *pipe, *ref_pipe, *sink;
  GstSample *sample;
  GstMapInfo map;
  GstPad *pad;
  gchar *display;
  guint8 *screen = NULL;
  gint shown = 0, waited, x, y, bad = 0;
  GPid xvfb;

  display = start_xvfb (&xvfb);
  fail_unless (display != NULL, "cannot start Xvfb (tools/ensure-deps.sh "
      "installs it)");
  g_setenv ("DISPLAY", display, TRUE);

  ref_pipe = gst_parse_launch (ref_launch, NULL);
  sink = gst_bin_get_by_name (GST_BIN (ref_pipe), "sink");
  gst_element_set_state (ref_pipe, GST_STATE_PLAYING);
  g_signal_emit_by_name (sink, "pull-sample", &sample);
  fail_unless (sample != NULL, "no frame from the system-memory path");
  gst_object_unref (sink);

  pipe = gst_parse_launch (launch, NULL);
  fail_unless (pipe != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_shown, &shown,
      NULL);
  gst_object_unref (pad);
  if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    gchar *why = first_bus_error (pipe);
    fail ("the pipeline into vulkansink on %s did not start: %s", display,
        why);
    g_free (why);
  }
  for (waited = 0; waited < 600 && g_atomic_int_get (&shown) < 10; waited++)
    g_usleep (50000);
  fail_unless (g_atomic_int_get (&shown) >= 10, "vulkansink showed %d frames",
      g_atomic_int_get (&shown));
  screen = grab_screen (display);
  fail_unless (screen != NULL, "cannot grab the screen of %s with xwd",
      display);

  gst_buffer_map (gst_sample_get_buffer (sample), &map, GST_MAP_READ);
  for (y = 0; y < SCREEN_H; y++)
    for (x = 0; x < SCREEN_W; x++)
      if (memcmp (screen + (y * SCREEN_W + x) * 4, map.data + (y * SCREEN_W +
                  x) * 4, 3) && bad++ == 0)
        GST_ERROR ("first difference at %d,%d", x, y);
  gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
  fail_unless_equals_int (bad, 0);

  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_element_set_state (ref_pipe, GST_STATE_NULL);
  gst_sample_unref (sample);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  gst_object_unref (ref_pipe);
  g_free (screen);
  stop_xvfb (xvfb);
  g_unsetenv ("DISPLAY");
  g_free (display);
  g_free (ref_launch);
  g_free (launch);
}

GST_END_TEST;

static const SuiteEntry vulkanimage_tests[] = {
  SUITE_CASE ("images"),
  SUITE_LOOP_TEST (test_images_in_and_out,
      N_IMAGE_FORMATS * G_N_ELEMENTS (elements)),
  SUITE_LOOP_TEST (test_images_padded_rows,
      N_IMAGE_FORMATS * G_N_ELEMENTS (elements)),
  SUITE_LOOP_TEST (test_images_colorimetry, 6),
  SUITE_TEST (test_image_output_meta),
  SUITE_TEST (test_image_negotiation),
  SUITE_CASE ("on-screen"),
  SUITE_TEST (test_vulkansink_window),
};

SUITE_MAIN ("vulkanimage", vulkanimage_tests, &base_seed, NULL);
