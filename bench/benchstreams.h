/* benchstreams.h: vktile-bench's streams group — many cameras on one GPU.
 * N independent streams of system-memory frames through the same pipeline,
 * each pushed as fast as it goes (a few frames on their way at a time) for
 * a fixed window after a warm-up, either as N pipelines of this process
 * sharing its device, or as N processes of their own (vktile-bench
 * --stream-worker), each opening its device as a separate gst-launch-1.0
 * would; the result is the frames all of them finished in the window. */
#ifndef __VKT_BENCH_STREAMS_H__
#define __VKT_BENCH_STREAMS_H__

#include "benchpipe.h"

G_BEGIN_DECLS

typedef struct
{
  guint n;                      /* streams */
  guint64 frames;               /* done in the window, all streams */
  guint64 gpu_ns;               /* their GPU time: filters, uploads, downloads */
  gdouble seconds;              /* the window */
} BenchStreamsResult;

/* N pipelines `appsrc ! middle ! appsink` of frames `caps` on `instance`,
 * fed from the ring `frames` (shared, read only). */
gboolean bench_streams_threads (GstVulkanInstance * instance,
    const gchar * middle, GstCaps * caps, GstBuffer * const *frames,
    guint n_frames, guint n, gdouble warmup_s, gdouble seconds,
    BenchStreamsResult * r, GError ** error);

/* N processes of worker_argv (NULL-terminated), each running
 * bench_streams_worker(): once all are ready, they count in one window. */
gboolean bench_streams_processes (const gchar * const *worker_argv, guint n,
    gdouble warmup_s, gdouble seconds, BenchStreamsResult * r,
    GError ** error);

/* One stream of a worker process: prints "stream-worker ready" once its
 * pipeline runs, reads "FROM UNTIL" (monotonic µs, the same clock in every
 * process) from standard input, streams until UNTIL and prints
 * "stream-worker frames=N gpu_ns=N", the frames done from FROM on and
 * their GPU time (uploads and downloads included). */
gboolean bench_streams_worker (GstVulkanInstance * instance,
    const gchar * middle, GstCaps * caps, GstBuffer * const *frames,
    guint n_frames, GError ** error);

G_END_DECLS

#endif
