/* gstpixelate.c: the pixelate element — its properties, push constants and
 * the two passes of shaders/pixelate.comp per plane: each block's means
 * into the plane's scratch, then the target ROI written from them.
 * Devices, memory, regions of interest and timing are the base class's.
 *
 * SECTION:element-pixelate
 * @title: pixelate
 *
 * Mosaic on the GPU: the frame, its ROI (roi-x ...) or the regions of
 * interest its metadata names (roi-meta) cut into blocks of block-size
 * pixels from their top-left corner, each block replaced by its mean —
 * the other half of privacy masking beside a blur. Outside the regions the
 * frame is untouched, byte for byte. The means are exact (rounded to the
 * nearest code value), so the border property does not matter here: a
 * block reads only pixels inside the ROI.
 *
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! \
 *     pixelate block-size=24 roi-x=100 roi-y=60 roi-width=200 \
 *     roi-height=160 ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! \
 *     videoconvert ! pixelate roi-meta=face roi-padding=16 ! videoconvert ! \
 *     autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstpixelate.h"
#include "pixelate_interface.h"

#include "pixelate.spv.h"

GST_DEBUG_CATEGORY_STATIC (gst_pixelate_debug);
#define GST_CAT_DEFAULT gst_pixelate_debug

typedef struct
{
PIXELATE_PUSH_FIELDS} PixelatePush;

_Static_assert (sizeof (PixelatePush) <= VKT_MAX_PUSH_BYTES,
    "push constants");
_Static_assert (PIXELATE_SPEC_COUNT <= VKT_MAX_SPEC,
    "specialization constants");

/* Bindings: the packed planes, the block means. */
static const VktShader shader_pixelate = { "pixelate", pixelate_spv,
  sizeof (pixelate_spv), 3, {VKT_BIND_STORAGE, VKT_BIND_STORAGE,
      VKT_BIND_STORAGE}, sizeof (PixelatePush)
};

#define DEFAULT_BLOCK_SIZE 16

struct _GstPixelate
{
  GstVkTileFilter parent;

  guint block_size;             /* under the object lock */
};

enum
{
  PROP_0,
  PROP_BLOCK_SIZE,
  PROP_BORDER,                  /* the base class's, said to be unused */
};

G_DEFINE_TYPE (GstPixelate, gst_pixelate, GST_TYPE_VKTILE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (pixelate, "pixelate", GST_RANK_NONE,
    GST_TYPE_PIXELATE);

/* ---- recording a frame ---- */

/* A plane's blocks: block-size luma pixels, in the plane's own samples
 * where it is subsampled (at least one); returns the rows of blocks. */
static gint
plane_blocks (const VktPlane * p, guint block_size, PixelatePush * push)
{
  push->block_w = MAX (1, (gint) block_size >> p->width_sub);
  push->block_h = MAX (1, (gint) block_size >> p->height_sub);
  push->blocks_x = (p->roi.w + push->block_w - 1) / push->block_w;
  return (p->roi.h + push->block_h - 1) / push->block_h;
}

static gsize
plane_scratch_bytes (GstVkTileFilter * filter, const VktPlane * p,
    gpointer data)
{
  PixelatePush push;
  gint blocks_y = plane_blocks (p, *(const guint *) data, &push);

  return (gsize) push.blocks_x * blocks_y * PIXELATE_MEAN_WORDS *
      sizeof (guint32);
}

static gboolean
record_plane (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, guint i, const VktBufferRef * scratch, gpointer data,
    GError ** error)
{
  const VktPlane *p = &frame->planes[i];
  VktBufferRef refs[3] = { frame->in, frame->out, *scratch };
  gint32 spec[PIXELATE_SPEC_COUNT] = { 0 };
  guint max_groups = vkt_compute_max_groups (compute);
  PixelatePush push = { 0 };
  VktPipeline *pipe;
  gint blocks_y, words;

  GST_VKTILE_PUSH_PLANE (&push, p);
  blocks_y = plane_blocks (p, *(const guint *) data, &push);
  words = vkt_roi_words (&p->roi, p->ncomp, p->cpw, &push.word_x0);
  if ((guint) push.blocks_x > max_groups || (guint) blocks_y > max_groups) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "%d x %d blocks of %d x %d samples are more than this device "
        "dispatches (%u a side): raise block-size", push.blocks_x, blocks_y,
        push.block_w, push.block_h, max_groups);
    return FALSE;
  }

  gst_vktile_plane_spec (p, spec);
  spec[PIXELATE_SPEC_PASS] = PIXELATE_PASS_MEANS;
  spec[PIXELATE_SPEC_GROUP_X] = PIXELATE_MEANS_GROUP;
  spec[PIXELATE_SPEC_GROUP_Y] = 1;
  if (!(pipe = vkt_compute_pipeline (compute, &shader_pixelate, spec,
              PIXELATE_SPEC_COUNT, error)))
    return FALSE;
  vkt_compute_dispatch (compute, pipe, refs, &push, push.blocks_x, blocks_y);
  vkt_compute_barrier (compute);

  spec[PIXELATE_SPEC_PASS] = PIXELATE_PASS_WRITE;
  spec[PIXELATE_SPEC_GROUP_X] = PIXELATE_WRITE_GROUP_X;
  spec[PIXELATE_SPEC_GROUP_Y] = PIXELATE_WRITE_GROUP_Y;
  if (!(pipe = vkt_compute_pipeline (compute, &shader_pixelate, spec,
              PIXELATE_SPEC_COUNT, error)))
    return FALSE;
  vkt_compute_dispatch (compute, pipe, refs, &push,
      (words + PIXELATE_WRITE_GROUP_X - 1) / PIXELATE_WRITE_GROUP_X,
      (p->roi.h + PIXELATE_WRITE_GROUP_Y - 1) / PIXELATE_WRITE_GROUP_Y);
  return TRUE;
}

