/* vktile-bench.c: the vktile benchmark (the performance contract).
 *
 * This file owns the program: the command line, the plan of a run (which
 * subjects are timed together), the interleaved rounds, the floors, and the
 * text, Markdown and CSV reports. Pipelines driven frame by frame are
 * benchpipe.c; the statistics, benchstats.c; the Vulkan recording, the
 * plugin's own helper (plugin/vktcompute.c).
 *
 * The GPU this runs on is shared, and its speed drifts 2-3x within minutes.
 * So nothing is timed in a block of its own: subjects that are compared are
 * put in one group (one format and size) and timed in rounds, one frame of
 * each per round in a rotating order, and every ratio is taken within a
 * round, then summarised by its median and quartiles over the rounds. The
 * first subject of each group is timed twice under two names (A/A): their
 * ratio says whether the run was repeatable.
 *
 * Three kinds of group:
 *   gpu     each element configuration on GPU-resident frames (GPU time of
 *           its dispatches, from its timing meta), beside the floors:
 *           vkCmdCopyBuffer and a shader copy of the frame in device-local
 *           memory, and the PCIe copies to and from pinned host memory;
 *   sysmem  each element with system memory in and out, fed distinct
 *           frames, wall-clock time per frame over a burst, beside the
 *           vulkanupload ! vulkandownload round trip and the PCIe floors;
 *   chain   the elements chained on GPU-resident frames, wall-clock, beside
 *           the sum of their GPU times. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>

#include <execinfo.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchpcie.h"
#include "benchpipe.h"
#include "benchstats.h"
#include "benchstreams.h"
#include "vktcompute.h"
#include "copy.spv.h"

#define AA_TOLERANCE 0.05
#define MAX_FRAMES 8
#define HEAT_BYTES (64 << 20)
#define ROUND_TRIP "vulkanupload ! vulkandownload"

/* ---- options ---- */

static gchar *opt_elements = NULL;
static gchar **opt_configs = NULL;
static gchar *opt_formats = NULL;
static gchar *opt_sizes = NULL;
static gchar *opt_stream_formats = NULL;
static gint opt_rounds = -1;
static gint opt_warmup = -1;
static gint opt_stream_rounds = -1;
static gint opt_burst = -1;
static gint opt_burst_ms = -1;
static gchar *opt_markdown = NULL;
static gchar *opt_csv = NULL;
static gchar *opt_peers = NULL;
static gboolean opt_quick = FALSE;
static gboolean opt_no_gpu = FALSE;
static gboolean opt_no_sysmem = FALSE;
static gboolean opt_no_chain = FALSE;
static gint opt_timeout = 60;
static gint opt_device_index = -1;
static gchar *opt_device_name = NULL;
static gboolean opt_verbose = FALSE;
static gint opt_regions = 0;
static gchar *opt_streams = NULL;
static gchar *opt_streams_format = NULL;
static gchar *opt_streams_size = NULL;
static gdouble opt_streams_seconds = -1.0;
static gchar *opt_streams_modes = NULL;
static gchar *opt_stream_worker = NULL;

static GOptionEntry entries[] = {
  {"element", 'e', 0, G_OPTION_ARG_STRING, &opt_elements,
        "Comma-separated elements to time (default "
        "tiledconv,gaussblur,recursivefilter)", "LIST"},
  {"config", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &opt_configs,
        "A configuration to time instead of the defaults: properties, "
        "optionally after the element's name; repeatable. The system-memory "
        "rows time every one given, the chain chains them in order",
        "\"[ELEMENT] "
        "PROP=VAL ...\""},
  {"formats", 'f', 0, G_OPTION_ARG_STRING, &opt_formats,
      "Video formats of the GPU rows (default GRAY8,RGBA,NV12)", "LIST"},
  {"sizes", 's', 0, G_OPTION_ARG_STRING, &opt_sizes,
        "Frame sizes (default 1920x1080,3840x2160; --quick: 640x360)",
      "WxH,..."},
  {"stream-formats", 0, 0, G_OPTION_ARG_STRING, &opt_stream_formats,
      "Video formats of the system-memory rows (default RGBA,NV12)", "LIST"},
  {"rounds", 'r', 0, G_OPTION_ARG_INT, &opt_rounds,
      "Measured rounds of the GPU rows (default 100; --quick: 8)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt_warmup,
        "Rounds discarded before measuring (default 10, the stream rows a "
        "fifth of it; --quick: 2)", "N"},
  {"stream-rounds", 0, 0, G_OPTION_ARG_INT, &opt_stream_rounds,
        "Measured rounds of the system-memory and chain rows (default 40; "
        "--quick: 3)", "N"},
  {"burst", 'b', 0, G_OPTION_ARG_INT, &opt_burst,
        "Frames per round of a system-memory or chain row, at least "
        "(default 12; --quick: 4)", "N"},
  {"burst-ms", 0, 0, G_OPTION_ARG_INT, &opt_burst_ms,
        "Lengthen the bursts of a group so that each lasts at least this "
        "long, after the warm-up showed how fast its fastest subject is "
        "(default 50; --quick: 0)", "MS"},
  {"markdown", 'm', 0, G_OPTION_ARG_FILENAME, &opt_markdown,
      "Also write the tables as a Markdown section (docs/BENCHMARKS.md)",
      "FILE"},
  {"csv", 0, 0, G_OPTION_ARG_FILENAME, &opt_csv,
      "Also write every row as CSV (bench/plot.py draws it)", "FILE"},
  {"peers", 'p', 0, G_OPTION_ARG_FILENAME, &opt_peers,
        "CSV written by bench/peers.py on the same GPU: shown beside the "
        "matching vktile rows", "FILE"},
  {"quick", 'q', 0, G_OPTION_ARG_NONE, &opt_quick,
      "Smoke test: small frames, few rounds (for lavapipe)", NULL},
  {"no-gpu", 0, 0, G_OPTION_ARG_NONE, &opt_no_gpu,
      "Skip the GPU-resident rows", NULL},
  {"no-sysmem", 0, 0, G_OPTION_ARG_NONE, &opt_no_sysmem,
      "Skip the system-memory rows", NULL},
  {"no-chain", 0, 0, G_OPTION_ARG_NONE, &opt_no_chain,
      "Skip the chained elements", NULL},
  {"timeout", 't', 0, G_OPTION_ARG_INT, &opt_timeout,
        "Seconds one push of frames may take before its row is abandoned "
        "(default 60)", "S"},
  {"device-index", 'd', 0, G_OPTION_ARG_INT, &opt_device_index,
        "Vulkan device to measure, as vulkaninfo numbers them and as the "
        "elements' device-index chooses (default: the first that is not a "
        "CPU)", "N"},
  {"device-name", 0, 0, G_OPTION_ARG_STRING, &opt_device_name,
        "Measure the device whose name holds S, case ignored, as the "
        "elements' device-name chooses; with -d both must hold", "S"},
  {"regions", 0, 0, G_OPTION_ARG_INT, &opt_regions,
        "Attach to every frame N regions of interest of type \"face\" (a "
        "grid of boxes covering a quarter of the frame in all, N a square) "
        "and one of type \"area\" (one box of that quarter): compare "
        "-c \"roi-meta=face\" with -c \"roi-meta=area\" to see what "
        "the number of regions costs", "N"},
  {"verbose", 'v', 0, G_OPTION_ARG_NONE, &opt_verbose,
      "Print every pipeline and the memory its element negotiated", NULL},
  {"streams", 0, 0, G_OPTION_ARG_STRING, &opt_streams,
        "Many cameras on one GPU: for each N of the list (e.g. 1,4,16,64), N "
        "independent system-memory streams through each system-memory "
        "configuration, pushed as fast as they go, as pipelines of this "
        "process sharing its device and as N processes of their own; their "
        "frames/s in all beside the PCIe floor both ways at once and the "
        "GPU-time bound", "LIST"},
  {"streams-format", 0, 0, G_OPTION_ARG_STRING, &opt_streams_format,
      "Video format of the streams (default NV12)", "FORMAT"},
  {"streams-size", 0, 0, G_OPTION_ARG_STRING, &opt_streams_size,
      "Frame size of the streams (default 1920x1080; --quick: 640x360)",
      "WxH"},
  {"streams-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt_streams_seconds,
        "Seconds each streams row is counted, after a warm-up (default 4; "
        "--quick: 1)", "S"},
  {"streams-modes", 0, 0, G_OPTION_ARG_STRING, &opt_streams_modes,
        "Which streams rows to run: threads (pipelines of one process), "
        "processes, or both (default threads,processes)", "LIST"},
  {"stream-worker", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING,
      &opt_stream_worker, "One stream of --streams in a process of its own",
      "\"ELEMENT PROPS\""},
  {NULL}
};

/* ---- what is timed ---- */

/* The configurations timed without --config: what the targets ask about each
 * element. The first of a set of rows that differ only in algorithm= is
 * their reference ("x ref"). */
static const gchar *tiledconv_configs[] = {
  "preset=box3 algorithm=tiled", "preset=box3 algorithm=naive",
  "preset=box3 algorithm=two-pass", "preset=box3 algorithm=shared",
  "preset=box5 algorithm=tiled", "preset=box5 algorithm=naive",
  "preset=box5 algorithm=two-pass", "preset=box5 algorithm=shared",
  "preset=sharpen algorithm=tiled", NULL
};

static const gchar *gaussblur_configs[] = {
  "sigma=1 algorithm=fused",
  "sigma=2 algorithm=fused", "sigma=2 algorithm=two-pass",
  "sigma=2 algorithm=auto",
  "sigma=4 algorithm=fused", "sigma=4 algorithm=two-pass",
  "sigma=16 algorithm=auto", "sigma=64 algorithm=auto", NULL
};

static const gchar *recursivefilter_configs[] = {
  "filter=gaussian sigma=2 algorithm=tiled",
  "filter=gaussian sigma=2 algorithm=scanline",
  "filter=gaussian sigma=32 algorithm=tiled",
  "filter=gaussian sigma=128 algorithm=tiled",
  "filter=exponential sigma=8 algorithm=tiled",
  "filter=box radius=8 iterations=3 algorithm=tiled",
  "axes=none temporal-alpha=0.8", NULL
};

/* What each element runs in the system-memory rows and the chains: the
 * settings people use (the targets' chain: tiledconv, gaussblur sigma 2,
 * recursivefilter sigma 4). */

static const gchar *
stream_config (const gchar * element)
{
  if (g_str_equal (element, "tiledconv"))
    return "preset=gaussian3";
  if (g_str_equal (element, "gaussblur"))
    return "sigma=2";
  if (g_str_equal (element, "recursivefilter"))
    return "filter=gaussian sigma=4";
  return "";
}

static const gchar *const *
default_configs (const gchar * element)
{
  static const gchar *none[] = { "", NULL };

  if (g_str_equal (element, "tiledconv"))
    return tiledconv_configs;
  if (g_str_equal (element, "gaussblur"))
    return gaussblur_configs;
  if (g_str_equal (element, "recursivefilter"))
    return recursivefilter_configs;
  return none;
}

typedef struct
{
  gchar *element;
  gchar *props;
} Config;

/* ---- the device of the run ---- */

typedef struct
{
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  VktCompute *compute;
  gboolean has_timestamps;
  gboolean is_cpu;
  gchar *device_name;
  gchar *driver;
  gchar *api_version;
  gchar *uuid;                  /* as nvidia-smi spells it */
  const gchar *device_type;
  GstMemory *heat_src, *heat_dst;
  gchar *gpu_state_start, *gpu_state_end;
} Bench;

