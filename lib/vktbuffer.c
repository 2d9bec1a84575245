/* vktbuffer.c: the compute helper's buffers. vkt_buffer_alloc() makes
 * them with VktBufferAllocator, vktile's subclass of gstvulkan's buffer
 * memory allocator, whose map waits for the GPU; each memory remembers the
 * last submission that used it (vkt_memory_set_sync(), vkt_memory_wait());
 * vkt_buffer_import_host() wraps system memory as a buffer
 * (VK_EXT_external_memory_host). */
#include "vktcompute-private.h"

/* ---- buffers and the submissions that use them ---- */

static GMutex memory_sync_lock;

/* Streaming threads of several elements ask for it at once. */
static GQuark
memory_sync_quark (void)
{
  static gsize quark;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark,
        g_quark_from_static_string ("vktile-memory-sync"));
  return (GQuark) quark;
}

void
vkt_memory_set_sync (GstMemory * mem, VktSync * sync)
{
  g_mutex_lock (&memory_sync_lock);
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), memory_sync_quark (),
      vkt_sync_ref (sync), (GDestroyNotify) vkt_sync_unref);
  g_mutex_unlock (&memory_sync_lock);
}

gboolean
vkt_memory_wait (GstMemory * mem, GError ** error)
{
  VktSync *sync;
  gboolean ok = TRUE;

  g_mutex_lock (&memory_sync_lock);
  sync = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
      memory_sync_quark ());
  if (sync)
    vkt_sync_ref (sync);
  g_mutex_unlock (&memory_sync_lock);
  if (sync) {
    ok = vkt_sync_wait (sync, error);
    vkt_sync_unref (sync);
  }
  return ok;
}

gboolean
vkt_buffer_wait (GstBuffer * buffer, GError ** error)
{
  guint i;

  for (i = 0; i < gst_buffer_n_memory (buffer); i++)
    if (!vkt_memory_wait (gst_buffer_peek_memory (buffer, i), error))
      return FALSE;
  return TRUE;
}

/* gstvulkan's buffer memory allocator, except that mapping a memory first
 * waits for the last submission that used it: whoever touches a frame from
 * the CPU sees the GPU's work on it finished, however the frame got there.
 * A subclass, so that its memories are GstVulkanBufferMemory to gstvulkan
 * (gst_is_vulkan_buffer_memory()) and its elements downstream take them;
 * gstvulkan's class free releases them, and its unmap, copy and share
 * apply unchanged. */
typedef struct
{
  GstVulkanBufferMemoryAllocator parent;
  /* gstvulkan installs its map in the instance (GstAllocator has no map
   * in the class): the one this instance's init found there. */
  GstMemoryMapFullFunction parent_map_full;
} VktBufferAllocator;

typedef struct
{
  GstVulkanBufferMemoryAllocatorClass parent_class;
} VktBufferAllocatorClass;

static gpointer
vkt_buffer_map_full (GstMemory * mem, GstMapInfo * info, gsize maxsize)
{
  VktBufferAllocator *self = (VktBufferAllocator *) mem->allocator;
  GError *error = NULL;

  if (!vkt_memory_wait (mem, &error)) {
    GST_WARNING ("not mapping a buffer whose GPU work failed: %s",
        error->message);
    g_clear_error (&error);
    return NULL;
  }
  return self->parent_map_full (mem, info, maxsize);
}

static void
vkt_buffer_allocator_init (GTypeInstance * instance, gpointer klass)
{
  VktBufferAllocator *self = (VktBufferAllocator *) instance;
  GstAllocator *alloc = GST_ALLOCATOR_CAST (instance);

  /* gstvulkan's instance init has run (GType runs the parents' first). */
  self->parent_map_full = alloc->mem_map_full;
  alloc->mem_map_full = vkt_buffer_map_full;
}

/* This file is linked into the plugin and into the benchmark, which loads
 * the plugin: whichever registers the type first, the other uses it, so a
 * memory of either copy's allocator may map through the other copy's
 * functions (the two copies of the code are the same). */
static GType
vkt_buffer_allocator_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    GType t = g_type_from_name ("VktBufferAllocator");
    if (!t)
      t = g_type_register_static_simple
          (GST_TYPE_VULKAN_BUFFER_MEMORY_ALLOCATOR, "VktBufferAllocator",
          sizeof (VktBufferAllocatorClass), NULL, sizeof (VktBufferAllocator),
          vkt_buffer_allocator_init, 0);
    g_once_init_leave (&type, t);
  }
  return type;
}

