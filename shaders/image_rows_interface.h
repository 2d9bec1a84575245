/* image_rows_interface.h: what image_rows.comp and lib/vktimage.c share —
 * the push constants, the specialization ids and the work-group size of
 * the shaders that copy a plane of an image into the rows of a storage
 * buffer (image_rows.comp) and back (image_store.glsl). Plain C and GLSL
 * both read it. */
#ifndef VKT_IMAGE_ROWS_INTERFACE_H
#define VKT_IMAGE_ROWS_INTERFACE_H

#include "vktile_interface.h"

#define IMAGE_ROWS_GROUP_X 64
#define IMAGE_ROWS_GROUP_Y 4

/* Specialization ids (after the shared ones of vktile_interface.h, which
 * this shader does not use). Bytes per texel of the image: 1, 2 or 4
 * (8-bit components); whether its components in memory order are b, g,
 * r, a (B8G8R8A8). */
#define IMAGE_ROWS_SPEC_TEXEL_BYTES 5
#define IMAGE_ROWS_SPEC_BGRA 6
#define IMAGE_ROWS_SPEC_COUNT 7

#define IMAGE_ROWS_PUSH_FIELDS \
  VKT_I32 (buf_base)    /* the buffer's rows: words */ \
  VKT_I32 (buf_stride)  /* words */ \
  VKT_I32 (row_words)   /* words of a buffer row */ \
  VKT_I32 (width)       /* texels of the image's row */ \
  VKT_I32 (height)

#endif
