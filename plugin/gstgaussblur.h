/* gstgaussblur.h: the gaussblur element (see gstgaussblur.c). */
#ifndef __GST_GAUSSBLUR_H__
#define __GST_GAUSSBLUR_H__

#include "gstvktilefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_GAUSSBLUR (gst_gaussblur_get_type ())
G_DECLARE_FINAL_TYPE (GstGaussblur, gst_gaussblur, GST, GAUSSBLUR,
    GstVkTileFilter);

GST_ELEMENT_REGISTER_DECLARE (gaussblur);

G_END_DECLS

#endif
