/* gstvktilefilter-private.h: what the files of GstVkTileFilter share: its
 * private struct (PRIV()), the frame paths, and the functions one of them
 * calls in another, under the name of the file that defines them. Not
 * installed; the subclasses use gstvktilefilter.h. */
#ifndef __GST_VKTILE_FILTER_PRIVATE_H__
#define __GST_VKTILE_FILTER_PRIVATE_H__

#include "gstvktilefilter.h"
#include "gstvktiletimingmeta-private.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_vktile_filter_debug);
#define GST_CAT_DEFAULT gst_vktile_filter_debug

#define N_SCRATCH 4

/* How system memory reached the GPU, for the debug line that says so. */
typedef enum
{
  INPUT_IN_PLACE,               /* a storage buffer the shaders read */
  INPUT_GPU_COPY,               /* a Vulkan buffer copied on the GPU */
  INPUT_IMPORTED,               /* system memory imported, copied by the GPU */
  INPUT_IMPORTED_IN_PLACE,      /* system memory imported, read by the shaders */
  INPUT_CPU_COPY,               /* system memory copied by the CPU */
  INPUT_IMAGE,                  /* Vulkan images copied on the GPU */
} InputPath;

typedef enum
{
  OUTPUT_IN_PLACE,              /* the shaders write the output buffer */
  OUTPUT_ACROSS_BUS,            /* the same, host memory of a discrete GPU */
  OUTPUT_CPU_COPY,              /* computed in a host-visible buffer, copied by the CPU */
  OUTPUT_IMAGE,                 /* computed in a device buffer, copied into images on the GPU */
  OUTPUT_PAIRED,                /* computed in a device buffer, written across the bus beside the next frame's upload */
} OutputPath;

/* The download of a frame computed in device memory (OUTPUT_PAIRED) into
 * its host-memory output: recorded at the start of the next frame's
 * submission, beside that frame's upload, or — when no next frame comes
 * before this one's filter is done — alone, by the output task. A
 * g_atomic_rc_box. */
struct _GstVkTileDeferredDownload
{
  GstMemory *computed;          /* device-local, laid out as dst */
  GstMemory *dst;               /* the output frame's host memory */
  GstVideoInfo info;
  gsize plane_offsets[GST_VIDEO_MAX_PLANES];    /* bytes into both buffers */
  gint strides[GST_VIDEO_MAX_PLANES];
  VktSync *sync;                /* the submission that writes dst, once there is one */
  gint dropped;                 /* a flush dropped it: nothing will write dst */
};

/* A frame whose GPU work is submitted, waiting to be pushed once it is done
 * (system memory out) or at once (Vulkan memory out). */
typedef struct
{
  GstBuffer *outbuf;
  VktSync *sync;
  GstVkTileDeferredDownload *download;  /* OUTPUT_PAIRED: after sync */
} PendingFrame;

