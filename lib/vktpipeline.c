/* vktpipeline.c: the compute helper's pipeline cache. vkt_compute_pipeline()
 * builds a compute pipeline (descriptor set layout, pipeline layout, shader
 * module) from a VktShader and its specialization constants once per device
 * and key, in the device's cache; vkt_compute_wants_optimized_spirv() says
 * which SPIR-V a device gets. */
#include "vktcompute-private.h"

void
vkt_pipeline_free (gpointer data, VkDevice device)
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

#define NVIDIA_VENDOR_ID 0x10de

gboolean
vkt_compute_wants_optimized_spirv (const VkPhysicalDeviceProperties * props)
{
  return props->vendorID == NVIDIA_VENDOR_ID;
}

VkDescriptorType
vkt_descriptor_type (VktBindType bind)
{
  return bind == VKT_BIND_UNIFORM ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER :
      bind == VKT_BIND_SAMPLED_IMAGE ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE :
      bind == VKT_BIND_STORAGE_IMAGE ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE :
      VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

static VktPipeline *
pipeline_create (VkDevice dev, const VktShader * shader, gboolean optimized,
    const gint32 * spec, guint n_spec, GError ** error)
{
  VktPipeline *p = g_new0 (VktPipeline, 1);
  VkDescriptorSetLayoutBinding bindings[VKT_MAX_BINDINGS];
  VkSpecializationMapEntry entries[VKT_MAX_SPEC];
  VkShaderModule module = VK_NULL_HANDLE;
  guint i, n = 0;

  p->shader = shader;
  for (i = 0; i < shader->n_bindings; i++) {
    if (shader->bindings[i] == VKT_BIND_UNUSED)
      continue;
    bindings[n++] = (VkDescriptorSetLayoutBinding) {
      .binding = i,
      .descriptorType = vkt_descriptor_type (shader->bindings[i]),
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
  }
  {
    VkDescriptorSetLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = n,
      .pBindings = bindings,
    };
    if (!vkt_check_vk (vkCreateDescriptorSetLayout (dev, &info, NULL,
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
    if (!vkt_check_vk (vkCreatePipelineLayout (dev, &info, NULL, &p->layout),
            error, "vkCreatePipelineLayout"))
      goto fail;
  }
  {
    gboolean opt = optimized && shader->opt_code;
    VkShaderModuleCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = opt ? shader->opt_code_size : shader->code_size,
      .pCode = opt ? shader->opt_code : shader->code,
    };
    if (!vkt_check_vk (vkCreateShaderModule (dev, &info, NULL, &module), error,
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
    if (!vkt_check_vk (vkCreateComputePipelines (dev, VK_NULL_HANDLE, 1, &info,
                NULL, &p->pipeline), error, "vkCreateComputePipelines"))
      goto fail;
  }
  vkDestroyShaderModule (dev, module, NULL);
  return p;

fail:
  if (module)
    vkDestroyShaderModule (dev, module, NULL);
  vkt_pipeline_free (p, dev);
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
    p = pipeline_create (c->device->device, shader,
        vkt_compute_wants_optimized_spirv (&c->device->
            physical_device->properties), spec, n_spec, error);
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
