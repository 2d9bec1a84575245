/* tests/test_streaming.c: frames in flight. With several frames submitted
 * at once every element gives byte for byte what it gives one frame at a
 * time — system or Vulkan memory in and out, chained, in bursts and one at
 * a time (transfers paired between frames on a discrete GPU), with pool
 * buffers recycled under load, across EOS, flushes and caps changes — and
 * system
 * memory input is imported, odd strides and offsets included, while memory
 * of other allocators is copied by the CPU. Pipelines leave nothing alive
 * behind (leaks tracer). */
#define _GNU_SOURCE             /* memfd_create */
#include "harness.h"

#include <gst/app/app.h>
#include <gst/allocators/allocators.h>
#include <gst/vulkan/vulkan.h>

#include <sys/mman.h>
#include <unistd.h>

#include <string.h>

#define N_FRAMES 9

/* The elements as a user writes them; recursivefilter smooths over time,
 * so each output depends on every earlier frame of the stream. */
static const gchar *const configs[] = {
  "tiledconv preset=gaussian3",
  "gaussblur sigma=2.5",
  "recursivefilter filter=gaussian sigma=3 temporal-alpha=0.6",
};

#define N_CONFIGS G_N_ELEMENTS (configs)

/* Memory on the two sides of the element under test. */
typedef enum
{
  MEM_SYSTEM_SYSTEM,
  MEM_SYSTEM_VULKAN,
  MEM_VULKAN_SYSTEM,            /* fed by a tiledconv writing Vulkan buffers */
  MEM_KINDS
} MemoryKind;

static const gchar *const memory_names[] = {
  "system in, system out", "system in, VulkanBuffer out (to an identity tiledconv)",
  "VulkanBuffer in (from tiledconv), system out",
};

static const gchar *const formats[] = { "RGBA", "NV12", "GRAY16_LE" };

static gchar *
describe (const gchar * config, MemoryKind mem, const gchar * format,
    guint in_flight)
{
  switch (mem) {
    case MEM_SYSTEM_VULKAN:
      /* Back to system memory by an exact copy (the identity kernel): the
       * test maps what it compares. */
      return g_strdup_printf ("%s frames-in-flight=%u ! "
          "video/x-raw(memory:VulkanBuffer),format=%s ! "
          "tiledconv kernel=\"<0,0,0,0,1,0,0,0,0>\" frames-in-flight=%u",
          config, in_flight, format, in_flight);
    case MEM_VULKAN_SYSTEM:
      return g_strdup_printf ("tiledconv preset=box3 frames-in-flight=%u ! "
          "video/x-raw(memory:VulkanBuffer),format=%s ! %s "
          "frames-in-flight=%u", in_flight, format, config, in_flight);
    default:
      return g_strdup_printf ("%s frames-in-flight=%u", config, in_flight);
  }
}

static GstHarness *
start_harness (const gchar * desc, const gchar * caps, const gchar * out_caps)
{
  GstHarness *h = gst_harness_new_parse (desc);

  gst_harness_set_caps_str (h, caps, out_caps ? out_caps : caps);
  return h;
}

/* Pushes every frame before pulling any, so that up to frames-in-flight
 * are on the GPU at once; returns the outputs in order. */
static GPtrArray *
run_frames (GstHarness * h, GstBuffer ** frames, guint n)
{
  GPtrArray *outs = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  guint i;

  for (i = 0; i < n; i++) {
    GstBuffer *in = gst_buffer_copy (frames[i]);
    GST_BUFFER_PTS (in) = i * (GST_SECOND / 30);
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out != NULL, "output %u of %u missing", i, n);
    g_ptr_array_add (outs, out);
  }
  return outs;
}

static GstBuffer **
make_frames (const GstVideoInfo * info, guint n, guint32 seed, Layout layout)
{
  GstBuffer **frames = g_new0 (GstBuffer *, n);
  GRand *r = g_rand_new_with_seed (seed);
  guint i;

  for (i = 0; i < n; i++)
    frames[i] = make_frame (info, r, layout, CONTENT_ANY);
  g_rand_free (r);
  return frames;
}

static void
free_frames (GstBuffer ** frames, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    gst_buffer_unref (frames[i]);
  g_free (frames);
}

/* Every visible value and padding byte identical, and the timestamps in
 * the order they went in. */
static void
check_identical (GPtrArray * got, GPtrArray * want, const GstVideoInfo * info,
    const gchar * what)
{
  guint i;

  fail_unless_equals_int (got->len, want->len);
  for (i = 0; i < got->len; i++) {
    GstBuffer *g = g_ptr_array_index (got, i), *w = g_ptr_array_index (want, i);
    GstVideoFrame fg, fw;
    Mismatch mm = { 0 };

    fail_unless_equals_uint64 (GST_BUFFER_PTS (g), GST_BUFFER_PTS (w));
    fail_unless (gst_video_frame_map (&fg, (GstVideoInfo *) info, g,
            GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fw, (GstVideoInfo *) info, w,
            GST_MAP_READ));
    compare_frames (&fg, &fw, 0, &mm);
    gst_video_frame_unmap (&fg);
    gst_video_frame_unmap (&fw);
    fail_unless (mm.count == 0, "%s, frame %u: %u values differ from one "
        "frame at a time, first plane %u comp %u at (%d,%d): got %u, want %u",
        what, i, mm.count, mm.plane, mm.comp, mm.x, mm.y, mm.got, mm.want);
  }
}

static GPtrArray *
run_pipeline (const gchar * config, MemoryKind mem, const gchar * format,
    guint in_flight, const GstVideoInfo * info, GstBuffer ** frames, guint n)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info));
  gchar *desc = describe (config, mem, format, in_flight);
  GstHarness *h = start_harness (desc, caps, NULL);
  GPtrArray *outs = run_frames (h, frames, n);

  gst_harness_teardown (h);
  g_free (desc);
  g_free (caps);
  return outs;
}

