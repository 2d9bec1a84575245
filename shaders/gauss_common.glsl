// gauss_common.glsl: what gaussblur's fused and two-pass shaders share — the
// push constants, the half kernels, the horizontal blur of a block of words
// from the packed source (register blocking, "Efficient convolution of
// multi-dimensional data"), the vertical blur of a column of rows, and the
// final write with the optional unsharp mask.
//
// The interface with the C side (push constants, specialization ids,
// sizes, the weights' layout) is gauss_interface.h, which both include.
//
// Large radii are push constants, not specialization constants: one pipeline
// per format serves them all, and the blurs walk their taps in a runtime loop
// of steps (small radii are compiled in, see FIXED_RX); a step loads the next
// few samples into a sliding window of registers and applies a few taps to
// every output of the block, so each loaded sample serves all the outputs that
// need it ("Efficient convolution of multi-dimensional data") without
// unrolling over the radius.
#include "vktile.glsl"

#include "gauss_interface.h"

layout(constant_id = GAUSS_SPEC_FULL_MASK) const bool FULL_MASK = true;
layout(constant_id = GAUSS_SPEC_S) const int S = 2;
layout(constant_id = GAUSS_SPEC_UNSHARP) const bool UNSHARP = false;
layout(constant_id = GAUSS_SPEC_K) const int K = 8;
// Small radii are compiled in (0: read them from the push constants): the
// tap loops then unroll completely, every weight becomes a constant
// operand and the sliding windows cost no moves.
layout(constant_id = GAUSS_SPEC_FIXED_RX) const int FIXED_RX = 0;
layout(constant_id = GAUSS_SPEC_FIXED_HFRONT) const int FIXED_HFRONT = 0;
layout(constant_id = GAUSS_SPEC_FIXED_HSTEPS) const int FIXED_HSTEPS = 0;
layout(constant_id = GAUSS_SPEC_FIXED_RY) const int FIXED_RY = 0;
layout(constant_id = GAUSS_SPEC_FIXED_VSTEPS) const int FIXED_VSTEPS = 0;

const int LOG2_CPW = CPW == 4 ? 2 : 1;
const int L = S * CPW;        // lanes of a horizontal block
const int G = L / NCOMP;      // horizontal taps per step: the window moves by S words
const int VSTEP = GAUSS_VSTEP;

layout(push_constant) uniform GaussPush { GAUSS_PUSH_FIELDS } pc;

layout(std140, set = 0, binding = 2) uniform Weights { vec4 weight4[GAUSS_U_FLOATS / 4]; };

float weight(int n) { return weight4[n >> 2][n & 3]; }

int rx() { return FIXED_RX > 0 ? FIXED_RX : pc.rx; }
int ry() { return FIXED_RY > 0 ? FIXED_RY : pc.ry; }
int hfront() { return FIXED_RX > 0 ? FIXED_HFRONT : pc.hfront; }
int hsteps() { return FIXED_RX > 0 ? FIXED_HSTEPS : pc.hsteps; }
int vsteps() { return FIXED_RY > 0 ? FIXED_VSTEPS : pc.vsteps; }

// ---- horizontal ----

float hwin[2 * L];

void load_word(int slot, int k, int row_base)
{
  uint w = in_words[row_base + k];
  [[unroll]] for (int l = 0; l < CPW; l++)
    hwin[slot * CPW + l] = lane_of(w, l);
}

// Word k of a source row through the border rule along x: lanes outside
// the source ROI come from the lane the rule names (or the constant).
void load_word_checked(int slot, int k, int row_base)
{
  int c_lo = pc.src_x * NCOMP;
  if (k * CPW >= c_lo && (k + 1) * CPW <= c_lo + pc.width * NCOMP) {
    load_word(slot, k, row_base);
    return;
  }
  [[unroll]] for (int l = 0; l < CPW; l++) {
    int rel = k * CPW + l - c_lo;
    int xm = border_index(rel >> LOG2_NCOMP, pc.width, pc.border);
    int c = c_lo + xm * NCOMP + (rel & (NCOMP - 1));
    hwin[slot * CPW + l] = xm < 0 ? pc.border_value
        : lane_of(in_words[row_base + (c >> LOG2_CPW)], c & (CPW - 1));
  }
}

