/* gstrecursivefilter.h: the recursivefilter element — IIR filters (Gaussian,
 * exponential, box, custom) computed with the tiled scans of "Compiling High
 * Performance Recursive Filters", and temporal smoothing for live denoising.
 */
#ifndef __GST_RECURSIVEFILTER_H__
#define __GST_RECURSIVEFILTER_H__

#include "gstvktilefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_RECURSIVEFILTER (gst_recursivefilter_get_type ())
G_DECLARE_FINAL_TYPE (GstRecursivefilter, gst_recursivefilter, GST,
    RECURSIVEFILTER, GstVkTileFilter);

GST_ELEMENT_REGISTER_DECLARE (recursivefilter);

G_END_DECLS

#endif
