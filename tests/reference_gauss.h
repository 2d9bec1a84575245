/* vktile tests — CPU reference of gaussblur.
 *
 * The double-precision definition the tests compare the element against,
 * written from docs/SEMANTICS.md and the element's interface only (no code
 * shared with plugin/):
 *
 * - weights per axis: w[j] = exp(-j^2 / (2 sigma^2)), j = -r..r, normalised
 *   to sum 1 (scipy.ndimage.gaussian_filter1d's weights for that radius);
 *   r = `radius`, or ceil(3 sigma) of that axis when `radius` is 0;
 * - each selected component of the source ROI, extended by the border rule
 *   (reference.c's ref_border_map: scipy's nearest, mirror, reflect, wrap,
 *   constant with cval = border-value * max), is filtered along x, then the
 *   result (extended the same way) along y;
 * - `algorithm=recursive` replaces the sampled weights by van Vliet, Young
 *   and Verbeek's recursive Gaussian (reference_iir.c) on each axis (x with
 *   sigma, y with sigma-y), exactly as recursivefilter filter=gaussian does;
 *   the element runs it for clamp and constant borders and sigmas of at
 *   least 0.5 only, else two-pass, and so does this reference;
 * - unsharp masking: out = in + amount (in - blur), in = the source pixel at
 *   the same position; round to nearest, clamp to the format's range.
 *
 * ROI, planes, border, border-value and the rounding of ties reuse RefConv
 * (reference.h): only its border, border_value, roi_*, source_*, planes and
 * ties_down fields are used here.
 */
#ifndef VKTILE_TESTS_REFERENCE_GAUSS_H
#define VKTILE_TESTS_REFERENCE_GAUSS_H

#include <gst/video/video.h>

#include "reference.h"

G_BEGIN_DECLS

/* Everything that determines gaussblur's output, in the units of the
 * element's properties. */
typedef struct
{
  RefConv common;               /* border, border_value, roi_*, source_*,
                                 * planes, ties_down */
  gdouble sigma;                /* along x (and y unless sigma_y > 0) */
  gdouble sigma_y;              /* <= 0: same as sigma */
  guint radius;                 /* 0: ceil(3 sigma) per axis */
  gdouble amount;               /* unsharp masking, 0: plain blur */
  gboolean recursive;           /* algorithm=recursive */

  /* Not properties: deliberately WRONG variants of the definition, used
   * only by the self-tests to show that the comparison can fail.
   * wrong_unsharp_target: the unsharp mask takes `in` at the target
   * position instead of the source position. wrong_short_radius: the
   * default radius is ceil(2 sigma) instead of ceil(3 sigma). */
  gboolean wrong_unsharp_target;
  gboolean wrong_short_radius;
} RefGauss;

/* The element's defaults: sigma 2, sigma-y -1, radius 0, amount 0, auto
 * (exact), clamp, full frame, all planes. */
void ref_gauss_init (RefGauss * p);

/* sigma along y as the element uses it. */
gdouble ref_gauss_sigma_y (const RefGauss * p);

/* The radius of one axis: radius, or ceil(3 sigma) when radius is 0. */
gint ref_gauss_axis_radius (gdouble sigma, guint radius);

/* w[0..2r]: the normalised sampled Gaussian of sigma, taps -r..r. */
void ref_gauss_weights (gdouble sigma, gint r, gdouble * w);

/* TRUE when p is computed with the recursive Gaussian (recursive, clamp or
 * constant, both sigmas >= 0.5), FALSE when with sampled weights. */
gboolean ref_gauss_is_recursive (const RefGauss * p);

/* One line of n values (stride `is` between them) correlated with the 2r+1
 * weights w, extended by border b (cval for constant); out has stride os
 * and may not alias in. */
void ref_gauss_line (const gdouble * w, gint r, const gdouble * in, gint n,
    gint is, RefBorder b, gdouble cval, gdouble * out, gint os);

/* The blur (no unsharp mask) of p on a w x h image of doubles, row-major;
 * cval: the constant border's value in code values. out may not alias in. */
void ref_gauss_image (const RefGauss * p, const gdouble * in, gint w, gint h,
    gdouble cval, gdouble * out);

/* out = gaussblur(in). Both frames mapped with the same format and size;
 * strides may differ. */
void ref_gauss_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefGauss * p);

/* A one-line description of p for failure messages; g_free() it. */
gchar *ref_gauss_describe (const RefGauss * p);

G_END_DECLS

#endif /* VKTILE_TESTS_REFERENCE_GAUSS_H */
