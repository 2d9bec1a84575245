/* test_bench.c: the benchmark's own checks — the statistics of its
 * interleaved rounds (bench/benchstats.c), and one quick run of
 * vktile-bench on this machine's Vulkan device whose CSV must hold every
 * section, the A/A rows and numbers where numbers belong. */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bench/benchstats.h"

#include "suite.h"

GST_START_TEST (test_spread)
{
  const gdouble v[] = { 5, 1, 4, 2, 3 };
  const gdouble with_gaps[] = { 0, 2, NAN, 4, -1, 6 };
  BenchSpread s = bench_spread (v, 5);

  fail_unless_equals_int (s.n, 5);
  fail_unless (s.median == 3 && s.p25 == 2 && s.p75 == 4);
  fail_unless (fabs (s.mean - 3.0) < 1e-12);
  /* Missing rounds (0, negative, NaN) are left out, not counted as fast. */
  s = bench_spread (with_gaps, 6);
  fail_unless_equals_int (s.n, 3);
  fail_unless (s.median == 4 && s.p25 == 3 && s.p75 == 5);
  fail_unless (fabs (s.mean - 4.0) < 1e-12);
  /* A stream whose every 4th frame costs 3x: the median is a plain
   * frame's, the mean what the stream pays. */
  {
    const gdouble cycle[] = { 1, 1, 1, 3, 1, 1, 1, 3 };
    s = bench_spread (cycle, 8);
    fail_unless (s.median == 1 && fabs (s.mean - 1.5) < 1e-12);
  }
  s = bench_spread (v, 0);
  fail_unless (s.n == 0 && s.median == 0);
  /* Even count: interpolated between the middle two. */
  s = bench_spread (v, 4);
  fail_unless (fabs (s.median - 3.0) < 1e-12);
}

GST_END_TEST;

GST_START_TEST (test_ratio_per_round)
{
  /* The machine slows down 3x halfway: per-round ratios stay at 2, the
   * ratio of the two medians would not. */
  const gdouble num[] = { 20, 20, 20, 60, 60, 60, 60 };
  const gdouble den[] = { 10, 10, 10, 30, 30, 30, 30 };
  const gdouble den_gap[] = { 10, 0, 10, 30, 30, 30, 30 };
  BenchSpread r = bench_ratio_spread (num, den, 7);

  fail_unless_equals_int (r.n, 7);
  fail_unless (r.median == 2 && r.p25 == 2 && r.p75 == 2);
  r = bench_inverse_ratio_spread (num, den, 7);
  fail_unless (r.median == 0.5);
  r = bench_ratio_spread (num, den_gap, 7);
  fail_unless_equals_int (r.n, 6);
}

GST_END_TEST;

GST_START_TEST (test_round_order)
{
  guint n = 5, r, p;

  for (r = 0; r < 12; r++) {
    guint seen = 0;
    for (p = 0; p < n; p++)
      seen |= 1u << bench_round_order (r, p, n);
    /* Every subject once per round... */
    fail_unless_equals_int (seen, (1u << n) - 1);
    /* ...and a different one first each round. */
    fail_unless_equals_int (bench_round_order (r, 0, n), r % n);
  }
}

GST_END_TEST;

GST_START_TEST (test_repeatable)
{
  BenchSpread s = { 0.97, 1.03, 1.08, 10 };

  fail_unless (bench_repeatable (&s, 0.05));
  s.median = 1.06;
  fail_if (bench_repeatable (&s, 0.05));
  s.median = 0.94;
  fail_if (bench_repeatable (&s, 0.05));
  s.n = 0;
  s.median = 1.0;
  fail_if (bench_repeatable (&s, 0.05));
}

GST_END_TEST;

/* The value of `column` in a CSV line split by csv_fields. */
static gchar **
csv_fields (const gchar * line)
{
  GPtrArray *f = g_ptr_array_new ();
  GString *cur = g_string_new (NULL);
  gboolean quoted = FALSE;
  const gchar *c;

  for (c = line; *c; c++) {
    if (quoted && *c == '"' && c[1] == '"')
      g_string_append_c (cur, *c++);
    else if (*c == '"')
      quoted = !quoted;
    else if (*c == ',' && !quoted) {
      g_ptr_array_add (f, g_strdup (cur->str));
      g_string_truncate (cur, 0);
    } else
      g_string_append_c (cur, *c);
  }
  g_ptr_array_add (f, g_string_free (cur, FALSE));
  g_ptr_array_add (f, NULL);
  return (gchar **) g_ptr_array_free (f, FALSE);
}

/* The field of the CSV row `fields` in the column `name` of `header`. */
static const gchar *
field (gchar ** header, gchar ** fields, const gchar * name)
{
  gint i;

  for (i = 0; header[i]; i++)
    if (g_str_equal (header[i], name))
      return fields[i];
  fail ("no column %s", name);
  return NULL;
}