GST_START_TEST (test_in_flight_identical)
{
  guint config = __i__ % N_CONFIGS;
  MemoryKind mem = (__i__ / N_CONFIGS) % MEM_KINDS;
  const gchar *format = formats[__i__ % G_N_ELEMENTS (formats)];
  GstVideoInfo info;
  GstBuffer **frames;
  GPtrArray *one, *many;
  gchar *what;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      61, 37);
  frames = make_frames (&info, N_FRAMES, 7100 + __i__, __i__ % 2 ?
      LAYOUT_ODD : LAYOUT_DEFAULT);
  one = run_pipeline (configs[config], mem, format, 1, &info, frames,
      N_FRAMES);
  many = run_pipeline (configs[config], mem, format, 4, &info, frames,
      N_FRAMES);
  what = g_strdup_printf ("%s, %s, %s", configs[config], memory_names[mem],
      format);
  check_identical (many, one, &info, what);
  g_free (what);
  g_ptr_array_unref (one);
  g_ptr_array_unref (many);
  free_frames (frames, N_FRAMES);
}

GST_END_TEST;

/* Whether the device is shown as a discrete GPU (tests/discretelayer.c):
 * then frames cross a bus, and those that come while the GPU is busy
 * pair their transfers. */
static gboolean
device_shown_discrete (void)
{
  const gchar *layers = g_getenv ("VK_INSTANCE_LAYERS");

  return layers && strstr (layers, "VK_LAYER_VKTILE_discrete");
}

/* Frames of `config` in bursts (each download waiting for the next frame's
 * upload) and one at a time, each pulled before the next goes in (no next
 * frame comes: the output task records the download itself), then a burst
 * again: every frame comes out, in order, byte for byte what one frame in
 * flight gives. Returns how many frames paired their transfers, which
 * their timing metas show (a download timed apart from the filter, an
 * upload beside it). */
static guint
run_bursts_and_singles (const gchar * config, const gchar * format,
    gint width, gint height, guint32 seed)
{
  static const guint pattern[] = { 6, 1, 1, 1, 5, 1 };
  gchar *caps, *desc, *what;
  GPtrArray *one, *paired = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  GstVideoInfo info;
  GstBuffer **frames;
  GstHarness *h;
  guint n = 0, b, i, n_paired = 0;

  for (b = 0; b < G_N_ELEMENTS (pattern); b++)
    n += pattern[b];
  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  frames = make_frames (&info, n, seed, LAYOUT_DEFAULT);
  one = run_pipeline (config, MEM_SYSTEM_SYSTEM, format, 1, &info, frames, n);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
  desc = g_strdup_printf ("%s name=el frames-in-flight=2", config);
  h = start_harness (desc, caps, NULL);
  for (b = 0, n = 0; b < G_N_ELEMENTS (pattern); b++) {
    for (i = 0; i < pattern[b]; i++) {
      GstBuffer *in = gst_buffer_copy (frames[n + i]);
      GST_BUFFER_PTS (in) = (n + i) * (GST_SECOND / 30);
      GST_BUFFER_DURATION (in) = GST_SECOND / 30;
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    }
    for (i = 0; i < pattern[b]; i++, n++) {
      GstBuffer *out = gst_harness_pull (h);
      GstVkTileTimingMeta *m;
      fail_unless (out != NULL, "output %u missing", n);
      m = gst_vktile_timing_meta_get (out, "el");
      fail_unless (m != NULL);
      if (m->download_ns > 0 && m->upload_ns > 0)
        n_paired++;
      g_ptr_array_add (paired, out);
    }
  }
  gst_harness_teardown (h);
  what = g_strdup_printf ("%s, %s, bursts and single frames", config, format);
  check_identical (paired, one, &info, what);
  g_free (what);
  g_free (desc);
  g_free (caps);
  g_ptr_array_unref (one);
  g_ptr_array_unref (paired);
  free_frames (frames, n);
  return n_paired;
}

GST_START_TEST (test_paired_transfers)
{
  run_bursts_and_singles (configs[__i__ % N_CONFIGS], __i__ < (gint) N_CONFIGS
      ? "RGBA" : "NV12", 320, 180, 7200 + __i__);
}

GST_END_TEST;

/* Whether frames pair their transfers depends on the GPU still working
 * when the next one comes: a filter that keeps lavapipe busy far longer
 * than recording a frame takes makes the bursts pair, on a device shown
 * as a discrete GPU. */
GST_START_TEST (test_bursts_pair_transfers)
{
  guint n_paired;

  if (!device_shown_discrete ())
    return;
  n_paired = run_bursts_and_singles ("recursivefilter filter=gaussian "
      "sigma=12", "RGBA", 640, 360, 7250);
  fail_unless (n_paired > 0, "no frame of the bursts paired its transfers");
}

GST_END_TEST;

/* A flush while frames pair their transfers drops the download no frame
 * carried yet; the timing messages (post-messages) of the frames after it
 * still come, each once its frame is done. Whether a download is pending
 * when the flush comes depends on the GPU's timing: six bursts, each
 * flushed at once. */
#define FLUSHED_BURSTS 6
#define BURST 5
#define AFTER 3

