/* vktcompute.c: see vktcompute.h. Pipelines live in a cache attached to the
 * GstVulkanDevice (so every element on a device shares them, and they go
 * away with the device); everything else belongs to one VktCompute. */
#include "vktcompute.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (vkt_compute_debug);
#define GST_CAT_DEFAULT vkt_compute_debug

#define MAX_SETS_PER_FRAME 256
#define UNIFORM_RING_SIZE (64 * 1024)

struct _VktPipeline
{
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkPipeline pipeline;
  const VktShader *shader;
};

typedef struct
{
  GMutex lock;
  VkDevice device;
  GHashTable *pipelines;        /* key string -> VktPipeline* */
} VktPipelineCache;

struct _VktCompute
{
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  VktPipelineCache *cache;

  VkCommandPool cmd_pool;
  VkCommandBuffer cmd;
  VkFence fence;
  VkDescriptorPool desc_pool;
  VkQueryPool query_pool;
  gboolean has_timestamps;
  guint64 ts_mask;
  gdouble ts_period;
  guint64 timestamps[VKT_TS_COUNT];
  guint32 ts_written;

  GstMemory *uniform_mem;
  GstMapInfo uniform_map;
  gsize uniform_used;
  gsize uniform_align;

  gboolean recording;
  guint dispatches;
  GError *error;                /* first recording error of this frame */
};

static void
ensure_debug (void)
{
  static gsize once = 0;
  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (vkt_compute_debug, "vktcompute", 0,
        "vktile Vulkan compute helper");
    g_once_init_leave (&once, 1);
  }
}

static void
pipeline_free (gpointer data, VkDevice device)
{
  VktPipeline *p = data;
  if (!p)
    return;
  if (p->pipeline)
    vkDestroyPipeline (device, p->pipeline, NULL);
  if (p->layout)
    vkDestroyPipelineLayout (device, p->layout, NULL);
  if (p->set_layout)
    vkDestroyDescriptorSetLayout (device, p->set_layout, NULL);
  g_free (p);
}

/* Runs when the GstVulkanDevice is disposed, while its VkDevice still
 * exists. */
static void
pipeline_cache_destroy (gpointer data, GObject * where_the_device_was)
{
  VktPipelineCache *cache = data;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, cache->pipelines);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    pipeline_free (value, cache->device);
  g_hash_table_unref (cache->pipelines);
  g_mutex_clear (&cache->lock);
  g_free (cache);
}

static VktPipelineCache *
pipeline_cache_for_device (GstVulkanDevice * device)
{
  static GMutex lock;
  VktPipelineCache *cache;

  g_mutex_lock (&lock);
  cache = g_object_get_data (G_OBJECT (device), "vktile-pipeline-cache");
  if (!cache) {
    cache = g_new0 (VktPipelineCache, 1);
    g_mutex_init (&cache->lock);
    cache->device = device->device;
    cache->pipelines = g_hash_table_new_full (g_str_hash, g_str_equal,
        g_free, NULL);
    g_object_set_data (G_OBJECT (device), "vktile-pipeline-cache", cache);
    g_object_weak_ref (G_OBJECT (device), pipeline_cache_destroy, cache);
  }
  g_mutex_unlock (&lock);
  return cache;
}

static gboolean
check_vk (VkResult res, GError ** error, const gchar * what)
{
  if (res == VK_SUCCESS)
    return TRUE;
  gst_vulkan_error_to_g_error (res, error, "%s", what);
  return FALSE;
}

