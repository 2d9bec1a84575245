/* vktsure.h: denoise's detail threshold in plain C — the choice of t (D =
 * sigma / t) among candidates by Stein's unbiased risk estimate, from the
 * integer risk sums the shader adds up (denoise_interface.h). */
#ifndef __VKT_SURE_H__
#define __VKT_SURE_H__

#include <glib.h>

G_BEGIN_DECLS

/* t from the sums of n candidates ts[0] = 0 < ts[1] < ... (2 n of them:
 * the squared residual, then for each t > 0 the residual kept out, then
 * for each t > 0 the derivative of what is put back, then the samples'
 * count), c2 = 2 (1 - w0) for w0 the blur's centre weight: the vertex of
 * the parabola through the risks of the candidate with the least risk and
 * its neighbours (the two after the first, the two before the last); where
 * that parabola has no minimum, whichever of its outer two candidates has
 * the smaller risk. `none` where nothing was sampled. */
gdouble vkt_sure_choose (const gdouble * ts, guint n, const guint64 * sums,
    gdouble c2, gdouble none);

G_END_DECLS

#endif
