/* benchpcie.c: see benchpcie.h. Plain Vulkan on the physical device of the
 * benchmark's GstVulkanDevice: a device with up to two queues of every
 * family that copies and has timestamps, four buffers of the frame's size
 * shared by those families, an upload and a download command buffer per
 * queue recorded once, and timestamps around each copy (the queues share
 * the device's time domain). Which two queues carry the two directions is
 * measured when the floor is made: the pairing of queues, not the bus,
 * set the duplex rate that the first version (two queues of one transfer
 * family) reached. */
#include "benchpcie.h"

#include <string.h>

#include "benchstats.h"

enum
{ DIR_UP, DIR_DOWN, N_DIRS };

#define MAX_FAMILIES 8
#define QUEUES_PER_FAMILY 2
#define MAX_QUEUES (MAX_FAMILIES * QUEUES_PER_FAMILY)
/* Rounds of each pairing when the floor is made: a few to warm up, then
 * the median of the rest. */
#define PAIRING_WARMUP 2
#define PAIRING_ROUNDS 5

typedef struct
{
  guint32 family;
  VkQueueFlags flags;
  VkQueue queue;
  guint64 timestamp_mask;
  VkCommandBuffer cmd[N_DIRS];  /* this queue's upload, download */
  VkFence fences[N_DIRS];
} PcieQueue;

struct _BenchPcie
{
  VkDevice device;
  PcieQueue queues[MAX_QUEUES];
  guint n_queues;
  guint dir_queue[N_DIRS];      /* the pairing in use: indices of queues */
  gdouble timestamp_period;
  VkBuffer buffers[4];          /* host src, device dst, device src, host dst */
  VkDeviceMemory memory[4];
  gboolean host_device_local;
  VkCommandPool pools[MAX_FAMILIES];
  guint n_pools;
  VkQueryPool queries;          /* start and end of each queue's directions */
  gchar *pairings;              /* what each pairing measured */
};

#define CHECK(call, what) do { VkResult _r = (call); if (_r != VK_SUCCESS) { \
    g_set_error (error, GST_VULKAN_ERROR, _r, "PCIe floor: %s failed (%d)", \
        what, _r); goto fail; } } while (0)

static gboolean
copies (const VkQueueFamilyProperties * props)
{
  return (props->queueFlags & (VK_QUEUE_TRANSFER_BIT | VK_QUEUE_GRAPHICS_BIT
          | VK_QUEUE_COMPUTE_BIT)) && props->timestampValidBits != 0;
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

static const gchar *
family_kind (VkQueueFlags flags)
{
  return flags & VK_QUEUE_GRAPHICS_BIT ? "graphics" :
      flags & VK_QUEUE_COMPUTE_BIT ? "compute" : "transfer";
}

/* The device and its queues: up to QUEUES_PER_FAMILY of each family that
 * copies. */
static gboolean
make_device (BenchPcie * p, GstVulkanDevice * gdev, guint32 * families,
    guint * n_families, GError ** error)
{
  VkPhysicalDevice phys = gdev->physical_device->device;
  VkQueueFamilyProperties *props;
  VkDeviceQueueCreateInfo qinfo[MAX_FAMILIES];
  gfloat priorities[QUEUES_PER_FAMILY] = { 1.0f, 1.0f };
  VkDeviceCreateInfo dinfo = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
    .pQueueCreateInfos = qinfo,
  };
  guint32 n = 0, f, q;
  guint nf = 0;

  vkGetPhysicalDeviceQueueFamilyProperties (phys, &n, NULL);
  props = g_new0 (VkQueueFamilyProperties, MAX (n, 1));
  vkGetPhysicalDeviceQueueFamilyProperties (phys, &n, props);
  for (f = 0; f < n && nf < MAX_FAMILIES; f++) {
    if (!copies (&props[f]))
      continue;
    qinfo[nf] = (VkDeviceQueueCreateInfo) {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = f,
      .queueCount = MIN (props[f].queueCount, QUEUES_PER_FAMILY),
      .pQueuePriorities = priorities,
    };
    families[nf++] = f;
  }
  if (nf == 0) {
    g_free (props);
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "PCIe floor: no queue with transfers and timestamps");
    return FALSE;
  }
  dinfo.queueCreateInfoCount = nf;
  CHECK (vkCreateDevice (phys, &dinfo, NULL, &p->device), "vkCreateDevice");
  for (f = 0; f < nf; f++)
    for (q = 0; q < qinfo[f].queueCount; q++) {
      PcieQueue *pq = &p->queues[p->n_queues++];
      guint32 bits = props[families[f]].timestampValidBits;

      pq->family = families[f];
      pq->flags = props[families[f]].queueFlags;
      pq->timestamp_mask = bits >= 64 ? G_MAXUINT64 :
          (G_GUINT64_CONSTANT (1) << bits) - 1;
      vkGetDeviceQueue (p->device, families[f], q, &pq->queue);
    }
  g_free (props);
  *n_families = nf;
  return TRUE;

fail:
  g_free (props);
  return FALSE;
}

/* Host memory that is not device-local (not the BAR) on both ends of the
 * bus, device-local memory in the middle, shared by the families. */