static const VktShader copy_shader = { "copy", copy_spv, sizeof (copy_spv),
  2, {VKT_BIND_STORAGE, VKT_BIND_STORAGE}, sizeof (guint32)
};

static VkBuffer
vk_buffer (GstMemory * mem)
{
  return ((GstVulkanBufferMemory *) mem)->buffer;
}

/* Records the copy shader over `bytes` (a multiple of 16) of src into dst. */
static gboolean
record_shader_copy (Bench * b, GstMemory * src, GstMemory * dst, gsize bytes,
    GError ** error)
{
  VktPipeline *pipe = vkt_compute_pipeline (b->compute, &copy_shader, NULL,
      0, error);
  VktBufferRef refs[2] = { {vk_buffer (src), 0, 0}, {vk_buffer (dst), 0, 0} };
  guint32 vec4s = bytes / 16;
  guint groups = (vec4s + 255) / 256;
  guint gx = MIN (groups, vkt_compute_max_groups (b->compute));

  if (!pipe)
    return FALSE;
  vkt_compute_dispatch (b->compute, pipe, refs, &vec4s, gx,
      (groups + gx - 1) / gx);
  return TRUE;
}

/* Runs before every timed frame or burst: the copy shader over 2 x 64 MiB.
 * It keeps the GPU at its working clocks (NVIDIA drops them within
 * milliseconds of idling: first measurements ran at a third of the clock)
 * and evicts the L2 cache, so that no frame finds its input cached, as the
 * frames of a real stream would not. */
static void
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
      || !record_shader_copy (b, b->heat_src, b->heat_dst, HEAT_BYTES, &error)
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
static gchar *
read_gpu_state (Bench * b)
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

static gboolean
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
  g_free (b->uuid);
  g_free (b->gpu_state_start);
  g_free (b->gpu_state_end);
}

/* ---- subjects and groups ---- */

typedef enum
{
  SUBJECT_ELEMENT,              /* one frame a round, GPU time from the metas */
  SUBJECT_STREAM,               /* a burst a round, wall-clock time per frame */
  SUBJECT_COPY,                 /* vkCmdCopyBuffer, device-local both sides */
  SUBJECT_SHADER_COPY,          /* shaders/copy.comp, the same bytes */
  SUBJECT_PCIE_UP,              /* pinned host memory to device-local */
  SUBJECT_PCIE_DOWN,            /* device-local to pinned host memory */
  SUBJECT_PCIE_OVERLAP,         /* both in one submission, no barrier */
  /* shaders/copy.comp from pinned host memory to pinned host memory: both
   * directions in one dispatch, as a filter that reads and writes system
   * memory itself moves them */
  SUBJECT_PCIE_SHADER,
  /* both ways at once: the faster of the two above, per round (derived) */
  SUBJECT_PCIE_DUPLEX,
  SUBJECT_PCIE_SEQUENTIAL,      /* up + down of the same round (derived) */
} SubjectKind;

typedef struct
{
  SubjectKind kind;
  gchar *element;               /* "tiledconv", "chain", "floor", ... */
  gchar *config;                /* its properties, or what the floor is */
  gchar *middle;                /* pipeline between appsrc and appsink */
  gboolean is_aa;               /* the repeat of the group's first subject */
  gboolean plane_memories;      /* fed frames of one memory per plane */
  BenchPipe *pipe;
  gdouble *ns;                  /* per measured round: time per frame */
  gdouble *gpu_ns;              /* per measured round: GPU time per frame */
  guint dispatches;
  gboolean failed;
  gchar *message;               /* why it failed */
  gchar *in_memory, *out_memory;
  gboolean no_meta, no_dispatch, left_gpu, not_device_local;
} Subject;

typedef enum
{
  GROUP_GPU,
  GROUP_SYSMEM,
  GROUP_CHAIN,
} GroupKind;

typedef struct
{
  GroupKind kind;
  GstVideoFormat format;
  gint width, height;
  gsize bytes;
  guint rounds, warmup, burst;
  GPtrArray *subjects;
  GstBuffer *frames[MAX_FRAMES];
  GstBuffer *plane_frames[MAX_FRAMES];  /* the same, a memory per plane */
  guint n_frames;
  GstMemory *dl_src, *dl_dst;
  GstMemory *host_src, *host_dst;       /* SUBJECT_PCIE_SHADER */
  BenchPcie *pcie;
  gboolean pcie_one_queue, pcie_host_device_local;
} Group;

static const gchar *
group_kind_name (GroupKind k)
{
  return k == GROUP_GPU ? "gpu" : k == GROUP_SYSMEM ? "sysmem" : "chain";
}

static gboolean
subject_is_floor (const Subject * s)
{
  return s->kind != SUBJECT_ELEMENT && s->kind != SUBJECT_STREAM;
}

static Subject *
subject_new (SubjectKind kind, const gchar * element, const gchar * config,
    const gchar * middle, guint rounds)
{
  Subject *s = g_new0 (Subject, 1);

  s->kind = kind;
  s->element = g_strdup (element);
  s->config = g_strdup (config);
  s->middle = g_strdup (middle);
  s->ns = g_new0 (gdouble, MAX (rounds, 1));
  s->gpu_ns = g_new0 (gdouble, MAX (rounds, 1));
  return s;
}

static void
subject_free (Subject * s)
{
  if (!s)
    return;
  bench_pipe_free (s->pipe);
  g_free (s->element);
  g_free (s->config);
  g_free (s->middle);
  g_free (s->ns);
  g_free (s->gpu_ns);
  g_free (s->message);
  g_free (s->in_memory);
  g_free (s->out_memory);
  g_free (s);
}

static void
subject_fail (Subject * s, const gchar * what, GError * error)
{
  s->failed = TRUE;
  if (!s->message)
    s->message = g_strdup_printf ("%s%s%s", what, error ? ": " : "",
        error ? error->message : "");
  g_printerr ("  %s %s: %s\n", s->element, s->config, s->message);
  g_clear_pointer (&s->pipe, bench_pipe_free);
}

static gchar *
subject_label (const Subject * s)
{
  if (s->kind == SUBJECT_ELEMENT || s->kind == SUBJECT_STREAM)
    return s->config[0] ? g_strdup_printf ("%s %s", s->element, s->config) :
        g_strdup (s->element);
  return g_strdup (s->config);
}

static Group *
group_new (GroupKind kind, GstVideoFormat format, gint w, gint h)
{
  Group *g = g_new0 (Group, 1);
  GstVideoInfo info;

  g->kind = kind;
  g->format = format;
  g->width = w;
  g->height = h;
  gst_video_info_set_format (&info, format, w, h);
  g->bytes = GST_VIDEO_INFO_SIZE (&info);
  g->subjects = g_ptr_array_new_with_free_func ((GDestroyNotify) subject_free);
  if (kind == GROUP_GPU) {
    g->rounds = opt_rounds;
    g->warmup = opt_warmup;
    g->burst = 1;
  } else {
    g->rounds = opt_stream_rounds;
    g->warmup = MAX (1, opt_warmup / 5);
    g->burst = opt_burst;
  }
  return g;
}

static void
group_release (Group * g)
{
  guint i;

  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    g_clear_pointer (&s->pipe, bench_pipe_free);
  }
  for (i = 0; i < g->n_frames; i++) {
    gst_clear_buffer (&g->frames[i]);
    gst_clear_buffer (&g->plane_frames[i]);
  }
  g->n_frames = 0;
  g_clear_pointer (&g->dl_src, gst_memory_unref);
  g_clear_pointer (&g->dl_dst, gst_memory_unref);
  g_clear_pointer (&g->host_src, gst_memory_unref);
  g_clear_pointer (&g->host_dst, gst_memory_unref);
  g_clear_pointer (&g->pcie, bench_pcie_free);
}

static void
group_free (Group * g)
{
  group_release (g);
  g_ptr_array_unref (g->subjects);
  g_free (g);
}

static Subject *
group_add (Group * g, SubjectKind kind, const gchar * element,
    const gchar * config, const gchar * middle)
{
  Subject *s = subject_new (kind, element, config, middle, g->rounds);
  g_ptr_array_add (g->subjects, s);
  return s;
}

/* The first subject again, under another name: the A/A check. */
static void
group_add_aa (Group * g)
{
  Subject *first = g_ptr_array_index (g->subjects, 0);
  gchar *config = g_strdup_printf ("%s (A/A)", first->config);
  Subject *s = group_add (g, first->kind, first->element, config,
      first->middle);

  s->is_aa = TRUE;
  g_free (config);
}

static void
group_add_pcie_floors (Group * g)
{
  group_add (g, SUBJECT_PCIE_UP, "floor", "PCIe upload", NULL);
  group_add (g, SUBJECT_PCIE_DOWN, "floor", "PCIe download", NULL);
  group_add (g, SUBJECT_PCIE_OVERLAP, "floor",
      "PCIe upload and download overlapped", NULL);
  group_add (g, SUBJECT_PCIE_SHADER, "floor",
      "PCIe both ways by a shader copy, host to host", NULL);
}

static Subject *
group_find (Group * g, SubjectKind kind)
{
  guint i;

  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    if (s->kind == kind)
      return s;
  }
  return NULL;
}

/* ---- frames ---- */

/* Random bytes (xorshift: fast enough for a ring of 4K frames): snow, so
 * that no shader profits from flat input. */
static void
fill_random (guint8 * data, gsize size, guint64 seed)
{
  guint64 x = seed * 0x9E3779B97F4A7C15ull + 1;
  gsize i;

  for (i = 0; i + 8 <= size; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    memcpy (data + i, &x, 8);
  }
  for (; i < size; i++)
    data[i] = (guint8) (x >> (8 * (i % 8)));
}

static void
add_video_meta (GstBuffer * buf, const GstVideoInfo * info)
{
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
}

/* --regions: n "face" boxes in a grid of sqrt(n) x sqrt(n) cells over the
 * frame, each a quarter of its cell's area and centred in it, and one
 * "area" box of a quarter of the frame: the same pixels in all. */
static void
add_regions (GstBuffer * buf, const GstVideoInfo * info, gint n)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint k = (gint) ceil (sqrt (n)), i;

  for (i = 0; i < n; i++) {
    gint cw = w / k, ch = h / k;
    gst_buffer_add_video_region_of_interest_meta (buf, "face",
        (i % k) * cw + cw / 4, (i / k) * ch + ch / 4, cw / 2, ch / 2);
  }
  gst_buffer_add_video_region_of_interest_meta (buf, "area", w / 4, h / 4,
      w / 2, h / 2);
}

/* The same frame as one memory per plane, sharing the bytes: gstvulkan
 * 1.22's vulkanupload reads a multi-planar frame from system memory only
 * in that layout (it asserts on one memory that holds all planes). */
static GstBuffer *
split_planes (GstBuffer * frame, const GstVideoInfo * info)
{
  GstMemory *mem = gst_buffer_peek_memory (frame, 0);
  GstBuffer *buf = gst_buffer_new ();
  guint i, n = GST_VIDEO_INFO_N_PLANES (info);

  for (i = 0; i < n; i++) {
    gsize end = i + 1 < n ? info->offset[i + 1] : info->size;
    gst_buffer_append_memory (buf, gst_memory_share (mem, info->offset[i],
            end - info->offset[i]));
  }
  add_video_meta (buf, info);
  return buf;
}

