/* gstvktilefilter.h: GstVkTileFilter, the abstract base of every vktile
 * element. It owns everything that is not the filter itself: the Vulkan
 * instance, device and queue (shared with neighbours through GstContext),
 * caps and allocation for system memory and memory:VulkanBuffer, moving
 * frames to and from the GPU, the properties common to all elements (border,
 * ROI, planes), and the timing meta. A subclass only records its dispatches
 * for one frame in record(). */
#ifndef __GST_VKTILE_FILTER_H__
#define __GST_VKTILE_FILTER_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>

#include "vktcompute.h"
#include "vkttiles.h"

G_BEGIN_DECLS

#define GST_TYPE_VKTILE_FILTER (gst_vktile_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstVkTileFilter, gst_vktile_filter, GST,
    VKTILE_FILTER, GstBaseTransform);

typedef enum
{
  GST_VKTILE_BORDER_CLAMP,
  GST_VKTILE_BORDER_MIRROR,
  GST_VKTILE_BORDER_REFLECT,
  GST_VKTILE_BORDER_WRAP,
  GST_VKTILE_BORDER_CONSTANT,
} GstVkTileBorder;

/* One plane of a frame as the shaders see it: 32-bit words, CPW lanes of
 * BPC bytes per word, NCOMP lanes per pixel. */
typedef struct
{
  gint width, height;           /* pixels */
  gint width_sub, height_sub;   /* log2 of its subsampling against the frame */
  gint bpc, ncomp, cpw;
  guint chan_mask;              /* bit s: pixel slot s is filtered */
  gint in_base, in_stride;      /* words */
  gint out_base, out_stride;    /* words */
  /* The output is host memory that the shaders write across the bus:
   * stores that leave a run of memory partly written cost several times
   * their bytes there, so a writer may pick stores contiguous across a
   * subgroup. */
  gboolean out_across_bus;
  gboolean active;              /* something to filter: ROI not empty, mask not 0 */
  /* Lanes a store leaves unfiltered keep the output's value, not the
   * input's (roi-meta: regions filtered over a copy of the frame; the
   * second view of packed 4:2:2 words). */
  gboolean keep_output;
  /* The same words as the plane before (packed 4:2:2: luma, then chroma):
   * recorded after it, not beside it. */
  gboolean after_previous;
  VktPlaneRoi roi;
  gfloat max_code;              /* 255 or 65535 */
} VktPlane;

/* Copies a plane's buffers, ROI and channel mask into the push constants
 * of any shader family: every family names these fields alike
 * (the families' interface headers in shaders/). */
#define GST_VKTILE_PUSH_PLANE(push, p) G_STMT_START {   \
    (push)->in_base = (p)->in_base;                     \
    (push)->in_stride = (p)->in_stride;                 \
    (push)->out_base = (p)->out_base;                   \
    (push)->out_stride = (p)->out_stride;               \
    (push)->src_x = (p)->roi.sx;                        \
    (push)->src_y = (p)->roi.sy;                        \
    (push)->dst_x = (p)->roi.tx;                        \
    (push)->dst_y = (p)->roi.ty;                        \
    (push)->width = (p)->roi.w;                         \
    (push)->height = (p)->roi.h;                        \
    (push)->chan_mask = (p)->chan_mask |                \
        ((p)->keep_output ? VKT_KEEP_OUTPUT : 0);       \
  } G_STMT_END

typedef struct
{
  VktBufferRef in, out;
  guint n_planes;
  VktPlane planes[GST_VIDEO_MAX_PLANES];
  GstVkTileBorder border;
  gdouble border_value;         /* 0..1 of the format's range */
  guint tile_classes[4];        /* the subclass adds its tiled work-groups
                                 * (VktTileGrid.classes), per
                                 * GstVkTileTileClass */
  /* With roi-meta, the frame's regions: record() runs once per region,
   * each time with the planes' ROIs of that region; 0 otherwise. */
  guint n_regions;
} VktFrame;

struct _GstVkTileFilterClass
{
  GstBaseTransformClass parent_class;

  /* Records the element's work for one frame: every active plane of
   * frame->in filtered into frame->out. Inactive planes and pixels outside
   * the target ROI are already copied. With roi-meta it is called once
   * per region (VktFrame.n_regions), or not at all for a frame without
   * one. Called with the object lock not held; read the element's
   * properties under it. */
  gboolean (*record) (GstVkTileFilter * filter, VktCompute * compute,
      VktFrame * frame, GError ** error);
  /* Whether the shaders the next frame records read their input in runs,
   * each word once (tiles staged through shared memory): then a discrete
   * GPU reads system memory in place, across the bus while the same
   * dispatches write the output across it the other way, instead of after
   * an upload copy. Shaders that read a word several times, or a word per
   * invocation far apart, read the bus slower than the copy engine (see
   * docs/BENCHMARKS.md). NULL: they do not. */
  gboolean (*reads_input_in_runs) (GstVkTileFilter * filter);
};