GST_START_TEST (test_flush_paired_messages)
{
  const gchar *caps = "video/x-raw,format=RGBA,width=640,height=360,"
      "framerate=30/1";
  const guint n = FLUSHED_BURSTS * BURST + AFTER;
  GstHarness *h;
  GstBus *bus;
  GstVideoInfo info;
  GstBuffer **frames, *out;
  GstMessage *msg;
  guint64 last = 0;
  guint i;

  if (!device_shown_discrete ())
    return;
  h = start_harness ("recursivefilter filter=gaussian sigma=12 "
      "frames-in-flight=2 post-messages=true", caps, NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 640, 360);
  frames = make_frames (&info, n, 7500, LAYOUT_DEFAULT);
  for (i = 0; i < n; i++) {
    GstBuffer *b = gst_buffer_copy (frames[i]);
    GST_BUFFER_PTS (b) = i * (GST_SECOND / 30);
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
    if (i < FLUSHED_BURSTS * BURST && i % BURST == BURST - 1) {
      harness_flush (h);
      while ((out = gst_harness_try_pull (h)))
        gst_buffer_unref (out);
    } else if (i >= FLUSHED_BURSTS * BURST) {
      out = gst_harness_pull (h);
      fail_unless (out != NULL, "frame %u after the flushes missing", i);
      gst_buffer_unref (out);
    }
  }
  /* The last frame's message, posted after its push. */
  while (last < n - 1 && (msg = gst_bus_timed_pop_filtered (bus,
              5 * GST_SECOND, GST_MESSAGE_ELEMENT))) {
    const GstStructure *st = gst_message_get_structure (msg);
    if (gst_structure_has_name (st, "vktile-timing"))
      gst_structure_get_uint64 (st, "frame-index", &last);
    gst_message_unref (msg);
  }
  fail_unless_equals_uint64 (last, n - 1);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  free_frames (frames, n);
}

GST_END_TEST;

/* The three elements chained in Vulkan memory, each with frames in
 * flight, against the same chain one frame at a time. */
GST_START_TEST (test_chain_in_flight)
{
  const gchar *chain = "tiledconv preset=gaussian3 frames-in-flight=%u ! "
      "video/x-raw(memory:VulkanBuffer) ! gaussblur sigma=2 "
      "frames-in-flight=%u ! video/x-raw(memory:VulkanBuffer) ! "
      "recursivefilter filter=gaussian sigma=4 temporal-alpha=0.5 "
      "frames-in-flight=%u";
  const gchar *caps = "video/x-raw,format=RGBA,width=83,height=41,"
      "framerate=30/1";
  GPtrArray *outs[2];
  GstVideoInfo info;
  GstBuffer **frames;
  guint k;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 83, 41);
  frames = make_frames (&info, 2 * N_FRAMES, 7200, LAYOUT_DEFAULT);
  for (k = 0; k < 2; k++) {
    guint n = k ? 6 : 1;
    gchar *desc = g_strdup_printf (chain, n, n, n);
    GstHarness *h = start_harness (desc, caps, NULL);
    outs[k] = run_frames (h, frames, 2 * N_FRAMES);
    gst_harness_teardown (h);
    g_free (desc);
  }
  check_identical (outs[1], outs[0], &info, "chain of three");
  g_ptr_array_unref (outs[0]);
  g_ptr_array_unref (outs[1]);
  free_frames (frames, 2 * N_FRAMES);
}

GST_END_TEST;

/* videotestsrc writes into the pool the element proposes: its buffers go
 * round while frames are in flight, and none is written while the GPU
 * still reads it. */
static GPtrArray *
pull_all (const gchar * desc, guint expected)
{
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (desc, &error);
  GstElement *sink;
  GPtrArray *outs = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  GstSample *sample;

  fail_unless (pipe != NULL, "%s: %s", desc, error ? error->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    g_ptr_array_add (outs, gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)), "%s: no EOS", desc);
  fail_unless_equals_int (outs->len, expected);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return outs;
}

GST_START_TEST (test_recycled_under_load)
{
  const gchar *desc = "videotestsrc pattern=ball num-buffers=40 ! "
      "video/x-raw,format=NV12,width=96,height=54,framerate=30/1 ! "
      "gaussblur sigma=1.5 frames-in-flight=%u ! appsink name=sink sync=false";
  GPtrArray *outs[2];
  GstVideoInfo info;
  guint k;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 96, 54);
  for (k = 0; k < 2; k++) {
    gchar *d = g_strdup_printf (desc, k ? 6 : 1);
    outs[k] = pull_all (d, 40);
    g_free (d);
  }
  check_identical (outs[1], outs[0], &info, "videotestsrc into the proposed "
      "pool");
  g_ptr_array_unref (outs[0]);
  g_ptr_array_unref (outs[1]);
}

GST_END_TEST;

/* EOS arriving while frames are in flight comes out after all of them. */
GST_START_TEST (test_eos_in_flight)
{
  const gchar *config = configs[__i__];
  gchar *desc = g_strdup_printf ("appsrc name=src format=time "
      "caps=video/x-raw,format=RGBA,width=64,height=48,framerate=30/1 ! "
      "%s frames-in-flight=6 ! appsink name=sink sync=false", config);
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (desc, &error);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstVideoInfo info;
  GstBuffer **frames;
  GstSample *sample;
  guint i, n = 0;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  frames = make_frames (&info, 5, 7300 + __i__, LAYOUT_DEFAULT);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 5; i++) {
    GstBuffer *b = gst_buffer_copy (frames[i]);
    GST_BUFFER_PTS (b) = i * (GST_SECOND / 30);
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), b),
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer
            (sample)), n * (GST_SECOND / 30));
    n++;
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  fail_unless_equals_int (n, 5);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  free_frames (frames, 5);
  g_free (desc);
}

GST_END_TEST;

/* A flush with frames in flight drops what was in flight (or lets it out
 * before the flush), never duplicates a frame, and what follows is what
 * a fresh element gives. */