/* A ring of distinct frames: plain system memory, as a decoder or a camera
 * that ignores our pool hands them over, or device-local storage buffers
 * of the benchmark's device, as another vktile element outputs them. */
static gboolean
group_make_frames (Bench * b, Group * g, gboolean gpu_resident, guint n,
    GError ** error)
{
  GstVideoInfo info;
  GstMemory *staging = NULL;
  GstMapInfo map;
  guint i;

  gst_video_info_set_format (&info, g->format, g->width, g->height);
  if (gpu_resident) {
    staging = vkt_buffer_alloc (b->device, g->bytes, TRUE, error);
    if (!staging)
      return FALSE;
  }
  for (i = 0; i < n; i++) {
    GstBuffer *buf;
    if (!gpu_resident) {
      buf = gst_buffer_new_allocate (NULL, g->bytes, NULL);
      gst_buffer_map (buf, &map, GST_MAP_WRITE);
      fill_random (map.data, map.size, i + 1);
      gst_buffer_unmap (buf, &map);
    } else {
      GstMemory *mem = vkt_buffer_alloc (b->device, g->bytes, FALSE, error);
      VkBufferCopy region = { 0, 0, g->bytes };
      if (!mem)
        goto fail;
      gst_memory_map (staging, &map, GST_MAP_WRITE);
      fill_random (map.data, g->bytes, i + 1);
      gst_memory_unmap (staging, &map);
      buf = gst_buffer_new ();
      gst_buffer_append_memory (buf, mem);
      if (!vkt_compute_begin (b->compute, error)) {
        gst_buffer_unref (buf);
        goto fail;
      }
      vkt_compute_copy (b->compute, vk_buffer (staging), vk_buffer (mem), 1,
          &region);
      if (!vkt_compute_submit_wait (b->compute, error)) {
        gst_buffer_unref (buf);
        goto fail;
      }
    }
    add_video_meta (buf, &info);
    if (opt_regions > 0)
      add_regions (buf, &info, opt_regions);
    if (!gpu_resident)
      g->plane_frames[g->n_frames] = split_planes (buf, &info);
    g->frames[g->n_frames++] = buf;
  }
  g_clear_pointer (&staging, gst_memory_unref);
  return TRUE;

fail:
  g_clear_pointer (&staging, gst_memory_unref);
  return FALSE;
}

/* Buffers of the floors: device-local source and destination of the copy
 * floors, and the PCIe floor's own device. */
static gboolean
group_make_floor_buffers (Bench * b, Group * g, GError ** error)
{
  gsize size = GST_ROUND_UP_16 (g->bytes);

  if (!(g->dl_src = vkt_buffer_alloc (b->device, size, FALSE, error))
      || !(g->dl_dst = vkt_buffer_alloc (b->device, size, FALSE, error))
      || !(g->host_src = vkt_buffer_alloc (b->device, size, TRUE, error))
      || !(g->host_dst = vkt_buffer_alloc (b->device, size, TRUE, error))
      || !(g->pcie = bench_pcie_new (b->device, g->bytes, error)))
    return FALSE;
  g->pcie_one_queue = !bench_pcie_overlaps (g->pcie);
  g->pcie_host_device_local = bench_pcie_host_is_device_local (g->pcie)
      && !b->is_cpu;
  return TRUE;
}

/* ---- one step of a subject ---- */

static gboolean
step_floor (Bench * b, Group * g, Subject * s, gdouble * ns, GError ** error)
{
  VkBufferCopy region = { 0, 0, g->bytes };

  if (s->kind == SUBJECT_PCIE_UP || s->kind == SUBJECT_PCIE_DOWN
      || s->kind == SUBJECT_PCIE_OVERLAP)
    return bench_pcie_time (g->pcie, s->kind == SUBJECT_PCIE_UP ?
        BENCH_PCIE_UP : s->kind == SUBJECT_PCIE_DOWN ? BENCH_PCIE_DOWN :
        BENCH_PCIE_BOTH, ns, error);
  if (!vkt_compute_begin (b->compute, error))
    return FALSE;
  vkt_compute_timestamp (b->compute, VKT_TS_START);
  switch (s->kind) {
    case SUBJECT_COPY:
      vkt_compute_copy (b->compute, vk_buffer (g->dl_src),
          vk_buffer (g->dl_dst), 1, &region);
      break;
    case SUBJECT_SHADER_COPY:
      if (!record_shader_copy (b, g->dl_src, g->dl_dst,
              GST_ROUND_UP_16 (g->bytes), error))
        return FALSE;
      break;
    case SUBJECT_PCIE_SHADER:
      if (!record_shader_copy (b, g->host_src, g->host_dst,
              GST_ROUND_UP_16 (g->bytes), error))
        return FALSE;
      break;
    default:
      g_assert_not_reached ();
  }
  /* The helper reads its timestamps only when every slot was written. */
  vkt_compute_timestamp (b->compute, VKT_TS_UPLOADED);
  vkt_compute_timestamp (b->compute, VKT_TS_FILTERED);
  if (!vkt_compute_submit_wait (b->compute, error))
    return FALSE;
  *ns = vkt_compute_elapsed_ns (b->compute, VKT_TS_START, VKT_TS_UPLOADED);
  return TRUE;
}

static gboolean
step_pipeline (Group * g, Subject * s, gdouble * ns, gdouble * gpu_ns,
    GError ** error)
{
  BenchPipeResult r;

  if (!bench_pipe_push (s->pipe, s->plane_memories ? g->plane_frames :
          g->frames, g->n_frames, g->burst,
          opt_timeout, &r, error))
    return FALSE;
  s->dispatches = r.dispatches;
  if (!r.all_metas && s->kind == SUBJECT_ELEMENT)
    s->no_meta = TRUE;
  if (r.metas && r.dispatches == 0)
    s->no_dispatch = TRUE;
  if (g->kind != GROUP_SYSMEM) {
    if (r.moved_ns)
      s->left_gpu = TRUE;
    if (!r.device_local)
      s->not_device_local = TRUE;
  }
  *gpu_ns = (gdouble) r.gpu_ns / r.frames;
  if (s->kind == SUBJECT_ELEMENT)
    *ns = *gpu_ns;
  else                          /* the steady state between first and last arrival */
    *ns = r.frames > 1 ? (r.last_us - r.first_us) * 1e3 / (r.frames - 1) : 0;
  return TRUE;
}

/* ---- running a group ---- */

static gboolean
group_prepare (Bench * b, Group * g, GError ** error)
{
  gchar *caps_str;
  GstCaps *caps;
  guint i;

  if ((g->kind != GROUP_CHAIN && !group_make_floor_buffers (b, g, error))
      || !group_make_frames (b, g, g->kind != GROUP_SYSMEM,
          g->kind == GROUP_SYSMEM ? MAX_FRAMES : 3, error))
    return FALSE;
  caps_str = g_strdup_printf ("video/x-raw%s,format=%s,width=%d,height=%d,"
      "framerate=30/1", g->kind == GROUP_SYSMEM ? "" :
      "(memory:VulkanBuffer)", gst_video_format_to_string (g->format),
      g->width, g->height);
  caps = gst_caps_from_string (caps_str);
  g_free (caps_str);
  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    GError *err = NULL;
    if (!s->middle)
      continue;
    if (opt_verbose)
      g_printerr ("  appsrc ! %s ! appsink\n", s->middle);
    s->pipe = bench_pipe_new (b->instance, s->middle, caps, &err);
    if (!s->pipe)
      subject_fail (s, "cannot build the pipeline", err);
    g_clear_error (&err);
  }
  gst_caps_unref (caps);
  return TRUE;
}

/* Reads what each pipeline negotiated, before it goes. */
static void
group_collect (Group * g)
{
  guint i;

  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    if (!s->pipe || !strstr (s->middle, " name=el "))
      continue;
    s->in_memory = bench_pipe_pad_memory (s->pipe, "el", "sink");
    s->out_memory = bench_pipe_pad_memory (s->pipe, "el", "src");
    if (opt_verbose)
      g_printerr ("  %s %s: in %s, out %s\n", s->element, s->config,
          s->in_memory, s->out_memory);
  }
}

static void
group_derive (Group * g)
{
  Subject *up = group_find (g, SUBJECT_PCIE_UP);
  Subject *down = group_find (g, SUBJECT_PCIE_DOWN);
  Subject *ovl = group_find (g, SUBJECT_PCIE_OVERLAP);
  Subject *shader = group_find (g, SUBJECT_PCIE_SHADER);
  Subject *seq;
  guint r;

  if (ovl && shader) {
    Subject *duplex = group_add (g, SUBJECT_PCIE_DUPLEX, "floor",
        "PCIe both ways at once", NULL);
    for (r = 0; r < g->rounds; r++)
      duplex->ns[r] = ovl->ns[r] > 0 && shader->ns[r] > 0 ?
          MIN (ovl->ns[r], shader->ns[r]) : MAX (ovl->ns[r], shader->ns[r]);
    duplex->failed = ovl->failed && shader->failed;
  }
  if (!up || !down)
    return;
  seq = group_add (g, SUBJECT_PCIE_SEQUENTIAL, "floor",
      "PCIe upload then download", NULL);
  for (r = 0; r < g->rounds; r++)
    seq->ns[r] = up->ns[r] > 0 && down->ns[r] > 0 ?
        up->ns[r] + down->ns[r] : 0;
  seq->failed = up->failed || down->failed;
}

/* Bursts long enough that a thread woken late or a clock tick does not
 * weigh in a round: sized from the fastest subject's last warm-up burst. */
static void
group_size_bursts (Group * g, const gdouble * last_ns)
{
  gdouble fastest = 0;
  guint i;

  for (i = 0; i < g->subjects->len; i++)
    if (last_ns[i] > 0 && (fastest == 0 || last_ns[i] < fastest))
      fastest = last_ns[i];
  if (fastest > 0 && opt_burst_ms > 0)
    g->burst = CLAMP ((guint) ceil (opt_burst_ms * 1e6 / fastest),
        (guint) opt_burst, 240);
  g_printerr ("  bursts of %u frames\n", g->burst);
}

static void
group_run (Bench * b, Group * g, guint index, guint n_groups)
{
  GError *error = NULL;
  guint n = g->subjects->len, r, p;
  gdouble *last_ns = g_new0 (gdouble, n);

  g_printerr ("[%u/%u] %s %s %dx%d: %u subjects, %u + %u rounds of %u "
      "frame(s)\n", index + 1, n_groups, group_kind_name (g->kind),
      gst_video_format_to_string (g->format), g->width, g->height, n,
      g->warmup, g->rounds, g->burst);
  if (!group_prepare (b, g, &error)) {
    for (p = 0; p < n; p++)
      subject_fail (g_ptr_array_index (g->subjects, p), "no buffers", error);
    g_clear_error (&error);
  }

  for (r = 0; r < g->warmup + g->rounds; r++) {
    gboolean measured = r >= g->warmup;
    if (r == g->warmup && g->burst > 1)
      group_size_bursts (g, last_ns);
    for (p = 0; p < n; p++) {
      Subject *s = g_ptr_array_index (g->subjects,
          bench_round_order (r, p, n));
      gdouble ns = 0, gpu_ns = 0;
      gboolean ok;
      if (s->failed)
        continue;
      bench_heat (b);
      if (subject_is_floor (s))
        ok = step_floor (b, g, s, &ns, &error);
      else
        ok = step_pipeline (g, s, &ns, &gpu_ns, &error);
      if (!ok) {
        subject_fail (s, r ? "failed in a round" : "failed", error);
        g_clear_error (&error);
        continue;
      }
      last_ns[bench_round_order (r, p, n)] = s->kind == SUBJECT_STREAM ?
          ns : 0;
      if (measured) {
        s->ns[r - g->warmup] = ns;
        s->gpu_ns[r - g->warmup] = gpu_ns;
      }
    }
  }
  group_collect (g);
  group_release (g);
  group_derive (g);
  g_free (last_ns);
}