void
vkt_compute_free (VktCompute * c)
{
  VkDevice dev;

  if (!c)
    return;
  dev = c->device ? c->device->device : VK_NULL_HANDLE;
  if (c->uniform_mem) {
    gst_memory_unmap (c->uniform_mem, &c->uniform_map);
    gst_memory_unref (c->uniform_mem);
  }
  if (dev) {
    if (c->query_pool)
      vkDestroyQueryPool (dev, c->query_pool, NULL);
    if (c->desc_pool)
      vkDestroyDescriptorPool (dev, c->desc_pool, NULL);
    if (c->fence)
      vkDestroyFence (dev, c->fence, NULL);
    if (c->cmd_pool)
      vkDestroyCommandPool (dev, c->cmd_pool, NULL);
  }
  g_clear_error (&c->error);
  gst_clear_object (&c->queue);
  gst_clear_object (&c->device);
  g_free (c);
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
  VkDescriptorPoolSize sizes[2] = {
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAX_SETS_PER_FRAME * 4},
    {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAX_SETS_PER_FRAME},
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
  VkFenceCreateInfo fence_info = {
    .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
  };
  VkDescriptorPoolCreateInfo desc_info = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
    .maxSets = MAX_SETS_PER_FRAME,
    .poolSizeCount = 2,
    .pPoolSizes = sizes,
  };
  VkQueryPoolCreateInfo query_info = {
    .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
    .queryType = VK_QUERY_TYPE_TIMESTAMP,
    .queryCount = VKT_TS_COUNT,
  };

  ensure_debug ();
  c->device = gst_object_ref (device);
  c->queue = gst_object_ref (queue);
  c->cache = pipeline_cache_for_device (device);

  if (!(family->queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "Vulkan queue family %u of device \"%s\" has no compute support",
        queue->family, phys->properties.deviceName);
    goto fail;
  }
  if (!check_vk (vkCreateCommandPool (dev, &pool_info, NULL, &c->cmd_pool),
          error, "vkCreateCommandPool"))
    goto fail;
  cmd_info.commandPool = c->cmd_pool;
  if (!check_vk (vkAllocateCommandBuffers (dev, &cmd_info, &c->cmd), error,
          "vkAllocateCommandBuffers"))
    goto fail;
  if (!check_vk (vkCreateFence (dev, &fence_info, NULL, &c->fence), error,
          "vkCreateFence"))
    goto fail;
  if (!check_vk (vkCreateDescriptorPool (dev, &desc_info, NULL,
              &c->desc_pool), error, "vkCreateDescriptorPool"))
    goto fail;

  c->has_timestamps = family->timestampValidBits != 0
      && phys->properties.limits.timestampPeriod > 0;
  if (c->has_timestamps) {
    if (!check_vk (vkCreateQueryPool (dev, &query_info, NULL,
                &c->query_pool), error, "vkCreateQueryPool"))
      goto fail;
    c->ts_mask = family->timestampValidBits >= 64 ? G_MAXUINT64 :
        ((G_GUINT64_CONSTANT (1) << family->timestampValidBits) - 1);
    c->ts_period = phys->properties.limits.timestampPeriod;
  }

  c->uniform_align = MAX (phys->properties.limits.minUniformBufferOffsetAlignment,
      16);
  c->uniform_mem = vkt_buffer_alloc (device, UNIFORM_RING_SIZE, TRUE, error);
  if (!c->uniform_mem)
    goto fail;
  if (!gst_memory_map (c->uniform_mem, &c->uniform_map, GST_MAP_WRITE)) {
    gst_memory_unref (c->uniform_mem);
    c->uniform_mem = NULL;
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

static VktPipeline *
pipeline_create (VkDevice dev, const VktShader * shader, const gint32 * spec,
    guint n_spec, GError ** error)
{
  VktPipeline *p = g_new0 (VktPipeline, 1);
  VkDescriptorSetLayoutBinding bindings[VKT_MAX_BINDINGS];
  VkSpecializationMapEntry entries[VKT_MAX_SPEC];
  VkShaderModule module = VK_NULL_HANDLE;
  guint i;

  p->shader = shader;
  for (i = 0; i < shader->n_bindings; i++) {
    bindings[i] = (VkDescriptorSetLayoutBinding) {
      .binding = i,
      .descriptorType = shader->bindings[i] == VKT_BIND_UNIFORM ?
          VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
  }
  {
    VkDescriptorSetLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = shader->n_bindings,
      .pBindings = bindings,
    };
    if (!check_vk (vkCreateDescriptorSetLayout (dev, &info, NULL,
                &p->set_layout), error, "vkCreateDescriptorSetLayout"))
      goto fail;
  }
  {
    VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      .offset = 0,
      .size = shader->push_size,
    };
    VkPipelineLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &p->set_layout,
      .pushConstantRangeCount = shader->push_size ? 1 : 0,
      .pPushConstantRanges = &range,
    };
    if (!check_vk (vkCreatePipelineLayout (dev, &info, NULL, &p->layout),
            error, "vkCreatePipelineLayout"))
      goto fail;
  }
  {
    VkShaderModuleCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = shader->code_size,
      .pCode = shader->code,
    };
    if (!check_vk (vkCreateShaderModule (dev, &info, NULL, &module), error,
            "vkCreateShaderModule"))
      goto fail;
  }
  for (i = 0; i < n_spec; i++)
    entries[i] = (VkSpecializationMapEntry) {
    i, i * sizeof (gint32), sizeof (gint32)};
  {
    VkSpecializationInfo spec_info = {
      .mapEntryCount = n_spec,
      .pMapEntries = entries,
      .dataSize = n_spec * sizeof (gint32),
      .pData = spec,
    };
    VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
            .pSpecializationInfo = n_spec ? &spec_info : NULL,
          },
      .layout = p->layout,
    };
    if (!check_vk (vkCreateComputePipelines (dev, VK_NULL_HANDLE, 1, &info,
                NULL, &p->pipeline), error, "vkCreateComputePipelines"))
      goto fail;
  }
  vkDestroyShaderModule (dev, module, NULL);
  return p;

