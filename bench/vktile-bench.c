/* vktile-bench.c: the vktile benchmark, SPEC §7 (the performance contract).
 *
 * This file owns the whole program: command line, the GStreamer pipelines
 * that time an element frame by frame, the GPU copy floor measured in the
 * same run on the same device, the system-memory throughput rows, and the
 * text and Markdown reports. It links only the compute helper
 * (plugin/vktcompute.c) and reads the public timing meta header; the
 * elements themselves come from the plugin found through GST_PLUGIN_PATH.
 *
 * Three measurements:
 *   1. GPU time of the element: for each configuration, format and size,
 *      videotestsrc makes one frame, imagefreeze repeats it, the element
 *      filters it into memory:VulkanBuffer (device-local, never read back),
 *      and a probe on fakesink reads gpu_ns from the element's timing meta —
 *      Vulkan timestamps around the element's dispatches only, upload
 *      excluded. Median of the frames after the warm-up.
 *   2. The copy floor: vkCmdCopyBuffer of the same frame between two
 *      device-local buffers, timed with timestamps the same way: the frame is
 *      read once and written once, which is the least any filter must do.
 *   3. Wall-clock frames/s of the element with system memory in and out,
 *      against a bare vulkanupload ! vulkandownload round trip.
 */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vktcompute.h"
#include "gstvktiletimingmeta.h"
#include "copy.spv.h"

#define EL_NAME "el"
#define SINK_NAME "sink"

/* ---- options ---- */

static gchar *opt_element = NULL;
static gchar **opt_configs = NULL;
static gchar *opt_formats = NULL;
static gchar *opt_sizes = NULL;
static gint opt_frames = -1;
static gint opt_warmup = -1;
static gint opt_sysmem_frames = -1;
static gchar *opt_markdown = NULL;
static gboolean opt_quick = FALSE;
static gboolean opt_no_copy = FALSE;
static gboolean opt_no_gpu = FALSE;
static gboolean opt_no_sysmem = FALSE;
static gint opt_timeout = 300;
static gint opt_device_index = -1;
static gboolean opt_verbose = FALSE;

static GOptionEntry entries[] = {
  {"element", 'e', 0, G_OPTION_ARG_STRING, &opt_element,
      "Element to time (default tiledconv)", "NAME"},
  {"config", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &opt_configs,
        "Properties appended to the element's launch description, one "
        "configuration per option, repeatable (default: a standard set per "
        "element)", "\"PROP=VAL ...\""},
  {"formats", 'f', 0, G_OPTION_ARG_STRING, &opt_formats,
      "Comma-separated video formats (default GRAY8,RGBA,NV12)", "LIST"},
  {"sizes", 's', 0, G_OPTION_ARG_STRING, &opt_sizes,
        "Comma-separated frame sizes (default 1920x1080,3840x2160; "
        "--quick: 640x360)", "WxH,..."},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt_frames,
      "Measured frames per configuration (default 200; --quick: 10)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt_warmup,
      "Frames discarded before measuring (default 20; --quick: 3)", "N"},
  {"sysmem-frames", 0, 0, G_OPTION_ARG_INT, &opt_sysmem_frames,
        "Measured frames of the system-memory throughput runs (default 300; "
        "--quick: 10)", "N"},
  {"markdown", 'm', 0, G_OPTION_ARG_FILENAME, &opt_markdown,
        "Also write the results as a Markdown section for "
        "docs/BENCHMARKS.md", "FILE"},
  {"quick", 'q', 0, G_OPTION_ARG_NONE, &opt_quick,
      "Smoke test: small frames, few of them (for lavapipe)", NULL},
  {"no-copy", 0, 0, G_OPTION_ARG_NONE, &opt_no_copy,
      "Skip the copy floor (no ratios)", NULL},
  {"no-gpu", 0, 0, G_OPTION_ARG_NONE, &opt_no_gpu,
      "Skip the GPU-resident element runs", NULL},
  {"no-sysmem", 0, 0, G_OPTION_ARG_NONE, &opt_no_sysmem,
      "Skip the system-memory throughput runs", NULL},
  {"timeout", 't', 0, G_OPTION_ARG_INT, &opt_timeout,
      "Seconds one pipeline may run before it is abandoned (default 300)",
      "S"},
  {"device-index", 'd', 0, G_OPTION_ARG_INT, &opt_device_index,
        "Vulkan physical device to use, as vulkaninfo numbers them (default: "
        "the first that is not a CPU)", "N"},
  {"verbose", 'v', 0, G_OPTION_ARG_NONE, &opt_verbose,
      "Print every pipeline and per-run details", NULL},
  {NULL}
};

/* The configurations timed when no --config is given: what SPEC §7 asks
 * about each element. Elements not listed here run once with their
 * defaults. */
static const gchar *tiledconv_configs[] = {
  "preset=box3 algorithm=tiled", "preset=box3 algorithm=naive",
  "preset=box3 algorithm=two-pass", "preset=box3 algorithm=shared",
  "preset=box5 algorithm=tiled", "preset=box5 algorithm=naive",
  "preset=box5 algorithm=two-pass", "preset=box5 algorithm=shared",
  /* Not separable: two-pass falls back to naive in the element. */
  "preset=sharpen algorithm=tiled", "preset=sharpen algorithm=naive",
  "preset=sharpen algorithm=two-pass", "preset=sharpen algorithm=shared",
  NULL
};

static const gchar *gaussblur_configs[] = {
  "sigma=1 algorithm=fused", "sigma=1 algorithm=two-pass",
  "sigma=1 algorithm=recursive", "sigma=1 algorithm=auto",
  "sigma=2 algorithm=fused", "sigma=2 algorithm=two-pass",
  "sigma=2 algorithm=recursive", "sigma=2 algorithm=auto",
  "sigma=4 algorithm=fused", "sigma=4 algorithm=two-pass",
  "sigma=4 algorithm=recursive", "sigma=4 algorithm=auto",
  "sigma=8 algorithm=fused", "sigma=8 algorithm=two-pass",
  "sigma=8 algorithm=recursive", "sigma=8 algorithm=auto",
  "sigma=16 algorithm=fused", "sigma=16 algorithm=two-pass",
  "sigma=16 algorithm=recursive", "sigma=16 algorithm=auto",
  "sigma=64 algorithm=fused", "sigma=64 algorithm=two-pass",
  "sigma=64 algorithm=recursive", "sigma=64 algorithm=auto",
  NULL
};