/* ---- the plan of a run ---- */

static gchar *
element_middle (const gchar * element, const gchar * props, gboolean to_gpu)
{
  return g_strdup_printf ("%s name=el %s%s", element, props,
      to_gpu ? " ! video/x-raw(memory:VulkanBuffer)" : "");
}

static Group *
plan_gpu (GArray * configs, GstVideoFormat format, gint w, gint h)
{
  Group *g = group_new (GROUP_GPU, format, w, h);
  guint c;

  for (c = 0; c < configs->len; c++) {
    Config *cf = &g_array_index (configs, Config, c);
    gchar *middle = element_middle (cf->element, cf->props, TRUE);
    group_add (g, SUBJECT_ELEMENT, cf->element, cf->props, middle);
    g_free (middle);
    if (c == 0)
      group_add_aa (g);
  }
  group_add (g, SUBJECT_COPY, "floor", "vkCmdCopyBuffer", NULL);
  group_add (g, SUBJECT_SHADER_COPY, "floor", "shader copy", NULL);
  group_add_pcie_floors (g);
  return g;
}

/* Whether gstvulkan 1.22 can hold the format in a VulkanImage: its
 * gst_vulkan_format_from_video_info() aborts the process on the others
 * (the 10- and 16-bit YUV formats among them). */
static gboolean
has_vulkan_image_format (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_xBGR:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_AYUV:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGB16:
    case GST_VIDEO_FORMAT_BGR16:
    case GST_VIDEO_FORMAT_GRAY16_BE:
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y41B:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
      return TRUE;
    default:
      return FALSE;
  }
}

static Group *
plan_sysmem (GArray * stream, GstVideoFormat format, gint w, gint h)
{
  Group *g = group_new (GROUP_SYSMEM, format, w, h);
  const gchar *fmt = gst_video_format_to_string (format);
  gchar *rt;
  guint c;

  for (c = 0; c < stream->len; c++) {
    Config *cf = &g_array_index (stream, Config, c);
    gchar *middle = element_middle (cf->element, cf->props, FALSE);
    group_add (g, SUBJECT_STREAM, cf->element, cf->props, middle);
    g_free (middle);
    if (c == 0)
      group_add_aa (g);
  }
  /* gstvulkan 1.22's vulkandownload takes only VulkanImage: the round trip
   * goes through an image, with the format pinned on both sides (an
   * unconstrained vulkanupload may pick one gstvulkan aborts on). Formats
   * it has no image format for have no round trip to compare with. */
  if (has_vulkan_image_format (format)) {
    rt = g_strdup_printf ("vulkanupload ! video/x-raw(memory:VulkanImage),"
        "format=%s ! vulkandownload ! video/x-raw,format=%s", fmt, fmt);
    group_add (g, SUBJECT_STREAM, ROUND_TRIP, "", rt)->plane_memories = TRUE;
    g_free (rt);
  }
  group_add_pcie_floors (g);
  return g;
}

static gchar *
chain_middle (GArray * stream, guint n)
{
  GString *s = g_string_new (NULL);
  guint c;

  for (c = 0; c < n; c++) {
    Config *cf = &g_array_index (stream, Config, c);
    g_string_append_printf (s, "%s%s name=el%u %s ! "
        "video/x-raw(memory:VulkanBuffer)", c ? " ! " : "", cf->element, c,
        cf->props);
  }
  return g_string_free (s, FALSE);
}

static gchar *
chain_label (GArray * stream, guint n)
{
  GString *s = g_string_new (NULL);
  guint c;

  for (c = 0; c < n; c++) {
    Config *cf = &g_array_index (stream, Config, c);
    g_string_append_printf (s, "%s%s%s%s", c ? " ! " : "", cf->element,
        cf->props[0] ? " " : "", cf->props);
  }
  return g_string_free (s, FALSE);
}

static Group *
plan_chain (GArray * stream, gint w, gint h)
{
  Group *g = group_new (GROUP_CHAIN, GST_VIDEO_FORMAT_RGBA, w, h);
  guint n;

  /* All the elements, then one fewer each row down to two. */
  for (n = stream->len; n >= 2; n--) {
    gchar *middle = chain_middle (stream, n);
    gchar *label = chain_label (stream, n);
    group_add (g, SUBJECT_STREAM, "chain", label, middle);
    if (n == stream->len)
      group_add_aa (g);
    g_free (middle);
    g_free (label);
  }
  return g;
}

/* ---- reports ---- */

/* Text for the terminal as UTF-8 bytes: g_print would turn µ into '?' in
 * a C locale. */
static void
say (const gchar * format, ...)
{
  va_list ap;

  va_start (ap, format);
  vfprintf (stdout, format, ap);
  va_end (ap);
}

/* A table printed both as aligned text and as Markdown, from the same
 * cells. */
typedef struct
{
  gchar *title;
  gchar *caption;
  guint n_cols;
  gchar **headers;
  gboolean *left;               /* text columns, aligned left */
  GPtrArray *rows;              /* gchar** of n_cols */
} Table;

/* `headers`: the column names separated by '|'; a name that starts with
 * '<' is a text column. */
static Table *
table_new (const gchar * title, const gchar * caption, const gchar * headers)
{
  Table *t = g_new0 (Table, 1);
  guint i;

  t->title = g_strdup (title);
  t->caption = g_strdup (caption);
  t->headers = g_strsplit (headers, "|", -1);
  t->n_cols = g_strv_length (t->headers);
  t->left = g_new0 (gboolean, t->n_cols);
  for (i = 0; i < t->n_cols; i++) {
    if (t->headers[i][0] == '<') {
      t->left[i] = TRUE;
      memmove (t->headers[i], t->headers[i] + 1, strlen (t->headers[i]));
    }
  }
  t->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  return t;
}

/* Takes the n_cols strings (owned) of one row. */
static void
table_add (Table * t, ...)
{
  gchar **row = g_new0 (gchar *, t->n_cols + 1);
  va_list ap;
  guint i;

  va_start (ap, t);
  for (i = 0; i < t->n_cols; i++) {
    gchar *cell = va_arg (ap, gchar *);
    row[i] = cell ? cell : g_strdup ("");
  }
  va_end (ap);
  g_ptr_array_add (t->rows, row);
}

static void
table_emit (Table * t, GString * md)
{
  guint *width = g_new0 (guint, t->n_cols);
  guint i, r;

  for (i = 0; i < t->n_cols; i++)
    width[i] = g_utf8_strlen (t->headers[i], -1);
  for (r = 0; r < t->rows->len; r++) {
    gchar **row = g_ptr_array_index (t->rows, r);
    for (i = 0; i < t->n_cols; i++)
      width[i] = MAX (width[i], (guint) g_utf8_strlen (row[i], -1));
  }
  say ("\n%s\n%s\n", t->title, t->caption);
  for (r = 0; r <= t->rows->len; r++) {
    gchar **row = r ? g_ptr_array_index (t->rows, r - 1) : t->headers;
    GString *line = g_string_new (NULL);
    for (i = 0; i < t->n_cols; i++) {
      guint pad = width[i] - g_utf8_strlen (row[i], -1);
      if (t->left[i])
        g_string_append_printf (line, "%s%s%*s", i ? "  " : "", row[i], pad,
            "");
      else
        g_string_append_printf (line, "  %*s%s", pad, "", row[i]);
    }
    g_strchomp (line->str);
    say ("%s\n", line->str);
    g_string_free (line, TRUE);
  }
  if (md) {
    g_string_append_printf (md, "#### %s\n\n%s\n\n|", t->title, t->caption);
    for (i = 0; i < t->n_cols; i++)
      g_string_append_printf (md, " %s |", t->headers[i]);
    g_string_append (md, "\n|");
    for (i = 0; i < t->n_cols; i++)
      g_string_append (md, t->left[i] ? " --- |" : " ---: |");
    for (r = 0; r < t->rows->len; r++) {
      gchar **row = g_ptr_array_index (t->rows, r);
      g_string_append (md, "\n|");
      for (i = 0; i < t->n_cols; i++)
        g_string_append_printf (md, " %s |", row[i]);
    }
    g_string_append (md, "\n\n");
  }
  g_free (width);
}

static void
table_free (Table * t)
{
  g_free (t->title);
  g_free (t->caption);
  g_strfreev (t->headers);
  g_free (t->left);
  g_ptr_array_unref (t->rows);
  g_free (t);
}

/* A report's table: printed and written if it got rows, then freed. */
static void
table_finish (Table * t, GString * md)
{
  if (t->rows->len)
    table_emit (t, md);
  table_free (t);
}

/* "1.23x [1.20–1.26]": a median and its interquartile range. */
static gchar *
fmt_spread (const BenchSpread * s, const gchar * unit, gint decimals)
{
  if (!s->n)
    return g_strdup ("-");
  return g_strdup_printf ("%.*f%s [%.*f–%.*f]", decimals, s->median, unit,
      decimals, s->p25, decimals, s->p75);
}

static gchar *
fmt_us (const BenchSpread * s)
{
  if (!s->n)
    return g_strdup ("-");
  return g_strdup_printf ("%.1f", s->median / 1e3);
}

/* Frames/s from times per frame: the rate of the median time, with the
 * quartiles swapped (the slower quartile is the lower rate). */
static BenchSpread
spread_fps (const BenchSpread * ns)
{
  BenchSpread f = { 0 };

  if (!ns->n)
    return f;
  f.n = ns->n;
  f.median = 1e9 / ns->median;
  f.p25 = 1e9 / ns->p75;
  f.p75 = 1e9 / ns->p25;
  return f;
}

static gchar *
fmt_size (const Group * g)
{
  return g_strdup_printf ("%dx%d", g->width, g->height);
}

/* A configuration without its algorithm=... token: rows that share it
 * differ only in the algorithm, and the first of them listed is the
 * reference of the others, e.g. naive and two-pass against tiled. */
static gchar *
config_key (const gchar * element, const gchar * config, gchar ** algorithm)
{
  gchar **tokens = g_strsplit_set (config, " \t", -1);
  GString *key = g_string_new (element);
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
    g_string_append_printf (key, " %s", tokens[i]);
  }
  g_strfreev (tokens);
  return g_string_free (key, FALSE);
}

static Subject *
find_reference (Group * g, Subject * s, gchar ** ref_algorithm)
{
  gchar *key = config_key (s->element, s->config, NULL);
  Subject *ref = NULL;
  guint i;

  *ref_algorithm = NULL;
  for (i = 0; i < g->subjects->len && !ref; i++) {
    Subject *o = g_ptr_array_index (g->subjects, i);
    gchar *alg = NULL, *okey;
    if (o->kind != SUBJECT_ELEMENT || o->is_aa)
      continue;
    okey = config_key (o->element, o->config, &alg);
    if (g_str_equal (okey, key) && alg) {
      ref = o;
      *ref_algorithm = alg;
    } else {
      g_free (alg);
    }
    g_free (okey);
  }
  g_free (key);
  if (ref == s || (ref && ref->failed)) {
    g_clear_pointer (ref_algorithm, g_free);
    return NULL;
  }
  return ref;
}

