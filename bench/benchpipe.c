/* benchpipe.c: see benchpipe.h. The pipeline runs on the benchmark's Vulkan
 * instance (and so, through its create-device handler, on its device); the
 * appsink callback reads every vktile timing meta of each frame and lets the
 * buffer go back to its pool. A frame that left in system memory is done
 * when it arrives. A frame that stays on the GPU is not: the sink holds up
 * to HELD_FRAMES of them and waits for the oldest, as a consumer on the GPU
 * (an encoder, a display) does, so that the elements record frame n+1
 * while the GPU runs frame n; each frame counts when its work is done. */
#include "benchpipe.h"

#include <gst/app/app.h>
#include <string.h>

#include "gstvktiletimingmeta.h"
#include "vktcompute.h"

#define FRAME_DURATION (GST_SECOND / 30)
#define HELD_FRAMES 2

struct _BenchPipe
{
  gchar *description;
  GstElement *pipeline, *src, *sink;
  GstClockTime pts;
  guint next_frame;

  GMutex lock;
  GCond cond;
  guint arrived;                /* frames of the push under way at the sink */
  GQueue held;                  /* GstSample*: GPU-resident, not yet waited for */
  BenchPipeResult acc;          /* of the push under way, frames done */
  guint done;                   /* of the push under way, counted or not */
  /* Frames done outside this window (monotonic µs) are not counted. */
  gint64 count_from_us, count_until_us;
  gchar *error;                 /* the first error the bus reported */
  gchar *timed_element;         /* count only this element's meta (NULL: all) */
};

static void
result_reset (BenchPipeResult * r)
{
  memset (r, 0, sizeof (*r));
  r->all_metas = TRUE;
  r->device_local = TRUE;
}

/* Waits for the frame's GPU work (reading its timing metas, as any reader
 * would) and adds it to the push's result. */
static void
account_sample (BenchPipe * pipe, GstSample * sample)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GType api = gst_vktile_timing_meta_api_get_type ();
  guint64 gpu_ns = 0, moved_ns = 0, busy_ns = 0;
  guint dispatches = 0, metas = 0, i;
  gboolean device_local = buf != NULL;
  gpointer state = NULL;
  GstMeta *meta;
  gint64 now;

  while (buf && api
      && (meta = gst_buffer_iterate_meta_filtered (buf, &state, api))) {
    GstVkTileTimingMeta *m = (GstVkTileTimingMeta *) meta;
    gst_vktile_timing_meta_complete (m);
    if (pipe->timed_element
        && g_strcmp0 (m->element_name, pipe->timed_element) != 0)
      continue;
    gpu_ns += m->gpu_ns;
    moved_ns += m->upload_ns + m->download_ns;
    busy_ns += m->gpu_ns + m->upload_ns;
    dispatches += m->dispatches;
    metas++;
  }
  now = g_get_monotonic_time ();
  for (i = 0; buf && i < gst_buffer_n_memory (buf); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);
    if (!gst_is_vulkan_buffer_memory (mem) || !vkt_memory_is_device_local (mem))
      device_local = FALSE;
  }

  g_mutex_lock (&pipe->lock);
  pipe->done++;
  if (now < pipe->count_from_us || now > pipe->count_until_us) {
    g_cond_broadcast (&pipe->cond);
    g_mutex_unlock (&pipe->lock);
    gst_sample_unref (sample);
    return;
  }
  if (pipe->acc.frames == 0)
    pipe->acc.first_us = now;
  pipe->acc.last_us = now;
  pipe->acc.frames++;
  pipe->acc.gpu_ns += gpu_ns;
  pipe->acc.moved_ns += moved_ns;
  pipe->acc.busy_ns += busy_ns;
  pipe->acc.dispatches = dispatches;
  pipe->acc.metas = metas;
  if (!metas)
    pipe->acc.all_metas = FALSE;
  if (!device_local)
    pipe->acc.device_local = FALSE;
  g_cond_broadcast (&pipe->cond);
  g_mutex_unlock (&pipe->lock);
  gst_sample_unref (sample);
}

static GstFlowReturn
on_new_sample (GstAppSink * sink, gpointer user_data)
{
  BenchPipe *pipe = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink), *done = sample;
  GstBuffer *buf = sample ? gst_sample_get_buffer (sample) : NULL;

  if (!buf) {
    if (sample)
      gst_sample_unref (sample);
    return GST_FLOW_OK;
  }
  g_mutex_lock (&pipe->lock);
  pipe->arrived++;
  if (gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (buf, 0))) {
    g_queue_push_tail (&pipe->held, sample);
    done = g_queue_get_length (&pipe->held) > HELD_FRAMES ?
        g_queue_pop_head (&pipe->held) : NULL;
  }
  g_cond_broadcast (&pipe->cond);
  g_mutex_unlock (&pipe->lock);
  if (done)
    account_sample (pipe, done);
  return GST_FLOW_OK;
}

