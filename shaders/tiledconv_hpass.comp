#version 450
// tiledconv_hpass.comp: first pass of the two-pass baseline ("Tiled
// Convolution", "Blurring at the Speed of Light") — the horizontal 1D filter
// of every source ROI row into an fp32 intermediate laid out like the output
// word grid.
#extension GL_GOOGLE_include_directive : require
#include "tiledconv_common.glsl"

layout(local_size_x = TILEDCONV_BASE_GROUP, local_size_y = TILEDCONV_BASE_GROUP) in;

layout(std430, set = 0, binding = 3) writeonly buffer Intermediate { float hrows[]; };

void main()
{
  int gx = int(gl_GlobalInvocationID.x);
  int gy = int(gl_GlobalInvocationID.y);
  if (gx >= pc.grid_words || gy >= pc.height)
    return;
  int shift = (pc.src_x - pc.dst_x) * NCOMP;
  [[unroll]] for (int l = 0; l < CPW; l++) {
    int c = (pc.word_x0 + gx) * CPW + l + shift;
    float s = 0.0;
    [[unroll]] for (int i = -R; i <= R; i++)
      s += kx(i + R) * load_source_checked(c + i * NCOMP, pc.src_y + gy);
    hrows[gy * pc.grid_words * CPW + gx * CPW + l] = s;
  }
}
