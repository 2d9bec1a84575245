#version 450
// tiledconv_vpass.comp: second pass of the two-pass baseline — the vertical
// 1D filter over the intermediate rows, the border rule applied to row
// indices (a constant border row filters to border_value * sum(kx)).
#extension GL_GOOGLE_include_directive : require
#include "tiledconv_common.glsl"

layout(local_size_x = TILEDCONV_BASE_GROUP, local_size_y = TILEDCONV_BASE_GROUP) in;

layout(std430, set = 0, binding = 3) readonly buffer Intermediate { float hrows[]; };

void main()
{
  int gx = int(gl_GlobalInvocationID.x);
  int gy = int(gl_GlobalInvocationID.y);
  if (gx >= pc.grid_words || gy >= pc.height)
    return;
  float ksum = 0.0;
  for (int i = 0; i <= 2 * R; i++)
    ksum += kx(i);
  int row_lanes = pc.grid_words * CPW;
  vec4 v = vec4(0.0);
  [[unroll]] for (int l = 0; l < CPW; l++) {
    float s = 0.0;
    [[unroll]] for (int j = -R; j <= R; j++) {
      int r = border_index(gy + j, pc.height, pc.border);
      s += ky(j + R) * (r < 0 ? pc.border_value * ksum : hrows[r * row_lanes + gx * CPW + l]);
    }
    v[l] = finish(s);
  }
  store_word(pc.word_x0 + gx, pc.dst_y + gy, v, true);
}