static gboolean
gst_pixelate_record (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, GError ** error)
{
  static const GstVkTilePlaneRecorder recorder = {
    plane_scratch_bytes, record_plane
  };
  GstPixelate *self = GST_PIXELATE (filter);
  guint block_size;

  GST_OBJECT_LOCK (self);
  block_size = self->block_size;
  GST_OBJECT_UNLOCK (self);
  return gst_vktile_filter_record_planes (filter, compute, frame, &recorder,
      &block_size, error);
}

/* ---- properties ---- */

static void
gst_pixelate_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstPixelate *self = GST_PIXELATE (object);

  if (prop_id == PROP_BLOCK_SIZE) {
    GST_OBJECT_LOCK (self);
    self->block_size = g_value_get_uint (value);
    GST_OBJECT_UNLOCK (self);
  } else if (prop_id == PROP_BORDER) {
    gst_vktile_filter_set_border (GST_VKTILE_FILTER (self),
        g_value_get_enum (value));
  } else {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
gst_pixelate_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstPixelate *self = GST_PIXELATE (object);

  if (prop_id == PROP_BLOCK_SIZE) {
    GST_OBJECT_LOCK (self);
    g_value_set_uint (value, self->block_size);
    GST_OBJECT_UNLOCK (self);
  } else if (prop_id == PROP_BORDER) {
    g_value_set_enum (value,
        gst_vktile_filter_get_border (GST_VKTILE_FILTER (self)));
  } else {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

/* ---- type ---- */

static void
gst_pixelate_class_init (GstPixelateClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVkTileFilterClass *filter_class = GST_VKTILE_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_pixelate_debug, "pixelate", 0,
      "mosaic of block means");

  gobject_class->set_property = gst_pixelate_set_property;
  gobject_class->get_property = gst_pixelate_get_property;

  g_object_class_install_property (gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_uint ("block-size", "Block size",
          "Side of a block in pixels, counted from the top-left corner of "
          "the ROI or region; blocks at its right and bottom edges are cut "
          "short. Subsampled chroma planes use block-size over their "
          "subsampling (at least 1)", 2, PIXELATE_MAX_BLOCK,
          DEFAULT_BLOCK_SIZE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /* Every vktile element has a border; a block reads nothing beyond its
   * ROI, so here it changes nothing, and says so. */
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border", "Not used by pixelate: a block "
          "reads only pixels inside its ROI (kept as every vktile element "
          "has it)", gst_vktile_border_get_type (), GST_VKTILE_BORDER_CLAMP,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  gst_element_class_set_static_metadata (element_class,
      "Pixelate (Vulkan)", "Filter/Effect/Video/Hardware",
      "Mosaic on the GPU: each block of the frame, its ROI or its regions "
      "of interest replaced by the block's mean", "vktile developers");

  filter_class->record = gst_pixelate_record;
}

static void
gst_pixelate_init (GstPixelate * self)
{
  self->block_size = DEFAULT_BLOCK_SIZE;
}