static const gchar *recursivefilter_configs[] = {
  "filter=gaussian sigma=2 algorithm=tiled",
  "filter=gaussian sigma=2 algorithm=scanline",
  "filter=gaussian sigma=8 algorithm=tiled",
  "filter=gaussian sigma=8 algorithm=scanline",
  "filter=gaussian sigma=32 algorithm=tiled",
  "filter=gaussian sigma=32 algorithm=scanline",
  "filter=gaussian sigma=128 algorithm=tiled",
  "filter=gaussian sigma=128 algorithm=scanline",
  "filter=exponential sigma=8 algorithm=tiled",
  "filter=exponential sigma=8 algorithm=scanline",
  "filter=box radius=8 iterations=1 algorithm=tiled",
  "filter=box radius=8 iterations=1 algorithm=scanline",
  "filter=box radius=8 iterations=3 algorithm=tiled",
  "filter=box radius=8 iterations=3 algorithm=scanline",
  "filter=custom feedforward=0.1 feedback=\"<1.5,-0.6>\" algorithm=tiled",
  "filter=custom feedforward=0.1 feedback=\"<1.5,-0.6>\" algorithm=scanline",
  NULL
};

static const gchar *no_configs[] = { "", NULL };

static const gchar *const *
default_configs (const gchar * element)
{
  if (g_str_equal (element, "tiledconv"))
    return tiledconv_configs;
  if (g_str_equal (element, "gaussblur"))
    return gaussblur_configs;
  if (g_str_equal (element, "recursivefilter"))
    return recursivefilter_configs;
  return no_configs;
}

/* ---- the device of the run ---- */

typedef struct
{
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  VktCompute *compute;
  gboolean has_timestamps;
  guint shared_with_pipelines;  /* pipelines that took our device */
  gchar *device_name;
  gchar *driver;
  gchar *api_version;
  const gchar *device_type;
  GstMemory *heat_src, *heat_dst;       /* see bench_heat () */
} Bench;

static const VktShader copy_shader = { "copy", copy_spv, sizeof (copy_spv),
  2, {VKT_BIND_STORAGE, VKT_BIND_STORAGE}, sizeof (guint32)
};

/* Records the copy shader over `bytes` (a multiple of 16) of src into dst. */
static gboolean
record_shader_copy (Bench * b, GstMemory * src, GstMemory * dst, gsize bytes,
    GError ** error)
{
  VktPipeline *pipe = vkt_compute_pipeline (b->compute, &copy_shader, NULL,
      0, error);
  VktBufferRef refs[2] = {
    {((GstVulkanBufferMemory *) src)->buffer, 0, 0},
    {((GstVulkanBufferMemory *) dst)->buffer, 0, 0},
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

#define HEAT_BYTES (64 << 20)

/* Runs between measured frames: the copy shader over 2 x 64 MiB. It keeps
 * the GPU at its working clocks (NVIDIA drops them within milliseconds of
 * idling, and a frame of GPU work per few hundred µs of CPU time does not
 * hold them: first measurements ran at a third of the clock) and evicts the
 * L2 cache, so that no frame finds the previous one's data cached, as the
 * frames of a real stream would not. */
static void
bench_heat (Bench * b)
{
  GError *error = NULL;

  /* A CPU device (lavapipe) has neither clocks to hold nor an L2 to flush. */
  if (b->device->physical_device->properties.deviceType ==
      VK_PHYSICAL_DEVICE_TYPE_CPU)
    return;
  if (!b->heat_src) {
    b->heat_src = vkt_buffer_alloc (b->device, HEAT_BYTES, FALSE, &error);
    b->heat_dst = vkt_buffer_alloc (b->device, HEAT_BYTES, FALSE, &error);
  }
  if (!b->heat_src || !b->heat_dst || !vkt_compute_begin (b->compute, &error)
      || !record_shader_copy (b, b->heat_src, b->heat_dst, HEAT_BYTES, &error)
      || !vkt_compute_submit_wait (b->compute, &error)) {
    g_printerr ("heater: %s\n", error ? error->message : "no memory");
    g_clear_error (&error);
  }
}

/* Every element of every pipeline gets our instance through its context and
 * then this device when it asks the instance for one: the elements run on
 * the very VkDevice the copy floor is timed on, and a pipeline does not pay
 * for opening a device. */
static GstVulkanDevice *
on_create_device (GstVulkanInstance * instance, gpointer user_data)
{
  Bench *b = user_data;

  g_atomic_int_inc (&b->shared_with_pipelines);
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

/* The driver name and version as the driver reports it (Vulkan 1.2's
 * VkPhysicalDeviceDriverProperties); older devices get the packed
 * driverVersion decoded the way their vendor packs it. */
static gchar *
describe_driver (Bench * b)
{
  GstVulkanPhysicalDevice *phys = b->device->physical_device;
  const VkPhysicalDeviceProperties *p = &phys->properties;
  guint32 v = p->driverVersion;

  if (p->apiVersion >= VK_API_VERSION_1_2
      && gst_vulkan_instance_check_version (b->instance, 1, 1, 0)) {
    PFN_vkGetPhysicalDeviceProperties2 get_props2 =
        (PFN_vkGetPhysicalDeviceProperties2)
        gst_vulkan_instance_get_proc_address (b->instance,
        "vkGetPhysicalDeviceProperties2");
    if (get_props2) {
      VkPhysicalDeviceDriverProperties drv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
      };
      VkPhysicalDeviceProperties2 props2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
        .pNext = &drv,
      };
      get_props2 (phys->device, &props2);
      if (drv.driverName[0])
        return g_strdup_printf ("%s %s", drv.driverName, drv.driverInfo);
    }
  }
  if (p->vendorID == 0x10de)    /* NVIDIA: 10.8.8.6 bits */
    return g_strdup_printf ("driver %u.%u.%u", (v >> 22) & 0x3ff,
        (v >> 14) & 0xff, (v >> 6) & 0xff);
  return g_strdup_printf ("driver %u.%u.%u", VK_API_VERSION_MAJOR (v),
      VK_API_VERSION_MINOR (v), VK_API_VERSION_PATCH (v));
}

static gboolean
bench_open (Bench * b, GError ** error)
{
  const VkPhysicalDeviceProperties *p;
  guint32 api;

  b->instance = gst_vulkan_instance_new ();
  if (!gst_vulkan_instance_open (b->instance, error))
    return FALSE;
  /* gstvulkan would take device 0; a machine with a GPU may also list
   * lavapipe, and the GPU is what is being measured. */
  if (opt_device_index < 0) {
    guint i;
    opt_device_index = 0;
    for (i = 0; i < b->instance->n_physical_devices; i++) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties (b->instance->physical_devices[i], &props);
      if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
        opt_device_index = i;
        break;
      }
    }
  }
  if ((guint) opt_device_index >= b->instance->n_physical_devices) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_INITIALIZATION_FAILED,
        "No Vulkan device %d (%u devices)", opt_device_index,
        b->instance->n_physical_devices);
    return FALSE;
  }
  b->device = gst_vulkan_device_new_with_index (b->instance,
      opt_device_index);
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
  b->device_name = g_strdup (p->deviceName);
  b->driver = describe_driver (b);
  b->api_version = g_strdup_printf ("%u.%u.%u", VK_API_VERSION_MAJOR (api),
      VK_API_VERSION_MINOR (api), VK_API_VERSION_PATCH (api));
  b->device_type = device_type_name (p->deviceType);
  return TRUE;
}

