/* vktile-bench.c: the vktile benchmark (the performance contract).
 *
 * This file owns the program: its options, the command line, the
 * configurations timed by default, main and the many-streams driver. The
 * device of the run is benchdevice.c; the subjects, groups, their frames
 * and rounds and the plan of a run, benchgroups.c; the text, Markdown and
 * CSV reports, benchreport.c; the peers' rows, benchpeers.c; what they
 * share, vktile-bench.h. Pipelines driven frame by frame are benchpipe.c;
 * the statistics, benchstats.c; the Vulkan recording, the plugin's own
 * helper (lib/vktcompute.c).
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
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vktile-bench.h"
#include "benchstreams.h"

/* ---- options ---- */

static gchar *opt_elements = NULL;
static gchar **opt_configs = NULL;
static gchar *opt_formats = NULL;
static gchar *opt_sizes = NULL;
static gchar *opt_stream_formats = NULL;
gint opt_rounds = -1;
gint opt_warmup = -1;
gint opt_stream_rounds = -1;
gint opt_burst = -1;
gint opt_burst_ms = -1;
static gchar *opt_markdown = NULL;
static gchar *opt_csv = NULL;
gchar *opt_peers = NULL;
static gboolean opt_quick = FALSE;
static gboolean opt_no_gpu = FALSE;
static gboolean opt_no_sysmem = FALSE;
static gboolean opt_no_chain = FALSE;
gint opt_timeout = 60;
gint opt_device_index = -1;
gchar *opt_device_name = NULL;
gboolean opt_verbose = FALSE;
gboolean opt_images = FALSE;
gint opt_regions = 0;
static gboolean opt_overlap_probe = FALSE;
static gboolean opt_queue_probe = FALSE;
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
  {"images", 0, 0, G_OPTION_ARG_NONE, &opt_images,
        "Also time each GPU row's element between Vulkan images "
        "(memory:VulkanImage) in and out: its filter and its copies from "
        "and into the images, beside the same element on buffers", NULL},
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
  {"overlap-probe", 0, 0, G_OPTION_ARG_NONE, &opt_overlap_probe,
        "Whether the bus's copies, on a Vulkan device of their own, run "
        "beside shader work on the elements' device or take turns with "
        "it: each alone and both at once, for the first stream format at "
        "the largest size (how a second device for transfers would fare)",
      NULL},
  {"queue-probe", 0, 0, G_OPTION_ARG_NONE, &opt_queue_probe,
        "What the elements' one queue overlaps: shader copies across the "
        "bus each way, alone and in one submission, and frames of upload, "
        "filter and download back to back, one submission a frame or each "
        "download paired with the next frame's upload, for grids of several "
        "widths "
        "(the first stream format at the largest size)", NULL},
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
  g = bench_group_new (GROUP_SYSMEM, g_array_index (formats, GstVideoFormat, 0),
      size.w, size.h);
  if (!bench_group_make_frames (b, g, FALSE, MAX_FRAMES, error))
    g_clear_pointer (&g, bench_group_free);
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
    middle = bench_element_middle (element, g_strstrip (text + len), FALSE);
    caps = group_caps (g);
    ok = bench_streams_worker (b->instance, middle, caps, g->frames,
        g->n_frames, error);
    gst_caps_unref (caps);
    g_free (middle);
    bench_group_free (g);
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
    if (src && dst && bench_time_copy (b, src, dst, g->bytes, TRUE,
            &shader[n_shader], NULL))
      n_shader++;
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

/* ---- --overlap-probe ---- */

#define PROBE_ROUNDS 5
#define PROBE_COPIES 40         /* shader copies a turn: about a bus round */

typedef struct
{
  Bench *b;
  GstMemory *src, *dst;
  gsize bytes;
  gdouble gpu_ns;               /* of the copies, in all */
  gboolean ok;
} ProbeShader;

static gpointer
probe_shader_copies (gpointer data)
{
  ProbeShader *ps = data;
  gdouble ns;
  guint i;

  ps->gpu_ns = 0.0;
  ps->ok = TRUE;
  for (i = 0; i < PROBE_COPIES && ps->ok; i++) {
    ps->ok = bench_time_copy (ps->b, ps->src, ps->dst, ps->bytes, TRUE, &ns,
        NULL);
    ps->gpu_ns += ns;
  }
  return NULL;
}

