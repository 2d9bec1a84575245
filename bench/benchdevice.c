/* benchdevice.c: vktile-bench's device of the run: the one VkDevice
 * the elements and the floors share, opened as the elements choose theirs,
 * what it is (name, driver, UUID), the heater that runs before every timed
 * frame or burst, the copy shader of the floors, and the GPU's state as
 * nvidia-smi reports it. */
#include <string.h>

#include "vktile-bench.h"
#include "copy.spv.h"

#define HEAT_BYTES (64 << 20)

/* ---- the device of the run ---- */

static const VktShader copy_shader = { "copy", copy_spv, sizeof (copy_spv),
  2, {VKT_BIND_STORAGE, VKT_BIND_STORAGE}, sizeof (guint32)
};

VkBuffer
bench_vk_buffer (GstMemory * mem)
{
  return ((GstVulkanBufferMemory *) mem)->buffer;
}

/* Records the copy shader over `bytes` (a multiple of 16) of src into dst. */
gboolean
bench_record_shader_copy (Bench * b, GstMemory * src, GstMemory * dst,
    gsize bytes, GError ** error)
{
  VktPipeline *pipe = vkt_compute_pipeline (b->compute, &copy_shader, NULL,
      0, error);
  VktBufferRef refs[2] = { {bench_vk_buffer (src), 0, 0},
  {bench_vk_buffer (dst), 0, 0}
  };
  guint32 vec4s = bytes / 16;
  guint groups = (vec4s + 255) / 256;
  guint gx = MIN (groups, vkt_compute_max_groups (b->compute));

  if (!pipe)
    return FALSE;
  vkt_compute_dispatch (b->compute, pipe, refs, &vec4s, gx,
      (groups + gx - 1) / gx);
  return TRUE;
}

/* GPU time of one copy of `bytes` of src into dst, alone in a submission:
 * by vkCmdCopyBuffer, or with `shader` by the copy shader (over `bytes`
 * rounded up to whole 16-byte vectors). */
gboolean
bench_time_copy (Bench * b, GstMemory * src, GstMemory * dst, gsize bytes,
    gboolean shader, gdouble * ns, GError ** error)
{
  VkBufferCopy region = { 0, 0, bytes };

  if (!vkt_compute_begin (b->compute, error))
    return FALSE;
  vkt_compute_timestamp (b->compute, VKT_TS_START);
  if (shader) {
    if (!bench_record_shader_copy (b, src, dst, GST_ROUND_UP_16 (bytes),
            error))
      return FALSE;
  } else {
    vkt_compute_copy (b->compute, bench_vk_buffer (src),
        bench_vk_buffer (dst), 1, &region);
  }
  /* The helper reads its timestamps only when every slot was written. */
  vkt_compute_timestamp (b->compute, VKT_TS_UPLOADED);
  vkt_compute_timestamp (b->compute, VKT_TS_FILTERED);
  vkt_compute_timestamp (b->compute, VKT_TS_WRITTEN_OUT);
  if (!vkt_compute_submit_wait (b->compute, error))
    return FALSE;
  *ns = vkt_compute_elapsed_ns (b->compute, VKT_TS_START, VKT_TS_UPLOADED);
  return TRUE;
}

void
bench_device_uuid (Bench * b, guint8 uuid[16])
{
  VkPhysicalDeviceIDProperties id = {
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES
  };
  VkPhysicalDeviceProperties2 props = {
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id
  };

  vkGetPhysicalDeviceProperties2 (b->device->physical_device->device, &props);
  memcpy (uuid, id.deviceUUID, 16);
}

/* Runs before every timed frame or burst: the copy shader over 2 x 64 MiB.
 * It keeps the GPU at its working clocks (NVIDIA drops them within
 * milliseconds of idling: first measurements ran at a third of the clock)
 * and evicts the L2 cache, so that no frame finds its input cached, as the
 * frames of a real stream would not. */
void
bench_heat (Bench * b)
{
  GError *error = NULL;

  /* A CPU device (lavapipe) has neither clocks to hold nor an L2 to flush. */
  if (b->is_cpu)
    return;
  if (!b->heat_src) {
    b->heat_src = vkt_buffer_alloc (b->device, HEAT_BYTES, FALSE, &error);
    if (b->heat_src)
      b->heat_dst = vkt_buffer_alloc (b->device, HEAT_BYTES, FALSE, &error);
  }
  if (!b->heat_src || !b->heat_dst || !vkt_compute_begin (b->compute, &error)
      || !bench_record_shader_copy (b, b->heat_src, b->heat_dst, HEAT_BYTES,
          &error)
      || !vkt_compute_submit_wait (b->compute, &error)) {
    g_printerr ("heater: %s\n", error ? error->message : "no memory");
    g_clear_error (&error);
  }
}

