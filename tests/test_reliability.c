/* test_reliability.c: vktile used as a hostile or careless user would —
 * buffers whose memory does not hold what their caps or video meta claim,
 * refused property values that must reach the user, a region of interest
 * off the frame, state cycles, pipelines running side by side, a short
 * soak with flat memory, and nothing left alive afterwards (leaks
 * tracer). */
#include <string.h>

#include <gst/app/gstappsink.h>

#include "harness.h"

static const gchar *const elements[] = {
  "tiledconv", "gaussblur", "recursivefilter"
};

#define N_ELEMENTS G_N_ELEMENTS (elements)

/* A harness on `element` negotiated to `info`, with a bus that keeps the
 * element's messages (a harness gives it none). */
static GstHarness *
start_harness (const gchar * element, const GstVideoInfo * info,
    GstBus ** bus)
{
  GstHarness *h = gst_harness_new (element);
  GstCaps *caps = gst_video_info_to_caps ((GstVideoInfo *) info);

  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_caps (h, gst_caps_ref (caps), caps);
  return h;
}

/* Tears down a harness from start_harness(). Messages left on the bus hold
 * the element, which holds the bus: flush them first. */
static void
finish_harness (GstHarness * h, GstBus * bus)
{
  gst_bus_set_flushing (bus, TRUE);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

/* Pops every message of `type` from the bus; returns how many there were
 * and fails unless each one's text or debug string mentions `mention`. */
static guint
pop_messages (GstBus * bus, GstMessageType type, const gchar * mention)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, type))) {
    GError *err = NULL;
    gchar *debug = NULL;

    if (type == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &debug);
    else
      gst_message_parse_warning (msg, &err, &debug);
    fail_unless (mention == NULL || strstr (err->message, mention)
        || (debug && strstr (debug, mention)), "the %s \"%s\" (%s) does not "
        "mention \"%s\"", GST_MESSAGE_TYPE_NAME (msg), err->message,
        GST_STR_NULL (debug), mention);
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
    n++;
  }
  return n;
}

/* ---- buffers that do not hold what they claim ---- */

typedef enum
{
  SHORT_FOR_META,               /* 10 bytes under a 320x240 meta */
  SHORT_NO_META,                /* one byte short of the caps' frame size */
  STRIDE_UNDER_ROW,             /* rows overlap: a stride shorter than a row */
  META_DISAGREES,               /* a meta of another size than the caps */
  PLANE_PAST_END,               /* NV12's UV plane after the buffer's end */
  PLANE_SPANS_MEMORIES,         /* under a meta, a plane over two memories */
  NO_MEMORY,                    /* a buffer with no memory at all */
  POOL_STRIDE_TOO_BIG,          /* the element's own storage buffer, lying */
  N_HOSTILE
} Hostile;

static const gchar *const hostile_names[] = {
  "short for its meta", "short without a meta", "stride under a row",
  "meta disagrees with the caps", "plane past the end",
  "plane over two memories", "no memory", "pool buffer with a lying stride",
};

static GstBuffer *
meta_buffer (gsize size, GstVideoFormat format, guint w, guint h,
    guint n_planes, gsize * offsets, gint * strides)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);

  gst_buffer_memset (buf, 0, 0x55, size);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format, w,
      h, n_planes, offsets, strides);
  return buf;
}