GST_START_TEST (test_flush_in_flight)
{
  const gchar *caps = "video/x-raw,format=RGBA,width=64,height=48,"
      "framerate=30/1";
  GstHarness *h = start_harness ("tiledconv preset=gaussian5 "
      "frames-in-flight=6", caps, NULL);
  GstHarness *ref = start_harness ("tiledconv preset=gaussian5 "
      "frames-in-flight=1", caps, NULL);
  GstVideoInfo info;
  GstBuffer **frames;
  GPtrArray *after, *want;
  GstBuffer *out;
  guint i, before = 0;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  frames = make_frames (&info, 10, 7400, LAYOUT_DEFAULT);
  for (i = 0; i < 5; i++) {
    GstBuffer *b = gst_buffer_copy (frames[i]);
    GST_BUFFER_PTS (b) = (100 + i) * GST_SECOND;
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
  }
  harness_flush (h);
  /* What left before the flush: the first frames, in order, once each. */
  while ((out = gst_harness_try_pull (h))) {
    fail_unless (GST_BUFFER_PTS (out) == (100 + before) * GST_SECOND,
        "frame %u out of order or duplicated before the flush", before);
    before++;
    gst_buffer_unref (out);
  }
  fail_unless (before <= 5);
  after = run_frames (h, frames + 5, 5);
  want = run_frames (ref, frames + 5, 5);
  check_identical (after, want, &info, "after a flush");
  fail_unless (gst_harness_try_pull (h) == NULL, "a frame came out twice");
  g_ptr_array_unref (after);
  g_ptr_array_unref (want);
  gst_harness_teardown (h);
  gst_harness_teardown (ref);
  free_frames (frames, 10);
}

GST_END_TEST;

/* A caps change while frames are in flight: the frames of the old size
 * leave first, all of them, then those of the new. */
GST_START_TEST (test_caps_change_in_flight)
{
  const gchar *config = configs[__i__];
  gchar *desc = g_strdup_printf ("%s frames-in-flight=6", config);
  gchar *desc1 = g_strdup_printf ("%s frames-in-flight=1", config);
  const gchar *caps_a = "video/x-raw,format=NV12,width=64,height=48,"
      "framerate=30/1";
  const gchar *caps_b = "video/x-raw,format=NV12,width=38,height=30,"
      "framerate=30/1";
  GstVideoInfo info_a, info_b;
  GstBuffer **fa, **fb;
  GstHarness *h = start_harness (desc, caps_a, NULL);
  GPtrArray *got_a, *got_b, *want_a, *want_b;
  guint i;

  gst_video_info_set_format (&info_a, GST_VIDEO_FORMAT_NV12, 64, 48);
  gst_video_info_set_format (&info_b, GST_VIDEO_FORMAT_NV12, 38, 30);
  fa = make_frames (&info_a, 4, 7500 + __i__, LAYOUT_DEFAULT);
  fb = make_frames (&info_b, 4, 7600 + __i__, LAYOUT_DEFAULT);
  for (i = 0; i < 4; i++) {
    GstBuffer *in = gst_buffer_copy (fa[i]);
    GST_BUFFER_PTS (in) = i * (GST_SECOND / 30);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  gst_harness_set_caps_str (h, caps_b, caps_b);
  got_a = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  for (i = 0; i < 4; i++) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless_equals_int (gst_buffer_get_size (out), info_a.size);
    g_ptr_array_add (got_a, out);
  }
  got_b = run_frames (h, fb, 4);
  gst_harness_teardown (h);

  h = start_harness (desc1, caps_a, NULL);
  want_a = run_frames (h, fa, 4);
  gst_harness_teardown (h);
  h = start_harness (desc1, caps_b, NULL);
  want_b = run_frames (h, fb, 4);
  gst_harness_teardown (h);

  check_identical (got_a, want_a, &info_a, "before a caps change");
  check_identical (got_b, want_b, &info_b, "after a caps change");
  g_ptr_array_unref (got_a);
  g_ptr_array_unref (got_b);
  g_ptr_array_unref (want_a);
  g_ptr_array_unref (want_b);
  free_frames (fa, 4);
  free_frames (fb, 4);
  g_free (desc);
  g_free (desc1);
}

GST_END_TEST;

/* ---- which path system memory takes ---- */

static gchar *path_line;
static GMutex path_lock;

static void
catch_path_line (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (text && g_str_has_prefix (text, "input frames: ")) {
    g_mutex_lock (&path_lock);
    g_free (path_line);
    path_line = g_strdup (text);
    g_mutex_unlock (&path_lock);
  }
}

/* run_frames(), and the debug line that says which path the input took
 * (NULL: none said it; g_free() it). */
static GPtrArray *
run_frames_path (GstHarness * h, GstBuffer ** frames, guint n, gchar ** path)
{
  GstDebugCategory *cat = _gst_debug_get_category ("vktilefilter");
  GPtrArray *got;

  /* The category exists once the element does. */
  fail_unless (cat != NULL);
  gst_debug_add_log_function (catch_path_line, NULL, NULL);
  gst_debug_category_set_threshold (cat, GST_LEVEL_INFO);
  g_mutex_lock (&path_lock);
  g_clear_pointer (&path_line, g_free);
  g_mutex_unlock (&path_lock);
  got = run_frames (h, frames, n);
  gst_debug_remove_log_function (catch_path_line);
  gst_debug_category_reset_threshold (cat);
  g_mutex_lock (&path_lock);
  *path = g_steal_pointer (&path_line);
  g_mutex_unlock (&path_lock);
  return got;
}

/* n random frames of format at width x height, packed tightly (seed:
 * make_frames()); *info says so and *caps (30 fps; g_free() them). */
static GstBuffer **
packed_frames (const gchar * format, gint width, gint height, guint n,
    guint32 seed, GstVideoInfo * info, gchar ** caps)
{
  gst_video_info_set_format (info, gst_video_format_from_string (format),
      width, height);
  *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
  return make_frames (info, n, seed, LAYOUT_DEFAULT);
}

/* frames[0..n) through a harness of their own (start_harness (desc,
 * caps)), torn down after; with path, as run_frames_path() has it. */
