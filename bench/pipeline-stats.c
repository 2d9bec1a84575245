/* pipeline-stats: what the GPU's compiler made of vktile's shaders.
 *
 * For each pipeline key as the plugin logs it (GST_DEBUG=vktcompute:5,
 * "built pipeline iir_scan,1,4,4,2,..."; the shader's name, then its
 * specialization constants from id 0), builds that compute pipeline from
 * the shaders compiled into this binary and prints the driver's statistics
 * (VK_KHR_pipeline_executable_properties: registers, binary size, ...).
 *
 * Why it exists: on the H100 a scan whose code outgrew the instruction
 * caches ran up to 1.7x slower than the same work in less code
 * (docs/BENCHMARKS-HISTORY.md, recursivefilter's ninth step); the binary
 * size is the number to watch when a change unrolls more.
 *
 *   GST_DEBUG=vktcompute:5 vktile-bench ... 2>&1 >/dev/null | grep -o 'built pipeline [^ ]*' \
 *       | cut -d' ' -f3 | sort -u | xargs vktile-pipeline-stats
 */
#include <vulkan/vulkan.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy.spv.h"
#include "gauss_fused.spv.h"
#include "gauss_hpass.spv.h"
#include "gauss_vpass.spv.h"
#include "iir_box.spv.h"
#include "iir_box_cols.spv.h"
#include "iir_box_rows.spv.h"
#include "iir_chunk_tails.spv.h"
#include "iir_scan.spv.h"
#include "iir_scanline.spv.h"
#include "iir_tails.spv.h"
#include "iir_temporal.spv.h"
#include "iir_noise.spv.h"
#include "tiledconv_hpass.spv.h"
#include "tiledconv_naive.spv.h"
#include "tiledconv_shared.spv.h"
#include "tiledconv_tiled.spv.h"
#include "tiledconv_vpass.spv.h"

#define MAX_SPEC 64
#define BINDINGS 8              /* binding 2 a uniform buffer, the rest storage */

typedef struct
{
  const gchar *name;
  const guint32 *code;
  gsize size;
  const guint32 *opt_code;      /* what NVIDIA's drivers get (vktpipeline.c) */
  gsize opt_size;
} Spirv;

#define SPIRV(stem) { #stem, stem##_spv, sizeof (stem##_spv) }
#define SPIRV_OPT(stem) { #stem, stem##_spv, sizeof (stem##_spv), \
    stem##_spv_opt, sizeof (stem##_spv_opt) }

static const Spirv shaders[] = {
  SPIRV (copy), SPIRV (gauss_fused), SPIRV (gauss_hpass), SPIRV (gauss_vpass),
  SPIRV_OPT (iir_box), SPIRV_OPT (iir_box_cols), SPIRV_OPT (iir_box_rows),
  SPIRV_OPT (iir_chunk_tails), SPIRV_OPT (iir_scan),
  SPIRV_OPT (iir_scanline), SPIRV_OPT (iir_tails), SPIRV_OPT (iir_temporal),
  SPIRV_OPT (iir_noise), SPIRV (tiledconv_hpass),
  SPIRV (tiledconv_naive), SPIRV (tiledconv_shared), SPIRV (tiledconv_tiled),
  SPIRV (tiledconv_vpass),
};

/* The device gets the build's optimized SPIR-V where there is one. */
static gboolean use_opt_code;

static const Spirv *
find_shader (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (shaders); i++)
    if (!strcmp (shaders[i].name, name))
      return &shaders[i];
  return NULL;
}

/* Opens the first device that is not a CPU, as vktile-bench picks it;
 * *push_max: its largest push constant block. */
static VkDevice
open_device (VkInstance * instance, guint32 * push_max)
{
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
    .apiVersion = VK_API_VERSION_1_2
  };
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
    .pApplicationInfo = &app
  };
  VkPhysicalDevice phys[16], chosen = VK_NULL_HANDLE;
  guint32 n = G_N_ELEMENTS (phys), i;
  const gchar *ext = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pef = {
    .sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
    .pipelineExecutableInfo = VK_TRUE
  };
  VkPhysicalDeviceVulkan12Features f12 = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
    .pNext = &pef, .shaderFloat16 = VK_TRUE, .shaderInt8 = VK_TRUE,
    .storageBuffer8BitAccess = VK_TRUE
  };
  VkPhysicalDeviceFeatures2 features = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12,
    .features = {.shaderInt16 = VK_TRUE}
  };
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
    .queueCount = 1, .pQueuePriorities = &priority
  };
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
    .pNext = &features, .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue,
    .enabledExtensionCount = 1, .ppEnabledExtensionNames = &ext
  };
  VkDevice dev = VK_NULL_HANDLE;

  if (vkCreateInstance (&ici, NULL, instance) != VK_SUCCESS
      || vkEnumeratePhysicalDevices (*instance, &n, phys) < 0)
    return VK_NULL_HANDLE;
  for (i = 0; i < n && !chosen; i++) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties (phys[i], &props);
    if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU)
      chosen = phys[i];
  }
  if (!chosen && n > 0)
    chosen = phys[0];
  if (chosen) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties (chosen, &props);
    *push_max = props.limits.maxPushConstantsSize;
    /* the plugin's rule, vkt_compute_wants_optimized_spirv() */
    use_opt_code = props.vendorID == 0x10de;
  }
  if (chosen && vkCreateDevice (chosen, &dci, NULL, &dev) != VK_SUCCESS)
    dev = VK_NULL_HANDLE;
  return dev;
}

