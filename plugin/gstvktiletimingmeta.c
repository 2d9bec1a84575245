/* gstvktiletimingmeta.c: registers GstVkTileTimingMeta (the public struct
 * and accessors are in gstvktiletimingmeta.h), and posts the same timing
 * as bus messages for an element's post-messages. */
#include "gstvktiletimingmeta-private.h"

/* What a meta needs to compute its GPU times once its frame's work has
 * finished; shared by the copies of the meta. */
typedef struct
{
  gint refcount;
  VktSync *sync;
  guint64 cpu_upload_ns, cpu_download_ns;
  gboolean uploaded, downloaded;
  GstVkTileDeferredDownload *deferred;
} TimingPending;

static GMutex complete_lock;

static TimingPending *
pending_ref (TimingPending * p)
{
  g_atomic_int_inc (&p->refcount);
  return p;
}

static void
pending_unref (TimingPending * p)
{
  if (p && g_atomic_int_dec_and_test (&p->refcount)) {
    vkt_sync_unref (p->sync);
    if (p->deferred)
      gst_vktile_deferred_download_unref (p->deferred);
    g_free (p);
  }
}

static void
timing_meta_complete (GstVkTileTimingMeta * m)
{
  TimingPending *p;

  g_mutex_lock (&complete_lock);
  p = m->pending;
  if (p) {
    VktSync *s = p->sync;
    m->gpu_ns = vkt_sync_elapsed_ns (s, VKT_TS_UPLOADED, VKT_TS_FILTERED);
    /* Zero when the frame did not move: the timestamps around empty
     * sections still differ by the barrier between them. */
    m->upload_ns = p->uploaded ? p->cpu_upload_ns +
        vkt_sync_elapsed_ns (s, VKT_TS_START, VKT_TS_UPLOADED) : 0;
    /* The GPU writes the output where downstream reads it (across the bus
     * for system memory, inside gpu_ns): what is left is the CPU copy, or
     * the GPU's copies into images after the filter; or, for a download
     * deferred to a later submission, that submission's transfer step,
     * shared with the next frame's upload. */
    if (p->deferred) {
      VktSync *later = gst_vktile_deferred_download_get_sync (p->deferred);
      m->download_ns = later ? vkt_sync_elapsed_ns (later, VKT_TS_START,
          VKT_TS_UPLOADED) : 0;
      if (later)
        vkt_sync_unref (later);
    } else {
      m->download_ns = p->downloaded ? p->cpu_download_ns +
          vkt_sync_elapsed_ns (s, VKT_TS_FILTERED, VKT_TS_WRITTEN_OUT) : 0;
    }
    m->pending = NULL;
    m->complete = NULL;
  }
  g_mutex_unlock (&complete_lock);
  pending_unref (p);
}

void
gst_vktile_timing_meta_set_pending (GstVkTileTimingMeta * m, VktSync * sync,
    gboolean uploaded, guint64 cpu_upload_ns, gboolean downloaded,
    guint64 cpu_download_ns, GstVkTileDeferredDownload * deferred)
{
  TimingPending *p = g_new0 (TimingPending, 1);

  p->refcount = 1;
  p->sync = vkt_sync_ref (sync);
  p->uploaded = uploaded;
  p->cpu_upload_ns = cpu_upload_ns;
  p->downloaded = downloaded;
  p->cpu_download_ns = cpu_download_ns;
  p->deferred = deferred ? gst_vktile_deferred_download_ref (deferred) : NULL;
  g_mutex_lock (&complete_lock);
  pending_unref (m->pending);
  m->pending = p;
  m->complete = timing_meta_complete;
  g_mutex_unlock (&complete_lock);
}

void
gst_vktile_timing_meta_complete_all (GstBuffer * buffer)
{
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              gst_vktile_timing_meta_api_register ())))
    gst_vktile_timing_meta_complete ((GstVkTileTimingMeta *) meta);
}