GType gst_vktile_border_get_type (void);

/* The border property's value, for an element that installs its own
 * "border" listing only the modes its algorithms honour (an enum type of
 * its own with the same values as GstVkTileBorder). Take no object lock
 * around them. */
void gst_vktile_filter_set_border (GstVkTileFilter * filter,
    GstVkTileBorder border);
GstVkTileBorder gst_vktile_filter_get_border (GstVkTileFilter * filter);

/* A device-local buffer kept across frames, grown as needed; slot picks one
 * of a few per element. Its contents do not survive from frame to frame.
 * The buffer is kept alive for the recording in progress: grow it at any
 * point, the submissions that used the old one keep that. */
gboolean gst_vktile_filter_scratch (GstVkTileFilter * filter, guint slot,
    gsize size, VktBufferRef * ref, GError ** error);

/* Fills the specialization constants every shader shares
 * (vktile_interface.h): the plane's lanes. */
void gst_vktile_plane_spec (const VktPlane * plane, gint32 * spec);

/* What gst_vktile_filter_record_planes() asks of an element for each
 * active plane of a frame. */
typedef struct
{
  /* Bytes of scratch the plane needs, in a buffer of its own (scratch slot
   * = the plane's index); NULL, or 0 returned: none. */
  gsize (*scratch_bytes) (GstVkTileFilter * filter, const VktPlane * plane,
      gpointer data);
  /* Records the plane's work; *scratch is its scratch buffer, or a ref to
   * no buffer where it needs none. */
  gboolean (*record) (GstVkTileFilter * filter, VktCompute * compute,
      VktFrame * frame, guint plane, const VktBufferRef * scratch,
      gpointer data, GError ** error);
} GstVkTilePlaneRecorder;

/* Records every active plane of the frame with `recorder`: the planes run
 * side by side as streams of one recording (one barrier between passes
 * for all of them), each with its own scratch buffer. */
gboolean gst_vktile_filter_record_planes (GstVkTileFilter * filter,
    VktCompute * compute, VktFrame * frame,
    const GstVkTilePlaneRecorder * recorder, gpointer data, GError ** error);

/* The state a filter carries from frame to frame (temporal smoothing), device-local, at least `size` bytes; *fresh says it
 * was just allocated and holds nothing. Freed when the element stops. */
gboolean gst_vktile_filter_temporal_state (GstVkTileFilter * filter,
    gsize size, VktBufferRef * ref, gboolean * fresh, GError ** error);

/* Whether the state a filter carries across frames restarts with the frame
 * being recorded: the first after start, a flush, a caps change, a new
 * stream or a DISCONT buffer. Reading it clears it. */
gboolean gst_vktile_filter_take_restart (GstVkTileFilter * filter);

/* A host-visible buffer of at least `size` bytes, zeroed when allocated,
 * in which the GPU writes what the CPU reads back (the noise
 * estimate); mapping it waits for the last frame that used it. The memory
 * returned is the element's until it stops: take a reference to read it
 * from another thread. */
GstMemory *gst_vktile_filter_report (GstVkTileFilter * filter, gsize size,
    VktBufferRef * ref, GError ** error);

/* A host-visible buffer of at least `size` bytes for what the GPU writes
 * back on some frames only (denoise's risk sums): with `ref`, bound to the
 * frame being recorded (a larger size replaces it, contents lost);
 * without, the buffer to read, or NULL where none as large is there.
 * Mapping it waits for the last frame that bound it, so the frames that do
 * not write it leave it unbound and the CPU reads it without waiting for
 * them. The element's until it stops. */
GstMemory *gst_vktile_filter_readback (GstVkTileFilter * filter, gsize size,
    VktBufferRef * ref, GError ** error);

/* Says which floats of the report (bit i: float i) the frame being
 * recorded writes; 0: it reports nothing. read_reported() appends those of
 * them that `floats` selects, as doubles, to a GstValueArray, waiting for
 * the GPU to finish that frame; nothing before a frame reported. Any
 * thread. */
void gst_vktile_filter_set_reported (GstVkTileFilter * filter, guint floats);
void gst_vktile_filter_read_reported (GstVkTileFilter * filter, guint floats,
    GValue * array);

void gst_vktile_filter_class_add_pad_templates (GstElementClass * klass);

/* Refuses a value given to `property` (the property keeps its old one) and
 * says why where the user looks: a warning on the bus once the element is
 * in a pipeline, else on stderr through the "vktile" log domain. Call it
 * without the object lock. */
void gst_vktile_filter_refuse_property (GstVkTileFilter * filter,
    const gchar * property, const gchar * format, ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS

#endif