/* Wall time of the shader copies, the bus both ways, or both at once (the
 * copies on a thread of their own). */
static gdouble
probe_turn (ProbeShader * ps, BenchPcie * pcie, gboolean shader,
    gboolean bus, gdouble * bus_ns)
{
  gint64 t0 = g_get_monotonic_time ();
  GThread *thread = shader ? g_thread_new ("probe", probe_shader_copies, ps)
      : NULL;
  gdouble ns;
  guint i;

  *bus_ns = 0.0;
  for (i = 0; bus && i < 2; i++) {
    if (bench_pcie_time (pcie, BENCH_PCIE_BOTH, &ns, NULL))
      *bus_ns += ns;
  }
  if (thread)
    g_thread_join (thread);
  return (g_get_monotonic_time () - t0) * 1e3;
}

static void
run_overlap_probe (Bench * b, GArray * stream_formats, GArray * sizes,
    GString * md)
{
  Size big = g_array_index (sizes, Size, sizes->len - 1);
  GstVideoInfo info;
  ProbeShader ps = { b };
  BenchPcie *pcie;
  GError *error = NULL;
  gdouble wall[3][PROBE_ROUNDS], copy_ns[2][PROBE_ROUNDS],
      bus_ns[2][PROBE_ROUNDS], ns;
  guint r, t;
  gchar *text;

  gst_video_info_set_format (&info, g_array_index (stream_formats,
          GstVideoFormat, 0), big.w, big.h);
  ps.bytes = GST_ROUND_UP_16 (info.size);
  ps.src = vkt_buffer_alloc (b->device, ps.bytes, FALSE, &error);
  ps.dst = ps.src ? vkt_buffer_alloc (b->device, ps.bytes, FALSE, &error) :
      NULL;
  pcie = ps.dst ? bench_pcie_new (b->device, info.size, &error) : NULL;
  if (!pcie) {
    bench_say ("\noverlap probe: %s\n", error ? error->message : "failed");
    g_clear_error (&error);
    goto out;
  }
  for (r = 0; r < PROBE_ROUNDS; r++) {
    bench_heat (b);
    wall[0][r] = probe_turn (&ps, pcie, TRUE, FALSE, &ns);
    copy_ns[0][r] = ps.gpu_ns / PROBE_COPIES;
    bench_heat (b);
    wall[1][r] = probe_turn (&ps, pcie, FALSE, TRUE, &bus_ns[0][r]);
    bench_heat (b);
    wall[2][r] = probe_turn (&ps, pcie, TRUE, TRUE, &bus_ns[1][r]);
    copy_ns[1][r] = ps.gpu_ns / PROBE_COPIES;
  }
  for (t = 0; t < 3; t++)
    wall[t][0] = bench_spread (wall[t], PROBE_ROUNDS).median;
  text = g_strdup_printf ("Overlap probe, %s %dx%d: %u shader copies on the "
      "elements' device (GPU µs a copy) and 2 rounds of the bus both ways "
      "on a device of its own (GPU µs a round; %s), medians of %u turns.\n"
      "| | alone | both at once |\n| --- | ---: | ---: |\n"
      "| shader copy, µs | %.1f | %.1f |\n"
      "| bus both ways, µs | %.1f | %.1f |\n"
      "| wall, ms | %.2f + %.2f = %.2f | %.2f |\n"
      "Both at once in the time of the longer alone: they overlap; in the "
      "sum: they take turns.\n", gst_video_format_to_string
      (GST_VIDEO_INFO_FORMAT (&info)), big.w, big.h, PROBE_COPIES,
      bench_pcie_pairings (pcie), PROBE_ROUNDS,
      bench_spread (copy_ns[0], PROBE_ROUNDS).median / 1e3,
      bench_spread (copy_ns[1], PROBE_ROUNDS).median / 1e3,
      bench_spread (bus_ns[0], PROBE_ROUNDS).median / 2e3,
      bench_spread (bus_ns[1], PROBE_ROUNDS).median / 2e3,
      wall[0][0] / 1e6, wall[1][0] / 1e6, (wall[0][0] + wall[1][0]) / 1e6,
      wall[2][0] / 1e6);
  bench_say ("\n%s", text);
  if (md)
    g_string_append_printf (md, "\n%s\n", text);
  g_free (text);
out:
  bench_pcie_free (pcie);
  g_clear_pointer (&ps.src, gst_memory_unref);
  g_clear_pointer (&ps.dst, gst_memory_unref);
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
  t = bench_table_new ("Many streams on one GPU",
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
    gchar *middle = bench_element_middle (cf->element, cf->props, FALSE);
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
          bench_csv_add (csv, &row);
          g_free (config);
        }
        bench_table_add (t, g_strdup (label), g_strdup (procs ? "processes" :
                "threads"), g_strdup_printf ("%u", n),
            g_strdup (gst_video_format_to_string (g->format)),
            bench_fmt_size (g),
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
  bench_table_finish (t, md);
  bench_say ("PCIe both ways at once, %s %dx%d: %.0f frames/s\n",
      gst_video_format_to_string (g->format), g->width, g->height, duplex);
  if (md)
    g_string_append_printf (md, "PCIe both ways at once, %s %dx%d: %.0f "
        "frames/s.\n\n", gst_video_format_to_string (g->format), g->width,
        g->height, duplex);
  gst_caps_unref (caps);
  bench_group_free (g);
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
      bench_group_free);
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
  bench.gpu_state_start = bench_read_gpu_state (&bench);
  g_printerr ("GPU: %s\n", bench.gpu_state_start);

  for (z = 0; z < sizes->len; z++) {
    Size sz = g_array_index (sizes, Size, z);
    for (f = 0; !opt_no_gpu && f < formats->len; f++)
      g_ptr_array_add (groups, bench_plan_gpu (configs, g_array_index (formats,
                  GstVideoFormat, f), sz.w, sz.h));
    for (f = 0; !opt_no_sysmem && f < stream_formats->len; f++)
      g_ptr_array_add (groups, bench_plan_sysmem (stream,
              g_array_index (stream_formats, GstVideoFormat, f), sz.w, sz.h));
    if (!opt_no_chain && stream->len >= 2)
      g_ptr_array_add (groups, bench_plan_chain (stream, sz.w, sz.h));
  }
  for (i = 0; i < groups->len; i++)
    bench_group_run (&bench, g_ptr_array_index (groups, i), i, groups->len);
  bench.gpu_state_end = bench_read_gpu_state (&bench);

  if (opt_markdown)
    md = g_string_new (NULL);
  if (opt_csv)
    csv = g_string_new (CSV_HEADER);
  bench_report_header (&bench, cmdline,
      (g_get_monotonic_time () - t_start) / 1e6, md);
  repeatable = bench_report_repeatability (groups, md, csv);
  bench_report_floors (groups, md, csv);
  bench_report_gpu (groups, md, csv);
  bench_report_sysmem (groups, md, csv);
  bench_report_chain (groups, md, csv);
  if (opt_streams)
    run_streams (&bench, stream, md, csv);
  if (opt_overlap_probe)
    run_overlap_probe (&bench, stream_formats, sizes, md);
  if (opt_queue_probe) {
    Size big = g_array_index (sizes, Size, sizes->len - 1);
    GstVideoInfo info;
    gchar *what;

    gst_video_info_set_format (&info, g_array_index (stream_formats,
            GstVideoFormat, 0), big.w, big.h);
    what = g_strdup_printf ("%s %dx%d", gst_video_format_to_string
        (GST_VIDEO_INFO_FORMAT (&info)), big.w, big.h);
    bench_queue_probe (&bench, info.size, what, md);
    g_free (what);
  }
  if (opt_peers)
    bench_report_peers (groups, md, csv);
  if (!repeatable) {
    const gchar *warn = "NOT REPEATABLE: an A/A pair differs by more than "
        "5 %: the GPU's speed changed within rounds; run again.";
    bench_say ("\n%s\n", warn);
    if (md)
      g_string_append_printf (md, "**%s**\n\n", warn);
  }
  bench_say ("\n%.1f s in all\n", (g_get_monotonic_time () - t_start) / 1e6);
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
