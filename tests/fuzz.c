/* tests/fuzz.c: a fuzzer of the elements' boundary. Each case
 * drives one of tiledconv, gaussblur and recursivefilter through a
 * GstHarness with random caps, property strings (valid, out of range,
 * garbage, arrays of the wrong length, changed between frames), buffer
 * layouts (GstVideoMeta offsets and strides that fit, that do not, negative
 * or zero strides, a meta that disagrees with the caps, several memories)
 * and memory types (default allocator, wrapped malloc, wrapped mmap with a
 * guard page right after the last byte, memfd, the element's own pool,
 * Vulkan buffers, vulkanupload upstream), sometimes with an output pool
 * offered downstream that is too small.
 *
 * An outcome is acceptable when every frame comes out with the right size,
 * or when the element refuses with a flow error AND an ERROR message on the
 * bus. A frame whose layout is valid must come out. Anything else — a
 * crash, a hang (per-case alarm), a sanitizer report, a GLib critical, a
 * flow error without a message, a missing frame — fails the run, which
 * prints the case and how to replay it alone.
 *
 * Standalone (no Check): tests/run.sh runs a fixed-seed corpus of it, built
 * with -fsanitize=address,undefined in build-asan/. docs/RELIABILITY.md
 * says how to run it and what it has found. */
#define _GNU_SOURCE             /* memfd_create, MAP_ANONYMOUS */
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/allocators/allocators.h>
#include <gst/vulkan/vulkan.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include "device.h"

#define DEFAULT_SEED 20240612
#define DEFAULT_CASES 200
#define DEFAULT_TIMEOUT_S 60

/* ---- what a case can vary, by name (--skip takes these names) ---- */

typedef enum
{
  /* layouts: the first five are valid and must go through */
  CLASS_EXACT,                  /* default layout, no GstVideoMeta */
  CLASS_PADDED,                 /* meta, strides and offsets 4-aligned, wider */
  CLASS_ODD,                    /* meta, odd strides and offsets, buffer
                                 * starting inside its memory */
  CLASS_SPLIT,                  /* a valid layout spread over 2-4 memories */
  CLASS_BOTTOM_UP,              /* negative strides, rows bottom up */
  CLASS_ZERO_STRIDE,            /* a stride of 0: every row the same bytes */
  CLASS_SHORT,                  /* memory shorter than the layout needs */
  CLASS_BAD_OFFSET,             /* offsets past the end, near G_MAXSIZE,
                                 * strides of G_MAXINT / G_MININT */
  CLASS_META_MISMATCH,          /* meta of another size or format than caps */
  CLASS_NO_MEMORY,              /* a buffer without any GstMemory */
  /* memory types */
  CLASS_SYSMEM,                 /* default allocator (imported by the GPU) */
  CLASS_WRAPPED,                /* gst_memory_new_wrapped over g_malloc */
  CLASS_GUARDED,                /* wrapped mmap, PROT_NONE page after it */
  CLASS_FD,                     /* memfd through GstFdAllocator (CPU copy) */
  CLASS_POOL,                   /* a buffer of the pool the element proposes */
  CLASS_VULKAN,                 /* a Vulkan buffer without storage usage */
  /* features of a case */
  CLASS_UPLOAD,                 /* vulkanupload upstream of the element (off
                                 * unless --include upload: below) */
  CLASS_VULKAN_OUT,             /* memory:VulkanBuffer downstream */
  CLASS_SMALL_POOL,             /* downstream offers a pool that is too small */
  CLASS_CAPS_CHANGE,            /* new caps between frames */
  CLASS_BAD_CAPS,               /* caps the element cannot take */
  CLASS_ODD_CAPS,               /* valid caps with unusual fields */
  CLASS_PROPS,                  /* random property strings */
  N_CLASSES
} FuzzClass;

#define FIRST_LAYOUT CLASS_EXACT
#define N_LAYOUTS (CLASS_NO_MEMORY + 1)
#define FIRST_MEMORY CLASS_SYSMEM
#define N_MEMORIES (CLASS_VULKAN - CLASS_SYSMEM + 1)

static const gchar *const class_names[N_CLASSES] = {
  "exact", "padded", "odd", "split", "bottom-up", "zero-stride", "short",
  "bad-offset", "meta-mismatch", "no-memory",
  "sysmem", "wrapped", "guarded", "fd", "pool", "vulkan",
  "upload", "vulkan-out", "small-pool", "caps-change", "bad-caps",
  "odd-caps", "props",
};

/* How often each layout and memory type is drawn. */
static const guint layout_weights[N_LAYOUTS] = {
  20, 12, 12, 8, 5, 3, 14, 8, 10, 2
};

static const guint memory_weights[N_MEMORIES] = { 30, 14, 20, 12, 12, 12 };

static const gchar *const elements[] = {
  "tiledconv", "gaussblur", "recursivefilter"
};

/* The formats of the pad templates. */
static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444,
};

/* ---- property strings ---- */

typedef struct
{
  const gchar *name;
  const gchar *const *values;   /* NULL-terminated */
  guint array_max;              /* > 0: sometimes a random array this long */
} PropSpec;

#define V(...) (const gchar *const[]) { __VA_ARGS__, NULL }

static const PropSpec common_props[] = {
  {"border", V ("clamp", "mirror", "reflect", "wrap", "constant", "0", "4",
          "5", "-1", "banana", ""), 0},
  {"border-value", V ("0", "1", "0.5", "-0.5", "2", "nan", "inf", "-inf",
          "1e308", "x"), 0},
  {"roi-x", V ("0", "1", "3", "17", "1000", "-5", "2147483647", "abc", ""), 0},
  {"roi-y", V ("0", "1", "2", "9", "1000", "-5", "2147483647", "1e3"), 0},
  {"roi-width", V ("0", "1", "2", "5", "64", "1000", "2147483647", "-1"), 0},
  {"roi-height", V ("0", "1", "3", "7", "48", "1000", "2147483647", "-1"),
      0},
  {"source-x", V ("-1", "0", "2", "1000", "-7", "2147483647", "z"), 0},
  {"source-y", V ("-1", "0", "5", "1000", "-2", "2147483647"), 0},
  {"planes", V ("0", "1", "2", "4", "8", "15", "16", "255", "0x3", "-1"), 0},
  {"frames-in-flight", V ("1", "2", "3", "6", "0", "7", "100"), 0},
  {"drop-invalid", V ("true", "false", "1", "maybe"), 0},
};

static const PropSpec tiledconv_props[] = {
  {"preset", V ("none", "box3", "box5", "gaussian3", "gaussian5", "sharpen",
          "laplacian", "sobel-x", "sobel-y", "emboss", "10", "gaussian7"), 0},
  /* not "<<1,2>,3>": GStreamer 1.22's deserializer crashes on a nested
   * array for an array-of-doubles property before the element sees it
   * (gst_util_set_object_arg -> g_type_check_instance_cast) */
  {"kernel", V ("<0,-1,0,-1,5,-1,0,-1,0>", "<1,2,3,4,5,6,7,8>", "<>", "<1,2",
          "1,2,3", "<a,b,c>", "<1;2>", ""), 81},
  {"kernel-x", V ("<1,2,1>", "<1,4,6,4,1>", "<1>", "<1,2>", "<>", "<x>"), 9},
  {"kernel-y", V ("<1,2,1>", "<1,4,6,4,1>", "<1,1,1,1,1,1,1>", "<1,2,3,4>"),
      9},
  {"algorithm", V ("tiled", "naive", "two-pass", "shared", "4", "x"), 0},
  {"absolute", V ("true", "false", "maybe"), 0},
  {"bias", V ("0", "-1", "1", "0.5", "2", "nan"), 0},
  {"scale", V ("1", "0", "-1", "3.4e38", "-3.4e38", "1e39", "nan", "inf"),
      0},
};

