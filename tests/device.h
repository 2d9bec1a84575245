/* tests/device.h: the Vulkan device an element runs on (device.c), for
 * the Check suites and for the fuzzer, which links nothing else of the
 * tests. */
#ifndef VKTILE_TESTS_DEVICE_H
#define VKTILE_TESTS_DEVICE_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* The GstVulkanDevice `el` runs on, as it answers the context query other
 * Vulkan elements ask it (a reference; NULL before it has started),
 * untyped so that this header needs no Vulkan. */
gpointer harness_element_device (GstElement * el);

G_END_DECLS

#endif
