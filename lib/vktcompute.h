/* vktcompute.h: the small Vulkan compute helper every vktile element records
 * its work through — pipelines built from SPIR-V with specialization
 * constants (cached per device), descriptor sets, dispatches, barriers,
 * buffer copies, per-frame uniform data and timestamp queries.
 *
 * One VktCompute per element, with a ring of VKT_SLOTS submission slots:
 * a frame is recorded into the next free slot and submitted without a wait;
 * vkt_compute_submit() returns the VktSync of that submission (its fence
 * and timestamps). Whatever a recording uses — buffers, memories — is
 * handed to vkt_compute_keep() and lives until that fence has signalled;
 * reusing a slot waits for its previous fence first. Each recording begins
 * with a barrier against all earlier work on the queue, so frames (and
 * elements sharing the queue) run in submission order and may share scratch
 * buffers. Recording calls never fail: the first error is kept and returned
 * by vkt_compute_submit(). */
#ifndef __VKT_COMPUTE_H__
#define __VKT_COMPUTE_H__

#include <gst/gst.h>
#include <gst/vulkan/vulkan.h>

G_BEGIN_DECLS

#define VKT_MAX_BINDINGS 6
#define VKT_MAX_SPEC 24

typedef enum
{
  VKT_BIND_STORAGE,
  VKT_BIND_UNIFORM,
  /* a sampled image (VktBufferRef.view), read with texelFetch */
  VKT_BIND_SAMPLED_IMAGE,
  /* a storage image (VktBufferRef.view, in GENERAL layout) */
  VKT_BIND_STORAGE_IMAGE,
  /* declared by an include the shader shares, never read by it: nothing is
   * bound there */
  VKT_BIND_UNUSED,
} VktBindType;

/* A compiled shader and the interface it declares: descriptor set 0 with
 * bindings 0..n_bindings-1 (but the unused ones) and push constants of
 * push_size bytes. opt_code, where not NULL, is the same shader optimized
 * at build time (spirv-opt -O), which the drivers that run it faster get
 * (vkt_compute_wants_optimized_spirv()). */
typedef struct
{
  const gchar *name;
  const guint32 *code;
  gsize code_size;
  guint n_bindings;
  VktBindType bindings[VKT_MAX_BINDINGS];
  guint push_size;
  const guint32 *opt_code;
  gsize opt_code_size;
} VktShader;

/* Whether a device gets the shaders' opt_code: NVIDIA's compiler runs the
 * recursive filter's scans 32-40 % faster from it (an H100); lavapipe
 * compiles some of them several times slower, and other drivers are
 * unmeasured. */
gboolean vkt_compute_wants_optimized_spirv (const VkPhysicalDeviceProperties *
    props);

typedef struct _VktPipeline VktPipeline;
typedef struct _VktCompute VktCompute;
typedef struct _VktSync VktSync;

/* Submissions one VktCompute can have on the GPU at once. */
#define VKT_SLOTS 8

/* What a binding reads or writes: a buffer range, or for an image
 * binding an image view. */
typedef struct
{
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize range;
  VkImageView view;
} VktBufferRef;

/* Timestamp slots of one frame. */
typedef enum
{
  VKT_TS_START,
  VKT_TS_UPLOADED,
  VKT_TS_FILTERED,
  VKT_TS_WRITTEN_OUT,            /* after copies of the output into images */
  VKT_TS_COUNT
} VktTimestamp;

VktCompute *vkt_compute_new (GstVulkanDevice * device, GstVulkanQueue * queue,
    GError ** error);
void vkt_compute_free (VktCompute * compute);

GstVulkanDevice *vkt_compute_get_device (VktCompute * compute);
/* Whether compute shaders have subgroups of at least min_size invocations
 * with the shuffle operations (queried once, when the helper is made). */
gboolean vkt_compute_has_subgroup_shuffles (VktCompute * compute,
    guint min_size);
/* The subgroup size of compute shaders with shuffles, 0 without them. */
guint vkt_compute_subgroup_size (VktCompute * compute);

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
/* Independent streams of work (the regions of interest of a frame, the
 * planes of a region), each a sequence of dispatches and barriers,
 * recorded one after another but run side by side: between _begin and
 * _end, dispatches are held back and a barrier only ends its stream's
 * step; _end then records step 0 of every stream, one barrier, step 1 of
 * every stream, one barrier, and so on. Streams must not touch each
 * other's memory (give each its own scratch); _stream_next starts the
 * next stream. A _begin inside another only adds streams to it: the
 * outermost _end records them all. */
void vkt_compute_streams_begin (VktCompute * compute);
void vkt_compute_stream_next (VktCompute * compute);
void vkt_compute_streams_end (VktCompute * compute);
void vkt_compute_copy (VktCompute * compute, VkBuffer src, VkBuffer dst,
    guint n_regions, const VkBufferCopy * regions);
/* Copies `rows` rows of row_bytes, rounded up to whole 32-bit words, from
 * src (from src_off, src_stride bytes apart) to dst, with a compute shader
 * of at most max_groups work-groups. Copies across the bus whose grids
 * each stay within vkt_compute_copy_rows_groups() (a frame's planes
 * together) run at the same time when no barrier separates them, both
 * directions at once; a vkCmdCopyBuffer on the same queue does not.
 * Everything a multiple of 16 bytes (row_bytes included), it moves 16-byte
 * vectors, which cross the bus faster. Offsets and strides are multiples of 4 bytes, and both
 * buffers hold the rounded-up last row. */
gboolean vkt_compute_copy_rows (VktCompute * compute, VkBuffer src,
    gsize src_off, gsize src_stride, VkBuffer dst, gsize dst_off,
    gsize dst_stride, gsize row_bytes, guint rows, guint max_groups,
    GError ** error);