static const PropSpec gaussblur_props[] = {
  {"algorithm", V ("auto", "fused", "two-pass", "recursive", "9"), 0},
  {"amount", V ("0", "1", "100", "-1", "101", "nan", "inf", "-2"), 0},
  {"radius", V ("0", "1", "3", "24", "25", "100", "1024", "1025",
          "4294967295", "-1"), 0},
  {"sigma", V ("0.01", "0.5", "2", "12", "40", "256", "257", "0", "-1",
          "nan", "inf", "1e-30"), 0},
  {"sigma-y", V ("-1", "0.01", "5", "256", "0", "-2", "nan"), 0},
};

static const PropSpec recursivefilter_props[] = {
  {"algorithm", V ("tiled", "scanline", "2"), 0},
  {"alpha", V ("-1", "0", "0.5", "0.999", "1", "-0.5", "nan"), 0},
  {"axes", V ("x", "y", "xy", "none", "4"), 0},
  {"direction", V ("causal", "anticausal", "both", "3"), 0},
  {"feedback", V ("<0.5>", "<1.2,-0.4>", "<2.0>", "<1,1,1,1>", "<>",
          "<0.1,0.1,0.1,0.1,0.1>", "<nan>", "<a>"), 6},
  {"feedforward", V ("0.5", "0", "1", "-1e6", "1e6", "1e7", "nan"), 0},
  {"filter", V ("gaussian", "exponential", "box", "custom", "5"), 0},
  {"iterations", V ("1", "2", "3", "0", "4"), 0},
  {"radius", V ("0", "1", "2", "100", "2048", "2049", "-1"), 0},
  {"sigma", V ("0.5", "2", "40", "2048", "0.4", "2049", "nan", "inf"), 0},
  {"temporal-alpha", V ("0", "0.5", "0.999", "1", "-0.1", "nan"), 0},
  {"tile-size", V ("0", "1", "15", "16", "17", "4096", "16384", "16385"), 0},
};

/* Numbers that arrays are made of: ordinary weights and values no kernel
 * should be built from. */
static const gchar *const array_items[] = {
  "0", "1", "-1", "0.5", "-0.4", "2", "5", "0.99", "1e30", "-1e30", "1e300",
  "nan", "inf", "-inf", "1e-40",
};

/* ---- options and run-wide state ---- */

typedef struct
{
  guint32 seed;
  gint64 only_case;             /* -1: every case */
  guint cases;
  gdouble seconds;              /* 0: no time limit */
  guint timeout_s;
  gboolean verbose, huge, huge_only, fresh_device;
  gboolean skip[N_CLASSES];
  gchar *skip_arg, *include_arg;
  const gchar *argv0;
} Options;

typedef struct
{
  guint cases, frames, refused, dropped, bad;
  guint frames_by_class[N_CLASSES], refused_by_class[N_CLASSES];
} Stats;

static Options opt;
static Stats stats;

/* The Vulkan instance and device shared by every case (unless
 * --fresh-device): a new device per case would recompile every pipeline. */
static GstVulkanInstance *shared_instance;
static GstVulkanDevice *shared_device;

/* What the current case did, printed when it goes wrong. */
static GString *case_log;
static GMutex problems_lock;
static GString *problems;       /* criticals and the like, from any thread */
static gchar replay_line[1024];
/* The sum of every output byte read: keeps the reads from being optimised
 * away. */
static volatile guint output_checksum;

/* ---- dying well: every way out says how to replay the case ---- */

static void
say_replay (void)
{
  static volatile sig_atomic_t said;
  ssize_t unused;

  /* ASan's death callback, then the SIGABRT it raises: once is enough */
  if (said)
    return;
  said = 1;
  if (case_log && case_log->len) {
    unused = write (STDERR_FILENO, case_log->str, case_log->len);
  }
  unused = write (STDERR_FILENO, replay_line, strlen (replay_line));
  (void) unused;
}

static void
on_alarm (int sig)
{
  static const char msg[] = "\nfuzz: the case did not finish in time "
      "(hang)\n";
  ssize_t unused = write (STDERR_FILENO, msg, sizeof (msg) - 1);

  (void) unused;
  say_replay ();
  _exit (3);
}

static void
on_fatal_signal (int sig)
{
  static const char msg[] = "\nfuzz: fatal signal\n";
  ssize_t unused = write (STDERR_FILENO, msg, sizeof (msg) - 1);

  (void) unused;
  say_replay ();
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
install_handlers (void)
{
  signal (SIGALRM, on_alarm);
  /* ASan reports SEGV itself, then calls the death callback; a handler of
   * ours would replace its report. */
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_set_death_callback (say_replay);
#else
  signal (SIGSEGV, on_fatal_signal);
  signal (SIGBUS, on_fatal_signal);
  signal (SIGFPE, on_fatal_signal);
#endif
  signal (SIGABRT, on_fatal_signal);
}

/* Criticals from any library mean someone broke an API contract while
 * handling the case; a GObject warning about an out-of-range property value
 * is the property system doing its job. */
static void
log_handler (const gchar * domain, GLogLevelFlags level, const gchar * message,
    gpointer data)
{
  if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR)) {
    g_mutex_lock (&problems_lock);
    g_string_append_printf (problems, "  %s-CRITICAL: %s\n",
        domain ? domain : "", message);
    g_mutex_unlock (&problems_lock);
  } else if (opt.verbose) {
    g_printerr ("  (log %s: %s)\n", domain ? domain : "", message);
  }
}

/* Moves what log_handler() gathered since the last call onto the end of
 * `into`; TRUE if there was anything (the case went wrong). */
static gboolean
take_problems (GString * into)
{
  gboolean any;

  g_mutex_lock (&problems_lock);
  any = problems->len > 0;
  g_string_append (into, problems->str);
  g_string_truncate (problems, 0);
  g_mutex_unlock (&problems_lock);
  return any;
}

static void
note (const gchar * format, ...) G_GNUC_PRINTF (1, 2);

static void
note (const gchar * format, ...)
{
  va_list args;

  va_start (args, format);
  g_string_append_vprintf (case_log, format, args);
  va_end (args);
}

/* ---- random choices ---- */

static gboolean
chance (GRand * r, gdouble p)
{
  return g_rand_double (r) < p;
}

static guint
pick_index (GRand * r, guint n)
{
  return g_rand_int_range (r, 0, n);
}

/* A class among n starting at first, by weight, never a skipped one. */
static FuzzClass
pick_class (GRand * r, FuzzClass first, const guint * weights, guint n)
{
  guint total = 0, i, x;

  for (i = 0; i < n; i++)
    total += opt.skip[first + i] ? 0 : weights[i];
  g_assert (total > 0);
  x = g_rand_int_range (r, 0, total);
  for (i = 0; i < n; i++) {
    guint w = opt.skip[first + i] ? 0 : weights[i];
    if (x < w)
      break;
    x -= w;
  }
  return first + i;
}

/* Whether a case feature is on: never when skipped. */
static gboolean
feature (GRand * r, FuzzClass c, gdouble p)
{
  return chance (r, p) && !opt.skip[c];
}

static void
fill_random (GRand * r, guint8 * data, gsize size)
{
  gsize i;

  for (i = 0; i + 4 <= size; i += 4) {
    guint32 v = g_rand_int (r);
    memcpy (data + i, &v, 4);
  }
  for (; i < size; i++)
    data[i] = g_rand_int (r);
}

