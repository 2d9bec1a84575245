/* gstvktileoutput.c: the frames in flight of GstVkTileFilter. Owns the
 * queue of submitted frames with system memory out and the source pad's
 * task that waits for each one's fence and pushes it (output_loop()), with
 * its queueing, draining and flushing; and the deferred downloads of
 * frames computed in device memory, which the next frame's submission
 * carries or, when none comes in time, the task records itself.
 * generate_output() and the sink events that drive it stay with the
 * element's vfuncs in gstvktilefilter.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktilefilter-private.h"

/* ---- deferred downloads ---- */

GstVkTileDeferredDownload *
gst_vktile_deferred_download_new (void)
{
  return g_atomic_rc_box_new0 (GstVkTileDeferredDownload);
}

GstVkTileDeferredDownload *
gst_vktile_deferred_download_ref (GstVkTileDeferredDownload * d)
{
  return g_atomic_rc_box_acquire (d);
}

static void
deferred_download_clear (GstVkTileDeferredDownload * d)
{
  VktSync *sync;

  if ((sync = g_atomic_pointer_get (&d->sync)))
    vkt_sync_unref (sync);
  if (d->computed)
    gst_memory_unref (d->computed);
  if (d->dst)
    gst_memory_unref (d->dst);
}

void
gst_vktile_deferred_download_unref (GstVkTileDeferredDownload * d)
{
  if (d)
    g_atomic_rc_box_release_full (d, (GDestroyNotify) deferred_download_clear);
}

VktSync *
gst_vktile_deferred_download_get_sync (GstVkTileDeferredDownload * d)
{
  VktSync *sync = g_atomic_pointer_get (&d->sync);

  return sync ? vkt_sync_ref (sync) : NULL;
}

gboolean
gst_vktile_deferred_download_settled (GstVkTileDeferredDownload * d)
{
  return g_atomic_pointer_get (&d->sync) || g_atomic_int_get (&d->dropped);
}

/* record_lock held: nobody records it again (a submission that did keeps
 * the memories), and it becomes nobody's to carry. */
static void
settle (GstVkTileFilter * self, GstVkTileDeferredDownload * d)
{
  GstVkTileFilterPrivate *priv = PRIV (self);

  g_clear_pointer (&d->computed, gst_memory_unref);
  g_clear_pointer (&d->dst, gst_memory_unref);
  if (priv->deferred == d)
    g_clear_pointer (&priv->deferred, gst_vktile_deferred_download_unref);
}

/* record_lock held. */
gboolean
gst_vktile_filter_carry_deferred (GstVkTileFilter * self,
    GstVkTileDeferredDownload ** carried, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);

  *carried = NULL;
  if (!priv->deferred)
    return TRUE;
  if (!gst_vktile_filter_record_download (self, priv->deferred, error))
    return FALSE;
  *carried = priv->deferred;
  return TRUE;
}

/* record_lock held: the submission that recorded `carried` went out. */
void
gst_vktile_filter_carried (GstVkTileFilter * self,
    GstVkTileDeferredDownload * carried, VktSync * sync)
{
  if (!carried)
    return;
  g_atomic_pointer_set (&carried->sync, vkt_sync_ref (sync));
  settle (self, carried);
}

/* A flush or a stop: the frame whose download nobody carries yet is
 * dropped, and the next submission carries none. */
void
gst_vktile_filter_drop_deferred (GstVkTileFilter * self)
{
  GstVkTileFilterPrivate *priv = PRIV (self);

  g_mutex_lock (&priv->record_lock);
  if (priv->deferred) {
    g_atomic_int_set (&priv->deferred->dropped, TRUE);
    settle (self, priv->deferred);
  }
  g_mutex_unlock (&priv->record_lock);
}

/* The output task, once a deferred frame's filter is done: the download
 * the next frame's submission carries, or one of its own when that frame
 * has not come (a live source, the end of a burst). */
static gboolean
ensure_download (GstVkTileFilter * self, GstVkTileDeferredDownload * d,
    GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  VktCompute *compute;
  gboolean ok = TRUE;
  VktSync *sync;

  g_mutex_lock (&priv->record_lock);
  if (g_atomic_pointer_get (&d->sync) || priv->deferred != d) {
    /* Carried, or dropped by a flush: whoever waits finds out. */
    g_mutex_unlock (&priv->record_lock);
    return TRUE;
  }
  compute = priv->compute;
  ok = vkt_compute_begin (compute, error);
  if (ok) {
    vkt_compute_timestamp (compute, VKT_TS_START);
    ok = gst_vktile_filter_record_download (self, d, error);
    vkt_compute_timestamp (compute, VKT_TS_UPLOADED);
    vkt_compute_timestamp (compute, VKT_TS_FILTERED);
    vkt_compute_timestamp (compute, VKT_TS_WRITTEN_OUT);
    if (!ok)
      vkt_compute_abandon (compute);
  }
  if (ok && (sync = vkt_compute_submit (compute, error))) {
    gst_vktile_filter_carried (self, d, sync);
    vkt_sync_unref (sync);
  } else {
    ok = FALSE;
  }
  g_mutex_unlock (&priv->record_lock);
  return ok;
}

/* ---- the output task ---- */

void
gst_vktile_filter_pending_frame_free (PendingFrame * pf)
{
  if (pf->outbuf)
    gst_buffer_unref (pf->outbuf);
  vkt_sync_unref (pf->sync);
  gst_vktile_deferred_download_unref (pf->download);
  g_free (pf);
}

/* Waits for a frame's work: its submission, and its download where that
 * comes after it. */
static gboolean
wait_frame (GstVkTileFilter * self, PendingFrame * pf, GError ** error)
{
  VktSync *later;
  gboolean ok;

  if (!vkt_sync_wait (pf->sync, error))
    return FALSE;
  if (!pf->download)
    return TRUE;
  if (!ensure_download (self, pf->download, error))
    return FALSE;
  if (!(later = gst_vktile_deferred_download_get_sync (pf->download))) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "The frame's download was dropped");
    return FALSE;
  }
  ok = vkt_sync_wait (later, error);
  vkt_sync_unref (later);
  return ok;
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

  if (wait_frame (self, pf, &error)) {
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
    VktSync * sync, GstVkTileDeferredDownload * download)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  PendingFrame *pf = g_new0 (PendingFrame, 1);
  GstFlowReturn ret;
  guint limit;

  pf->outbuf = outbuf;
  pf->sync = sync;
  pf->download = download;
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
  gst_vktile_filter_drop_deferred (self);
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
