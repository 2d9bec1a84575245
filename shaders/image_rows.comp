#version 450
// image_rows.comp: a plane of a sampled image (memory:VulkanImage, 8-bit
// unsigned normalized components) copied into the rows of a storage
// buffer, as vkCmdCopyImageToBuffer would lay them out, by the shader
// cores: a transfer command between an optimally tiled image and a buffer
// costs several times a buffer copy on some GPUs. Each invocation writes
// one word of a row.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_samplerless_texture_functions : require
#extension GL_EXT_control_flow_attributes : require
#include "image_rows_interface.h"

layout(local_size_x = IMAGE_ROWS_GROUP_X, local_size_y = IMAGE_ROWS_GROUP_Y) in;

layout(constant_id = IMAGE_ROWS_SPEC_TEXEL_BYTES) const int TEXEL_BYTES = 4;
layout(constant_id = IMAGE_ROWS_SPEC_BGRA) const bool BGRA = false;

layout(set = 0, binding = 0) uniform texture2D image;
layout(std430, set = 0, binding = 1) writeonly buffer OutWords { uint out_words[]; };
layout(push_constant) uniform ImageRowsPush { IMAGE_ROWS_PUSH_FIELDS } pc;

// The bytes of texel x of row y in memory order, as the low bytes of a
// word (texels past the row's end: 0).
uint texel_bytes(int x, int y)
{
  if (x >= pc.width)
    return 0u;
  vec4 v = texelFetch(image, ivec2(x, y), 0);
  if (BGRA)
    v = v.bgra;
  uvec4 b = uvec4(round(clamp(v, 0.0, 1.0) * 255.0));
  return b.x | (b.y << 8) | (b.z << 16) | (b.w << 24);
}

void main()
{
  int w = int(gl_GlobalInvocationID.x);
  int y = int(gl_GlobalInvocationID.y);
  if (w >= pc.row_words || y >= pc.height)
    return;
  const int PER_WORD = 4 / TEXEL_BYTES;
  const uint MASK = TEXEL_BYTES == 4 ? 0xffffffffu : (1u << (8 * TEXEL_BYTES)) - 1u;
  uint word = 0u;
  [[unroll]] for (int t = 0; t < PER_WORD; t++)
    word |= (texel_bytes(w * PER_WORD + t, y) & MASK) << (8 * TEXEL_BYTES * t);
  out_words[pc.buf_base + y * pc.buf_stride + w] = word;
}