static GPtrArray *
run_frames_apart (const gchar * desc, const gchar * caps, GstBuffer ** frames,
    guint n, gchar ** path)
{
  GstHarness *h = start_harness (desc, caps, NULL);
  GPtrArray *outs = path ? run_frames_path (h, frames, n, path) :
      run_frames (h, frames, n);

  gst_harness_teardown (h);
  return outs;
}

/* The same bytes and video meta in memory of another allocator (a memfd
 * behind GstFdAllocator), which the element must not import: its pages are
 * mapped only while a map lasts. */
static GstBuffer *
in_fd_memory (GstBuffer * frame)
{
  GstAllocator *fd_alloc = gst_fd_allocator_new ();
  GstVideoMeta *vm = gst_buffer_get_video_meta (frame);
  gsize size = gst_buffer_get_size (frame);
  GstBuffer *buf = gst_buffer_new ();
  GstMapInfo map;
  gint fd = memfd_create ("vktile-test-frame", 0);

  fail_unless (fd >= 0);
  fail_unless (gst_buffer_map (frame, &map, GST_MAP_READ));
  fail_unless (write (fd, map.data, size) == (gssize) size);
  gst_buffer_unmap (frame, &map);
  gst_buffer_append_memory (buf, gst_fd_allocator_alloc (fd_alloc, fd, size,
          GST_FD_MEMORY_FLAG_NONE));
  gst_object_unref (fd_alloc);
  if (vm)
    gst_buffer_add_video_meta_full (buf, vm->flags, vm->format, vm->width,
        vm->height, vm->n_planes, vm->offset, vm->stride);
  return buf;
}

/* The device imports system memory where it can (lavapipe and NVIDIA do),
 * odd strides and offsets included, and says so: the shaders read a
 * word-aligned frame in place, an odd one is copied by the GPU into the
 * working layout; memory of another allocator is copied by the CPU
 * instead, and says so. Either way the result is the one of the same
 * picture packed tightly. */
GST_START_TEST (test_imported_odd_layout)
{
  const gchar *format = formats[(__i__ / 2) % G_N_ELEMENTS (formats)];
  gboolean fd_memory = __i__ % 2;
  gchar *caps, *path;
  GstVideoInfo info;
  GstBuffer **packed, **odd;
  GPtrArray *got, *want;
  guint i;

  packed = packed_frames (format, 57, 35, 3, 7700 + __i__, &info, &caps);
  odd = make_frames (&info, 3, 7800 + __i__, LAYOUT_ODD);
  for (i = 0; i < 3; i++) {
    GstVideoFrame src, dst;
    fail_unless (gst_video_frame_map (&src, &info, packed[i], GST_MAP_READ));
    fail_unless (gst_video_frame_map (&dst, &info, odd[i], GST_MAP_WRITE));
    fail_unless (ref_frame_copy (&dst, &src));
    gst_video_frame_unmap (&dst);
    gst_video_frame_unmap (&src);
    if (fd_memory) {
      GstBuffer *fd_frame = in_fd_memory (odd[i]);
      gst_buffer_unref (odd[i]);
      odd[i] = fd_frame;
    }
  }

  got = run_frames_apart ("gaussblur sigma=1.2", caps, odd, 3, &path);
  fail_unless (path != NULL, "no debug line says which path the input "
      "took");
  if (fd_memory)
    fail_unless (strstr (path, "copied by the CPU") != NULL, "fd memory "
        "was not copied by the CPU: \"%s\"", path);
  else
    fail_unless (strstr (path, "imported") != NULL
        && strstr (path, "copied by the GPU") != NULL, "system memory "
        "of an odd layout was not imported and copied: \"%s\"", path);
  g_free (path);

  want = run_frames_apart ("gaussblur sigma=1.2", caps, packed, 3, NULL);

  /* tiledconv's tiled shader reads its input in runs: a packed frame is
   * read in place on any device (gaussblur's copies it to VRAM where
   * there is VRAM). */
  g_ptr_array_unref (run_frames_apart ("tiledconv", caps, packed, 1, &path));
  fail_unless (path != NULL && strstr (path, "read in place"),
      "a packed system-memory frame was not read in place: \"%s\"",
      GST_STR_NULL (path));
  g_free (path);

  check_identical (got, want, &info, fd_memory ? "odd layout, fd memory "
      "copied by the CPU" : "odd layout, imported");
  g_ptr_array_unref (got);
  g_ptr_array_unref (want);
  free_frames (packed, 3);
  free_frames (odd, 3);
  g_free (caps);
}

GST_END_TEST;

/* The frame's planes in memories of their own, as some decoders and
 * capture devices hand them out. */
static GstBuffer *
planes_apart (GstBuffer * packed, const GstVideoInfo * info)
{
  GstBuffer *buf = gst_buffer_new ();
  GstMapInfo map;
  guint p, n = GST_VIDEO_INFO_N_PLANES (info);

  fail_unless (gst_buffer_map (packed, &map, GST_MAP_READ));
  for (p = 0; p < n; p++) {
    gsize end = p + 1 < n ? info->offset[p + 1] : info->size;
    gsize size = end - info->offset[p];
    GstMemory *mem = gst_allocator_alloc (NULL, size, NULL);
    GstMapInfo mm;

    fail_unless (gst_memory_map (mem, &mm, GST_MAP_WRITE));
    memcpy (mm.data, map.data + info->offset[p], size);
    gst_memory_unmap (mem, &mm);
    gst_buffer_append_memory (buf, mem);
  }
  gst_buffer_unmap (packed, &map);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n, (gsize *) info->offset,
      (gint *) info->stride);
  return buf;
}

/* Planes in memories of their own cannot be read in place as one frame:
 * each is imported and copied by the GPU, with frames in flight, and the
 * result is the one of the same frames in one memory. */
