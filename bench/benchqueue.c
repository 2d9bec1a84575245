/* benchqueue.c: --queue-probe, what one queue overlaps. gstvulkan 1.22
 * gives the elements one queue, on which the H100 runs submissions one
 * after another: a frame's upload crosses the bus beside the previous
 * frame's download only where both are dispatches of one submission
 * without a barrier between them. This times shader copies of a frame
 * across the bus each way, alone and together, with grids of several
 * widths (a full grid keeps the cores until its last work-group starts,
 * and the copy after it waits), and streams of frames recorded as an
 * element would: upload → filter → download in each submission, or the
 * download of each frame paired with the next frame's upload. */
#include "vktile-bench.h"

#include <string.h>

#include "benchcuda.h"

#define QP_FRAMES 24
#define QP_ELEMENT_GROUPS (vkt_compute_copy_rows_groups ())

static const guint qp_widths[] = { 1024, 512, 256, 128 };

/* Across the bus: the copy the elements use (vkt_compute_copy_rows()),
 * the frame as rows of 16 KiB, with at most `groups` work-groups. */
static gboolean
qp_copy (Bench * b, GstMemory * src, GstMemory * dst, gsize bytes,
    guint groups, GError ** error)
{
  gsize row = 16384, rows = bytes / row;

  return vkt_compute_copy_rows (b->compute, bench_vk_buffer (src), 0, row,
      bench_vk_buffer (dst), 0, row, row, rows, groups, error);
}

typedef struct
{
  Bench *b;
  gsize bytes;
  GstMemory *host_in, *host_out, *vram_in[2], *vram_out[2];
  /* a frame of plain system memory, imported as the elements import
   * upstream's frames (NULL where the device cannot) */
  gpointer malloced;
  GstMemory *imported;
} QueueProbe;

static gboolean
qp_stamp_all (QueueProbe * q)
{
  vkt_compute_timestamp (q->b->compute, VKT_TS_UPLOADED);
  vkt_compute_timestamp (q->b->compute, VKT_TS_FILTERED);
  vkt_compute_timestamp (q->b->compute, VKT_TS_WRITTEN_OUT);
  return TRUE;
}

/* Across the bus by vkCmdCopyBuffer (on the H100, a copy engine). */
static void
qp_engine_copy (Bench * b, GstMemory * src, GstMemory * dst, gsize bytes)
{
  VkBufferCopy region = { 0, 0, bytes };

  vkt_compute_copy (b->compute, bench_vk_buffer (src), bench_vk_buffer (dst),
      1, &region);
}

typedef enum
{
  QP_NONE,
  QP_SHADER,                    /* vkt_compute_copy_rows() */
  QP_ENGINE,                    /* vkCmdCopyBuffer */
} QpCopy;

/* GPU µs of an upload, a download, or both in one submission without a
 * barrier between them, each by a shader or by vkCmdCopyBuffer. */
static gdouble
qp_time_copies (QueueProbe * q, QpCopy up, QpCopy down, guint width,
    GError ** error)
{
  VktCompute *c = q->b->compute;

  if (!vkt_compute_begin (c, error))
    return -1.0;
  vkt_compute_timestamp (c, VKT_TS_START);
  if (up == QP_ENGINE)
    qp_engine_copy (q->b, q->host_in, q->vram_in[0], q->bytes);
  if (up == QP_SHADER && !qp_copy (q->b, q->host_in, q->vram_in[0], q->bytes,
          width, error))
    return -1.0;
  if (down == QP_ENGINE)
    qp_engine_copy (q->b, q->vram_out[0], q->host_out, q->bytes);
  if (down == QP_SHADER && !qp_copy (q->b, q->vram_out[0], q->host_out,
          q->bytes, width, error))
    return -1.0;
  qp_stamp_all (q);
  if (!vkt_compute_submit_wait (c, error))
    return -1.0;
  return vkt_compute_elapsed_ns (c, VKT_TS_START, VKT_TS_UPLOADED) / 1e3;
}

/* Wall µs a frame of QP_FRAMES frames submitted back to back, each
 * upload → filter (a device-local copy, full grid) → download, or with
 * `paired` each submission the frame's upload beside the download of the
 * frame before, then its filter. */
