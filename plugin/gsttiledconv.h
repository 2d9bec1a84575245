/* gsttiledconv.h: the tiledconv element — small 2D convolutions with the
 * tiled algorithm of "Tiled Convolution" and its baselines. */
#ifndef __GST_TILEDCONV_H__
#define __GST_TILEDCONV_H__

#include "gstvktilefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_TILEDCONV (gst_tiledconv_get_type ())
G_DECLARE_FINAL_TYPE (GstTiledconv, gst_tiledconv, GST, TILEDCONV,
    GstVkTileFilter);

GST_ELEMENT_REGISTER_DECLARE (tiledconv);

G_END_DECLS

#endif
