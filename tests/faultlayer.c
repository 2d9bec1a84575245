/* tests/faultlayer.c: a Vulkan layer that makes a working device fail the
 * way a real one fails under pressure — an allocation or object creation
 * that runs out of memory, a device that is lost at a submission or at the
 * wait that follows it — so that the tests can show what the elements do
 * then (test_faults.c). Test-only: nothing in the plugin knows about it.
 *
 * It is enabled as an explicit layer (manifest vktile_fault_layer.json next
 * to the library; VK_LAYER_PATH and VK_INSTANCE_LAYERS) and armed either by
 * VKTILE_FAULT when a device is created, or by vktile_fault_arm() from a
 * test that dlopen()s this library:
 *
 *   oom:N        the N-th object creation or allocation of the device
 *                (counted from 1 over every function in kCounted) returns
 *                VK_ERROR_OUT_OF_DEVICE_MEMORY; the others succeed
 *   lost:N       the N-th vkQueueSubmit returns VK_ERROR_DEVICE_LOST, and
 *                from then on every submission, wait and query does
 *   lost-wait:N  the N-th vkQueueSubmit runs, then the device is lost: the
 *                waits for it (and everything after) return
 *                VK_ERROR_DEVICE_LOST
 *   no-shuffles  while it is armed, every physical device says its compute
 *                shaders have no subgroup shuffles (a GPU without them)
 *
 * A device takes the plan armed when it is created; each plan fires once.
 * vktile_fault_disarm_live() takes the plans of the devices alive back.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vklayer.h"

#define LAYER_NAME "VK_LAYER_VKTILE_fault_injection"
#define MAX_RECORDS 64

typedef enum
{
  FAULT_NONE,
  FAULT_OOM,
  FAULT_LOST_AT_SUBMIT,
  FAULT_LOST_AFTER_SUBMIT,
  FAULT_NO_SHUFFLES,
} FaultKind;

typedef struct
{
  FaultKind kind;
  unsigned long at;
} FaultPlan;

/* The functions whose failure the plugin must survive, each as its own
 * pointer to the next layer down. */
typedef struct
{
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
  PFN_vkDestroyDevice DestroyDevice;
  PFN_vkAllocateMemory AllocateMemory;
  PFN_vkMapMemory MapMemory;
  PFN_vkBindBufferMemory BindBufferMemory;
  PFN_vkCreateBuffer CreateBuffer;
  PFN_vkCreateImage CreateImage;
  PFN_vkCreateFence CreateFence;
  PFN_vkCreateCommandPool CreateCommandPool;
  PFN_vkAllocateCommandBuffers AllocateCommandBuffers;
  PFN_vkCreateDescriptorPool CreateDescriptorPool;
  PFN_vkAllocateDescriptorSets AllocateDescriptorSets;
  PFN_vkCreateDescriptorSetLayout CreateDescriptorSetLayout;
  PFN_vkCreatePipelineLayout CreatePipelineLayout;
  PFN_vkCreateShaderModule CreateShaderModule;
  PFN_vkCreateComputePipelines CreateComputePipelines;
  PFN_vkCreateQueryPool CreateQueryPool;
  PFN_vkBeginCommandBuffer BeginCommandBuffer;
  PFN_vkEndCommandBuffer EndCommandBuffer;
  PFN_vkQueueSubmit QueueSubmit;
  PFN_vkQueueWaitIdle QueueWaitIdle;
  PFN_vkDeviceWaitIdle DeviceWaitIdle;
  PFN_vkWaitForFences WaitForFences;
  PFN_vkGetFenceStatus GetFenceStatus;
  PFN_vkGetQueryPoolResults GetQueryPoolResults;
} DeviceTable;

typedef struct
{
  VkLayerKey k;
  /* instances */
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
  PFN_vkDestroyInstance DestroyInstance;
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2;
  /* devices */
  DeviceTable d;
  FaultPlan plan;
  unsigned long counted, submits;
  int lost;
} Record;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Record instances[MAX_RECORDS], devices[MAX_RECORDS];
static FaultPlan armed;
static int armed_from_env;
static unsigned long total_counted, total_submits, fired;

#define find(table, handle) \
  ((Record *) vklayer_find ((table), MAX_RECORDS, sizeof (Record), (handle)))
#define add(table, handle) \
  ((Record *) vklayer_add ((table), MAX_RECORDS, sizeof (Record), (handle)))
#define drop vklayer_drop