/* The number in the column `name` of the row `fields` is above 0. */
static gboolean
field_positive (gchar ** header, gchar ** fields, const gchar * name)
{
  return g_ascii_strtod (field (header, fields, name), NULL) > 0;
}

/* The benchmark to run: $VKTILE_BENCH (tests/run.sh names the one of the
 * build directory it tests, which may have moved since it was built), or
 * the one built beside this test. */
static const gchar *
bench_path (void)
{
  const gchar *path = g_getenv ("VKTILE_BENCH");

  return path && *path ? path : VKTILE_BENCH;
}

/* The name of device 0 as vktile-bench lists the devices when none
 * matches --device-name, which must fail. */
static gchar *
first_device_name (void)
{
  const gchar *argv[] = { bench_path (), "--device-name", "no such GPU", NULL };
  gchar *out = NULL, *err = NULL, *start, *end, *name;
  gint status = -1;

  fail_unless (g_spawn_sync (NULL, (gchar **) argv, NULL, 0, NULL, NULL, &out,
          &err, &status, NULL));
  fail_if (g_spawn_check_wait_status (status, NULL),
      "vktile-bench ran on no device it was asked for:\n%s", out);
  start = strstr (err, "(devices: 0: ");
  fail_unless (start != NULL, "no list of devices in: %s", err);
  start += strlen ("(devices: 0: ");
  end = strstr (start, ", 1: ");
  if (!end)
    end = strrchr (start, ')');
  name = g_strndup (start, end - start);
  g_free (out);
  g_free (err);
  return name;
}

/* Runs vktile-bench with argv, which must succeed; its stdout and stderr
 * in *out and *err, the lines of the CSV it wrote to csv_path in *lines
 * (the header first). */
static void
run_bench (const gchar ** argv, const gchar * csv_path, gchar ** out,
    gchar ** err, gchar *** lines)
{
  GError *error = NULL;
  gchar *csv = NULL;
  gint status = -1;

  fail_unless (g_spawn_sync (NULL, (gchar **) argv, NULL, 0, NULL, NULL, out,
          err, &status, &error), "%s", error ? error->message : "");
  fail_unless (g_spawn_check_wait_status (status, NULL),
      "vktile-bench failed:\n%s\n%s", *out, *err);
  fail_unless (g_file_get_contents (csv_path, &csv, NULL, NULL));
  *lines = g_strsplit (csv, "\n", -1);
  g_free (csv);
}

/* The run takes its device by a piece of its name in upper case, as the
 * elements' device-name does. */
