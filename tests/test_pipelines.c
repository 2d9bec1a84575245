/* vktile tests — the scripts of pipelines/ that a user copies from, and the
 * privacy blur on a real detector.
 *
 * - test_privacy_blur_face: OpenCV's facedetect finds the face in
 *   pipelines/data/astronaut.png and gaussblur roi-meta=face blurs it, or
 *   pixelate roi-meta=face turns it into a mosaic: the detector's box
 *   (grown by roi-padding) changed, every other byte of the frame identical
 *   to the input;
 * - test_script: each script of pipelines/ run as a user runs it, for a
 *   few frames (fake sources where it would use a camera), writing what it
 *   says it writes.
 *
 * The scripts run against the freshly built plugin (SKIP_BUILD=1, the
 * environment tests/run.sh set up: GST_PLUGIN_PATH and its private set of
 * system plugins).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <string.h>

#include "suite.h"

#ifndef VKTILE_SOURCE_ROOT
#error "VKTILE_SOURCE_ROOT: the repository, where pipelines/ is"
#endif

#define CASCADES "/usr/share/opencv4/haarcascades/"
#define PADDING 6

static GstSample *
pull (GstElement * pipeline, const gchar * name)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      60 * GST_SECOND);

  gst_object_unref (sink);
  fail_unless (s != NULL, "no frame from %s", name);
  return s;
}

/* The face's box that facedetect attached, grown by PADDING and clipped. */
static void
face_box (GstBuffer * buf, gint width, gint height, gint * x0, gint * y0,
    gint * x1, gint * y1)
{
  GstVideoRegionOfInterestMeta *m;
  gpointer state = NULL;
  guint faces = 0;

  while ((m = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (buf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    if (g_strcmp0 (g_quark_to_string (m->roi_type), "face") != 0)
      continue;
    *x0 = MAX ((gint) m->x - PADDING, 0);
    *y0 = MAX ((gint) m->y - PADDING, 0);
    *x1 = MIN ((gint) (m->x + m->w) + PADDING, width);
    *y1 = MIN ((gint) (m->y + m->h) + PADDING, height);
    faces++;
  }
  fail_unless_equals_int (faces, 1);
  /* The face is in the middle of the picture, about 100 pixels wide. */
  fail_unless (*x1 - *x0 > 60 && *y1 - *y0 > 60 && *x0 > 0 && *y0 > 0,
      "face box %d,%d - %d,%d", *x0, *y0, *x1, *y1);
}

GST_START_TEST (test_privacy_blur_face)
{
  static const gchar *const masks[] = { "gaussblur sigma=8",
    "pixelate block-size=12"
  };
  gchar *launch = g_strdup_printf ("filesrc location=%s/pipelines/data/"
      "astronaut.png ! pngdec ! videoconvert ! imagefreeze num-buffers=2 ! "
      "video/x-raw,format=RGB ! facedetect display=false profile="
      CASCADES "haarcascade_frontalface_default.xml eyes-profile="
      CASCADES "haarcascade_eye.xml nose-profile=" CASCADES
      "haarcascade_eye.xml mouth-profile=" CASCADES "haarcascade_smile.xml ! "
      "videoconvert ! video/x-raw,format=RGBA ! tee name=t "
      "t. ! queue ! appsink name=before sync=false "
      "t. ! queue ! %s roi-meta=face roi-padding=%d ! "
      "appsink name=after sync=false", VKTILE_SOURCE_ROOT, masks[__i__],
      PADDING);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstSample *sb, *sa;
  GstVideoInfo info;
  GstVideoFrame fb, fa;
  gint x0 = 0, y0 = 0, x1 = 0, y1 = 0, x, y, inside = 0, changed = 0;
  gint outside_changed = 0;

  fail_unless (pipeline != NULL, "%s: %s", launch, error ? error->message :
      "?");
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  sb = pull (pipeline, "before");
  sa = pull (pipeline, "after");
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sb)));
  face_box (gst_sample_get_buffer (sb), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info), &x0, &y0, &x1, &y1);
  fail_unless (gst_video_frame_map (&fb, &info, gst_sample_get_buffer (sb),
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fa, &info, gst_sample_get_buffer (sa),
          GST_MAP_READ));
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (&info); y++) {
    const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 0);
    const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 0);
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (&info); x++) {
      gboolean differs = memcmp (rb + 4 * x, ra + 4 * x, 4) != 0;
      if (x >= x0 && x < x1 && y >= y0 && y < y1) {
        inside++;
        changed += differs;
      } else {
        outside_changed += differs;
      }
    }
  }
  fail_unless (outside_changed == 0, "%s: %d pixels outside the face's box "
      "(%d,%d - %d,%d) changed", masks[__i__], outside_changed, x0, y0, x1,
      y1);
  fail_unless (changed > inside * 9 / 10, "%s: only %d of the face box's %d "
      "pixels changed", masks[__i__], changed, inside);
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  gst_sample_unref (sa);
  gst_sample_unref (sb);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (launch);
}

GST_END_TEST;

/* A script of pipelines/, its arguments, and a file it must write (under
 * the repository's out/). */
static const struct
{
  const gchar *script;
  const gchar *args[8];
  const gchar *writes;
} scripts[] = {
  {"privacy-blur.sh", {"--frames", "3", NULL}, "out/privacy-blur.mp4"},
  {"privacy-blur.sh", {"--frames", "2", "--block-size", "16", NULL},
      "out/privacy-pixelate.mp4"},
  {"webcam-denoise.sh", {"/dev/vktile-no-camera", "--frames", "3", NULL},
      "out/webcam-denoise-002.png"},
  {"transcode.sh", {"--frames", "5", NULL}, "out/transcode.mp4"},
  /* one configuration, small frames: test_bench runs the quick default */
  {"benchmark.sh", {"--quick", "-e", "tiledconv", "-f", "GRAY8", NULL},
      "out/benchmark.png"},
};