GST_START_TEST (test_imported_planes_apart)
{
  static const gchar *const fmts[] = { "NV12", "I420" };
  const gchar *format = fmts[__i__];
  gchar *what = g_strdup_printf ("%s planes in memories of their own",
      format);
  gchar *caps, *path;
  GstVideoInfo info;
  GstBuffer **packed, **apart;
  GPtrArray *got, *want;
  guint i;

  packed = packed_frames (format, 64, 35, N_FRAMES, 8100 + __i__, &info, &caps);
  apart = g_new (GstBuffer *, N_FRAMES);
  for (i = 0; i < N_FRAMES; i++)
    apart[i] = planes_apart (packed[i], &info);

  got = run_frames_apart ("gaussblur sigma=1.2 frames-in-flight=3", caps,
      apart, N_FRAMES, &path);
  fail_unless (path != NULL && strstr (path, "imported") != NULL
      && strstr (path, "copied by the GPU") != NULL, "%s were not "
      "imported and copied: \"%s\"", what, GST_STR_NULL (path));
  g_free (path);

  want = run_frames_apart ("gaussblur sigma=1.2 frames-in-flight=1", caps,
      packed, N_FRAMES, NULL);
  check_identical (got, want, &info, what);
  g_ptr_array_unref (got);
  g_ptr_array_unref (want);
  free_frames (packed, N_FRAMES);
  free_frames (apart, N_FRAMES);
  g_free (what);
  g_free (caps);
}

GST_END_TEST;

/* One of several elements on their own threads filtering the same
 * system-memory frames, round after round. */
typedef struct
{
  GstHarness *h;
  GstBuffer **frames;
  guint n, rounds;
  GPtrArray *want;
  const GstVideoInfo *info;
  guint bad_rounds;
} SharedInput;

static gpointer
shared_input_thread (gpointer data)
{
  SharedInput *s = data;
  guint r, i;

  for (r = 0; r < s->rounds; r++) {
    GPtrArray *got = run_frames (s->h, s->frames, s->n);
    gboolean bad = FALSE;
    for (i = 0; i < s->n; i++) {
      GstVideoFrame fg, fw;
      Mismatch mm = { 0 };
      gst_video_frame_map (&fg, (GstVideoInfo *) s->info,
          g_ptr_array_index (got, i), GST_MAP_READ);
      gst_video_frame_map (&fw, (GstVideoInfo *) s->info,
          g_ptr_array_index (s->want, i), GST_MAP_READ);
      bad |= compare_frames (&fg, &fw, 0, &mm) > 0;
      gst_video_frame_unmap (&fg);
      gst_video_frame_unmap (&fw);
    }
    s->bad_rounds += bad;
    g_ptr_array_unref (got);
  }
  return NULL;
}

/* Elements on several threads sharing one device (an application's
 * GstContext) and importing the same system memories at once, as many
 * streams from one source or a tee's branches do: submissions to the one
 * queue are serialised across elements, each import is looked up and
 * replaced on the memory under a lock, and every element's output is the
 * one of a single element. On the H100 two such streams lost the device
 * within seconds (concurrent vkQueueSubmit); lavapipe serialises its
 * queue itself and does not show it. */
GST_START_TEST (test_shared_input_memories)
{
  const gchar *caps = "video/x-raw,format=NV12,width=64,height=48,"
      "framerate=30/1";
  SharedInput runs[4];
  GThread *threads[4];
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstContext *ctx;
  GstVideoInfo info;
  GstBuffer **frames;
  GPtrArray *want;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  frames = make_frames (&info, N_FRAMES, 7900, LAYOUT_DEFAULT);
  want = run_frames_apart ("gaussblur sigma=1.2", caps, frames, N_FRAMES, NULL);
  instance = gst_vulkan_instance_new ();
  fail_unless (gst_vulkan_instance_open (instance, NULL));
  device = gst_vulkan_device_new_with_index (instance, 0);
  gst_vulkan_device_enable_extension (device, "VK_KHR_external_memory");
  gst_vulkan_device_enable_extension (device, "VK_EXT_external_memory_host");
  fail_unless (gst_vulkan_device_open (device, NULL));
  ctx = gst_context_new (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_device (ctx, device);
  for (i = 0; i < G_N_ELEMENTS (runs); i++) {
    GstHarness *hi = gst_harness_new_parse ("gaussblur sigma=1.2");
    gst_element_set_context (hi->element, ctx);
    gst_harness_set_caps_str (hi, caps, caps);
    runs[i] = (SharedInput) {
    hi, frames, N_FRAMES, 12, want, &info, 0};
    threads[i] = g_thread_new ("shared-input", shared_input_thread, &runs[i]);
  }
  for (i = 0; i < G_N_ELEMENTS (runs); i++) {
    g_thread_join (threads[i]);
    gst_harness_teardown (runs[i].h);
    fail_unless (runs[i].bad_rounds == 0, "element %u: %u of %u rounds "
        "differ from one element alone", i, runs[i].bad_rounds,
        runs[i].rounds);
  }
  gst_context_unref (ctx);
  gst_object_unref (device);
  gst_object_unref (instance);
  g_ptr_array_unref (want);
  free_frames (frames, N_FRAMES);
}

GST_END_TEST;

/* An output frame mapped by several readers at once, as a tee feeds an
 * encoder (gst_video_frame_map, which takes a reference) and a video
 * filter (with GST_VIDEO_FRAME_MAP_FLAG_NO_REF): every map succeeds and
 * sees the frame, and the buffer's references come back as they were. */
GST_START_TEST (test_output_mapped_twice)
{
  const gchar *caps = "video/x-raw,format=I420,width=40,height=30,"
      "framerate=30/1";
  GstHarness *h = start_harness ("gaussblur sigma=1.5", caps, NULL);
  GstVideoFrame a, b, c, in_frame;
  GstVideoInfo info;
  GstBuffer **frames, *out;
  guint p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 40, 30);
  frames = make_frames (&info, 1, 7900, LAYOUT_DEFAULT);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (frames[0])),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  fail_unless (gst_buffer_get_video_meta (out) != NULL);
  fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (out), 1);

  fail_unless (gst_video_frame_map (&a, &info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, &info, out,
          GST_MAP_READ | GST_VIDEO_FRAME_MAP_FLAG_NO_REF),
      "a second reader with other map flags could not map the frame");
  fail_unless (gst_video_frame_map (&c, &info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&in_frame, &info, frames[0],
          GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    gsize n = GST_VIDEO_FRAME_PLANE_STRIDE (&a, p) *
        GST_VIDEO_FRAME_COMP_HEIGHT (&a, p);
    fail_unless (memcmp (a.data[p], b.data[p], n) == 0
        && memcmp (a.data[p], c.data[p], n) == 0);
  }
  fail_unless (memcmp (a.data[0], in_frame.data[0], 40) != 0,
      "the frame was not filtered");
  gst_video_frame_unmap (&in_frame);
  gst_video_frame_unmap (&b);
  gst_video_frame_unmap (&a);
  fail_unless (gst_video_frame_map (&a, &info, out,
          GST_MAP_READ | GST_VIDEO_FRAME_MAP_FLAG_NO_REF));
  gst_video_frame_unmap (&c);
  gst_video_frame_unmap (&a);
  fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (out), 1);

  gst_buffer_unref (out);
  gst_harness_teardown (h);
  free_frames (frames, 1);
}

