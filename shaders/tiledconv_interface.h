/* tiledconv_interface.h: the interface of the tiledconv shaders
 * (tiledconv_*.comp), included by plugin/gsttiledconv.c and
 * lib/vktkernel.h and by shaders/tiledconv_common.glsl — the push
 * constants, the specialization ids, the work-group and block sizes the
 * dispatches count in, and the layout of the weights uniform. See
 * vktile_interface.h for how one list serves both. */
#ifndef TILEDCONV_INTERFACE_H
#define TILEDCONV_INTERFACE_H

#include "vktile_interface.h"

#define TILEDCONV_PUSH_FIELDS \
  VKT_I32 (in_base)     /* first word of the input plane */ \
  VKT_I32 (in_stride)   /* words per input row */ \
  VKT_I32 (out_base) \
  VKT_I32 (out_stride) \
  VKT_I32 (src_x)       /* source ROI, pixels */ \
  VKT_I32 (src_y) \
  VKT_I32 (width)       /* ROI size, pixels (same for source and target) */ \
  VKT_I32 (height) \
  VKT_I32 (dst_x)       /* target ROI, pixels */ \
  VKT_I32 (dst_y) \
  VKT_I32 (word_x0)     /* first output word of the tile grid */ \
  VKT_I32 (src_word_delta) /* floor(((src_x - dst_x) * NCOMP - SHIFT) / CPW) */ \
  VKT_I32 (tiles_x)     /* tile grid */ \
  VKT_I32 (tiles_y) \
  VKT_I32 (free_x0)     /* free tiles: [free_x0, free_x1) x [free_y0, free_y1) */ \
  VKT_I32 (free_x1) \
  VKT_I32 (free_y0) \
  VKT_I32 (free_y1) \
  VKT_U32 (chan_mask)   /* bit c: component slot c of a pixel is filtered */ \
  VKT_I32 (border) \
  VKT_F32 (border_value) /* code values */ \
  VKT_F32 (scale) \
  VKT_F32 (bias)        /* code values */ \
  VKT_I32 (absolute) \
  VKT_I32 (grid_words)  /* output words per row of the grid (non-tiled algorithms) */

/* Specialization ids (after the shared ones of vktile_interface.h). The
 * baselines (naive, shared, hpass, vpass) take the first
 * TILEDCONV_SPEC_BASE_COUNT, tiledconv_tiled all. */
#define TILEDCONV_SPEC_R 5      /* kernel radius: 1, 2, 3 */
#define TILEDCONV_SPEC_SEPARABLE 6      /* kx/ky valid, else only K */
#define TILEDCONV_SPEC_FULL_MASK 7      /* every lane of the plane is filtered */
#define TILEDCONV_SPEC_BASE_COUNT 8
#define TILEDCONV_SPEC_FIRST_WORD 8     /* first source word of a block row, relative */
#define TILEDCONV_SPEC_LANE0 9  /* lane of the first needed component in it */
#define TILEDCONV_SPEC_NWORDS 10 /* source words per block row */
#define TILEDCONV_SPEC_BW 11    /* words per block row: TILEDCONV_BLOCK_LANES */
#define TILEDCONV_SPEC_CHECKED 12       /* the ring of border tiles */
#define TILEDCONV_SPEC_COUNT 13

#define TILEDCONV_MAX_RADIUS 3  /* kernels of 3x3, 5x5, 7x7 */

/* The baselines compute one output word per invocation in square
 * work-groups of this side, so their dispatches count words and rows in
 * it. */
#define TILEDCONV_BASE_GROUP 16

/* tiledconv_tiled: an invocation computes a block of BLOCK_LANES lanes x
 * BLOCK_ROWS rows ("Tiled Convolution"'s 4x4 block of GRAY8 pixels); a
 * work-group of GROUP_X x GROUP_Y of them (a group row is one warp, 128
 * contiguous bytes of a GRAY8 row) a tile of GROUP_X blocks x TILE_ROWS rows.
 */
#define TILEDCONV_BLOCK_LANES 4
#define TILEDCONV_BLOCK_ROWS 4
#define TILEDCONV_GROUP_X 32
#define TILEDCONV_GROUP_Y 8
#define TILEDCONV_TILE_ROWS (TILEDCONV_GROUP_Y * TILEDCONV_BLOCK_ROWS)
#define TILEDCONV_MAX_SRC_LANES 32      /* source lanes of a block row, at most */
/* Floats of each of its two shared arrays of horizontally filtered rows
 * (the R rows above and below a block row) at radius r; the C side falls
 * back to the shared baseline where the device has less. */
#define TILEDCONV_HALO_FLOATS(r) \
  (TILEDCONV_GROUP_Y * (r) * TILEDCONV_BLOCK_LANES * TILEDCONV_GROUP_X)

/* The weights uniform (binding 2, std140, vec4 rows), offsets in floats:
 * the separable factors, 2R + 1 taps each, and the 2D kernel K row-major,
 * 2R + 1 squared. */
#define TILEDCONV_U_KX 0
#define TILEDCONV_U_KY 8
#define TILEDCONV_U_K 16
#define TILEDCONV_U_FLOATS 68   /* 17 vec4s */

#endif
