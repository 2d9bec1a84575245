#version 450
// tiledconv_tiled.comp: the tiled convolution of "Tiled Convolution". A
// work-group of 32x8 invocations covers a tile of 32*BW words x 32 rows of the
// target (a warp spans 128 contiguous bytes of a row, which NVIDIA's memory
// system wants; the text's 8x8 groups suit AMD's 64-wide wavefronts); each
// invocation computes a block of BW words (4 lanes: 4 GRAY8 pixels, 2 GRAY16
// pixels, one RGBA pixel) x 4 rows in registers, reusing every loaded source
// word for all outputs that need it ("Efficient convolution of
// multi-dimensional data"). For separable kernels each invocation filters its
// own 4 source rows horizontally and takes the R rows above and below from its
// vertical neighbours through shared memory; only the top and bottom
// invocations of the group filter halo rows themselves. Non-separable kernels
// stream the 4+2R source rows through the block. Border classes ("Tiled
// Convolution"): the tiles that read inside the source ROI and write inside
// the target ROI run the unchecked variant (CHECKED false) in one dispatch;
// the ring of other tiles runs the checked one (loads through the border rule,
// writes kept inside the target ROI) in a second. Two pipelines rather than
// one branching shader: the checked code's registers would otherwise lower the
// occupancy of every tile.
#extension GL_GOOGLE_include_directive : require
#include "tiledconv_common.glsl"

layout(local_size_x = TILEDCONV_GROUP_X, local_size_y = TILEDCONV_GROUP_Y) in;

layout(constant_id = TILEDCONV_SPEC_FIRST_WORD) const int FIRST_WORD = 0;
layout(constant_id = TILEDCONV_SPEC_LANE0) const int LANE0 = 0;
layout(constant_id = TILEDCONV_SPEC_NWORDS) const int NWORDS = 2;
layout(constant_id = TILEDCONV_SPEC_BW) const int BW = 1;
layout(constant_id = TILEDCONV_SPEC_CHECKED) const bool CHECKED = false;

const int LANES = TILEDCONV_BLOCK_LANES;    // output lanes of a block row: BW * CPW
const int BH = TILEDCONV_BLOCK_ROWS;
const int MAXSRC = TILEDCONV_MAX_SRC_LANES;
const int GX = TILEDCONV_GROUP_X;           // invocations per group row: one warp
const int GY = TILEDCONV_GROUP_Y;
const int SH_STRIDE_Y = R * LANES * GX;

// Sized by the radius: 2 x 4 KiB at R = 1, within Vulkan's 16 KiB minimum
// up to R = 2 (R = 3 needs 24 KiB, which every desktop GPU has).
shared float sh_top[TILEDCONV_HALO_FLOATS(R)];
shared float sh_bot[TILEDCONV_HALO_FLOATS(R)];

float src[MAXSRC];
float acc[BH * LANES];

void load_words(int first, int row)
{
  int base = pc.in_base + row * pc.in_stride + first;
  [[unroll]] for (int w = 0; w < NWORDS; w++) {
    uint word = in_words[base + w];
    [[unroll]] for (int l = 0; l < CPW; l++)
      src[w * CPW + l] = lane_of(word, l);
  }
}

// For border tiles: where each source lane of the block's rows comes from
// along x, the border rule applied once per lane rather than once per lane
// and row: an absolute component index, or -1 for the constant border.
int xmap[MAXSRC];

void map_lanes(int first)
{
  [[unroll]] for (int k = 0; k < NWORDS * CPW; k++) {
    int rel = first * CPW + k - pc.src_x * NCOMP;
    int xm = border_index(rel >> LOG2_NCOMP, pc.width, pc.border);
    xmap[k] = xm < 0 ? -1 : (pc.src_x + xm) * NCOMP + (rel & (NCOMP - 1));
  }
}

// The source lanes a block row needs, from source row `row` (absolute).
// Border tiles take the plain word loads too wherever the row's lanes lie
// inside the source ROI, and gather lanes through xmap only at its edges.
void load_row(int w0, int row, bool checked)
{
  int first = w0 + pc.src_word_delta + FIRST_WORD;
  if (!checked) {
    load_words(first, row);
    return;
  }
  int ym = border_index(row - pc.src_y, pc.height, pc.border);
  int c_lo = first * CPW + LANE0;
  int c_hi = c_lo + 2 * R * NCOMP + LANES;
  bool x_inside = c_lo >= pc.src_x * NCOMP && c_hi <= (pc.src_x + pc.width) * NCOMP;
  if (ym < 0) {
    [[unroll]] for (int k = 0; k < NWORDS * CPW; k++)
      src[k] = pc.border_value;
  } else if (x_inside) {
    load_words(first, pc.src_y + ym);
  } else {
    int base = pc.in_base + (pc.src_y + ym) * pc.in_stride;
    [[unroll]] for (int k = 0; k < NWORDS * CPW; k++) {
      int c = xmap[k];
      src[k] = c < 0 ? pc.border_value
          : lane_of(in_words[base + (c >> (CPW == 4 ? 2 : 1))], c & (CPW - 1));
    }
  }
}

// Source lane index of output lane i, horizontal tap j in [-R, R].
int tap(int i, int j) { return LANE0 + R * NCOMP + i + j * NCOMP; }

