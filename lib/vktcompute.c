/* vktcompute.c: see vktcompute.h. One VktCompute per element: its ring of
 * submission slots, recording into them (the uniform ring, dispatches,
 * streams, barriers, copies, timestamps), submitting and retiring; also the
 * debug category and vkt_check_vk(), which the helper's other files share
 * (vktcompute-private.h). The pipeline cache is in vktpipeline.c, VktSync
 * and fences in vktsync.c, buffers in vktbuffer.c, and the device functions
 * with the per-device cache in vktdevice.c. */
#include "vktcompute-private.h"
#include "vktile_interface.h"
#include "copy_rows_interface.h"

#include <string.h>

#include "copy_rows.spv.h"

GST_DEBUG_CATEGORY (vkt_compute_debug);

/* Enough for recursivefilter's ~10 dispatches per plane in each of dozens
 * of regions of interest (roi-meta) in one frame. */
#define MAX_SETS_PER_FRAME 4096
/* image planes read by shaders in a frame (a few per frame) */
#define VKT_IMAGE_SETS_PER_FRAME 64
/* A frame's uniforms: recursivefilter's chunk tails take 10 KB each, up
 * to six of them (three planes, two axes) besides the small ones. */
#define UNIFORM_SLOT_SIZE (256 * 1024)

/* A dispatch recorded into a stream, emitted by vkt_compute_streams_end(). */
typedef struct
{
  VktPipeline *pipeline;
  VkDescriptorSet set;
  guint step;
  guint groups_x, groups_y;
  guint8 push[VKT_MAX_PUSH_BYTES];
} HeldDispatch;

void
vkt_ensure_debug (void)
{
  static gsize once = 0;
  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (vkt_compute_debug, "vktcompute", 0,
        "vktile Vulkan compute helper");
    g_once_init_leave (&once, 1);
  }
}

gboolean
vkt_check_vk (VkResult res, GError ** error, const gchar * what)
{
  if (res == VK_SUCCESS)
    return TRUE;
  gst_vulkan_error_to_g_error (res, error, "%s", what);
  return FALSE;
}

static void
slot_retire (VktSlot * slot)
{
  if (slot->sync) {
    vkt_sync_wait (slot->sync, NULL);
    g_mutex_lock (&slot->sync->lock);
    slot->sync->query_pool = VK_NULL_HANDLE;
    g_mutex_unlock (&slot->sync->lock);
    g_clear_pointer (&slot->sync, vkt_sync_unref);
  }
  if (slot->kept)
    g_ptr_array_set_size (slot->kept, 0);
}

void
vkt_compute_drain (VktCompute * c)
{
  guint i;

  for (i = 0; i < VKT_SLOTS; i++)
    slot_retire (&c->slots[i]);
}

void
vkt_compute_free (VktCompute * c)
{
  VkDevice dev;
  guint i;

  if (!c)
    return;
  dev = c->device ? c->device->device : VK_NULL_HANDLE;
  vkt_compute_drain (c);
  g_clear_pointer (&c->last, vkt_sync_unref);
  g_clear_pointer (&c->held, g_array_unref);
  g_clear_pointer (&c->image_states, g_array_unref);
  if (c->uniform_mem) {
    if (c->uniform_map.data)
      gst_memory_unmap (c->uniform_mem, &c->uniform_map);
    gst_memory_unref (c->uniform_mem);
  }
  for (i = 0; i < VKT_SLOTS; i++) {
    VktSlot *slot = &c->slots[i];
    if (slot->kept)
      g_ptr_array_unref (slot->kept);
    if (!dev)
      continue;
    if (slot->query_pool)
      vkDestroyQueryPool (dev, slot->query_pool, NULL);
    if (slot->desc_pool)
      vkDestroyDescriptorPool (dev, slot->desc_pool, NULL);
  }
  if (dev && c->cmd_pool)
    vkDestroyCommandPool (dev, c->cmd_pool, NULL);
  g_clear_error (&c->error);
  gst_clear_object (&c->queue);
  gst_clear_object (&c->device);
  g_free (c);
}

static void
unref_mini_object (gpointer object)
{
  gst_mini_object_unref (GST_MINI_OBJECT_CAST (object));
}

