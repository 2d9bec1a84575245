/* gstvktileimagepool.c: see gstvktileimagepool.h. */
#include "gstvktileimagepool.h"

struct _GstVkTileImagePool
{
  GstBufferPool parent;

  GstVulkanDevice *device;
  GstVideoInfo info;
};

G_DEFINE_TYPE (GstVkTileImagePool, gst_vktile_image_pool,
    GST_TYPE_BUFFER_POOL);

/* What gstvulkan 1.22's image pool asks of its images (transfers both
 * ways, sampling, rendering), and storage where the format allows it. */
static VkImageUsageFlags
plane_usage (GstVulkanDevice * device, VkFormat format)
{
  VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
      VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  VkFormatProperties props;

  vkGetPhysicalDeviceFormatProperties (device->physical_device->device,
      format, &props);
  if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
    usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  return usage;
}

/* The image format of a plane: gstvulkan's choice, but where it has none
 * (1.22 names none for xRGB, ARGB, ABGR and xBGR of a colorimetry other
 * than sRGB) unsigned normalized bytes of the plane's pixel size. */
static VkFormat
plane_format (GstVideoInfo * info, guint plane)
{
  VkFormat format = gst_vulkan_format_from_video_info (info, plane);
  gint comps[GST_VIDEO_MAX_COMPONENTS];

  if (format != VK_FORMAT_UNDEFINED)
    return format;
  gst_video_format_info_component (info->finfo, plane, comps);
  switch (GST_VIDEO_FORMAT_INFO_PSTRIDE (info->finfo, comps[0])) {
    case 1:
      return VK_FORMAT_R8_UNORM;
    case 2:
      return VK_FORMAT_R8G8_UNORM;
    case 4:
      return VK_FORMAT_R8G8B8A8_UNORM;
    default:
      return VK_FORMAT_UNDEFINED;
  }
}

static gboolean
image_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstVkTileImagePool *self = GST_VKTILE_IMAGE_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max, i;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps || !gst_video_info_from_caps (&self->info, caps))
    return FALSE;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&self->info); i++)
    if (plane_format (&self->info, i) == VK_FORMAT_UNDEFINED) {
      GST_WARNING_OBJECT (pool, "no image format for plane %u of %"
          GST_PTR_FORMAT, i, caps);
      return FALSE;
    }
  return GST_BUFFER_POOL_CLASS (gst_vktile_image_pool_parent_class)->set_config
      (pool, config);
}

static GstFlowReturn
image_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstVkTileImagePool *self = GST_VKTILE_IMAGE_POOL (pool);
  GstBuffer *buf = gst_buffer_new ();
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&self->info); i++) {
    VkFormat format = plane_format (&self->info, i);
    GstMemory *mem = gst_vulkan_image_memory_alloc (self->device, format,
        GST_VIDEO_INFO_COMP_WIDTH (&self->info, i),
        GST_VIDEO_INFO_COMP_HEIGHT (&self->info, i), VK_IMAGE_TILING_OPTIMAL,
        plane_usage (self->device, format),
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);

    if (!mem) {
      gst_buffer_unref (buf);
      GST_WARNING_OBJECT (pool, "cannot allocate the image of plane %u", i);
      return GST_FLOW_ERROR;
    }
    gst_buffer_append_memory (buf, mem);
  }
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
image_pool_finalize (GObject * object)
{
  gst_clear_object (&GST_VKTILE_IMAGE_POOL (object)->device);
  G_OBJECT_CLASS (gst_vktile_image_pool_parent_class)->finalize (object);
}

static void
gst_vktile_image_pool_class_init (GstVkTileImagePoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = image_pool_finalize;
  pool_class->set_config = image_pool_set_config;
  pool_class->alloc_buffer = image_pool_alloc_buffer;
}

static void
gst_vktile_image_pool_init (GstVkTileImagePool * self)
{
}

GstBufferPool *
gst_vktile_image_pool_new (GstVulkanDevice * device)
{
  GstVkTileImagePool *self = g_object_new (GST_TYPE_VKTILE_IMAGE_POOL, NULL);

  gst_object_ref_sink (self);
  self->device = gst_object_ref (device);
  return GST_BUFFER_POOL (self);
}
