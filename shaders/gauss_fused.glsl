// gauss_fused.glsl: gaussblur's fused tile — "Fusing Convolution Kernels
// through Tiling"'s fusion through tiling, shared by the shaders that blur
// in one dispatch (gauss_fused.comp, denoise.comp). A work-group owns a tile
// of TW lanes x pc.tile_rows rows of the target: it blurs the source rows of
// the tile and its vertical halo horizontally, straight from the packed
// frame (register-blocked blocks of S words), into shared memory, then blurs
// the columns of that tile vertically (register-blocked blocks of K rows of
// 4 lanes) and hands each row of 4 lanes to the shader's write_blur().
// The intermediate never touches memory.
//
// Border classes ("Tiled Convolution") in one dispatch: a tile whose reads
// stay inside the source ROI and whose writes stay inside the target ROI
// takes the unchecked path; the ring of other tiles maps rows and lanes
// through the border rule and checks its writes. The branch is uniform per
// work-group.
#include "gauss_common.glsl"

layout(constant_id = GAUSS_SPEC_TW) const int TW = 128;
layout(constant_id = GAUSS_SPEC_SH_ROWS) const int SH_ROWS = 96;

layout(local_size_x = GAUSS_FUSED_GROUP) in;

const int COLS = TW / 4;                          // columns of 4 lanes
const int ROW_GROUPS = GAUSS_FUSED_GROUP / COLS;  // invocations down a column

shared vec4 hs[SH_ROWS * COLS];

int g_col;

vec4 vrow(int r) { return hs[r * COLS + g_col]; }

// What the shader makes of the blur of the 4 lanes from target lane c0 (a
// multiple of 4 from the grid's first word) of target row `row`; with
// `checked`, lanes and rows outside the target ROI may be among them.
void write_blur(int c0, int row, vec4 blur, bool checked);

// One tile; `checked` is a constant in each of the two inlined copies, so
// the free tiles' copy carries none of the border code.
void blur_tile(ivec2 tile, const bool checked)
{
  int lid = int(gl_LocalInvocationIndex);
  int w_tile = pc.word_x0 + tile.x * (TW / CPW);     // first output word
  int y_tile = tile.y * pc.tile_rows;                // first row, ROI-relative

  // 1. Horizontal: source rows y_tile - ry .. + tile_rows + vsteps * VSTEP.
  const int BLOCKS = TW / L;
  int rows = pc.tile_rows + vsteps() * VSTEP;
  for (int item = lid; item < rows * BLOCKS; item += GAUSS_FUSED_GROUP) {
    int r = item / BLOCKS;
    int b = item - r * BLOCKS;
    int y = y_tile - ry() + r;
    int row;
    if (checked) {
      int ym = border_index(y, pc.height, pc.border);
      row = ym < 0 ? -1 : pc.src_y + ym;
    } else {
      row = pc.src_y + y;
    }
    float h[L];
    hblur(w_tile + b * S, row, checked, h);
    [[unroll]] for (int v = 0; v < L / 4; v++)
      hs[r * COLS + b * (L / 4) + v] = vec4(h[4 * v], h[4 * v + 1], h[4 * v + 2], h[4 * v + 3]);
  }
  barrier();

  // 2. Vertical, from shared memory, and the write.
  g_col = lid % COLS;
  int c0 = w_tile * CPW + g_col * 4;
  for (int r0 = (lid / COLS) * K; r0 < pc.tile_rows; r0 += ROW_GROUPS * K) {
    vec4 acc[K];
    vblur(r0, acc);
    [[unroll]] for (int o = 0; o < K; o++)
      write_blur(c0, pc.dst_y + y_tile + r0 + o, acc[o], checked);
  }
}

void fused_main()
{
  ivec2 tile = ivec2(gl_WorkGroupID.xy);
  if (tile.x < pc.free_x0 || tile.x >= pc.free_x1 || tile.y < pc.free_y0 || tile.y >= pc.free_y1)
    blur_tile(tile, true);
  else
    blur_tile(tile, false);
}