void accumulate_hrow(float h[LANES], int r)
{
  [[unroll]] for (int o = 0; o < BH; o++) {
    int jy = r - o;
    if (jy >= -R && jy <= R) {
      float wy = ky(jy + R);
      [[unroll]] for (int i = 0; i < LANES; i++)
        acc[o * LANES + i] += wy * h[i];
    }
  }
}

void hfilter_row(int w0, int row, bool checked, out float h[LANES])
{
  load_row(w0, row, checked);
  [[unroll]] for (int i = 0; i < LANES; i++) {
    float s = 0.0;
    [[unroll]] for (int j = -R; j <= R; j++)
      s += kx(j + R) * src[tap(i, j)];
    h[i] = s;
  }
}

int sh_index(int ly, int r, int i, int lx)
{
  return ly * SH_STRIDE_Y + (r * LANES + i) * GX + lx;
}

void main()
{
  ivec2 tile;
  bool checked = CHECKED;
  if (CHECKED) {
    // The border tiles form a ring around the free rectangle: rows above it,
    // the left and right parts of the rows beside it, rows below it.
    int g = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
    int top = pc.free_y0 * pc.tiles_x;
    int side = pc.free_x0 + (pc.tiles_x - pc.free_x1);
    int middle = (pc.free_y1 - pc.free_y0) * side;
    if (g < top) {
      tile = ivec2(g % pc.tiles_x, g / pc.tiles_x);
    } else if (g < top + middle) {
      int m = g - top;
      int x = m % side;
      tile = ivec2(x < pc.free_x0 ? x : x - pc.free_x0 + pc.free_x1, pc.free_y0 + m / side);
    } else {
      int b = g - top - middle;
      tile = ivec2(b % pc.tiles_x, pc.free_y1 + b / pc.tiles_x);
    }
    if (tile.y >= pc.tiles_y)
      return;
  } else {
    tile = ivec2(gl_WorkGroupID.xy) + ivec2(pc.free_x0, pc.free_y0);
  }

  int lx = int(gl_LocalInvocationID.x);
  int ly = int(gl_LocalInvocationID.y);
  int w0 = pc.word_x0 + (tile.x * GX + lx) * BW;               // first output word of the block
  int y0 = pc.dst_y + tile.y * TILEDCONV_TILE_ROWS + ly * BH;  // first output row of the block
  int sy0 = y0 + pc.src_y - pc.dst_y;                          // its source row
  if (checked)
    map_lanes(w0 + pc.src_word_delta + FIRST_WORD);

  [[unroll]] for (int i = 0; i < BH * LANES; i++)
    acc[i] = 0.0;

  if (SEPARABLE) {
    float h[LANES];
    [[unroll]] for (int r = 0; r < BH; r++) {
      hfilter_row(w0, sy0 + r, checked, h);
      accumulate_hrow(h, r);
      if (r < R)
        [[unroll]] for (int i = 0; i < LANES; i++)
          sh_top[sh_index(ly, r, i, lx)] = h[i];
      if (r >= BH - R)
        [[unroll]] for (int i = 0; i < LANES; i++)
          sh_bot[sh_index(ly, r - (BH - R), i, lx)] = h[i];
    }
    if (ly == 0)
      [[unroll]] for (int r = -R; r < 0; r++) {
        hfilter_row(w0, sy0 + r, checked, h);
        accumulate_hrow(h, r);
      }
    if (ly == GY - 1)
      [[unroll]] for (int r = BH; r < BH + R; r++) {
        hfilter_row(w0, sy0 + r, checked, h);
        accumulate_hrow(h, r);
      }
    barrier();
    if (ly > 0)
      [[unroll]] for (int r = -R; r < 0; r++) {
        [[unroll]] for (int i = 0; i < LANES; i++)
          h[i] = sh_bot[sh_index(ly - 1, r + R, i, lx)];
        accumulate_hrow(h, r);
      }
    if (ly < GY - 1)
      [[unroll]] for (int r = BH; r < BH + R; r++) {
        [[unroll]] for (int i = 0; i < LANES; i++)
          h[i] = sh_top[sh_index(ly + 1, r - BH, i, lx)];
        accumulate_hrow(h, r);
      }
  } else {
    [[unroll]] for (int r = -R; r < BH + R; r++) {
      load_row(w0, sy0 + r, checked);
      [[unroll]] for (int o = 0; o < BH; o++) {
        int jy = r - o;
        if (jy >= -R && jy <= R) {
          [[unroll]] for (int i = 0; i < LANES; i++) {
            float s = 0.0;
            [[unroll]] for (int j = -R; j <= R; j++)
              s += k2(jy + R, j + R) * src[tap(i, j)];
            acc[o * LANES + i] += s;
          }
        }
      }
    }
  }

  // BW is 1 or 2 (TILEDCONV_BLOCK_LANES / CPW)
  [[unroll]] for (int o = 0; o < BH; o++) {
    vec4 v[2] = vec4[2](vec4(0.0), vec4(0.0));
    [[unroll]] for (int b = 0; b < BW; b++)
      [[unroll]] for (int l = 0; l < CPW; l++)
        v[b][l] = finish(acc[o * LANES + b * CPW + l]);
    // A block row of 16-bit lanes is two words: stored as one (see
    // store_lanes_pair()).
    if (BW == 2)
      store_word_pair(w0, y0 + o, v[0], v[1], checked);
    else
      store_word(w0, y0 + o, v[0], checked);
  }
}