fail:
  if (module)
    vkDestroyShaderModule (dev, module, NULL);
  pipeline_free (p, dev);
  return NULL;
}

VktPipeline *
vkt_compute_pipeline (VktCompute * c, const VktShader * shader,
    const gint32 * spec, guint n_spec, GError ** error)
{
  GString *key = g_string_new (shader->name);
  VktPipeline *p;
  guint i;

  g_return_val_if_fail (n_spec <= VKT_MAX_SPEC, NULL);
  for (i = 0; i < n_spec; i++)
    g_string_append_printf (key, ",%d", spec[i]);

  /* Compiling under the lock keeps two elements from building the same
   * pipeline twice; it only happens on the first frame of a variant. */
  g_mutex_lock (&c->cache->lock);
  p = g_hash_table_lookup (c->cache->pipelines, key->str);
  if (!p) {
    gint64 t0 = g_get_monotonic_time ();
    p = pipeline_create (c->device->device, shader, spec, n_spec, error);
    if (p) {
      GST_DEBUG ("built pipeline %s in %.1f ms", key->str,
          (g_get_monotonic_time () - t0) / 1000.0);
      g_hash_table_insert (c->cache->pipelines, g_strdup (key->str), p);
    }
  }
  g_mutex_unlock (&c->cache->lock);
  g_string_free (key, TRUE);
  return p;
}

static void
set_error (VktCompute * c, VkResult res, const gchar * what)
{
  if (!c->error)
    gst_vulkan_error_to_g_error (res, &c->error, "%s", what);
}

gboolean
vkt_compute_begin (VktCompute * c, GError ** error)
{
  VkCommandBufferBeginInfo info = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
  };
  VkDevice dev = c->device->device;

  g_clear_error (&c->error);
  c->dispatches = 0;
  c->uniform_used = 0;
  c->ts_written = 0;
  if (!check_vk (vkResetDescriptorPool (dev, c->desc_pool, 0), error,
          "vkResetDescriptorPool"))
    return FALSE;
  if (!check_vk (vkResetCommandBuffer (c->cmd, 0), error,
          "vkResetCommandBuffer"))
    return FALSE;
  if (!check_vk (vkBeginCommandBuffer (c->cmd, &info), error,
          "vkBeginCommandBuffer"))
    return FALSE;
  if (c->has_timestamps)
    vkCmdResetQueryPool (c->cmd, c->query_pool, 0, VKT_TS_COUNT);
  c->recording = TRUE;
  return TRUE;
}

