#version 450
// tiledconv_shared.comp: the one-pass baseline of "Tiled Convolution" — a 16x16
// work-group stages its source tile, halo included, in shared memory with
// border checks, then every invocation computes one output word from it.
#extension GL_GOOGLE_include_directive : require
#include "tiledconv_common.glsl"

layout(local_size_x = TILEDCONV_BASE_GROUP, local_size_y = TILEDCONV_BASE_GROUP) in;

const int B = TILEDCONV_BASE_GROUP;         // the tile: B words x B rows
const int MAXR = TILEDCONV_MAX_RADIUS;
const int TILE_C = B * 4 + 2 * MAXR * 4;    // lanes per staged row, at most
const int TILE_R = B + 2 * MAXR;

shared float tile[TILE_R * TILE_C];

void main()
{
  int lanes = B * CPW + 2 * R * NCOMP;
  int rows = B + 2 * R;
  int shift = (pc.src_x - pc.dst_x) * NCOMP;
  int wx0 = pc.word_x0 + int(gl_WorkGroupID.x) * B;
  int c0 = wx0 * CPW + shift - R * NCOMP;            // source lane of tile column 0
  int r0 = pc.src_y + int(gl_WorkGroupID.y) * B - R; // source row of tile row 0

  for (int t = int(gl_LocalInvocationIndex); t < lanes * rows; t += B * B)
    tile[(t / lanes) * TILE_C + t % lanes] = load_source_checked(c0 + t % lanes, r0 + t / lanes);
  barrier();

  int gx = int(gl_GlobalInvocationID.x);
  int gy = int(gl_GlobalInvocationID.y);
  if (gx >= pc.grid_words || gy >= pc.height)
    return;
  int lx = int(gl_LocalInvocationID.x);
  int ly = int(gl_LocalInvocationID.y);
  vec4 v = vec4(0.0);
  [[unroll]] for (int l = 0; l < CPW; l++) {
    float s = 0.0;
    [[unroll]] for (int j = 0; j <= 2 * R; j++)
      [[unroll]] for (int i = 0; i <= 2 * R; i++)
        s += k2(j, i) * tile[(ly + j) * TILE_C + lx * CPW + l + i * NCOMP];
    v[l] = finish(s);
  }
  store_word(pc.word_x0 + gx, pc.dst_y + gy, v, true);
}
