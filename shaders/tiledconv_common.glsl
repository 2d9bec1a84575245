// tiledconv_common.glsl: the push constants and kernel weights every
// tiledconv algorithm reads, the border-checked source load and the output
// word writer. The C twin of TiledconvPush is in plugin/gsttiledconv.c,
// held in step by _Static_asserts on its offsets.
#include "vktile.glsl"

layout(constant_id = 4) const int R = 1;              // kernel radius: 1, 2, 3
layout(constant_id = 5) const bool SEPARABLE = true;  // kx/ky valid, else only K
layout(constant_id = 6) const bool FULL_MASK = true;  // every lane of the plane is filtered

layout(push_constant) uniform TiledconvPush {
  int in_base;        // first word of the input plane
  int in_stride;      // words per input row
  int out_base;
  int out_stride;
  int src_x;          // source ROI, pixels
  int src_y;
  int width;          // ROI size, pixels (same for source and target)
  int height;
  int dst_x;          // target ROI, pixels
  int dst_y;
  int word_x0;        // first output word of the tile grid
  int src_word_delta; // floor(((src_x - dst_x) * NCOMP - SHIFT) / CPW)
  int tiles_x;        // tile grid
  int tiles_y;
  int free_x0;        // free tiles: [free_x0, free_x1) x [free_y0, free_y1)
  int free_x1;
  int free_y0;
  int free_y1;
  uint chan_mask;     // bit c: component slot c of a pixel is filtered
  int border;
  float border_value; // code values
  float scale;
  float bias;         // code values
  int absolute;
  int grid_words;     // output words per row of the grid (non-tiled algorithms)
} pc;

// kx at 0..6, ky at 8..14, the 2D kernel K row-major at 16..64.
layout(std140, set = 0, binding = 2) uniform Weights { vec4 weight4[17]; };

float weight(int n) { return weight4[n >> 2][n & 3]; }
float kx(int i) { return weight(i); }
float ky(int j) { return weight(8 + j); }
float k2(int j, int i) { return weight(16 + j * (2 * R + 1) + i); }

// Component `comp` (index along the row, may be outside the row) of source
// row `row`, both absolute plane coordinates; the border rule applies at the
// source ROI's edges.
float load_source_checked(int comp, int row)
{
  int rel = comp - pc.src_x * NCOMP;
  int xr = rel >> LOG2_NCOMP;
  int ch = rel & (NCOMP - 1);
  int xm = border_index(xr, pc.width, pc.border);
  int ym = border_index(row - pc.src_y, pc.height, pc.border);
  if (xm < 0 || ym < 0)
    return pc.border_value;
  int c = (pc.src_x + xm) * NCOMP + ch;
  uint w = in_words[pc.in_base + (pc.src_y + ym) * pc.in_stride + (c >> (CPW == 4 ? 2 : 1))];
  return lane_of(w, c & (CPW - 1));
}

float finish(float sum)
{
  float v = pc.scale * sum;
  if (pc.absolute != 0)
    v = abs(v);
  return v + pc.bias;
}

// Writes output word `wx` of row `row` (see store_lanes in vktile.glsl).
void store_word(int wx, int row, vec4 vals, bool checked)
{
  store_lanes(wx, row, vals, checked, FULL_MASK, pc.chan_mask,
              ivec4(pc.in_base, pc.in_stride, pc.out_base, pc.out_stride),
              ivec4(pc.dst_x * NCOMP, (pc.dst_x + pc.width) * NCOMP, pc.dst_y, pc.dst_y + pc.height));
}
