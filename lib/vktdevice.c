/* vktdevice.c: the compute helper's device functions: choosing a device
 * (device-index, device-name) and requesting host memory import before it is
 * opened, finding its compute queue, its capabilities (separate VRAM, host
 * import alignment, largest buffer, subgroup shuffles), and the cache every
 * VktCompute on it shares (pipelines, idle fences, the submit lock).
 * Pipelines and idle fences live in that cache, attached to the
 * GstVulkanDevice (so every element on a device shares them, and they go
 * away with the device); everything else belongs to one VktCompute. */
#include "vktcompute-private.h"

#include <string.h>

/* Runs when the GstVulkanDevice is disposed, while its VkDevice still
 * exists. Every VktSync holds the device, so no fence is out by then. */
static void
device_cache_destroy (gpointer data, GObject * where_the_device_was)
{
  VktDeviceCache *cache = data;
  GHashTableIter iter;
  gpointer value;
  guint i;

  g_hash_table_iter_init (&iter, cache->pipelines);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    vkt_pipeline_free (value, cache->device);
  g_hash_table_unref (cache->pipelines);
  for (i = 0; i < cache->idle_fences->len; i++)
    vkDestroyFence (cache->device, g_array_index (cache->idle_fences, VkFence,
            i), NULL);
  g_array_unref (cache->idle_fences);
  g_mutex_clear (&cache->lock);
  g_mutex_clear (&cache->submit_lock);
  g_free (cache);
}

VktDeviceCache *
vkt_device_cache_get (GstVulkanDevice * device)
{
  static GMutex lock;
  VktDeviceCache *cache;

  g_mutex_lock (&lock);
  cache = g_object_get_data (G_OBJECT (device), "vktile-device-cache");
  if (!cache) {
    cache = g_new0 (VktDeviceCache, 1);
    g_mutex_init (&cache->lock);
    g_mutex_init (&cache->submit_lock);
    cache->device = device->device;
    cache->pipelines = g_hash_table_new_full (g_str_hash, g_str_equal,
        g_free, NULL);
    cache->idle_fences = g_array_new (FALSE, FALSE, sizeof (VkFence));
    g_object_set_data (G_OBJECT (device), "vktile-device-cache", cache);
    g_object_weak_ref (G_OBJECT (device), device_cache_destroy, cache);
  }
  g_mutex_unlock (&lock);
  return cache;
}

/* Fills the property structures chained at `chain` (vkGetPhysicalDevice-
 * Properties2); FALSE on a Vulkan 1.0 instance, which has no such call. */
static gboolean
get_properties2 (GstVulkanDevice * device, void *chain)
{
  VkPhysicalDeviceProperties2 props = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
    .pNext = chain,
  };
  PFN_vkGetPhysicalDeviceProperties2 get_props2 =
      (PFN_vkGetPhysicalDeviceProperties2)
      gst_vulkan_instance_get_proc_address (device->instance,
      "vkGetPhysicalDeviceProperties2");

  if (!get_props2)
    return FALSE;
  get_props2 (device->physical_device->device, &props);
  return TRUE;
}

/* The subgroup size of compute shaders when they have the shuffle
 * operations (and the vote and ballot ones the tiled scans use with
 * them), else 0. */
guint
vkt_device_shuffle_subgroup_size (GstVulkanDevice * device)
{
  VkPhysicalDeviceSubgroupProperties sub = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
  };
  const VkSubgroupFeatureFlags need = VK_SUBGROUP_FEATURE_BASIC_BIT
      | VK_SUBGROUP_FEATURE_SHUFFLE_BIT
      | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT
      | VK_SUBGROUP_FEATURE_VOTE_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;

  if (!get_properties2 (device, &sub))
    return 0;
  if (!(sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)
      || (sub.supportedOperations & need) != need)
    return 0;
  return sub.subgroupSize;
}

/* The largest buffer the plugin allocates on `device`: the device's
 * largest allocation, and never 4 GiB or more, since the shaders address
 * buffers with 32-bit indices. (lavapipe says storage ranges end at
 * 128 MiB yet reads and writes larger ones correctly; the 8K frames of the
 * tests bind more, so that limit is not applied.) */
guint64
vkt_device_largest_buffer (GstVulkanDevice * device)
{
  VkPhysicalDeviceMaintenance3Properties m3 = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
  };
  VkDeviceSize limit = G_MAXUINT32;

  if (get_properties2 (device, &m3) && m3.maxMemoryAllocationSize)
    limit = MIN (limit, m3.maxMemoryAllocationSize);
  return limit;
}

gboolean
vkt_device_is_chosen (guint device_index, const gchar * device_name,
    gint index, const gchar * name)
{
  gchar *have, *want;
  gboolean found;

  if (index >= 0 && (guint) index != device_index)
    return FALSE;
  if (!name)
    return TRUE;
  have = g_utf8_casefold (device_name, -1);
  want = g_utf8_casefold (name, -1);
  found = strstr (have, want) != NULL;
  g_free (have);
  g_free (want);
  return found;
}

GstVulkanDevice *
vkt_device_new_chosen (GstVulkanInstance * instance, gint index,
    const gchar * name, GError ** error)
{
  GString *list = g_string_new (NULL);
  GstVulkanDevice *device = NULL;
  guint i;

  for (i = 0; i < instance->n_physical_devices; i++) {
    VkPhysicalDeviceProperties props;

    vkGetPhysicalDeviceProperties (instance->physical_devices[i], &props);
    g_string_append_printf (list, "%s%u: %s", i ? ", " : "", i,
        props.deviceName);
    if (!device && vkt_device_is_chosen (i, props.deviceName, index, name)) {
      device = gst_vulkan_device_new_with_index (instance, i);
      vkt_device_request_host_import (device);
    }
  }
  if (!device)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "No Vulkan device matches device-index=%d device-name=\"%s\" "
        "(devices: %s)", index, name ? name : "",
        list->len ? list->str : "none");
  g_string_free (list, TRUE);
  return device;
}

void
vkt_device_request_host_import (GstVulkanDevice * device)
{
  gst_vulkan_device_enable_extension (device, "VK_KHR_external_memory");
  gst_vulkan_device_enable_extension (device, HOST_IMPORT_EXTENSION);
}

gsize
vkt_device_host_import_alignment (GstVulkanDevice * device)
{
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {
    .sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT,
  };

  if (!gst_vulkan_device_is_extension_enabled (device, HOST_IMPORT_EXTENSION)
      || !get_properties2 (device, &host))
    return 0;
  return host.minImportedHostPointerAlignment;
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
