/* test_faults.c: the GPU failing under the elements — an allocation or
 * object creation that runs out of memory at each point where one happens,
 * the device lost at a submission or at the wait after it, a frame larger
 * than the device can hold — must end in an element error, never in a
 * crash, a hang or a wrong frame. The failures come from a Vulkan layer of
 * the tests (faultlayer.c) between the plugin and a working driver. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <sys/mman.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include "harness.h"

#define LAYER_NAME "VK_LAYER_VKTILE_fault_injection"
#define N_FRAMES 4
/* Far longer than any run here takes: a run that goes past it hangs. */
#define RUN_TIMEOUT (60 * GST_SECOND)

static const gchar *const chains[] = {
  "tiledconv preset=gaussian5",
  "gaussblur sigma=2",
  "recursivefilter sigma=3",
  /* frames that stay in Vulkan memory between two elements: the second
   * orders its work after the first's without a wait */
  "tiledconv preset=box3 ! video/x-raw(memory:VulkanBuffer) ! gaussblur "
      "sigma=1.5",
};

#define N_CHAINS G_N_ELEMENTS (chains)

static int (*fault_arm) (const char *plan);
static void (*fault_counts) (unsigned long *counted, unsigned long *submits,
    unsigned long *fired);
static void (*fault_disarm_live) (void);

/* What one run of a pipeline gave. */
typedef struct
{
  GPtrArray *outs;
  guint n_errors;
  gboolean first_error_ours;    /* from a vktile element */
  gchar *first_error;
} Run;

static void
run_clear (Run * run)
{
  if (run->outs)
    g_ptr_array_unref (run->outs);
  g_free (run->first_error);
  memset (run, 0, sizeof (*run));
}

static gboolean
is_vktile_element (GstObject * obj)
{
  GType base = g_type_from_name ("GstVkTileFilter");

  return base && g_type_is_a (G_OBJECT_TYPE (obj), base);
}

/* Counts the errors on the bus; the first one's source and text go into
 * `run`. */
static void
take_error (Run * run, GstMessage * msg)
{
  GError *err = NULL;
  gchar *debug = NULL;

  gst_message_parse_error (msg, &err, &debug);
  if (debug)
    g_strdelimit (debug, "\n", ' ');
  if (run->n_errors++ == 0) {
    run->first_error_ours = is_vktile_element (GST_MESSAGE_SRC (msg));
    run->first_error = g_strdup_printf ("%s: %s (%s)",
        GST_MESSAGE_SRC_NAME (msg), err->message, GST_STR_NULL (debug));
  }
  g_clear_error (&err);
  g_free (debug);
}

/* appsrc ! chain ! appsink with `frames`: every output and every error,
 * within RUN_TIMEOUT. */
static void
run_pipeline (const gchar * chain, const GstVideoInfo * info,
    GstBuffer ** frames, guint n, Run * run)
{
  GstCaps *caps = gst_video_info_to_caps ((GstVideoInfo *) info);
  gchar *caps_str = gst_caps_to_string (caps);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "%s ! appsink name=sink sync=false", caps_str, chain);
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (desc, &error);
  GstElement *src, *sink;
  GstBus *bus;
  GstMessage *msg;
  GstSample *sample;
  gint64 deadline;
  guint i;

  fail_unless (pipe != NULL, "%s: %s", desc, error ? error->message : "?");
  memset (run, 0, sizeof (*run));
  run->outs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  bus = gst_element_get_bus (pipe);
  if (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE) {
    for (i = 0; i < n; i++) {
      GstBuffer *b = gst_buffer_copy (frames[i]);

      GST_BUFFER_PTS (b) = i * (GST_SECOND / 30);
      GST_BUFFER_DURATION (b) = GST_SECOND / 30;
      gst_app_src_push_buffer (GST_APP_SRC (src), b);
    }
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    /* appsink holds EOS back until its samples are taken */
    deadline = g_get_monotonic_time () + RUN_TIMEOUT / GST_USECOND;
    while (!gst_app_sink_is_eos (GST_APP_SINK (sink))) {
      if ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
                  10 * GST_MSECOND))) {
        g_ptr_array_add (run->outs,
            gst_buffer_ref (gst_sample_get_buffer (sample)));
        gst_sample_unref (sample);
      } else if ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
        take_error (run, msg);
        gst_message_unref (msg);
        break;
      }
      fail_unless (g_get_monotonic_time () < deadline, "%s: neither EOS nor "
          "an error after %" G_GUINT64_FORMAT " s: a hang", desc,
          RUN_TIMEOUT / GST_SECOND);
    }
  }
  /* the pipeline flushes its bus on the way to NULL */
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
    take_error (run, msg);
    gst_message_unref (msg);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  gst_caps_unref (caps);
  g_free (caps_str);
  g_free (desc);
}