/* The caps of the case into *info, and its buffer. */
static GstBuffer *
hostile_buffer (Hostile kind, GstVideoInfo * info, GstHarness ** h,
    const gchar * element, GstBus ** bus, GstBufferPool ** pool)
{
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  GstBuffer *buf;
  GstVideoMeta *meta;
  GRand *rand;

  switch (kind) {
    case SHORT_FOR_META:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, 320, 240);
      strides[0] = 320;
      buf = meta_buffer (10, GST_VIDEO_FORMAT_GRAY8, 320, 240, 1, offsets,
          strides);
      break;
    case SHORT_NO_META:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_RGBA, 33, 17);
      buf = gst_buffer_new_allocate (NULL, info->size - 1, NULL);
      break;
    case STRIDE_UNDER_ROW:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_RGBA, 33, 17);
      strides[0] = 32 * 4;
      buf = meta_buffer (info->size, GST_VIDEO_FORMAT_RGBA, 33, 17, 1,
          offsets, strides);
      break;
    case META_DISAGREES:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
      strides[0] = 32;
      buf = meta_buffer (32 * 24, GST_VIDEO_FORMAT_GRAY8, 32, 24, 1, offsets,
          strides);
      break;
    case PLANE_PAST_END:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_NV12, 64, 48);
      strides[0] = strides[1] = 64;
      offsets[1] = info->size + 100;
      buf = meta_buffer (info->size, GST_VIDEO_FORMAT_NV12, 64, 48, 2,
          offsets, strides);
      break;
    case PLANE_SPANS_MEMORIES:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
      strides[0] = 64;
      buf = meta_buffer (64 * 24, GST_VIDEO_FORMAT_GRAY8, 64, 48, 1, offsets,
          strides);
      gst_buffer_append_memory (buf, gst_allocator_alloc (NULL, 64 * 24,
              NULL));
      break;
    case NO_MEMORY:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, 16, 8);
      buf = gst_buffer_new ();
      break;
    case POOL_STRIDE_TOO_BIG:
      gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
      *h = start_harness (element, info, bus);
      rand = g_rand_new_with_seed (1);
      buf = make_pool_frame (*h, info, pool, rand, CONTENT_NOISE);
      g_rand_free (rand);
      meta = gst_buffer_get_video_meta (buf);
      fail_unless (meta != NULL, "the proposed pool adds no video meta");
      meta->stride[0] *= 4;
      return buf;
    default:
      g_assert_not_reached ();
  }
  *h = start_harness (element, info, bus);
  return buf;
}

/* Hostile buffer i / N_ELEMENTS in element i % N_ELEMENTS: an element
 * error, no output, and (under valgrind or ASan, see tests/fuzz.c) no
 * access outside it. */
static void
check_hostile_refused (guint i)
{
  const gchar *element = elements[i % N_ELEMENTS];
  Hostile kind = i / N_ELEMENTS;
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstBuffer *buf = hostile_buffer (kind, &info, &h, element, &bus, &pool);
  GstFlowReturn ret;

  require_element_named (element);
  GST_BUFFER_PTS (buf) = 0;
  ret = gst_harness_push (h, buf);
  fail_unless (ret == GST_FLOW_ERROR, "%s, %s: push returned %s, want error",
      element, hostile_names[kind], gst_flow_get_name (ret));
  fail_unless_equals_int (pop_messages (bus, GST_MESSAGE_ERROR,
          kind == NO_MEMORY ? "no memory" : kind == META_DISAGREES ?
          "video meta describes" : "plane"), 1);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  drop_pool (&pool);
  finish_harness (h, bus);
}

GST_START_TEST (test_hostile_buffer_refused)
{
  check_hostile_refused (__i__);
}

GST_END_TEST;

/* drop-invalid: the hostile frame is dropped with a warning, and the stream
 * goes on. */
static void
check_drop_invalid (guint i)
{
  const gchar *element = elements[i];
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstBuffer *buf = hostile_buffer (SHORT_FOR_META, &info, &h, element, &bus,
      &pool);
  GRand *rand = g_rand_new_with_seed (7);
  GstClockTime pts = 0;

  g_object_set (h->element, "drop-invalid", TRUE, NULL);
  GST_BUFFER_PTS (buf) = pts;
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  fail_unless_equals_int (pop_messages (bus, GST_MESSAGE_WARNING, "plane"),
      1);
  fail_unless_equals_int (pop_messages (bus, GST_MESSAGE_ERROR, NULL), 0);
  buf = harness_push_frame (h, make_frame (&info, rand, LAYOUT_DEFAULT,
          CONTENT_NOISE), &pts, &info, "default");
  fail_unless_equals_int (gst_buffer_get_size (buf), info.size);
  gst_buffer_unref (buf);
  g_rand_free (rand);
  finish_harness (h, bus);
}

GST_START_TEST (test_drop_invalid)
{
  check_drop_invalid (__i__);
}

GST_END_TEST;

/* A frame that is valid, only unusual, is still filtered: no meta and a
 * plane split over two memories (mapped whole, as GStreamer does) gives
 * the same output as the same bytes in one memory. */