static GstBusSyncReply
on_bus_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  BenchPipe *pipe = user_data;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    g_mutex_lock (&pipe->lock);
    if (!pipe->error)
      pipe->error = g_strdup_printf ("%s (%s)", err->message, dbg ? dbg : "");
    g_cond_broadcast (&pipe->cond);
    g_mutex_unlock (&pipe->lock);
    g_clear_error (&err);
    g_free (dbg);
  }
  /* Nobody pops this bus: keep nothing on it. */
  return GST_BUS_DROP;
}

/* Builds `appsrc ! middle ! appsink` with frames of `caps`, on the
 * benchmark's instance, and sets it PLAYING; it prerolls on the first frame
 * pushed. */
BenchPipe *
bench_pipe_new (GstVulkanInstance * instance, const gchar * middle,
    GstCaps * caps, GError ** error)
{
  BenchPipe *pipe = g_new0 (BenchPipe, 1);
  GstAppSinkCallbacks callbacks = { NULL, NULL, on_new_sample };
  GError *parse_error = NULL;
  GstContext *ctx;
  GstBus *bus;

  g_mutex_init (&pipe->lock);
  g_cond_init (&pipe->cond);
  result_reset (&pipe->acc);
  pipe->count_until_us = G_MAXINT64;
  pipe->description = g_strdup_printf ("appsrc name=benchsrc ! %s ! "
      "appsink name=benchsink", middle);
  pipe->pipeline = gst_parse_launch (pipe->description, &parse_error);
  if (parse_error) {
    /* A property the element lacks is a recoverable parse error (the
     * pipeline comes back anyway): still refuse it, the row would not time
     * what it says. */
    g_propagate_error (error, parse_error);
    goto fail;
  }
  pipe->src = gst_bin_get_by_name (GST_BIN (pipe->pipeline), "benchsrc");
  pipe->sink = gst_bin_get_by_name (GST_BIN (pipe->pipeline), "benchsink");
  g_object_set (pipe->src, "caps", caps, "format", GST_FORMAT_TIME,
      "is-live", FALSE, "max-bytes", (guint64) 0, "block", FALSE, NULL);
  g_object_set (pipe->sink, "sync", FALSE, "enable-last-sample", FALSE,
      "max-buffers", 0, "drop", FALSE, NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (pipe->sink), &callbacks, pipe,
      NULL);

  /* Our instance, set before any element looks for one. */
  ctx = gst_context_new (GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_instance (ctx, instance);
  gst_element_set_context (pipe->pipeline, ctx);
  gst_context_unref (ctx);

  bus = gst_element_get_bus (pipe->pipeline);
  gst_bus_set_sync_handler (bus, on_bus_message, pipe, NULL);
  gst_object_unref (bus);

  if (gst_element_set_state (pipe->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE, "%s",
        pipe->error ? pipe->error : "the pipeline did not start");
    goto fail;
  }
  return pipe;

fail:
  bench_pipe_free (pipe);
  return NULL;
}

void
bench_pipe_time_only (BenchPipe * pipe, const gchar * element_name)
{
  g_free (pipe->timed_element);
  pipe->timed_element = g_strdup (element_name);
}

void
bench_pipe_free (BenchPipe * pipe)
{
  if (!pipe)
    return;
  if (pipe->pipeline) {
    gst_element_set_state (pipe->pipeline, GST_STATE_NULL);
    gst_object_unref (pipe->pipeline);
  }
  g_queue_clear_full (&pipe->held, (GDestroyNotify) gst_sample_unref);
  gst_clear_object (&pipe->src);
  gst_clear_object (&pipe->sink);
  g_mutex_clear (&pipe->lock);
  g_cond_clear (&pipe->cond);
  g_free (pipe->description);
  g_free (pipe->error);
  g_free (pipe->timed_element);
  g_free (pipe);
}

/* A new buffer around the memories of `frame`, with its video meta and
 * regions of interest: a frame is pushed many times, and each push needs
 * its own timestamps. */
static GstBuffer *
frame_buffer (GstBuffer * frame, GstClockTime pts)
{
  GstBuffer *buf = gst_buffer_new ();
  GstVideoMeta *vm = gst_buffer_get_video_meta (frame);
  GstVideoRegionOfInterestMeta *roi;
  gpointer state = NULL;
  guint i;

  for (i = 0; i < gst_buffer_n_memory (frame); i++)
    gst_buffer_append_memory (buf,
        gst_memory_ref (gst_buffer_peek_memory (frame, i)));
  if (vm)
    gst_buffer_add_video_meta_full (buf, vm->flags, vm->format, vm->width,
        vm->height, vm->n_planes, vm->offset, vm->stride);
  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (frame, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    gst_buffer_add_video_region_of_interest_meta_id (buf, roi->roi_type,
        roi->x, roi->y, roi->w, roi->h);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

/* Pushes `count` frames, taken in turn from the ring `frames`, as fast as
 * appsrc takes them, and waits until all have reached the sink. */
gboolean
bench_pipe_push (BenchPipe * pipe, GstBuffer * const *frames, guint n_frames,
    guint count, gint timeout_s, BenchPipeResult * result, GError ** error)
{
  GstSample *sample;
  gint64 end;
  guint i;

  g_mutex_lock (&pipe->lock);
  result_reset (&pipe->acc);
  pipe->arrived = 0;
  g_mutex_unlock (&pipe->lock);

  for (i = 0; i < count; i++) {
    GstBuffer *buf = frame_buffer (frames[pipe->next_frame++ % n_frames],
        pipe->pts);
    GstFlowReturn ret;
    pipe->pts += FRAME_DURATION;
    ret = gst_app_src_push_buffer (GST_APP_SRC (pipe->src), buf);
    if (ret != GST_FLOW_OK) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
          "appsrc refused a frame: %s", gst_flow_get_name (ret));
      return FALSE;
    }
  }

  end = g_get_monotonic_time () + (gint64) timeout_s * G_TIME_SPAN_SECOND;
  g_mutex_lock (&pipe->lock);
  while (pipe->arrived < count && !pipe->error)
    if (!g_cond_wait_until (&pipe->cond, &pipe->lock, end))
      break;
  /* Every frame is in: the sink waits for the ones it still holds. */
  while ((sample = g_queue_pop_head (&pipe->held))) {
    g_mutex_unlock (&pipe->lock);
    account_sample (pipe, sample);
    g_mutex_lock (&pipe->lock);
  }
  /* The streaming thread may still be waiting for the one it took. */
  while (pipe->arrived >= count && pipe->acc.frames < count && !pipe->error)
    if (!g_cond_wait_until (&pipe->cond, &pipe->lock, end))
      break;
  *result = pipe->acc;
  if (pipe->error)
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED, "%s",
        pipe->error);
  else if (result->frames < count)
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "only %u of %u frames arrived within %d s (raise --timeout)",
        result->frames, count, timeout_s);
  g_mutex_unlock (&pipe->lock);
  return result->frames == count;
}