typedef struct
{
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  VktCompute *compute;
  gboolean separate_vram;

  GstVideoInfo in_info, out_info;
  /* What the shaders filter: in_info, but for 3-byte pixels (RGB, BGR)
   * the same frame in 4-byte ones (RGBx, BGRx), widened before the filter
   * and narrowed after it (widen). */
  GstVideoInfo work_info;
  gboolean widen;
  gboolean out_vulkan;          /* output caps are memory:VulkanBuffer or VulkanImage */

  GstMemory *in_copy;           /* input moved here when it cannot be used in place */
  GstMemory *in_staging;        /* host-visible: CPU copies of system memory input */
  GstMemory *out_staging;       /* host-visible: output computed here, then copied by the CPU */
  GstMemory *out_for_images;    /* output computed here, then copied into images */
  GstMemory *out_paired;        /* OUTPUT_PAIRED: output computed here */
  GstMemory *work_in, *work_out;        /* widened frames (work_info) */
  GstMemory *scratch[N_SCRATCH];
  /* While a frame's regions of interest are recorded
   * (gst_vktile_filter_record_regions()): each takes its own part of every
   * scratch buffer, since their passes run side by side; bytes handed out
   * so far, and regions still to come. */
  gboolean scratch_per_region;
  gsize scratch_used[N_SCRATCH];
  guint regions_to_come;
  GstMemory *temporal_state;
  /* The state restarts with the next frame (start, flush, caps, stream
   * start, DISCONT): gst_vktile_filter_take_restart(). */
  gint temporal_restart;
  GstMemory *report;            /* host-visible: what the GPU tells the element */
  GstMemory *readback;          /* ... on the frames that bind it */
  /* under the object lock: the report of the last frame recorded that
   * reported, and which of its floats it wrote (bit i: float i) */
  GstMemory *reported;
  guint reported_floats;
  guint64 frame_index;
  gsize import_alignment;       /* 0: system memory is copied, not imported */
  gint last_input_path, last_output_path;       /* -1: none yet */

  /* Held while a submission is recorded: by the streaming thread for each
   * frame, by the output task for a download no frame carries. */
  GMutex record_lock;
  /* under record_lock: the download the next submission carries */
  GstVkTileDeferredDownload *deferred;

  /* Frames with system memory out are pushed from the source pad's task
   * once their fence has signalled, while the streaming thread records
   * the next ones. */
  GMutex out_lock;
  GCond out_cond;
  GQueue out_queue;             /* PendingFrame*, oldest first */
  gboolean out_flushing;
  GstFlowReturn out_ret;        /* of the task's last push */
  PendingFrame *recorded;       /* transform() to generate_output() */
  GstVkTileTimingMessages *messages;    /* post-messages */

  /* properties, under the object lock */
  GstVkTileBorder border;
  gdouble border_value;
  VktRoiParams roi;
  gchar **roi_meta_types;       /* roi-meta, NULL: off */
  gint roi_padding;
  guint planes;
  guint frames_in_flight;
  gboolean post_messages;
  gint device_index;            /* -1: any */
  gchar *device_name;           /* NULL: any */
  gboolean drop_invalid;
  gboolean roi_warned;          /* since the ROI or the caps last changed */
} GstVkTileFilterPrivate;

GstVkTileFilterPrivate *gst_vktile_filter_get_priv (GstVkTileFilter * self);
#define PRIV(self) gst_vktile_filter_get_priv (GST_VKTILE_FILTER (self))

/* gstvktilefilter.c */
void gst_vktile_filter_post_gpu_error (GstVkTileFilter * self,
    const gchar * what, const GError * error);

/* gstvktileoutput.c */
void gst_vktile_filter_pending_frame_free (PendingFrame * pf);
GstFlowReturn gst_vktile_filter_queue_output (GstVkTileFilter * self,
    GstBuffer * outbuf, VktSync * sync, GstVkTileDeferredDownload * download);
GstVkTileDeferredDownload *gst_vktile_deferred_download_new (void);
/* The deferred download the submission being recorded carries, if any,
 * recorded (record_lock held); its sync is set by _carried(). */
gboolean gst_vktile_filter_carry_deferred (GstVkTileFilter * self,
    GstVkTileDeferredDownload ** carried, GError ** error);
void gst_vktile_filter_carried (GstVkTileFilter * self,
    GstVkTileDeferredDownload * carried, VktSync * sync);
void gst_vktile_filter_drop_deferred (GstVkTileFilter * self);
GstFlowReturn gst_vktile_filter_drain_output (GstVkTileFilter * self);
void gst_vktile_filter_flush_output (GstVkTileFilter * self, gboolean stop);
void gst_vktile_filter_unflush_output (GstVkTileFilter * self);

/* gstvktilebuffers.c */
void gst_vktile_filter_free_memory (GstMemory ** mem);
gboolean gst_vktile_filter_ensure_buffer (GstVkTileFilter * self,
    GstMemory ** slot, gsize size, gboolean host_visible, GError ** error);
