#version 450
// gauss_vpass.comp: second pass of gaussblur's two-pass baseline ("Blurring at
// the Speed of Light") — the vertical blur of the intermediate's columns, K
// rows of 4 lanes per invocation, the border rule applied to row indices (a
// row of the constant border blurs horizontally to the constant), and the
// packed write with the unsharp mask when asked.
#extension GL_GOOGLE_include_directive : require
#include "gauss_common.glsl"

layout(local_size_x = GAUSS_PASS_GROUP_X, local_size_y = GAUSS_PASS_GROUP_Y) in;

layout(std430, set = 0, binding = 3) readonly buffer Intermediate { vec4 tmp4[]; };

int g_col;

// Intermediate rows are ROI rows; vrow(r) is ROI row r - ry.
vec4 vrow(int r)
{
  int m = border_index(r - ry(), pc.height, pc.border);
  return m < 0 ? vec4(pc.border_value) : tmp4[m * (pc.tmp_stride >> 2) + g_col];
}

void main()
{
  g_col = int(gl_GlobalInvocationID.x);
  int r0 = int(gl_GlobalInvocationID.y) * K;
  if (g_col * 4 >= pc.grid_words * CPW || r0 >= pc.height)
    return;
  vec4 acc[K];
  vblur(r0, acc);
  int c0 = pc.word_x0 * CPW + g_col * 4;
  [[unroll]] for (int o = 0; o < K; o++)
    store_vec4(c0, pc.dst_y + r0 + o, acc[o], true);
}