/* A burst shorter than this says nothing of frames/s: a thread woken late,
 * a clock tick or the frame in flight when the clock starts weigh as much
 * as the frames (lavapipe's --quick bursts of 4 small frames lasted tens
 * of µs, "103448 frames/s"). */
#define MIN_TIMED_BURST_NS (2.0 * 1e6)

/* Whether s is a wall-clock row whose bursts were too short to time: its
 * frames/s are not printed, and a note says why. */
static gboolean
burst_too_short (const Group * g, const Subject * s)
{
  BenchSpread t;

  if (s->kind != SUBJECT_STREAM)
    return FALSE;
  t = bench_spread (s->ns, g->rounds);
  return t.n > 0 && t.median * g->burst < MIN_TIMED_BURST_NS;
}

static gboolean
is_pcie_floor (const Subject * s)
{
  return s->kind == SUBJECT_PCIE_UP || s->kind == SUBJECT_PCIE_DOWN
      || s->kind == SUBJECT_PCIE_OVERLAP || s->kind == SUBJECT_PCIE_SHADER
      || s->kind == SUBJECT_PCIE_DUPLEX || s->kind == SUBJECT_PCIE_SEQUENTIAL;
}

static gchar *
subject_note (const Group * g, const Subject * s)
{
  GString *n = g_string_new (NULL);

  if (s->failed)
    g_string_append (n, s->message ? s->message : "failed");
  if (burst_too_short (g, s))
    g_string_append_printf (n, "bursts of %.0f µs, too short to time: no "
        "frames/s; ", bench_spread (s->ns, g->rounds).median * g->burst /
        1e3);
  if (s->no_meta)
    g_string_append (n, "frames without a timing meta; ");
  if (s->no_dispatch)
    g_string_append (n, "frames ran no dispatch (passthrough?); ");
  if (s->left_gpu)
    g_string_append (n, "frames left the GPU (upload or download reported); ");
  if (s->not_device_local)
    g_string_append (n, "output not in device-local Vulkan buffers; ");
  if (g->kind == GROUP_SYSMEM && s->in_memory && s->out_memory
      && (g_strcmp0 (s->in_memory, "system memory")
          || g_strcmp0 (s->out_memory, "system memory")))
    g_string_append_printf (n, "not system memory on both sides (in: %s, "
        "out: %s); ", s->in_memory, s->out_memory);
  if (is_pcie_floor (s) && g->pcie_host_device_local)
    g_string_append (n, "host memory is device-local here: no bus crossed; ");
  if (s->kind == SUBJECT_PCIE_OVERLAP && g->pcie_one_queue)
    g_string_append (n, "one transfer queue: the directions cannot overlap; ");
  if (!s->failed && bench_spread (s->ns, g->rounds).n == 0)
    g_string_append (n, "no time measured (no GPU timestamps on this "
        "device?); ");
  while (n->len && (n->str[n->len - 1] == ' ' || n->str[n->len - 1] == ';'))
    g_string_truncate (n, n->len - 1);
  return g_string_free (n, FALSE);
}

/* One CSV row; every cell is a number, empty, or quoted text. */
typedef struct
{
  const gchar *section, *element, *config;
  const Group *g;
  BenchSpread time, fps, x_copy, x_shader, x_roundtrip, x_pcie;
  gdouble x_ref;
  const gchar *ref_algorithm;
  gdouble gpu_us;
  const gchar *note;
} CsvRow;

#define CSV_HEADER "section,element,configuration,format,width,height," \
  "rounds,median_us,p25_us,p75_us,fps,fps_p25,fps_p75,x_copy,x_copy_p25," \
  "x_copy_p75,x_shader,x_shader_p25,x_shader_p75,x_ref,ref_algorithm," \
  "x_roundtrip,x_roundtrip_p25,x_roundtrip_p75,x_pcie,x_pcie_p25,x_pcie_p75," \
  "gpu_us,note\n"

static void
csv_text (GString * csv, const gchar * s)
{
  const gchar *c;

  g_string_append_c (csv, '"');
  for (c = s ? s : ""; *c; c++) {
    if (*c == '"')
      g_string_append_c (csv, '"');
    g_string_append_c (csv, *c);
  }
  g_string_append (csv, "\",");
}

static void
csv_number (GString * csv, gdouble v, gboolean present)
{
  if (present)
    g_string_append_printf (csv, "%.6g", v);
  g_string_append_c (csv, ',');
}

static void
csv_spread (GString * csv, const BenchSpread * s, gdouble scale)
{
  csv_number (csv, s->median * scale, s->n > 0);
  csv_number (csv, s->p25 * scale, s->n > 0);
  csv_number (csv, s->p75 * scale, s->n > 0);
}

static void
csv_add (GString * csv, const CsvRow * r)
{
  if (!csv)
    return;
  csv_text (csv, r->section);
  csv_text (csv, r->element);
  csv_text (csv, r->config);
  csv_text (csv, r->g ? gst_video_format_to_string (r->g->format) : "");
  csv_number (csv, r->g ? r->g->width : 0, r->g != NULL);
  csv_number (csv, r->g ? r->g->height : 0, r->g != NULL);
  csv_number (csv, r->time.n, TRUE);
  csv_spread (csv, &r->time, 1e-3);
  csv_spread (csv, &r->fps, 1);
  csv_spread (csv, &r->x_copy, 1);
  csv_spread (csv, &r->x_shader, 1);
  csv_number (csv, r->x_ref, r->x_ref > 0);
  csv_text (csv, r->ref_algorithm);
  csv_spread (csv, &r->x_roundtrip, 1);
  csv_spread (csv, &r->x_pcie, 1);
  csv_number (csv, r->gpu_us, r->gpu_us > 0);
  csv_text (csv, r->note);
  /* The last comma becomes the end of the line. */
  csv->str[csv->len - 1] = '\n';
}


static void
report_floors (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = table_new ("Floors: the least any filter can cost",
      "Median µs per frame over the rounds (interquartile range in the CSV). "
      "Copy: the frame copied device-local to device-local by vkCmdCopyBuffer "
      "and by a compute shader (GB/s counts bytes read + written). PCIe: the "
      "frame copied between pinned host memory and device-local memory by "
      "the copy engines, each way, one after the other, and both ways at "
      "once; and by the copy shader from pinned host memory to pinned host "
      "memory, both directions in one dispatch (as a filter that reads and "
      "writes system memory itself); frames/s is what a system-memory "
      "pipeline can reach at most.",
      "<format|<size|MB|vkCmdCopyBuffer µs|shader copy µs|shader GB/s|"
      "upload µs|download µs|up then down frames/s|overlapped frames/s|"
      "shader both ways frames/s");
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    BenchSpread sp[SUBJECT_PCIE_SEQUENTIAL + 1] = { {0} };
    gchar *note = NULL;
    if (g->kind == GROUP_CHAIN)
      continue;
    for (j = 0; j < g->subjects->len; j++) {
      Subject *s = g_ptr_array_index (g->subjects, j);
      CsvRow row = { "floor", "floor", s->config, g };
      if (!subject_is_floor (s))
        continue;
      sp[s->kind] = bench_spread (s->ns, g->rounds);
      row.time = sp[s->kind];
      if (is_pcie_floor (s))
        row.fps = spread_fps (&sp[s->kind]);
      note = subject_note (g, s);
      row.note = note;
      /* The system-memory groups' PCIe floors go with their rows. */
      if (g->kind == GROUP_GPU)
        csv_add (csv, &row);
      g_free (note);
    }
    if (g->kind != GROUP_GPU)
      continue;
    {
      BenchSpread fps_seq = spread_fps (&sp[SUBJECT_PCIE_SEQUENTIAL]);
      BenchSpread fps_ovl = spread_fps (&sp[SUBJECT_PCIE_OVERLAP]);
      BenchSpread fps_sh = spread_fps (&sp[SUBJECT_PCIE_SHADER]);
      table_add (t, g_strdup (gst_video_format_to_string (g->format)),
          fmt_size (g), g_strdup_printf ("%.1f", g->bytes / 1e6),
          fmt_us (&sp[SUBJECT_COPY]), fmt_us (&sp[SUBJECT_SHADER_COPY]),
          sp[SUBJECT_SHADER_COPY].n ? g_strdup_printf ("%.0f",
              2.0 * g->bytes / sp[SUBJECT_SHADER_COPY].median) :
          g_strdup ("-"), fmt_us (&sp[SUBJECT_PCIE_UP]),
          fmt_us (&sp[SUBJECT_PCIE_DOWN]), fps_seq.n ?
          g_strdup_printf ("%.0f", fps_seq.median) : g_strdup ("-"),
          fps_ovl.n ? g_strdup_printf ("%.0f", fps_ovl.median) :
          g_strdup ("-"), fps_sh.n ? g_strdup_printf ("%.0f",
              fps_sh.median) : g_strdup ("-"));
    }
  }
  table_finish (t, md);
}

static void
report_gpu (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = table_new ("The elements on GPU-resident frames",
      "GPU time of the element's dispatches (its timing meta), median µs "
      "over the rounds. x copy / x shader: the median of the per-round "
      "ratios to the vkCmdCopyBuffer / shader copy of the same frame in the "
      "same round, [25th–75th percentile]. x ref: per-round ratio to the "
      "same settings with the algorithm named. (A/A): the first "
      "configuration timed again under another name.",
      "<configuration|<format|<size|median µs|Gpixel/s|x copy|x shader|"
      "<x ref|dispatches|<note");
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    Subject *copy = group_find (g, SUBJECT_COPY);
    Subject *shader = group_find (g, SUBJECT_SHADER_COPY);
    if (g->kind != GROUP_GPU)
      continue;
    for (j = 0; j < g->subjects->len; j++) {
      Subject *s = g_ptr_array_index (g->subjects, j);
      CsvRow row = { "gpu", s->element, s->config, g };
      gchar *alg = NULL, *note, *ref_cell;
      Subject *ref;
      if (s->kind != SUBJECT_ELEMENT)
        continue;
      row.time = bench_spread (s->ns, g->rounds);
      row.x_copy = bench_ratio_spread (s->ns, copy->ns, g->rounds);
      row.x_shader = bench_ratio_spread (s->ns, shader->ns, g->rounds);
      ref = s->is_aa ? NULL : find_reference (g, s, &alg);
      if (ref) {
        BenchSpread x = bench_ratio_spread (s->ns, ref->ns, g->rounds);
        row.x_ref = x.median;
        row.ref_algorithm = alg;
        ref_cell = x.n ? g_strdup_printf ("%.2fx %s", x.median, alg) :
            g_strdup ("-");
      } else {
        ref_cell = g_strdup ("-");
      }
      note = subject_note (g, s);
      row.note = note;
      row.gpu_us = row.time.median / 1e3;
      csv_add (csv, &row);
      table_add (t, subject_label (s),
          g_strdup (gst_video_format_to_string (g->format)), fmt_size (g),
          fmt_us (&row.time), row.time.n ? g_strdup_printf ("%.2f",
              (gdouble) g->width * g->height / row.time.median) :
          g_strdup ("-"), fmt_spread (&row.x_copy, "x", 2),
          fmt_spread (&row.x_shader, "x", 2), ref_cell,
          g_strdup_printf ("%u", s->dispatches), note);
      g_free (alg);
    }
  }
  table_finish (t, md);
}

