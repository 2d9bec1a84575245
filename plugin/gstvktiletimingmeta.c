/* gstvktiletimingmeta.c: registers GstVkTileTimingMeta; the public struct
 * and accessors are in gstvktiletimingmeta.h. */
#include "gstvktiletimingmeta-private.h"

/* What a meta needs to compute its GPU times once its frame's work has
 * finished; shared by the copies of the meta. */
typedef struct
{
  gint refcount;
  VktSync *sync;
  guint64 cpu_upload_ns, cpu_download_ns;
  gboolean uploaded, downloaded;
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
    m->download_ns = p->downloaded ? p->cpu_download_ns +
        vkt_sync_elapsed_ns (s, VKT_TS_FILTERED, VKT_TS_DOWNLOADED) : 0;
    m->pending = NULL;
    m->complete = NULL;
  }
  g_mutex_unlock (&complete_lock);
  pending_unref (p);
}

void
gst_vktile_timing_meta_set_pending (GstVkTileTimingMeta * m, VktSync * sync,
    gboolean uploaded, guint64 cpu_upload_ns, gboolean downloaded,
    guint64 cpu_download_ns)
{
  TimingPending *p = g_new0 (TimingPending, 1);

  p->refcount = 1;
  p->sync = vkt_sync_ref (sync);
  p->uploaded = uploaded;
  p->cpu_upload_ns = cpu_upload_ns;
  p->downloaded = downloaded;
  p->cpu_download_ns = cpu_download_ns;
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
