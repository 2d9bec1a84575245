/* gstvktilebufferpool.h: a pool of video frames held in one Vulkan storage
 * buffer each (all planes in one VkBuffer, described by a GstVideoMeta).
 * Host-visible pools are what vktile offers upstream in propose_allocation
 * (upstream writes straight into GPU-visible memory) and what it outputs as
 * system memory; device-local pools carry frames between GPU elements. */
#ifndef __GST_VKTILE_BUFFER_POOL_H__
#define __GST_VKTILE_BUFFER_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>

G_BEGIN_DECLS

#define GST_TYPE_VKTILE_BUFFER_POOL (gst_vktile_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstVkTileBufferPool, gst_vktile_buffer_pool, GST,
    VKTILE_BUFFER_POOL, GstBufferPool);

GstBufferPool *gst_vktile_buffer_pool_new (GstVulkanDevice * device,
    gboolean host_visible);

/* Why the last allocation or wait of a vktile pool failed (NULL if none,
 * or not a vktile pool); the caller owns it. */
GError *gst_vktile_buffer_pool_take_error (GstBufferPool * pool);

G_END_DECLS

#endif