static void
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
}

/* ---- statistics ---- */

static gint
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Median of n values (sorted in place); the median rather than the mean so
 * that a frame delayed by the OS or a clock change does not move it. */
static gdouble
median_u64 (guint64 * v, guint n)
{
  if (n == 0)
    return 0;
  qsort (v, n, sizeof (guint64), cmp_u64);
  return n % 2 ? (gdouble) v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* ---- results ---- */

typedef enum
{
  RESULT_OK,
  RESULT_NO_TIMESTAMPS,         /* ran, but gpu_ns was 0: no timestamps */
  RESULT_FAILED,
} ResultStatus;

typedef struct
{
  gchar *label;
  GstVideoFormat format;
  gint width, height;
  ResultStatus status;
  gchar *message;               /* why it failed, or a warning */
  guint frames;                 /* measured frames */
  gdouble median_ns, min_ns;
  guint dispatches;
  gboolean device_local;
} GpuResult;

typedef struct
{
  GstVideoFormat format;
  gint width, height;
  gsize bytes;                  /* of the frame: read once, written once */
  ResultStatus status;
  gchar *message;
  gdouble median_ns, min_ns;    /* vkCmdCopyBuffer */
  gdouble shader_median_ns, shader_min_ns;      /* copy.comp */
} CopyResult;

typedef struct
{
  gchar *label;
  gint width, height;
  ResultStatus status;
  gchar *message;
  guint frames;
  gdouble fps;
  gchar *caps_note;             /* the memory on each side, as negotiated */
} SysResult;

/* ---- running one pipeline ---- */

typedef struct
{
  GMutex lock;
  guint n, cap;
  guint64 *gpu_ns;
  guint *dispatches;
  gint64 *wall_us;              /* when the frame reached the sink */
  gboolean read_meta;
  gboolean no_meta;             /* some frame had no meta of EL_NAME */
  gboolean device_local;        /* every output memory device-local */
  gboolean vulkan_memory;
  Bench *heat;                  /* heat between frames (GPU rows) */
} Samples;

static GstPadProbeReturn
sink_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Samples *s = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&s->lock);
  if (s->n < s->cap) {
    s->wall_us[s->n] = now;
    if (s->read_meta) {
      const GstVkTileTimingMeta *m = gst_vktile_timing_meta_get (buf, EL_NAME);
      GstMemory *mem = gst_buffer_n_memory (buf) ?
          gst_buffer_peek_memory (buf, 0) : NULL;
      if (m) {
        s->gpu_ns[s->n] = m->gpu_ns;
        s->dispatches[s->n] = m->dispatches;
      } else {
        s->no_meta = TRUE;
      }
      if (!mem || !gst_is_vulkan_buffer_memory (mem)) {
        s->vulkan_memory = FALSE;
        s->device_local = FALSE;
      } else if (!vkt_memory_is_device_local (mem)) {
        s->device_local = FALSE;
      }
    }
    s->n++;
  }
  g_mutex_unlock (&s->lock);
  /* In the streaming thread, between two frames of the element. */
  if (s->heat)
    bench_heat (s->heat);
  return GST_PAD_PROBE_OK;
}

static void
samples_init (Samples * s, guint cap, gboolean read_meta)
{
  memset (s, 0, sizeof (*s));
  g_mutex_init (&s->lock);
  s->cap = cap;
  s->gpu_ns = g_new0 (guint64, cap);
  s->dispatches = g_new0 (guint, cap);
  s->wall_us = g_new0 (gint64, cap);
  s->read_meta = read_meta;
  s->device_local = TRUE;
  s->vulkan_memory = TRUE;
}

static void
samples_clear (Samples * s)
{
  g_free (s->gpu_ns);
  g_free (s->dispatches);
  g_free (s->wall_us);
  g_mutex_clear (&s->lock);
}

/* "memory:VulkanBuffer" or "system memory": the first caps feature of a
 * pad's negotiated caps. */
static gchar *
pad_memory (GstElement * el, const gchar * pad_name)
{
  GstPad *pad = gst_element_get_static_pad (el, pad_name);
  GstCaps *caps = pad ? gst_pad_get_current_caps (pad) : NULL;
  gchar *result;

  if (!caps) {
    result = g_strdup ("not negotiated");
  } else {
    GstCapsFeatures *f = gst_caps_get_features (caps, 0);
    if (f && !gst_caps_features_is_any (f) && gst_caps_features_get_size (f)
        && !gst_caps_features_contains (f,
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY))
      result = g_strdup (gst_caps_features_get_nth (f, 0));
    else
      result = g_strdup ("system memory");
  }
  if (caps)
    gst_caps_unref (caps);
  if (pad)
    gst_object_unref (pad);
  return result;
}

typedef struct
{
  gchar *error;                 /* NULL: ran to EOS */
  gchar *in_memory, *out_memory;        /* of element EL_NAME, if any */
} RunInfo;

static void
run_info_clear (RunInfo * r)
{
  g_free (r->error);
  g_free (r->in_memory);
  g_free (r->out_memory);
}