gboolean
bench_pipe_stream (BenchPipe * pipe, GstBuffer * const *frames,
    guint n_frames, guint ahead, gint64 from_us, gint64 until_us,
    BenchPipeResult * result, GError ** error)
{
  guint pushed = 0;
  gboolean ok = TRUE;
  GstSample *sample;

  g_mutex_lock (&pipe->lock);
  result_reset (&pipe->acc);
  pipe->done = 0;
  pipe->count_from_us = from_us;
  pipe->count_until_us = until_us;
  g_mutex_unlock (&pipe->lock);

  while (ok && g_get_monotonic_time () < until_us) {
    GstBuffer *buf;

    g_mutex_lock (&pipe->lock);
    while (pushed - pipe->done >= ahead && !pipe->error)
      if (!g_cond_wait_until (&pipe->cond, &pipe->lock, until_us +
              G_TIME_SPAN_SECOND))
        break;
    ok = !pipe->error && pushed - pipe->done < ahead;
    g_mutex_unlock (&pipe->lock);
    if (!ok)
      break;
    buf = frame_buffer (frames[pipe->next_frame++ % n_frames], pipe->pts);
    pipe->pts += FRAME_DURATION;
    ok = gst_app_src_push_buffer (GST_APP_SRC (pipe->src), buf) ==
        GST_FLOW_OK;
    pushed++;
  }
  /* What is still on its way counts if it arrives in the window; frames
   * the sink holds (GPU-resident) have arrived and are accounted below. */
  g_mutex_lock (&pipe->lock);
  while (pipe->done + g_queue_get_length (&pipe->held) < pushed
      && !pipe->error)
    if (!g_cond_wait_until (&pipe->cond, &pipe->lock, until_us +
            (gint64) 10 * G_TIME_SPAN_SECOND))
      break;
  g_mutex_unlock (&pipe->lock);
  while ((sample = g_queue_pop_head (&pipe->held)))
    account_sample (pipe, sample);
  g_mutex_lock (&pipe->lock);
  *result = pipe->acc;
  if (pipe->error)
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED, "%s",
        pipe->error);
  else if (pipe->done < pushed)
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "%u of %u frames did not arrive", pushed - pipe->done, pushed);
  pipe->count_from_us = 0;
  pipe->count_until_us = G_MAXINT64;
  ok = !pipe->error && pipe->done >= pushed;
  g_mutex_unlock (&pipe->lock);
  return ok;
}

/* "memory:VulkanBuffer" or "system memory": the first caps feature that a
 * pad of `element` negotiated. */
gchar *
bench_pipe_pad_memory (BenchPipe * pipe, const gchar * element,
    const gchar * pad_name)
{
  GstElement *el = gst_bin_get_by_name (GST_BIN (pipe->pipeline), element);
  GstPad *pad = el ? gst_element_get_static_pad (el, pad_name) : NULL;
  GstCaps *caps = pad ? gst_pad_get_current_caps (pad) : NULL;
  gchar *result;

  if (!caps) {
    result = g_strdup ("not negotiated");
  } else {
    GstCapsFeatures *f = gst_caps_get_features (caps, 0);
    if (f && !gst_caps_features_is_any (f) && gst_caps_features_get_size (f)
        && !gst_caps_features_contains (f,
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY))
      result = g_strdup (gst_caps_features_get_nth (f, 0));
    else
      result = g_strdup ("system memory");
    gst_caps_unref (caps);
  }
  gst_clear_object (&pad);
  gst_clear_object (&el);
  return result;
}
