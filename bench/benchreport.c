/* benchreport.c: vktile-bench's reports: the tables, printed as
 * aligned text and written as Markdown from the same cells, the CSV rows,
 * the header of a run, and the tables of the floors, the GPU, system-memory
 * and chain rows and the A/A repeatability. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vktile-bench.h"

#define AA_TOLERANCE 0.05

/* ---- reports ---- */

/* Text for the terminal as UTF-8 bytes: g_print would turn µ into '?' in
 * a C locale. */
void
bench_say (const gchar * format, ...)
{
  va_list ap;

  va_start (ap, format);
  vfprintf (stdout, format, ap);
  va_end (ap);
}

/* `headers`: the column names separated by '|'; a name that starts with
 * '<' is a text column. */
Table *
bench_table_new (const gchar * title, const gchar * caption,
    const gchar * headers)
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
void
bench_table_add (Table * t, ...)
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
  bench_say ("\n%s\n%s\n", t->title, t->caption);
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
    bench_say ("%s\n", line->str);
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

void
bench_table_free (Table * t)
{
  g_free (t->title);
  g_free (t->caption);
  g_strfreev (t->headers);
  g_free (t->left);
  g_ptr_array_unref (t->rows);
  g_free (t);
}

/* A report's table: printed and written if it got rows, then freed. */
void
bench_table_finish (Table * t, GString * md)
{
  if (t->rows->len)
    table_emit (t, md);
  bench_table_free (t);
}

/* "1.23x [1.20–1.26]": a median and its interquartile range. */
gchar *
bench_fmt_spread (const BenchSpread * s, const gchar * unit, gint decimals)
{
  if (!s->n)
    return g_strdup ("-");
  return g_strdup_printf ("%.*f%s [%.*f–%.*f]", decimals, s->median, unit,
      decimals, s->p25, decimals, s->p75);
}

gchar *
bench_fmt_us (const BenchSpread * s)
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

gchar *
bench_fmt_size (const Group * g)
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
      || s->kind == SUBJECT_PCIE_CUDA || s->kind == SUBJECT_PCIE_DUPLEX
      || s->kind == SUBJECT_PCIE_SEQUENTIAL;
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
    g_string_append (n, "one queue: the directions cannot overlap; ");
  else if (s->kind == SUBJECT_PCIE_OVERLAP && g->pcie_pairings)
    g_string_append_printf (n, "the fastest of the queue pairings (%s); ",
        g->pcie_pairings);
  if (!s->failed && bench_spread (s->ns, g->rounds).n == 0)
    g_string_append (n, "no time measured (no GPU timestamps on this "
        "device?); ");
  while (n->len && (n->str[n->len - 1] == ' ' || n->str[n->len - 1] == ';'))
    g_string_truncate (n, n->len - 1);
  return g_string_free (n, FALSE);
}

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

void
bench_csv_add (GString * csv, const CsvRow * r)
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
  csv_number (csv, r->time.mean * 1e-3, r->time.n > 0);
  csv_number (csv, r->x_copy.mean, r->x_copy.n > 0);
  /* The last comma becomes the end of the line. */
  csv->str[csv->len - 1] = '\n';
}

