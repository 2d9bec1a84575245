/* benchpipe.h: a GStreamer pipeline that vktile-bench drives frame by frame —
 * appsrc ! <the pipeline under test> ! appsink — kept in PLAYING across the
 * rounds of a run, so that configurations can be timed one frame (or one
 * burst of frames) at a time, interleaved with each other. */
#ifndef __VKT_BENCH_PIPE_H__
#define __VKT_BENCH_PIPE_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>

G_BEGIN_DECLS

typedef struct _BenchPipe BenchPipe;

/* What the frames of one push reported at the sink. */
typedef struct
{
  guint frames;                 /* that arrived */
  gint64 first_us, last_us;     /* arrival of the first and the last */
  guint64 gpu_ns;               /* sum of every vktile element's gpu_ns over the frames */
  guint64 moved_ns;             /* sum of upload_ns + download_ns */
  /* sum of gpu_ns + upload_ns: the GPU time of each frame's submission,
   * its transfer step included (a download paired with the next frame's
   * upload is in that frame's step, so it is not counted twice) */
  guint64 busy_ns;
  guint dispatches;             /* of the last frame, all elements */
  guint metas;                  /* timing metas on the last frame */
  gboolean all_metas;           /* every frame carried metas */
  gboolean device_local;        /* every output memory a device-local Vulkan buffer */
} BenchPipeResult;

BenchPipe *bench_pipe_new (GstVulkanInstance * instance, const gchar * middle,
    GstCaps * caps, GError ** error);
void bench_pipe_free (BenchPipe * pipe);
/* Counts only the timing meta of the element named `element_name`. */
void bench_pipe_time_only (BenchPipe * pipe, const gchar * element_name);
gboolean bench_pipe_push (BenchPipe * pipe, GstBuffer * const *frames,
    guint n_frames, guint count, gint timeout_s, BenchPipeResult * result,
    GError ** error);
/* Pushes frames from the ring without pause, at most `ahead` on their way
 * at a time, until until_us (monotonic, as g_get_monotonic_time()); the
 * result counts the frames done between from_us and until_us. */
gboolean bench_pipe_stream (BenchPipe * pipe, GstBuffer * const *frames,
    guint n_frames, guint ahead, gint64 from_us, gint64 until_us,
    BenchPipeResult * result, GError ** error);
gchar *bench_pipe_pad_memory (BenchPipe * pipe, const gchar * element,
    const gchar * pad);

G_END_DECLS

#endif