/* Runs `desc` to EOS with the probe on SINK_NAME's sink pad. */
static void
run_pipeline (Bench * b, const gchar * desc, Samples * s, RunInfo * r)
{
  GError *error = NULL;
  GstElement *pipeline, *sink, *el;
  GstContext *ctx;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;

  memset (r, 0, sizeof (*r));
  if (opt_verbose)
    g_printerr ("  gst-launch-1.0 %s\n", desc);
  pipeline = gst_parse_launch (desc, &error);
  if (error) {
    /* A property the element does not have is a recoverable parse error
     * (the pipeline comes back anyway): still refuse it, the row would not
     * time what it says. */
    r->error = g_strdup (error->message);
    g_clear_error (&error);
    gst_clear_object (&pipeline);
    return;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), SINK_NAME);
  g_assert (sink);
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, sink_probe, s, NULL);
  gst_object_unref (pad);

  /* Our instance, set before any element looks for one. */
  ctx = gst_context_new (GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_instance (ctx, b->instance);
  gst_element_set_context (pipeline, ctx);
  gst_context_unref (ctx);

  bus = gst_element_get_bus (pipeline);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      gst_message_parse_error (msg, &error, NULL);
      r->error = g_strdup (error->message);
      g_clear_error (&error);
      gst_message_unref (msg);
    } else {
      r->error = g_strdup ("the pipeline did not start");
    }
  } else {
    msg = gst_bus_timed_pop_filtered (bus, opt_timeout * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!msg) {
      r->error = g_strdup_printf ("no EOS after %d s (raise --timeout)",
          opt_timeout);
    } else {
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        gchar *dbg = NULL;
        gst_message_parse_error (msg, &error, &dbg);
        r->error = g_strdup_printf ("%s (%s)", error->message,
            dbg ? dbg : "");
        g_clear_error (&error);
        g_free (dbg);
      }
      gst_message_unref (msg);
    }
  }

  /* Caps are still there at EOS: check what each side really used. */
  el = gst_bin_get_by_name (GST_BIN (pipeline), EL_NAME);
  if (el) {
    r->in_memory = pad_memory (el, "sink");
    r->out_memory = pad_memory (el, "src");
    gst_object_unref (el);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

/* ---- 1. the element, GPU-resident ---- */

/* One frame of snow (so that no shader can profit from flat input),
 * repeated by imagefreeze: the source costs nothing per frame. With
 * gpu_resident, an identity tiledconv moves the frame to the GPU once and
 * imagefreeze repeats it there: frames then reach the element back to back
 * in Vulkan memory, as in a GPU pipeline. */
static gchar *
source_desc (GstVideoFormat format, gint w, gint h, guint frames,
    gboolean gpu_resident)
{
  return g_strdup_printf ("videotestsrc pattern=snow num-buffers=1 ! "
      "video/x-raw,format=%s,width=%d,height=%d,framerate=0/1 ! %s"
      "imagefreeze num-buffers=%u", gst_video_format_to_string (format), w, h,
      gpu_resident ? "tiledconv name=gpu_in preset=none "
      "kernel=\"<0,0,0,0,1,0,0,0,0>\" ! video/x-raw(memory:VulkanBuffer) ! "
      : "", frames);
}

static void
time_element (Bench * b, const gchar * config, GstVideoFormat format, gint w,
    gint h, GpuResult * res)
{
  guint total = opt_warmup + opt_frames;
  gchar *src = source_desc (format, w, h, total, TRUE);
  /* The capsfilter after the element keeps the frames on the GPU: its
   * output buffers come from its device-local pool and are never mapped. */
  gchar *desc = g_strdup_printf ("%s ! %s name=" EL_NAME " %s ! "
      "video/x-raw(memory:VulkanBuffer) ! fakesink name=" SINK_NAME
      " sync=false enable-last-sample=false", src, opt_element, config);
  Samples s;
  RunInfo r;
  guint64 *gpu;
  guint i, n = 0, zero = 0, no_dispatch = 0;

  memset (res, 0, sizeof (*res));
  res->label = g_strdup (config[0] ? config : "(defaults)");
  res->format = format;
  res->width = w;
  res->height = h;

  samples_init (&s, total, TRUE);
  s.heat = b;
  run_pipeline (b, desc, &s, &r);
  if (r.error) {
    res->status = RESULT_FAILED;
    res->message = g_strdup (r.error);
    goto done;
  }
  if (s.n < total || s.no_meta) {
    res->status = RESULT_FAILED;
    res->message = s.no_meta ?
        g_strdup ("frames without the element's timing meta") :
        g_strdup_printf ("only %u of %u frames arrived", s.n, total);
    goto done;
  }

  gpu = g_new (guint64, opt_frames);
  for (i = opt_warmup; i < s.n; i++) {
    if (s.dispatches[i] == 0)
      no_dispatch++;
    if (s.gpu_ns[i] == 0)
      zero++;
    else
      gpu[n++] = s.gpu_ns[i];
  }
  res->dispatches = s.dispatches[s.n - 1];
  res->device_local = s.vulkan_memory && s.device_local;
  res->frames = n;
  if (n == 0) {
    res->status = RESULT_NO_TIMESTAMPS;
    res->message = g_strdup ("gpu_ns is 0 on every frame: the queue has no "
        "timestamps");
  } else {
    res->median_ns = median_u64 (gpu, n);
    res->min_ns = gpu[0];
    res->status = RESULT_OK;
  }
  g_free (gpu);

  /* Rows that would time something else than the filter on GPU-resident
   * frames are flagged, not dropped. */
  if (res->message)
    ;
  else if (no_dispatch)
    res->message = g_strdup_printf ("%u frames ran no dispatch (passthrough?)",
        no_dispatch);
  else if (g_strcmp0 (r.out_memory, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER) ||
      !s.vulkan_memory)
    res->message = g_strdup_printf ("output was %s, not VulkanBuffer",
        r.out_memory);
  else if (zero && res->status == RESULT_OK)
    res->message = g_strdup_printf ("%u frames without a GPU time", zero);

done:
  if (opt_verbose)
    g_printerr ("  in %s, out %s, %u dispatches, output %s\n",
        r.in_memory, r.out_memory, res->dispatches,
        res->device_local ? "device-local" : "not device-local");
  samples_clear (&s);
  run_info_clear (&r);
  g_free (desc);
  g_free (src);
}

/* ---- 2. the copy floor ---- */

static void
time_copy (Bench * b, GstVideoFormat format, gint w, gint h, CopyResult * res)
{
  GstVideoInfo info;
  GstMemory *src = NULL, *dst = NULL;
  GError *error = NULL;
  guint64 *ns = g_new0 (guint64, opt_frames);
  guint i, n = 0;

  memset (res, 0, sizeof (*res));
  res->format = format;
  res->width = w;
  res->height = h;
  gst_video_info_set_format (&info, format, w, h);
  res->bytes = GST_VIDEO_INFO_SIZE (&info);

  /* Device-local on both sides, as the element's frames are: the floor is
   * the GPU's memory bandwidth, not the bus. */
  src = vkt_buffer_alloc (b->device, res->bytes, FALSE, &error);
  if (src)
    dst = vkt_buffer_alloc (b->device, res->bytes, FALSE, &error);
  if (!dst)
    goto fail;

  for (i = 0; i < (guint) (opt_warmup + opt_frames); i++) {
    VkBufferCopy region = { 0, 0, res->bytes };
    guint64 t;

    /* One copy per submission, like one frame per submission in the
     * element, under the same conditions as the element's frames. The
     * helper reads its timestamps only when all four slots were written. */
    bench_heat (b);
    if (!vkt_compute_begin (b->compute, &error))
      goto fail;
    vkt_compute_timestamp (b->compute, VKT_TS_START);
    vkt_compute_copy (b->compute, ((GstVulkanBufferMemory *) src)->buffer,
        ((GstVulkanBufferMemory *) dst)->buffer, 1, &region);
    vkt_compute_timestamp (b->compute, VKT_TS_UPLOADED);
    vkt_compute_timestamp (b->compute, VKT_TS_FILTERED);
    vkt_compute_timestamp (b->compute, VKT_TS_DOWNLOADED);
    if (!vkt_compute_submit_wait (b->compute, &error))
      goto fail;
    t = vkt_compute_elapsed_ns (b->compute, VKT_TS_START, VKT_TS_UPLOADED);
    if (i >= (guint) opt_warmup && t > 0)
      ns[n++] = t;
  }
  if (n == 0) {
    res->status = RESULT_NO_TIMESTAMPS;
    res->message = g_strdup ("no timestamps on this queue");
    goto out;
  }
  res->median_ns = median_u64 (ns, n);
  res->min_ns = ns[0];
  res->status = RESULT_OK;

  /* The same bytes through the shader cores. */
  {
    n = 0;
    for (i = 0; i < (guint) (opt_warmup + opt_frames); i++) {
      guint64 t;
      bench_heat (b);
      if (!vkt_compute_begin (b->compute, &error))
        goto fail;
      vkt_compute_timestamp (b->compute, VKT_TS_START);
      if (!record_shader_copy (b, src, dst, res->bytes, &error))
        goto fail;
      vkt_compute_timestamp (b->compute, VKT_TS_UPLOADED);
      vkt_compute_timestamp (b->compute, VKT_TS_FILTERED);
      vkt_compute_timestamp (b->compute, VKT_TS_DOWNLOADED);
      if (!vkt_compute_submit_wait (b->compute, &error))
        goto fail;
      t = vkt_compute_elapsed_ns (b->compute, VKT_TS_START, VKT_TS_UPLOADED);
      if (i >= (guint) opt_warmup && t > 0)
        ns[n++] = t;
    }
    if (n) {
      res->shader_median_ns = median_u64 (ns, n);
      res->shader_min_ns = ns[0];
    }
  }
  goto out;

fail:
  res->status = RESULT_FAILED;
  res->message = g_strdup (error ? error->message : "unknown error");
  g_clear_error (&error);
out:
  if (src)
    gst_memory_unref (src);
  if (dst)
    gst_memory_unref (dst);
  g_free (ns);
}

/* ---- 3. system memory in and out ---- */

static void
time_sysmem (Bench * b, const gchar * label, const gchar * middle, gint w,
    gint h, gboolean is_element, SysResult * res)
{
  guint total = opt_warmup + opt_sysmem_frames;
  gchar *src = source_desc (GST_VIDEO_FORMAT_RGBA, w, h, total, FALSE);
  /* fakesink accepts anything: the element then negotiates system memory
   * on its source pad (checked below, from the negotiated caps). */
  gchar *desc = g_strdup_printf ("%s ! %s ! fakesink name=" SINK_NAME
      " sync=false enable-last-sample=false", src, middle);
  Samples s;
  RunInfo r;

  memset (res, 0, sizeof (*res));
  res->label = g_strdup (label);
  res->width = w;
  res->height = h;

  samples_init (&s, total, FALSE);
  run_pipeline (b, desc, &s, &r);
  if (r.error) {
    res->status = RESULT_FAILED;
    res->message = g_strdup (r.error);
  } else if (s.n < total) {
    res->status = RESULT_FAILED;
    res->message = g_strdup_printf ("only %u of %u frames arrived", s.n,
        total);
  } else {
    /* Frames per second between the last warm-up frame and the last frame:
     * the steady state of the whole pipeline, its source included. */
    gint64 dt = s.wall_us[total - 1] - s.wall_us[opt_warmup - 1];
    res->frames = opt_sysmem_frames;
    res->fps = dt > 0 ? opt_sysmem_frames * 1e6 / dt : 0;
    res->status = RESULT_OK;
  }
  if (is_element && r.in_memory) {
    res->caps_note = g_strdup_printf ("in: %s, out: %s", r.in_memory,
        r.out_memory);
    if (!res->message && (g_strcmp0 (r.in_memory, "system memory")
            || g_strcmp0 (r.out_memory, "system memory")))
      res->message = g_strdup_printf ("not system memory on both sides (%s)",
          res->caps_note);
  }
  samples_clear (&s);
  run_info_clear (&r);
  g_free (desc);
  g_free (src);
}

/* ---- parsing the lists ---- */

static GArray *
parse_formats (const gchar * list, GError ** error)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (GstVideoFormat));
  gchar **parts = g_strsplit (list, ",", -1);
  guint i;

  for (i = 0; parts[i]; i++) {
    GstVideoFormat f = gst_video_format_from_string (g_strstrip (parts[i]));
    if (f == GST_VIDEO_FORMAT_UNKNOWN) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "Unknown video format \"%s\"", parts[i]);
      g_array_unref (a);
      a = NULL;
      break;
    }
    g_array_append_val (a, f);
  }
  g_strfreev (parts);
  return a;
}

