/* gstvktiledevice.c: the device and context of GstVkTileFilter. Owns
 * finding the Vulkan instance and device (the pipeline's, the
 * application's or one of our own, shared with the elements that start
 * later), the compute queue and VktCompute on it
 * (gst_vktile_filter_open_device()), and letting all of them go again with
 * every GPU resource (gst_vktile_filter_release_device()). The context
 * query and set_context() that hand them to neighbours stay with the
 * element's vfuncs in gstvktilefilter.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktilefilter-private.h"

/* The Vulkan instance of every element that gets none from its neighbours
 * or the application: one for the process, never destroyed. NVIDIA's
 * driver (580) refuses vkCreateInstance once a few dozen instances have
 * been created and destroyed in a process — test_reliability got there on
 * the H100, as would an application that builds pipelines over and over. */
static GstVulkanInstance *
process_instance (GError ** error)
{
  static GMutex lock;
  static GstVulkanInstance *instance = NULL;
  GstVulkanInstance *ret = NULL;

  g_mutex_lock (&lock);
  if (!instance) {
    GstVulkanInstance *fresh = gst_vulkan_instance_new ();
    if (gst_vulkan_instance_open (fresh, error)) {
      GST_OBJECT_FLAG_SET (fresh, GST_OBJECT_FLAG_MAY_BE_LEAKED);
      instance = fresh;
    } else {
      gst_object_unref (fresh);
    }
  }
  if (instance)
    ret = gst_object_ref (instance);
  g_mutex_unlock (&lock);
  return ret;
}

/* A device that came from the pipeline or the application wins over
 * device-index and device-name; say so where they disagree. */
static void
warn_shared_device (GstVkTileFilter * self, gint index, const gchar * name)
{
  GstVulkanPhysicalDevice *phys = PRIV (self)->device->physical_device;

  if (vkt_device_is_chosen (phys->device_index, phys->properties.deviceName,
          index, name))
    return;
  GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
      ("Running on the device the pipeline shares, not the one asked for"),
      ("device-index=%d device-name=\"%s\" asked for another device than "
          "%u: %s, which another element or the application shares; that "
          "one is used", index, name ? name : "", phys->device_index,
          phys->properties.deviceName));
}

/* The element's device from now on; context queries read it from other
 * threads. */
static void
set_device (GstVkTileFilter * self, GstVulkanDevice * device)
{
  GST_OBJECT_LOCK (self);
  gst_object_replace ((GstObject **) & PRIV (self)->device,
      GST_OBJECT (device));
  GST_OBJECT_UNLOCK (self);
}

/* A reference to the device set on the element (set_context()), if any. */
static GstVulkanDevice *
device_set (GstVkTileFilter * self)
{
  GstVulkanDevice *device;

  GST_OBJECT_LOCK (self);
  device = PRIV (self)->device ? gst_object_ref (PRIV (self)->device) : NULL;
  GST_OBJECT_UNLOCK (self);
  return device;
}

/* The device the pipeline shares: one set on the element, one a neighbour
 * answers the context query with, or one the pipeline keeps from an
 * element's have-context message (a need-context message asks for it, as
 * gstvulkan does for the instance): elements that cannot reach each other
 * by a query, such as the branches of a tee before the element upstream
 * of it has started, still meet on one device. NULL when none is. */
static GstVulkanDevice *
shared_device (GstVkTileFilter * self)
{
  GstElement *element = GST_ELEMENT (self);
  GstVulkanDevice *device = device_set (self);

  if (device || gst_vulkan_device_run_context_query (element, &device))
    return device;
  gst_element_post_message (element, gst_message_new_need_context
      (GST_OBJECT (element), GST_VULKAN_DEVICE_CONTEXT_TYPE_STR));
  return device_set (self);
}