static gboolean
make_buffers (BenchPcie * p, GstVulkanDevice * gdev, gsize bytes,
    const guint32 * families, guint n_families, GError ** error)
{
  const VkPhysicalDeviceMemoryProperties *mp =
      &gdev->physical_device->memory_properties;
  guint i;

  for (i = 0; i < 4; i++) {
    gboolean host = i == 0 || i == 3;
    VkBufferCreateInfo binfo = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = bytes,
      .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
          VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      .sharingMode = n_families > 1 ? VK_SHARING_MODE_CONCURRENT :
          VK_SHARING_MODE_EXCLUSIVE,
      .queueFamilyIndexCount = n_families > 1 ? n_families : 0,
      .pQueueFamilyIndices = families,
    };
    VkMemoryRequirements req;
    VkMemoryAllocateInfo ainfo = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
    };
    gint type;

    CHECK (vkCreateBuffer (p->device, &binfo, NULL, &p->buffers[i]),
        "vkCreateBuffer");
    vkGetBufferMemoryRequirements (p->device, p->buffers[i], &req);
    type = host ? pick_memory (mp, req.memoryTypeBits,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) : pick_memory (mp,
        req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    if (type < 0) {
      g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
          "PCIe floor: no %s memory type", host ? "host" : "device-local");
      return FALSE;
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
  return TRUE;

fail:
  return FALSE;
}

/* Each queue's upload and download, recorded once, submitted every round. */
static gboolean
record_copies (BenchPcie * p, gsize bytes, const guint32 * families,
    guint n_families, GError ** error)
{
  VkQueryPoolCreateInfo qpinfo = {
    .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
    .queryType = VK_QUERY_TYPE_TIMESTAMP,
    .queryCount = 2 * N_DIRS * p->n_queues,
  };
  VkFenceCreateInfo finfo = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
  VkBufferCopy region = { 0, 0, bytes };
  guint f, q, d;

  CHECK (vkCreateQueryPool (p->device, &qpinfo, NULL, &p->queries),
      "vkCreateQueryPool");
  for (f = 0; f < n_families; f++) {
    VkCommandPoolCreateInfo pinfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = families[f],
    };
    CHECK (vkCreateCommandPool (p->device, &pinfo, NULL, &p->pools[f]),
        "vkCreateCommandPool");
    p->n_pools++;
  }
  for (q = 0; q < p->n_queues; q++) {
    PcieQueue *pq = &p->queues[q];
    VkCommandBufferAllocateInfo cinfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = N_DIRS,
    };

    for (f = 0; families[f] != pq->family; f++);
    cinfo.commandPool = p->pools[f];
    CHECK (vkAllocateCommandBuffers (p->device, &cinfo, pq->cmd),
        "vkAllocateCommandBuffers");
    for (d = 0; d < N_DIRS; d++) {
      VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      };
      guint query = 2 * (N_DIRS * q + d);

      CHECK (vkCreateFence (p->device, &finfo, NULL, &pq->fences[d]),
          "vkCreateFence");
      CHECK (vkBeginCommandBuffer (pq->cmd[d], &begin),
          "vkBeginCommandBuffer");
      vkCmdResetQueryPool (pq->cmd[d], p->queries, query, 2);
      vkCmdWriteTimestamp (pq->cmd[d], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
          p->queries, query);
      vkCmdCopyBuffer (pq->cmd[d], p->buffers[d == DIR_UP ? 0 : 2],
          p->buffers[d == DIR_UP ? 1 : 3], 1, &region);
      vkCmdWriteTimestamp (pq->cmd[d], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
          p->queries, query + 1);
      CHECK (vkEndCommandBuffer (pq->cmd[d]), "vkEndCommandBuffer");
    }
  }
  return TRUE;

fail:
  return FALSE;
}

/* GPU time of the directions in `dirs` (bit d: direction d), each on its
 * queue of the pairing (up, down), submitted together: from the first
 * start to the last end, on the device's one clock. */
static gboolean
time_pairing (BenchPcie * p, const guint pairing[N_DIRS], guint dirs,
    gdouble * ns, GError ** error)
{
  guint64 start = G_MAXUINT64, end = 0, ts[2];
  guint d;

  *ns = 0;
  for (d = 0; d < N_DIRS; d++) {
    PcieQueue *pq = &p->queues[pairing[d]];
    VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &pq->cmd[d],
    };
    if (!(dirs & (1u << d)))
      continue;
    CHECK (vkResetFences (p->device, 1, &pq->fences[d]), "vkResetFences");
    CHECK (vkQueueSubmit (pq->queue, 1, &submit, pq->fences[d]),
        "vkQueueSubmit");
  }
  for (d = 0; d < N_DIRS; d++) {
    PcieQueue *pq = &p->queues[pairing[d]];
    guint query = 2 * (N_DIRS * pairing[d] + d);

    if (!(dirs & (1u << d)))
      continue;
    CHECK (vkWaitForFences (p->device, 1, &pq->fences[d], VK_TRUE,
            10 * G_GUINT64_CONSTANT (1000000000)), "vkWaitForFences");
    CHECK (vkGetQueryPoolResults (p->device, p->queries, query, 2,
            sizeof (ts), ts, sizeof (guint64), VK_QUERY_RESULT_64_BIT |
            VK_QUERY_RESULT_WAIT_BIT), "vkGetQueryPoolResults");
    start = MIN (start, ts[0] & pq->timestamp_mask);
    end = MAX (end, ts[1] & pq->timestamp_mask);
  }
  if (end > start)
    *ns = (end - start) * p->timestamp_period;
  return TRUE;

