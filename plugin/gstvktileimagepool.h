/* gstvktileimagepool.h: a pool of video frames in Vulkan images
 * (memory:VulkanImage), one image per plane as gstvulkan's own image pool
 * makes them, but also with storage usage where the device can store to
 * the plane's format: what vktile hands downstream when it asks for
 * images, so that the shaders write them rather than a transfer command. */
#ifndef __GST_VKTILE_IMAGE_POOL_H__
#define __GST_VKTILE_IMAGE_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>

G_BEGIN_DECLS

#define GST_TYPE_VKTILE_IMAGE_POOL (gst_vktile_image_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstVkTileImagePool, gst_vktile_image_pool, GST,
    VKTILE_IMAGE_POOL, GstBufferPool);

GstBufferPool *gst_vktile_image_pool_new (GstVulkanDevice * device);

G_END_DECLS

#endif