GType
gst_vktile_timing_meta_api_register (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register (GST_VKTILE_TIMING_META_API_NAME,
        tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
timing_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstVkTileTimingMeta *m = (GstVkTileTimingMeta *) meta;

  memset ((guint8 *) m + sizeof (GstMeta), 0,
      sizeof (*m) - sizeof (GstMeta));
  return TRUE;
}

/* Timing describes the frame, not its memory: it survives every copy and
 * transform that keeps the frame. */
static gboolean
timing_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstVkTileTimingMeta *src = (GstVkTileTimingMeta *) meta;
  GstVkTileTimingMeta *dst = (GstVkTileTimingMeta *)
      gst_buffer_add_meta (dest, gst_vktile_timing_meta_get_info (), NULL);

  if (!dst)
    return FALSE;
  g_mutex_lock (&complete_lock);
  memcpy ((guint8 *) dst + sizeof (GstMeta), (guint8 *) src + sizeof (GstMeta),
      sizeof (*dst) - sizeof (GstMeta));
  /* Still running: the copy completes from the same submission, without
   * waiting for it here. */
  if (dst->pending)
    pending_ref (dst->pending);
  g_mutex_unlock (&complete_lock);
  return TRUE;
}

static void
timing_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  pending_unref (((GstVkTileTimingMeta *) meta)->pending);
}