VktCompute *
vkt_compute_new (GstVulkanDevice * device, GstVulkanQueue * queue,
    GError ** error)
{
  VktCompute *c = g_new0 (VktCompute, 1);
  VkDevice dev = device->device;
  GstVulkanPhysicalDevice *phys = device->physical_device;
  const VkQueueFamilyProperties *family =
      &phys->queue_family_props[queue->family];
  VkDescriptorPoolSize sizes[4] = {
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAX_SETS_PER_FRAME * 4},
    {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAX_SETS_PER_FRAME},
    {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VKT_IMAGE_SETS_PER_FRAME},
    {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VKT_IMAGE_SETS_PER_FRAME},
  };
  VkCommandPoolCreateInfo pool_info = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
    .queueFamilyIndex = queue->family,
  };
  VkCommandBufferAllocateInfo cmd_info = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
    .commandBufferCount = 1,
  };
  VkDescriptorPoolCreateInfo desc_info = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
    .maxSets = MAX_SETS_PER_FRAME,
    .poolSizeCount = G_N_ELEMENTS (sizes),
    .pPoolSizes = sizes,
  };
  VkQueryPoolCreateInfo query_info = {
    .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
    .queryType = VK_QUERY_TYPE_TIMESTAMP,
    .queryCount = N_QUERIES,
  };
  guint i;

  vkt_ensure_debug ();
  c->device = gst_object_ref (device);
  c->queue = gst_object_ref (queue);
  c->cache = vkt_device_cache_get (device);

  if (!(family->queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "Vulkan queue family %u of device \"%s\" has no compute support",
        queue->family, phys->properties.deviceName);
    goto fail;
  }
  if (!vkt_check_vk (vkCreateCommandPool (dev, &pool_info, NULL, &c->cmd_pool),
          error, "vkCreateCommandPool"))
    goto fail;
  cmd_info.commandPool = c->cmd_pool;

  c->has_timestamps = family->timestampValidBits != 0
      && phys->properties.limits.timestampPeriod > 0;
  if (c->has_timestamps) {
    c->ts_mask = family->timestampValidBits >= 64 ? G_MAXUINT64 :
        ((G_GUINT64_CONSTANT (1) << family->timestampValidBits) - 1);
    c->ts_period = phys->properties.limits.timestampPeriod;
  }
  c->uniform_align = MAX (phys->properties.limits.minUniformBufferOffsetAlignment,
      16);
  c->shuffle_subgroup = vkt_device_shuffle_subgroup_size (device);

  for (i = 0; i < VKT_SLOTS; i++) {
    VktSlot *slot = &c->slots[i];

    slot->kept = g_ptr_array_new_with_free_func (unref_mini_object);
    slot->uniform_base = (gsize) i * UNIFORM_SLOT_SIZE;
    if (!vkt_check_vk (vkAllocateCommandBuffers (dev, &cmd_info, &slot->cmd),
            error, "vkAllocateCommandBuffers"))
      goto fail;
    if (!vkt_check_vk (vkCreateDescriptorPool (dev, &desc_info, NULL,
                &slot->desc_pool), error, "vkCreateDescriptorPool"))
      goto fail;
    if (c->has_timestamps && !vkt_check_vk (vkCreateQueryPool (dev, &query_info,
                NULL, &slot->query_pool), error, "vkCreateQueryPool"))
      goto fail;
  }

  c->uniform_mem = vkt_buffer_alloc (device, UNIFORM_SLOT_SIZE * VKT_SLOTS,
      TRUE, error);
  if (!c->uniform_mem)
    goto fail;
  if (!gst_memory_map (c->uniform_mem, &c->uniform_map, GST_MAP_WRITE)) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_MEMORY_MAP_FAILED,
        "Cannot map the uniform buffer");
    goto fail;
  }
  return c;

fail:
  vkt_compute_free (c);
  return NULL;
}

GstVulkanDevice *
vkt_compute_get_device (VktCompute * c)
{
  return c->device;
}

gboolean
vkt_compute_has_subgroup_shuffles (VktCompute * c, guint min_size)
{
  return c->shuffle_subgroup >= MAX (min_size, 1);
}

guint
vkt_compute_subgroup_size (VktCompute * c)
{
  return c->shuffle_subgroup;
}

static void
set_error (VktCompute * c, VkResult res, const gchar * what)
{
  if (!c->error)
    gst_vulkan_error_to_g_error (res, &c->error, "%s", what);
}

/* ---- submissions ---- */