GST_START_TEST (test_split_memory_accepted)
{
  const gchar *element = elements[__i__];
  GRand *rand = g_rand_new_with_seed (11);
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstBuffer *whole, *split, *out_whole, *out_split;
  GstClockTime pts = 0;
  GstMapInfo a, b;
  gsize half;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 33, 17);
  half = info.size / 2 + 3;
  h = start_harness (element, &info, &bus);
  whole = make_frame (&info, rand, LAYOUT_DEFAULT, CONTENT_NOISE);
  split = gst_buffer_new ();
  gst_buffer_append_memory (split, gst_buffer_get_memory_range (whole, 0,
          -1));
  gst_buffer_append (split, gst_buffer_copy_region (whole,
          GST_BUFFER_COPY_MEMORY | GST_BUFFER_COPY_DEEP, 0, info.size));
  gst_buffer_resize_range (split, 0, 1, 0, half);
  gst_buffer_resize_range (split, 1, 1, half, info.size - half);
  fail_unless_equals_int (gst_buffer_n_memory (split), 2);
  fail_unless_equals_int (gst_buffer_get_size (split), info.size);

  out_whole = harness_push_frame (h, whole, &pts, &info, "whole");
  out_split = harness_push_frame (h, split, &pts, &info, "split");
  fail_unless (gst_buffer_map (out_whole, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (out_split, &b, GST_MAP_READ));
  fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
      "%s: a frame in two memories filtered differently", element);
  gst_buffer_unmap (out_whole, &a);
  gst_buffer_unmap (out_split, &b);
  gst_buffer_unref (out_whole);
  gst_buffer_unref (out_split);
  fail_unless_equals_int (pop_messages (bus, GST_MESSAGE_ERROR, NULL), 0);
  g_rand_free (rand);
  finish_harness (h, bus);
}

GST_END_TEST;

/* ---- refused property values reach the user ---- */

static const struct
{
  const gchar *element, *property, *value;
} refusals[] = {
  {"tiledconv", "kernel", "<1,2,3,4,5,6,7,8>"},
  {"tiledconv", "kernel-y", "<1,2>"},
  {"recursivefilter", "feedback", "<0.1,0.1,0.1,0.1,0.1,0.1>"},
  {"recursivefilter", "feedback", "<2.5>"},
  {"tiledconv", "kernel", "<1e308,0,0,0,0,0,0,0,0>"},
  {"gaussblur", "sigma-y", "0.005"},
};

static GPtrArray *logged;

static void
keep_log (const gchar * domain, GLogLevelFlags level, const gchar * message,
    gpointer user_data)
{
  g_ptr_array_add (logged, g_strdup (message));
}

static gchar *
property_string (GstElement * el, const gchar * property)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (el),
      property);
  GValue v = G_VALUE_INIT;
  gchar *s;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (el), property, &v);
  s = gst_value_serialize (&v);
  g_value_unset (&v);
  return s;
}

/* gst-launch-1.0 sets properties before its elements have a bus: the
 * refusal goes to stderr (the "vktile" log domain). In a pipeline it is a
 * warning on the bus. Either way the property keeps its value. */
static void
check_refusal_reported (guint i)
{
  const gchar *element = refusals[i / 2].element;
  const gchar *property = refusals[i / 2].property;
  const gchar *value = refusals[i / 2].value;
  gboolean in_pipeline = i % 2;
  GstElement *el, *pipeline = NULL;
  GstBus *bus = NULL;
  gchar *before, *after;
  guint handler;

  require_element_named (element);
  el = gst_element_factory_make (element, NULL);
  if (in_pipeline) {
    pipeline = gst_pipeline_new (NULL);
    gst_bin_add (GST_BIN (pipeline), el);
    bus = gst_pipeline_get_bus (GST_PIPELINE (pipeline));
  }
  logged = g_ptr_array_new_with_free_func (g_free);
  handler = g_log_set_handler ("vktile", G_LOG_LEVEL_WARNING, keep_log, NULL);
  before = property_string (el, property);
  gst_util_set_object_arg (G_OBJECT (el), property, value);
  after = property_string (el, property);
  g_log_remove_handler ("vktile", handler);

  fail_unless_equals_string (after, before);
  if (in_pipeline) {
    fail_unless_equals_int (logged->len, 0);
    fail_unless_equals_int (pop_messages (bus, GST_MESSAGE_WARNING,
            property), 1);
  } else {
    fail_unless_equals_int (logged->len, 1);
    fail_unless (strstr (g_ptr_array_index (logged, 0), property) != NULL,
        "the message \"%s\" does not name '%s'",
        (gchar *) g_ptr_array_index (logged, 0), property);
  }
  g_ptr_array_unref (logged);
  g_free (before);
  g_free (after);
  if (pipeline) {
    gst_object_unref (bus);
    gst_object_unref (pipeline);
  } else {
    gst_object_unref (el);
  }
}

