/* benchpeers.c: vktile-bench's peers: the CSV bench/peers.py wrote
 * on the same GPU, read and shown beside the matching vktile GPU rows of
 * this run. */
#include <stdlib.h>

#include "vktile-bench.h"

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
      gchar *l = bench_subject_label (s);
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

void
bench_report_peers (GPtrArray * groups, GString * md, GString * csv)
{
  Table *t = bench_table_new ("Peers on the same GPU (bench/peers.py)",
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
    bench_table_free (t);
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
          bench_group_find (g, SUBJECT_SHADER_COPY)->ns, g->rounds);
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
    bench_csv_add (csv, &row);
    bench_table_add (t, g_strdup (row.element), g_strdup (row.config),
        g_strdup_printf ("%sx%s", field (header, v, "width"),
            field (header, v, "height")), bench_fmt_us (&row.time),
        bench_fmt_spread (&row.x_copy, "x", 2), g_strdup (label),
        bench_fmt_us (&vk), bench_fmt_spread (&vkx, "x", 2),
        g_strdup (row.note));
    g_strfreev (v);
  }
  g_strfreev (header);
  g_strfreev (lines);
  g_free (contents);
  bench_table_finish (t, md);
}
