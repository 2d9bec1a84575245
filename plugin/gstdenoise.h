/* gstdenoise.h: the denoise element — live video denoising: a small
 * sampled Gaussian and motion-adaptive smoothing across frames in one pass
 * over each plane (see gstdenoise.c). */
#ifndef __GST_DENOISE_H__
#define __GST_DENOISE_H__

#include "gstvktilefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_DENOISE (gst_denoise_get_type ())
G_DECLARE_FINAL_TYPE (GstDenoise, gst_denoise, GST, DENOISE, GstVkTileFilter);

GST_ELEMENT_REGISTER_DECLARE (denoise);

G_END_DECLS

#endif
