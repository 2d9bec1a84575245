/* benchstreams.c: see benchstreams.h. */
#include "benchstreams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Frames on their way in each stream at most: the element's frames in
 * flight and the queue before its output task, with room to spare. */
#define AHEAD 8

typedef struct
{
  BenchPipe *pipe;
  GstBuffer *const *frames;
  guint n_frames;
  gint64 from_us, until_us;
  BenchPipeResult result;
  GError *error;
} Stream;

static gpointer
stream_thread (gpointer data)
{
  Stream *s = data;

  bench_pipe_stream (s->pipe, s->frames, s->n_frames, AHEAD, s->from_us,
      s->until_us, &s->result, &s->error);
  return NULL;
}

static void
add_result (BenchStreamsResult * r, const BenchPipeResult * p)
{
  r->frames += p->frames;
  r->gpu_ns += p->gpu_ns + p->moved_ns;
}

gboolean
bench_streams_threads (GstVulkanInstance * instance, const gchar * middle,
    GstCaps * caps, GstBuffer * const *frames, guint n_frames, guint n,
    gdouble warmup_s, gdouble seconds, BenchStreamsResult * r,
    GError ** error)
{
  Stream *streams = g_new0 (Stream, n);
  GThread **threads = g_new0 (GThread *, n);
  gboolean ok = TRUE;
  gint64 from;
  guint i;

  memset (r, 0, sizeof (*r));
  r->n = n;
  for (i = 0; ok && i < n; i++) {
    streams[i].pipe = bench_pipe_new (instance, middle, caps, error);
    ok = streams[i].pipe != NULL;
  }
  if (!ok)
    goto done;
  from = g_get_monotonic_time () + (gint64) (warmup_s * G_USEC_PER_SEC);
  r->seconds = seconds;
  for (i = 0; i < n; i++) {
    Stream *s = &streams[i];
    s->frames = frames;
    s->n_frames = n_frames;
    s->from_us = from;
    s->until_us = from + (gint64) (seconds * G_USEC_PER_SEC);
    threads[i] = g_thread_new ("bench-stream", stream_thread, s);
  }
  for (i = 0; i < n; i++) {
    g_thread_join (threads[i]);
    if (streams[i].error && ok) {
      g_propagate_error (error, streams[i].error);
      streams[i].error = NULL;
      ok = FALSE;
    }
    add_result (r, &streams[i].result);
  }

done:
  for (i = 0; i < n; i++) {
    bench_pipe_free (streams[i].pipe);
    g_clear_error (&streams[i].error);
  }
  g_free (streams);
  g_free (threads);
  return ok;
}

gboolean
bench_streams_worker (GstVulkanInstance * instance, const gchar * middle,
    GstCaps * caps, GstBuffer * const *frames, guint n_frames, GError ** error)
{
  BenchPipe *pipe = bench_pipe_new (instance, middle, caps, error);
  BenchPipeResult res;
  gint64 from_us = 0, until_us = 0;
  gchar line[128];
  gboolean ok;

  if (!pipe)
    return FALSE;
  /* A first frame builds the element's pipelines: then say so, and wait
   * for the window every process counts in. */
  ok = bench_pipe_push (pipe, frames, n_frames, 1, 60, &res, error);
  if (ok) {
    g_print ("stream-worker ready\n");
    fflush (stdout);
    ok = fgets (line, sizeof (line), stdin) != NULL
        && sscanf (line, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, &from_us,
        &until_us) == 2;
    if (!ok)
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
          "no counting window on standard input");
  }
  if (ok)
    ok = bench_pipe_stream (pipe, frames, n_frames, AHEAD, from_us, until_us,
        &res, error);
  if (ok)
    g_print ("stream-worker frames=%u gpu_ns=%" G_GUINT64_FORMAT "\n",
        res.frames, res.gpu_ns + res.moved_ns);
  bench_pipe_free (pipe);
  return ok;
}

/* Reads from fd up to the next newline; FALSE at the end of the output. */
static gboolean
read_line (gint fd, gchar * buf, gsize size)
{
  gsize have = 0;
  gchar c;

  while (have + 1 < size && read (fd, &c, 1) == 1) {
    if (c == '\n') {
      buf[have] = '\0';
      return TRUE;
    }
    buf[have++] = c;
  }
  buf[have] = '\0';
  return have > 0;
}

gboolean
bench_streams_processes (const gchar * const *worker_argv, guint n,
    gdouble warmup_s, gdouble seconds, BenchStreamsResult * r,
    GError ** error)
{
  GPid *pids = g_new0 (GPid, n);
  gint *ins = g_new0 (gint, n), *outs = g_new0 (gint, n);
  gboolean ok = TRUE;
  guint i, started = 0;
  gint64 from, until;
  gchar line[256];

  memset (r, 0, sizeof (*r));
  r->n = n;
  r->seconds = seconds;
  for (i = 0; ok && i < n; i++) {
    ok = g_spawn_async_with_pipes (NULL, (gchar **) worker_argv, NULL,
        G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pids[i], &ins[i], &outs[i],
        NULL, error);
    started += ok;
  }
  /* Every process has opened its device and built its pipeline: the same
   * window for all, after a warm-up. */
  for (i = 0; ok && i < started; i++) {
    while ((ok = read_line (outs[i], line, sizeof (line)))
        && !g_str_has_prefix (line, "stream-worker ready"));
    if (!ok)
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
          "stream process %u of %u did not start", i + 1, n);
  }
  from = g_get_monotonic_time () + (gint64) (warmup_s * G_USEC_PER_SEC);
  until = from + (gint64) (seconds * G_USEC_PER_SEC);
  g_snprintf (line, sizeof (line), "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT
      "\n", ok ? from : 0, ok ? until : 0);
  for (i = 0; i < started; i++) {
    if (write (ins[i], line, strlen (line)) < 0)
      ok = FALSE;
    close (ins[i]);
  }
  for (i = 0; i < started; i++) {
    guint frames = 0;
    guint64 gpu_ns = 0;
    gboolean got = FALSE;
    gint status = 0;

    while (read_line (outs[i], line, sizeof (line)))
      got |= sscanf (line, "stream-worker frames=%u gpu_ns=%"
          G_GUINT64_FORMAT, &frames, &gpu_ns) == 2;
    close (outs[i]);
    waitpid (pids[i], &status, 0);
    g_spawn_close_pid (pids[i]);
    if (!got) {
      if (ok)
        g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
            "stream process %u of %u reported nothing (exit status %d)",
            i + 1, n, status);
      ok = FALSE;
      continue;
    }
    r->frames += frames;
    r->gpu_ns += gpu_ns;
  }
  g_free (pids);
  g_free (ins);
  g_free (outs);
  return ok;
}
