/* copy_rows_interface.h: the interface of copy_rows.comp, included by
 * lib/vktcompute.c and by the shader — the push constants, the work-group
 * size and the grid. See vktile_interface.h for how one list serves both. */
#ifndef COPY_ROWS_INTERFACE_H
#define COPY_ROWS_INTERFACE_H

#include "vktile_interface.h"

#define COPY_ROWS_PUSH_FIELDS \
  VKT_U32 (src_base)    /* units: 32-bit words, or 16-byte vectors */ \
  VKT_U32 (src_stride) \
  VKT_U32 (dst_base) \
  VKT_U32 (dst_stride) \
  VKT_U32 (row_words) \
  VKT_U32 (rows)

/* Specialization: 1 moves 16-byte vectors (everything 16-byte aligned),
 * which crosses the bus faster than 4-byte words. */
#define COPY_ROWS_SPEC_VEC4 0
#define COPY_ROWS_SPEC_COUNT 1

/* A work-group copies COPY_ROWS_GROUP_X x COPY_ROWS_WORDS words of each of
 * COPY_ROWS_GROUP_Y rows at a time (units of the specialization), a warp's
 * loads of a pass contiguous. */
#define COPY_ROWS_GROUP_X 64
#define COPY_ROWS_GROUP_Y 4
#define COPY_ROWS_WORDS 4
/* At most this many work-groups, each looping over its share. */
#define COPY_ROWS_MAX_GROUPS 1024
/* The work-groups of a frame's copy across the bus, all its planes
 * together: the bus, not the cores, limits such a copy, and a grid that
 * leaves room on the GPU lets the copy the other way run beside it in the
 * same submission (docs/BENCHMARKS.md, queue probe). */
#define COPY_ROWS_FRAME_GROUPS 512

#endif