gboolean
vkt_compute_begin (VktCompute * c, GError ** error)
{
  VkCommandBufferBeginInfo info = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
  };
  VkDevice dev = c->device->device;
  VktSlot *slot = &c->slots[c->next_slot];

  g_return_val_if_fail (c->cur == NULL, FALSE);
  /* The slot's command buffer, descriptors, uniforms and queries are free
   * once its previous submission has finished. */
  slot_retire (slot);
  g_clear_error (&c->error);
  c->streaming = 0;
  c->dispatches = 0;
  c->uniform_used = 0;
  c->n_recent_uniforms = c->next_recent_uniform = 0;
  c->ts_written = 0;
  c->n_traced = 0;
  c->tracing = c->has_timestamps
      && gst_debug_category_get_threshold (vkt_compute_debug) >= GST_LEVEL_TRACE;
  if (!vkt_check_vk (vkResetDescriptorPool (dev, slot->desc_pool, 0), error,
          "vkResetDescriptorPool"))
    return FALSE;
  if (!vkt_check_vk (vkResetCommandBuffer (slot->cmd, 0), error,
          "vkResetCommandBuffer"))
    return FALSE;
  if (!vkt_check_vk (vkBeginCommandBuffer (slot->cmd, &info), error,
          "vkBeginCommandBuffer"))
    return FALSE;
  c->cur = slot;
  c->next_slot = (c->next_slot + 1) % VKT_SLOTS;
  if (c->has_timestamps)
    vkCmdResetQueryPool (slot->cmd, slot->query_pool, 0, N_QUERIES);
  /* After everything submitted before on this queue: the previous frame
   * (which shares scratch buffers) and upstream elements' work on the
   * frames this one reads. */
  vkt_compute_barrier (c);
  return TRUE;
}

VktBufferRef
vkt_compute_uniform (VktCompute * c, const void *data, gsize size)
{
  VktBufferRef ref = { VK_NULL_HANDLE, 0, 0 };
  guint8 *slot_data = c->uniform_map.data + c->cur->uniform_base;
  gsize offset = GST_ROUND_UP_N (c->uniform_used, c->uniform_align);
  guint i;

  ref.buffer = ((GstVulkanBufferMemory *) c->uniform_mem)->buffer;
  for (i = 0; i < c->n_recent_uniforms; i++) {
    gsize o = c->recent_uniforms[i].offset;
    if (c->recent_uniforms[i].size == size && !memcmp (slot_data + o, data,
            size)) {
      ref.offset = c->cur->uniform_base + o;
      ref.range = size;
      return ref;
    }
  }
  /* Nothing is written where it does not fit: past the slot lies another
   * submission's, which the GPU may be reading. The recording fails at
   * submit; the ref returned keeps its commands valid meanwhile. */
  if (offset + size > UNIFORM_SLOT_SIZE) {
    set_error (c, VK_ERROR_OUT_OF_DEVICE_MEMORY, "the frame's filter tables "
        "need more than the uniform space of one submission");
    ref.offset = c->cur->uniform_base;
    ref.range = MIN (size, UNIFORM_SLOT_SIZE);
    return ref;
  }
  memcpy (slot_data + offset, data, size);
  c->uniform_used = offset + size;
  c->recent_uniforms[c->next_recent_uniform].offset = offset;
  c->recent_uniforms[c->next_recent_uniform].size = size;
  c->next_recent_uniform = (c->next_recent_uniform + 1) % RECENT_UNIFORMS;
  c->n_recent_uniforms = MIN (c->n_recent_uniforms + 1, RECENT_UNIFORMS);
  ref.offset = c->cur->uniform_base + offset;
  ref.range = size;
  return ref;
}