static void
report_sysmem (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = table_new ("System memory in and out",
      "Wall-clock frames/s of appsrc ! PIPELINE ! appsink, fed distinct "
      "frames in plain system memory (a ring of 8 that upstream wrote "
      "before), median over rounds of one burst each [25th–75th "
      "percentile]. x round trip / x PCIe: per-round ratio of frames/s to "
      "the vulkanupload ! vulkandownload round trip / to the PCIe floor both "
      "ways at once (the faster of the copy engines overlapped and the "
      "shader copy, host to host) of the same round.",
      "<pipeline|<format|<size|frames/s|x round trip|x PCIe both ways|"
      "x PCIe up then down|<note");
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    Subject *rt = NULL, *ovl = group_find (g, SUBJECT_PCIE_DUPLEX);
    Subject *seq = group_find (g, SUBJECT_PCIE_SEQUENTIAL);
    if (g->kind != GROUP_SYSMEM)
      continue;
    for (j = 0; j < g->subjects->len; j++) {
      Subject *s = g_ptr_array_index (g->subjects, j);
      if (g_str_equal (s->element, ROUND_TRIP))
        rt = s;
    }
    for (j = 0; j < g->subjects->len; j++) {
      Subject *s = g_ptr_array_index (g->subjects, j);
      CsvRow row = { "sysmem", s->element, s->config, g };
      BenchSpread x_seq = { 0 };
      gchar *note;
      if (s->kind != SUBJECT_STREAM && s->kind != SUBJECT_PCIE_OVERLAP
          && s->kind != SUBJECT_PCIE_SHADER && s->kind != SUBJECT_PCIE_DUPLEX
          && s->kind != SUBJECT_PCIE_SEQUENTIAL)
        continue;
      row.time = bench_spread (s->ns, g->rounds);
      row.fps = spread_fps (&row.time);
      if (rt)
        row.x_roundtrip = bench_inverse_ratio_spread (s->ns, rt->ns,
            g->rounds);
      if (ovl)
        row.x_pcie = bench_inverse_ratio_spread (s->ns, ovl->ns, g->rounds);
      if (seq)
        x_seq = bench_inverse_ratio_spread (s->ns, seq->ns, g->rounds);
      if (burst_too_short (g, s) || (rt && burst_too_short (g, rt)))
        row.x_roundtrip = (BenchSpread) { 0 };
      if (burst_too_short (g, s)) {
        BenchSpread none = { 0 };
        row.fps = row.x_pcie = x_seq = none;
      }
      note = subject_note (g, s);
      row.note = note;
      csv_add (csv, &row);
      table_add (t, subject_label (s),
          g_strdup (gst_video_format_to_string (g->format)), fmt_size (g),
          fmt_spread (&row.fps, "", 0),
          fmt_spread (&row.x_roundtrip, "x", 2),
          fmt_spread (&row.x_pcie, "x", 2), fmt_spread (&x_seq, "x", 2),
          note);
    }
  }
  table_finish (t, md);
}

static void
report_chain (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = table_new ("Elements chained on GPU-resident frames",
      "Wall-clock frames/s of appsrc ! CHAIN ! appsink in bursts (start-up "
      "excluded: the first frame of each burst starts the clock), median "
      "[25th–75th percentile]. GPU µs: the sum of the elements' GPU times "
      "per frame; GPU-bound frames/s: what that sum allows; x bound: "
      "frames/s over it, per round.",
      "<chain|<size|frames/s|GPU µs|GPU-bound frames/s|x bound|<note");
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    if (g->kind != GROUP_CHAIN)
      continue;
    for (j = 0; j < g->subjects->len; j++) {
      Subject *s = g_ptr_array_index (g->subjects, j);
      CsvRow row = { "chain", "chain", s->config, g };
      BenchSpread gpu = bench_spread (s->gpu_ns, g->rounds);
      BenchSpread bound = bench_inverse_ratio_spread (s->ns, s->gpu_ns,
          g->rounds);
      gchar *note = subject_note (g, s);
      row.time = bench_spread (s->ns, g->rounds);
      row.fps = spread_fps (&row.time);
      if (burst_too_short (g, s)) {
        row.fps = (BenchSpread) { 0 };
        bound = (BenchSpread) { 0 };
      }
      row.gpu_us = gpu.median / 1e3;
      row.note = note;
      csv_add (csv, &row);
      table_add (t, g_strdup (s->config), fmt_size (g),
          fmt_spread (&row.fps, "", 0), fmt_us (&gpu),
          gpu.n ? g_strdup_printf ("%.0f", 1e9 / gpu.median) :
          g_strdup ("-"), fmt_spread (&bound, "x", 2), note);
    }
  }
  table_finish (t, md);
}

/* The A/A pair of every group; FALSE when any disagrees beyond the
 * tolerance. */
static gboolean
report_repeatability (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = table_new ("Repeatability (A/A)",
      "The first subject of each group timed twice under two names in the "
      "same rounds: the median of their per-round ratio, [25th–75th "
      "percentile]. Off by more than 5 %: the run is not repeatable.",
      "<group|<format|<size|<subject|A/A ratio|<verdict");
  gboolean all = TRUE;
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    Subject *a = g_ptr_array_index (g->subjects, 0), *aa = NULL;
    BenchSpread x;
    gboolean ok, untimed;
    for (j = 0; j < g->subjects->len; j++)
      if (((Subject *) g_ptr_array_index (g->subjects, j))->is_aa)
        aa = g_ptr_array_index (g->subjects, j);
    if (!aa)
      continue;
    x = bench_ratio_spread (aa->ns, a->ns, g->rounds);
    /* Untimed bursts repeat nothing; they are said so in their rows. */
    untimed = burst_too_short (g, a) || burst_too_short (g, aa);
    ok = untimed || bench_repeatable (&x, AA_TOLERANCE);
    all = all && ok;
    table_add (t, g_strdup (group_kind_name (g->kind)),
        g_strdup (gst_video_format_to_string (g->format)), fmt_size (g),
        subject_label (a), untimed ? g_strdup ("-") : fmt_spread (&x, "x",
            2), g_strdup (untimed ? "bursts too short to time" : x.n == 0 ?
            "no data" : ok ? "repeatable" : "NOT REPEATABLE"));
    if (csv) {
      CsvRow row = { "aa", a->element, a->config, g };
      /* The ratio to its reference: the repeat over the first. */
      row.x_ref = x.median;
      row.note = ok ? "repeatable" : "not repeatable";
      row.time = bench_spread (aa->ns, g->rounds);
      csv_add (csv, &row);
    }
  }
  table_finish (t, md);
  return all;
}

/* ---- peers (bench/peers.py) ---- */

/* Splits one CSV line into fields ("" quoting as bench/peers.py writes). */
static gchar **
csv_split (const gchar * line)
{
  GPtrArray *f = g_ptr_array_new ();
  GString *cur = g_string_new (NULL);
  gboolean quoted = FALSE;
  const gchar *c;

  for (c = line; *c && *c != '\n' && *c != '\r'; c++) {
    if (quoted) {
      if (*c == '"' && c[1] == '"')
        g_string_append_c (cur, *c++);
      else if (*c == '"')
        quoted = FALSE;
      else
        g_string_append_c (cur, *c);
    } else if (*c == '"') {
      quoted = TRUE;
    } else if (*c == ',') {
      g_ptr_array_add (f, g_strdup (cur->str));
      g_string_truncate (cur, 0);
    } else {
      g_string_append_c (cur, *c);
    }
  }
  g_ptr_array_add (f, g_string_free (cur, FALSE));
  g_ptr_array_add (f, NULL);
  return (gchar **) g_ptr_array_free (f, FALSE);
}

static const gchar *
field (gchar ** header, gchar ** values, const gchar * name)
{
  guint i;

  for (i = 0; header[i] && values[i]; i++)
    if (g_str_equal (header[i], name))
      return values[i];
  return "";
}

static Subject *
find_gpu_row (GPtrArray * groups, const gchar * label, const gchar * format,
    gint w, gint h, Group ** group)
{
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    if (g->kind != GROUP_GPU || g->width != w || g->height != h
        || g_strcmp0 (gst_video_format_to_string (g->format), format))
      continue;
    for (j = 0; j < g->subjects->len; j++) {
      Subject *s = g_ptr_array_index (g->subjects, j);
      gchar *l = subject_label (s);
      gboolean match = s->kind == SUBJECT_ELEMENT && !s->is_aa
          && g_str_equal (l, label);
      g_free (l);
      if (match) {
        *group = g;
        return s;
      }
    }
  }
  return NULL;
}

static void
report_peers (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = table_new ("Peers on the same GPU (bench/peers.py)",
      "Median µs of each peer's call, and its ratio to a copy of the same "
      "frame by the same library in the same rounds (x own copy), beside "
      "the vktile configuration that does the same work, from this run: its "
      "median µs and its ratio to the shader copy. The peers ran in their "
      "own process just before this benchmark: compare ratios, not µs.",
      "<peer|<operation|<size|median µs|x own copy|<vktile|vktile µs|"
      "vktile x shader|<note");
  gchar *contents = NULL;
  gchar **lines, **header;
  GError *error = NULL;
  guint i;

  if (!g_file_get_contents (opt_peers, &contents, NULL, &error)) {
    g_printerr ("peers: %s\n", error->message);
    g_clear_error (&error);
    table_free (t);
    return;
  }
  lines = g_strsplit (contents, "\n", -1);
  header = csv_split (lines[0] ? lines[0] : "");
  for (i = 1; lines[0] && lines[i]; i++) {
    gchar **v;
    const gchar *label;
    gint w, h;
    Group *g = NULL;
    Subject *s;
    BenchSpread vk = { 0 }, vkx = { 0 };
    CsvRow row = { "peer" };
    if (!lines[i][0])
      continue;
    v = csv_split (lines[i]);
    label = field (header, v, "vktile_configuration");
    w = atoi (field (header, v, "width"));
    h = atoi (field (header, v, "height"));
    s = find_gpu_row (groups, label, field (header, v, "format"), w, h, &g);
    if (s) {
      vk = bench_spread (s->ns, g->rounds);
      vkx = bench_ratio_spread (s->ns,
          group_find (g, SUBJECT_SHADER_COPY)->ns, g->rounds);
    }
    row.element = field (header, v, "peer");
    row.config = field (header, v, "operation");
    row.note = field (header, v, "note");
    row.g = s ? g : NULL;
    if (*field (header, v, "median_us")) {
      row.time.n = 1;
      row.time.median = g_ascii_strtod (field (header, v, "median_us"),
          NULL) * 1e3;
      row.time.p25 = g_ascii_strtod (field (header, v, "p25_us"), NULL) * 1e3;
      row.time.p75 = g_ascii_strtod (field (header, v, "p75_us"), NULL) * 1e3;
    }
    if (*field (header, v, "x_floor")) {
      row.x_copy.n = 1;
      row.x_copy.median = g_ascii_strtod (field (header, v, "x_floor"), NULL);
      row.x_copy.p25 = g_ascii_strtod (field (header, v, "x_floor_p25"),
          NULL);
      row.x_copy.p75 = g_ascii_strtod (field (header, v, "x_floor_p75"),
          NULL);
    }
    csv_add (csv, &row);
    table_add (t, g_strdup (row.element), g_strdup (row.config),
        g_strdup_printf ("%sx%s", field (header, v, "width"),
            field (header, v, "height")), fmt_us (&row.time),
        fmt_spread (&row.x_copy, "x", 2), g_strdup (label), fmt_us (&vk),
        fmt_spread (&vkx, "x", 2), g_strdup (row.note));
    g_strfreev (v);
  }
  g_strfreev (header);
  g_strfreev (lines);
  g_free (contents);
  table_finish (t, md);
}