GST_START_TEST (test_quick_run)
{
  gchar *dir = g_dir_make_tmp ("vktile-bench-XXXXXX", NULL);
  gchar *csv_path = g_build_filename (dir, "bench.csv", NULL);
  gchar *md_path = g_build_filename (dir, "bench.md", NULL);
  gchar *device = first_device_name ();
  gchar *piece = g_ascii_strup (device, MIN (strlen (device), 8));
  gchar *said = g_strdup_printf ("device: %s (", device);
  const gchar *argv[] = { bench_path (), "--device-name", piece,
    "--quick", "-s", "97x33", "--burst-ms", "5",
    "-e", "tiledconv,gaussblur",
    "-c", "tiledconv preset=box3 algorithm=tiled",
    "-c", "tiledconv preset=box3 algorithm=naive",
    "-c", "gaussblur sigma=2", "-f", "RGBA,NV12", "--stream-formats", "NV12,P010_10LE",
    "--overlap-probe", "--csv", csv_path, "--markdown", md_path, NULL
  };
  gchar *out = NULL, *err = NULL;
  gchar **lines, **header;
  guint i, gpu = 0, floors = 0, sysmem = 0, chain = 0, aa = 0, naive = 0;

  run_bench (argv, csv_path, &out, &err, &lines);
  fail_unless (g_file_test (md_path, G_FILE_TEST_EXISTS));
  fail_unless (strstr (out, "Repeatability (A/A)") != NULL);
  fail_unless (strstr (err, said) != NULL, "not run on %s:\n%s", device, err);

  header = csv_fields (lines[0]);
  for (i = 1; lines[i] && lines[i][0]; i++) {
    gchar **f = csv_fields (lines[i]);
    const gchar *section = field (header, f, "section");
    fail_unless_equals_int (g_strv_length (f), g_strv_length (header));
    if (g_str_equal (section, "gpu")) {
      gpu++;
      /* Every element row was timed and compared with the copy floor. */
      fail_unless (field_positive (header, f, "median_us"), "%s", lines[i]);
      fail_unless (field_positive (header, f, "x_copy"), "%s", lines[i]);
      if (strstr (field (header, f, "configuration"), "algorithm=naive")) {
        naive++;
        fail_unless (field_positive (header, f, "x_ref"), "%s", lines[i]);
      }
    } else if (g_str_equal (section, "floor")) {
      floors++;
      fail_unless (field_positive (header, f, "median_us"), "%s", lines[i]);
    } else if (g_str_equal (section, "sysmem")) {
      sysmem++;
      fail_unless (g_str_equal (field (header, f, "format"), "NV12")
          || g_str_equal (field (header, f, "format"), "P010_10LE"), "%s",
          lines[i]);
      fail_unless (field_positive (header, f, "fps"), "%s", lines[i]);
      fail_unless (g_str_equal (field (header, f, "format"), "P010_10LE")
          || field_positive (header, f, "x_roundtrip"), "%s", lines[i]);
    } else if (g_str_equal (section, "chain")) {
      chain++;
      fail_unless (field_positive (header, f, "fps"), "%s", lines[i]);
    } else if (g_str_equal (section, "aa")) {
      aa++;
      fail_unless (field_positive (header, f, "x_ref"), "%s", lines[i]);
    }
    g_strfreev (f);
  }
  /* 2 formats x (3 configurations + the A/A repeat); 2 x 8 floors (two
   * copies, the bus up, down, both by the copy engines, both by a shader,
   * the faster of those two, up then down); the sysmem rows: each
   * configuration given, the A/A repeat, the round trip and 4 PCIe floors
   * (both ways three times, up then down), for NV12; for P010_10LE the
   * same but the round trip (gstvulkan 1.22 aborts on it in a
   * VulkanImage); the chain of all three, its A/A repeat, and the chain of
   * the first two; an A/A row per group of GPU, sysmem and chain rows. */
  fail_unless_equals_int (gpu, 2 * 4);
  fail_unless_equals_int (naive, 2);
  fail_unless_equals_int (floors, 2 * 8);
  fail_unless_equals_int (sysmem, (3 + 1 + 1 + 4) + (3 + 1 + 4));
  fail_unless_equals_int (chain, 3);
  fail_unless_equals_int (aa, 2 + 2 + 1);
  /* the probe's table, with a time in every cell */
  fail_unless (strstr (out, "Overlap probe, NV12 97x33") != NULL, "%s", out);
  fail_unless (strstr (out, "| shader copy, µs | 0.0") == NULL
      && strstr (out, "| bus both ways, µs | 0.0") == NULL, "%s", out);

  g_strfreev (header);
  g_strfreev (lines);
  g_free (out);
  g_free (err);
  g_unlink (csv_path);
  g_unlink (md_path);
  g_rmdir (dir);
  g_free (said);
  g_free (piece);
  g_free (device);
  g_free (csv_path);
  g_free (md_path);
  g_free (dir);
}

GST_END_TEST;

/* Bursts too short to time (tiny frames, --quick's 4 frames a burst):
 * no frames/s is printed for them, and the row says why. */
GST_START_TEST (test_short_bursts_untimed)
{
  gchar *dir = g_dir_make_tmp ("vktile-bench-XXXXXX", NULL);
  gchar *csv_path = g_build_filename (dir, "bench.csv", NULL);
  const gchar *argv[] = { bench_path (), "--quick", "-s", "33x17",
    "-e", "tiledconv", "-c", "tiledconv preset=box3", "--stream-formats",
    "GRAY8", "--no-gpu", "--no-chain", "--csv", csv_path, NULL
  };
  gchar *out = NULL, *err = NULL, **lines, **header;
  guint i, rows = 0;

  run_bench (argv, csv_path, &out, &err, &lines);
  header = csv_fields (lines[0]);
  for (i = 1; lines[i] && lines[i][0]; i++) {
    gchar **f = csv_fields (lines[i]);
    if (g_str_equal (field (header, f, "section"), "sysmem")
        && g_str_equal (field (header, f, "configuration"), "preset=box3")) {
      rows++;
      fail_unless (field (header, f, "fps")[0] == '\0',
          "frames/s of an untimed burst: %s", lines[i]);
      fail_unless (strstr (field (header, f, "note"),
              "too short to time") != NULL, "%s", lines[i]);
    }
    g_strfreev (f);
  }
  fail_unless (rows > 0, "no system-memory row:\n%s", out);
  g_strfreev (header);
  g_strfreev (lines);
  g_free (out);
  g_free (err);
  g_unlink (csv_path);
  g_rmdir (dir);
  g_free (csv_path);
  g_free (dir);
}

GST_END_TEST;

static const SuiteEntry bench_tests[] = {
  SUITE_CASE ("bench"),
  SUITE_TEST (test_spread),
  SUITE_TEST (test_ratio_per_round),
  SUITE_TEST (test_round_order),
  SUITE_TEST (test_repeatable),
  SUITE_TEST (test_quick_run),
  SUITE_TEST (test_short_bursts_untimed),
};

SUITE_MAIN ("bench", bench_tests, NULL, NULL);