static gchar *
random_array (GRand * r, guint max_len)
{
  /* the lengths a kernel may have, their neighbours, and any */
  static const guint lengths[] = { 0, 1, 3, 5, 7, 8, 9, 10, 24, 25, 26, 48,
    49, 50, 81
  };
  GString *s = g_string_new ("<");
  guint n, i;

  do
    n = chance (r, 0.7) ? lengths[pick_index (r, G_N_ELEMENTS (lengths))] :
        pick_index (r, max_len + 1);
  while (n > max_len);
  for (i = 0; i < n; i++) {
    const gchar *item = chance (r, 0.85) ?
        array_items[pick_index (r, 6)] :
        array_items[pick_index (r, G_N_ELEMENTS (array_items))];
    g_string_append_printf (s, "%s%s", i ? "," : "", item);
  }
  g_string_append_c (s, '>');
  return g_string_free (s, FALSE);
}

/* Sets one random property of the element from a random string. */
static void
set_random_property (GRand * r, GstElement * el, const gchar * factory)
{
  const PropSpec *specs;
  guint n_specs;
  const PropSpec *spec;
  gchar *value;

  if (chance (r, 0.4)) {
    specs = common_props;
    n_specs = G_N_ELEMENTS (common_props);
  } else if (g_str_equal (factory, "tiledconv")) {
    specs = tiledconv_props;
    n_specs = G_N_ELEMENTS (tiledconv_props);
  } else if (g_str_equal (factory, "gaussblur")) {
    specs = gaussblur_props;
    n_specs = G_N_ELEMENTS (gaussblur_props);
  } else {
    specs = recursivefilter_props;
    n_specs = G_N_ELEMENTS (recursivefilter_props);
  }
  spec = &specs[pick_index (r, n_specs)];
  if (spec->array_max && chance (r, 0.5)) {
    value = random_array (r, spec->array_max);
  } else {
    guint n = g_strv_length ((gchar **) spec->values);
    value = g_strdup (spec->values[pick_index (r, n)]);
  }
  note ("  %s=\"%s\"\n", spec->name, value);
  gst_util_set_object_arg (G_OBJECT (el), spec->name, value);
  g_free (value);
}

/* ---- frames: where the bytes are and what the meta says ---- */

typedef struct
{
  GstVideoInfo info;            /* what the caps say */
  FuzzClass layout, memory;
  gboolean meta;
  GstVideoFormat meta_format;
  guint meta_width, meta_height, meta_planes;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  gsize size;                   /* bytes the buffer holds */
  gsize lead;                   /* bytes of memory before the buffer starts */
  guint n_cuts;                 /* memories - 1 */
  gsize cuts[3];
  gboolean valid;               /* the element must filter this frame */
} Frame;

/* Bytes of one row of a plane that hold pixels, and its rows (the element's
 * own definitions). */
static gsize
plane_row_bytes (const GstVideoInfo * info, guint plane)
{
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, c) == plane)
      return (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (info->finfo, c);
  return 0;
}

static guint
plane_rows (const GstVideoInfo * info, guint plane)
{
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, c) == plane)
      return GST_VIDEO_INFO_COMP_HEIGHT (info, c);
  return 0;
}

static gboolean
is_wide (const GstVideoInfo * info)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0) > 8;
}

/* Positive strides, each plane packed after the last: 4-aligned and padded,
 * or odd (2-byte steps for 16-bit formats, which GStreamer reads as
 * 16-bit words). */
static gsize
plan_strided (GRand * r, Frame * f, gboolean odd)
{
  const GstVideoInfo *info = &f->info;
  guint step = odd ? (is_wide (info) ? 2 : 1) : 4, p;
  gsize pos = step * pick_index (r, odd ? 10 : 17);

  f->meta = TRUE;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gsize row = plane_row_bytes (info, p);
    guint rows = plane_rows (info, p);

    if (odd)
      f->stride[p] = row + step * pick_index (r, 14);
    else
      f->stride[p] = GST_ROUND_UP_4 (row) + 4 * pick_index (r, 17);
    f->offset[p] = pos;
    pos += (gsize) f->stride[p] * (rows - 1) + row + step * pick_index (r, 8);
    if (!odd)
      pos = GST_ROUND_UP_4 (pos);
  }
  return pos + step * pick_index (r, 5);
}

static void
plan_default (Frame * f)
{
  guint p;

  f->meta = FALSE;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&f->info); p++) {
    f->offset[p] = GST_VIDEO_INFO_PLANE_OFFSET (&f->info, p);
    f->stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&f->info, p);
  }
  f->size = GST_VIDEO_INFO_SIZE (&f->info);
}

/* One of the valid layouts, for classes that start from one. */
static void
plan_valid (GRand * r, Frame * f)
{
  switch (pick_index (r, 3)) {
    case 0:
      plan_default (f);
      if (chance (r, 0.3))
        f->meta = TRUE;         /* the default layout, said by a meta */
      break;
    case 1:
      f->size = plan_strided (r, f, FALSE);
      break;
    default:
      f->size = plan_strided (r, f, TRUE);
      break;
  }
}

/* Does every plane's every row lie inside the bytes? (The frame as the
 * caps describe it: the element filters caps-sized frames.) */
static gboolean
layout_fits (const Frame * f)
{
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&f->info); p++) {
    gsize row = plane_row_bytes (&f->info, p);
    guint rows = plane_rows (&f->info, p);

    if (f->stride[p] < 0 || (gsize) f->stride[p] < row)
      return FALSE;
    if (f->offset[p] > f->size
        || (gsize) f->stride[p] * (rows - 1) + row > f->size - f->offset[p])
      return FALSE;
  }
  return TRUE;
}

static gboolean
planes_in_one_memory (GstBuffer * buf, const Frame * f)
{
  guint p, idx, len;
  gsize skip;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&f->info); p++) {
    gsize extent = (gsize) f->stride[p] * (plane_rows (&f->info, p) - 1)
        + plane_row_bytes (&f->info, p);

    if (!gst_buffer_find_memory (buf, f->offset[p], 1, &idx, &len, &skip)
        || extent > gst_memory_get_sizes (gst_buffer_peek_memory (buf, idx),
            NULL, NULL) - skip)
      return FALSE;
  }
  return TRUE;
}

