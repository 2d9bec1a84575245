#version 450
// tiledconv_naive.comp: the baseline of "Tiled Convolution" — one output word
// per invocation, every tap of the 2D kernel read from memory through the
// border-checked load.
#extension GL_GOOGLE_include_directive : require
#include "tiledconv_common.glsl"

layout(local_size_x = TILEDCONV_BASE_GROUP, local_size_y = TILEDCONV_BASE_GROUP) in;

void main()
{
  int gx = int(gl_GlobalInvocationID.x);
  int gy = int(gl_GlobalInvocationID.y);
  if (gx >= pc.grid_words || gy >= pc.height)
    return;
  int wx = pc.word_x0 + gx;
  int row = pc.dst_y + gy;
  int shift = (pc.src_x - pc.dst_x) * NCOMP;
  vec4 v = vec4(0.0);
  [[unroll]] for (int l = 0; l < CPW; l++) {
    int c = wx * CPW + l + shift;
    float s = 0.0;
    [[unroll]] for (int j = -R; j <= R; j++)
      [[unroll]] for (int i = -R; i <= R; i++)
        s += k2(j + R, i + R) * load_source_checked(c + i * NCOMP, pc.src_y + gy + j);
    v[l] = finish(s);
  }
  store_word(wx, row, v, true);
}