VktBufferRef gst_vktile_filter_bind (GstVkTileFilter * self, GstMemory * mem);
void gst_vktile_filter_request_restart (GstVkTileFilter * self);

/* gstvktiledevice.c */
gboolean gst_vktile_filter_open_device (GstVkTileFilter * self,
    GError ** error);
void gst_vktile_filter_release_device (GstVkTileFilter * self);

/* gstvktileframeio.c */
extern GQuark gst_vktile_filter_host_import_quark;
gboolean gst_vktile_filter_check_frame_layout (GstBuffer * buf,
    const GstVideoInfo * info, const gchar * what, GError ** error);
void gst_vktile_filter_record_plane_copy (VktCompute * compute, VkBuffer src,
    gsize src_off, gint src_stride, VkBuffer dst, gsize dst_off,
    gint dst_stride, const GstVideoInfo * info, guint plane);
gboolean gst_vktile_filter_copy_frame_staging (const GstVideoInfo * info,
    GstBuffer * buf, GstMemory * staging, gboolean into_staging,
    GError ** error);
/* `pair`: the frame's transfers pair with its neighbours' (frames come
 * faster than the GPU takes them): its upload by the copy shader, and its
 * output, where it crosses the bus, computed in device memory with its
 * download returned in *download (OUTPUT_PAIRED). */
gboolean gst_vktile_filter_prepare_input (GstVkTileFilter * self,
    GstBuffer * inbuf, VktFrame * frame, gboolean pair, InputPath * path,
    guint64 * cpu_ns, GError ** error);
gboolean gst_vktile_filter_prepare_output (GstVkTileFilter * self,
    GstBuffer * outbuf, VktFrame * frame, gboolean pair, OutputPath * path,
    GstVkTileDeferredDownload ** download, GError ** error);
gboolean gst_vktile_filter_write_output_images (GstVkTileFilter * self,
    GstBuffer * outbuf, GError ** error);
/* Records the copy of a deferred download's frame into its host memory. */
gboolean gst_vktile_filter_record_download (GstVkTileFilter * self,
    GstVkTileDeferredDownload * download, GError ** error);
/* Frames of 3-byte pixels (priv->widen): the input widened into work_in
 * for the filter; the filter pointed at work_out, the output's own buffer
 * and plane words kept in *out and *plane; and, after the filter, work_out
 * narrowed into them. */
gboolean gst_vktile_filter_widen_input (GstVkTileFilter * self,
    VktFrame * frame, GError ** error);
gboolean gst_vktile_filter_widen_output (GstVkTileFilter * self,
    VktFrame * frame, VktBufferRef * out, VktPlane * plane, GError ** error);
gboolean gst_vktile_filter_narrow_output (GstVkTileFilter * self,
    const VktFrame * frame, const VktBufferRef * out, const VktPlane * plane,
    GError ** error);

/* gstvktileregions.c */
/* The planes the shaders filter ("views"): one a memory plane, but two
 * over a packed 4:2:2 plane (its luma, then its chroma); and the memory
 * plane of view v. */
guint gst_vktile_filter_n_views (const GstVideoInfo * info);
guint gst_vktile_filter_view_plane (const GstVideoInfo * info, guint v);
void gst_vktile_filter_describe_planes (GstVkTileFilter * self,
    VktFrame * frame, const VktRect * region, gboolean meta);
gboolean gst_vktile_filter_record_unfiltered_copies (GstVkTileFilter * self,
    VktFrame * frame);
GArray *gst_vktile_filter_frame_regions (GstVkTileFilter * self,
    GstBuffer * inbuf);
gboolean gst_vktile_filter_record_regions (GstVkTileFilter * self,
    VktFrame * frame, GArray * regions, GError ** error);

G_END_DECLS

#endif /* __GST_VKTILE_FILTER_PRIVATE_H__ */
