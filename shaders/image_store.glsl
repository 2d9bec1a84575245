// image_store.glsl: rows of a storage buffer written into a storage image
// (memory:VulkanImage) of 8-bit unsigned normalized components, one texel
// per invocation, by the shader cores rather than vkCmdCopyBufferToImage.
// The including .comp defines IMAGE_FORMAT (the image's format qualifier)
// and TEXEL_BYTES (1, 2 or 4) for one image format each: GLSL fixes a
// storage image's format where it is declared.
#include "image_rows_interface.h"

layout(local_size_x = IMAGE_ROWS_GROUP_X, local_size_y = IMAGE_ROWS_GROUP_Y) in;

layout(std430, set = 0, binding = 0) readonly buffer InWords { uint in_words[]; };
layout(set = 0, binding = 1, IMAGE_FORMAT) writeonly uniform image2D image;
layout(push_constant) uniform ImageRowsPush { IMAGE_ROWS_PUSH_FIELDS } pc;

void main()
{
  int x = int(gl_GlobalInvocationID.x);
  int y = int(gl_GlobalInvocationID.y);
  if (x >= pc.width || y >= pc.height)
    return;
  int b = x * TEXEL_BYTES;
  uint word = in_words[pc.buf_base + y * pc.buf_stride + (b >> 2)];
  uint bits = TEXEL_BYTES == 4 ? word : word >> (8 * (b & 3));
  vec4 v = vec4(float(bits & 0xffu), float((bits >> 8) & 0xffu),
                float((bits >> 16) & 0xffu), float(bits >> 24)) / 255.0;
  imageStore(image, ivec2(x, y), v);
}
