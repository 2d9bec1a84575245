/* gstvktiletimingmeta.h: public header of the per-frame timing metadata that
 * every vktile element attaches to each buffer it outputs — one meta per
 * element the frame passed through. Header-only for applications: the
 * accessors below are static inline and find the API type by name once the
 * vktile plugin is loaded, so an application reads the meta from a pad
 * probe without linking to the plugin:
 *
 *   const GstVkTileTimingMeta *m = gst_vktile_timing_meta_get (buf, "tiledconv0");
 *   if (m) g_print ("%" G_GUINT64_FORMAT " ns on the GPU\n", m->gpu_ns);
 *
 * A frame that stays in GPU memory leaves the element before its GPU work
 * has finished, so its GPU times are not known yet: the accessors fill them
 * in when they are read, waiting for that frame's work if it is still
 * running. Read the meta through them (or call
 * gst_vktile_timing_meta_complete() on a meta you found yourself). */
#ifndef __GST_VKTILE_TIMING_META_H__
#define __GST_VKTILE_TIMING_META_H__

#include <gst/gst.h>
#include <string.h>

G_BEGIN_DECLS

#define GST_VKTILE_TIMING_META_API_NAME "GstVkTileTimingMetaAPI"
#define GST_VKTILE_TIMING_META_INFO_NAME "GstVkTileTimingMeta"
#define GST_VKTILE_TIMING_META_NAME_LEN 64

/* Work-group counts of the tiled shaders per border class ("Tiled
 * Convolution"): reads inside the source ROI / may read outside, writes
 * inside the target ROI / may cross its edge. */
typedef enum
{
  GST_VKTILE_TILES_FREE,                /* free on read and on write */
  GST_VKTILE_TILES_WRITE_CHECKED,       /* free on read only */
  GST_VKTILE_TILES_READ_CHECKED,        /* free on write only */
  GST_VKTILE_TILES_CHECKED,             /* neither */
  GST_VKTILE_TILE_CLASSES
} GstVkTileTileClass;

typedef struct _GstVkTileTimingMeta
{
  GstMeta meta;

  gchar element_name[GST_VKTILE_TIMING_META_NAME_LEN];
  guint64 frame_index;          /* frames this element has output before */
  guint64 gpu_ns;               /* GPU time of the element's dispatches; 0 without timestamps */
  guint64 upload_ns;            /* moving the frame in (CPU copy + GPU copy, or the copy out of Vulkan images); 0 if it stayed on the GPU or the shaders read it in place (then in gpu_ns).
                                 * Where the copy across the bus ran beside the previous frame's download, their shared time */
  guint64 download_ns;          /* moving it out (CPU copy, the copy into Vulkan images, or the copy across the bus beside the next
                                 * frame's upload: their shared time); 0 if it stays on the GPU, or if the dispatches wrote host
                                 * memory themselves (then gpu_ns includes it) */
  guint64 cpu_ns;               /* wall time inside the element's transform */
  guint dispatches;             /* compute dispatches of the element's work on the frame (not the copies that move it in or out) */
  guint tile_classes[GST_VKTILE_TILE_CLASSES];  /* tiled shaders only, else 0 */

  /* <private> */
  void (*complete) (struct _GstVkTileTimingMeta * meta);  /* set while gpu_ns, upload_ns, download_ns are pending */
  gpointer pending;
} GstVkTileTimingMeta;

/* Fills in gpu_ns, upload_ns and download_ns if they are still pending,
 * waiting for the frame's GPU work. */
static inline void
gst_vktile_timing_meta_complete (GstVkTileTimingMeta * meta)
{
  void (*complete) (GstVkTileTimingMeta *) = meta->complete;

  if (complete)
    complete (meta);
}

static inline GType
gst_vktile_timing_meta_api_get_type (void)
{
  return g_type_from_name (GST_VKTILE_TIMING_META_API_NAME);
}

/* The meta `element_name` attached, or with NULL the last one attached (the
 * nearest upstream vktile element). */
static inline GstVkTileTimingMeta *
gst_vktile_timing_meta_get (GstBuffer * buffer, const gchar * element_name)
{
  GType api = gst_vktile_timing_meta_api_get_type ();
  GstVkTileTimingMeta *found = NULL;
  gpointer state = NULL;
  GstMeta *meta;

  if (api == 0)
    return NULL;
  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state, api))) {
    GstVkTileTimingMeta *m = (GstVkTileTimingMeta *) meta;
    if (!element_name || strcmp (m->element_name, element_name) == 0)
      found = m;
  }
  if (found)
    gst_vktile_timing_meta_complete (found);
  return found;
}

G_END_DECLS

#endif