static void
plan_frame (GRand * r, Frame * f, const GstVideoInfo * info, FuzzClass layout,
    FuzzClass memory)
{
  guint p, n_planes = GST_VIDEO_INFO_N_PLANES (info);

  memset (f, 0, sizeof (*f));
  f->info = *info;
  f->layout = layout;
  f->memory = memory;
  f->meta_format = GST_VIDEO_INFO_FORMAT (info);
  f->meta_width = GST_VIDEO_INFO_WIDTH (info);
  f->meta_height = GST_VIDEO_INFO_HEIGHT (info);
  f->meta_planes = n_planes;

  switch (layout) {
    case CLASS_EXACT:
      plan_default (f);
      if (chance (r, 0.2))
        f->size += pick_index (r, 64);  /* spare bytes at the end */
      break;
    case CLASS_PADDED:
      f->size = plan_strided (r, f, FALSE);
      break;
    case CLASS_ODD:
      f->size = plan_strided (r, f, TRUE);
      f->lead = pick_index (r, 8);
      break;
    case CLASS_SPLIT:
      plan_valid (r, f);
      f->n_cuts = 1 + pick_index (r, 3);
      for (p = 0; p < f->n_cuts; p++)
        f->cuts[p] = f->size > 1 ? 1 + pick_index (r, f->size - 1) : 0;
      break;
    case CLASS_BOTTOM_UP:{
      gsize pos = 4 * pick_index (r, 4);
      f->meta = TRUE;
      for (p = 0; p < n_planes; p++) {
        guint rows = plane_rows (info, p);
        gint stride = GST_VIDEO_INFO_PLANE_STRIDE (info, p)
            + 4 * pick_index (r, 3);
        f->stride[p] = -stride;
        f->offset[p] = pos + (gsize) stride * (rows - 1);
        pos += (gsize) stride * rows;
      }
      f->size = pos;
      break;
    }
    case CLASS_ZERO_STRIDE:
      plan_default (f);
      f->meta = TRUE;
      if (chance (r, 0.5)) {
        for (p = 0; p < n_planes; p++)
          f->stride[p] = 0;
      } else {
        f->stride[pick_index (r, n_planes)] = 0;
      }
      break;
    case CLASS_SHORT:
      plan_valid (r, f);
      switch (pick_index (r, 5)) {
        case 0:
          f->size = MIN (f->size, 10);
          break;
        case 1:
          f->size = f->size > 1 ? f->size - 1 : 0;
          break;
        case 2:
          f->size /= 2;
          break;
        case 3:
          f->size -= MIN (f->size, 1 + pick_index (r,
                  plane_row_bytes (info, n_planes - 1) + 1));
          break;
        default:
          f->size = 1;
          break;
      }
      break;
    case CLASS_BAD_OFFSET:{
      guint victim;
      f->size = plan_strided (r, f, FALSE);
      victim = pick_index (r, n_planes);
      switch (pick_index (r, 5)) {
        case 0:
          f->offset[victim] = f->size + pick_index (r, 4096);
          break;
        case 1:
          f->offset[victim] = G_MAXSIZE - pick_index (r, 4096);
          break;
        case 2:
          f->stride[victim] = G_MAXINT - pick_index (r, 4) * 4;
          break;
        case 3:
          f->stride[victim] = G_MININT + pick_index (r, 4) * 4;
          break;
        default:
          /* the first row inside, the last past the end */
          f->offset[victim] = f->size - MIN (f->size,
              plane_row_bytes (info, victim));
          break;
      }
      break;
    }
    case CLASS_META_MISMATCH:{
      GstVideoInfo meta_info;
      guint w = f->meta_width, h = f->meta_height;
      GstVideoFormat format = f->meta_format;

      switch (pick_index (r, 4)) {
        case 0:                /* smaller */
          w = 1 + pick_index (r, w);
          h = 1 + pick_index (r, h);
          break;
        case 1:                /* larger */
          w += 1 + pick_index (r, 40);
          h += 1 + pick_index (r, 40);
          break;
        case 2:
          w = 320;
          h = 240;
          break;
        default:
          format = formats[pick_index (r, G_N_ELEMENTS (formats))];
          break;
      }
      gst_video_info_set_format (&meta_info, format, w, h);
      f->meta = TRUE;
      f->meta_format = format;
      f->meta_width = w;
      f->meta_height = h;
      f->meta_planes = GST_VIDEO_INFO_N_PLANES (&meta_info);
      for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
        f->offset[p] = GST_VIDEO_INFO_PLANE_OFFSET (&meta_info, p);
        f->stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&meta_info, p);
      }
      /* the bytes the meta says, or 10 of them */
      f->size = chance (r, 0.7) ? GST_VIDEO_INFO_SIZE (&meta_info) : 10;
      break;
    }
    case CLASS_NO_MEMORY:
      plan_default (f);
      f->meta = chance (r, 0.5);
      f->size = 0;
      break;
    default:
      g_assert_not_reached ();
  }
  f->valid = layout <= CLASS_SPLIT && layout_fits (f);
}

/* ---- memory of each type ---- */

typedef struct
{
  gpointer base;
  gsize len;
} Mapping;

static void
unmap_mapping (gpointer data)
{
  Mapping *m = data;

  munmap (m->base, m->len);
  g_free (m);
}

/* The bytes end right before a PROT_NONE page: one byte read past them
 * faults, in any build and in code no sanitizer sees (the driver's). */
static GstMemory *
guarded_memory (const guint8 * bytes, gsize size)
{
  gsize page = sysconf (_SC_PAGESIZE);
  gsize span = (size + page - 1) / page * page;
  Mapping *m = g_new0 (Mapping, 1);
  guint8 *data;

  m->len = span + page;
  m->base = mmap (NULL, m->len, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert (m->base != MAP_FAILED);
  g_assert (mprotect ((guint8 *) m->base + span, page, PROT_NONE) == 0);
  data = (guint8 *) m->base + span - size;
  memcpy (data, bytes, size);
  return gst_memory_new_wrapped (0, data, size, 0, size, m, unmap_mapping);
}

static GstMemory *
fd_memory (const guint8 * bytes, gsize size)
{
  static GstAllocator *fd_alloc;
  gint fd = memfd_create ("vktile-fuzz", 0);

  if (!fd_alloc)
    fd_alloc = gst_fd_allocator_new ();
  g_assert (fd >= 0);
  g_assert (write (fd, bytes, size) == (gssize) size);
  return gst_fd_allocator_alloc (fd_alloc, fd, size, GST_FD_MEMORY_FLAG_NONE);
}

static GstMemory *
copy_into (GstMemory * mem, const guint8 * bytes, gsize size)
{
  GstMapInfo map;

  g_assert (gst_memory_map (mem, &map, GST_MAP_WRITE));
  memcpy (map.data, bytes, MIN (size, map.size));
  gst_memory_unmap (mem, &map);
  return mem;
}

/* A memory of the frame's type holding bytes[0..size). The types that
 * cannot be split (pool, Vulkan) get the whole frame. */
static GstMemory *
make_memory (FuzzClass type, const guint8 * bytes, gsize size)
{
  switch (type) {
    case CLASS_WRAPPED:{
      /* exactly size bytes: ASan's red zone starts at the next one */
      guint8 *data = g_malloc (MAX (size, 1));
      memcpy (data, bytes, size);
      return gst_memory_new_wrapped (0, data, size, 0, size, data, g_free);
    }
    case CLASS_GUARDED:
      return guarded_memory (bytes, size);
    case CLASS_FD:
      return fd_memory (bytes, size);
    default:
      return copy_into (gst_allocator_alloc (NULL, size, NULL), bytes, size);
  }
}

typedef struct
{
  GstHarness *h;
  GstElement *element;          /* the vktile element (in h, or in a bin) */
  const gchar *factory;
  GstBus *bus;
  GstVulkanDevice *device;
  GstBufferPool *proposed;      /* the pool the element proposes upstream */
  GPtrArray *held;              /* pool buffers lent to our frames */
} Case;

static GstBufferPool *
proposed_pool (Case * c, const GstVideoInfo * info)
{
  GstCaps *caps;
  GstQuery *q;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size, min, max;

  if (c->proposed)
    return c->proposed;
  caps = gst_video_info_to_caps (info);
  q = gst_query_new_allocation (caps, TRUE);
  if (gst_pad_peer_query (c->h->srcpad, q)
      && gst_query_get_n_allocation_pools (q) > 0)
    gst_query_parse_nth_allocation_pool (q, 0, &pool, &size, &min, &max);
  if (pool) {
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config)
        || !gst_buffer_pool_set_active (pool, TRUE))
      gst_clear_object (&pool);
  }
  gst_query_unref (q);
  gst_caps_unref (caps);
  c->proposed = pool;
  return pool;
}

/* The memory of a buffer from the element's own pool: a storage buffer it
 * uses in place, whatever meta our buffer puts on it. */
static GstMemory *
pool_memory (Case * c, const GstVideoInfo * info, const guint8 * bytes,
    gsize size)
{
  GstBufferPool *pool = proposed_pool (c, info);
  GstBuffer *pb = NULL;
  GstMemory *mem;

  if (!pool || gst_buffer_pool_acquire_buffer (pool, &pb, NULL) != GST_FLOW_OK)
    return NULL;
  mem = copy_into (gst_buffer_peek_memory (pb, 0), bytes, size);
  g_ptr_array_add (c->held, pb);
  return gst_memory_ref (mem);
}