/* Builds the pipeline of one key and prints its statistics; FALSE where
 * that could not be done. */
static gboolean
print_stats (VkDevice dev, VkPipelineLayout layout, const gchar * key)
{
  PFN_vkGetPipelineExecutableStatisticsKHR get_stats =
      (PFN_vkGetPipelineExecutableStatisticsKHR) vkGetDeviceProcAddr (dev,
      "vkGetPipelineExecutableStatisticsKHR");
  gchar **parts = g_strsplit (key, ",", -1);
  const Spirv *spirv = find_shader (parts[0]);
  VkSpecializationMapEntry entries[MAX_SPEC];
  gint32 values[MAX_SPEC];
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipe = VK_NULL_HANDLE;
  VkPipelineExecutableStatisticKHR stats[64];
  guint32 n_stats = G_N_ELEMENTS (stats), n = 0, i;
  gboolean ok = FALSE;

  if (!spirv || !get_stats) {
    g_printerr ("%s: no such shader, or no statistics on this device\n", key);
    goto done;
  }
  for (; parts[n + 1] && n < MAX_SPEC; n++) {
    values[n] = atoi (parts[n + 1]);
    entries[n] = (VkSpecializationMapEntry) {
    n, 4 * n, 4};
  }
  {
    VkShaderModuleCreateInfo smi = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = use_opt_code && spirv->opt_code ? spirv->opt_size :
          spirv->size,
      .pCode = use_opt_code && spirv->opt_code ? spirv->opt_code : spirv->code
    };
    VkSpecializationInfo si = { n, entries, 4 * n, values };
    VkComputePipelineCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = VK_NULL_HANDLE,
          .pName = "main", .pSpecializationInfo = &si},
      .layout = layout
    };
    VkPipelineExecutableInfoKHR exe = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
      .executableIndex = 0
    };

    if (vkCreateShaderModule (dev, &smi, NULL, &module) != VK_SUCCESS)
      goto done;
    cpi.stage.module = module;
    if (vkCreateComputePipelines (dev, VK_NULL_HANDLE, 1, &cpi, NULL,
            &pipe) != VK_SUCCESS)
      goto done;
    exe.pipeline = pipe;
    for (i = 0; i < n_stats; i++)
      stats[i] = (VkPipelineExecutableStatisticKHR) {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
    if (get_stats (dev, &exe, &n_stats, stats) < 0)
      goto done;
  }
  printf ("%s:", key);
  for (i = 0; i < n_stats; i++) {
    if (stats[i].format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR)
      printf (" %s %g;", stats[i].name, stats[i].value.f64);
    else if (stats[i].format ==
        VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR)
      printf (" %s %" G_GINT64_FORMAT ";", stats[i].name, stats[i].value.i64);
    else if (stats[i].format ==
        VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR)
      printf (" %s %" G_GUINT64_FORMAT ";", stats[i].name, stats[i].value.u64);
    else
      printf (" %s %s;", stats[i].name, stats[i].value.b32 ? "yes" : "no");
  }
  printf ("\n");
  ok = TRUE;

done:
  if (pipe)
    vkDestroyPipeline (dev, pipe, NULL);
  if (module)
    vkDestroyShaderModule (dev, module, NULL);
  g_strfreev (parts);
  return ok;
}

int
main (int argc, char **argv)
{
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice dev;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorSetLayoutBinding bindings[BINDINGS];
  VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 128 };
  gint i, failed = 0;

  if (argc < 2) {
    g_printerr ("usage: %s KEY...  (KEY: shader,spec0,spec1,... as "
        "GST_DEBUG=vktcompute:5 logs it)\n", argv[0]);
    return 2;
  }
  dev = open_device (&instance, &push.size);
  if (!dev) {
    g_printerr ("no Vulkan device with "
        VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME "\n");
    return 1;
  }
  for (i = 0; i < BINDINGS; i++)
    bindings[i] = (VkDescriptorSetLayoutBinding) {
    i, i == 2 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER :
          VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT};
  {
    VkDescriptorSetLayoutCreateInfo dl = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = BINDINGS, .pBindings = bindings
    };
    VkPipelineLayoutCreateInfo pl = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1, .pSetLayouts = &set_layout,
      .pushConstantRangeCount = 1, .pPushConstantRanges = &push
    };
    if (vkCreateDescriptorSetLayout (dev, &dl, NULL, &set_layout) != VK_SUCCESS
        || vkCreatePipelineLayout (dev, &pl, NULL, &layout) != VK_SUCCESS) {
      g_printerr ("could not make a pipeline layout\n");
      return 1;
    }
  }
  for (i = 1; i < argc; i++)
    if (!print_stats (dev, layout, argv[i]))
      failed++;
  vkDestroyPipelineLayout (dev, layout, NULL);
  vkDestroyDescriptorSetLayout (dev, set_layout, NULL);
  vkDestroyDevice (dev, NULL);
  vkDestroyInstance (instance, NULL);
  return failed ? 1 : 0;
}
