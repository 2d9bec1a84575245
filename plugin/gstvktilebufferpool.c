/* gstvktilebufferpool.c: see gstvktilebufferpool.h. */
#include "gstvktilebufferpool.h"
#include "vktcompute.h"

struct _GstVkTileBufferPool
{
  GstBufferPool parent;

  GstVulkanDevice *device;
  gboolean host_visible;
  GstVideoInfo info;
  GError *error;                /* why the last allocation or wait failed */
};

G_DEFINE_TYPE (GstVkTileBufferPool, gst_vktile_buffer_pool,
    GST_TYPE_BUFFER_POOL);

/* gstvulkan 1.22 does not count nested maps of one GstVulkanMemory, and all
 * planes of our frames live in one: gst_video_frame_map, which maps plane by
 * plane, would vkMapMemory the same memory once per plane (invalid) and the
 * first unmap would pull it from under the others. The video meta of our
 * buffers maps the memory once and counts the planes mapped. */
typedef struct
{
  GMutex lock;
  guint count;
  GstMapInfo info;
} PlaneMaps;

static GQuark plane_maps_quark;

static void
plane_maps_free (gpointer data)
{
  PlaneMaps *pm = data;

  g_mutex_clear (&pm->lock);
  g_free (pm);
}

static gboolean
meta_map (GstVideoMeta * meta, guint plane, GstMapInfo * info, gpointer * data,
    gint * stride, GstMapFlags flags)
{
  PlaneMaps *pm = gst_mini_object_get_qdata (GST_MINI_OBJECT (meta->buffer),
      plane_maps_quark);
  gboolean ok = TRUE;

  if (!pm) {
    /* A copy of one of our buffers: its meta came along, the counter not. */
    if (!gst_buffer_map (meta->buffer, info, flags))
      return FALSE;
    *data = info->data + meta->offset[plane];
    *stride = meta->stride[plane];
    return TRUE;
  }
  g_mutex_lock (&pm->lock);
  /* Later maps share the first: they may read (or write) what it lets.
   * Only the access counts, not the flags of the caller's own (a video
   * filter maps with GST_VIDEO_FRAME_MAP_FLAG_NO_REF, an encoder without:
   * a tee feeds both the same buffer at once). */
  if (pm->count == 0)
    ok = gst_buffer_map (meta->buffer, &pm->info, flags);
  else
    ok = (pm->info.flags & flags & GST_MAP_READWRITE) ==
        (flags & GST_MAP_READWRITE);
  if (ok) {
    pm->count++;
    /* with the caller's flags: gst_video_frame_unmap() reads its NO_REF
     * there to know whether to unref the buffer */
    *info = pm->info;
    info->flags = flags;
    *data = pm->info.data + meta->offset[plane];
    *stride = meta->stride[plane];
  }
  g_mutex_unlock (&pm->lock);
  return ok;
}

static gboolean
meta_unmap (GstVideoMeta * meta, guint plane, GstMapInfo * info)
{
  PlaneMaps *pm = gst_mini_object_get_qdata (GST_MINI_OBJECT (meta->buffer),
      plane_maps_quark);

  if (!pm) {
    gst_buffer_unmap (meta->buffer, info);
    return TRUE;
  }
  g_mutex_lock (&pm->lock);
  if (pm->count > 0 && --pm->count == 0)
    gst_buffer_unmap (meta->buffer, &pm->info);
  g_mutex_unlock (&pm->lock);
  return TRUE;
}

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

/* A pool can only return a flow: the element asks for the reason. */
static void
keep_error (GstVkTileBufferPool * self, GError * error)
{
  GST_WARNING_OBJECT (self, "%s", error->message);
  GST_OBJECT_LOCK (self);
  g_clear_error (&self->error);
  self->error = error;
  GST_OBJECT_UNLOCK (self);
}

GError *
gst_vktile_buffer_pool_take_error (GstBufferPool * pool)
{
  GstVkTileBufferPool *self;
  GError *error;

  if (!GST_IS_VKTILE_BUFFER_POOL (pool))
    return NULL;
  self = GST_VKTILE_BUFFER_POOL (pool);
  GST_OBJECT_LOCK (self);
  error = g_steal_pointer (&self->error);
  GST_OBJECT_UNLOCK (self);
  return error;
}

static GstFlowReturn
pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstVkTileBufferPool *self = GST_VKTILE_BUFFER_POOL (pool);
  GstVideoInfo *info = &self->info;
  GError *error = NULL;
  GstVideoMeta *meta;
  GstMemory *mem;
  GstBuffer *buf;

  mem = vkt_buffer_alloc (self->device, info->size, self->host_visible,
      &error);
  if (!mem) {
    keep_error (self, error);
    return GST_FLOW_ERROR;
  }
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_buffer_set_size (buf, info->size);
  meta = gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      info->offset, info->stride);
  if (self->host_visible) {
    PlaneMaps *pm = g_new0 (PlaneMaps, 1);
    g_mutex_init (&pm->lock);
    gst_mini_object_set_qdata (GST_MINI_OBJECT (buf), plane_maps_quark, pm,
        plane_maps_free);
    meta->map = meta_map;
    meta->unmap = meta_unmap;
  }
  *buffer = buf;
  return GST_FLOW_OK;
}

/* A buffer back from downstream may still be read by the GPU (another
 * element's submission): the next frame written into it waits for that. */
static GstFlowReturn
pool_acquire_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GError *error = NULL;
  GstFlowReturn ret;

  ret = GST_BUFFER_POOL_CLASS (gst_vktile_buffer_pool_parent_class)->
      acquire_buffer (pool, buffer, params);
  if (ret == GST_FLOW_OK && !vkt_buffer_wait (*buffer, &error)) {
    keep_error (GST_VKTILE_BUFFER_POOL (pool), error);
    gst_buffer_unref (*buffer);
    *buffer = NULL;
    ret = GST_FLOW_ERROR;
  }
  return ret;
}

static void
pool_finalize (GObject * object)
{
  GstVkTileBufferPool *self = GST_VKTILE_BUFFER_POOL (object);

  gst_clear_object (&self->device);
  g_clear_error (&self->error);
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
  pool_class->acquire_buffer = pool_acquire_buffer;
  plane_maps_quark = g_quark_from_static_string ("vktile-plane-maps");
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