static GstMemory *
vulkan_memory (Case * c, const guint8 * bytes, gsize size)
{
  if (!c->device)
    return NULL;
  return copy_into (gst_vulkan_buffer_memory_alloc (c->device, MAX (size, 1),
          VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT), bytes, size);
}

static gsize
memory_size (GstMemory * mem)
{
  return gst_memory_get_sizes (mem, NULL, NULL);
}

/* The buffer of a planned frame, random bytes everywhere. */
static GstBuffer *
build_buffer (GRand * r, Case * c, Frame * f)
{
  GstBuffer *buf = gst_buffer_new ();
  gsize total = f->lead + f->size;
  guint8 *bytes = g_malloc (MAX (total, 1));

  fill_random (r, bytes, total);
  if (f->layout == CLASS_NO_MEMORY) {
    /* nothing */
  } else if (f->memory == CLASS_POOL || f->memory == CLASS_VULKAN) {
    GstMemory *mem = f->memory == CLASS_POOL ?
        pool_memory (c, &f->info, bytes + f->lead, f->size) :
        vulkan_memory (c, bytes + f->lead, f->size);
    if (!mem) {
      note ("    (no %s memory: system memory instead)\n",
          class_names[f->memory]);
      f->memory = CLASS_SYSMEM;
      mem = make_memory (CLASS_SYSMEM, bytes + f->lead, f->size);
    }
    /* The pool's buffers have the size of the caps' frame: what the frame
     * holds is what fits. */
    f->size = MIN (f->size, memory_size (mem));
    f->valid = f->valid && layout_fits (f);
    gst_buffer_append_memory (buf, mem);
    if (memory_size (mem) > f->size)
      gst_buffer_resize (buf, 0, f->size);
  } else {
    gsize start = 0, cuts[4];
    guint i, j, n = 0;

    /* the memories' ends, in order; the lead is in the first memory */
    for (i = 0; i < f->n_cuts; i++)
      cuts[n++] = f->lead + f->cuts[i];
    cuts[n++] = total;
    for (i = 1; i < n; i++)
      for (j = i; j > 0 && cuts[j] < cuts[j - 1]; j--) {
        gsize t = cuts[j];
        cuts[j] = cuts[j - 1];
        cuts[j - 1] = t;
      }
    for (i = 0; i < n; i++) {
      /* no empty memories, but at least one */
      if (cuts[i] > start || (i == n - 1 && gst_buffer_n_memory (buf) == 0))
        gst_buffer_append_memory (buf, make_memory (f->memory, bytes + start,
                cuts[i] - start));
      start = MAX (start, cuts[i]);
    }
    if (f->lead)
      gst_buffer_resize (buf, f->lead, f->size);
  }
  g_free (bytes);

  if (f->meta) {
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        f->meta_format, f->meta_width, f->meta_height, f->meta_planes,
        f->offset, f->stride);
    /* Under a video meta GStreamer maps a plane from the one memory that
     * holds its first byte (gst_video_meta_map): a plane spread over more
     * than that is not a frame it can map either. */
    f->valid = f->valid && planes_in_one_memory (buf, f);
  }
  return buf;
}

/* ---- caps ---- */

/* Caps the element cannot take: formats and features outside its
 * templates, sizes GstVideoInfo refuses, missing fields. */
static const gchar *const bad_caps[] = {
  "video/x-raw,format=YUY2,width=16,height=16,framerate=30/1",
  "video/x-raw,format=GRAY8,width=0,height=16,framerate=30/1",
  "video/x-raw,format=RGBA,framerate=30/1",
  "video/x-raw,format=RGBA,width=-4,height=5,framerate=30/1",
  "video/x-raw,format=GRAY8,width=2147483647,height=2147483647,"
      "framerate=30/1",
  "video/x-raw,format=RGBA,width=1073741824,height=2,framerate=30/1",
  "video/x-raw(memory:DMABuf),format=GRAY8,width=16,height=16",
  "video/x-raw(format:Interlaced),format=NV12,width=16,height=16,"
      "interlace-mode=alternate",
  "video/x-bayer,format=rggb,width=16,height=16",
  "video/x-raw,format=NV12,width=16,height=16,framerate=-1/1",
};

/* Valid but unusual fields. */
static const gchar *const odd_fields[] = {
  ",interlace-mode=interleaved", ",interlace-mode=mixed",
  ",pixel-aspect-ratio=7/3", ",colorimetry=bt2020", ",chroma-site=jpeg",
  ",multiview-mode=mono", ",field-order=top-field-first",
};

static void
random_size (GRand * r, gint * w, gint * h)
{
  if (chance (r, 0.85)) {
    *w = 1 + pick_index (r, 64);
    *h = 1 + pick_index (r, 48);
  } else {
    *w = 1 + pick_index (r, 300);
    *h = 1 + pick_index (r, 220);
  }
}

/* New caps for the case; *info is what frames are laid out for (the
 * caps' own info, or a small fallback for caps without one). Returns
 * whether the element was given the caps. */
static gboolean
push_random_caps (GRand * r, Case * c, GstVideoInfo * info, gboolean * bad)
{
  GstVideoFormat format = formats[pick_index (r, G_N_ELEMENTS (formats))];
  GstPad *sink = gst_pad_get_peer (c->h->srcpad);
  GstCaps *templ = gst_pad_get_pad_template_caps (sink);
  GstSegment segment;
  GstCaps *caps, *current;
  gchar *str;
  gboolean accepted = FALSE;
  gint w, h;

  random_size (r, &w, &h);
  if (feature (r, CLASS_BAD_CAPS, 0.04)) {
    str = g_strdup (bad_caps[pick_index (r, G_N_ELEMENTS (bad_caps))]);
  } else {
    const gchar *rates[] = { "30/1", "0/1", "1000/1", "1/1001" };
    str = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
        "framerate=%s%s", gst_video_format_to_string (format), w, h,
        rates[pick_index (r, G_N_ELEMENTS (rates))],
        feature (r, CLASS_ODD_CAPS, 0.1) ?
        odd_fields[pick_index (r, G_N_ELEMENTS (odd_fields))] : "");
  }
  caps = gst_caps_from_string (str);
  *bad = !caps || !gst_video_info_from_caps (info, caps)
      || !gst_caps_can_intersect (caps, templ);
  if (*bad)
    gst_video_info_set_format (info, format, w, h);
  note ("  caps %s%s\n", str, *bad ? " (bad)" : "");
  /* A refused sticky event is still stored, and pushing it says TRUE: the
   * caps the element's pad holds say whether it took them. */
  if (caps) {
    gst_pad_push_event (c->h->srcpad, gst_event_new_caps (caps));
    current = gst_pad_get_current_caps (sink);
    accepted = current && gst_caps_is_equal (current, caps);
    gst_clear_caps (&current);
    gst_caps_unref (caps);
  }
  if (!accepted)
    note ("    caps refused\n");
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_push_event (c->h->srcpad, gst_event_new_segment (&segment));
  gst_caps_unref (templ);
  gst_object_unref (sink);
  g_free (str);
  return accepted;
}

/* ---- downstream offering a pool too small for the frames ---- */

typedef struct
{
  guint size, min, max;
} SmallPool;