typedef struct
{
  gint w, h;
} Size;

static GArray *
parse_sizes (const gchar * list, GError ** error)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (Size));
  gchar **parts = g_strsplit (list, ",", -1);
  guint i;

  for (i = 0; parts[i]; i++) {
    Size s;
    if (sscanf (g_strstrip (parts[i]), "%dx%d", &s.w, &s.h) != 2
        || s.w <= 0 || s.h <= 0) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "Bad frame size \"%s\" (want WxH)", parts[i]);
      g_array_unref (a);
      a = NULL;
      break;
    }
    g_array_append_val (a, s);
  }
  g_strfreev (parts);
  return a;
}

/* ---- reports ---- */

static gdouble
gpix_per_s (gint w, gint h, gdouble ns)
{
  return ns > 0 ? (gdouble) w * h / ns : 0;
}

static const CopyResult *
find_copy (GArray * copies, GstVideoFormat f, gint w, gint h)
{
  guint i;

  for (i = 0; copies && i < copies->len; i++) {
    const CopyResult *c = &g_array_index (copies, CopyResult, i);
    if (c->format == f && c->width == w && c->height == h)
      return c;
  }
  return NULL;
}

static gchar *
fmt_ratio (const CopyResult * c, gdouble ns)
{
  if (!c || c->status != RESULT_OK || ns <= 0)
    return g_strdup ("-");
  return g_strdup_printf ("%.2fx", ns / c->median_ns);
}

static const gchar *
status_text (ResultStatus st, const gchar * message)
{
  if (st == RESULT_NO_TIMESTAMPS)
    return "no GPU timestamps on this device";
  return message ? message : "";
}

/* A configuration without its algorithm=... token: rows that share it
 * differ only in the algorithm, and the first of them listed is the
 * reference of the others ("x ref"), e.g. naive and two-pass against tiled. */
static gchar *
config_key (const gchar * config, gchar ** algorithm)
{
  gchar **tokens = g_strsplit_set (config, " \t", -1);
  GString *key = g_string_new (NULL);
  guint i;

  if (algorithm)
    *algorithm = NULL;
  for (i = 0; tokens[i]; i++) {
    if (!tokens[i][0])
      continue;
    if (g_str_has_prefix (tokens[i], "algorithm=")) {
      if (algorithm && !*algorithm)
        *algorithm = g_strdup (tokens[i] + strlen ("algorithm="));
      continue;
    }
    if (key->len)
      g_string_append_c (key, ' ');
    g_string_append (key, tokens[i]);
  }
  g_strfreev (tokens);
  return g_string_free (key, FALSE);
}

