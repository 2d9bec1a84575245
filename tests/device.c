/* tests/device.c: the Vulkan device an element runs on (device.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/vulkan/vulkan.h>

#include "device.h"

gpointer
harness_element_device (GstElement * el)
{
  GstQuery *query = gst_query_new_context (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);
  GstVulkanDevice *device = NULL;
  GstContext *context = NULL;

  if (gst_element_query (el, query)) {
    gst_query_parse_context (query, &context);
    if (context)
      gst_context_get_vulkan_device (context, &device);
  }
  gst_query_unref (query);
  return device;
}
