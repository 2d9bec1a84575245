/* vktgauss.h: gaussblur's math in plain C — the sampled Gaussian weights
 * (scipy.ndimage's definition), how the taps of one axis are laid over the
 * words of a row (zero taps in front so that every window starts on a word,
 * a tap count rounded up to whole steps), and the choice of the fused
 * shader's tile for a radius and a shared-memory budget. */
#ifndef __VKT_GAUSS_H__
#define __VKT_GAUSS_H__

#include <glib.h>

#include "gauss_interface.h"

G_BEGIN_DECLS

#define VKT_GAUSS_MAX_RADIUS GAUSS_MAX_RADIUS
/* Floats of the weights uniform, laid out as gauss_interface.h's GAUSS_U_*
 * say: half kernels w[0..r] of x, then of y. */
#define VKT_GAUSS_UNIFORM_FLOATS GAUSS_U_FLOATS

/* The radius of one axis: `radius` when set, else ceil(3 sigma). */
gint vkt_gauss_radius (gdouble sigma, guint radius);

/* half[j] = exp(-j^2 / (2 sigma^2)) for j = 0..radius, scaled so that the
 * whole kernel half[r] .. half[0] .. half[r] sums to 1: scipy.ndimage's
 * gaussian_filter1d weights with the same radius. */
void vkt_gauss_half_kernel (gdouble sigma, gint radius, gdouble * half);

/* The standard deviation that one axis's kernel (sigma, radius) leaves of
 * white noise of 1: the root of the sum of its squared weights. */
gdouble vkt_gauss_noise_gain (gdouble sigma, gint radius);

/* The weight one axis's kernel (sigma, radius) gives its centre sample. */
gdouble vkt_gauss_centre_weight (gdouble sigma, gint radius);

/* The taps of one axis as a shader steps through them: tap t = 0..taps-1
 * weighs the sample at offset t - front from the centre (zero weight where
 * |t - front| > radius); taps is a multiple of `step`. `front` >= radius is
 * the smallest with (shift - front) divisible by `align` (shift: source
 * minus target position in samples), so that a window of samples starts on
 * a word. */
typedef struct
{
  gint front, taps, steps;
} VktGaussTaps;

void vkt_gauss_taps (VktGaussTaps * taps, gint radius, gint shift, gint align,
    gint step);

/* The fused shader's tile: `lanes` x `rows` outputs per work-group of
 * VKT_GAUSS_GROUP invocations, each computing `block` rows of 4 lanes per
 * round; the tile's rows and the vertical halo of horizontally blurred rows
 * fit in shared_bytes. FALSE when not even 2 rows fit. */
typedef struct
{
  gint lanes, rows, block;
  gint halo_rows;               /* rows blurred beyond `rows`: the vertical taps */
} VktGaussTile;

#define VKT_GAUSS_GROUP GAUSS_FUSED_GROUP

gboolean vkt_gauss_fused_tile (VktGaussTile * tile, const VktGaussTaps * ytaps,
    gint lanes, guint shared_bytes);

G_END_DECLS

#endif
