/* rgb24_interface.h: what rgb24.comp and the base class share — the
 * push constants, specialization ids and work-group size of the shader
 * that widens frames of 3-byte pixels (RGB, BGR) into 4-byte ones before
 * the filter and narrows them back after it. Plain C and GLSL both read
 * it. */
#ifndef VKT_RGB24_INTERFACE_H
#define VKT_RGB24_INTERFACE_H

#include "vktile_interface.h"

#define RGB24_GROUP_X 64
#define RGB24_GROUP_Y 4

/* After the shared ids of vktile_interface.h, which this shader does not
 * use: 0 widens (3 bytes a pixel in, 4 out), 1 narrows. */
#define RGB24_SPEC_NARROW 5
#define RGB24_SPEC_COUNT 6

#define RGB24_PUSH_FIELDS \
  VKT_I32 (in_base)     /* words */ \
  VKT_I32 (in_stride)   /* words */ \
  VKT_I32 (out_base)    /* words */ \
  VKT_I32 (out_stride)  /* words */ \
  VKT_I32 (width)       /* pixels */ \
  VKT_I32 (height)

#endif
