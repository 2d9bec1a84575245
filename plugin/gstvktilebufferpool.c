/* gstvktilebufferpool.c: see gstvktilebufferpool.h. */
#include "gstvktilebufferpool.h"
#include "vktcompute.h"

struct _GstVkTileBufferPool
{
  GstBufferPool parent;

  GstVulkanDevice *device;
  gboolean host_visible;
  GstVideoInfo info;
};

G_DEFINE_TYPE (GstVkTileBufferPool, gst_vktile_buffer_pool,
    GST_TYPE_BUFFER_POOL);

static const gchar **
pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };
  return options;
}

static gboolean
pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstVkTileBufferPool *self = GST_VKTILE_BUFFER_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps || !gst_video_info_from_caps (&self->info, caps))
    return FALSE;
  gst_buffer_pool_config_set_params (config, caps,
      MAX (size, self->info.size), min, max);
  return GST_BUFFER_POOL_CLASS (gst_vktile_buffer_pool_parent_class)->set_config
      (pool, config);
}

static GstFlowReturn
pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstVkTileBufferPool *self = GST_VKTILE_BUFFER_POOL (pool);
  GstVideoInfo *info = &self->info;
  GError *error = NULL;
  GstMemory *mem;
  GstBuffer *buf;

  mem = vkt_buffer_alloc (self->device, info->size, self->host_visible,
      &error);
  if (!mem) {
    GST_WARNING_OBJECT (pool, "%s", error->message);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_buffer_set_size (buf, info->size);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      info->offset, info->stride);
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
pool_finalize (GObject * object)
{
  GstVkTileBufferPool *self = GST_VKTILE_BUFFER_POOL (object);

  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_vktile_buffer_pool_parent_class)->finalize (object);
}

static void
gst_vktile_buffer_pool_class_init (GstVkTileBufferPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = pool_finalize;
  pool_class->get_options = pool_get_options;
  pool_class->set_config = pool_set_config;
  pool_class->alloc_buffer = pool_alloc_buffer;
}

static void
gst_vktile_buffer_pool_init (GstVkTileBufferPool * self)
{
}

GstBufferPool *
gst_vktile_buffer_pool_new (GstVulkanDevice * device, gboolean host_visible)
{
  GstVkTileBufferPool *self = g_object_new (GST_TYPE_VKTILE_BUFFER_POOL, NULL);

  gst_object_ref_sink (self);
  self->device = gst_object_ref (device);
  self->host_visible = host_visible;
  return GST_BUFFER_POOL (self);
}