fail:
  return FALSE;
}

/* Both directions at once on every pairing worth trying (two queues of a
 * family; the first queues of two families, each way round); the fastest
 * carries the floor, and what each measured goes into the notes. */
static gboolean
choose_pairing (BenchPcie * p, GError ** error)
{
  GString *said = g_string_new (NULL);
  gdouble best = 0.0;
  guint a, b, r;

  p->dir_queue[DIR_UP] = p->dir_queue[DIR_DOWN] = 0;
  for (a = 0; a < p->n_queues; a++)
    for (b = 0; b < p->n_queues; b++) {
      const PcieQueue *qa = &p->queues[a], *qb = &p->queues[b];
      gboolean same_family = qa->family == qb->family;
      guint pairing[N_DIRS] = { a, b };
      gdouble ns[PAIRING_ROUNDS], median;

      /* a family's two queues; two families' first queues; the one queue
       * of a device that has no other */
      if (p->n_queues == 1 ? FALSE : same_family ? b != a + 1 : (a > 0
              && p->queues[a - 1].family == qa->family) || (b > 0
              && p->queues[b - 1].family == qb->family))
        continue;
      for (r = 0; r < PAIRING_WARMUP + PAIRING_ROUNDS; r++)
        if (!time_pairing (p, pairing, 3, &ns[r < PAIRING_WARMUP ? 0 :
                    r - PAIRING_WARMUP], error))
          goto fail;
      median = bench_spread (ns, PAIRING_ROUNDS).median;
      g_string_append_printf (said, "%s%s %u up, %s %u down: %.0f µs",
          said->len ? "; " : "", family_kind (qa->flags), qa->family,
          family_kind (qb->flags), qb->family, median / 1e3);
      if (median > 0.0 && (best == 0.0 || median < best)) {
        best = median;
        p->dir_queue[DIR_UP] = a;
        p->dir_queue[DIR_DOWN] = b;
      }
    }
  p->pairings = g_string_free (said, FALSE);
  return TRUE;

fail:
  g_string_free (said, TRUE);
  return FALSE;
}

BenchPcie *
bench_pcie_new (GstVulkanDevice * gdev, gsize bytes, GError ** error)
{
  BenchPcie *p = g_new0 (BenchPcie, 1);
  guint32 families[MAX_FAMILIES];
  guint n_families = 0;

  p->timestamp_period =
      gdev->physical_device->properties.limits.timestampPeriod;
  if (!make_device (p, gdev, families, &n_families, error)
      || !make_buffers (p, gdev, bytes, families, n_families, error)
      || !record_copies (p, bytes, families, n_families, error)
      || !choose_pairing (p, error)) {
    bench_pcie_free (p);
    return NULL;
  }
  return p;
}

gboolean
bench_pcie_time (BenchPcie * p, BenchPcieMode mode, gdouble * ns,
    GError ** error)
{
  guint dirs = mode == BENCH_PCIE_UP ? 1u << DIR_UP :
      mode == BENCH_PCIE_DOWN ? 1u << DIR_DOWN : 3;

  return time_pairing (p, p->dir_queue, dirs, ns, error);
}

/* Whether BENCH_PCIE_BOTH can overlap the two directions at all. */
gboolean
bench_pcie_overlaps (BenchPcie * p)
{
  return p->dir_queue[DIR_UP] != p->dir_queue[DIR_DOWN];
}

const gchar *
bench_pcie_pairings (BenchPcie * p)
{
  return p->pairings;
}

gboolean
bench_pcie_host_is_device_local (BenchPcie * p)
{
  return p->host_device_local;
}

void
bench_pcie_free (BenchPcie * p)
{
  guint i, d;

  if (!p)
    return;
  if (p->device) {
    vkDeviceWaitIdle (p->device);
    for (i = 0; i < p->n_queues; i++)
      for (d = 0; d < N_DIRS; d++)
        if (p->queues[i].fences[d])
          vkDestroyFence (p->device, p->queues[i].fences[d], NULL);
    if (p->queries)
      vkDestroyQueryPool (p->device, p->queries, NULL);
    for (i = 0; i < p->n_pools; i++)
      vkDestroyCommandPool (p->device, p->pools[i], NULL);
    for (i = 0; i < 4; i++) {
      if (p->buffers[i])
        vkDestroyBuffer (p->device, p->buffers[i], NULL);
      if (p->memory[i])
        vkFreeMemory (p->device, p->memory[i], NULL);
    }
    vkDestroyDevice (p->device, NULL);
  }
  g_free (p->pairings);
  g_free (p);
}
