/* tests/vklayer.c: the records and the loader chain of the tests' Vulkan
 * layers (vklayer.h). */
#include "vklayer.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *
dispatch_key (const void *handle)
{
  return *(void *const *) handle;
}

void *
vklayer_find (void *table, size_t count, size_t size, const void *handle)
{
  void *key = dispatch_key (handle), *found = NULL;
  size_t i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < count && !found; i++) {
    VkLayerKey *k = (VkLayerKey *) ((char *) table + i * size);
    if (k->in_use && k->key == key)
      found = k;
  }
  pthread_mutex_unlock (&lock);
  return found;
}

void *
vklayer_add (void *table, size_t count, size_t size, const void *handle)
{
  VkLayerKey *added = NULL;
  size_t i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < count && !added; i++) {
    VkLayerKey *k = (VkLayerKey *) ((char *) table + i * size);
    if (!k->in_use) {
      memset (k, 0, size);
      k->in_use = 1;
      k->key = dispatch_key (handle);
      added = k;
    }
  }
  pthread_mutex_unlock (&lock);
  return added;
}

void
vklayer_drop (void *record)
{
  pthread_mutex_lock (&lock);
  ((VkLayerKey *) record)->in_use = 0;
  pthread_mutex_unlock (&lock);
}

VkResult
vklayer_create_instance (const VkInstanceCreateInfo * info,
    const VkAllocationCallbacks * a, VkInstance * instance,
    PFN_vkGetInstanceProcAddr * gipa)
{
  VkLayerInstanceCreateInfo *chain = (VkLayerInstanceCreateInfo *) info->pNext;
  PFN_vkCreateInstance create;

  while (chain
      && !(chain->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO
          && chain->function == VK_LAYER_LINK_INFO))
    chain = (VkLayerInstanceCreateInfo *) chain->pNext;
  if (!chain)
    return VK_ERROR_INITIALIZATION_FAILED;
  *gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
  create = (PFN_vkCreateInstance) (*gipa) (VK_NULL_HANDLE, "vkCreateInstance");
  return create (info, a, instance);
}

VkResult
vklayer_create_device (VkPhysicalDevice physical,
    const VkDeviceCreateInfo * info, const VkAllocationCallbacks * a,
    VkDevice * device, PFN_vkGetDeviceProcAddr * gdpa)
{
  VkLayerDeviceCreateInfo *chain = (VkLayerDeviceCreateInfo *) info->pNext;
  PFN_vkGetInstanceProcAddr gipa;
  PFN_vkCreateDevice create;

  while (chain && !(chain->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO
          && chain->function == VK_LAYER_LINK_INFO))
    chain = (VkLayerDeviceCreateInfo *) chain->pNext;
  if (!chain)
    return VK_ERROR_INITIALIZATION_FAILED;
  gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  *gdpa = chain->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
  create = (PFN_vkCreateDevice) gipa (VK_NULL_HANDLE, "vkCreateDevice");
  return create (physical, info, a, device);
}

VkResult
vklayer_negotiate (VkNegotiateLayerInterface * iface,
    PFN_vkGetInstanceProcAddr gipa, PFN_vkGetDeviceProcAddr gdpa)
{
  if (iface->loaderLayerInterfaceVersion < 2)
    return VK_ERROR_INITIALIZATION_FAILED;
  iface->loaderLayerInterfaceVersion = 2;
  iface->pfnGetInstanceProcAddr = gipa;
  iface->pfnGetDeviceProcAddr = gdpa;
  iface->pfnGetPhysicalDeviceProcAddr = NULL;
  return VK_SUCCESS;
}