/* Every element of every pipeline gets our instance through its context and
 * then this device when it asks the instance for one: the elements run on
 * the very VkDevice the floors are timed on, and the frames the benchmark
 * allocates are theirs to use in place. */
static GstVulkanDevice *
on_create_device (GstVulkanInstance * instance, gpointer user_data)
{
  Bench *b = user_data;

  return gst_object_ref (b->device);
}

static const gchar *
device_type_name (VkPhysicalDeviceType t)
{
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}

/* The driver's name and version (Vulkan 1.2's driver properties, else the
 * packed driverVersion) and the device UUID. */
static void
describe_device (Bench * b)
{
  GstVulkanPhysicalDevice *phys = b->device->physical_device;
  const VkPhysicalDeviceProperties *p = &phys->properties;
  PFN_vkGetPhysicalDeviceProperties2 get_props2 = NULL;
  guint32 v = p->driverVersion;

  if (p->apiVersion >= VK_API_VERSION_1_1
      && gst_vulkan_instance_check_version (b->instance, 1, 1, 0))
    get_props2 = (PFN_vkGetPhysicalDeviceProperties2)
        gst_vulkan_instance_get_proc_address (b->instance,
        "vkGetPhysicalDeviceProperties2");
  if (get_props2) {
    VkPhysicalDeviceDriverProperties drv = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
    };
    VkPhysicalDeviceIDProperties id = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
      .pNext = p->apiVersion >= VK_API_VERSION_1_2 ? &drv : NULL,
    };
    VkPhysicalDeviceProperties2 props2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &id,
    };
    const guint8 *u = id.deviceUUID;
    get_props2 (phys->device, &props2);
    if (drv.driverName[0])
      b->driver = g_strdup_printf ("%s %s", drv.driverName, drv.driverInfo);
    b->uuid = g_strdup_printf ("GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-"
        "%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
        u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
        u[15]);
  }
  if (!b->driver && p->vendorID == 0x10de)      /* NVIDIA: 10.8.8.6 bits */
    b->driver = g_strdup_printf ("driver %u.%u.%u", (v >> 22) & 0x3ff,
        (v >> 14) & 0xff, (v >> 6) & 0xff);
  else if (!b->driver)
    b->driver = g_strdup_printf ("driver %u.%u.%u", VK_API_VERSION_MAJOR (v),
        VK_API_VERSION_MINOR (v), VK_API_VERSION_PATCH (v));
}

