/* gstvktiletimingmeta.c: registers GstVkTileTimingMeta; the public struct
 * and accessors are in gstvktiletimingmeta.h. */
#include "gstvktiletimingmeta-private.h"

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
  memcpy ((guint8 *) dst + sizeof (GstMeta), (guint8 *) src + sizeof (GstMeta),
      sizeof (*dst) - sizeof (GstMeta));
  return TRUE;
}

const GstMetaInfo *
gst_vktile_timing_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *i =
        gst_meta_register (gst_vktile_timing_meta_api_register (),
        GST_VKTILE_TIMING_META_INFO_NAME, sizeof (GstVkTileTimingMeta),
        timing_meta_init, NULL, timing_meta_transform);
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