static gboolean
same_bytes (GstBuffer * a, GstBuffer * b)
{
  GstMapInfo ma, mb;
  gboolean same;

  fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
  fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
  same = ma.size == mb.size && memcmp (ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap (a, &ma);
  gst_buffer_unmap (b, &mb);
  return same;
}

/* A run under a fault: either it was not affected (every frame, each
 * byte-identical to the clean run's), or it ended in an error that a vktile
 * element posted first, with only correct frames before it. */
static void
check_faulted_run (const Run * run, const Run * clean, const gchar * what)
{
  guint i;

  fail_unless (run->outs->len <= clean->outs->len,
      "%s: %u frames out of %u in", what, run->outs->len, clean->outs->len);
  for (i = 0; i < run->outs->len; i++)
    fail_unless (same_bytes (g_ptr_array_index (run->outs, i),
            g_ptr_array_index (clean->outs, i)), "%s: frame %u differs from "
        "the run without a fault", what, i);
  if (run->n_errors == 0)
    fail_unless (run->outs->len == clean->outs->len, "%s: %u frames of %u "
        "out, and no error", what, run->outs->len, clean->outs->len);
  else
    fail_unless (run->first_error_ours, "%s: the first error is not a vktile "
        "element's: %s", what, run->first_error);
}

static GstBuffer **
test_frames (GstVideoInfo * info, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  GstBuffer **frames = g_new0 (GstBuffer *, N_FRAMES);
  guint i;

  gst_video_info_set_format (info, GST_VIDEO_FORMAT_RGBA, 40, 30);
  for (i = 0; i < N_FRAMES; i++)
    frames[i] = make_frame (info, rand, LAYOUT_DEFAULT, CONTENT_NOISE);
  g_rand_free (rand);
  return frames;
}

static void
free_test_frames (GstBuffer ** frames)
{
  guint i;

  for (i = 0; i < N_FRAMES; i++)
    gst_buffer_unref (frames[i]);
  g_free (frames);
}

/* A chain, its test frames and its run without a fault, which the runs
 * under a fault are checked against; how many creations and submissions
 * that run made. */
typedef struct
{
  const gchar *chain;
  GstVideoInfo info;
  GstBuffer **frames;
  Run run;
  gulong counted, submits;
} Clean;

/* test_frames() from seed through chain without a fault, which must give
 * every frame and no error. */
static void
clean_open (Clean * clean, const gchar * chain, guint32 seed)
{
  gulong c0, s0, f0, c1, s1, f1;

  clean->chain = chain;
  clean->frames = test_frames (&clean->info, seed);
  fail_unless (fault_arm ("none"));
  fault_counts (&c0, &s0, &f0);
  run_pipeline (chain, &clean->info, clean->frames, N_FRAMES, &clean->run);
  fault_counts (&c1, &s1, &f1);
  fail_unless (clean->run.n_errors == 0, "%s: %s", chain,
      clean->run.first_error);
  fail_unless_equals_int (clean->run.outs->len, N_FRAMES);
  clean->counted = c1 - c0;
  clean->submits = s1 - s0;
}

static void
clean_close (Clean * clean)
{
  run_clear (&clean->run);
  free_test_frames (clean->frames);
}

/* What the layer counted over one run. */
typedef struct
{
  gulong counted, submits, faults;
} Counts;

/* One run of clean's chain and frames with the fault `kind` (a plan of
 * faultlayer.c) at its k-th creation or submission of n, against the
 * clean run (check_faulted_run()); with `must_fail`, a run whose fault
 * fired must end in an error. Returns whether it did; *counts: what the
 * layer counted during the run. */
static gboolean
faulted_run (const Clean * clean, const gchar * kind, gulong k, gulong n,
    gboolean must_fail, Counts * counts)
{
  gchar *plan = g_strdup_printf ("%s:%lu", kind, k);
  gchar *what = g_strdup_printf ("%s, %s of %lu", clean->chain, plan, n);
  gulong c0, s0, f0, c1, s1, f1;
  gboolean failed;
  Run run;

  fail_unless (fault_arm (plan));
  fault_counts (&c0, &s0, &f0);
  run_pipeline (clean->chain, &clean->info, clean->frames, N_FRAMES, &run);
  fault_counts (&c1, &s1, &f1);
  /* the checks map the outputs: not the elements' creations */
  fault_disarm_live ();
  counts->counted = c1 - c0;
  counts->submits = s1 - s0;
  counts->faults = f1 - f0;
  fail_unless (counts->faults <= 1, "%s: %lu faults", what, counts->faults);
  check_faulted_run (&run, &clean->run, what);
  failed = run.n_errors > 0;
  fail_unless (failed || !must_fail || counts->faults == 0, "%s: no error",
      what);
  GST_INFO ("%s: %u frames, %lu creations, %lu submissions, %s", what,
      run.outs->len, counts->counted, counts->submits,
      failed ? run.first_error : "no error");
  run_clear (&run);
  g_free (plan);
  g_free (what);
  return failed;
}

/* The faults `kind` at the 1st, 2nd, ... creation or submission (`at`
 * picks which count), until a run ends before its k-th: the runs of a
 * chain need not repeat the clean run's counts exactly (on a discrete GPU
 * a frame's transfers pair with its neighbour's or not, as the GPU keeps
 * up), so every point that a run reaches is swept, and the sweep ends
 * where the runs end. Returns how many runs ended in an error. */
static gulong
sweep (const Clean * clean, const gchar * kind, gboolean must_fail,
    gboolean at_submits)
{
  gulong n = at_submits ? clean->submits : clean->counted;
  gulong k, errors = 0;
  Counts counts;

  for (k = 1;; k++) {
    errors += faulted_run (clean, kind, k, n, must_fail, &counts);
    if (counts.faults == 0)
      break;
    /* an element that retries what failed without end would never stop */
    fail_unless (k < 4 * n + 16, "%s, %s: still faults at %lu of %lu",
        clean->chain, kind, k, n);
  }
  /* the last run made fewer than k: the layer skipped none */
  fail_unless ((at_submits ? counts.submits : counts.counted) < k,
      "%s, %s:%lu did not fire", clean->chain, kind, k);
  /* the sweep covered (nearly) what the clean run made */
  fail_unless (4 * (k - 1) >= 3 * n, "%s, %s: the runs ended after %lu of "
      "%lu", clean->chain, kind, k - 1, n);
  GST_INFO ("%s, %s: %lu points of the clean run's %lu, %lu errors",
      clean->chain, kind, k - 1, n, errors);
  return errors;
}

/* The layer is in the chain and counts: without it, every test below
 * would pass for nothing. */
GST_START_TEST (test_layer_active)
{
  Clean clean;

  clean_open (&clean, chains[0], 1);
  fail_unless (clean.counted > 0 && clean.submits >= N_FRAMES, "the fault "
      "layer saw %lu creations and %lu submissions", clean.counted,
      clean.submits);
  clean_close (&clean);
}

GST_END_TEST;

/* Out of memory at each creation or allocation, one at a time: the first,
 * the last and every one between. */
GST_START_TEST (test_out_of_memory_everywhere)
{
  Clean clean;

  clean_open (&clean, chains[__i__], 100 + __i__);
  /* most creations happen once, and their failure has no way around it */
  fail_unless (sweep (&clean, "oom", FALSE, FALSE) > 0, "%s: no allocation "
      "failure led to an error", clean.chain);
  fail_unless (fault_arm ("none"));
  clean_close (&clean);
}

GST_END_TEST;

/* The device lost at each submission, or right after it: an error, the
 * frames before it correct, and a new pipeline works again. */
GST_START_TEST (test_device_lost)
{
  Clean clean;
  Run run;

  clean_open (&clean, chains[__i__], 200 + __i__);
  sweep (&clean, "lost", TRUE, TRUE);
  sweep (&clean, "lost-wait", TRUE, TRUE);
  /* the application starts over on a fresh device */
  fail_unless (fault_arm ("none"));
  run_pipeline (clean.chain, &clean.info, clean.frames, N_FRAMES, &run);
  check_faulted_run (&run, &clean.run, "after the losses");
  fail_unless (run.n_errors == 0, "%s after the losses: %s", clean.chain,
      run.first_error);
  run_clear (&run);
  clean_close (&clean);
}

GST_END_TEST;

/* A 32768x32768 RGBA frame (4 GiB) is more than any buffer the elements
 * may allocate: an element error before anything reads it. The frame is a
 * lazily mapped anonymous mapping, so the test costs no memory. */
static void
unmap_huge (gpointer data)
{
  munmap (data, (gsize) 32768 * 32768 * 4);
}

GST_START_TEST (test_frame_too_large)
{
  const gint side = 32768;
  gsize size = (gsize) side * side * 4;
  GstVideoInfo info;
  GstBuffer *frame;
  gpointer base;
  Run run;

  base = mmap (NULL, size, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  fail_unless (base != MAP_FAILED);
  frame = gst_buffer_new ();
  gst_buffer_append_memory (frame, gst_memory_new_wrapped (0, base, size, 0,
          size, base, unmap_huge));
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, side, side);
  run_pipeline (chains[__i__], &info, &frame, 1, &run);
  fail_unless_equals_int (run.outs->len, 0);
  fail_unless (run.n_errors > 0 && run.first_error_ours, "%s: %s",
      chains[__i__], GST_STR_NULL (run.first_error));
  fail_unless (strstr (run.first_error, "32768x32768 RGBA") != NULL
      && strstr (run.first_error, "4 GiB") != NULL, "%s: the error does not "
      "say what was too large: %s", chains[__i__], run.first_error);
  run_clear (&run);
  gst_buffer_unref (frame);
}

GST_END_TEST;

/* A GPU whose compute shaders lack subgroup shuffles: the elements that
 * need them say so (and what runs without them) before anything is
 * written; the others run as before. */
GST_START_TEST (test_no_subgroup_shuffles)
{
  static const struct
  {
    const gchar *chain, *says;
  } needs[] = {
    {"denoise", "denoise needs subgroup shuffles"},
    {"recursivefilter sigma=3", "algorithm=scanline runs without them"},
  };
  static const gchar *const runs[] = {
    "recursivefilter sigma=3 algorithm=scanline", "gaussblur sigma=2",
    "tiledconv preset=gaussian5",
  };
  GstVideoInfo info;
  GstBuffer **frames = test_frames (&info, 400);
  guint i;
  Run run;

  fail_unless (fault_arm ("no-shuffles"));
  for (i = 0; i < G_N_ELEMENTS (needs); i++) {
    run_pipeline (needs[i].chain, &info, frames, N_FRAMES, &run);
    fail_unless_equals_int (run.outs->len, 0);
    fail_unless (run.n_errors > 0 && run.first_error_ours, "%s: %s",
        needs[i].chain, GST_STR_NULL (run.first_error));
    fail_unless (strstr (run.first_error, needs[i].says) != NULL, "%s: the "
        "error does not say \"%s\": %s", needs[i].chain, needs[i].says,
        run.first_error);
    run_clear (&run);
  }
  for (i = 0; i < G_N_ELEMENTS (runs); i++) {
    run_pipeline (runs[i], &info, frames, N_FRAMES, &run);
    fail_unless (run.n_errors == 0, "%s: %s", runs[i], run.first_error);
    fail_unless_equals_int (run.outs->len, N_FRAMES);
    run_clear (&run);
  }
  /* with shuffles, denoise runs: the layer, not the element, refused */
  fail_unless (fault_arm ("none"));
  run_pipeline ("denoise", &info, frames, N_FRAMES, &run);
  fail_unless (run.n_errors == 0, "denoise: %s", run.first_error);
  fail_unless_equals_int (run.outs->len, N_FRAMES);
  run_clear (&run);
  free_test_frames (frames);
}

GST_END_TEST;

/* The suite's setup: the layer from the directory of this executable,
 * before any Vulkan instance exists; the loader then loads the same
 * library. */
static int
enable_fault_layer (int argc, char **argv)
{
  gchar *exe = g_file_read_link ("/proc/self/exe", NULL);
  gchar *dir = g_path_get_dirname (exe ? exe : argv[0]);
  gchar *lib = g_build_filename (dir, "libvktile_fault_layer.so", NULL);
  const gchar *old = g_getenv ("VK_LAYER_PATH");
  gchar *path = old && *old ? g_strconcat (dir, ":", old, NULL) :
      g_strdup (dir);
  void *handle = dlopen (lib, RTLD_NOW);
  const gchar *layers;
  gchar *all = NULL;

  if (!handle)
    g_error ("cannot load the fault layer %s: %s", lib, dlerror ());
  fault_arm = dlsym (handle, "vktile_fault_arm");
  fault_counts = dlsym (handle, "vktile_fault_counts");
  fault_disarm_live = dlsym (handle, "vktile_fault_disarm_live");
  if (!fault_arm || !fault_counts || !fault_disarm_live)
    g_error ("%s lacks vktile_fault_arm, _counts or _disarm_live", lib);
  /* after the layers already asked for (the discrete twin's), nearer the
   * driver than them */
  layers = g_getenv ("VK_INSTANCE_LAYERS");
  layers = layers && *layers ? (all = g_strconcat (layers, ":", LAYER_NAME,
          NULL)) : LAYER_NAME;
  g_setenv ("VK_LAYER_PATH", path, TRUE);
  g_setenv ("VK_INSTANCE_LAYERS", layers, TRUE);
  g_free (all);
  g_unsetenv ("VKTILE_FAULT");
  g_free (path);
  g_free (lib);
  g_free (dir);
  g_free (exe);
  return -1;
}

static const SuiteEntry faults_tests[] = {
  SUITE_CASE ("faults"),
  SUITE_TEST (test_layer_active),
  SUITE_LOOP_TEST (test_out_of_memory_everywhere, N_CHAINS),
  SUITE_LOOP_TEST (test_device_lost, N_CHAINS),
  SUITE_LOOP_TEST (test_frame_too_large, 3),
  SUITE_TEST (test_no_subgroup_shuffles),
};

SUITE_MAIN ("faults", faults_tests, NULL, enable_fault_layer);