void
bench_report_floors (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = bench_table_new ("Floors: the least any filter can cost",
      "Median µs per frame over the rounds (interquartile range in the CSV). "
      "Copy: the frame copied device-local to device-local by vkCmdCopyBuffer "
      "and by a compute shader (GB/s counts bytes read + written). PCIe: the "
      "frame copied between pinned host memory and device-local memory by "
      "the copy engines, each way, one after the other, and both ways at "
      "once; and by the copy shader from pinned host memory to pinned host "
      "memory, both directions in one dispatch (as a filter that reads and "
      "writes system memory itself); frames/s is what a system-memory "
      "pipeline can reach at most. CUDA: both ways at once by CUDA's copy "
      "engines on the same GPU, pinned memory, a stream each way (where the "
      "driver has libcuda): what the bus carries.",
      "<format|<size|MB|vkCmdCopyBuffer µs|shader copy µs|shader GB/s|"
      "upload µs|download µs|up then down frames/s|overlapped frames/s|"
      "shader both ways frames/s|CUDA both ways frames/s");
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
      if (!bench_subject_is_floor (s))
        continue;
      sp[s->kind] = bench_spread (s->ns, g->rounds);
      row.time = sp[s->kind];
      if (is_pcie_floor (s))
        row.fps = spread_fps (&sp[s->kind]);
      note = subject_note (g, s);
      row.note = note;
      /* The system-memory groups' PCIe floors go with their rows. */
      if (g->kind == GROUP_GPU)
        bench_csv_add (csv, &row);
      g_free (note);
    }
    if (g->kind != GROUP_GPU)
      continue;
    {
      BenchSpread fps_seq = spread_fps (&sp[SUBJECT_PCIE_SEQUENTIAL]);
      BenchSpread fps_ovl = spread_fps (&sp[SUBJECT_PCIE_OVERLAP]);
      BenchSpread fps_sh = spread_fps (&sp[SUBJECT_PCIE_SHADER]);
      BenchSpread fps_cuda = spread_fps (&sp[SUBJECT_PCIE_CUDA]);
      bench_table_add (t, g_strdup (gst_video_format_to_string (g->format)),
          bench_fmt_size (g), g_strdup_printf ("%.1f", g->bytes / 1e6),
          bench_fmt_us (&sp[SUBJECT_COPY]),
          bench_fmt_us (&sp[SUBJECT_SHADER_COPY]),
          sp[SUBJECT_SHADER_COPY].n ? g_strdup_printf ("%.0f",
              2.0 * g->bytes / sp[SUBJECT_SHADER_COPY].median) :
          g_strdup ("-"), bench_fmt_us (&sp[SUBJECT_PCIE_UP]),
          bench_fmt_us (&sp[SUBJECT_PCIE_DOWN]), fps_seq.n ?
          g_strdup_printf ("%.0f", fps_seq.median) : g_strdup ("-"),
          fps_ovl.n ? g_strdup_printf ("%.0f", fps_ovl.median) :
          g_strdup ("-"), fps_sh.n ? g_strdup_printf ("%.0f",
              fps_sh.median) : g_strdup ("-"), fps_cuda.n ?
          g_strdup_printf ("%.0f", fps_cuda.median) : g_strdup ("-"));
    }
  }
  bench_table_finish (t, md);
}

void
bench_report_gpu (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = bench_table_new ("The elements on GPU-resident frames",
      "GPU time of the element's dispatches (its timing meta), median µs "
      "over the rounds, and their mean: the rounds are a stream's "
      "successive frames, so where its frames differ in kind (denoise: "
      "one in four estimates the noise, one sums a risk) the mean is what "
      "the stream pays. x copy / x shader: the median of the per-round "
      "ratios to the vkCmdCopyBuffer / shader copy of the same frame in the "
      "same round, [25th–75th percentile] (the CSV has their mean too). x "
      "ref: per-round ratio to the same settings with the algorithm named. "
      "(A/A): the first configuration timed again under another name.",
      "<configuration|<format|<size|median µs|mean µs|Gpixel/s|x copy|"
      "x shader|<x ref|dispatches|<note");
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    Subject *copy = bench_group_find (g, SUBJECT_COPY);
    Subject *shader = bench_group_find (g, SUBJECT_SHADER_COPY);
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
      bench_csv_add (csv, &row);
      bench_table_add (t, bench_subject_label (s),
          g_strdup (gst_video_format_to_string (g->format)), bench_fmt_size (g),
          bench_fmt_us (&row.time), row.time.n ? g_strdup_printf ("%.1f",
              row.time.mean / 1e3) : g_strdup ("-"),
          row.time.n ? g_strdup_printf ("%.2f",
              (gdouble) g->width * g->height / row.time.median) :
          g_strdup ("-"), bench_fmt_spread (&row.x_copy, "x", 2),
          bench_fmt_spread (&row.x_shader, "x", 2), ref_cell,
          g_strdup_printf ("%u", s->dispatches), note);
      g_free (alg);
    }
  }
  bench_table_finish (t, md);
}