static void
emit_dispatch (VktCompute * c, VktPipeline * p, VkDescriptorSet set,
    const void *push, guint gx, guint gy)
{
  VkCommandBuffer cmd = c->cur->cmd;

  vkCmdBindPipeline (cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
  vkCmdBindDescriptorSets (cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout,
      0, 1, &set, 0, NULL);
  if (p->shader->push_size)
    vkCmdPushConstants (cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
        p->shader->push_size, push);
  if (c->tracing && c->n_traced < MAX_TRACED)
    vkCmdWriteTimestamp (cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
        c->cur->query_pool, VKT_TS_COUNT + 2 * c->n_traced);
  vkCmdDispatch (cmd, gx, gy, 1);
  if (c->tracing && c->n_traced < MAX_TRACED) {
    vkCmdWriteTimestamp (cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
        c->cur->query_pool, VKT_TS_COUNT + 2 * c->n_traced + 1);
    c->traced[c->n_traced++] = p->shader->name;
  }
  c->dispatches++;
}

void
vkt_compute_dispatch (VktCompute * c, VktPipeline * p,
    const VktBufferRef * refs, const void *push, guint gx, guint gy)
{
  const VktShader *shader = p->shader;
  VkDescriptorBufferInfo infos[VKT_MAX_BINDINGS];
  VkDescriptorImageInfo image_infos[VKT_MAX_BINDINGS];
  VkWriteDescriptorSet writes[VKT_MAX_BINDINGS];
  VkDescriptorSetAllocateInfo alloc = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
    .descriptorPool = c->cur->desc_pool,
    .descriptorSetCount = 1,
    .pSetLayouts = &p->set_layout,
  };
  VkDescriptorSet set;
  VkResult res;
  guint i, n = 0;

  if (gx == 0 || gy == 0)
    return;
  res = vkAllocateDescriptorSets (c->device->device, &alloc, &set);
  if (res != VK_SUCCESS) {
    set_error (c, res, "vkAllocateDescriptorSets");
    return;
  }
  for (i = 0; i < shader->n_bindings; i++) {
    if (shader->bindings[i] == VKT_BIND_UNUSED)
      continue;
    infos[n] = (VkDescriptorBufferInfo) {
    refs[i].buffer, refs[i].offset, refs[i].range ? refs[i].range :
          VK_WHOLE_SIZE};
    image_infos[n] = (VkDescriptorImageInfo) {
    VK_NULL_HANDLE, refs[i].view,
          shader->bindings[i] == VKT_BIND_STORAGE_IMAGE ?
          VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    writes[n] = (VkWriteDescriptorSet) {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .dstSet = set,
      .dstBinding = i,
      .descriptorCount = 1,
      .descriptorType = vkt_descriptor_type (shader->bindings[i]),
    };
    if (shader->bindings[i] == VKT_BIND_SAMPLED_IMAGE
        || shader->bindings[i] == VKT_BIND_STORAGE_IMAGE)
      writes[n].pImageInfo = &image_infos[n];
    else
      writes[n].pBufferInfo = &infos[n];
    n++;
  }
  vkUpdateDescriptorSets (c->device->device, n, writes, 0, NULL);
  if (c->streaming) {
    HeldDispatch held = { p, set, c->step, gx, gy };

    memcpy (held.push, push, shader->push_size);
    g_array_append_val (c->held, held);
    c->max_step = MAX (c->max_step, c->step);
    return;
  }
  emit_dispatch (c, p, set, push, gx, gy);
}

/* One global barrier between whatever ran before (shaders, copies) and
 * whatever runs after; the elements need no finer ordering. */
static void
emit_barrier (VktCompute * c)
{
  VkMemoryBarrier barrier = {
    .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
    .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
    .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
  };
  VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
      VK_PIPELINE_STAGE_TRANSFER_BIT;

  vkCmdPipelineBarrier (c->cur->cmd, stages, stages, 0, 1, &barrier, 0, NULL,
      0, NULL);
}

void
vkt_compute_barrier (VktCompute * c)
{
  if (c->streaming) {
    c->step++;
    return;
  }
  emit_barrier (c);
}

void
vkt_compute_streams_begin (VktCompute * c)
{
  g_return_if_fail (c->cur != NULL);
  if (c->streaming++)
    return;
  if (!c->held)
    c->held = g_array_new (FALSE, FALSE, sizeof (HeldDispatch));
  g_array_set_size (c->held, 0);
  c->step = c->max_step = 0;
}

void
vkt_compute_stream_next (VktCompute * c)
{
  g_return_if_fail (c->streaming);
  c->step = 0;
}

void
vkt_compute_streams_end (VktCompute * c)
{
  guint step, i;

  g_return_if_fail (c->streaming);
  if (--c->streaming || c->held->len == 0)
    return;
  for (step = 0; step <= c->max_step; step++) {
    gboolean any = FALSE;
    for (i = 0; i < c->held->len; i++) {
      HeldDispatch *h = &g_array_index (c->held, HeldDispatch, i);
      if (h->step == step) {
        emit_dispatch (c, h->pipeline, h->set, h->push, h->groups_x,
            h->groups_y);
        any = TRUE;
      }
    }
    if (any)
      emit_barrier (c);
  }
  g_array_set_size (c->held, 0);
}

void
vkt_compute_copy (VktCompute * c, VkBuffer src, VkBuffer dst,
    guint n_regions, const VkBufferCopy * regions)
{
  if (n_regions)
    vkCmdCopyBuffer (c->cur->cmd, src, dst, n_regions, regions);
}

typedef struct
{
COPY_ROWS_PUSH_FIELDS} CopyRowsPush;

static const VktShader shader_copy_rows = { "copy_rows", copy_rows_spv,
  sizeof (copy_rows_spv), 2, {VKT_BIND_STORAGE, VKT_BIND_STORAGE},
  sizeof (CopyRowsPush)
};

gboolean
vkt_compute_copy_rows (VktCompute * c, VkBuffer src, gsize src_off,
    gsize src_stride, VkBuffer dst, gsize dst_off, gsize dst_stride,
    gsize row_bytes, guint rows, guint max_groups, GError ** error)
{
  VktBufferRef refs[2] = { {src, 0, 0}, {dst, 0, 0} };
  gboolean vec4 = (src_off | src_stride | dst_off | dst_stride | row_bytes)
      % 16 == 0;
  gsize unit = vec4 ? 16 : 4;
  gint32 spec[COPY_ROWS_SPEC_COUNT] = { vec4 };
  CopyRowsPush push = { src_off / unit, src_stride / unit, dst_off / unit,
    dst_stride / unit, (row_bytes + unit - 1) / unit, rows
  };
  guint span = COPY_ROWS_GROUP_X * COPY_ROWS_WORDS, gx, gy;
  VktPipeline *pipe;

  g_return_val_if_fail (src_off % 4 == 0 && src_stride % 4 == 0
      && dst_off % 4 == 0 && dst_stride % 4 == 0, FALSE);
  if (!rows || !row_bytes)
    return TRUE;
  if (!(pipe = vkt_compute_pipeline (c, &shader_copy_rows, spec,
              COPY_ROWS_SPEC_COUNT, error)))
    return FALSE;
  max_groups = CLAMP (max_groups, 1, COPY_ROWS_MAX_GROUPS);
  gx = MIN ((push.row_words + span - 1) / span, max_groups);
  gx = MIN (gx, vkt_compute_max_groups (c));
  gy = MIN ((rows + COPY_ROWS_GROUP_Y - 1) / COPY_ROWS_GROUP_Y,
      MAX (max_groups / gx, 1));
  gy = MIN (gy, vkt_compute_max_groups (c));
  vkt_compute_dispatch (c, pipe, refs, &push, gx, gy);
  return TRUE;
}

guint
vkt_compute_copy_rows_groups (void)
{
  return COPY_ROWS_FRAME_GROUPS;
}

void
vkt_compute_timestamp (VktCompute * c, VktTimestamp slot)
{
  if (!c->has_timestamps)
    return;
  vkCmdWriteTimestamp (c->cur->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
      c->cur->query_pool, slot);
  c->ts_written |= 1u << slot;
}

void
vkt_compute_keep (VktCompute * c, gpointer object)
{
  g_return_if_fail (c->cur != NULL);
  g_ptr_array_add (c->cur->kept, gst_mini_object_ref (object));
}

/* Each memory the submission used remembers it: mapping it, or taking it
 * from a vktile pool, waits for it. */
static void
mark_kept_memories (VktSlot * slot, VktSync * sync)
{
  guint i, m;

  for (i = 0; i < slot->kept->len; i++) {
    GstMiniObject *obj = g_ptr_array_index (slot->kept, i);
    if (GST_IS_BUFFER (obj)) {
      GstBuffer *buf = GST_BUFFER_CAST (obj);
      for (m = 0; m < gst_buffer_n_memory (buf); m++)
        vkt_memory_set_sync (gst_buffer_peek_memory (buf, m), sync);
    } else if (obj->type == GST_TYPE_MEMORY) {
      vkt_memory_set_sync (GST_MEMORY_CAST (obj), sync);
    }
  }
}

VktSync *
vkt_compute_submit (VktCompute * c, GError ** error)
{
  VktSlot *slot = c->cur;
  VkSubmitInfo submit = {
    .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
    .commandBufferCount = 1,
  };
  VktSync *sync = NULL;
  VkResult res;

  g_return_val_if_fail (slot != NULL, NULL);
  c->cur = NULL;
  {
    /* The fence alone does not make device writes visible to the host,
     * which maps host-visible outputs once it has signalled. */
    VkMemoryBarrier to_host = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier (slot->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
        &to_host, 0, NULL, 0, NULL);
  }
  res = vkEndCommandBuffer (slot->cmd);
  if (c->error) {
    g_propagate_error (error, c->error);
    c->error = NULL;
    goto fail;
  }
  if (!vkt_check_vk (res, error, "vkEndCommandBuffer"))
    goto fail;
  if (!(sync = vkt_sync_new (c, slot, error)))
    goto fail;

  submit.pCommandBuffers = &slot->cmd;
  /* Ours first, then the queue object's, which gstvulkan's elements that
   * share it take. */
  g_mutex_lock (&c->cache->submit_lock);
  gst_vulkan_queue_submit_lock (c->queue);
  res = vkQueueSubmit (c->queue->queue, 1, &submit, sync->fence);
  gst_vulkan_queue_submit_unlock (c->queue);
  g_mutex_unlock (&c->cache->submit_lock);
  if (!vkt_check_vk (res, error, "vkQueueSubmit"))
    goto fail;
  vkt_image_states_release (c, FALSE);
  slot->sync = vkt_sync_ref (sync);
  mark_kept_memories (slot, sync);
  return sync;

fail:
  vkt_image_states_release (c, TRUE);
  /* Nothing was submitted: what the recording kept can go now. */
  if (sync) {
    sync->done = TRUE;
    vkt_sync_unref (sync);
  }
  g_ptr_array_set_size (slot->kept, 0);
  return NULL;
}

void
vkt_compute_abandon (VktCompute * c)
{
  if (!c->cur)
    return;
  vkEndCommandBuffer (c->cur->cmd);
  vkt_image_states_release (c, TRUE);
  g_ptr_array_set_size (c->cur->kept, 0);
  g_clear_error (&c->error);
  c->streaming = 0;
  c->cur = NULL;
}

gboolean
vkt_compute_busy (VktCompute * c)
{
  guint k;

  for (k = 0; k < VKT_SLOTS; k++) {
    VktSlot *slot = &c->slots[k];
    if (slot->sync && slot != c->cur && !vkt_sync_is_done (slot->sync))
      return TRUE;
  }
  return FALSE;
}

gboolean
vkt_compute_retire (VktCompute * c, guint max_unfinished, GError ** error)
{
  guint pending = 0, k;

  for (k = 0; k < VKT_SLOTS; k++)
    if (c->slots[k].sync)
      pending++;
  /* Oldest first: the slot to be recorded next is the oldest. */
  for (k = 0; k < VKT_SLOTS; k++) {
    VktSlot *slot = &c->slots[(c->next_slot + k) % VKT_SLOTS];
    if (!slot->sync || slot == c->cur)
      continue;
    if (pending <= max_unfinished && !vkt_sync_is_done (slot->sync))
      continue;
    if (!vkt_sync_wait (slot->sync, error))
      return FALSE;
    slot_retire (slot);
    pending--;
  }
  return TRUE;
}

gboolean
vkt_compute_submit_wait (VktCompute * c, GError ** error)
{
  VktSync *sync = vkt_compute_submit (c, error);

  g_clear_pointer (&c->last, vkt_sync_unref);
  if (!sync)
    return FALSE;
  c->last = sync;
  return vkt_sync_wait (sync, error);
}

guint
vkt_compute_dispatch_count (VktCompute * c)
{
  return c->dispatches;
}

guint64
vkt_compute_elapsed_ns (VktCompute * c, VktTimestamp from, VktTimestamp to)
{
  return c->last ? vkt_sync_elapsed_ns (c->last, from, to) : 0;
}

guint32
vkt_compute_max_groups (VktCompute * c)
{
  const guint32 *max =
      c->device->physical_device->properties.limits.maxComputeWorkGroupCount;
  return MIN (max[0], max[1]);
}

guint32
vkt_compute_max_shared_bytes (VktCompute * c)
{
  return c->device->physical_device->properties.
      limits.maxComputeSharedMemorySize;
}

