/* benchpcie.c: see benchpcie.h. Plain Vulkan on the physical device of the
 * benchmark's GstVulkanDevice: a device with up to two queues of a transfer
 * family (a family without graphics or compute, the copy engines, where
 * there is one), four buffers of the frame's size, one command buffer per
 * direction recorded once, and timestamps on both queues, which share the
 * device's time domain. */
#include "benchpcie.h"

#include <string.h>

enum
{ DIR_UP, DIR_DOWN, N_DIRS };

struct _BenchPcie
{
  VkDevice device;
  VkQueue queues[N_DIRS];       /* the same queue twice where there is one */
  gboolean two_queues;
  guint32 family;
  guint64 timestamp_mask;
  gdouble timestamp_period;
  VkBuffer buffers[4];          /* host src, device dst, device src, host dst */
  VkDeviceMemory memory[4];
  gboolean host_device_local;
  VkCommandPool pool;
  VkCommandBuffer cmd[N_DIRS];
  VkQueryPool queries;          /* start and end of each direction */
  VkFence fences[N_DIRS];
};

#define CHECK(call, what) do { VkResult _r = (call); if (_r != VK_SUCCESS) { \
    g_set_error (error, GST_VULKAN_ERROR, _r, "PCIe floor: %s failed (%d)", \
        what, _r); goto fail; } } while (0)

static gint
pick_family (const VkQueueFamilyProperties * props, guint32 n)
{
  gint best = -1;
  guint32 i;

  for (i = 0; i < n; i++) {
    gboolean transfer_only = !(props[i].queueFlags &
        (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT));
    if (!(props[i].queueFlags & (VK_QUEUE_TRANSFER_BIT |
                VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
        || props[i].timestampValidBits == 0)
      continue;
    /* The copy engines first; then whichever has two queues. */
    if (best < 0 || (transfer_only && props[best].queueFlags &
            (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
        || (props[i].queueCount >= 2 && props[best].queueCount < 2))
      best = i;
  }
  return best;
}

static gint
pick_memory (const VkPhysicalDeviceMemoryProperties * mp, guint32 bits,
    VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid)
{
  gint fallback = -1;
  guint32 i;

  for (i = 0; i < mp->memoryTypeCount; i++) {
    VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
    if (!(bits & (1u << i)) || (f & want) != want)
      continue;
    if (!(f & avoid))
      return i;
    if (fallback < 0)
      fallback = i;
  }
  return fallback;
}

BenchPcie *
bench_pcie_new (GstVulkanDevice * gdev, gsize bytes, GError ** error)
{
  BenchPcie *p = g_new0 (BenchPcie, 1);
  VkPhysicalDevice phys = gdev->physical_device->device;
  const VkPhysicalDeviceMemoryProperties *mp =
      &gdev->physical_device->memory_properties;
  VkQueueFamilyProperties *props;
  guint32 n_families = 0, i;
  gint family;
  gfloat priorities[2] = { 1.0f, 1.0f };
  VkDeviceQueueCreateInfo qinfo = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
    .pQueuePriorities = priorities,
  };
  VkDeviceCreateInfo dinfo = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
    .queueCreateInfoCount = 1,
    .pQueueCreateInfos = &qinfo,
  };

  vkGetPhysicalDeviceQueueFamilyProperties (phys, &n_families, NULL);
  props = g_new0 (VkQueueFamilyProperties, MAX (n_families, 1));
  vkGetPhysicalDeviceQueueFamilyProperties (phys, &n_families, props);
  family = pick_family (props, n_families);
  if (family < 0) {
    g_free (props);
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "PCIe floor: no queue with transfers and timestamps");
    goto fail;
  }
  p->family = family;
  p->two_queues = props[family].queueCount >= 2;
  p->timestamp_mask = props[family].timestampValidBits >= 64 ? G_MAXUINT64 :
      (G_GUINT64_CONSTANT (1) << props[family].timestampValidBits) - 1;
  p->timestamp_period =
      gdev->physical_device->properties.limits.timestampPeriod;
  g_free (props);
  qinfo.queueFamilyIndex = family;
  qinfo.queueCount = p->two_queues ? 2 : 1;
  CHECK (vkCreateDevice (phys, &dinfo, NULL, &p->device), "vkCreateDevice");
  vkGetDeviceQueue (p->device, family, 0, &p->queues[DIR_UP]);
  vkGetDeviceQueue (p->device, family, p->two_queues ? 1 : 0,
      &p->queues[DIR_DOWN]);

  for (i = 0; i < 4; i++) {
    gboolean host = i == 0 || i == 3;
    VkBufferCreateInfo binfo = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = bytes,
      .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
          VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkMemoryRequirements req;
    VkMemoryAllocateInfo ainfo = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
    };
    gint type;
    CHECK (vkCreateBuffer (p->device, &binfo, NULL, &p->buffers[i]),
        "vkCreateBuffer");
    vkGetBufferMemoryRequirements (p->device, p->buffers[i], &req);
    /* Host memory that is not device-local (not the BAR): the bus. */
    type = host ? pick_memory (mp, req.memoryTypeBits,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) : pick_memory (mp,
        req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    if (type < 0) {
      g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
          "PCIe floor: no %s memory type", host ? "host" : "device-local");
      goto fail;
    }
    if (host && (mp->memoryTypes[type].propertyFlags &
            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
      p->host_device_local = TRUE;
    ainfo.allocationSize = req.size;
    ainfo.memoryTypeIndex = type;
    CHECK (vkAllocateMemory (p->device, &ainfo, NULL, &p->memory[i]),
        "vkAllocateMemory");
    CHECK (vkBindBufferMemory (p->device, p->buffers[i], p->memory[i], 0),
        "vkBindBufferMemory");
  }

  {
    VkCommandPoolCreateInfo pinfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = family,
    };
    VkCommandBufferAllocateInfo cinfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = N_DIRS,
    };
    VkQueryPoolCreateInfo qpinfo = {
      .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
      .queryType = VK_QUERY_TYPE_TIMESTAMP,
      .queryCount = 2 * N_DIRS,
    };
    VkFenceCreateInfo finfo = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    CHECK (vkCreateCommandPool (p->device, &pinfo, NULL, &p->pool),
        "vkCreateCommandPool");
    cinfo.commandPool = p->pool;
    CHECK (vkAllocateCommandBuffers (p->device, &cinfo, p->cmd),
        "vkAllocateCommandBuffers");
    CHECK (vkCreateQueryPool (p->device, &qpinfo, NULL, &p->queries),
        "vkCreateQueryPool");
    for (i = 0; i < N_DIRS; i++)
      CHECK (vkCreateFence (p->device, &finfo, NULL, &p->fences[i]),
          "vkCreateFence");
  }

  /* Recorded once, submitted every round. */
  for (i = 0; i < N_DIRS; i++) {
    VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    };
    VkBufferCopy region = { 0, 0, bytes };
    CHECK (vkBeginCommandBuffer (p->cmd[i], &begin), "vkBeginCommandBuffer");
    vkCmdResetQueryPool (p->cmd[i], p->queries, 2 * i, 2);
    vkCmdWriteTimestamp (p->cmd[i], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
        p->queries, 2 * i);
    vkCmdCopyBuffer (p->cmd[i], p->buffers[i == DIR_UP ? 0 : 2],
        p->buffers[i == DIR_UP ? 1 : 3], 1, &region);
    vkCmdWriteTimestamp (p->cmd[i], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
        p->queries, 2 * i + 1);
    CHECK (vkEndCommandBuffer (p->cmd[i]), "vkEndCommandBuffer");
  }
  return p;