static GstAllocator *
buffer_allocator (void)
{
  static GstAllocator *allocator = NULL;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a;
    /* What the memories need, set up before the first: vktile's debug
     * category (a failed allocation and the map log to it, maybe before
     * any VktCompute exists), gstvulkan's buffer memory category (its free
     * logs to it) and gstvulkan's allocator of the device memory behind
     * each buffer. */
    vkt_ensure_debug ();
    gst_vulkan_buffer_memory_init_once ();
    gst_vulkan_memory_init_once ();
    a = g_object_new (vkt_buffer_allocator_get_type (), NULL);
    gst_object_ref_sink (a);
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&allocator, a);
  }
  return allocator;
}

/* A GstVulkanBufferMemory of `allocator`, built as gstvulkan 1.22's
 * gst_vulkan_buffer_memory_alloc() builds one of its own (same fields, same
 * sizes and alignment), so that gstvulkan's free, unmap and barriers treat
 * it as theirs. Once the memory exists it owns the buffer, and a failure
 * after that frees it through gstvulkan's free, which takes a memory
 * without device memory or binding. */
static GstMemory *
buffer_memory_new (GstAllocator * allocator, GstVulkanDevice * device,
    gsize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags props,
    GError ** error)
{
  VkBufferCreateInfo buffer_info = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
    .size = size,
    .usage = usage,
    .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  GstAllocationParams params = { 0, };
  GstVulkanBufferMemory *mem = NULL;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkMemoryRequirements req;
  guint32 type_idx;
  gsize align;

  if (!vkt_check_vk (vkCreateBuffer (device->device, &buffer_info, NULL,
              &buffer), error, "vkCreateBuffer"))
    return NULL;
  vkGetBufferMemoryRequirements (device->device, buffer, &req);
  /* A GstMemory's alignment is a mask. */
  if (req.alignment & (req.alignment - 1)) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FORMAT_NOT_SUPPORTED,
        "the buffer needs an alignment of %" G_GUINT64_FORMAT ", not a power "
        "of 2", (guint64) req.alignment);
    goto fail;
  }
  params.align = req.alignment - 1;
  align = gst_memory_alignment | params.align;

  mem = g_new0 (GstVulkanBufferMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), 0, allocator, NULL, size + align,
      align, 0, size);
  mem->device = gst_object_ref (device);
  mem->buffer = buffer;
  buffer = VK_NULL_HANDLE;
  mem->requirements = req;
  mem->usage = usage;
  mem->barrier.parent.type = GST_VULKAN_BARRIER_TYPE_BUFFER;
  mem->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
  mem->barrier.parent.access_flags = 0;
  g_mutex_init (&mem->lock);

  if (!gst_vulkan_memory_find_memory_type_index_with_type_properties (device,
          req.memoryTypeBits, props, &type_idx)) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FORMAT_NOT_SUPPORTED,
        "no memory type can hold the buffer with these properties");
    goto fail;
  }
  mem->vk_mem = (GstVulkanMemory *) gst_vulkan_memory_alloc (device, type_idx,
      &params, req.size, props);
  if (!mem->vk_mem) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_OUT_OF_DEVICE_MEMORY,
        "cannot allocate the buffer's device memory");
    goto fail;
  }
  if (!vkt_check_vk (vkBindBufferMemory (device->device, mem->buffer,
              mem->vk_mem->mem_ptr, 0), error, "vkBindBufferMemory"))
    goto fail;
  return GST_MEMORY_CAST (mem);

fail:
  if (mem)
    gst_memory_unref (GST_MEMORY_CAST (mem));
  if (buffer)
    vkDestroyBuffer (device->device, buffer, NULL);
  return NULL;
}

static GstMemory *
alloc_with_props (GstVulkanDevice * device, gsize size,
    VkMemoryPropertyFlags props, GError ** error)
{
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkDeviceSize largest = vkt_device_largest_buffer (device);
  GError *cause = NULL;
  GstMemory *mem;

  if (GST_ROUND_UP_4 ((guint64) size) > largest) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_OUT_OF_DEVICE_MEMORY,
        "The frame needs a buffer of %" G_GSIZE_FORMAT " bytes; this device "
        "allocates at most %" G_GUINT64_FORMAT, size, (guint64) largest);
    return NULL;
  }
  /* Storage buffers are read as whole words: round up so the last word of a
   * plane never reaches past the allocation. */
  mem = buffer_memory_new (buffer_allocator (), device,
      GST_ROUND_UP_4 (MAX (size, 4)), usage, props, &cause);
  if (!mem) {
    /* The element reports the buffer it could not have; the call that
     * failed is for the log. */
    GST_WARNING ("%s", cause->message);
    g_clear_error (&cause);
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_OUT_OF_DEVICE_MEMORY,
        "Cannot allocate a %s Vulkan buffer of %" G_GSIZE_FORMAT " bytes",
        props & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT ? "host-visible" :
        "device-local", size);
  }
  return mem;
}