/* ---- parsing the command line ---- */

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

static void
config_clear (gpointer p)
{
  Config *c = p;
  g_free (c->element);
  g_free (c->props);
}

static gboolean
element_exists (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);
  if (f)
    gst_object_unref (f);
  return f != NULL;
}

/* The configurations of the run, and the one per element for the stream
 * rows and chains: --config as given, or each element's defaults. */
static gboolean
parse_configs (gchar ** elements, GArray * configs, GArray * stream,
    GError ** error)
{
  guint e, i;

  for (e = 0; elements[e]; e++) {
    if (!element_exists (elements[e])) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "No element \"%s\": is GST_PLUGIN_PATH set to the build's plugin/ "
          "folder?", elements[e]);
      return FALSE;
    }
  }
  for (i = 0; opt_configs && opt_configs[i]; i++) {
    gchar *text = g_strstrip (g_strdup (opt_configs[i]));
    gsize len = strcspn (text, " \t");
    gchar *first = g_strndup (text, len);
    Config c;
    if (!strchr (first, '=') && element_exists (first)) {
      c.element = first;
      c.props = g_strdup (g_strstrip (text + len));
    } else if (g_strv_length (elements) == 1) {
      g_free (first);
      c.element = g_strdup (elements[0]);
      c.props = g_strdup (text);
    } else {
      g_free (first);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--config \"%s\": name the element first (the run has several)",
          opt_configs[i]);
      g_free (text);
      return FALSE;
    }
    g_array_append_val (configs, c);
    g_free (text);
  }
  /* Stream rows and chains: every configuration given, or each element's
   * standard settings. */
  for (i = 0; opt_configs && i < configs->len; i++) {
    Config *c = &g_array_index (configs, Config, i);
    Config s = { g_strdup (c->element), g_strdup (c->props) };
    g_array_append_val (stream, s);
  }
  for (e = 0; !opt_configs && elements[e]; e++) {
    Config s = { g_strdup (elements[e]),
      g_strdup (stream_config (elements[e]))
    };
    const gchar *const *d = default_configs (elements[e]);
    for (i = 0; d[i]; i++) {
      Config c = { g_strdup (elements[e]), g_strdup (d[i]) };
      g_array_append_val (configs, c);
    }
    g_array_append_val (stream, s);
  }
  return TRUE;
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

static void
report_header (Bench * b, const gchar * cmdline, gdouble seconds,
    GString * md)
{
  GDateTime *now = g_date_time_new_now_utc ();
  gchar *date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  gchar *lines[7];
  guint i;

  lines[0] = g_strdup_printf ("Device: %s (%s, Vulkan %s)", b->device_name,
      b->device_type, b->api_version);
  lines[1] = g_strdup_printf ("Driver: %s; %s", b->driver,
      gst_version_string ());
  lines[2] = g_strdup_printf ("Command: `%s`", cmdline);
  lines[3] = g_strdup_printf ("GPU rows: %d warm-up + %d measured rounds, "
      "one frame each; system-memory and chain rows: %d + %d rounds of "
      "bursts of %d frames or more (%d ms at least); on a GPU, a 2 x 64 MiB copy before every timed frame or burst "
      "(clocks up, L2 evicted); %.0f s in all", opt_warmup, opt_rounds,
      MAX (1, opt_warmup / 5), opt_stream_rounds, opt_burst, opt_burst_ms,
      seconds);
  lines[4] = g_strdup_printf ("GPU at the start: %s", b->gpu_state_start);
  lines[5] = g_strdup_printf ("GPU at the end: %s", b->gpu_state_end);
  lines[6] = NULL;
  say ("\nvktile benchmark, %s\n", date);
  for (i = 0; lines[i]; i++)
    say ("%s\n", lines[i]);
  if (md) {
    g_string_append_printf (md, "### %s, %s\n\n", b->device_name, date);
    for (i = 0; lines[i]; i++)
      g_string_append_printf (md, "- %s\n", lines[i]);
    if (!b->has_timestamps)
      g_string_append (md, "- **No GPU timestamps on this device's compute "
          "queue: no GPU times.**\n");
    g_string_append (md, "\n");
  }
  for (i = 0; lines[i]; i++)
    g_free (lines[i]);
  g_free (date);
  g_date_time_unref (now);
}

/* ---- many streams ---- */

#define STREAMS_WARMUP_S 1.5

static gboolean
parse_size (const gchar * text, Size * size, GError ** error)
{
  GArray *a = parse_sizes (text, error);
  gboolean ok = a && a->len == 1;

  if (ok)
    *size = g_array_index (a, Size, 0);
  else if (a)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "One frame size, not \"%s\"", text);
  if (a)
    g_array_unref (a);
  return ok;
}

/* The streams' format, size and frames: a group of their own. */
static Group *
streams_group (Bench * b, GError ** error)
{
  GArray *formats = parse_formats (opt_streams_format ? opt_streams_format :
      "NV12", error);
  Size size;
  Group *g = NULL;

  if (!formats || !parse_size (opt_streams_size ? opt_streams_size :
          (opt_quick ? "640x360" : "1920x1080"), &size, error))
    goto out;
  g = group_new (GROUP_SYSMEM, g_array_index (formats, GstVideoFormat, 0),
      size.w, size.h);
  if (!group_make_frames (b, g, FALSE, MAX_FRAMES, error))
    g_clear_pointer (&g, group_free);
out:
  if (formats)
    g_array_unref (formats);
  return g;
}

static GstCaps *
group_caps (const Group * g)
{
  GstVideoInfo info;

  gst_video_info_set_format (&info, g->format, g->width, g->height);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  GST_VIDEO_INFO_FPS_D (&info) = 1;
  return gst_video_info_to_caps (&info);
}

/* --stream-worker: one stream, counted in the window the parent chose. */
static gboolean
run_stream_worker (Bench * b, GError ** error)
{
  gchar *text = g_strstrip (g_strdup (opt_stream_worker));
  gsize len = strcspn (text, " \t");
  gchar *element = g_strndup (text, len), *middle;
  Group *g = streams_group (b, error);
  GstCaps *caps;
  gboolean ok = FALSE;

  if (g) {
    middle = element_middle (element, g_strstrip (text + len), FALSE);
    caps = group_caps (g);
    ok = bench_streams_worker (b->instance, middle, caps, g->frames,
        g->n_frames, error);
    gst_caps_unref (caps);
    g_free (middle);
    group_free (g);
  }
  g_free (element);
  g_free (text);
  return ok;
}

/* The frames/s both directions of the bus carry at once for this frame:
 * the faster of the copy engines overlapped and the copy shader from host
 * memory to host memory (the floors' SUBJECT_PCIE_DUPLEX). */
static gdouble
pcie_duplex_fps (Bench * b, const Group * g)
{
  BenchPcie *pcie = bench_pcie_new (b->device, g->bytes, NULL);
  gsize size = GST_ROUND_UP_16 (g->bytes);
  GstMemory *src = vkt_buffer_alloc (b->device, size, TRUE, NULL);
  GstMemory *dst = vkt_buffer_alloc (b->device, size, TRUE, NULL);
  gdouble engines[9], shader[9], best = 0.0;
  guint i, n_engines = 0, n_shader = 0;

  for (i = 0; i < G_N_ELEMENTS (engines); i++) {
    if (pcie && bench_pcie_time (pcie, BENCH_PCIE_BOTH, &engines[n_engines],
            NULL))
      n_engines++;
    if (src && dst && vkt_compute_begin (b->compute, NULL)) {
      vkt_compute_timestamp (b->compute, VKT_TS_START);
      record_shader_copy (b, src, dst, size, NULL);
      vkt_compute_timestamp (b->compute, VKT_TS_UPLOADED);
      vkt_compute_timestamp (b->compute, VKT_TS_FILTERED);
      if (vkt_compute_submit_wait (b->compute, NULL))
        shader[n_shader++] = vkt_compute_elapsed_ns (b->compute,
            VKT_TS_START, VKT_TS_UPLOADED);
    }
  }
  bench_pcie_free (pcie);
  g_clear_pointer (&src, gst_memory_unref);
  g_clear_pointer (&dst, gst_memory_unref);
  if (n_engines)
    best = bench_spread (engines, n_engines).median;
  if (n_shader) {
    gdouble s = bench_spread (shader, n_shader).median;
    if (s > 0.0 && (best <= 0.0 || s < best))
      best = s;
  }
  return best > 0.0 ? 1e9 / best : 0.0;
}