GST_START_TEST (test_refused_property_reported)
{
  check_refusal_reported (__i__);
}

GST_END_TEST;

/* A ROI off the frame: every frame passes unchanged, and one warning per
 * change of the ROI says why. */
static void
check_roi_off_frame (guint e)
{
  const gchar *element = elements[e];
  GRand *rand = g_rand_new_with_seed (5);
  GstClockTime pts = 0;
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  guint round, i;
  static const gint roi_x[] = { 1000, 1000, 2000, 0 };
  static const guint warnings[] = { 1, 0, 1, 0 };

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  h = start_harness (element, &info, &bus);
  for (round = 0; round < G_N_ELEMENTS (roi_x); round++) {
    if (round != 1)             /* round 1: the same ROI, no new warning */
      g_object_set (h->element, "roi-x", roi_x[round], "roi-y",
          roi_x[round], NULL);
    for (i = 0; i < 2; i++) {
      GstBuffer *in = make_frame (&info, rand, LAYOUT_DEFAULT, CONTENT_NOISE);
      GstBuffer *out = harness_push_frame (h, gst_buffer_ref (in), &pts,
          &info, "default");
      GstMapInfo a, b;
      gboolean same;

      fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
      fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
      same = memcmp (a.data, b.data, a.size) == 0;
      gst_buffer_unmap (in, &a);
      gst_buffer_unmap (out, &b);
      /* Noise is never left unchanged by a filter that runs. */
      fail_unless (same == (roi_x[round] != 0), "%s, round %u: the frame %s",
          element, round, same ? "passed unchanged" : "was filtered");
      gst_buffer_unref (in);
      gst_buffer_unref (out);
    }
    fail_unless_equals_int (pop_messages (bus, GST_MESSAGE_WARNING,
            "region of interest"), warnings[round]);
  }
  g_rand_free (rand);
  finish_harness (h, bus);
}

GST_START_TEST (test_roi_off_frame_warns_once)
{
  check_roi_off_frame (__i__);
}

GST_END_TEST;

/* ---- state cycles, pipelines side by side, a short soak ---- */

static void
run_to_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 200 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS within 200 s");
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "error: %"
      GST_PTR_FORMAT, msg);
  gst_message_unref (msg);
  gst_object_unref (bus);
}

/* n times NULL -> PLAYING -> EOS -> NULL, then NULL -> PAUSED -> NULL
 * with no data, in element e (each start opens a Vulkan device: half a
 * second on lavapipe; tests/stress.sh runs hundreds). */
static void
cycle_states (guint e, guint n)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=34,height=18 ! %s ! fakesink",
      elements[e]);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  guint i;

  fail_unless (pipeline != NULL);
  for (i = 0; i < n; i++) {
    run_to_eos (pipeline);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    gst_element_set_state (pipeline, GST_STATE_PAUSED);
    fail_unless (gst_element_get_state (pipeline, NULL, NULL,
            30 * GST_SECOND) != GST_STATE_CHANGE_FAILURE);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_START_TEST (test_state_cycles)
{
  cycle_states (__i__, 6);
}

GST_END_TEST;

#define CHAIN "tiledconv preset=sharpen ! gaussblur sigma=1.5 ! " \
    "recursivefilter sigma=3 temporal-alpha=0.5"
#define SIDE_BY_SIDE 4
#define SIDE_FRAMES 12

/* Every output of one run of the three elements chained, on frames that
 * change (videotestsrc's ball). */
static gpointer
chain_outputs (gpointer unused)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc pattern=ball "
      "num-buffers=" G_STRINGIFY (SIDE_FRAMES) " ! "
      "video/x-raw,format=RGBA,width=65,height=33,framerate=30/1 ! " CHAIN
      " ! appsink name=sink sync=false", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GPtrArray *outs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  GstSample *sample;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstBuffer *buf = gst_sample_get_buffer (sample);
    GstMapInfo map;

    gst_buffer_map (buf, &map, GST_MAP_READ);
    g_ptr_array_add (outs, g_bytes_new (map.data, map.size));
    gst_buffer_unmap (buf, &map);
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return outs;
}

/* Four pipelines at once, each on its own device, give what one alone
 * gives, byte for byte. */