/* Runs argv in the source tree (envp NULL: this process's environment)
 * and fails the test, with what it printed, unless it exits 0; its
 * output is left in *out and *err (owned). */
static void
run_in_source (const gchar * const *argv, gchar ** envp, GSpawnFlags flags,
    gchar ** out, gchar ** err)
{
  GError *error = NULL;
  gint status = -1;

  fail_unless (g_spawn_sync (VKTILE_SOURCE_ROOT, (gchar **) argv, envp,
          flags, NULL, NULL, out, err, &status, &error), "%s: %s", argv[0],
      error ? error->message : "?");
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s exited with "
      "status %d:\n%s\n%s", argv[0], status, *out, *err);
}

GST_START_TEST (test_script)
{
  gchar *path = g_build_filename (VKTILE_SOURCE_ROOT, "pipelines",
      scripts[__i__].script, NULL);
  gchar *writes = g_build_filename (VKTILE_SOURCE_ROOT, scripts[__i__].writes,
      NULL);
  GPtrArray *argv = g_ptr_array_new ();
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *err = NULL;
  GStatBuf st;
  guint i;

  g_ptr_array_add (argv, path);
  for (i = 0; scripts[__i__].args[i]; i++)
    g_ptr_array_add (argv, (gpointer) scripts[__i__].args[i]);
  g_ptr_array_add (argv, NULL);
  /* As tests/run.sh built it; no window. */
  envp = g_environ_setenv (envp, "SKIP_BUILD", "1", TRUE);
  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
  g_remove (writes);
  run_in_source ((const gchar * const *) argv->pdata, envp, G_SPAWN_DEFAULT,
      &out, &err);
  fail_unless (g_stat (writes, &st) == 0 && st.st_size > 0, "%s did not "
      "write %s:\n%s\n%s", scripts[__i__].script, scripts[__i__].writes, out,
      err);
  g_free (out);
  g_free (err);
  g_strfreev (envp);
  g_ptr_array_free (argv, TRUE);
  g_free (writes);
  g_free (path);
}

GST_END_TEST;

/* Python reads the GPU time of each frame from a running pipeline
 * (tests/timing_messages.py, through post-messages). Debian's python3
 * holds PyGObject; another python3 first on PATH may not. */
GST_START_TEST (test_python_timing)
{
  gchar *script = g_build_filename (VKTILE_SOURCE_ROOT, "tests",
      "timing_messages.py", NULL);
  const gchar *python = g_file_test ("/usr/bin/python3", G_FILE_TEST_EXISTS)
      ? "/usr/bin/python3" : "python3";
  const gchar *argv[] = { python, script, NULL };
  gchar *out = NULL, *err = NULL;

  run_in_source (argv, NULL, G_SPAWN_SEARCH_PATH, &out, &err);
  g_free (out);
  g_free (err);
  g_free (script);
}

GST_END_TEST;

/* What gst-inspect-1.0 tells a user is what docs/plugins/vktile-inspect.txt
 * says: a description or default changed without that file fails here, so
 * that every such change shows in review. */
GST_START_TEST (test_inspect_dump)
{
  gchar *script = g_build_filename (VKTILE_SOURCE_ROOT, "tools",
      "inspect-dump.sh", NULL);
  gchar *kept_path = g_build_filename (VKTILE_SOURCE_ROOT, "docs", "plugins",
      "vktile-inspect.txt", NULL);
  const gchar *argv[] = { script, NULL };
  gchar *out = NULL, *err = NULL, *kept = NULL;
  gchar **now_lines, **kept_lines;
  guint i;

  run_in_source (argv, NULL, G_SPAWN_DEFAULT, &out, &err);
  fail_unless (g_file_get_contents (kept_path, &kept, NULL, NULL));
  now_lines = g_strsplit (out, "\n", -1);
  kept_lines = g_strsplit (kept, "\n", -1);
  for (i = 0; now_lines[i] && kept_lines[i]; i++)
    if (strcmp (now_lines[i], kept_lines[i]))
      break;
  fail_unless (!now_lines[i] && !kept_lines[i], "gst-inspect-1.0 differs "
      "from docs/plugins/vktile-inspect.txt at line %u:\n  now:  %s\n  kept: "
      "%s\nreview the change, then: GST_PLUGIN_PATH=build/plugin "
      "tools/inspect-dump.sh > docs/plugins/vktile-inspect.txt", i + 1,
      GST_STR_NULL (now_lines[i]), GST_STR_NULL (kept_lines[i]));
  g_strfreev (now_lines);
  g_strfreev (kept_lines);
  g_free (out);
  g_free (err);
  g_free (kept);
  g_free (kept_path);
  g_free (script);
}

GST_END_TEST;

static const SuiteEntry pipelines_tests[] = {
  SUITE_CASE_WITH_TIMEOUT ("pipelines", 600),
  SUITE_LOOP_TEST (test_privacy_blur_face, 2),
  SUITE_TEST (test_python_timing),
  SUITE_TEST (test_inspect_dump),
  SUITE_LOOP_TEST (test_script, G_N_ELEMENTS (scripts)),
};

SUITE_MAIN ("pipelines", pipelines_tests, NULL, NULL);