static int
parse_plan (const char *s, FaultPlan * plan)
{
  static const struct
  {
    const char *name;
    FaultKind kind;
  } kinds[] = {
    {"oom:", FAULT_OOM},
    {"lost:", FAULT_LOST_AT_SUBMIT},
    {"lost-wait:", FAULT_LOST_AFTER_SUBMIT},
  };
  size_t i;

  plan->kind = FAULT_NONE;
  plan->at = 0;
  if (!s || !*s || !strcmp (s, "none"))
    return 1;
  if (!strcmp (s, "no-shuffles")) {
    plan->kind = FAULT_NO_SHUFFLES;
    return 1;
  }
  for (i = 0; i < sizeof (kinds) / sizeof (kinds[0]); i++) {
    size_t n = strlen (kinds[i].name);
    char *end;
    unsigned long at;

    if (strncmp (s, kinds[i].name, n))
      continue;
    at = strtoul (s + n, &end, 10);
    if (*end || at == 0)
      return 0;
    plan->kind = kinds[i].kind;
    plan->at = at;
    return 1;
  }
  return 0;
}

/* ---- what a test calls (dlsym) ---- */

/* Arms `plan` (the syntax of VKTILE_FAULT; NULL or "none" disarms) for the
 * devices created from now on; 0 if it does not parse. */
VKLAYER_EXPORT int
vktile_fault_arm (const char *plan)
{
  FaultPlan p;

  if (!parse_plan (plan, &p))
    return 0;
  pthread_mutex_lock (&lock);
  armed = p;
  armed_from_env = 1;           /* the environment no longer decides */
  pthread_mutex_unlock (&lock);
  return 1;
}

/* The devices alive now fire no fault from here on (one that fired stays
 * lost): what a test does afterwards with the buffers of a finished run,
 * such as mapping them, is not the elements' work. */
VKLAYER_EXPORT void
vktile_fault_disarm_live (void)
{
  int i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < MAX_RECORDS; i++)
    devices[i].plan.kind = FAULT_NONE;
  pthread_mutex_unlock (&lock);
}

/* Counts over every device since the process started: object creations
 * and allocations that could fail, submissions, faults fired. */
VKLAYER_EXPORT void
vktile_fault_counts (unsigned long *counted, unsigned long *submits,
    unsigned long *n_fired)
{
  pthread_mutex_lock (&lock);
  *counted = total_counted;
  *submits = total_submits;
  *n_fired = fired;
  pthread_mutex_unlock (&lock);
}

/* ---- the faults ---- */

/* Whether this creation or allocation is the one to fail. */
static int
oom_now (Record * dev)
{
  int fail;

  pthread_mutex_lock (&lock);
  dev->counted++;
  total_counted++;
  fail = dev->plan.kind == FAULT_OOM && dev->counted == dev->plan.at;
  if (fail)
    fired++;
  pthread_mutex_unlock (&lock);
  return fail;
}

static int
is_lost (Record * dev)
{
  int lost;

  pthread_mutex_lock (&lock);
  lost = dev->lost;
  pthread_mutex_unlock (&lock);
  return lost;
}

#define DEV(handle) Record *dev = find (devices, (handle))

#define COUNTED(name, params, args, first) \
  static VKAPI_ATTR VkResult VKAPI_CALL \
  fault_ ## name params \
  { \
    DEV (first); \
    if (oom_now (dev)) \
      return VK_ERROR_OUT_OF_DEVICE_MEMORY; \
    return dev->d.name args; \
  }

/* *INDENT-OFF* */
COUNTED (AllocateMemory, (VkDevice device, const VkMemoryAllocateInfo * info,
        const VkAllocationCallbacks * a, VkDeviceMemory * mem),
    (device, info, a, mem), device)
COUNTED (MapMemory, (VkDevice device, VkDeviceMemory mem, VkDeviceSize offset,
        VkDeviceSize size, VkMemoryMapFlags flags, void **data),
    (device, mem, offset, size, flags, data), device)
COUNTED (BindBufferMemory, (VkDevice device, VkBuffer buffer,
        VkDeviceMemory mem, VkDeviceSize offset),
    (device, buffer, mem, offset), device)
COUNTED (CreateBuffer, (VkDevice device, const VkBufferCreateInfo * info,
        const VkAllocationCallbacks * a, VkBuffer * buffer),
    (device, info, a, buffer), device)
COUNTED (CreateImage, (VkDevice device, const VkImageCreateInfo * info,
        const VkAllocationCallbacks * a, VkImage * image),
    (device, info, a, image), device)