GST_START_TEST (test_side_by_side)
{
  GPtrArray *alone = chain_outputs (NULL), *outs[SIDE_BY_SIDE];
  GThread *threads[SIDE_BY_SIDE];
  guint t, f;

  fail_unless_equals_int (alone->len, SIDE_FRAMES);
  for (t = 0; t < SIDE_BY_SIDE; t++)
    threads[t] = g_thread_new ("side", chain_outputs, NULL);
  for (t = 0; t < SIDE_BY_SIDE; t++)
    outs[t] = g_thread_join (threads[t]);
  for (t = 0; t < SIDE_BY_SIDE; t++) {
    fail_unless_equals_int (outs[t]->len, SIDE_FRAMES);
    for (f = 0; f < SIDE_FRAMES; f++)
      fail_unless (g_bytes_equal (g_ptr_array_index (outs[t], f),
              g_ptr_array_index (alone, f)), "pipeline %u, frame %u differs "
          "from the same pipeline run alone", t, f);
    g_ptr_array_unref (outs[t]);
  }
  g_ptr_array_unref (alone);
}

GST_END_TEST;

static gsize
rss_kb (void)
{
  gchar *status = NULL, *line;
  gsize kb = 0;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (line = strstr (status, "VmRSS:")))
    kb = g_ascii_strtoull (line + 6, NULL, 10);
  g_free (status);
  return kb;
}

#define SOAK_FRAMES 400
#define SOAK_SETTLED 100

static GstPadProbeReturn
sample_rss (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  gsize *rss = data;

  if (++rss[0] == SOAK_SETTLED)
    rss[1] = rss_kb ();
  rss[2] = rss_kb ();
  return GST_PAD_PROBE_OK;
}

/* 400 frames through the chain with system memory out: memory after
 * frame 100 is what it is at the end. A leak of one 160x120 RGBA frame
 * a frame would grow it by 23 MB; tests/stress.sh soaks 10000 4K frames
 * on a GPU. */
GST_START_TEST (test_soak)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc pattern=ball "
      "num-buffers=" G_STRINGIFY (SOAK_FRAMES) " ! "
      "video/x-raw,format=RGBA,width=160,height=120,framerate=30/1 ! "
      CHAIN " ! fakesink name=sink sync=false", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  gsize rss[3] = { 0, 0, 0 };

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, sample_rss, rss, NULL);
  run_to_eos (pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (rss[0], SOAK_FRAMES);
  GST_INFO ("RSS after frame %d: %" G_GSIZE_FORMAT " kB, at the end: %"
      G_GSIZE_FORMAT " kB", SOAK_SETTLED, rss[1], rss[2]);
  fail_unless (rss[2] < rss[1] + 16 * 1024, "RSS grew from %" G_GSIZE_FORMAT
      " to %" G_GSIZE_FORMAT " kB over %d frames", rss[1], rss[2],
      SOAK_FRAMES - SOAK_SETTLED);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Every case above but the soak. */
static void
run_error_and_warning_paths (void)
{
  guint i;

  for (i = 0; i < N_HOSTILE * N_ELEMENTS; i++)
    check_hostile_refused (i);
  for (i = 0; i < N_ELEMENTS; i++) {
    check_drop_invalid (i);
    check_roi_off_frame (i);
    cycle_states (i, 2);
  }
  for (i = 0; i < 2 * G_N_ELEMENTS (refusals); i++)
    check_refusal_reported (i);
}

/* The error and warning paths leave nothing alive. */
LEAKS_TEST (test_nothing_left_alive, run_error_and_warning_paths);

static const SuiteEntry reliability_tests[] = {
  SUITE_CASE ("hostile"),
  SUITE_LOOP_TEST (test_hostile_buffer_refused, N_HOSTILE * N_ELEMENTS),
  SUITE_LOOP_TEST (test_drop_invalid, N_ELEMENTS),
  SUITE_LOOP_TEST (test_split_memory_accepted, N_ELEMENTS),
  SUITE_LOOP_TEST (test_refused_property_reported, 2 * G_N_ELEMENTS (refusals)),
  SUITE_LOOP_TEST (test_roi_off_frame_warns_once, N_ELEMENTS),
  SUITE_LOOP_TEST (test_state_cycles, N_ELEMENTS),
  SUITE_TEST (test_side_by_side),
  SUITE_TEST (test_soak),
  SUITE_TEST (test_nothing_left_alive),
};

SUITE_MAIN ("reliability", reliability_tests, NULL, harness_start_leaks_tracer);