static void
run_streams (Bench * b, GArray * stream, GString * md, GString * csv)
{
  Table *t;
  GError *error = NULL;
  gchar **counts = g_strsplit (opt_streams, ",", -1);
  gchar **modes = g_strsplit (opt_streams_modes ? opt_streams_modes :
      "threads,processes", ",", -1);
  Group *g = streams_group (b, &error);
  gdouble seconds = opt_streams_seconds > 0 ? opt_streams_seconds :
      (opt_quick ? 1.0 : 4.0), duplex;
  GstCaps *caps;
  guint c, i, m;

  if (!g) {
    g_printerr ("--streams: %s\n", error->message);
    g_clear_error (&error);
    g_strfreev (counts);
    g_strfreev (modes);
    return;
  }
  caps = group_caps (g);
  duplex = pcie_duplex_fps (b, g);
  t = table_new ("Many streams on one GPU",
      "N independent streams of distinct system-memory frames, appsrc ! "
      "PIPELINE ! appsink each, pushed as fast as they go (8 frames on "
      "their way per stream) and counted over a window after a warm-up: "
      "as N pipelines of one process sharing its device (threads), or as "
      "N processes with a device each (processes). x PCIe: the frames/s "
      "in all over what the bus carries both ways at once for this frame "
      "(the faster of the copy engines overlapped and a shader copying "
      "host memory to host memory). x GPU bound: over 1 / the GPU "
      "time per frame the timing metas reported at N = 1 in that mode "
      "(upload, filter and download: what one queue runs one after the "
      "other).",
      "<pipeline|<mode|streams|<format|<size|frames/s in all|per stream|"
      "x PCIe both ways|x GPU bound|<note");
  for (c = 0; c < stream->len; c++) {
    Config *cf = &g_array_index (stream, Config, c);
    gchar *middle = element_middle (cf->element, cf->props, FALSE);
    gchar *label = g_strdup_printf ("%s%s%s", cf->element,
        cf->props[0] ? " " : "", cf->props);
    gchar *worker = g_strdup_printf ("--stream-worker=%s %s", cf->element,
        cf->props);
    gchar *fmt = g_strdup_printf ("--streams-format=%s",
        gst_video_format_to_string (g->format));
    gchar *size = g_strdup_printf ("--streams-size=%dx%d", g->width,
        g->height);
    gchar *dev = g_strdup_printf ("--device-index=%d", opt_device_index);
    gchar *devname = g_strdup_printf ("--device-name=%s",
        opt_device_name ? opt_device_name : "");
    const gchar *argv[] = { "/proc/self/exe", worker, fmt, size, dev,
      opt_device_name ? devname : NULL, NULL
    };

    for (m = 0; modes[m]; m++) {
      gboolean procs = g_str_equal (g_strstrip (modes[m]), "processes");
      gdouble gpu_bound = 0.0;
      if (!procs && !g_str_equal (modes[m], "threads"))
        continue;
      for (i = 0; counts[i]; i++) {
        guint n = (guint) strtoul (counts[i], NULL, 10);
        BenchStreamsResult r;
        gboolean ok;
        gdouble fps;
        gchar *note = NULL;
        if (n == 0)
          continue;
        g_printerr ("[streams] %s, %u %s\n", label, n, modes[m]);
        ok = procs ? bench_streams_processes (argv, n, STREAMS_WARMUP_S,
            seconds, &r, &error) : bench_streams_threads (b->instance,
            middle, caps, g->frames, g->n_frames, n, STREAMS_WARMUP_S,
            seconds, &r, &error);
        if (!ok) {
          note = g_strdup_printf ("failed: %s", error ? error->message : "?");
          g_clear_error (&error);
        }
        fps = ok ? r.frames / r.seconds : 0.0;
        if (ok && gpu_bound == 0.0 && r.frames && r.gpu_ns)
          gpu_bound = 1e9 * r.frames / r.gpu_ns;
        if (ok) {
          gchar *config = g_strdup_printf ("%s; %s %u", cf->props,
              procs ? "processes" : "threads", n);
          CsvRow row = { "streams", cf->element, config, g };
          row.fps = (BenchSpread) { fps, fps, fps, 1 };
          if (duplex > 0)
            row.x_pcie = (BenchSpread) { fps / duplex, fps / duplex,
              fps / duplex, 1 };
          row.gpu_us = r.frames ? r.gpu_ns * 1e-3 / r.frames : 0.0;
          row.note = note;
          csv_add (csv, &row);
          g_free (config);
        }
        table_add (t, g_strdup (label), g_strdup (procs ? "processes" :
                "threads"), g_strdup_printf ("%u", n),
            g_strdup (gst_video_format_to_string (g->format)), fmt_size (g),
            ok ? g_strdup_printf ("%.0f", fps) : g_strdup ("-"),
            ok ? g_strdup_printf ("%.0f", fps / n) : g_strdup ("-"),
            ok && duplex > 0 ? g_strdup_printf ("%.2fx", fps / duplex) :
            g_strdup ("-"), ok && gpu_bound > 0 ?
            g_strdup_printf ("%.2fx", fps / gpu_bound) : g_strdup ("-"),
            note ? note : g_strdup (""));
      }
    }
    g_free (middle);
    g_free (label);
    g_free (worker);
    g_free (fmt);
    g_free (size);
    g_free (dev);
    g_free (devname);
  }
  table_finish (t, md);
  say ("PCIe both ways at once, %s %dx%d: %.0f frames/s\n",
      gst_video_format_to_string (g->format), g->width, g->height, duplex);
  if (md)
    g_string_append_printf (md, "PCIe both ways at once, %s %dx%d: %.0f "
        "frames/s.\n\n", gst_video_format_to_string (g->format), g->width,
        g->height, duplex);
  gst_caps_unref (caps);
  group_free (g);
  g_strfreev (counts);
  g_strfreev (modes);
}

static gchar *
describe_defaults (void)
{
  static const gchar *names[] = { "tiledconv", "gaussblur",
    "recursivefilter"
  };
  GString *d = g_string_new ("Configurations timed without --config:\n");
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    const gchar *const *cfg = default_configs (names[i]);
    g_string_append_printf (d, "  %s (system memory and chains: %s):\n",
        names[i], stream_config (names[i]));
    for (j = 0; cfg[j]; j++)
      g_string_append_printf (d, "    %s\n", cfg[j]);
  }
  g_string_append (d, "  any other element: its defaults\n");
  return g_string_free (d, FALSE);
}

/* The benchmark runs on machines one reaches through a script: a crash
 * prints where it happened (addr2line turns the offsets into lines). */
static void
on_crash (int sig)
{
  void *frames[64];
  int n = backtrace (frames, G_N_ELEMENTS (frames));

  backtrace_symbols_fd (frames, n, 2);
  signal (sig, SIG_DFL);
  raise (sig);
}

int
main (int argc, char **argv)
{
  GOptionContext *octx;
  GError *error = NULL;
  Bench bench = { 0 };
  GArray *formats = NULL, *sizes = NULL, *stream_formats = NULL;
  GArray *configs = g_array_new (FALSE, TRUE, sizeof (Config));
  GArray *stream = g_array_new (FALSE, TRUE, sizeof (Config));
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify)
      group_free);
  gchar **elements = NULL;
  gchar *cmdline = join_cmdline (argc, argv), *defaults;
  GString *md = NULL, *csv = NULL;
  gint64 t_start = g_get_monotonic_time ();
  gboolean repeatable;
  guint f, z, i;
  int ret = 1;

  g_array_set_clear_func (configs, config_clear);
  g_array_set_clear_func (stream, config_clear);
  signal (SIGSEGV, on_crash);
  signal (SIGABRT, on_crash);
  octx = g_option_context_new ("- time vktile elements against the floors "
      "of the same GPU");
  g_option_context_set_summary (octx,
      "Times each element configuration on GPU-resident frames (GPU time, "
      "from Vulkan timestamps), with system memory in and out (frames/s), "
      "and chained (frames/s), beside the floors measured in the same "
      "rounds: the device-local copy, a shader copy, the PCIe copies, the "
      "vulkanupload ! vulkandownload round trip. Everything compared is "
      "timed in interleaved rounds, so that ratios hold on a shared GPU "
      "whose speed drifts; an A/A row per group shows whether they did.\n\n"
      "Examples:\n"
      "  vktile-bench --quick\n"
      "  vktile-bench --markdown bench.md --csv bench.csv\n"
      "  vktile-bench -e tiledconv -c \"preset=gaussian5 algorithm=tiled\" "
      "-f RGBA -s 3840x2160\n"
      "  vktile-bench -e gaussblur,tiledconv -c \"gaussblur sigma=2\" "
      "-c \"tiledconv preset=box5\"");
  defaults = describe_defaults ();
  g_option_context_set_description (octx, defaults);
  g_free (defaults);
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    goto out;
  }

  if (opt_rounds < 0)
    opt_rounds = opt_quick ? 8 : 100;
  if (opt_warmup < 0)
    opt_warmup = opt_quick ? 2 : 10;
  if (opt_stream_rounds < 0)
    opt_stream_rounds = opt_quick ? 3 : 40;
  if (opt_burst < 0)
    opt_burst = opt_quick ? 4 : 12;
  if (opt_burst_ms < 0)
    opt_burst_ms = opt_quick ? 0 : 50;
  if (opt_rounds < 1 || opt_stream_rounds < 1 || opt_warmup < 1
      || opt_burst < 2) {
    g_printerr ("--rounds, --stream-rounds and --warmup must be >= 1, "
        "--burst >= 2\n");
    goto out;
  }
  elements = g_strsplit (opt_elements ? opt_elements :
      "tiledconv,gaussblur,recursivefilter", ",", -1);
  for (i = 0; elements[i]; i++)
    g_strstrip (elements[i]);
  if (!(formats = parse_formats (opt_formats ? opt_formats :
              "GRAY8,RGBA,NV12", &error))
      || !(stream_formats = parse_formats (opt_stream_formats ?
              opt_stream_formats : "RGBA,NV12", &error))
      || !(sizes = parse_sizes (opt_sizes ? opt_sizes :
              (opt_quick ? "640x360" : "1920x1080,3840x2160"), &error))
      || !parse_configs (elements, configs, stream, &error)) {
    g_printerr ("%s\n", error->message);
    goto out;
  }
  if (!bench_open (&bench, &error)) {
    g_printerr ("No usable Vulkan device: %s\n",
        error ? error->message : "unknown error");
    goto out;
  }
  if (opt_stream_worker) {
    if (!run_stream_worker (&bench, &error)) {
      g_printerr ("stream worker: %s\n", error->message);
      goto out;
    }
    ret = 0;
    goto out;
  }
  g_printerr ("device: %s (%s), %s\n", bench.device_name, bench.device_type,
      bench.driver);
  if (!bench.has_timestamps)
    g_printerr ("WARNING: no timestamps on the compute queue: GPU times "
        "will be reported as missing\n");
  bench.gpu_state_start = read_gpu_state (&bench);
  g_printerr ("GPU: %s\n", bench.gpu_state_start);

  for (z = 0; z < sizes->len; z++) {
    Size sz = g_array_index (sizes, Size, z);
    for (f = 0; !opt_no_gpu && f < formats->len; f++)
      g_ptr_array_add (groups, plan_gpu (configs, g_array_index (formats,
                  GstVideoFormat, f), sz.w, sz.h));
    for (f = 0; !opt_no_sysmem && f < stream_formats->len; f++)
      g_ptr_array_add (groups, plan_sysmem (stream,
              g_array_index (stream_formats, GstVideoFormat, f), sz.w, sz.h));
    if (!opt_no_chain && stream->len >= 2)
      g_ptr_array_add (groups, plan_chain (stream, sz.w, sz.h));
  }
  for (i = 0; i < groups->len; i++)
    group_run (&bench, g_ptr_array_index (groups, i), i, groups->len);
  bench.gpu_state_end = read_gpu_state (&bench);

  if (opt_markdown)
    md = g_string_new (NULL);
  if (opt_csv)
    csv = g_string_new (CSV_HEADER);
  report_header (&bench, cmdline,
      (g_get_monotonic_time () - t_start) / 1e6, md);
  repeatable = report_repeatability (groups, md, csv);
  report_floors (groups, md, csv);
  report_gpu (groups, md, csv);
  report_sysmem (groups, md, csv);
  report_chain (groups, md, csv);
  if (opt_streams)
    run_streams (&bench, stream, md, csv);
  if (opt_peers)
    report_peers (groups, md, csv);
  if (!repeatable) {
    const gchar *warn = "NOT REPEATABLE: an A/A pair differs by more than "
        "5 %: the GPU's speed changed within rounds; run again.";
    say ("\n%s\n", warn);
    if (md)
      g_string_append_printf (md, "**%s**\n\n", warn);
  }
  say ("\n%.1f s in all\n", (g_get_monotonic_time () - t_start) / 1e6);
  if (md && !g_file_set_contents (opt_markdown, md->str, md->len, &error)) {
    g_printerr ("Cannot write %s: %s\n", opt_markdown, error->message);
    goto out;
  }
  if (csv && !g_file_set_contents (opt_csv, csv->str, csv->len, &error)) {
    g_printerr ("Cannot write %s: %s\n", opt_csv, error->message);
    goto out;
  }
  ret = 0;

out:
  g_ptr_array_unref (groups);
  g_array_unref (configs);
  g_array_unref (stream);
  if (md)
    g_string_free (md, TRUE);
  if (csv)
    g_string_free (csv, TRUE);
  if (formats)
    g_array_unref (formats);
  if (stream_formats)
    g_array_unref (stream_formats);
  if (sizes)
    g_array_unref (sizes);
  g_strfreev (elements);
  bench_close (&bench);
  g_clear_error (&error);
  g_option_context_free (octx);
  g_free (cmdline);
  return ret;
}
