/* gstvktileoutput.c: the frames in flight of GstVkTileFilter. Owns the
 * queue of submitted frames with system memory out and the source pad's
 * task that waits for each one's fence and pushes it (output_loop()), with
 * its queueing, draining and flushing. generate_output() and the sink
 * events that drive it stay with the element's vfuncs in
 * gstvktilefilter.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktilefilter-private.h"

void
gst_vktile_filter_pending_frame_free (PendingFrame * pf)
{
  if (pf->outbuf)
    gst_buffer_unref (pf->outbuf);
  vkt_sync_unref (pf->sync);
  g_free (pf);
}

/* The source pad's task: pushes each frame with system memory out once its
 * GPU work is done, oldest first. */
static void
output_loop (GstVkTileFilter * self)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (self);
  GError *error = NULL;
  GstFlowReturn ret;
  PendingFrame *pf;

  g_mutex_lock (&priv->out_lock);
  while (!priv->out_flushing && g_queue_is_empty (&priv->out_queue))
    g_cond_wait (&priv->out_cond, &priv->out_lock);
  if (priv->out_flushing) {
    g_mutex_unlock (&priv->out_lock);
    gst_pad_pause_task (srcpad);
    return;
  }
  pf = g_queue_peek_head (&priv->out_queue);
  g_mutex_unlock (&priv->out_lock);

  if (vkt_sync_wait (pf->sync, &error)) {
    GstVkTileTimingMeta *m;
    gst_vktile_timing_meta_complete_all (pf->outbuf);
    m = gst_vktile_timing_meta_get (pf->outbuf, GST_OBJECT_NAME (self));
    if (m)
      GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT " done: upload %"
          G_GUINT64_FORMAT " ns, gpu %" G_GUINT64_FORMAT " ns, download %"
          G_GUINT64_FORMAT " ns, cpu %" G_GUINT64_FORMAT " ns",
          m->frame_index, m->upload_ns, m->gpu_ns, m->download_ns, m->cpu_ns);
    /* Downstream gets the only reference: a reader that maps the frame
     * for writing, or checks that nobody else holds it, may. */
    ret = gst_pad_push (srcpad, g_steal_pointer (&pf->outbuf));
    gst_vktile_timing_messages_post (priv->messages, GST_ELEMENT (self),
        FALSE);
  } else {
    gst_vktile_filter_post_gpu_error (self, "filter the frame", error);
    g_clear_error (&error);
    ret = GST_FLOW_ERROR;
  }

  g_mutex_lock (&priv->out_lock);
  /* A flush may have emptied the queue while we pushed. */
  if (g_queue_peek_head (&priv->out_queue) == pf)
    gst_vktile_filter_pending_frame_free (g_queue_pop_head (&priv->out_queue));
  if (ret != GST_FLOW_OK && priv->out_ret == GST_FLOW_OK)
    priv->out_ret = ret;
  g_cond_broadcast (&priv->out_cond);
  g_mutex_unlock (&priv->out_lock);
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "output task pausing: %s", gst_flow_get_name (ret));
    gst_pad_pause_task (srcpad);
  }
}

/* Queues a submitted frame for the task, once fewer than frames-in-flight
 * are waiting; returns the flow of the task's pushes. */
GstFlowReturn
gst_vktile_filter_queue_output (GstVkTileFilter * self, GstBuffer * outbuf,
    VktSync * sync)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  PendingFrame *pf = g_new0 (PendingFrame, 1);
  GstFlowReturn ret;
  guint limit;

  pf->outbuf = outbuf;
  pf->sync = sync;
  GST_OBJECT_LOCK (self);
  limit = priv->frames_in_flight;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&priv->out_lock);
  while (!priv->out_flushing && priv->out_ret == GST_FLOW_OK
      && g_queue_get_length (&priv->out_queue) >= limit)
    g_cond_wait (&priv->out_cond, &priv->out_lock);
  ret = priv->out_flushing ? GST_FLOW_FLUSHING : priv->out_ret;
  if (ret == GST_FLOW_OK) {
    g_queue_push_tail (&priv->out_queue, pf);
    pf = NULL;
    g_cond_broadcast (&priv->out_cond);
  }
  g_mutex_unlock (&priv->out_lock);
  if (pf)
    gst_vktile_filter_pending_frame_free (pf);
  else if (!gst_pad_start_task (GST_BASE_TRANSFORM_SRC_PAD (self),
          (GstTaskFunction) output_loop, self, NULL))
    ret = GST_FLOW_ERROR;
  return ret;
}

/* Waits until every queued frame has been pushed. */
GstFlowReturn
gst_vktile_filter_drain_output (GstVkTileFilter * self)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstFlowReturn ret;

  g_mutex_lock (&priv->out_lock);
  while (!priv->out_flushing && priv->out_ret == GST_FLOW_OK
      && !g_queue_is_empty (&priv->out_queue))
    g_cond_wait (&priv->out_cond, &priv->out_lock);
  ret = priv->out_flushing ? GST_FLOW_FLUSHING : priv->out_ret;
  g_mutex_unlock (&priv->out_lock);
  return ret;
}

/* Stops the task and drops the queued frames; `stop` joins the task
 * (state change), else it is only paused (flush). */
void
gst_vktile_filter_flush_output (GstVkTileFilter * self, gboolean stop)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (self);
  PendingFrame *pf;

  g_mutex_lock (&priv->out_lock);
  priv->out_flushing = TRUE;
  g_cond_broadcast (&priv->out_cond);
  g_mutex_unlock (&priv->out_lock);
  if (stop)
    gst_pad_stop_task (srcpad);
  else
    gst_pad_pause_task (srcpad);
  g_mutex_lock (&priv->out_lock);
  while ((pf = g_queue_pop_head (&priv->out_queue)))
    gst_vktile_filter_pending_frame_free (pf);
  g_mutex_unlock (&priv->out_lock);
}

void
gst_vktile_filter_unflush_output (GstVkTileFilter * self)
{
  GstVkTileFilterPrivate *priv = PRIV (self);

  g_mutex_lock (&priv->out_lock);
  priv->out_flushing = FALSE;
  priv->out_ret = GST_FLOW_OK;
  g_mutex_unlock (&priv->out_lock);
}
