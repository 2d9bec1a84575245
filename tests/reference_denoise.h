/* vktile tests — CPU reference of denoise.
 *
 * The double-precision definition (docs/SEMANTICS.md, denoise) the tests
 * compare the element against, sharing no code with plugin/: each selected
 * component of the source ROI is blurred by gaussblur's sampled Gaussian
 * (reference_gauss.c, every border rule), then smoothed across frames by
 * recursivefilter's temporal stage (reference_iir.c's ref_temporal_stage,
 * the noise estimate every NOISE_INTERVAL frames), rounded to nearest and
 * clamped. The element's state keeps 8-bit formats' values to 1/256 code
 * value; this reference keeps doubles: the difference stays far below the
 * tolerance of a code value (SEMANTICS.md bounds it).
 */
#ifndef VKTILE_TESTS_REFERENCE_DENOISE_H
#define VKTILE_TESTS_REFERENCE_DENOISE_H

#include "reference.h"
#include "reference_iir.h"

G_BEGIN_DECLS

/* The noise estimate runs on the frame the recursion starts, on the next,
 * and then on every 4th. */
#define REF_DENOISE_NOISE_INTERVAL 4

/* The detail threshold's risk is summed on the third frame of a run that
 * keeps detail and then on every 4th; each of those after the first takes
 * its t from the one before. */
#define REF_DENOISE_DETAIL_INTERVAL 4
#define REF_DENOISE_DETAIL_PHASE 2

typedef struct
{
  RefConv common;               /* border, border_value, roi_*, source_*,
                                 * planes, ties_down */
  gdouble sigma;
  gdouble temporal_alpha;       /* 0: the blur alone */
  gboolean motion_adaptive;     /* temporal-mode */
  gdouble noise_sigma;          /* 0 with motion_adaptive: estimated */
  gboolean keep_detail;
} RefDenoise;

/* The element's defaults: sigma 0.8, temporal-alpha 0.8, motion-adaptive,
 * noise estimated, keep-detail, clamp, full frame, all planes. */
void ref_denoise_init (RefDenoise * p);

/* out = denoise(in), advancing t (NULL: no recursion, every frame a
 * first). Both frames mapped with the same format and size. */
void ref_denoise_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefDenoise * p, RefIirTemporal * t);

gchar *ref_denoise_describe (const RefDenoise * p);

G_END_DECLS

#endif