static GstPadProbeReturn
offer_small_pool (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);
  SmallPool *sp = data;
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps;

  if (GST_QUERY_TYPE (q) != GST_QUERY_ALLOCATION
      || gst_query_get_n_allocation_pools (q) > 0)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (q, &caps, NULL);
  pool = gst_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  /* the query may say max < min; a pool's own config may not */
  gst_buffer_pool_config_set_params (config, caps, sp->size, sp->min, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_query_add_allocation_pool (q, pool, sp->size, sp->min, sp->max);
  gst_object_unref (pool);
  return GST_PAD_PROBE_OK;
}

/* ---- a case ---- */

static void
share_instance (GstElement * top)
{
  GstContext *context;

  if (!shared_instance)
    return;
  context = gst_context_new (GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_instance (context, shared_instance);
  gst_element_set_context (top, context);
  gst_context_unref (context);
}

/* vulkanupload ! element, in a bin with ghost pads. */
static GstElement *
upload_bin (GstElement * el)
{
  GstElement *bin = gst_bin_new (NULL);
  GstElement *up = gst_element_factory_make ("vulkanupload", NULL);
  GstPad *pad;

  g_assert (up != NULL);
  gst_bin_add_many (GST_BIN (bin), up, gst_object_ref (el), NULL);
  g_assert (gst_element_link (up, el));
  pad = gst_element_get_static_pad (up, "sink");
  gst_element_add_pad (bin, gst_ghost_pad_new ("sink", pad));
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (el, "src");
  gst_element_add_pad (bin, gst_ghost_pad_new ("src", pad));
  gst_object_unref (pad);
  return bin;
}

/* The case's messages: error texts into *errors; returns their count. */
static guint
collect_errors (GstBus * bus, GString * errors)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop (bus))) {
    GError *err = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, &dbg);
      g_string_append_printf (errors, "    ERROR from %s: %s (%s)\n",
          GST_MESSAGE_SRC_NAME (msg), err->message, dbg ? dbg : "");
      n++;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (msg, &err, &dbg);
      note ("    warning from %s: %s\n", GST_MESSAGE_SRC_NAME (msg),
          err->message);
    }
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  return n;
}

/* Reads every byte of an output frame (so a sanitizer sees a bad one) and
 * checks its size. */
static gboolean
check_output (GstBuffer * out, gsize want, GString * why)
{
  GstMapInfo map;
  gsize i;
  guint sum = 0;

  if (gst_buffer_get_size (out) != want) {
    g_string_append_printf (why, "    output of %" G_GSIZE_FORMAT " bytes, "
        "want %" G_GSIZE_FORMAT "\n", gst_buffer_get_size (out), want);
    return FALSE;
  }
  if (gst_buffer_map (out, &map, GST_MAP_READ)) {
    for (i = 0; i < map.size; i++)
      sum += map.data[i];
    gst_buffer_unmap (out, &map);
  }
  output_checksum += sum;
  return TRUE;
}

static gchar *
frame_summary (const Frame * f)
{
  GString *s = g_string_new (NULL);
  guint p;

  g_string_append_printf (s, "%s in %s, %" G_GSIZE_FORMAT " bytes",
      class_names[f->layout], class_names[f->memory], f->size);
  if (f->lead)
    g_string_append_printf (s, " after %" G_GSIZE_FORMAT, f->lead);
  if (f->n_cuts)
    g_string_append_printf (s, " in %u+ memories", f->n_cuts + 1);
  if (f->meta) {
    g_string_append_printf (s, ", meta %s %ux%u", gst_video_format_to_string
        (f->meta_format), f->meta_width, f->meta_height);
    for (p = 0; p < f->meta_planes; p++)
      g_string_append_printf (s, " [%" G_GSIZE_FORMAT ",%d]", f->offset[p],
          f->stride[p]);
  }
  g_string_append (s, f->valid ? " (valid)" : " (invalid)");
  return g_string_free (s, FALSE);
}

static void
set_replay (guint64 index)
{
  g_snprintf (replay_line, sizeof (replay_line), "replay: %s --seed %u "
      "--case %" G_GUINT64_FORMAT "%s%s%s%s%s --verbose\n", opt.argv0,
      opt.seed, index, opt.skip_arg ? " --skip " : "",
      opt.skip_arg ? opt.skip_arg : "", opt.include_arg ? " --include " : "",
      opt.include_arg ? opt.include_arg : "",
      opt.fresh_device ? " --fresh-device" : "");
}

/* vulkanupload takes exact frames in memory it can map (below). */
static gboolean
upload_possible (void)
{
  return !opt.skip[CLASS_EXACT] && !(opt.skip[CLASS_SYSMEM]
      && opt.skip[CLASS_WRAPPED] && opt.skip[CLASS_GUARDED]
      && opt.skip[CLASS_FD]);
}