COUNTED (CreateFence, (VkDevice device, const VkFenceCreateInfo * info,
        const VkAllocationCallbacks * a, VkFence * fence),
    (device, info, a, fence), device)
COUNTED (CreateCommandPool, (VkDevice device,
        const VkCommandPoolCreateInfo * info, const VkAllocationCallbacks * a,
        VkCommandPool * pool), (device, info, a, pool), device)
COUNTED (AllocateCommandBuffers, (VkDevice device,
        const VkCommandBufferAllocateInfo * info, VkCommandBuffer * cmd),
    (device, info, cmd), device)
COUNTED (CreateDescriptorPool, (VkDevice device,
        const VkDescriptorPoolCreateInfo * info,
        const VkAllocationCallbacks * a, VkDescriptorPool * pool),
    (device, info, a, pool), device)
COUNTED (AllocateDescriptorSets, (VkDevice device,
        const VkDescriptorSetAllocateInfo * info, VkDescriptorSet * sets),
    (device, info, sets), device)
COUNTED (CreateDescriptorSetLayout, (VkDevice device,
        const VkDescriptorSetLayoutCreateInfo * info,
        const VkAllocationCallbacks * a, VkDescriptorSetLayout * layout),
    (device, info, a, layout), device)
COUNTED (CreatePipelineLayout, (VkDevice device,
        const VkPipelineLayoutCreateInfo * info,
        const VkAllocationCallbacks * a, VkPipelineLayout * layout),
    (device, info, a, layout), device)
COUNTED (CreateShaderModule, (VkDevice device,
        const VkShaderModuleCreateInfo * info, const VkAllocationCallbacks * a,
        VkShaderModule * module), (device, info, a, module), device)
COUNTED (CreateComputePipelines, (VkDevice device, VkPipelineCache cache,
        uint32_t n, const VkComputePipelineCreateInfo * info,
        const VkAllocationCallbacks * a, VkPipeline * pipelines),
    (device, cache, n, info, a, pipelines), device)
COUNTED (CreateQueryPool, (VkDevice device, const VkQueryPoolCreateInfo * info,
        const VkAllocationCallbacks * a, VkQueryPool * pool),
    (device, info, a, pool), device)
COUNTED (BeginCommandBuffer, (VkCommandBuffer cmd,
        const VkCommandBufferBeginInfo * info), (cmd, info), cmd)
COUNTED (EndCommandBuffer, (VkCommandBuffer cmd), (cmd), cmd)
/* *INDENT-ON* */

static VKAPI_ATTR VkResult VKAPI_CALL
fault_QueueSubmit (VkQueue queue, uint32_t n, const VkSubmitInfo * submits,
    VkFence fence)
{
  DEV (queue);
  VkResult res;
  int lose_now, lose_after, already_lost;

  pthread_mutex_lock (&lock);
  dev->submits++;
  total_submits++;
  lose_now = dev->plan.kind == FAULT_LOST_AT_SUBMIT
      && dev->submits == dev->plan.at;
  lose_after = dev->plan.kind == FAULT_LOST_AFTER_SUBMIT
      && dev->submits == dev->plan.at;
  if (lose_now || lose_after)
    fired++;
  already_lost = dev->lost;
  pthread_mutex_unlock (&lock);
  if (already_lost)
    return VK_ERROR_DEVICE_LOST;
  res = lose_now ? VK_ERROR_DEVICE_LOST :
      dev->d.QueueSubmit (queue, n, submits, fence);
  /* A lost device runs nothing more; here, what was submitted before runs
   * to its end before anyone hears of the loss, so that the plugin may
   * destroy what it used — as it may after a real loss — without pulling
   * it from under the driver. The caller holds the queue, as the wait
   * needs. */
  if (lose_now || lose_after) {
    dev->d.QueueWaitIdle (queue);
    pthread_mutex_lock (&lock);
    dev->lost = 1;
    pthread_mutex_unlock (&lock);
  }
  return res;
}

/* Once lost, a device reports the loss from every wait and query. */
static VKAPI_ATTR VkResult VKAPI_CALL
fault_QueueWaitIdle (VkQueue queue)
{
  DEV (queue);
  VkResult res = dev->d.QueueWaitIdle (queue);

  return is_lost (dev) ? VK_ERROR_DEVICE_LOST : res;
}

static VKAPI_ATTR VkResult VKAPI_CALL
fault_DeviceWaitIdle (VkDevice device)
{
  DEV (device);
  VkResult res = dev->d.DeviceWaitIdle (device);

  return is_lost (dev) ? VK_ERROR_DEVICE_LOST : res;
}

