/* gstvktiletimingmeta-private.h: registration and attachment of the timing
 * meta, for the plugin's own use. */
#ifndef __GST_VKTILE_TIMING_META_PRIVATE_H__
#define __GST_VKTILE_TIMING_META_PRIVATE_H__

#include "gstvktiletimingmeta.h"
#include "vktcompute.h"

G_BEGIN_DECLS

GType gst_vktile_timing_meta_api_register (void);
const GstMetaInfo *gst_vktile_timing_meta_get_info (void);
GstVkTileTimingMeta *gst_vktile_timing_meta_add (GstBuffer * buffer,
    const gchar * element_name);
/* A frame's download recorded after its own submission (defined by the
 * output task, gstvktileoutput.c): download_ns comes from the transfer
 * step of the submission that carries it, once there is one. */
typedef struct _GstVkTileDeferredDownload GstVkTileDeferredDownload;
GstVkTileDeferredDownload *gst_vktile_deferred_download_ref
    (GstVkTileDeferredDownload * download);
void gst_vktile_deferred_download_unref (GstVkTileDeferredDownload * download);
/* A reference to the submission carrying it, NULL while none does. */
VktSync *gst_vktile_deferred_download_get_sync (GstVkTileDeferredDownload *
    download);
/* Whether it is carried or was dropped (a flush): waiting is over. */
gboolean gst_vktile_deferred_download_settled (GstVkTileDeferredDownload *
    download);

/* gpu_ns, upload_ns and download_ns come from `sync` (plus the CPU's part
 * of moving the frame), or download_ns from `deferred`, when the meta is
 * read. */
void gst_vktile_timing_meta_set_pending (GstVkTileTimingMeta * meta,
    VktSync * sync, gboolean uploaded, guint64 cpu_upload_ns,
    gboolean downloaded, guint64 cpu_download_ns,
    GstVkTileDeferredDownload * deferred);
/* Completes every pending timing meta of `buffer` (waits for its work). */
void gst_vktile_timing_meta_complete_all (GstBuffer * buffer);

/* The timing of each frame as an element message on the bus (an element's
 * post-messages), for applications that cannot read a meta (Python): a
 * "vktile-timing" structure with frame-index, gpu-ns, upload-ns,
 * download-ns, cpu-ns, dispatches, regions, and the frame's timestamp,
 * stream-time, running-time and duration, like the level element's
 * messages. A frame's message is posted once its GPU work has finished. */
typedef struct _GstVkTileTimingMessages GstVkTileTimingMessages;

typedef struct
{
  GstClockTime timestamp, stream_time, running_time, duration;
  guint regions;
} GstVkTileFrameTimes;

GstVkTileTimingMessages *gst_vktile_timing_messages_new (void);
/* Drops the messages not posted yet; accepts NULL. */
void gst_vktile_timing_messages_free (GstVkTileTimingMessages * messages);
void gst_vktile_timing_messages_clear (GstVkTileTimingMessages * messages);
/* A frame submitted: `meta` as attached to its output, completed (as its
 * pending meta would be) from `sync`. */
void gst_vktile_timing_messages_add (GstVkTileTimingMessages * messages,
    const GstVkTileTimingMeta * meta, const GstVkTileFrameTimes * times,
    VktSync * sync, gboolean uploaded, guint64 cpu_upload_ns,
    gboolean downloaded, guint64 cpu_download_ns,
    GstVkTileDeferredDownload * deferred);
/* Posts, oldest first, the messages of the frames whose work has finished;
 * with `wait`, of all frames, waiting for them. */
void gst_vktile_timing_messages_post (GstVkTileTimingMessages * messages,
    GstElement * element, gboolean wait);

G_END_DECLS

#endif
