#version 450
// copy_rows.comp: rows of 32-bit words from one buffer to another, each
// side at its own offset and stride — a frame's planes across the bus, into
// the working layout or out of it. A compute shader with a narrow grid
// rather than vkCmdCopyBuffer: one frame's upload and the previous frame's
// download, dispatched in one submission without a barrier between them,
// cross the bus at the same time, which transfer commands on the one queue
// do not.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "copy_rows_interface.h"

layout(local_size_x = COPY_ROWS_GROUP_X, local_size_y = COPY_ROWS_GROUP_Y) in;

layout(constant_id = COPY_ROWS_SPEC_VEC4) const bool VEC4 = false;

// Two views of each buffer; the specialization picks one.
layout(std430, set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, set = 0, binding = 0) readonly buffer Src4 { uvec4 src4[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst4 { uvec4 dst4[]; };
layout(push_constant) uniform CopyRowsPush { COPY_ROWS_PUSH_FIELDS } pc;

void main()
{
  const uint span = COPY_ROWS_GROUP_X * COPY_ROWS_WORDS;
  for (uint row = gl_GlobalInvocationID.y; row < pc.rows;
       row += gl_NumWorkGroups.y * COPY_ROWS_GROUP_Y) {
    uint s = pc.src_base + row * pc.src_stride;
    uint d = pc.dst_base + row * pc.dst_stride;
    for (uint first = gl_WorkGroupID.x * span + gl_LocalInvocationID.x;
         first < pc.row_words; first += gl_NumWorkGroups.x * span) {
      [[unroll]] for (uint k = 0u; k < COPY_ROWS_WORDS; k++) {
        uint w = first + k * COPY_ROWS_GROUP_X;
        if (w < pc.row_words) {
          if (VEC4)
            dst4[d + w] = src4[s + w];
          else
            dst[d + w] = src[s + w];
        }
      }
    }
  }
}
