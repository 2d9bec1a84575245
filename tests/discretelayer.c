/* tests/discretelayer.c: a Vulkan layer that makes a device whose memory
 * is all one kind (lavapipe: device-local, host-visible, coherent, cached)
 * look like a discrete GPU's — device-local memory the host cannot map,
 * and host memory apart from it — so that the paths vktile takes on a
 * discrete GPU (frames moved across the bus by the copy shader, outputs
 * written across it, transfers paired between frames) run, and are
 * checked, on a machine without one. Every kind is still the device's one
 * memory type underneath: only what the device says changes. Test-only:
 * nothing in the plugin knows about it.
 *
 * Enabled as an explicit layer (manifest vktile_discrete_layer.json next
 * to the library; VK_LAYER_PATH and VK_INSTANCE_LAYERS), as
 * tests/run.sh does for the suites it runs a second time with
 * VKTILE_DISCRETE=1.
 *
 * The memory types shown: 0 device-local (heap 0); 1 host-visible and
 * coherent, 2 host-visible, coherent and cached (heap 1). Imported host
 * memory can be of types 1 and 2 only.
 */
#include <string.h>

#include "vklayer.h"

#define MAX_RECORDS 64
#define N_TYPES 3
#define ALL_TYPES 0x7u
#define HOST_TYPES 0x6u

typedef struct
{
  VkLayerKey k;
  /* instances */
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
  PFN_vkDestroyInstance DestroyInstance;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties;
  PFN_vkGetPhysicalDeviceMemoryProperties2 GetPhysicalDeviceMemoryProperties2;
  /* devices */
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
  PFN_vkDestroyDevice DestroyDevice;
  PFN_vkAllocateMemory AllocateMemory;
  PFN_vkGetBufferMemoryRequirements GetBufferMemoryRequirements;
  PFN_vkGetBufferMemoryRequirements2 GetBufferMemoryRequirements2;
  PFN_vkGetImageMemoryRequirements GetImageMemoryRequirements;
  PFN_vkGetImageMemoryRequirements2 GetImageMemoryRequirements2;
  PFN_vkGetMemoryHostPointerPropertiesEXT GetMemoryHostPointerPropertiesEXT;
  uint32_t real_type;           /* the device's one host-visible type */
} Record;

static Record instances[MAX_RECORDS], devices[MAX_RECORDS];

#define find(table, handle) \
  ((Record *) vklayer_find ((table), MAX_RECORDS, sizeof (Record), (handle)))
#define add(table, handle) \
  ((Record *) vklayer_add ((table), MAX_RECORDS, sizeof (Record), (handle)))

/* ---- what the device says about its memory ---- */