GST_END_TEST;

/* The latency query: a frame leaves as soon as its work is done (nothing
 * added to the minimum); frames in flight add to what may be held. */
GST_START_TEST (test_latency_query)
{
  GstHarness *h = start_harness ("tiledconv frames-in-flight=4",
      "video/x-raw,format=GRAY8,width=32,height=32,framerate=25/1", NULL);
  GstQuery *q = gst_query_new_latency ();
  GstClockTime min, max;
  gboolean live;
  GstPad *src = gst_element_get_static_pad (h->element, "src");

  gst_harness_set_upstream_latency (h, 10 * GST_MSECOND);
  gst_harness_set_live (h, TRUE);
  fail_unless (gst_pad_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless_equals_uint64 (min, 10 * GST_MSECOND);
  fail_unless (max == GST_CLOCK_TIME_NONE || max >= 10 * GST_MSECOND
      + 3 * 40 * GST_MSECOND, "max latency %" GST_TIME_FORMAT,
      GST_TIME_ARGS (max));
  gst_query_unref (q);
  gst_object_unref (src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* QoS: downstream reports that frames arrive 200 ms late, so the frames
 * due before then are dropped before any GPU work; later ones pass. */
GST_START_TEST (test_qos_drops_late_frames)
{
  const GstClockTime frame = GST_SECOND / 25;
  GstHarness *h = start_harness (configs[__i__],
      "video/x-raw,format=GRAY8,width=32,height=32,framerate=25/1", NULL);
  gchar **words = g_strsplit (configs[__i__], " ", 2);
  GstElement *el = gst_harness_find_element (h, words[0]);
  GstBuffer *out;
  gboolean qos;
  guint i;

  g_object_get (el, "qos", &qos, NULL);
  fail_unless (qos, "QoS is off");
  gst_object_unref (el);
  g_strfreev (words);
  for (i = 0; i < 6; i++) {
    GstBuffer *in = gst_harness_create_buffer (h, 32 * 32);
    GST_BUFFER_PTS (in) = i * frame;
    GST_BUFFER_DURATION (in) = frame;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    if (i == 0) {
      out = gst_harness_pull (h);
      fail_unless (out != NULL);
      gst_buffer_unref (out);
      /* frame 0 reached the sink 200 ms late: the next frames due before
       * 0 + 2 x 200 ms are late as well */
      fail_unless (gst_harness_push_upstream_event (h,
              gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 2.0,
                  200 * GST_MSECOND, 0)));
    }
  }
  /* frames 1..5 are due at 40-200 ms: all dropped */
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  {
    GstBuffer *in = gst_harness_create_buffer (h, 32 * 32);
    GST_BUFFER_PTS (in) = 25 * frame;
    GST_BUFFER_DURATION (in) = frame;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "a frame due after the late ones was dropped");
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 25 * frame);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A live camera-like source into a sink that takes 100 ms per frame: the
 * element drops late frames and says so with QoS messages. */
GST_START_TEST (test_qos_live_slow_sink)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1 ! "
      "%s name=filter ! identity sleep-time=100000 ! fakesink sync=true "
      "qos=true", configs[__i__]);
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (desc, &error);
  GstElement *filter = gst_bin_get_by_name (GST_BIN (pipe), "filter");
  GstBus *bus = gst_element_get_bus (pipe);
  /* long enough for a cold shader cache on lavapipe */
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint64 processed = 0, dropped = 0;
  GstMessage *msg;

  fail_unless (pipe != NULL, "%s", error ? error->message : desc);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while (dropped == 0 && g_get_monotonic_time () < end) {
    msg = gst_bus_timed_pop_filtered (bus, 100 * GST_MSECOND,
        GST_MESSAGE_QOS | GST_MESSAGE_ERROR);
    if (!msg)
      continue;
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "error from %s",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)));
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (filter))
      gst_message_parse_qos_stats (msg, NULL, &processed, &dropped);
    gst_message_unref (msg);
  }
  fail_unless (dropped > 0, "no QoS message from %s with frames dropped "
      "in 60 s", configs[__i__]);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (filter);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_END_TEST;

/* ---- one device for the pipeline ---- */