// The horizontal blur of the L lanes of output words [w, w + S) on source
// row `row` (absolute and inside the source ROI; -1: a row of the constant
// border). Unless `checked`, every word of the window lies inside the ROI.
void hblur(int w, int row, bool checked, out float acc[L])
{
  [[unroll]] for (int i = 0; i < L; i++)
    acc[i] = row < 0 ? pc.border_value : 0.0;
  if (row < 0)
    return;
  int row_base = pc.in_base + row * pc.in_stride;
  int k0 = w + pc.hword_delta;
  [[unroll]] for (int q = 0; q < S; q++) {
    if (checked)
      load_word_checked(q, k0 + q, row_base);
    else
      load_word(q, k0 + q, row_base);
  }
  [[unroll]] for (int s = 0; s < hsteps(); s++) {
    int k = k0 + (s + 1) * S;
    [[unroll]] for (int q = 0; q < S; q++) {
      if (checked)
        load_word_checked(S + q, k + q, row_base);
      else
        load_word(S + q, k + q, row_base);
    }
    [[unroll]] for (int g = 0; g < G; g++) {
      // Padding taps are skipped, not multiplied by 0: with the radius
      // compiled in, the test is decided at compile time.
      int j = abs(s * G + g - hfront());
      if (j <= rx()) {
        float wt = weight(GAUSS_U_X + j);
        [[unroll]] for (int i = 0; i < L; i++)
          acc[i] += wt * hwin[i + g * NCOMP];
      }
    }
    [[unroll]] for (int i = 0; i < L; i++)
      hwin[i] = hwin[i + L];
  }
}

// Whether the window of the block at output word w stays inside the source
// ROI along x.
bool hblur_inside(int w)
{
  int k0 = w + pc.hword_delta;
  return k0 * CPW >= pc.src_x * NCOMP
      && (k0 + (hsteps() + 1) * S) * CPW <= (pc.src_x + pc.width) * NCOMP;
}

// ---- vertical ----

// Row r of the column being blurred vertically, 4 lanes: each shader
// defines where it comes from (shared memory, the intermediate buffer).
vec4 vrow(int r);

// The vertical blur of rows [r0, r0 + K) of the column: tap t of output o
// weighs vrow(r0 + o + t), so vrow must cover r0 + K + vsteps * VSTEP rows
// (rows past the kernel's last tap get zero weight but are still read).
void vblur(int r0, out vec4 acc[K])
{
  vec4 win[K + VSTEP];
  [[unroll]] for (int o = 0; o < K; o++) {
    acc[o] = vec4(0.0);
    win[o] = vrow(r0 + o);
  }
  [[unroll]] for (int s = 0; s < vsteps(); s++) {
    int r = r0 + K + s * VSTEP;
    [[unroll]] for (int g = 0; g < VSTEP; g++)
      win[K + g] = vrow(r + g);
    [[unroll]] for (int g = 0; g < VSTEP; g++) {
      int j = abs(s * VSTEP + g - ry());
      if (j <= ry()) {
        float wt = weight(GAUSS_U_Y + j);
        [[unroll]] for (int o = 0; o < K; o++)
          acc[o] += wt * win[o + g];
      }
    }
    [[unroll]] for (int o = 0; o < K; o++)
      win[o] = win[o + VSTEP];
  }
}

// ---- output ----

// The source value of target lane c on target row `row`; `checked` keeps
// the read inside the source ROI (lanes outside the target ROI are not
// written, any value will do).
float source_lane(int c, int row, bool checked)
{
  int cs = c + (pc.src_x - pc.dst_x) * NCOMP;
  int rs = row + pc.src_y - pc.dst_y;
  if (checked) {
    cs = clamp(cs, pc.src_x * NCOMP, (pc.src_x + pc.width) * NCOMP - 1);
    rs = clamp(rs, pc.src_y, pc.src_y + pc.height - 1);
  }
  uint w = in_words[pc.in_base + rs * pc.in_stride + (cs >> LOG2_CPW)];
  return lane_of(w, cs & (CPW - 1));
}

// Writes the 4 lanes from target lane c0 (a multiple of 4) of target row
// `row`: the blur, or with UNSHARP in + amount (in - blur).
void store_vec4(int c0, int row, vec4 blur, bool checked)
{
  vec4 v = blur;
  if (UNSHARP) {
    [[unroll]] for (int i = 0; i < 4; i++) {
      float x = source_lane(c0 + i, row, checked);
      v[i] = x + pc.amount * (x - blur[i]);
    }
  }
  ivec4 io = ivec4(pc.in_base, pc.in_stride, pc.out_base, pc.out_stride);
  ivec4 target = ivec4(pc.dst_x * NCOMP, (pc.dst_x + pc.width) * NCOMP, pc.dst_y,
                       pc.dst_y + pc.height);
  if (CPW == 4) {
    store_lanes(c0 >> 2, row, v, checked, FULL_MASK, pc.chan_mask, io, target);
  } else {
    store_lanes_pair(c0 >> 1, row, vec4(v.xy, 0.0, 0.0), vec4(v.zw, 0.0, 0.0), checked,
                     FULL_MASK, pc.chan_mask, io, target);
  }
}
