/* tests/vklayer.h: what the tests' Vulkan layers (faultlayer.c,
 * discretelayer.c) share — a table of records, one per instance or
 * device, found from any dispatchable handle of it, and the walk of the
 * loader's chain that gives a layer the next layer's functions when an
 * instance or device is created, and the negotiation with the loader. */
#ifndef VKLAYER_H
#define VKLAYER_H

#include <stddef.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define VKLAYER_EXPORT __attribute__((visibility ("default")))

/* The first member of a layer's record. */
typedef struct
{
  void *key;                    /* the loader's dispatch table pointer */
  int in_use;
} VkLayerKey;

/* `table` holds `count` records of `size` bytes, each starting with a
 * VkLayerKey. NULL: none (find), or the table is full (add). */
void *vklayer_find (void *table, size_t count, size_t size,
    const void *handle);
void *vklayer_add (void *table, size_t count, size_t size,
    const void *handle);
void vklayer_drop (void *record);

/* A layer's vkCreateInstance / vkCreateDevice: the next layer's functions
 * (the loader's chain moved on past this layer), and the object created
 * with them. */
VkResult vklayer_create_instance (const VkInstanceCreateInfo * info,
    const VkAllocationCallbacks * a, VkInstance * instance,
    PFN_vkGetInstanceProcAddr * gipa);
VkResult vklayer_create_device (VkPhysicalDevice physical,
    const VkDeviceCreateInfo * info, const VkAllocationCallbacks * a,
    VkDevice * device, PFN_vkGetDeviceProcAddr * gdpa);

/* A layer's vkNegotiateLoaderLayerInterfaceVersion: interface version 2,
 * with the layer's two lookups. */
VkResult vklayer_negotiate (VkNegotiateLayerInterface * iface,
    PFN_vkGetInstanceProcAddr gipa, PFN_vkGetDeviceProcAddr gdpa);

#endif