static gdouble
qp_time_frames (QueueProbe * q, guint width, gboolean paired,
    GError ** error)
{
  VktCompute *c = q->b->compute;
  VktSync *last = NULL;
  gint64 t0 = g_get_monotonic_time ();
  guint f;

  for (f = 0; f <= QP_FRAMES; f++) {
    GstMemory *in = q->vram_in[f % 2], *out = q->vram_out[f % 2],
        *prev_out = q->vram_out[(f + 1) % 2];
    VktSync *sync;

    if (!vkt_compute_begin (c, error))
      goto fail;
    vkt_compute_timestamp (c, VKT_TS_START);
    if (f < QP_FRAMES && !qp_copy (q->b, q->host_in, in, q->bytes, width,
            error))
      goto fail;
    if (paired && f > 0 && !qp_copy (q->b, prev_out, q->host_out, q->bytes,
            width, error))
      goto fail;
    vkt_compute_barrier (c);
    if (f < QP_FRAMES && !bench_record_shader_copy (q->b, in, out, q->bytes,
            error))
      goto fail;
    vkt_compute_barrier (c);
    if (!paired && f < QP_FRAMES
        && !qp_copy (q->b, out, q->host_out, q->bytes, width, error))
      goto fail;
    qp_stamp_all (q);
    if (!(sync = vkt_compute_submit (c, error)))
      goto fail;
    if (last)
      vkt_sync_unref (last);
    last = sync;
  }
  if (!vkt_sync_wait (last, error))
    goto fail;
  vkt_sync_unref (last);
  return (g_get_monotonic_time () - t0) / (gdouble) QP_FRAMES;

fail:
  if (last)
    vkt_sync_unref (last);
  vkt_compute_abandon (c);
  return -1.0;
}

/* CUDA's copies of the same frame on the same GPU, for each kind of host
 * memory, the modes alternated round by round. */
static void
qp_cuda (Bench * b, gsize bytes, GString * t)
{
  guint8 uuid[16];
  guint h, r, m;

  bench_device_uuid (b, uuid);
  g_string_append (t, "\nCUDA on the same GPU, wall µs a frame of 4 back "
      "to back (up, down, both on two streams, both with each direction on "
      "two streams), medians of 9:\n");
  for (h = 0; h < BENCH_CUDA_N_HOSTS; h++) {
    GError *error = NULL;
    BenchCuda *cuda = bench_cuda_new (uuid, bytes, h, &error);
    gboolean ok = cuda != NULL;
    gdouble v[4][9];

    /* two rounds to warm up, overwritten */
    for (r = 0; ok && r < 2 + 9; r++)
      for (m = 0; ok && m < 4; m++)
        ok = bench_cuda_time (cuda, m, 4, &v[m][MAX (r, 2) - 2], &error);
    if (ok) {
      gdouble best = MIN (bench_spread (v[2], 9).median,
          bench_spread (v[3], 9).median);
      g_string_append_printf (t, "- %s: %.1f, %.1f, %.1f, %.1f (%.0f "
          "frames/s both ways)\n", bench_cuda_host_name (h),
          bench_spread (v[0], 9).median / 1e3,
          bench_spread (v[1], 9).median / 1e3,
          bench_spread (v[2], 9).median / 1e3,
          bench_spread (v[3], 9).median / 1e3, 1e9 / best);
    } else {
      g_string_append_printf (t, "- %s: %s\n", bench_cuda_host_name (h),
          error->message);
    }
    g_clear_error (&error);
    bench_cuda_free (cuda);
  }
}

