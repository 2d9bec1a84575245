/* gstpixelate.h: the pixelate element — mosaic: each block of the frame,
 * or of its regions of interest, replaced by its mean (see
 * gstpixelate.c). */
#ifndef __GST_PIXELATE_H__
#define __GST_PIXELATE_H__

#include "gstvktilefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_PIXELATE (gst_pixelate_get_type ())
G_DECLARE_FINAL_TYPE (GstPixelate, gst_pixelate, GST, PIXELATE,
    GstVkTileFilter);

GST_ELEMENT_REGISTER_DECLARE (pixelate);

G_END_DECLS

#endif
