#version 450
// pixelate.comp: mosaic — each block of the target ROI replaced by the mean
// of the same block of the source ROI (docs/SEMANTICS.md, "pixelate").
// Pass PIXELATE_PASS_MEANS runs a work-group per block and writes the
// block's rounded means to the scratch buffer; PIXELATE_PASS_WRITE writes
// every word of the target ROI from them. Sums are integers: the means are
// exact.
#extension GL_GOOGLE_include_directive : require
#include "vktile.glsl"
#include "pixelate_interface.h"

layout(constant_id = PIXELATE_SPEC_PASS) const int PASS = PIXELATE_PASS_MEANS;

layout(local_size_x_id = PIXELATE_SPEC_GROUP_X, local_size_y_id = PIXELATE_SPEC_GROUP_Y) in;

layout(std430, set = 0, binding = 2) buffer Means { uvec4 means[]; };
layout(push_constant) uniform PixelatePush { PIXELATE_PUSH_FIELDS } pc;

shared uvec4 partial[PIXELATE_MEANS_GROUP];

void block_means()
{
  int bx = int(gl_WorkGroupID.x), by = int(gl_WorkGroupID.y);
  int x0 = bx * pc.block_w, y0 = by * pc.block_h;
  int w = min(pc.block_w, pc.width - x0);
  int h = min(pc.block_h, pc.height - y0);
  int n = w * h;
  uint t = gl_LocalInvocationID.x;
  uvec4 sum = uvec4(0u);

  for (int k = int(t); k < n; k += PIXELATE_MEANS_GROUP) {
    int x = pc.src_x + x0 + k % w;
    int row = pc.src_y + y0 + k / w;
    [[unroll]] for (int c = 0; c < NCOMP; c++) {
      int lane = x * NCOMP + c;
      sum[c] += lane_code(in_words[pc.in_base + row * pc.in_stride + lane / CPW],
                          lane % CPW);
    }
  }
  partial[t] = sum;
  barrier();
  for (uint s = PIXELATE_MEANS_GROUP / 2; s > 0u; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    barrier();
  }
  // Rounded to nearest, halves up: floor(sum / n + 1/2).
  if (t == 0u)
    means[by * pc.blocks_x + bx] = (2u * partial[0] + uint(n)) / (2u * uint(n));
}

void write_output()
{
  int gx = int(gl_GlobalInvocationID.x), gy = int(gl_GlobalInvocationID.y);
  int words = ((pc.dst_x + pc.width) * NCOMP + CPW - 1) / CPW - pc.word_x0;
  if (gx >= words || gy >= pc.height)
    return;
  int wx = pc.word_x0 + gx;
  int row = pc.dst_y + gy;
  int block_row = (gy / pc.block_h) * pc.blocks_x;
  vec4 v = vec4(0.0);
  [[unroll]] for (int l = 0; l < CPW; l++) {
    int c = wx * CPW + l;
    int x = clamp((c >> LOG2_NCOMP) - pc.dst_x, 0, pc.width - 1);
    v[l] = float(means[block_row + x / pc.block_w][c & (NCOMP - 1)]);
  }
  store_lanes(wx, row, v, true, false, pc.chan_mask,
              ivec4(pc.in_base, pc.in_stride, pc.out_base, pc.out_stride),
              ivec4(pc.dst_x * NCOMP, (pc.dst_x + pc.width) * NCOMP, pc.dst_y,
                    pc.dst_y + pc.height));
}

void main()
{
  if (PASS == PIXELATE_PASS_MEANS)
    block_means();
  else
    write_output();
}