void
bench_queue_probe (Bench * b, gsize frame_bytes, const gchar * what,
    GString * md)
{
  QueueProbe q = { b, (frame_bytes + 16383) / 16384 * 16384 };
  GError *error = NULL;
  GString *t = g_string_new (NULL);
  guint w, r, i;

  if (!(q.host_in = vkt_buffer_alloc (b->device, q.bytes, TRUE, &error))
      || !(q.host_out = vkt_buffer_alloc (b->device, q.bytes, TRUE, &error))
      || !(q.vram_in[0] = vkt_buffer_alloc (b->device, q.bytes, FALSE, &error))
      || !(q.vram_in[1] = vkt_buffer_alloc (b->device, q.bytes, FALSE, &error))
      || !(q.vram_out[0] = vkt_buffer_alloc (b->device, q.bytes, FALSE,
              &error))
      || !(q.vram_out[1] = vkt_buffer_alloc (b->device, q.bytes, FALSE,
              &error)))
    goto out;
  {
    gsize align = vkt_device_host_import_alignment (b->device), offset;
    if (align && (q.malloced = g_try_malloc (q.bytes + align))) {
      gpointer data = (gpointer) GST_ROUND_UP_N ((guintptr) q.malloced, align);
      memset (data, 0x5a, q.bytes);
      q.imported = vkt_buffer_import_host (b->device, align, data, q.bytes,
          &offset, NULL);
    }
  }
  g_string_append_printf (t, "Queue probe, %s (%zu bytes each way), one "
      "queue: shader copies across the bus, GPU µs (up, down, both in one "
      "submission without a barrier), and %u frames upload → filter → "
      "download back to back, wall µs a frame (each submission one frame; "
      "or each frame's download paired with the next one's upload), "
      "medians of 3.\n"
      "| work-groups | up | down | both | frames one by one | frames paired "
      "|\n| ---: | ---: | ---: | ---: | ---: | ---: |\n", what, q.bytes,
      QP_FRAMES);
  for (w = 0; w < G_N_ELEMENTS (qp_widths); w++) {
    gdouble v[5][3];

    for (r = 0; r < 3; r++) {
      bench_heat (b);
      v[0][r] = qp_time_copies (&q, QP_SHADER, QP_NONE, qp_widths[w], &error);
      v[1][r] = qp_time_copies (&q, QP_NONE, QP_SHADER, qp_widths[w], &error);
      v[2][r] = qp_time_copies (&q, QP_SHADER, QP_SHADER, qp_widths[w], &error);
      bench_heat (b);
      v[3][r] = qp_time_frames (&q, qp_widths[w], FALSE, &error);
      bench_heat (b);
      v[4][r] = qp_time_frames (&q, qp_widths[w], TRUE, &error);
      if (error)
        goto out;
    }
    g_string_append_printf (t, "| %u |", qp_widths[w]);
    for (i = 0; i < 5; i++)
      g_string_append_printf (t, " %.1f |", bench_spread (v[i], 3).median);
    g_string_append_c (t, '\n');
  }
  {
    /* vkCmdCopyBuffer each way, and one way by it beside a shader copy the
     * other way, in one submission */
    static const QpCopy mix[][2] = { {QP_ENGINE, QP_NONE},
    {QP_NONE, QP_ENGINE}, {QP_ENGINE, QP_ENGINE}, {QP_ENGINE, QP_SHADER},
    {QP_SHADER, QP_ENGINE}
    };
    gdouble v[G_N_ELEMENTS (mix)][5];

    for (r = 0; r < 5; r++)
      for (i = 0; i < G_N_ELEMENTS (mix); i++) {
        bench_heat (b);
        v[i][r] = qp_time_copies (&q, mix[i][0], mix[i][1],
            QP_ELEMENT_GROUPS, &error);
      }
    if (error)
      goto out;
    g_string_append_printf (t, "\nvkCmdCopyBuffer on this queue, GPU µs "
        "(medians of 5): up %.1f, down %.1f, both %.1f; up by it beside a "
        "shader copy down %.1f; a shader copy up beside it down %.1f.\n",
        bench_spread (v[0], 5).median, bench_spread (v[1], 5).median,
        bench_spread (v[2], 5).median, bench_spread (v[3], 5).median,
        bench_spread (v[4], 5).median);
  }
  if (q.imported) {
    GstMemory *allocated = q.host_in;
    gdouble v[3][3];

    q.host_in = q.imported;
    for (r = 0; r < 3; r++) {
      bench_heat (b);
      v[0][r] = qp_time_copies (&q, QP_SHADER, QP_NONE, QP_ELEMENT_GROUPS,
          &error);
      v[1][r] = qp_time_copies (&q, QP_SHADER, QP_SHADER, QP_ELEMENT_GROUPS,
          &error);
      bench_heat (b);
      v[2][r] = qp_time_frames (&q, QP_ELEMENT_GROUPS, TRUE, &error);
    }
    q.host_in = allocated;
    if (error)
      goto out;
    g_string_append_printf (t, "\nThe upload from plain system memory "
        "imported (VK_EXT_external_memory_host), %u work-groups: up %.1f, "
        "both %.1f, frames paired %.1f.\n", QP_ELEMENT_GROUPS,
        bench_spread (v[0], 3).median, bench_spread (v[1], 3).median,
        bench_spread (v[2], 3).median);
  }
  qp_cuda (b, q.bytes, t);
  bench_say ("\n%s", t->str);
  if (md)
    g_string_append_printf (md, "\n%s", t->str);

out:
  if (error) {
    bench_say ("\nqueue probe: %s\n", error->message);
    g_clear_error (&error);
  }
  g_string_free (t, TRUE);
  for (i = 0; i < 2; i++) {
    g_clear_pointer (&q.vram_in[i], gst_memory_unref);
    g_clear_pointer (&q.vram_out[i], gst_memory_unref);
  }
  g_clear_pointer (&q.host_in, gst_memory_unref);
  g_clear_pointer (&q.imported, gst_memory_unref);
  g_free (q.malloced);
  g_clear_pointer (&q.host_out, gst_memory_unref);
}