VktBufferRef
vkt_compute_uniform (VktCompute * c, const void *data, gsize size)
{
  VktBufferRef ref = { VK_NULL_HANDLE, 0, 0 };
  gsize offset = GST_ROUND_UP_N (c->uniform_used, c->uniform_align);

  if (offset + size > UNIFORM_RING_SIZE) {
    set_error (c, VK_ERROR_OUT_OF_DEVICE_MEMORY, "uniform ring exhausted");
    offset = 0;
  }
  memcpy (c->uniform_map.data + offset, data, size);
  c->uniform_used = offset + size;
  ref.buffer = ((GstVulkanBufferMemory *) c->uniform_mem)->buffer;
  ref.offset = offset;
  ref.range = size;
  return ref;
}

void
vkt_compute_dispatch (VktCompute * c, VktPipeline * p,
    const VktBufferRef * refs, const void *push, guint gx, guint gy)
{
  const VktShader *shader = p->shader;
  VkDescriptorBufferInfo infos[VKT_MAX_BINDINGS];
  VkWriteDescriptorSet writes[VKT_MAX_BINDINGS];
  VkDescriptorSetAllocateInfo alloc = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
    .descriptorPool = c->desc_pool,
    .descriptorSetCount = 1,
    .pSetLayouts = &p->set_layout,
  };
  VkDescriptorSet set;
  VkResult res;
  guint i;

  if (gx == 0 || gy == 0)
    return;
  res = vkAllocateDescriptorSets (c->device->device, &alloc, &set);
  if (res != VK_SUCCESS) {
    set_error (c, res, "vkAllocateDescriptorSets");
    return;
  }
  for (i = 0; i < shader->n_bindings; i++) {
    infos[i] = (VkDescriptorBufferInfo) {
    refs[i].buffer, refs[i].offset, refs[i].range ? refs[i].range :
          VK_WHOLE_SIZE};
    writes[i] = (VkWriteDescriptorSet) {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .dstSet = set,
      .dstBinding = i,
      .descriptorCount = 1,
      .descriptorType = shader->bindings[i] == VKT_BIND_UNIFORM ?
          VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .pBufferInfo = &infos[i],
    };
  }
  vkUpdateDescriptorSets (c->device->device, shader->n_bindings, writes, 0,
      NULL);
  vkCmdBindPipeline (c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
  vkCmdBindDescriptorSets (c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout,
      0, 1, &set, 0, NULL);
  if (shader->push_size)
    vkCmdPushConstants (c->cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
        shader->push_size, push);
  vkCmdDispatch (c->cmd, gx, gy, 1);
  c->dispatches++;
}

/* One global barrier between whatever ran before (shaders, copies) and
 * whatever runs after; the elements need no finer ordering. */
void
vkt_compute_barrier (VktCompute * c)
{
  VkMemoryBarrier barrier = {
    .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
    .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
    .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
  };
  VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
      VK_PIPELINE_STAGE_TRANSFER_BIT;

  vkCmdPipelineBarrier (c->cmd, stages, stages, 0, 1, &barrier, 0, NULL, 0,
      NULL);
}

void
vkt_compute_copy (VktCompute * c, VkBuffer src, VkBuffer dst,
    guint n_regions, const VkBufferCopy * regions)
{
  if (n_regions)
    vkCmdCopyBuffer (c->cmd, src, dst, n_regions, regions);
}

void
vkt_compute_timestamp (VktCompute * c, VktTimestamp slot)
{
  if (!c->has_timestamps)
    return;
  vkCmdWriteTimestamp (c->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
      c->query_pool, slot);
  c->ts_written |= 1u << slot;
}

