/* vktcompute.h: the small Vulkan compute helper every vktile element records
 * its work through — pipelines built from SPIR-V with specialization
 * constants (cached per device), descriptor sets, dispatches, barriers,
 * buffer copies, per-frame uniform data and timestamp queries. One
 * VktCompute per element: one command buffer, recorded, submitted and waited
 * for once per frame. Recording calls never fail: the first error is kept
 * and returned by vkt_compute_submit_wait(). */
#ifndef __VKT_COMPUTE_H__
#define __VKT_COMPUTE_H__

#include <gst/gst.h>
#include <gst/vulkan/vulkan.h>

G_BEGIN_DECLS

#define VKT_MAX_BINDINGS 6
#define VKT_MAX_SPEC 20

typedef enum
{
  VKT_BIND_STORAGE,
  VKT_BIND_UNIFORM,
} VktBindType;

/* A compiled shader and the interface it declares: descriptor set 0 with
 * n_bindings bindings 0..n-1 and push constants of push_size bytes. */
typedef struct
{
  const gchar *name;
  const guint32 *code;
  gsize code_size;
  guint n_bindings;
  VktBindType bindings[VKT_MAX_BINDINGS];
  guint push_size;
} VktShader;

typedef struct _VktPipeline VktPipeline;
typedef struct _VktCompute VktCompute;

typedef struct
{
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize range;
} VktBufferRef;

/* Timestamp slots of one frame. */
typedef enum
{
  VKT_TS_START,
  VKT_TS_UPLOADED,
  VKT_TS_FILTERED,
  VKT_TS_DOWNLOADED,
  VKT_TS_COUNT
} VktTimestamp;

VktCompute *vkt_compute_new (GstVulkanDevice * device, GstVulkanQueue * queue,
    GError ** error);
void vkt_compute_free (VktCompute * compute);

GstVulkanDevice *vkt_compute_get_device (VktCompute * compute);

VktPipeline *vkt_compute_pipeline (VktCompute * compute,
    const VktShader * shader, const gint32 * spec, guint n_spec,
    GError ** error);

gboolean vkt_compute_begin (VktCompute * compute, GError ** error);
VktBufferRef vkt_compute_uniform (VktCompute * compute, const void *data,
    gsize size);
void vkt_compute_dispatch (VktCompute * compute, VktPipeline * pipeline,
    const VktBufferRef * bindings, const void *push,
    guint groups_x, guint groups_y);
void vkt_compute_barrier (VktCompute * compute);
void vkt_compute_copy (VktCompute * compute, VkBuffer src, VkBuffer dst,
    guint n_regions, const VkBufferCopy * regions);
void vkt_compute_timestamp (VktCompute * compute, VktTimestamp slot);
gboolean vkt_compute_submit_wait (VktCompute * compute, GError ** error);

guint vkt_compute_dispatch_count (VktCompute * compute);
guint64 vkt_compute_elapsed_ns (VktCompute * compute, VktTimestamp from,
    VktTimestamp to);
guint32 vkt_compute_max_groups (VktCompute * compute);

/* Buffers: storage + transfer usage; device-local where the data never
 * leaves the GPU, host-visible and coherent where the CPU maps it. */
GstVulkanQueue *vkt_device_find_compute_queue (GstVulkanDevice * device,
    GError ** error);
GstMemory *vkt_buffer_alloc (GstVulkanDevice * device, gsize size,
    gboolean host_visible, GError ** error);
gboolean vkt_device_has_separate_vram (GstVulkanDevice * device);
gboolean vkt_memory_is_device_local (GstMemory * mem);

G_END_DECLS

#endif