static VKAPI_ATTR VkResult VKAPI_CALL
fault_WaitForFences (VkDevice device, uint32_t n, const VkFence * fences,
    VkBool32 all, uint64_t timeout)
{
  DEV (device);

  if (is_lost (dev))
    return VK_ERROR_DEVICE_LOST;
  return dev->d.WaitForFences (device, n, fences, all, timeout);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fault_GetFenceStatus (VkDevice device, VkFence fence)
{
  DEV (device);

  if (is_lost (dev))
    return VK_ERROR_DEVICE_LOST;
  return dev->d.GetFenceStatus (device, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fault_GetQueryPoolResults (VkDevice device, VkQueryPool pool, uint32_t first,
    uint32_t count, size_t size, void *data, VkDeviceSize stride,
    VkQueryResultFlags flags)
{
  DEV (device);

  if (is_lost (dev))
    return VK_ERROR_DEVICE_LOST;
  return dev->d.GetQueryPoolResults (device, pool, first, count, size, data,
      stride, flags);
}

/* ---- the layer's plumbing ---- */

static VKAPI_ATTR void VKAPI_CALL
fault_DestroyDevice (VkDevice device, const VkAllocationCallbacks * a)
{
  DEV (device);
  PFN_vkDestroyDevice destroy = dev->d.DestroyDevice;

  /* Whatever was submitted must be finished before the device goes. */
  dev->d.DeviceWaitIdle (device);
  drop (dev);
  destroy (device, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fault_CreateDevice (VkPhysicalDevice physical, const VkDeviceCreateInfo * info,
    const VkAllocationCallbacks * a, VkDevice * device)
{
  PFN_vkGetDeviceProcAddr gdpa;
  VkResult res = vklayer_create_device (physical, info, a, device, &gdpa);
  DeviceTable *t;
  Record *dev;

  if (res != VK_SUCCESS)
    return res;
  dev = add (devices, *device);
  if (!dev)
    return VK_ERROR_TOO_MANY_OBJECTS;
  t = &dev->d;
  t->GetDeviceProcAddr = gdpa;
#define NEXT(name) t->name = (PFN_vk ## name) gdpa (*device, "vk" #name)
  NEXT (DestroyDevice);
  NEXT (AllocateMemory);
  NEXT (MapMemory);
  NEXT (BindBufferMemory);
  NEXT (CreateBuffer);
  NEXT (CreateImage);
  NEXT (CreateFence);
  NEXT (CreateCommandPool);
  NEXT (AllocateCommandBuffers);
  NEXT (CreateDescriptorPool);
  NEXT (AllocateDescriptorSets);
  NEXT (CreateDescriptorSetLayout);
  NEXT (CreatePipelineLayout);
  NEXT (CreateShaderModule);
  NEXT (CreateComputePipelines);
  NEXT (CreateQueryPool);
  NEXT (BeginCommandBuffer);
  NEXT (EndCommandBuffer);
  NEXT (QueueSubmit);
  NEXT (QueueWaitIdle);
  NEXT (DeviceWaitIdle);
  NEXT (WaitForFences);
  NEXT (GetFenceStatus);
  NEXT (GetQueryPoolResults);
#undef NEXT
  pthread_mutex_lock (&lock);
  if (!armed_from_env) {
    if (!parse_plan (getenv ("VKTILE_FAULT"), &armed))
      fprintf (stderr, "%s: VKTILE_FAULT=%s does not parse\n", LAYER_NAME,
          getenv ("VKTILE_FAULT"));
    armed_from_env = 1;
  }
  dev->plan = armed;
  pthread_mutex_unlock (&lock);
  return VK_SUCCESS;
}

/* ---- what a physical device says ---- */

static VKAPI_ATTR void VKAPI_CALL
fault_GetPhysicalDeviceProperties2 (VkPhysicalDevice physical,
    VkPhysicalDeviceProperties2 * p)
{
  const VkSubgroupFeatureFlags shuffles = VK_SUBGROUP_FEATURE_SHUFFLE_BIT
      | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
  Record *inst = find (instances, physical);
  VkBaseOutStructure *s;
  int hide;

  inst->GetPhysicalDeviceProperties2 (physical, p);
  pthread_mutex_lock (&lock);
  hide = armed.kind == FAULT_NO_SHUFFLES;
  pthread_mutex_unlock (&lock);
  for (s = (VkBaseOutStructure *) p->pNext; hide && s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES)
      ((VkPhysicalDeviceSubgroupProperties *) s)->supportedOperations &=
          ~shuffles;
    else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES)
      ((VkPhysicalDeviceVulkan11Properties *) s)->subgroupSupportedOperations
          &= ~shuffles;
  }
}

static VKAPI_ATTR void VKAPI_CALL
fault_DestroyInstance (VkInstance instance, const VkAllocationCallbacks * a)
{
  Record *inst = find (instances, instance);
  PFN_vkDestroyInstance destroy = inst->DestroyInstance;

  drop (inst);
  destroy (instance, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fault_CreateInstance (const VkInstanceCreateInfo * info,
    const VkAllocationCallbacks * a, VkInstance * instance)
{
  PFN_vkGetInstanceProcAddr gipa;
  VkResult res = vklayer_create_instance (info, a, instance, &gipa);
  Record *inst;

  if (res != VK_SUCCESS)
    return res;
  inst = add (instances, *instance);
  if (!inst)
    return VK_ERROR_TOO_MANY_OBJECTS;
  inst->GetInstanceProcAddr = gipa;
  inst->DestroyInstance =
      (PFN_vkDestroyInstance) gipa (*instance, "vkDestroyInstance");
  inst->GetPhysicalDeviceProperties2 = (PFN_vkGetPhysicalDeviceProperties2)
      gipa (*instance, "vkGetPhysicalDeviceProperties2");
  if (!inst->GetPhysicalDeviceProperties2)
    inst->GetPhysicalDeviceProperties2 = (PFN_vkGetPhysicalDeviceProperties2)
        gipa (*instance, "vkGetPhysicalDeviceProperties2KHR");
  return VK_SUCCESS;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL fault_GetDeviceProcAddr
    (VkDevice device, const char *name);

static PFN_vkVoidFunction
intercepted_device_function (const char *name)
{
#define OURS(fn) if (!strcmp (name, "vk" #fn)) return (PFN_vkVoidFunction) fault_ ## fn
  OURS (GetDeviceProcAddr);
  OURS (DestroyDevice);
  OURS (AllocateMemory);
  OURS (MapMemory);
  OURS (BindBufferMemory);
  OURS (CreateBuffer);
  OURS (CreateImage);
  OURS (CreateFence);
  OURS (CreateCommandPool);
  OURS (AllocateCommandBuffers);
  OURS (CreateDescriptorPool);
  OURS (AllocateDescriptorSets);
  OURS (CreateDescriptorSetLayout);
  OURS (CreatePipelineLayout);
  OURS (CreateShaderModule);
  OURS (CreateComputePipelines);
  OURS (CreateQueryPool);
  OURS (BeginCommandBuffer);
  OURS (EndCommandBuffer);
  OURS (QueueSubmit);
  OURS (QueueWaitIdle);
  OURS (DeviceWaitIdle);
  OURS (WaitForFences);
  OURS (GetFenceStatus);
  OURS (GetQueryPoolResults);
#undef OURS
  return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
fault_GetDeviceProcAddr (VkDevice device, const char *name)
{
  PFN_vkVoidFunction ours = intercepted_device_function (name);
  Record *dev;

  if (ours)
    return ours;
  dev = find (devices, device);
  return dev ? dev->d.GetDeviceProcAddr (device, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
fault_GetInstanceProcAddr (VkInstance instance, const char *name)
{
  PFN_vkVoidFunction ours;
  Record *inst;

  if (!strcmp (name, "vkGetInstanceProcAddr"))
    return (PFN_vkVoidFunction) fault_GetInstanceProcAddr;
  if (!strcmp (name, "vkCreateInstance"))
    return (PFN_vkVoidFunction) fault_CreateInstance;
  if (!strcmp (name, "vkDestroyInstance"))
    return (PFN_vkVoidFunction) fault_DestroyInstance;
  if (!strcmp (name, "vkCreateDevice"))
    return (PFN_vkVoidFunction) fault_CreateDevice;
  if (!strcmp (name, "vkGetPhysicalDeviceProperties2")
      || !strcmp (name, "vkGetPhysicalDeviceProperties2KHR"))
    return (PFN_vkVoidFunction) fault_GetPhysicalDeviceProperties2;
  if ((ours = intercepted_device_function (name)))
    return ours;
  if (!instance || !(inst = find (instances, instance)))
    return NULL;
  return inst->GetInstanceProcAddr (instance, name);
}

VKLAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion (VkNegotiateLayerInterface * iface)
{
  return vklayer_negotiate (iface, fault_GetInstanceProcAddr,
      fault_GetDeviceProcAddr);
}
