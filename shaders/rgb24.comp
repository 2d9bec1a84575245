#version 450
// rgb24.comp: frames of 3-byte pixels (RGB, BGR) moved between their own
// layout and one of 4-byte pixels (RGBx, BGRx), in which the filters,
// whose pixels are 1, 2 or 4 lanes of a word, run. Widening: one
// invocation per pixel, the fourth byte 255. Narrowing: one invocation per
// output word; the bytes of a row's last word past its pixels keep what
// the output holds.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "rgb24_interface.h"

layout(local_size_x = RGB24_GROUP_X, local_size_y = RGB24_GROUP_Y) in;

layout(constant_id = RGB24_SPEC_NARROW) const bool NARROW = false;

layout(std430, set = 0, binding = 0) readonly buffer InWords { uint in_words[]; };
layout(std430, set = 0, binding = 1) buffer OutWords { uint out_words[]; };
layout(push_constant) uniform Rgb24Push { RGB24_PUSH_FIELDS } pc;

// The 3 bytes of pixel x of row y of the 3-byte input, low bytes first.
uint pixel3(int x, int y)
{
  int b = 3 * x;
  int row = pc.in_base + y * pc.in_stride;
  uint lo = in_words[row + (b >> 2)];
  int shift = 8 * (b & 3);
  if (shift <= 8)
    return (lo >> shift) & 0xffffffu;
  uint hi = in_words[row + (b >> 2) + 1];
  return ((lo >> shift) | (hi << (32 - shift))) & 0xffffffu;
}

void main()
{
  int i = int(gl_GlobalInvocationID.x);
  int y = int(gl_GlobalInvocationID.y);
  if (y >= pc.height)
    return;
  if (!NARROW) {
    if (i < pc.width)
      out_words[pc.out_base + y * pc.out_stride + i] = pixel3(i, y) | 0xff000000u;
    return;
  }
  int words = (3 * pc.width + 3) >> 2;
  if (i >= words)
    return;
  int in_row = pc.in_base + y * pc.in_stride;
  int out_at = pc.out_base + y * pc.out_stride + i;
  uint word = 0u;
  bool whole = 4 * i + 3 < 3 * pc.width;
  uint kept = whole ? 0u : out_words[out_at];
  [[unroll]] for (int k = 0; k < 4; k++) {
    int b = 4 * i + k;
    uint byte_k = b < 3 * pc.width
        ? (in_words[in_row + b / 3] >> (8 * (b % 3))) & 0xffu
        : (kept >> (8 * k)) & 0xffu;
    word |= byte_k << (8 * k);
  }
  out_words[out_at] = word;
}
