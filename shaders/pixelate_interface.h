/* pixelate_interface.h: the interface of pixelate.comp, included by
 * plugin/gstpixelate.c and by the shader — the push constants, the
 * specialization ids, the work-group sizes the dispatches count in and
 * the largest block. See vktile_interface.h for how one list serves
 * both. */
#ifndef PIXELATE_INTERFACE_H
#define PIXELATE_INTERFACE_H

#include "vktile_interface.h"

#define PIXELATE_PUSH_FIELDS \
  VKT_I32 (in_base)     /* words */ \
  VKT_I32 (in_stride) \
  VKT_I32 (out_base) \
  VKT_I32 (out_stride) \
  VKT_I32 (src_x)       /* source ROI, samples of the plane */ \
  VKT_I32 (src_y) \
  VKT_I32 (width)       /* ROI size, samples of the plane */ \
  VKT_I32 (height) \
  VKT_I32 (dst_x)       /* target ROI, samples of the plane */ \
  VKT_I32 (dst_y) \
  VKT_U32 (chan_mask)   /* bit c: component slot c of a pixel is pixelated */ \
  VKT_I32 (block_w)     /* a block, samples of the plane */ \
  VKT_I32 (block_h) \
  VKT_I32 (blocks_x)    /* blocks per row of the ROI */ \
  VKT_I32 (word_x0)     /* first output word the ROI touches */

/* Specialization ids (after the shared ones of vktile_interface.h). */
#define PIXELATE_SPEC_PASS 5    /* 0: each block's mean; 1: the output */
#define PIXELATE_SPEC_GROUP_X 6 /* the pass's work-group size */
#define PIXELATE_SPEC_GROUP_Y 7
#define PIXELATE_SPEC_COUNT 8

#define PIXELATE_PASS_MEANS 0
#define PIXELATE_PASS_WRITE 1

/* The means pass runs a work-group per block; the write pass covers the
 * ROI's words in tiles of GROUP_X words x GROUP_Y rows. */
#define PIXELATE_MEANS_GROUP 64
#define PIXELATE_WRITE_GROUP_X 64
#define PIXELATE_WRITE_GROUP_Y 4

/* A block's sum of 16-bit codes stays inside 32 bits, doubled for the
 * rounding: 2 x 128 x 128 x 65535 < 2^32. */
#define PIXELATE_MAX_BLOCK 128

/* The scratch holds a uvec4 of means (one per component slot) a block. */
#define PIXELATE_MEAN_WORDS 4

#endif