gboolean
vkt_compute_submit_wait (VktCompute * c, GError ** error)
{
  VkDevice dev = c->device->device;
  VkSubmitInfo submit = {
    .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
    .commandBufferCount = 1,
    .pCommandBuffers = &c->cmd,
  };
  VkResult res;

  g_return_val_if_fail (c->recording, FALSE);
  c->recording = FALSE;
  {
    /* The fence alone does not make device writes visible to the host, which
     * maps host-visible outputs next. */
    VkMemoryBarrier to_host = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier (c->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
        &to_host, 0, NULL, 0, NULL);
  }
  res = vkEndCommandBuffer (c->cmd);
  if (c->error) {
    g_propagate_error (error, c->error);
    c->error = NULL;
    return FALSE;
  }
  if (!check_vk (res, error, "vkEndCommandBuffer"))
    return FALSE;
  if (!check_vk (vkResetFences (dev, 1, &c->fence), error, "vkResetFences"))
    return FALSE;

  gst_vulkan_queue_submit_lock (c->queue);
  res = vkQueueSubmit (c->queue->queue, 1, &submit, c->fence);
  gst_vulkan_queue_submit_unlock (c->queue);
  if (!check_vk (res, error, "vkQueueSubmit"))
    return FALSE;
  /* A device loss shows up here; the element turns it into an error. */
  if (!check_vk (vkWaitForFences (dev, 1, &c->fence, VK_TRUE, G_MAXUINT64),
          error, "vkWaitForFences"))
    return FALSE;

  memset (c->timestamps, 0, sizeof (c->timestamps));
  if (c->has_timestamps && c->ts_written == (1u << VKT_TS_COUNT) - 1) {
    res = vkGetQueryPoolResults (dev, c->query_pool, 0, VKT_TS_COUNT,
        sizeof (c->timestamps), c->timestamps, sizeof (guint64),
        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (res != VK_SUCCESS)
      memset (c->timestamps, 0, sizeof (c->timestamps));
  }
  return TRUE;
}

guint
vkt_compute_dispatch_count (VktCompute * c)
{
  return c->dispatches;
}

guint64
vkt_compute_elapsed_ns (VktCompute * c, VktTimestamp from, VktTimestamp to)
{
  guint64 a = c->timestamps[from] & c->ts_mask;
  guint64 b = c->timestamps[to] & c->ts_mask;

  if (!c->has_timestamps || b <= a)
    return 0;
  return (guint64) ((b - a) * c->ts_period + 0.5);
}

guint32
vkt_compute_max_groups (VktCompute * c)
{
  const guint32 *max =
      c->device->physical_device->properties.limits.maxComputeWorkGroupCount;
  return MIN (max[0], max[1]);
}

GstMemory *
vkt_buffer_alloc (GstVulkanDevice * device, gsize size, gboolean host_visible,
    GError ** error)
{
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkMemoryPropertyFlags props = host_visible ?
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
      : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  GstMemory *mem;

  /* Storage buffers are read as whole words: round up so the last word of a
   * plane never reaches past the allocation. */
  mem = gst_vulkan_buffer_memory_alloc (device, GST_ROUND_UP_4 (MAX (size,
              4)), usage, props);
  if (!mem)
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_OUT_OF_DEVICE_MEMORY,
        "Cannot allocate a %s Vulkan buffer of %" G_GSIZE_FORMAT " bytes",
        host_visible ? "host-visible" : "device-local", size);
  return mem;
}

/* A discrete GPU: some device-local memory type the host cannot map. There
 * frames from host memory are copied to VRAM before they are filtered. */
gboolean
vkt_device_has_separate_vram (GstVulkanDevice * device)
{
  const VkPhysicalDeviceMemoryProperties *mp =
      &device->physical_device->memory_properties;
  guint i;

  for (i = 0; i < mp->memoryTypeCount; i++) {
    VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
    if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
        && !(f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      return TRUE;
  }
  return FALSE;
}

gboolean
vkt_memory_is_device_local (GstMemory * mem)
{
  GstVulkanBufferMemory *bm = (GstVulkanBufferMemory *) mem;
  return (bm->vk_mem->properties & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
}

static gboolean
pick_compute_queue (GstVulkanDevice * device, GstVulkanQueue * queue,
    gpointer user_data)
{
  GstVulkanQueue **found = user_data;
  guint flags = device->physical_device->queue_family_props[queue->family]
      .queueFlags;

  if (flags & VK_QUEUE_COMPUTE_BIT) {
    *found = gst_object_ref (queue);
    return FALSE;
  }
  return TRUE;
}

/* The first queue of the device with compute support (1.22 opens one). */
GstVulkanQueue *
vkt_device_find_compute_queue (GstVulkanDevice * device, GError ** error)
{
  GstVulkanQueue *queue = NULL;

  gst_vulkan_device_foreach_queue (device, pick_compute_queue, &queue);
  if (!queue)
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "Vulkan device \"%s\" has no queue with compute support",
        device->physical_device->properties.deviceName);
  return queue;
}