/* A tee feeding vktile branches after a vktile element: the branches start
 * first, each before the others can answer a context query through the
 * tee, so they find the device through the context the first one posted;
 * every element runs on that one device, and the upstream element's
 * Vulkan buffers reach both branches (on devices of their own, the second
 * branch could not read them). Also with a live source, whose elements
 * start in another order. */
GST_START_TEST (test_tee_branches_share_device)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=5 is-live=%s ! "
      "video/x-raw,format=NV12,width=64,height=48 ! gaussblur name=a ! "
      "tee name=t t. ! queue ! tiledconv name=b ! fakesink "
      "t. ! queue ! tiledconv name=c ! fakesink", __i__ ? "true" : "false");
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (desc, &error);
  GstVulkanDevice *devices[3];
  const gchar *names[3] = { "a", "b", "c" };
  GstBus *bus;
  GstMessage *msg;
  guint i;

  fail_unless (pipe != NULL && error == NULL, "%s",
      error ? error->message : desc);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS in 120 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: error from %s: %s", desc, GST_OBJECT_NAME (GST_MESSAGE_SRC
            (msg)), err->message);
  }
  gst_message_unref (msg);
  for (i = 0; i < 3; i++) {
    GstElement *el = gst_bin_get_by_name (GST_BIN (pipe), names[i]);
    devices[i] = harness_element_device (el);
    fail_unless (devices[i] != NULL, "%s answers no device", names[i]);
    gst_object_unref (el);
  }
  fail_unless (devices[0] == devices[1] && devices[1] == devices[2],
      "the elements run on different devices: %p %p %p", devices[0],
      devices[1], devices[2]);
  for (i = 0; i < 3; i++)
    gst_object_unref (devices[i]);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_END_TEST;

/* Elements the application gave two different devices: the second cannot
 * read the first's device-local buffers, and its error says so, naming
 * both devices, where it said "Cannot map the input frame". */
GST_START_TEST (test_frame_from_another_device)
{
  const gchar *desc = "videotestsrc num-buffers=2 ! "
      "video/x-raw,format=RGBA,width=32,height=16 ! gaussblur name=a ! "
      "video/x-raw(memory:VulkanBuffer) ! tiledconv name=b ! fakesink";
  GstVulkanInstance *instance = gst_vulkan_instance_new ();
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (desc, &error);
  const gchar *names[2] = { "a", "b" };
  GstMessage *msg;
  GstBus *bus;
  guint i;

  fail_unless (pipe != NULL && error == NULL, "%s", desc);
  fail_unless (gst_vulkan_instance_open (instance, NULL));
  for (i = 0; i < 2; i++) {
    GstVulkanDevice *device = gst_vulkan_device_new_with_index (instance, 0);
    GstElement *el = gst_bin_get_by_name (GST_BIN (pipe), names[i]);
    GstContext *context =
        gst_context_new (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR, TRUE);
    fail_unless (gst_vulkan_device_open (device, NULL));
    gst_context_set_vulkan_device (context, device);
    gst_element_set_context (el, context);
    gst_context_unref (context);
    gst_object_unref (el);
    gst_object_unref (device);
  }
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "no error from a frame of another device");
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (g_str_equal (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "b")
      && strstr (error->message, "another Vulkan device") != NULL,
      "%s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), error->message);
  g_clear_error (&error);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  gst_object_unref (instance);
}

GST_END_TEST;

/* ---- leaks ---- */

/* Streams with frames in flight through every configuration, then
 * flushes, changes caps and stops. */
static void
stream_every_config (void)
{
  guint i;

  for (i = 0; i < N_CONFIGS; i++) {
    gchar *d = g_strdup_printf ("videotestsrc num-buffers=12 ! "
        "video/x-raw,format=NV12,width=48,height=32,framerate=30/1 ! "
        "%s frames-in-flight=4 ! video/x-raw(memory:VulkanBuffer) ! "
        "tiledconv preset=box3 frames-in-flight=3 ! appsink name=sink "
        "sync=false", configs[i]);
    g_ptr_array_unref (pull_all (d, 12));
    g_free (d);
  }
}

/* Objects created while streaming with frames in flight, then flushing,
 * changing caps and stopping, and still alive after the pipeline is gone. */
LEAKS_TEST (test_no_leaks, stream_every_config);

static const SuiteEntry streaming_tests[] = {
  SUITE_CASE ("in-flight"),
  SUITE_LOOP_TEST (test_in_flight_identical, N_CONFIGS * MEM_KINDS),
  SUITE_TEST (test_chain_in_flight),
  SUITE_LOOP_TEST (test_paired_transfers, 2 * N_CONFIGS),
  SUITE_TEST (test_bursts_pair_transfers),
  SUITE_TEST (test_flush_paired_messages),
  SUITE_TEST (test_recycled_under_load),
  SUITE_LOOP_TEST (test_eos_in_flight, N_CONFIGS),
  SUITE_TEST (test_flush_in_flight),
  SUITE_LOOP_TEST (test_caps_change_in_flight, N_CONFIGS),
  SUITE_LOOP_TEST (test_imported_planes_apart, 2),
  SUITE_LOOP_TEST (test_imported_odd_layout, 2 * G_N_ELEMENTS (formats)),
  SUITE_TEST (test_output_mapped_twice),
  SUITE_TEST (test_shared_input_memories),
  SUITE_TEST (test_latency_query),
  SUITE_LOOP_TEST (test_qos_drops_late_frames, N_CONFIGS),
  SUITE_LOOP_TEST (test_qos_live_slow_sink, N_CONFIGS),
  SUITE_LOOP_TEST (test_tee_branches_share_device, 2),
  SUITE_TEST (test_frame_from_another_device),
  SUITE_TEST (test_no_leaks),
};

SUITE_MAIN ("streaming", streaming_tests, NULL, harness_start_leaks_tracer);