guint vkt_compute_copy_rows_groups (void);

/* Images (vktimage.c): plane `plane` of a GstVulkanImageMemory of the
 * compute's device copied to or from `rows` rows of `row_bytes` bytes,
 * `stride` bytes apart at `offset` in a buffer, with the layout
 * transition and barrier state gstvulkan's elements share. FALSE, with
 * nothing recorded, when the image cannot hold the plane. */
gboolean vkt_image_is_usable (GstMemory * mem, GstVulkanDevice * device);
gboolean vkt_compute_copy_image_to_buffer (VktCompute * compute,
    GstMemory * image, guint plane, VkBuffer dst, VkDeviceSize offset,
    guint stride, guint row_bytes, guint rows, GError ** error);
gboolean vkt_compute_copy_buffer_to_image (VktCompute * compute, VkBuffer src,
    VkDeviceSize offset, guint stride, guint row_bytes, guint rows,
    GstMemory * image, guint plane, GError ** error);
void vkt_compute_timestamp (VktCompute * compute, VktTimestamp slot);
/* Takes a reference to `object` (a GstMemory or GstBuffer) until the fence
 * of the submission being recorded has signalled. */
void vkt_compute_keep (VktCompute * compute, gpointer object);
/* Submits without waiting; returns the submission's sync (transfer full). */
VktSync *vkt_compute_submit (VktCompute * compute, GError ** error);
/* Drops the recording in progress (after an error while recording). */
void vkt_compute_abandon (VktCompute * compute);
/* Releases what finished submissions kept, waiting for the oldest ones
 * until no more than max_unfinished are left running. */
gboolean vkt_compute_retire (VktCompute * compute, guint max_unfinished,
    GError ** error);
/* Whether an earlier submission is still running on the GPU. */
gboolean vkt_compute_busy (VktCompute * compute);
/* Submits and waits; vkt_compute_elapsed_ns() then reads its timestamps. */
gboolean vkt_compute_submit_wait (VktCompute * compute, GError ** error);
/* Waits for every submission of this VktCompute. */
void vkt_compute_drain (VktCompute * compute);

guint vkt_compute_dispatch_count (VktCompute * compute);
guint64 vkt_compute_elapsed_ns (VktCompute * compute, VktTimestamp from,
    VktTimestamp to);
guint32 vkt_compute_max_groups (VktCompute * compute);
/* Bytes of shared memory a work-group may declare. */
guint32 vkt_compute_max_shared_bytes (VktCompute * compute);

/* A submission: its fence and, once it has signalled, its timestamps.
 * Refcounted and thread-safe; it keeps the device alive. */
VktSync *vkt_sync_ref (VktSync * sync);
void vkt_sync_unref (VktSync * sync);
/* Waits for the fence (at once when it has signalled); FALSE with the
 * device's error (device lost) otherwise. */
gboolean vkt_sync_wait (VktSync * sync, GError ** error);
gboolean vkt_sync_is_done (VktSync * sync);
/* Nanoseconds between two timestamps of the submission; waits for it. 0
 * without timestamps or when the section was empty. */
guint64 vkt_sync_elapsed_ns (VktSync * sync, VktTimestamp from,
    VktTimestamp to);

/* Buffers: storage + transfer usage; device-local where the data never
 * leaves the GPU, host-visible and coherent where the CPU maps it. */
GstVulkanQueue *vkt_device_find_compute_queue (GstVulkanDevice * device,
    GError ** error);
GstMemory *vkt_buffer_alloc (GstVulkanDevice * device, gsize size,
    gboolean host_visible, GError ** error);
/* Host-visible and coherent, and cached where the device has such memory:
 * for what the CPU reads more than it writes. */
GstMemory *vkt_buffer_alloc_host_cached (GstVulkanDevice * device,
    gsize size, GError ** error);
gboolean vkt_device_has_separate_vram (GstVulkanDevice * device);
/* The largest buffer vkt_buffer_alloc() makes on `device`. */
guint64 vkt_device_largest_buffer (GstVulkanDevice * device);

/* The last submission that used a memory (read or write). Mapping a memory
 * from vkt_buffer_alloc() waits for it; so do these. */
void vkt_memory_set_sync (GstMemory * mem, VktSync * sync);
gboolean vkt_memory_wait (GstMemory * mem, GError ** error);
gboolean vkt_buffer_wait (GstBuffer * buffer, GError ** error);

/* Choosing a device as the elements' device-index and device-name do:
 * index as vulkaninfo numbers the instance's devices (-1: any), name a
 * piece of the device's name, case ignored (NULL: any). The device is the
 * first that matches, not yet opened, with host memory import requested;
 * NULL with an error that lists the devices if none matches. */
gboolean vkt_device_is_chosen (guint device_index, const gchar * device_name,
    gint index, const gchar * name);
GstVulkanDevice *vkt_device_new_chosen (GstVulkanInstance * instance,
    gint index, const gchar * name, GError ** error);

/* Importing system memory (VK_EXT_external_memory_host): request it before
 * gst_vulkan_device_open(); the alignment is 0 where the device lacks it.
 * The import covers the aligned pages around [data, data + size), read-only
 * for the GPU; *offset is where data begins in it. The caller keeps the
 * host memory alive as long as the import. */
void vkt_device_request_host_import (GstVulkanDevice * device);
gsize vkt_device_host_import_alignment (GstVulkanDevice * device);
GstMemory *vkt_buffer_import_host (GstVulkanDevice * device, gsize alignment,
    gconstpointer data, gsize size, gsize * offset, GError ** error);
gboolean vkt_memory_is_device_local (GstMemory * mem);

G_END_DECLS

#endif
