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
  VKT_I32 (sure_base)      /* the plane's detail-risk sums, uints into the state */ \
  VKT_I32 (sure_slot)      /* the ring slot this frame adds to (0..2) */ \
  VKT_I32 (sure_prev)      /* 1: the slot before holds the last frame's sums */ \
  VKT_F32 (sure_c2)        /* 2 (1 - w0), w0 the blur's centre weight */ \
  VKT_I32 (report_index)   /* the plane's float in the report (binding 5) */ \
  VKT_I32 (reserved)

/* The state of a quad of 4 consecutive lanes of the target ROI: y and the
 * motion reference m. 8-bit formats: one vector of 16-bit values in units
 * of 1/DENOISE_STATE_UNITS code value (y of lanes 0-1, 2-3, m of lanes
 * 0-1, 2-3); other formats: two vectors of floats (y, then m). */
#define DENOISE_STATE_UNITS 256

/* The detail threshold D = sigma / t (SEMANTICS.md, denoise): Stein's
 * unbiased risk estimate of the detail put back, for each candidate t, from
 * sums over the sampled rows (ROI rows 1, 9, 17, ...), in units of
 * 1/DENOISE_SURE_UNITS: the clamped squared residual (t = 0), then for each
 * candidate t > 0 the squared residual kept out and the derivative of what
 * is put back, then the samples' count. A slot is the sums of one frame as
 * (low, high) 32-bit halves; a plane has a ring of 3 slots: a frame adds to
 * one, reads the one before and clears the one after. */
#define DENOISE_SURE_CANDIDATES 5   /* t = 0, 1/6, 1/4, 1/3, 1/2 */
#define DENOISE_SURE_SUMS (2 * DENOISE_SURE_CANDIDATES)
#define DENOISE_SURE_UNITS 256.0
#define DENOISE_SURE_CLAMP 8.0      /* residuals beyond 8 sigma count as 8 */
#define DENOISE_SURE_FIRST_T (1.0 / 3.0)
#define DENOISE_SURE_SLOT_UINTS (2 * DENOISE_SURE_SUMS)
#define DENOISE_SURE_UINTS 64       /* 3 slots, rounded up to whole vectors */
/* Shared memory of denoise.comp beside the fused tile's: a work-group's
 * sums. */
#define DENOISE_SHARED_BYTES (4 * DENOISE_SURE_SUMS)

/* The report the CPU reads back: the noise estimates of up to 4 planes
 * (the noise pass writes them), then each plane's t of the frame. */
#define DENOISE_REPORT_DETAIL 4
#define DENOISE_REPORT_FLOATS 8
#define DENOISE_QUAD_VEC4S(bpc) ((bpc) == 1 ? 1 : 2)

#endif
