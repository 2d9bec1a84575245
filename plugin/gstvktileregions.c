/* gstvktileregions.c: what of a frame GstVkTileFilter filters. Owns the
 * planes and their ROI (gst_vktile_filter_describe_planes()), the loop
 * that records them side by side (gst_vktile_filter_record_planes()), the
 * copies of what is not filtered, and the regions of interest from metadata
 * (gst_vktile_filter_frame_regions()) with the loop that records the
 * filter once per region (gst_vktile_filter_record_regions()). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktilefilter-private.h"
#include "vktile_interface.h"

#include <string.h>

/* ---- views: the planes as the shaders see them ---- */

/* Whether components a and b lie alike in memory: the same plane, pixel
 * stride and horizontal subsampling. Packed 4:2:2 (YUY2, UYVY) holds its
 * luma every 2 lanes at full width and its chroma every 4 lanes at half
 * width: the shaders filter the two as planes of their own over the same
 * words ("views"); every other format has one view a plane. */
static gboolean
same_view (const GstVideoFormatInfo * finfo, guint a, guint b)
{
  return GST_VIDEO_FORMAT_INFO_PLANE (finfo, a) ==
      GST_VIDEO_FORMAT_INFO_PLANE (finfo, b)
      && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, a) ==
      GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, b)
      && GST_VIDEO_FORMAT_INFO_W_SUB (finfo, a) ==
      GST_VIDEO_FORMAT_INFO_W_SUB (finfo, b);
}

/* The first component of view v, in component order; -1 past the last. */
static gint
view_first_comp (const GstVideoInfo * info, guint v)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint c, k, n = 0;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    for (k = 0; k < c && !same_view (finfo, k, c); k++);
    if (k == c && n++ == v)
      return c;
  }
  return -1;
}

guint
gst_vktile_filter_n_views (const GstVideoInfo * info)
{
  guint n = 0;

  while (view_first_comp (info, n) >= 0)
    n++;
  return n;
}

guint
gst_vktile_filter_view_plane (const GstVideoInfo * info, guint v)
{
  return GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, view_first_comp (info,
          v));
}

/* ---- planes, ROI, copies of what is not filtered ---- */

/* The lane of component c inside its pixel, counted in components. Byte
 * offsets of 16-bit components are even; GStreamer 1.22 tables V of
 * P010_10LE at offset 1, counted in components, where its pack and unpack
 * functions put it at byte 2. */
static guint
comp_lane (const GstVideoFormatInfo * finfo, guint c)
{
  guint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

  if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) <= 8 || offset % 2 != 0)
    return offset;
  return offset / 2;
}

/* The planes of a frame and what of them is filtered: the target ROI of
 * `region`, or of the roi-* properties where it is NULL and `meta` is
 * FALSE; nothing where it is NULL and `meta` is TRUE. A ROI of the
 * properties that misses the frame is said once. */
void
gst_vktile_filter_describe_planes (GstVkTileFilter * self, VktFrame * frame,
    const VktRect * region, gboolean meta)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  const GstVideoInfo *info = &priv->work_info;
  const GstVideoFormatInfo *finfo = info->finfo;
  VktRoiParams roi;
  guint planes, p, c;
  gboolean selected = FALSE, filtered = FALSE, warn;

  GST_OBJECT_LOCK (self);
  roi = region ? vkt_rect_roi (region) : priv->roi;
  planes = priv->planes;
  frame->border = priv->border;
  frame->border_value = priv->border_value;
  GST_OBJECT_UNLOCK (self);

  frame->n_planes = gst_vktile_filter_n_views (info);
  for (p = 0; p < frame->n_planes; p++) {
    VktPlane *pl = &frame->planes[p];
    guint first = view_first_comp (info, p);
    gint ws = 0, hs = 0;

    pl->chan_mask = 0;
    /* A second view of the same words runs after the first and keeps the
     * lanes it wrote. */
    pl->after_previous = p > 0 && gst_vktile_filter_view_plane (info, p) ==
        gst_vktile_filter_view_plane (info, p - 1);

    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
      if (!same_view (finfo, first, c))
        continue;
      pl->bpc = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) > 8 ? 2 : 1;
      /* 10-bit formats hold 0..1023 in 16-bit lanes */
      pl->max_code = (1u << (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) +
              GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c))) - 1;
      pl->ncomp = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) / pl->bpc;
      pl->width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
      pl->height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
      ws = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
      hs = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
      if (planes & (1u << c))
        pl->chan_mask |= 1u << comp_lane (finfo, c);
    }
    pl->cpw = 4 / pl->bpc;
    pl->width_sub = ws;
    pl->height_sub = hs;
    pl->keep_output = meta || pl->after_previous;
    pl->active = pl->chan_mask != 0 && (region || !meta)
        && vkt_plane_roi (&roi, ws, hs, pl->width, pl->height, &pl->roi);
    if (!pl->active)
      pl->roi = (VktPlaneRoi) { 0, 0, 0, 0, 0, 0 };
    selected |= pl->chan_mask != 0;
    filtered |= pl->active;
  }
  GST_OBJECT_LOCK (self);
  warn = !meta && selected && !filtered && !priv->roi_warned;
  priv->roi_warned |= warn;
  GST_OBJECT_UNLOCK (self);
  if (warn) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("The region of interest lies outside the %dx%d frame: nothing is "
            "filtered.", GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info)),
        ("roi-x %d, roi-y %d, roi-width %d, roi-height %d, source-x %d, "
            "source-y %d", roi.x, roi.y, roi.width, roi.height,
            roi.source_x, roi.source_y));
  }
}