void
bench_report_sysmem (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = bench_table_new ("System memory in and out",
      "Wall-clock frames/s of appsrc ! PIPELINE ! appsink, fed distinct "
      "frames in plain system memory (a ring of 8 that upstream wrote "
      "before), median over rounds of one burst each [25th–75th "
      "percentile]. x round trip / x PCIe: per-round ratio of frames/s to "
      "the vulkanupload ! vulkandownload round trip / to the PCIe floor both "
      "ways at once (the faster of the copy engines overlapped and the "
      "shader copy, host to host) of the same round. x CUDA: per-round "
      "ratio to CUDA's copy engines both ways at once on the same GPU, what "
      "the bus carries (where the driver has libcuda). GPU µs: a frame's "
      "submission from its timing meta, the filter and the transfer step "
      "(upload_ns: the upload and the previous frame's download it carries); "
      "busy: that over the wall-clock time per frame, per round (below 1: "
      "the GPU waited).",
      "<pipeline|<format|<size|frames/s|x round trip|x PCIe both ways|"
      "x PCIe up then down|x CUDA both ways|GPU µs|busy|<note");
  guint i, j;

  for (i = 0; i < groups->len; i++) {
    Group *g = g_ptr_array_index (groups, i);
    Subject *rt = NULL, *ovl = bench_group_find (g, SUBJECT_PCIE_DUPLEX);
    Subject *seq = bench_group_find (g, SUBJECT_PCIE_SEQUENTIAL);
    Subject *cuda = bench_group_find (g, SUBJECT_PCIE_CUDA);
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
      BenchSpread x_seq = { 0 }, x_cuda = { 0 }, busy, busy_share;
      gchar *note;
      if (s->kind != SUBJECT_STREAM && !is_pcie_floor (s))
        continue;
      if (s->kind == SUBJECT_PCIE_UP || s->kind == SUBJECT_PCIE_DOWN)
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
      if (cuda)
        x_cuda = bench_inverse_ratio_spread (s->ns, cuda->ns, g->rounds);
      busy = bench_spread (s->busy_ns, g->rounds);
      busy_share = bench_ratio_spread (s->busy_ns, s->ns, g->rounds);
      if (burst_too_short (g, s) || (rt && burst_too_short (g, rt)))
        row.x_roundtrip = (BenchSpread) { 0 };
      if (burst_too_short (g, s)) {
        BenchSpread none = { 0 };
        row.fps = row.x_pcie = x_seq = x_cuda = busy_share = none;
      }
      note = subject_note (g, s);
      row.note = note;
      bench_csv_add (csv, &row);
      bench_table_add (t, bench_subject_label (s),
          g_strdup (gst_video_format_to_string (g->format)), bench_fmt_size (g),
          bench_fmt_spread (&row.fps, "", 0),
          bench_fmt_spread (&row.x_roundtrip, "x", 2),
          bench_fmt_spread (&row.x_pcie, "x", 2),
          bench_fmt_spread (&x_seq, "x", 2),
          bench_fmt_spread (&x_cuda, "x", 2), bench_fmt_us (&busy),
          bench_fmt_spread (&busy_share, "", 2), note);
    }
  }
  bench_table_finish (t, md);
}

void
bench_report_chain (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = bench_table_new ("Elements chained on GPU-resident frames",
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
      bench_csv_add (csv, &row);
      bench_table_add (t, g_strdup (s->config), bench_fmt_size (g),
          bench_fmt_spread (&row.fps, "", 0), bench_fmt_us (&gpu),
          gpu.n ? g_strdup_printf ("%.0f", 1e9 / gpu.median) :
          g_strdup ("-"), bench_fmt_spread (&bound, "x", 2), note);
    }
  }
  bench_table_finish (t, md);
}

/* The A/A pair of every group; FALSE when any disagrees beyond the
 * tolerance. */
gboolean
bench_report_repeatability (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = bench_table_new ("Repeatability (A/A)",
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
    bench_table_add (t, g_strdup (bench_group_kind_name (g->kind)),
        g_strdup (gst_video_format_to_string (g->format)), bench_fmt_size (g),
        bench_subject_label (a), untimed ? g_strdup ("-") :
        bench_fmt_spread (&x, "x", 2), g_strdup (untimed ?
            "bursts too short to time" : x.n == 0 ? "no data" : ok ?
            "repeatable" : "NOT REPEATABLE"));
    if (csv) {
      CsvRow row = { "aa", a->element, a->config, g };
      /* The ratio to its reference: the repeat over the first. */
      row.x_ref = x.median;
      row.note = ok ? "repeatable" : "not repeatable";
      row.time = bench_spread (aa->ns, g->rounds);
      bench_csv_add (csv, &row);
    }
  }
  bench_table_finish (t, md);
  return all;
}

void
bench_report_header (Bench * b, const gchar * cmdline, gdouble seconds,
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
  bench_say ("\nvktile benchmark, %s\n", date);
  for (i = 0; lines[i]; i++)
    bench_say ("%s\n", lines[i]);
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
