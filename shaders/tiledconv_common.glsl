// tiledconv_common.glsl: the push constants and kernel weights every
// tiledconv algorithm reads, the border-checked source load and the output
// word writer.
//
// The interface with the C side (push constants, specialization ids,
// sizes, the weights' layout) is tiledconv_interface.h, which both include.
#include "vktile.glsl"

#include "tiledconv_interface.h"

layout(constant_id = TILEDCONV_SPEC_R) const int R = 1;
layout(constant_id = TILEDCONV_SPEC_SEPARABLE) const bool SEPARABLE = true;
layout(constant_id = TILEDCONV_SPEC_FULL_MASK) const bool FULL_MASK = true;

layout(push_constant) uniform TiledconvPush { TILEDCONV_PUSH_FIELDS } pc;

layout(std140, set = 0, binding = 2) uniform Weights { vec4 weight4[TILEDCONV_U_FLOATS / 4]; };

float weight(int n) { return weight4[n >> 2][n & 3]; }
float kx(int i) { return weight(TILEDCONV_U_KX + i); }
float ky(int j) { return weight(TILEDCONV_U_KY + j); }
float k2(int j, int i) { return weight(TILEDCONV_U_K + j * (2 * R + 1) + i); }

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

ivec4 plane_io() { return ivec4(pc.in_base, pc.in_stride, pc.out_base, pc.out_stride); }

ivec4 target_roi()
{
  return ivec4(pc.dst_x * NCOMP, (pc.dst_x + pc.width) * NCOMP, pc.dst_y, pc.dst_y + pc.height);
}

// Writes output word `wx` of row `row` (see store_lanes in vktile.glsl).
void store_word(int wx, int row, vec4 vals, bool checked)
{
  store_lanes(wx, row, vals, checked, FULL_MASK, pc.chan_mask, plane_io(), target_roi());
}

// Writes output words `wx` and `wx` + 1 of row `row` (store_lanes_pair()).
void store_word_pair(int wx, int row, vec4 v0, vec4 v1, bool checked)
{
  store_lanes_pair(wx, row, v0, v1, checked, FULL_MASK, pc.chan_mask, plane_io(), target_roi());
}