/* Clock-event reasons as nvidia-smi reports them (a bit mask). */
static gchar *
describe_clock_reasons (const gchar * hex)
{
  static const struct
  {
    guint64 bit;
    const gchar *name;
  } reasons[] = {
    {0x1, "idle"}, {0x2, "application clocks"}, {0x4, "software power cap"},
    {0x8, "hardware slowdown"}, {0x10, "sync boost"},
    {0x20, "software thermal"}, {0x40, "hardware thermal"},
    {0x80, "hardware power brake"}, {0x100, "display clocks"},
  };
  guint64 mask = g_ascii_strtoull (hex, NULL, 16);
  GString *s = g_string_new (NULL);
  guint i;

  if (mask == 0) {
    g_string_free (s, TRUE);
    return g_strdup ("none");
  }
  for (i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (mask & reasons[i].bit)
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", reasons[i].name);
  if (!s->len)
    g_string_append (s, hex);
  return g_string_free (s, FALSE);
}

/* What the GPU was doing, read-only, from nvidia-smi where there is one:
 * clocks, what holds them down, temperature, power, load from anyone. */
gchar *
bench_read_gpu_state (Bench * b)
{
  static const gchar *fields[] = {
    "clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,"
        "utilization.gpu,memory.used,clocks_event_reasons.active",
    "clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,"
        "utilization.gpu,memory.used,clocks_throttle_reasons.active",
  };
  static const gchar *names[] = { "SM clock", "max SM clock",
    "memory clock", "temperature °C", "power", "utilization", "memory used",
    "clocks held down by"
  };
  gchar *out = NULL;
  guint f, with_id;

  if (b->is_cpu)
    return g_strdup ("not reported (CPU device)");
  for (with_id = 0; with_id < 2 && !out; with_id++) {
    for (f = 0; f < G_N_ELEMENTS (fields) && !out; f++) {
      gchar *query = g_strdup_printf ("--query-gpu=%s", fields[f]);
      const gchar *argv[] = { "nvidia-smi", query,
        "--format=csv,noheader", with_id ? NULL : "-i",
        with_id ? NULL : b->uuid, NULL
      };
      gchar *std_out = NULL;
      gint status = -1;
      if (!with_id || b->uuid)
        g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &std_out, NULL, &status,
            NULL);
      if (status == 0 && std_out && *std_out)
        out = g_strdup (g_strstrip (std_out));
      g_free (std_out);
      g_free (query);
    }
  }
  if (!out)
    return g_strdup ("not reported (no nvidia-smi answered)");
  {
    gchar **values = g_strsplit (strchr (out, '\n') ? "" : out, ",", -1);
    GString *s = g_string_new (NULL);
    guint i;
    for (i = 0; values[i] && i < G_N_ELEMENTS (names); i++) {
      gchar *v = g_strstrip (values[i]);
      gchar *reasons = i == G_N_ELEMENTS (names) - 1 ?
          describe_clock_reasons (v) : NULL;
      g_string_append_printf (s, "%s%s %s", i ? ", " : "", names[i],
          reasons ? reasons : v);
      g_free (reasons);
    }
    g_strfreev (values);
    if (!s->len)
      g_string_append (s, out);
    g_free (out);
    return g_string_free (s, FALSE);
  }
}

gboolean
bench_open (Bench * b, GError ** error)
{
  const VkPhysicalDeviceProperties *p;
  guint32 api;

  b->instance = gst_vulkan_instance_new ();
  if (!gst_vulkan_instance_open (b->instance, error))
    return FALSE;
  /* The elements would take device 0; a machine with a GPU may also list
   * lavapipe, and the GPU is what is being measured. */
  if (opt_device_index < 0 && !opt_device_name) {
    guint i;
    for (i = 0; i < b->instance->n_physical_devices; i++) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties (b->instance->physical_devices[i], &props);
      if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
        opt_device_index = i;
        break;
      }
    }
  }
  /* Chosen as the elements choose theirs; they share it (on_create_device),
   * so their frames and the benchmark's live on one VkDevice. */
  b->device = vkt_device_new_chosen (b->instance, opt_device_index,
      opt_device_name, error);
  if (!b->device)
    return FALSE;
  if (!gst_vulkan_device_open (b->device, error))
    return FALSE;
  g_signal_connect (b->instance, "create-device",
      G_CALLBACK (on_create_device), b);
  b->queue = vkt_device_find_compute_queue (b->device, error);
  if (!b->queue)
    return FALSE;
  b->compute = vkt_compute_new (b->device, b->queue, error);
  if (!b->compute)
    return FALSE;

  p = &b->device->physical_device->properties;
  api = p->apiVersion;
  b->has_timestamps = b->device->physical_device->queue_family_props
      [b->queue->family].timestampValidBits != 0
      && p->limits.timestampPeriod > 0;
  b->is_cpu = p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  b->device_name = g_strdup (p->deviceName);
  b->api_version = g_strdup_printf ("%u.%u.%u", VK_API_VERSION_MAJOR (api),
      VK_API_VERSION_MINOR (api), VK_API_VERSION_PATCH (api));
  b->device_type = device_type_name (p->deviceType);
  describe_device (b);
  return TRUE;
}

void
bench_close (Bench * b)
{
  g_clear_pointer (&b->heat_src, gst_memory_unref);
  g_clear_pointer (&b->heat_dst, gst_memory_unref);
  g_clear_pointer (&b->compute, vkt_compute_free);
  gst_clear_object (&b->queue);
  if (b->instance)
    g_signal_handlers_disconnect_by_func (b->instance, on_create_device, b);
  gst_clear_object (&b->device);
  gst_clear_object (&b->instance);
  g_free (b->device_name);
  g_free (b->driver);
  g_free (b->api_version);
  g_free (b->uuid);
  g_free (b->gpu_state_start);
  g_free (b->gpu_state_end);
}
