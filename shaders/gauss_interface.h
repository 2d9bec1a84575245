/* gauss_interface.h: the interface of gaussblur's shaders (gauss_*.comp),
 * included by plugin/gstgaussblur.c and lib/vktgauss.h and by
 * shaders/gauss_common.glsl — the push constants, the specialization ids,
 * the step of the vertical taps, the work-group sizes the dispatches count
 * in and the layout of the weights uniform. See vktile_interface.h for how
 * one list serves both. */
#ifndef GAUSS_INTERFACE_H
#define GAUSS_INTERFACE_H

#include "vktile_interface.h"

#define GAUSS_PUSH_FIELDS \
  VKT_I32 (in_base)     /* words */ \
  VKT_I32 (in_stride) \
  VKT_I32 (out_base) \
  VKT_I32 (out_stride) \
  VKT_I32 (src_x)       /* source ROI, pixels */ \
  VKT_I32 (src_y) \
  VKT_I32 (width)       /* ROI size, pixels */ \
  VKT_I32 (height) \
  VKT_I32 (dst_x)       /* target ROI, pixels */ \
  VKT_I32 (dst_y) \
  VKT_I32 (word_x0)     /* first output word of the grid */ \
  VKT_I32 (grid_words)  /* output words per row of the grid */ \
  VKT_I32 (tiles_x)     /* fused: the tile grid and its free rectangle */ \
  VKT_I32 (tiles_y) \
  VKT_I32 (free_x0) \
  VKT_I32 (free_x1) \
  VKT_I32 (free_y0) \
  VKT_I32 (free_y1) \
  VKT_I32 (border) \
  VKT_U32 (chan_mask)   /* bit c: component slot c of a pixel is filtered */ \
  VKT_F32 (border_value) /* code values */ \
  VKT_F32 (amount)      /* unsharp mask */ \
  VKT_I32 (rx)          /* radii */ \
  VKT_I32 (ry) \
  VKT_I32 (hfront)      /* horizontal tap t weighs offset t - hfront */ \
  VKT_I32 (hsteps)      /* horizontal steps of G taps */ \
  VKT_I32 (hword_delta) /* first window word minus the first output word of a block */ \
  VKT_I32 (vsteps)      /* vertical steps of GAUSS_VSTEP taps; tap t weighs offset t - ry */ \
  VKT_I32 (tile_rows)   /* fused: output rows of a tile */ \
  VKT_I32 (tmp_stride)  /* two-pass: floats per intermediate row */

/* Specialization ids (after the shared ones of vktile_interface.h). */
#define GAUSS_SPEC_FULL_MASK 5  /* every lane of the plane is filtered */
#define GAUSS_SPEC_S 6          /* words of a horizontal block */
#define GAUSS_SPEC_UNSHARP 7    /* out = in + amount (in - blur) */
#define GAUSS_SPEC_K 8          /* rows of a vertical block */
#define GAUSS_SPEC_TW 9         /* gauss_fused: lanes of a tile row */
#define GAUSS_SPEC_SH_ROWS 10    /* gauss_fused: rows shared memory holds */
#define GAUSS_SPEC_FIXED_RX 11  /* a radius compiled in, 0: push constants */
#define GAUSS_SPEC_FIXED_HFRONT 12
#define GAUSS_SPEC_FIXED_HSTEPS 13
#define GAUSS_SPEC_FIXED_RY 14
#define GAUSS_SPEC_FIXED_VSTEPS 15
#define GAUSS_SPEC_SHADER 16    /* gauss_fused: the including shader's own */
#define GAUSS_SPEC_COUNT 17

#define GAUSS_VSTEP 4           /* vertical taps per step */
#define GAUSS_PASS_ROWS 8       /* gauss_vpass: its K, rows per invocation */

/* Work-group sizes. gauss_fused spreads a tile over its invocations (a
 * tile row's 4-lane columns must divide it); the two-pass shaders take one
 * block per invocation, so their dispatches count blocks in these. */
#define GAUSS_FUSED_GROUP 256
#define GAUSS_PASS_GROUP_X 64
#define GAUSS_PASS_GROUP_Y 4

/* The weights uniform (binding 2, std140, vec4 rows), offsets in floats:
 * the half kernels w[0..r] of x and of y, each in room for the largest
 * radius rounded up to whole vec4s. */
#define GAUSS_MAX_RADIUS 1024
#define GAUSS_HALF (GAUSS_MAX_RADIUS + 4)
#define GAUSS_U_X 0
#define GAUSS_U_Y GAUSS_HALF
#define GAUSS_U_FLOATS (2 * GAUSS_HALF)

#endif