GstMemory *
vkt_buffer_alloc (GstVulkanDevice * device, gsize size, gboolean host_visible,
    GError ** error)
{
  return alloc_with_props (device, size, host_visible ?
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
      : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, error);
}

GstMemory *
vkt_buffer_alloc_host_cached (GstVulkanDevice * device, gsize size,
    GError ** error)
{
  GstMemory *mem = alloc_with_props (device, size,
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
      | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, NULL);

  return mem ? mem : vkt_buffer_alloc (device, size, TRUE, error);
}

/* ---- importing system memory ---- */

typedef struct
{
  GstVulkanDevice *device;
  VkDeviceMemory memory;
} HostImport;

static void
host_import_free (gpointer data)
{
  HostImport *imp = data;

  if (imp->memory)
    vkFreeMemory (imp->device->device, imp->memory, NULL);
  gst_object_unref (imp->device);
  g_free (imp);
}

GstMemory *
vkt_buffer_import_host (GstVulkanDevice * device, gsize alignment,
    gconstpointer data, gsize size, gsize * offset, GError ** error)
{
  VkDevice dev = device->device;
  PFN_vkGetMemoryHostPointerPropertiesEXT get_props =
      (PFN_vkGetMemoryHostPointerPropertiesEXT)
      gst_vulkan_device_get_proc_address (device,
      "vkGetMemoryHostPointerPropertiesEXT");
  const VkExternalMemoryHandleTypeFlagBits type =
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  guintptr start = GPOINTER_TO_SIZE (data) & ~(guintptr) (alignment - 1);
  gsize span = GST_ROUND_UP_N (GPOINTER_TO_SIZE (data) + size - start,
      alignment);
  VkMemoryHostPointerPropertiesEXT host_props = {
    .sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT,
  };
  VkExternalMemoryBufferCreateInfo external = {
    .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
    .handleTypes = type,
  };
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  VkBufferCreateInfo buffer_info = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
    .pNext = &external,
    .size = span,
    .usage = usage,
    .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  VkImportMemoryHostPointerInfoEXT import = {
    .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
    .handleType = type,
    .pHostPointer = GSIZE_TO_POINTER (start),
  };
  VkMemoryAllocateInfo alloc = {
    .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
    .pNext = &import,
    .allocationSize = span,
  };
  VkMemoryRequirements req;
  VkBuffer buffer = VK_NULL_HANDLE;
  HostImport *imp = NULL;
  guint32 types;
  GstMemory *mem;

  if (!alignment || !get_props) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_EXTENSION_NOT_PRESENT,
        "%s is not enabled", HOST_IMPORT_EXTENSION);
    return NULL;
  }
  if (!vkt_check_vk (get_props (dev, type, import.pHostPointer, &host_props),
          error, "vkGetMemoryHostPointerPropertiesEXT"))
    return NULL;
  if (!vkt_check_vk (vkCreateBuffer (dev, &buffer_info, NULL, &buffer), error,
          "vkCreateBuffer"))
    return NULL;
  vkGetBufferMemoryRequirements (dev, buffer, &req);
  types = req.memoryTypeBits & host_props.memoryTypeBits;
  if (!types) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FORMAT_NOT_SUPPORTED,
        "no memory type can hold both a buffer and this host memory");
    goto fail;
  }
  alloc.memoryTypeIndex = g_bit_nth_lsf (types, -1);
  imp = g_new0 (HostImport, 1);
  imp->device = gst_object_ref (device);
  if (!vkt_check_vk (vkAllocateMemory (dev, &alloc, NULL, &imp->memory), error,
          "vkAllocateMemory (host pointer)"))
    goto fail;
  if (!vkt_check_vk (vkBindBufferMemory (dev, buffer, imp->memory, 0), error,
          "vkBindBufferMemory"))
    goto fail;
  /* gstvulkan's allocator, not vkt_buffer_alloc()'s: a wrapped buffer is
   * not mappable (gstvulkan flags it so and has no device memory of its own
   * to map), so a waiting map would never run. The CPU reaches these bytes
   * only through the system memory they came from, and the elements keep
   * the frame holding it until the GPU has read it. */
  mem = gst_vulkan_buffer_memory_wrapped (device, buffer, usage, imp,
      host_import_free);
  /* The wrapper does not destroy a buffer it did not create. */
  imp = NULL;
  if (!mem)
    goto fail;
  *offset = GPOINTER_TO_SIZE (data) - start;
  return mem;

fail:
  if (buffer)
    vkDestroyBuffer (dev, buffer, NULL);
  if (imp)
    host_import_free (imp);
  return NULL;
}

gboolean
vkt_memory_is_device_local (GstMemory * mem)
{
  GstVulkanBufferMemory *bm = (GstVulkanBufferMemory *) mem;
  return (bm->vk_mem->properties & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
}