/* The first type that is host-visible: what every kind shown is made of. */
static uint32_t
real_host_type (const VkPhysicalDeviceMemoryProperties * real)
{
  uint32_t i;

  for (i = 0; i < real->memoryTypeCount; i++)
    if (real->memoryTypes[i].propertyFlags &
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
      return i;
  return 0;
}

static void
split_memory (VkPhysicalDeviceMemoryProperties * p)
{
  VkPhysicalDeviceMemoryProperties real = *p;
  VkDeviceSize size = real.memoryHeaps[real.memoryTypes[real_host_type
          (&real)].heapIndex].size;

  memset (p, 0, sizeof (*p));
  p->memoryHeapCount = 2;
  p->memoryHeaps[0].size = size / 2;
  p->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
  p->memoryHeaps[1].size = size / 2;
  p->memoryTypeCount = N_TYPES;
  p->memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  p->memoryTypes[0].heapIndex = 0;
  p->memoryTypes[1].propertyFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  p->memoryTypes[1].heapIndex = 1;
  p->memoryTypes[2].propertyFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
      VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  p->memoryTypes[2].heapIndex = 1;
}

static VKAPI_ATTR void VKAPI_CALL
discrete_GetPhysicalDeviceMemoryProperties (VkPhysicalDevice physical,
    VkPhysicalDeviceMemoryProperties * p)
{
  Record *inst = find (instances, physical);

  inst->GetPhysicalDeviceMemoryProperties (physical, p);
  split_memory (p);
}

static VKAPI_ATTR void VKAPI_CALL
discrete_GetPhysicalDeviceMemoryProperties2 (VkPhysicalDevice physical,
    VkPhysicalDeviceMemoryProperties2 * p)
{
  Record *inst = find (instances, physical);

  inst->GetPhysicalDeviceMemoryProperties2 (physical, p);
  split_memory (&p->memoryProperties);
}

static VKAPI_ATTR VkResult VKAPI_CALL
discrete_AllocateMemory (VkDevice device, const VkMemoryAllocateInfo * info,
    const VkAllocationCallbacks * a, VkDeviceMemory * mem)
{
  Record *dev = find (devices, device);
  VkMemoryAllocateInfo real = *info;

  if (info->memoryTypeIndex >= N_TYPES)
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  real.memoryTypeIndex = dev->real_type;
  return dev->AllocateMemory (device, &real, a, mem);
}

static uint32_t
shown_types (uint32_t real_bits, uint32_t real_type, uint32_t types)
{
  return (real_bits & (1u << real_type)) ? types : 0;
}

/* A resource the device's one type can hold: any of the types shown. */
static void
show_all_types (Record * dev, VkMemoryRequirements * r)
{
  r->memoryTypeBits = shown_types (r->memoryTypeBits, dev->real_type,
      ALL_TYPES);
}

static VKAPI_ATTR void VKAPI_CALL
discrete_GetBufferMemoryRequirements (VkDevice device, VkBuffer buffer,
    VkMemoryRequirements * r)
{
  Record *dev = find (devices, device);

  dev->GetBufferMemoryRequirements (device, buffer, r);
  show_all_types (dev, r);
}

static VKAPI_ATTR void VKAPI_CALL
discrete_GetBufferMemoryRequirements2 (VkDevice device,
    const VkBufferMemoryRequirementsInfo2 * info, VkMemoryRequirements2 * r)
{
  Record *dev = find (devices, device);

  dev->GetBufferMemoryRequirements2 (device, info, r);
  show_all_types (dev, &r->memoryRequirements);
}

static VKAPI_ATTR void VKAPI_CALL
discrete_GetImageMemoryRequirements (VkDevice device, VkImage image,
    VkMemoryRequirements * r)
{
  Record *dev = find (devices, device);

  dev->GetImageMemoryRequirements (device, image, r);
  show_all_types (dev, r);
}

static VKAPI_ATTR void VKAPI_CALL
discrete_GetImageMemoryRequirements2 (VkDevice device,
    const VkImageMemoryRequirementsInfo2 * info, VkMemoryRequirements2 * r)
{
  Record *dev = find (devices, device);

  dev->GetImageMemoryRequirements2 (device, info, r);
  show_all_types (dev, &r->memoryRequirements);
}

static VKAPI_ATTR VkResult VKAPI_CALL
discrete_GetMemoryHostPointerPropertiesEXT (VkDevice device,
    VkExternalMemoryHandleTypeFlagBits type, const void *host,
    VkMemoryHostPointerPropertiesEXT * p)
{
  Record *dev = find (devices, device);
  VkResult res = dev->GetMemoryHostPointerPropertiesEXT (device, type, host,
      p);

  if (res == VK_SUCCESS)
    p->memoryTypeBits = shown_types (p->memoryTypeBits, dev->real_type,
        HOST_TYPES);
  return res;
}

/* ---- the layer's plumbing ---- */

static VKAPI_ATTR void VKAPI_CALL
discrete_DestroyDevice (VkDevice device, const VkAllocationCallbacks * a)
{
  Record *dev = find (devices, device);
  PFN_vkDestroyDevice destroy = dev->DestroyDevice;

  vklayer_drop (dev);
  destroy (device, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL
discrete_CreateDevice (VkPhysicalDevice physical,
    const VkDeviceCreateInfo * info, const VkAllocationCallbacks * a,
    VkDevice * device)
{
  Record *inst = find (instances, physical), *dev;
  VkPhysicalDeviceMemoryProperties real;
  PFN_vkGetDeviceProcAddr gdpa;
  VkResult res;

  if (!inst)
    return VK_ERROR_INITIALIZATION_FAILED;
  res = vklayer_create_device (physical, info, a, device, &gdpa);
  if (res != VK_SUCCESS)
    return res;
  if (!(dev = add (devices, *device)))
    return VK_ERROR_TOO_MANY_OBJECTS;
  inst->GetPhysicalDeviceMemoryProperties (physical, &real);
  dev->real_type = real_host_type (&real);
  dev->GetDeviceProcAddr = gdpa;
#define NEXT(name) dev->name = (PFN_vk ## name) gdpa (*device, "vk" #name)
  NEXT (DestroyDevice);
  NEXT (AllocateMemory);
  NEXT (GetBufferMemoryRequirements);
  NEXT (GetBufferMemoryRequirements2);
  NEXT (GetImageMemoryRequirements);
  NEXT (GetImageMemoryRequirements2);
  NEXT (GetMemoryHostPointerPropertiesEXT);
#undef NEXT
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
discrete_DestroyInstance (VkInstance instance, const VkAllocationCallbacks * a)
{
  Record *inst = find (instances, instance);
  PFN_vkDestroyInstance destroy = inst->DestroyInstance;

  vklayer_drop (inst);
  destroy (instance, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL
discrete_CreateInstance (const VkInstanceCreateInfo * info,
    const VkAllocationCallbacks * a, VkInstance * instance)
{
  PFN_vkGetInstanceProcAddr gipa;
  VkResult res = vklayer_create_instance (info, a, instance, &gipa);
  Record *inst;

  if (res != VK_SUCCESS)
    return res;
  if (!(inst = add (instances, *instance)))
    return VK_ERROR_TOO_MANY_OBJECTS;
  inst->GetInstanceProcAddr = gipa;
#define NEXT(name) inst->name = (PFN_vk ## name) gipa (*instance, "vk" #name)
  NEXT (DestroyInstance);
  NEXT (GetPhysicalDeviceMemoryProperties);
  NEXT (GetPhysicalDeviceMemoryProperties2);
#undef NEXT
  return VK_SUCCESS;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL discrete_GetDeviceProcAddr
    (VkDevice device, const char *name);

static PFN_vkVoidFunction
intercepted_device_function (const char *name)
{
#define OURS(fn) if (!strcmp (name, "vk" #fn)) return (PFN_vkVoidFunction) discrete_ ## fn
  OURS (GetDeviceProcAddr);
  OURS (DestroyDevice);
  OURS (AllocateMemory);
  OURS (GetBufferMemoryRequirements);
  OURS (GetBufferMemoryRequirements2);
  OURS (GetImageMemoryRequirements);
  OURS (GetImageMemoryRequirements2);
  OURS (GetMemoryHostPointerPropertiesEXT);
#undef OURS
  if (!strcmp (name, "vkGetBufferMemoryRequirements2KHR"))
    return (PFN_vkVoidFunction) discrete_GetBufferMemoryRequirements2;
  if (!strcmp (name, "vkGetImageMemoryRequirements2KHR"))
    return (PFN_vkVoidFunction) discrete_GetImageMemoryRequirements2;
  return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
discrete_GetDeviceProcAddr (VkDevice device, const char *name)
{
  PFN_vkVoidFunction ours = intercepted_device_function (name);
  Record *dev;

  if (ours)
    return ours;
  dev = find (devices, device);
  return dev ? dev->GetDeviceProcAddr (device, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
discrete_GetInstanceProcAddr (VkInstance instance, const char *name)
{
  PFN_vkVoidFunction ours;
  Record *inst;

  if (!strcmp (name, "vkGetInstanceProcAddr"))
    return (PFN_vkVoidFunction) discrete_GetInstanceProcAddr;
  if (!strcmp (name, "vkCreateInstance"))
    return (PFN_vkVoidFunction) discrete_CreateInstance;
  if (!strcmp (name, "vkDestroyInstance"))
    return (PFN_vkVoidFunction) discrete_DestroyInstance;
  if (!strcmp (name, "vkCreateDevice"))
    return (PFN_vkVoidFunction) discrete_CreateDevice;
  if (!strcmp (name, "vkGetPhysicalDeviceMemoryProperties"))
    return (PFN_vkVoidFunction) discrete_GetPhysicalDeviceMemoryProperties;
  if (!strcmp (name, "vkGetPhysicalDeviceMemoryProperties2")
      || !strcmp (name, "vkGetPhysicalDeviceMemoryProperties2KHR"))
    return (PFN_vkVoidFunction) discrete_GetPhysicalDeviceMemoryProperties2;
  if ((ours = intercepted_device_function (name)))
    return ours;
  if (!instance || !(inst = find (instances, instance)))
    return NULL;
  return inst->GetInstanceProcAddr (instance, name);
}

VKLAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion (VkNegotiateLayerInterface * iface)
{
  return vklayer_negotiate (iface, discrete_GetInstanceProcAddr,
      discrete_GetDeviceProcAddr);
}