gboolean
gst_vktile_filter_record_unfiltered_copies (GstVkTileFilter * self,
    VktFrame * frame)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  const GstVideoInfo *info = &priv->work_info;
  gboolean copied = FALSE;
  guint m, v;

  /* A memory plane is copied unless its views filter all of it. */
  for (m = 0; m < GST_VIDEO_INFO_N_PLANES (info); m++) {
    gboolean whole = TRUE;
    const VktPlane *pl = NULL;
    for (v = 0; v < frame->n_planes; v++) {
      if (gst_vktile_filter_view_plane (info, v) != m)
        continue;
      pl = &frame->planes[v];
      whole &= pl->active && pl->roi.tx == 0 && pl->roi.ty == 0
          && pl->roi.w == pl->width && pl->roi.h == pl->height;
    }
    if (!pl || whole)
      continue;
    gst_vktile_filter_record_plane_copy (priv->compute, frame->in.buffer,
        (gsize) pl->in_base * 4, pl->in_stride * 4, frame->out.buffer,
        (gsize) pl->out_base * 4, pl->out_stride * 4, info, m);
    copied = TRUE;
  }
  return copied;
}

void
gst_vktile_plane_spec (const VktPlane * p, gint32 * spec)
{
  spec[VKT_SPEC_BPC] = p->bpc;
  spec[VKT_SPEC_NCOMP] = p->ncomp;
  spec[VKT_SPEC_CPW] = p->cpw;
  spec[VKT_SPEC_LOG2_NCOMP] = p->ncomp == 4 ? 2 : p->ncomp == 2 ? 1 : 0;
  spec[VKT_SPEC_MAX_CODE] = (gint32) p->max_code;
}

gboolean
gst_vktile_filter_record_planes (GstVkTileFilter * self, VktCompute * compute,
    VktFrame * frame, const GstVkTilePlaneRecorder * recorder, gpointer data,
    GError ** error)
{
  gboolean started = FALSE, ok = TRUE;
  guint i;

  vkt_compute_streams_begin (compute);
  for (i = 0; ok && i < frame->n_planes; i++) {
    const VktPlane *p = &frame->planes[i];
    VktBufferRef scratch = { VK_NULL_HANDLE, 0, 0 };
    gsize bytes;

    if (!p->active)
      continue;
    /* A second view of the same words: after the first, in its stream. */
    if (started && p->after_previous)
      vkt_compute_barrier (compute);
    else if (started)
      vkt_compute_stream_next (compute);
    started = TRUE;
    bytes = recorder->scratch_bytes ?
        recorder->scratch_bytes (self, p, data) : 0;
    ok = (!bytes || gst_vktile_filter_scratch (self, i, bytes, &scratch,
            error))
        && recorder->record (self, compute, frame, i, &scratch, data, error);
  }
  vkt_compute_streams_end (compute);
  return ok;
}

/* ---- regions of interest from metadata ---- */