gboolean
gst_vktile_filter_open_device (GstVkTileFilter * self, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstElement *element = GST_ELEMENT (self);
  GstVulkanDevice *device;
  gchar *name;
  gint index;

  if (!gst_vulkan_instance_run_context_query (element, &priv->instance)) {
    GError *instance_error = NULL;
    GstContext *context;

    priv->instance = process_instance (&instance_error);
    if (!priv->instance) {
      g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_INITIALIZATION_FAILED,
          "Cannot create a Vulkan instance (no Vulkan driver installed?): %s",
          instance_error ? instance_error->message : "unknown error");
      g_clear_error (&instance_error);
      return FALSE;
    }
    /* As gst_vulkan_ensure_element_data() does: the pipeline keeps it for
     * the elements that start later. */
    context = gst_context_new (GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR, TRUE);
    gst_context_set_vulkan_instance (context, priv->instance);
    gst_element_post_message (element,
        gst_message_new_have_context (GST_OBJECT (element), context));
  }
  GST_OBJECT_LOCK (self);
  index = priv->device_index;
  name = g_strdup (priv->device_name);
  GST_OBJECT_UNLOCK (self);
  if ((device = shared_device (self))) {
    set_device (self, device);
    warn_shared_device (self, index, name);
  } else {
    GstContext *context;
    /* As gst_vulkan_instance_create_device() does (an application may hand
     * its device over through "create-device"), but a device of our own
     * is the one asked for, with host memory import where the GPU has
     * it. */
    g_signal_emit_by_name (priv->instance, "create-device", &device);
    if (!device)
      device = vkt_device_new_chosen (priv->instance, index, name, error);
    if (!device || !gst_vulkan_device_open (device, error)) {
      gst_clear_object (&device);
      g_free (name);
      return FALSE;
    }
    set_device (self, device);
    warn_shared_device (self, index, name);
    /* The pipeline keeps it for the elements that start later and cannot
     * query us (shared_device()). */
    context = gst_context_new (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR, TRUE);
    gst_context_set_vulkan_device (context, device);
    gst_element_post_message (element,
        gst_message_new_have_context (GST_OBJECT (element), context));
  }
  gst_object_unref (device);
  g_free (name);
  /* A neighbour's queue only if it is on our device and can compute. */
  if (gst_vulkan_queue_run_context_query (element, &priv->queue)
      && (priv->queue->device != priv->device
          || !(priv->device->physical_device->queue_family_props
              [priv->queue->family].queueFlags & VK_QUEUE_COMPUTE_BIT)))
    gst_clear_object (&priv->queue);
  if (!priv->queue
      && !(priv->queue = vkt_device_find_compute_queue (priv->device, error)))
    return FALSE;
  priv->compute = vkt_compute_new (priv->device, priv->queue, error);
  if (!priv->compute)
    return FALSE;
  priv->separate_vram = vkt_device_has_separate_vram (priv->device);
  priv->import_alignment = vkt_device_host_import_alignment (priv->device);
  GST_INFO_OBJECT (self, "using \"%s\" (%s VRAM, system memory %s)",
      priv->device->physical_device->properties.deviceName,
      priv->separate_vram ? "separate" : "no separate",
      priv->import_alignment ? "imported" : "copied: no host memory import");
  return TRUE;
}

/* Frees every GPU resource and lets go of the device; with the pads gone
 * (finalize) or the output task stopped (stop). */
void
gst_vktile_filter_release_device (GstVkTileFilter * self)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  guint i;

  g_clear_pointer (&priv->recorded, gst_vktile_filter_pending_frame_free);
  gst_vktile_filter_drop_deferred (self);
  /* Everything below may still be in use by the GPU: wait first. */
  if (priv->compute)
    vkt_compute_drain (priv->compute);
  gst_vktile_filter_free_memory (&priv->in_copy);
  gst_vktile_filter_free_memory (&priv->in_staging);
  gst_vktile_filter_free_memory (&priv->out_staging);
  gst_vktile_filter_free_memory (&priv->out_for_images);
  gst_vktile_filter_free_memory (&priv->out_paired);
  gst_vktile_filter_free_memory (&priv->work_in);
  gst_vktile_filter_free_memory (&priv->work_out);
  for (i = 0; i < N_SCRATCH; i++)
    gst_vktile_filter_free_memory (&priv->scratch[i]);
  gst_vktile_filter_free_memory (&priv->temporal_state);
  gst_vktile_filter_free_memory (&priv->report);
  gst_vktile_filter_free_memory (&priv->readback);
  g_clear_pointer (&priv->compute, vkt_compute_free);
  GST_OBJECT_LOCK (self);
  queue = g_steal_pointer (&priv->queue);
  device = g_steal_pointer (&priv->device);
  instance = g_steal_pointer (&priv->instance);
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&queue);
  gst_clear_object (&device);
  gst_clear_object (&instance);
}