const GstMetaInfo *
gst_vktile_timing_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *i =
        gst_meta_register (gst_vktile_timing_meta_api_register (),
        GST_VKTILE_TIMING_META_INFO_NAME, sizeof (GstVkTileTimingMeta),
        timing_meta_init, timing_meta_free, timing_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

GstVkTileTimingMeta *
gst_vktile_timing_meta_add (GstBuffer * buffer, const gchar * element_name)
{
  GstVkTileTimingMeta *m = (GstVkTileTimingMeta *)
      gst_buffer_add_meta (buffer, gst_vktile_timing_meta_get_info (), NULL);

  if (m)
    g_strlcpy (m->element_name, element_name, sizeof (m->element_name));
  return m;
}

/* ---- timing messages ---- */

typedef struct
{
  GstVkTileTimingMeta timing;   /* detached: never on a buffer */
  GstVkTileFrameTimes times;
  VktSync *sync;
  GstVkTileDeferredDownload *deferred;
} TimingMessage;

struct _GstVkTileTimingMessages
{
  GMutex lock;
  GQueue queue;                 /* TimingMessage*, oldest first */
  /* held while posting: the streaming thread and the output task post,
   * and the bus must see the frames in order */
  GMutex post_lock;
};

static void
timing_message_free (TimingMessage * m)
{
  pending_unref (m->timing.pending);
  vkt_sync_unref (m->sync);
  if (m->deferred)
    gst_vktile_deferred_download_unref (m->deferred);
  g_free (m);
}

GstVkTileTimingMessages *
gst_vktile_timing_messages_new (void)
{
  GstVkTileTimingMessages *messages = g_new0 (GstVkTileTimingMessages, 1);

  g_mutex_init (&messages->lock);
  g_mutex_init (&messages->post_lock);
  g_queue_init (&messages->queue);
  return messages;
}

void
gst_vktile_timing_messages_clear (GstVkTileTimingMessages * messages)
{
  g_mutex_lock (&messages->lock);
  g_queue_clear_full (&messages->queue, (GDestroyNotify) timing_message_free);
  g_mutex_unlock (&messages->lock);
}

void
gst_vktile_timing_messages_free (GstVkTileTimingMessages * messages)
{
  if (!messages)
    return;
  gst_vktile_timing_messages_clear (messages);
  g_mutex_clear (&messages->lock);
  g_mutex_clear (&messages->post_lock);
  g_free (messages);
}

void
gst_vktile_timing_messages_add (GstVkTileTimingMessages * messages,
    const GstVkTileTimingMeta * meta, const GstVkTileFrameTimes * times,
    VktSync * sync, gboolean uploaded, guint64 cpu_upload_ns,
    gboolean downloaded, guint64 cpu_download_ns,
    GstVkTileDeferredDownload * deferred)
{
  TimingMessage *m = g_new0 (TimingMessage, 1);

  memcpy ((guint8 *) & m->timing + sizeof (GstMeta),
      (const guint8 *) meta + sizeof (GstMeta),
      G_STRUCT_OFFSET (GstVkTileTimingMeta, complete) - sizeof (GstMeta));
  m->times = *times;
  m->sync = vkt_sync_ref (sync);
  gst_vktile_timing_meta_set_pending (&m->timing, sync, uploaded,
      cpu_upload_ns, downloaded, cpu_download_ns, deferred);
  if (deferred)
    m->deferred = gst_vktile_deferred_download_ref (deferred);
  g_mutex_lock (&messages->lock);
  g_queue_push_tail (&messages->queue, m);
  g_mutex_unlock (&messages->lock);
}

/* Its frame's work done, and its download where a later submission
 * carries it (or a flush dropped it). */
static gboolean
message_is_ready (TimingMessage * m)
{
  VktSync *later;
  gboolean done;

  if (!vkt_sync_is_done (m->sync))
    return FALSE;
  if (!m->deferred)
    return TRUE;
  if (!gst_vktile_deferred_download_settled (m->deferred))
    return FALSE;
  /* dropped by a flush: posted, its download 0 */
  later = gst_vktile_deferred_download_get_sync (m->deferred);
  done = !later || vkt_sync_is_done (later);
  if (later)
    vkt_sync_unref (later);
  return done;
}

static GstMessage *
timing_message_new (GstElement * element, TimingMessage * m)
{
  const GstVkTileTimingMeta *t = &m->timing;

  return gst_message_new_element (GST_OBJECT (element),
      gst_structure_new ("vktile-timing",
          "frame-index", G_TYPE_UINT64, t->frame_index,
          "gpu-ns", G_TYPE_UINT64, t->gpu_ns,
          "upload-ns", G_TYPE_UINT64, t->upload_ns,
          "download-ns", G_TYPE_UINT64, t->download_ns,
          "cpu-ns", G_TYPE_UINT64, t->cpu_ns,
          "dispatches", G_TYPE_UINT, t->dispatches,
          "regions", G_TYPE_UINT, m->times.regions,
          "timestamp", G_TYPE_UINT64, m->times.timestamp,
          "stream-time", G_TYPE_UINT64, m->times.stream_time,
          "running-time", G_TYPE_UINT64, m->times.running_time,
          "duration", G_TYPE_UINT64, m->times.duration, NULL));
}

void
gst_vktile_timing_messages_post (GstVkTileTimingMessages * messages,
    GstElement * element, gboolean wait)
{
  g_mutex_lock (&messages->post_lock);
  for (;;) {
    TimingMessage *m;

    g_mutex_lock (&messages->lock);
    m = g_queue_peek_head (&messages->queue);
    if (m && (wait || message_is_ready (m)))
      g_queue_pop_head (&messages->queue);
    else
      m = NULL;
    g_mutex_unlock (&messages->lock);
    if (!m)
      break;
    /* A failed wait has been reported by the frame itself: its times
     * read 0. */
    vkt_sync_wait (m->sync, NULL);
    if (m->deferred) {
      /* After a drain every deferred download has been recorded; one
       * dropped by a flush reads 0. */
      VktSync *later = gst_vktile_deferred_download_get_sync (m->deferred);
      if (later) {
        vkt_sync_wait (later, NULL);
        vkt_sync_unref (later);
      }
    }
    gst_vktile_timing_meta_complete (&m->timing);
    gst_element_post_message (element, timing_message_new (element, m));
    timing_message_free (m);
  }
  g_mutex_unlock (&messages->post_lock);
}