/* Runs case `index`; returns FALSE on an unexpected outcome. */
static gboolean
run_case (guint64 index)
{
  guint32 seeds[3] = { opt.seed, (guint32) index, (guint32) (index >> 32) };
  GRand *r = g_rand_new_with_seed_array (seeds, 3);
  const gchar *factory = elements[pick_index (r, G_N_ELEMENTS (elements))];
  gboolean upload = feature (r, CLASS_UPLOAD, 0.08) && upload_possible ();
  gboolean vulkan_out = feature (r, CLASS_VULKAN_OUT, 0.12);
  gboolean small_pool = feature (r, CLASS_SMALL_POOL, 0.1);
  guint n_frames = 1 + pick_index (r, 3), n_props, i, n_ok = 0, n_out = 0;
  guint n_errors, pushed = 0, matched = 0, missing = 0, extra = 0;
  guint required = 0;
  gboolean may_drop[8], drop_invalid = FALSE;
  gboolean caps_bad = FALSE, caps_refused = FALSE, any_invalid = FALSE;
  gboolean ok = TRUE;
  gsize expected[8];
  FuzzClass frame_layouts[8];
  GstFlowReturn rets[8];
  GString *why = g_string_new (NULL), *errors = g_string_new (NULL);
  SmallPool sp = { 0 };
  GstVideoInfo info;
  GstElement *el, *top;
  GstBuffer *out;
  Case c = { 0 };

  g_string_truncate (case_log, 0);
  g_string_append_printf (case_log, "case %" G_GUINT64_FORMAT ": %s%s%s%s\n",
      index, upload ? "vulkanupload ! " : "", factory,
      vulkan_out ? " ! memory:VulkanBuffer" : "",
      small_pool ? " (small downstream pool)" : "");
  set_replay (index);

  c.factory = factory;
  c.held = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  el = gst_element_factory_make (factory, NULL);
  g_assert (el != NULL);
  top = upload ? upload_bin (el) : gst_object_ref (el);
  c.element = el;
  c.bus = gst_bus_new ();
  gst_element_set_bus (top, c.bus);
  share_instance (top);
  n_props = opt.skip[CLASS_PROPS] ? 0 : pick_index (r, 7);
  for (i = 0; i < n_props; i++)
    set_random_property (r, el, factory);

  c.h = gst_harness_new_with_element (top, "sink", "src");
  c.device = harness_element_device (el);
  if (vulkan_out)
    gst_harness_set_sink_caps_str (c.h, "video/x-raw(memory:VulkanBuffer)");
  if (small_pool) {
    static const guint mins[] = { 0, 1, 2, 6, 32 };
    sp.min = mins[pick_index (r, G_N_ELEMENTS (mins))];
    sp.max = pick_index (r, 4);
    sp.size = pick_index (r, 3) == 0 ? 1 : 10;
    gst_pad_add_probe (c.h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
        offer_small_pool, &sp, NULL);
  }
  caps_refused = !push_random_caps (r, &c, &info, &caps_bad);

  for (i = 0; i < n_frames; i++) {
    FuzzClass layout, memory;
    Frame f;
    GstBuffer *buf;
    gchar *summary;

    /* A hang is a frame that does not end, not a slow case: a cold shader
     * cache on a loaded lavapipe machine compiles for seconds per variant,
     * and each caps change here may bring several. */
    alarm (opt.timeout_s);
    if (i > 0 && feature (r, CLASS_CAPS_CHANGE, 0.15)) {
      gboolean bad;
      caps_refused |= !push_random_caps (r, &c, &info, &bad);
      caps_bad |= bad;
    }
    if (upload) {
      /* vulkanupload reads the frame first, and 1.22's asserts on any
       * layout but the default one (vkupload.c: plane_size <
       * map_info.size): only exact frames in memory it can map */
      layout = CLASS_EXACT;
      do
        memory = pick_class (r, FIRST_MEMORY, memory_weights, N_MEMORIES);
      while (memory > CLASS_FD);
    } else {
      layout = pick_class (r, FIRST_LAYOUT, layout_weights, N_LAYOUTS);
      memory = pick_class (r, FIRST_MEMORY, memory_weights, N_MEMORIES);
    }
    plan_frame (r, &f, &info, layout, memory);
    buf = build_buffer (r, &c, &f);
    GST_BUFFER_PTS (buf) = i * (GST_SECOND / 30);
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    summary = frame_summary (&f);
    note ("  frame %u: %s\n", i, summary);
    g_free (summary);
    any_invalid |= !f.valid;
    expected[i] = GST_VIDEO_INFO_SIZE (&info);
    /* drop-invalid=true drops what it finds invalid, with a warning */
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (el),
            "drop-invalid"))
      g_object_get (el, "drop-invalid", &drop_invalid, NULL);
    may_drop[i] = !f.valid && drop_invalid;
    frame_layouts[i] = f.layout;
    stats.frames++;
    stats.frames_by_class[f.layout]++;
    stats.frames_by_class[f.memory]++;
    rets[i] = gst_harness_push (c.h, buf);
    pushed++;
    note ("    -> %s\n", gst_flow_get_name (rets[i]));
    if (rets[i] != GST_FLOW_OK)
      break;
    n_ok++;
    if (!opt.skip[CLASS_PROPS] && chance (r, 0.3))
      set_random_property (r, el, factory);
  }
  /* EOS waits for the frames in flight. */
  gst_pad_push_event (c.h->srcpad, gst_event_new_eos ());
  /* Outputs in order, each of the size of a frame pushed, skipping only
   * frames that may have been dropped; as many as the frames that may not
   * have been. */
  for (i = 0; i < n_ok; i++)
    required += !may_drop[i];
  while ((out = gst_harness_try_pull (c.h))) {
    gsize size = gst_buffer_get_size (out);
    guint j = matched;

    while (j < n_ok && may_drop[j] && expected[j] != size)
      j++;
    if (j < n_ok) {
      ok &= check_output (out, expected[j], why);
      matched = j + 1;
    } else {
      extra++;
    }
    n_out++;
    gst_buffer_unref (out);
  }
  missing = n_out < required ? required - n_out : 0;
  stats.dropped += n_ok > n_out ? n_ok - n_out : 0;
  n_errors = collect_errors (c.bus, errors);
  note ("  %u pushed, %u ok, %u out, %u errors\n", pushed, n_ok, n_out,
      n_errors);
  g_string_append (case_log, errors->str);

  if (extra) {
    g_string_append_printf (why, "    %u frames out of %u pushed\n", n_out,
        n_ok);
    ok = FALSE;
  }
  if (n_errors == 0) {
    for (i = 0; i < pushed; i++)
      if (rets[i] != GST_FLOW_OK && !((caps_refused || caps_bad)
              && rets[i] == GST_FLOW_NOT_NEGOTIATED)) {
        g_string_append_printf (why, "    frame %u: %s without an ERROR "
            "message\n", i, gst_flow_get_name (rets[i]));
        ok = FALSE;
      }
    if (!caps_refused && missing) {
      g_string_append_printf (why, "    %u of %u frames did not come out, "
          "and no ERROR message\n", missing, n_ok);
      ok = FALSE;
    }
  } else {
    stats.refused++;
    stats.refused_by_class[frame_layouts[pushed - 1]]++;
    if (!any_invalid && !caps_bad) {
      g_string_append (why, "    a valid frame was refused\n");
      ok = FALSE;
    }
  }

  gst_harness_teardown (c.h);
  g_ptr_array_unref (c.held);
  if (c.proposed) {
    gst_buffer_pool_set_active (c.proposed, FALSE);
    gst_object_unref (c.proposed);
  }
  gst_clear_object (&c.device);
  gst_element_set_bus (top, NULL);
  gst_object_unref (c.bus);
  gst_object_unref (top);
  gst_object_unref (el);

  if (take_problems (why))
    ok = FALSE;

  if (!ok || opt.verbose)
    g_printerr ("%s", case_log->str);
  if (!ok) {
    g_printerr ("  UNEXPECTED:\n%s%s", why->str, replay_line);
    stats.bad++;
  }
  stats.cases++;
  g_string_free (why, TRUE);
  g_string_free (errors, TRUE);
  g_rand_free (r);
  return ok;
}

/* ---- the huge frame ---- */

