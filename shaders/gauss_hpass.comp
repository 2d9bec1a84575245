#version 450
// gauss_hpass.comp: first pass of gaussblur's two-pass baseline ("Blurring at
// the Speed of Light") — the horizontal blur of every source ROI row into an
// fp32 intermediate laid out like the target's word grid, S words per
// invocation.
#extension GL_GOOGLE_include_directive : require
#include "gauss_common.glsl"

layout(local_size_x = GAUSS_PASS_GROUP_X, local_size_y = GAUSS_PASS_GROUP_Y) in;

layout(std430, set = 0, binding = 3) writeonly buffer Intermediate { vec4 tmp4[]; };

vec4 vrow(int r) { return vec4(0.0); }

void main()
{
  int b = int(gl_GlobalInvocationID.x);
  int y = int(gl_GlobalInvocationID.y);
  if (b * S >= pc.grid_words || y >= pc.height)
    return;
  int w = pc.word_x0 + b * S;
  float h[L];
  if (hblur_inside(w))
    hblur(w, pc.src_y + y, false, h);
  else
    hblur(w, pc.src_y + y, true, h);
  // Whole vec4s: a warp's stores then cover its row segment in full lines.
  int base = (y * pc.tmp_stride + b * L) >> 2;
  [[unroll]] for (int v = 0; v < L / 4; v++)
    tmp4[base + v] = vec4(h[4 * v], h[4 * v + 1], h[4 * v + 2], h[4 * v + 3]);
}