static const GpuResult *
find_reference (GArray * gpu, const GpuResult * r, gchar ** ref_algorithm)
{
  gchar *key = config_key (r->label, NULL);
  const GpuResult *ref = NULL;
  guint i;

  *ref_algorithm = NULL;
  for (i = 0; i < gpu->len && !ref; i++) {
    const GpuResult *o = &g_array_index (gpu, GpuResult, i);
    gchar *alg = NULL, *okey;
    if (o->format != r->format || o->width != r->width
        || o->height != r->height)
      continue;
    okey = config_key (o->label, &alg);
    if (g_str_equal (okey, key) && alg) {
      ref = o;
      *ref_algorithm = alg;
    } else {
      g_free (alg);
    }
    g_free (okey);
  }
  g_free (key);
  if (ref == r || (ref && ref->status != RESULT_OK)) {
    g_free (*ref_algorithm);
    *ref_algorithm = NULL;
    return NULL;
  }
  return ref;
}

static gchar *
fmt_ref_ratio (GArray * gpu, const GpuResult * r)
{
  gchar *alg = NULL;
  const GpuResult *ref = find_reference (gpu, r, &alg);
  gchar *s;

  if (!ref || r->status != RESULT_OK)
    s = g_strdup ("-");
  else
    s = g_strdup_printf ("%.2fx %s", r->median_ns / ref->median_ns, alg);
  g_free (alg);
  return s;
}

static gint
label_width (GArray * a, gsize elt_size, gsize label_offset, gint min)
{
  guint i;
  gint w = min;

  for (i = 0; a && i < a->len; i++) {
    const gchar *label = *(const gchar **) (a->data + i * elt_size +
        label_offset);
    w = MAX (w, (gint) strlen (label));
  }
  return w;
}

/* Text table on stdout, and the same rows as Markdown when md != NULL. The
 * terminal gets "us" for microseconds: g_print would turn µ into '?' in a C
 * locale. */
static void
report (Bench * b, GArray * gpu, GArray * copies, GArray * sys,
    const gchar * cmdline, GString * md)
{
  guint i;

  g_print ("\nvktile benchmark: %s\n", opt_element);
  g_print ("device: %s (%s, Vulkan %s)\ndriver: %s\n", b->device_name,
      b->device_type, b->api_version, b->driver);
  g_print ("%s; %d warm-up + %d measured frames; GPU times are medians of "
      "timestamp queries\n", gst_version_string (), opt_warmup, opt_frames);
  if (!b->has_timestamps)
    g_print ("NOTE: the compute queue of this device has no timestamps: no "
        "GPU times can be measured\n");

  if (md) {
    GDateTime *now = g_date_time_new_now_local ();
    gchar *date = g_date_time_format (now, "%Y-%m-%d %H:%M %Z");
    g_string_append_printf (md, "### %s — %s, %s\n\n", opt_element,
        b->device_name, date);
    g_string_append_printf (md, "- Device: %s (%s, Vulkan %s)\n",
        b->device_name, b->device_type, b->api_version);
    g_string_append_printf (md, "- Driver: %s\n", b->driver);
    g_string_append_printf (md, "- %s\n", gst_version_string ());
    g_string_append_printf (md, "- Date: %s\n", date);
    g_string_append_printf (md, "- Command: `%s`\n", cmdline);
    g_string_append_printf (md, "- GPU rows: %d warm-up frames, then the "
        "median of %d; system-memory rows: %d frames after %d warm-up\n",
        opt_warmup, opt_frames, opt_sysmem_frames, opt_warmup);
    if (!b->has_timestamps)
      g_string_append (md, "- **No GPU timestamps on this device's compute "
          "queue: no GPU times.**\n");
    g_string_append (md, "\n");
    g_free (date);
    g_date_time_unref (now);
  }

  if (copies && copies->len) {
    g_print ("\nCopy floor: vkCmdCopyBuffer of the frame, device-local to "
        "device-local (GB/s counts bytes in + bytes out)\n");
    g_print ("%-8s %-10s %12s %10s %10s %8s %10s %8s\n", "format", "size",
        "bytes", "median us", "min us", "GB/s", "shader us", "GB/s");
    if (md)
      g_string_append (md, "#### Copy floor (the frame copied device-local "
          "to device-local by vkCmdCopyBuffer, and by a compute shader)\n\n"
          "| format | size | bytes | vkCmdCopyBuffer median µs | min µs | "
          "GB/s (in + out) | shader copy median µs | GB/s |\n"
          "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (i = 0; i < copies->len; i++) {
      const CopyResult *c = &g_array_index (copies, CopyResult, i);
      const gchar *fmt = gst_video_format_to_string (c->format);
      gchar size[32];
      g_snprintf (size, sizeof (size), "%dx%d", c->width, c->height);
      if (c->status == RESULT_OK) {
        gdouble gbs = 2.0 * c->bytes / c->median_ns;
        gdouble sgbs = c->shader_median_ns > 0 ?
            2.0 * c->bytes / c->shader_median_ns : 0;
        g_print ("%-8s %-10s %12" G_GSIZE_FORMAT " %10.1f %10.1f %8.1f "
            "%10.1f %8.1f\n", fmt, size, c->bytes, c->median_ns / 1e3,
            c->min_ns / 1e3, gbs, c->shader_median_ns / 1e3, sgbs);
        if (md)
          g_string_append_printf (md, "| %s | %s | %" G_GSIZE_FORMAT
              " | %.1f | %.1f | %.1f | %.1f | %.1f |\n", fmt, size, c->bytes,
              c->median_ns / 1e3, c->min_ns / 1e3, gbs,
              c->shader_median_ns / 1e3, sgbs);
      } else {
        g_print ("%-8s %-10s %12" G_GSIZE_FORMAT " %s\n", fmt, size,
            c->bytes, status_text (c->status, c->message));
        if (md)
          g_string_append_printf (md, "| %s | %s | %" G_GSIZE_FORMAT
              " | - | - | - (%s) |\n", fmt, size, c->bytes,
              status_text (c->status, c->message));
      }
    }
    if (md)
      g_string_append (md, "\n");
  }

  if (gpu && gpu->len) {
    gint lw = label_width (gpu, sizeof (GpuResult),
        G_STRUCT_OFFSET (GpuResult, label), 13);
    g_print ("\n%s on GPU-resident frames: GPU time of its dispatches. "
        "x copy: time / copy floor of the same format and size; x ref: time "
        "/ time of the same configuration with the algorithm named\n",
        opt_element);
    g_print ("%-*s %-6s %-10s %10s %10s %7s %8s %8s %-16s %4s %s\n", lw,
        "configuration", "format", "size", "median us", "min us", "Gpix/s",
        "x copy", "x shader", "x ref", "disp", "note");
    if (md)
      g_string_append_printf (md, "#### %s on GPU-resident frames (GPU time "
          "of the element's dispatches)\n\n"
          "x copy: the time over the vkCmdCopyBuffer floor of the same format "
          "and size; x shader: over the shader copy. "
          "x ref: the time over that of the same configuration with the "
          "algorithm named.\n\n"
          "| configuration | format | size | median µs | min µs | Gpixel/s "
          "| x copy | x shader | x ref | note |\n"
          "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
          opt_element);
    for (i = 0; i < gpu->len; i++) {
      const GpuResult *r = &g_array_index (gpu, GpuResult, i);
      const CopyResult *c = find_copy (copies, r->format, r->width,
          r->height);
      const gchar *fmt = gst_video_format_to_string (r->format);
      const gchar *note = status_text (r->status, r->message);
      gchar *ref = fmt_ref_ratio (gpu, r);
      gchar size[32];
      g_snprintf (size, sizeof (size), "%dx%d", r->width, r->height);
      if (r->status == RESULT_OK) {
        gchar *ratio = fmt_ratio (c, r->median_ns);
        gchar *sratio = c && c->shader_median_ns > 0 ?
            g_strdup_printf ("%.2fx", r->median_ns / c->shader_median_ns) :
            g_strdup ("-");
        gdouble gpix = gpix_per_s (r->width, r->height, r->median_ns);
        g_print ("%-*s %-6s %-10s %10.1f %10.1f %7.2f %8s %8s %-16s %4u %s\n",
            lw, r->label, fmt, size, r->median_ns / 1e3, r->min_ns / 1e3, gpix,
            ratio, sratio, ref, r->dispatches, note);
        if (md)
          g_string_append_printf (md, "| %s | %s | %s | %.1f | %.1f | %.2f "
              "| %s | %s | %s | %s |\n", r->label, fmt, size,
              r->median_ns / 1e3, r->min_ns / 1e3, gpix, ratio, sratio, ref,
              note);
        g_free (ratio);
        g_free (sratio);
      } else {
        g_print ("%-*s %-6s %-10s %10s %10s %7s %8s %8s %-16s %4s %s\n", lw,
            r->label, fmt, size, "-", "-", "-", "-", "-", "-", "-", note);
        if (md)
          g_string_append_printf (md, "| %s | %s | %s | - | - | - | - | - "
              "| - | %s |\n", r->label, fmt, size, note);
      }
      g_free (ref);
    }
    if (md)
      g_string_append (md, "\n");
  }

  if (sys && sys->len) {
    gint lw = label_width (sys, sizeof (SysResult),
        G_STRUCT_OFFSET (SysResult, label), 8);
    g_print ("\nSystem memory in and out, RGBA: wall-clock frames/s; ratio to "
        "the vulkanupload ! vulkandownload round trip of the same size\n");
    g_print ("%-*s %-10s %10s %7s %s\n", lw, "pipeline", "size", "frames/s",
        "ratio", "note");
    if (md)
      g_string_append (md, "#### System memory in and out, RGBA (wall-clock "
          "frames/s)\n\n"
          "| pipeline | size | frames/s | ratio to round trip | note |\n"
          "| --- | --- | ---: | ---: | --- |\n");
    for (i = 0; i < sys->len; i++) {
      const SysResult *r = &g_array_index (sys, SysResult, i);
      const SysResult *base = NULL;
      const gchar *note = r->message ? r->message :
          (r->caps_note ? r->caps_note : "");
      gchar size[32], ratio[32] = "-", fps[32] = "-";
      guint j;
      /* The round trip (the row without caps_note) of the same size. */
      for (j = 0; j < sys->len; j++) {
        const SysResult *o = &g_array_index (sys, SysResult, j);
        if (o->width == r->width && o->height == r->height && !o->caps_note
            && o->status == RESULT_OK)
          base = o;
      }
      g_snprintf (size, sizeof (size), "%dx%d", r->width, r->height);
      if (r->status == RESULT_OK) {
        g_snprintf (fps, sizeof (fps), "%.1f", r->fps);
        if (base && base->fps > 0)
          g_snprintf (ratio, sizeof (ratio), "%.2fx", r->fps / base->fps);
      }
      g_print ("%-*s %-10s %10s %7s %s\n", lw, r->label, size, fps, ratio,
          note);
      if (md)
        g_string_append_printf (md, "| `%s` | %s | %s | %s | %s |\n",
            r->label, size, fps, ratio, note);
    }
    if (md)
      g_string_append (md, "\n");
  }
}