static glong
peak_rss_mib (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

/* A 32768x32768 GRAY8 frame (1 GiB) in a lazily mapped anonymous mapping:
 * reading it costs no memory, so what the run costs is the element's. It
 * must end in an element error or a frame of the right size. */
static gboolean
run_huge (void)
{
  const gint side = 32768;
  gsize size = (gsize) side * side;
  GstElement *el = gst_element_factory_make ("tiledconv", NULL);
  GstBus *bus = gst_bus_new ();
  GString *errors = g_string_new (NULL);
  gint64 t0 = g_get_monotonic_time ();
  glong rss0 = peak_rss_mib ();
  GstFlowReturn ret;
  GstHarness *h;
  GstBuffer *buf, *out;
  GstCaps *caps;
  GstSegment segment;
  Mapping *m = g_new0 (Mapping, 1);
  guint n_errors, n_out = 0;
  gboolean ok = TRUE;

  g_string_assign (case_log, "huge: tiledconv frames-in-flight=1, GRAY8 "
      "32768x32768 in a MAP_NORESERVE mapping\n");
  g_snprintf (replay_line, sizeof (replay_line), "replay: %s --huge-only "
      "--verbose\n", opt.argv0);
  alarm (opt.timeout_s * 5);
  m->len = size;
  m->base = mmap (NULL, size, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  g_assert (m->base != MAP_FAILED);
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, gst_memory_new_wrapped (0, m->base, size, 0,
          size, m, unmap_mapping));

  gst_element_set_bus (el, bus);
  share_instance (el);
  gst_util_set_object_arg (G_OBJECT (el), "frames-in-flight", "1");
  h = gst_harness_new_with_element (el, "sink", "src");
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8",
      "width", G_TYPE_INT, side, "height", G_TYPE_INT, side, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
  gst_pad_push_event (h->srcpad, gst_event_new_caps (caps));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_push_event (h->srcpad, gst_event_new_segment (&segment));
  ret = gst_harness_push (h, buf);
  gst_pad_push_event (h->srcpad, gst_event_new_eos ());
  while ((out = gst_harness_try_pull (h))) {
    if (gst_buffer_get_size (out) != size)
      ok = FALSE;
    n_out++;
    gst_buffer_unref (out);
  }
  n_errors = collect_errors (bus, errors);
  gst_harness_teardown (h);
  alarm (0);
  if (ret == GST_FLOW_OK)
    ok &= n_out == 1 && n_errors == 0;
  else
    ok &= n_errors > 0;
  if (take_problems (errors))
    ok = FALSE;
  g_printerr ("fuzz: huge frame: %s, %u out, %u errors, %.1f s, peak RSS "
      "%ld -> %ld MiB%s\n%s", gst_flow_get_name (ret), n_out, n_errors,
      (g_get_monotonic_time () - t0) / 1e6, rss0, peak_rss_mib (),
      ok ? "" : " UNEXPECTED", errors->str);
  if (!ok)
    g_printerr ("%s", replay_line);
  gst_element_set_bus (el, NULL);
  gst_object_unref (el);
  gst_object_unref (bus);
  g_string_free (errors, TRUE);
  return ok;
}

/* ---- main ---- */

static GstVulkanDevice *
create_shared_device (GstVulkanInstance * instance, gpointer data)
{
  return gst_object_ref (shared_device);
}

/* One instance and device for every case, opened as the elements open
 * their own (host memory import enabled where the driver has it). */
static void
open_shared_device (void)
{
  GError *error = NULL;

  shared_instance = gst_vulkan_instance_new ();
  if (!gst_vulkan_instance_open (shared_instance, &error))
    g_error ("cannot open a Vulkan instance: %s", error->message);
  shared_device = gst_vulkan_device_new_with_index (shared_instance, 0);
  gst_vulkan_device_enable_extension (shared_device, "VK_KHR_external_memory");
  gst_vulkan_device_enable_extension (shared_device,
      "VK_EXT_external_memory_host");
  if (!gst_vulkan_device_open (shared_device, &error))
    g_error ("cannot open a Vulkan device: %s", error->message);
  g_signal_connect (shared_instance, "create-device",
      G_CALLBACK (create_shared_device), NULL);
}

static gboolean
parse_classes (const gchar * arg, gboolean skip)
{
  gchar **names = g_strsplit (arg, ",", -1);
  gboolean ok = TRUE;
  guint i, c;

  for (i = 0; names[i]; i++) {
    for (c = 0; c < N_CLASSES; c++)
      if (g_str_equal (names[i], class_names[c]))
        break;
    if (c == N_CLASSES) {
      g_printerr ("fuzz: no class \"%s\"\n", names[i]);
      ok = FALSE;
    } else {
      opt.skip[c] = skip;
    }
  }
  g_strfreev (names);
  for (c = 0; c < N_LAYOUTS && opt.skip[FIRST_LAYOUT + c]; c++);
  ok &= c < N_LAYOUTS;
  for (c = 0; c < N_MEMORIES && opt.skip[FIRST_MEMORY + c]; c++);
  ok &= c < N_MEMORIES;
  return ok;
}

static void
print_summary (void)
{
  GString *s = g_string_new ("fuzz: frames (cases refused at it) by class:");
  guint c;

  for (c = 0; c < N_LAYOUTS + N_MEMORIES; c++)
    if (stats.frames_by_class[c])
      g_string_append_printf (s, " %s %u", class_names[c],
          stats.frames_by_class[c]);
  g_string_append (s, "; refused at:");
  for (c = 0; c < N_LAYOUTS; c++)
    if (stats.refused_by_class[c])
      g_string_append_printf (s, " %s %u", class_names[c],
          stats.refused_by_class[c]);
  g_printerr ("%s\n", s->str);
  g_string_free (s, TRUE);
  g_printerr ("fuzz: %u frames dropped (drop-invalid)\n", stats.dropped);
  g_print ("fuzz: %u cases, %u frames, %u refused, seed %u\n", stats.cases,
      stats.frames, stats.refused, opt.seed);
}

int
main (int argc, char **argv)
{
  gint64 only_case = -1, cases = -1;
  gint seed = DEFAULT_SEED, timeout_s = DEFAULT_TIMEOUT_S;
  gdouble seconds = 0;
  gchar *skip = NULL, *include = NULL;
  GOptionEntry entries[] = {
    {"seed", 0, 0, G_OPTION_ARG_INT, &seed, "Seed of the run (default "
          G_STRINGIFY (DEFAULT_SEED) ")", "N"},
    {"cases", 0, 0, G_OPTION_ARG_INT64, &cases, "Cases to run (default "
          G_STRINGIFY (DEFAULT_CASES) ", or unlimited with --seconds)", "N"},
    {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "Start no case after "
          "this many seconds", "S"},
    {"case", 0, 0, G_OPTION_ARG_INT64, &only_case, "Run only case K (replay)",
        "K"},
    {"timeout", 0, 0, G_OPTION_ARG_INT, &timeout_s, "Seconds the setup or "
          "one frame of a case may take (default "
          G_STRINGIFY (DEFAULT_TIMEOUT_S) ")", "S"},
    {"skip", 0, 0, G_OPTION_ARG_STRING, &skip, "Classes never drawn, e.g. "
          "short,bad-offset (the names in the case lines)", "LIST"},
    {"include", 0, 0, G_OPTION_ARG_STRING, &include, "Classes off by "
          "default to draw too (upload)", "LIST"},
    {"huge", 0, 0, G_OPTION_ARG_NONE, &opt.huge, "Also push a 32768x32768 "
          "frame", NULL},
    {"huge-only", 0, 0, G_OPTION_ARG_NONE, &opt.huge_only, "Only push the "
          "32768x32768 frame", NULL},
    {"fresh-device", 0, 0, G_OPTION_ARG_NONE, &opt.fresh_device, "Each "
          "element opens its own Vulkan device (slower)", NULL},
    {"verbose", 0, 0, G_OPTION_ARG_NONE, &opt.verbose, "Print every case",
        NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- fuzz the vktile elements");
  GError *error = NULL;
  gint64 start;
  guint64 i;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("fuzz: %s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  opt.argv0 = argv[0];
  opt.seed = seed;
  opt.only_case = only_case;
  opt.seconds = seconds;
  opt.timeout_s = MAX (timeout_s, 1);
  opt.cases = cases >= 0 ? cases : seconds > 0 ? G_MAXUINT : DEFAULT_CASES;
  opt.skip_arg = skip;
  opt.include_arg = include;
  /* vulkanupload of GStreamer 1.22 aborts on frames pushed from a harness
   * into a vktile element (g_assert (plane_size < map_info.size) in
   * vkupload.c's _raw_to_buffer_perform: the buffer pool of its own it
   * allocates from gives planes exactly their size): its crash is not the
   * elements', and the Vulkan memory class covers the same input path. */
  opt.skip[CLASS_UPLOAD] = TRUE;
  if ((skip && !parse_classes (skip, TRUE))
      || (include && !parse_classes (include, FALSE)))
    return 2;

  gst_init (NULL, NULL);
  case_log = g_string_new (NULL);
  problems = g_string_new (NULL);
  g_log_set_default_handler (log_handler, NULL);
  install_handlers ();
  gst_vulkan_buffer_memory_init_once ();
  if (!opt.fresh_device)
    open_shared_device ();

  start = g_get_monotonic_time ();
  if (!opt.huge_only) {
    for (i = 0; i < opt.cases; i++) {
      guint64 index = only_case >= 0 ? (guint64) only_case : i;
      if (opt.seconds > 0
          && g_get_monotonic_time () - start > opt.seconds * 1e6)
        break;
      alarm (opt.timeout_s);
      run_case (index);
      alarm (0);
      if (only_case >= 0)
        break;
    }
  }
  if (opt.huge || opt.huge_only)
    stats.bad += !run_huge ();

  print_summary ();
  if (stats.bad)
    g_printerr ("fuzz: %u unexpected outcomes (each printed above with its "
        "replay line)\n", stats.bad);
  gst_clear_object (&shared_device);
  gst_clear_object (&shared_instance);
  g_free (skip);
  g_free (include);
  return stats.bad ? 1 : 0;
}