fail:
  bench_pcie_free (p);
  return NULL;
}

/* GPU time of one direction, or of both submitted together: from the first
 * start to the last end, on the device's one clock. */
gboolean
bench_pcie_time (BenchPcie * p, BenchPcieMode mode, gdouble * ns,
    GError ** error)
{
  guint first = mode == BENCH_PCIE_DOWN ? DIR_DOWN : DIR_UP;
  guint last = mode == BENCH_PCIE_UP ? DIR_UP : DIR_DOWN;
  guint64 ts[2 * N_DIRS], start = G_MAXUINT64, end = 0;
  guint i;

  *ns = 0;
  for (i = first; i <= last; i++) {
    VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &p->cmd[i],
    };
    CHECK (vkResetFences (p->device, 1, &p->fences[i]), "vkResetFences");
    CHECK (vkQueueSubmit (p->queues[i], 1, &submit, p->fences[i]),
        "vkQueueSubmit");
  }
  for (i = first; i <= last; i++)
    CHECK (vkWaitForFences (p->device, 1, &p->fences[i], VK_TRUE,
            10 * G_GUINT64_CONSTANT (1000000000)), "vkWaitForFences");
  CHECK (vkGetQueryPoolResults (p->device, p->queries, 2 * first,
          2 * (last - first + 1), sizeof (ts), ts + 2 * first,
          sizeof (guint64), VK_QUERY_RESULT_64_BIT |
          VK_QUERY_RESULT_WAIT_BIT), "vkGetQueryPoolResults");
  for (i = first; i <= last; i++) {
    start = MIN (start, ts[2 * i] & p->timestamp_mask);
    end = MAX (end, ts[2 * i + 1] & p->timestamp_mask);
  }
  if (end > start)
    *ns = (end - start) * p->timestamp_period;
  return TRUE;

fail:
  return FALSE;
}

/* Whether BENCH_PCIE_BOTH can overlap the two directions at all. */
gboolean
bench_pcie_overlaps (BenchPcie * p)
{
  return p->two_queues;
}

gboolean
bench_pcie_host_is_device_local (BenchPcie * p)
{
  return p->host_device_local;
}

void
bench_pcie_free (BenchPcie * p)
{
  guint i;

  if (!p)
    return;
  if (p->device) {
    vkDeviceWaitIdle (p->device);
    for (i = 0; i < N_DIRS; i++)
      if (p->fences[i])
        vkDestroyFence (p->device, p->fences[i], NULL);
    if (p->queries)
      vkDestroyQueryPool (p->device, p->queries, NULL);
    if (p->pool)
      vkDestroyCommandPool (p->device, p->pool, NULL);
    for (i = 0; i < 4; i++) {
      if (p->buffers[i])
        vkDestroyBuffer (p->device, p->buffers[i], NULL);
      if (p->memory[i])
        vkFreeMemory (p->device, p->memory[i], NULL);
    }
    vkDestroyDevice (p->device, NULL);
  }
  g_free (p);
}