/* The command line as typed, for the Markdown section. */
static gchar *
join_cmdline (gint argc, gchar ** argv)
{
  GString *s = g_string_new (NULL);
  gint i;

  for (i = 0; i < argc; i++) {
    gboolean plain = argv[i][0] && strspn (argv[i],
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        "-_=./,:+@%") == strlen (argv[i]);
    gchar *q = plain ? g_strdup (argv[i]) : g_shell_quote (argv[i]);
    if (i)
      g_string_append_c (s, ' ');
    g_string_append (s, q);
    g_free (q);
  }
  return g_string_free (s, FALSE);
}

int
main (int argc, char **argv)
{
  GOptionContext *octx;
  GError *error = NULL;
  Bench bench = { 0 };
  GArray *formats = NULL, *sizes = NULL;
  GArray *gpu = NULL, *copies = NULL, *sys = NULL;
  const gchar *const *configs;
  gchar *cmdline = join_cmdline (argc, argv);
  GString *md = NULL;
  gint64 t_start = g_get_monotonic_time ();
  guint f, z, c, n_configs, step = 0, steps;
  int ret = 1;

  octx = g_option_context_new ("- time vktile elements against the GPU copy "
      "floor");
  g_option_context_set_summary (octx,
      "Times each configuration of an element on GPU-resident frames with "
      "Vulkan timestamp queries (median after warm-up), the GPU copy of the "
      "same frames (the floor), and the element with system memory in and "
      "out against a vulkanupload ! vulkandownload round trip.\n\n"
      "Examples:\n"
      "  vktile-bench --quick\n"
      "  vktile-bench --markdown bench.md\n"
      "  vktile-bench -e tiledconv -c \"preset=gaussian5 algorithm=tiled\" "
      "-f RGBA -s 3840x2160\n"
      "  vktile-bench -e gaussblur -c \"sigma=2 algorithm=fused\" "
      "-c \"sigma=2 algorithm=two-pass\"");
  {
    /* The defaults, in --help, so that nobody has to read the source to
     * know what a bare run times. */
    static const gchar *names[] = { "tiledconv", "gaussblur",
      "recursivefilter"
    };
    GString *d = g_string_new ("Configurations timed without --config:\n");
    guint i, j;
    for (i = 0; i < G_N_ELEMENTS (names); i++) {
      const gchar *const *cfg = default_configs (names[i]);
      g_string_append_printf (d, "  %s:\n", names[i]);
      for (j = 0; cfg[j]; j++)
        g_string_append_printf (d, "    %s\n", cfg[j]);
    }
    g_string_append (d, "  any other element: its defaults\n");
    g_option_context_set_description (octx, d->str);
    g_string_free (d, TRUE);
  }
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    goto out;
  }

  if (!opt_element)
    opt_element = g_strdup ("tiledconv");
  if (opt_frames < 0)
    opt_frames = opt_quick ? 10 : 200;
  if (opt_warmup < 0)
    opt_warmup = opt_quick ? 3 : 200;
  if (opt_sysmem_frames < 0)
    opt_sysmem_frames = opt_quick ? 10 : 300;
  if (opt_frames < 1 || opt_sysmem_frames < 1 || opt_warmup < 1) {
    /* The throughput rows start their clock at the last warm-up frame. */
    g_printerr ("--frames and --sysmem-frames must be >= 1, --warmup >= 1\n");
    goto out;
  }
  formats = parse_formats (opt_formats ? opt_formats : "GRAY8,RGBA,NV12",
      &error);
  if (formats)
    sizes = parse_sizes (opt_sizes ? opt_sizes :
        (opt_quick ? "640x360" : "1920x1080,3840x2160"), &error);
  if (!sizes) {
    g_printerr ("%s\n", error->message);
    goto out;
  }
  configs = opt_configs ? (const gchar * const *) opt_configs :
      default_configs (opt_element);
  n_configs = g_strv_length ((gchar **) configs);

  {
    GstElementFactory *factory = gst_element_factory_find (opt_element);
    if (!factory) {
      g_printerr ("No element \"%s\": is GST_PLUGIN_PATH set to the build's "
          "plugin/ folder?\n", opt_element);
      goto out;
    }
    gst_object_unref (factory);
  }
  if (!bench_open (&bench, &error)) {
    g_printerr ("No usable Vulkan device: %s\n",
        error ? error->message : "unknown error");
    goto out;
  }
  g_printerr ("device: %s (%s), %s\n", bench.device_name, bench.device_type,
      bench.driver);
  if (!bench.has_timestamps)
    g_printerr ("WARNING: no timestamps on the compute queue: GPU times "
        "will be reported as missing\n");

  gpu = g_array_new (FALSE, TRUE, sizeof (GpuResult));
  copies = g_array_new (FALSE, TRUE, sizeof (CopyResult));
  sys = g_array_new (FALSE, TRUE, sizeof (SysResult));
  steps = sizes->len * formats->len * ((opt_no_copy ? 0 : 1) +
      (opt_no_gpu ? 0 : n_configs)) + (opt_no_sysmem ? 0 : 2 * sizes->len);

  /* Size by size, format by format: the copy floor right before the
   * configurations it is the floor of, on the same device. */
  for (z = 0; z < sizes->len; z++) {
    Size sz = g_array_index (sizes, Size, z);
    for (f = 0; f < formats->len; f++) {
      GstVideoFormat fmt = g_array_index (formats, GstVideoFormat, f);
      if (!opt_no_copy) {
        CopyResult cr;
        time_copy (&bench, fmt, sz.w, sz.h, &cr);
        g_array_append_val (copies, cr);
        g_printerr ("[%u/%u] copy %s %dx%d: %.1f us%s%s\n", ++step, steps,
            gst_video_format_to_string (fmt), sz.w, sz.h, cr.median_ns / 1e3,
            cr.message ? " — " : "", cr.message ? cr.message : "");
      }
      for (c = 0; !opt_no_gpu && c < n_configs; c++) {
        GpuResult gr;
        time_element (&bench, configs[c], fmt, sz.w, sz.h, &gr);
        g_array_append_val (gpu, gr);
        g_printerr ("[%u/%u] %s %s %s %dx%d: ", ++step, steps, opt_element,
            gr.label, gst_video_format_to_string (fmt), sz.w, sz.h);
        if (gr.status == RESULT_OK)
          g_printerr ("%.1f us%s%s\n", gr.median_ns / 1e3,
              gr.message ? " — " : "", gr.message ? gr.message : "");
        else
          g_printerr ("%s\n", status_text (gr.status, gr.message));
      }
    }
  }

  if (!opt_no_sysmem) {
    gchar *el_desc = g_strdup_printf ("%s name=" EL_NAME " %s", opt_element,
        configs[0]);
    for (z = 0; z < sizes->len; z++) {
      Size sz = g_array_index (sizes, Size, z);
      SysResult sr;
      /* gstvulkan 1.22's vulkandownload takes only VulkanImage: the round
       * trip goes through an image, with the format pinned on both sides
       * (an unconstrained vulkanupload may pick one gstvulkan aborts on). */
      time_sysmem (&bench, "imagefreeze ! vulkanupload ! vulkandownload",
          "vulkanupload ! video/x-raw(memory:VulkanImage),format=RGBA ! "
          "vulkandownload ! video/x-raw,format=RGBA", sz.w, sz.h, FALSE, &sr);
      g_array_append_val (sys, sr);
      g_printerr ("[%u/%u] round trip %dx%d: %.1f frames/s%s%s\n", ++step,
          steps, sz.w, sz.h, sr.fps, sr.message ? " — " : "",
          sr.message ? sr.message : "");
      {
        gchar *label = g_strdup_printf ("imagefreeze ! %s%s%s ! fakesink",
            opt_element, configs[0][0] ? " " : "", configs[0]);
        time_sysmem (&bench, label, el_desc, sz.w, sz.h, TRUE, &sr);
        g_free (label);
      }
      g_array_append_val (sys, sr);
      g_printerr ("[%u/%u] %s system memory %dx%d: %.1f frames/s%s%s\n",
          ++step, steps, opt_element, sz.w, sz.h, sr.fps,
          sr.message ? " — " : "", sr.message ? sr.message : "");
    }
    g_free (el_desc);
  }

  if (opt_markdown)
    md = g_string_new (NULL);
  report (&bench, gpu, copies, sys, cmdline, md);
  if (opt_verbose)
    g_print ("\npipelines that ran on the benchmark's own device: %u\n",
        bench.shared_with_pipelines);
  g_print ("\n%.1f s in all\n", (g_get_monotonic_time () - t_start) / 1e6);
  if (md) {
    if (!g_file_set_contents (opt_markdown, md->str, md->len, &error)) {
      g_printerr ("Cannot write %s: %s\n", opt_markdown, error->message);
      goto out;
    }
    g_print ("Markdown written to %s\n", opt_markdown);
  }
  ret = 0;

out:
  if (gpu) {
    for (c = 0; c < gpu->len; c++) {
      g_free (g_array_index (gpu, GpuResult, c).label);
      g_free (g_array_index (gpu, GpuResult, c).message);
    }
    g_array_unref (gpu);
  }
  if (copies) {
    for (c = 0; c < copies->len; c++)
      g_free (g_array_index (copies, CopyResult, c).message);
    g_array_unref (copies);
  }
  if (sys) {
    for (c = 0; c < sys->len; c++) {
      g_free (g_array_index (sys, SysResult, c).label);
      g_free (g_array_index (sys, SysResult, c).message);
      g_free (g_array_index (sys, SysResult, c).caps_note);
    }
    g_array_unref (sys);
  }
  if (md)
    g_string_free (md, TRUE);
  if (formats)
    g_array_unref (formats);
  if (sizes)
    g_array_unref (sizes);
  bench_close (&bench);
  g_clear_error (&error);
  g_option_context_free (octx);
  g_free (cmdline);
  return ret;
}
