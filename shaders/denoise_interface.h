/* denoise_interface.h: the interface of the denoise element's shader
 * (denoise.comp), included by plugin/gstdenoise.c and by the shader. The
 * spatial stage is gaussblur's fused tile, so the push constants, the
 * specialization ids and the weights uniform (binding 2) are
 * gauss_interface.h's; this adds the temporal parameters (binding 3, a
 * uniform of scalars, laid out alike by std140 and C) and the layout of
 * the state (binding 4). See vktile_interface.h for how one list serves
 * both sides. */
#ifndef DENOISE_INTERFACE_H
#define DENOISE_INTERFACE_H

#include "gauss_interface.h"

#define DENOISE_PARAM_FIELDS \
  VKT_F32 (alpha)          /* temporal-alpha; 0: the recursion restarts */ \
  VKT_F32 (motion)         /* T, code values; 0: a fixed weight; < 0: -motion times the estimate */ \
  VKT_F32 (detail)         /* sigma, D = sigma / t; 0: no detail kept; < 0: likewise */ \
  VKT_I32 (estimate_index) /* the plane's noise estimate, floats into the state */ \
  VKT_I32 (state_base)     /* the plane's first state vector (16 bytes) */ \
  VKT_I32 (state_stride)   /* quads (4 lanes) per state row */ \
  VKT_I32 (lane0)          /* the target lane of a state row's first quad */ \
  VKT_F32 (detail_t)       /* t of D = sigma / t; 0: nothing put back */ \
  VKT_I32 (sums_base)      /* summing frames: the plane's first word of the risk sums */

/* The state of a quad of 4 consecutive lanes of the target ROI: y and the
 * motion reference m. 8-bit formats: one vector of 16-bit values in units
 * of 1/DENOISE_STATE_UNITS code value (y of lanes 0-1, 2-3, m of lanes
 * 0-1, 2-3); other formats: two vectors of floats (y, then m). */
#define DENOISE_STATE_UNITS 256

/* Motion is judged on a quad with the quads beside it on its row, within
 * runs of DENOISE_MOTION_RUN quads counted from the state row's first:
 * the neighbouring invocations hold them, exchanged by subgroup shuffles,
 * so subgroups must hold whole runs (a fused tile row is 8 or 16 quads). */
#define DENOISE_MOTION_RUN 8

/* The detail threshold D = sigma / t (SEMANTICS.md, denoise) is chosen by
 * the element from Stein's unbiased risk estimate of the detail put back
 * for each candidate t, summed on the frames that sum (specialization
 * constant DENOISE_SPEC_SUMS) over the sampled rows (ROI rows 1, 9, 17,
 * ...) in units of 1/DENOISE_SURE_UNITS: the clamped squared residual (t =
 * 0), then for each candidate t > 0 the squared residual kept out and the
 * derivative of what is put back, then the samples' count. Each
 * work-group writes its DENOISE_SURE_SUMS sums (binding 5, host-visible)
 * at sums_base + its index times DENOISE_SURE_SUMS; a work-group samples
 * fewer than 2^14 values (its tile fits shared memory), 2^14 at most each,
 * so its sums fit 32 bits. */
#define DENOISE_SPEC_SUMS GAUSS_SPEC_SHADER
#define DENOISE_SURE_TS 0.0, 1.0 / 6.0, 0.25, 1.0 / 3.0, 0.5
#define DENOISE_SURE_CANDIDATES 5
#define DENOISE_SURE_SUMS (2 * DENOISE_SURE_CANDIDATES)
#define DENOISE_SURE_UNITS 256.0
#define DENOISE_SURE_CLAMP 8.0      /* residuals beyond 8 sigma count as 8 */
/* Shared memory of denoise.comp beside the fused tile's: a work-group's
 * risk sums. */
#define DENOISE_SHARED_BYTES (4 * DENOISE_SURE_SUMS)

#define DENOISE_QUAD_VEC4S(bpc) ((bpc) == 1 ? 1 : 2)

#endif
