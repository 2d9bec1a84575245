/* vktile tests — CPU reference of pixelate (see reference_pixelate.h). */
#include "reference_pixelate.h"

void
ref_pixelate_init (RefPixelate * p)
{
  ref_conv_init (&p->common);
  p->block_size = 16;
}

/* Component c over one block of its ROI: the mean of the source block,
 * rounded to nearest with halves up, written over the target block. */
static void
pixelate_block (const GstVideoFrame * in, GstVideoFrame * out, guint c,
    gint tx, gint ty, gint sx, gint sy, gint bw, gint bh)
{
  guint64 sum = 0, n = (guint64) bw * bh;
  guint mean;
  gint x, y;

  for (y = 0; y < bh; y++)
    for (x = 0; x < bw; x++)
      sum += ref_comp_get (in, c, sx + x, sy + y);
  mean = (guint) ((2 * sum + n) / (2 * n));
  for (y = 0; y < bh; y++)
    for (x = 0; x < bw; x++)
      ref_comp_set (out, c, tx + x, ty + y, mean);
}

void
ref_pixelate (const GstVideoFrame * in, GstVideoFrame * out,
    const RefPixelate * p)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  guint c;

  ref_frame_copy (out, in);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++) {
    gint tx, ty, px, py, w, h, bw, bh, x, y;

    if (!(p->common.planes & (1u << c))
        || !ref_comp_roi (&p->common, in, c, &tx, &ty, &px, &py, &w, &h))
      continue;
    /* Blocks of block-size frame pixels, in the component's own samples
     * where it is subsampled, from the ROI's top-left corner. */
    bw = MAX (1, (gint) p->block_size >> GST_VIDEO_FORMAT_INFO_W_SUB (finfo,
            c));
    bh = MAX (1, (gint) p->block_size >> GST_VIDEO_FORMAT_INFO_H_SUB (finfo,
            c));
    for (y = 0; y < h; y += bh)
      for (x = 0; x < w; x += bw)
        pixelate_block (in, out, c, tx + x, ty + y, px + x, py + y,
            MIN (bw, w - x), MIN (bh, h - y));
  }
}