static gboolean
roi_type_listed (gchar ** types, GQuark type)
{
  const gchar *name = g_quark_to_string (type);
  guint i;

  for (i = 0; name && types[i]; i++)
    if (g_str_equal (types[i], name))
      return TRUE;
  return FALSE;
}

typedef struct
{
  guint64 seqnum;
  VktRect rect;
} MetaRect;

static gint
compare_seqnums (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const MetaRect *) a)->seqnum, y = ((const MetaRect *) b)->seqnum;

  return x < y ? -1 : x > y;
}

/* The regions roi-meta filters in inbuf, padded and clipped, in the order
 * their metas were attached (a buffer lists its newest meta first); NULL
 * when roi-meta is off. */
GArray *
gst_vktile_filter_frame_regions (GstVkTileFilter * self, GstBuffer * inbuf)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  gint w = GST_VIDEO_INFO_WIDTH (&priv->work_info);
  gint h = GST_VIDEO_INFO_HEIGHT (&priv->work_info);
  GstVideoRegionOfInterestMeta *m;
  gpointer state = NULL;
  GArray *regions;
  gchar **types;
  gint padding;

  GST_OBJECT_LOCK (self);
  types = g_strdupv (priv->roi_meta_types);
  padding = priv->roi_padding;
  GST_OBJECT_UNLOCK (self);
  if (!types)
    return NULL;

  regions = g_array_new (FALSE, FALSE, sizeof (MetaRect));
  while ((m = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (inbuf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    MetaRect r = { gst_meta_get_seqnum (&m->meta) };
    if (roi_type_listed (types, m->roi_type)
        && vkt_rect_pad_clip (m->x, m->y, m->w, m->h, padding, w, h, &r.rect))
      g_array_append_val (regions, r);
  }
  g_array_sort (regions, compare_seqnums);
  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT ": %u regions of "
      "interest from metadata", priv->frame_index, regions->len);
  g_strfreev (types);
  return regions;
}

/* A 32-bit word of a plane holds at most this many luma columns (I420's
 * chroma: 4 samples of 2 columns each) and a plane row at most this many
 * luma rows: regions closer than that may share words. */
#define WORD_COLUMNS 8
#define ROW_ROWS 2

/* The whole frame copied, then each region filtered over it from the
 * input, its words' other lanes keeping what the output holds. The
 * regions are streams of one recording (vkt_compute_streams_begin): their
 * passes run side by side, one barrier between passes for all of them,
 * each with its own scratch. A region that shares a word with an earlier
 * one of the same batch starts a new batch, after the earlier ones, so
 * that the later region's result is what stays. */
gboolean
gst_vktile_filter_record_regions (GstVkTileFilter * self, VktFrame * frame,
    GArray * regions, GError ** error)
{
  GstVkTileFilterClass *klass = GST_VKTILE_FILTER_GET_CLASS (self);
  GstVkTileFilterPrivate *priv = PRIV (self);
  VktCompute *compute = priv->compute;
  guint i, j, batch_start = 0;
  gboolean ok = TRUE;

  gst_vktile_filter_describe_planes (self, frame, NULL, TRUE);
  gst_vktile_filter_record_unfiltered_copies (self, frame);
  vkt_compute_barrier (compute);
  frame->n_regions = regions->len;
  priv->scratch_per_region = TRUE;
  memset (priv->scratch_used, 0, sizeof (priv->scratch_used));
  vkt_compute_streams_begin (compute);
  for (i = 0; ok && i < regions->len; i++) {
    const VktRect *r = &g_array_index (regions, MetaRect, i).rect;

    for (j = batch_start; j < i; j++) {
      if (vkt_rects_overlap (r, &g_array_index (regions, MetaRect, j).rect,
              WORD_COLUMNS, ROW_ROWS)) {
        vkt_compute_streams_end (compute);
        vkt_compute_streams_begin (compute);
        batch_start = i;
        break;
      }
    }
    if (i > batch_start)
      vkt_compute_stream_next (compute);
    priv->regions_to_come = regions->len - i;
    gst_vktile_filter_describe_planes (self, frame, r, TRUE);
    ok = klass->record (self, compute, frame, error);
  }
  vkt_compute_streams_end (compute);
  priv->scratch_per_region = FALSE;
  return ok;
}
