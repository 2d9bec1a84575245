// vktile.glsl: what every vktile shader shares — the frame buffers seen as
// 32-bit words (gstvulkan 1.22 enables no 8/16-bit storage), unpacking and
// packing of 8- and 16-bit component lanes, and the border rules of
// docs/SEMANTICS.md.
//
// A plane row is an array of words; each word holds CPW = 4 / BPC component
// lanes, and a pixel is NCOMP consecutive lanes. Rows start word-aligned, so
// the lane index inside a row is the component index along the row.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "vktile_interface.h"

layout(constant_id = VKT_SPEC_BPC) const int BPC = 1;
layout(constant_id = VKT_SPEC_NCOMP) const int NCOMP = 1;
layout(constant_id = VKT_SPEC_CPW) const int CPW = 4;
layout(constant_id = VKT_SPEC_LOG2_NCOMP) const int LOG2_NCOMP = 0;

layout(std430, set = 0, binding = 0) readonly buffer InWords { uint in_words[]; };
layout(std430, set = 0, binding = 1) buffer OutWords { uint out_words[]; };
// The same output two words at a time (store_lanes_pair()).
layout(std430, set = 0, binding = 1) buffer OutWords2 { uvec2 out_words2[]; };

const int BORDER_CLAMP = 0;
const int BORDER_MIRROR = 1;
const int BORDER_REFLECT = 2;
const int BORDER_WRAP = 3;
const int BORDER_CONSTANT = 4;

layout(constant_id = VKT_SPEC_MAX_CODE) const int MAX_CODE = 0;

// Results clamp to the format's range: 10-bit formats (I420_10LE) hold
// 0..1023 in 16-bit lanes.
float max_code() { return MAX_CODE > 0 ? float(MAX_CODE) : BPC == 1 ? 255.0 : 65535.0; }

// Lanes convert through the float bit pattern of 2^23 + v instead of
// int<->float conversion instructions, which run at a quarter of the FMA
// rate on current GPUs and dominated the filters' time.
const float MAGIC = 8388608.0;  // 2^23: one unit in the last place is 1.0

// The code value of a lane, as an integer.
uint lane_code(uint word, int lane)
{
  return BPC == 1 ? bitfieldExtract(word, 8 * lane, 8)
                  : bitfieldExtract(word, 16 * lane, 16);
}

// A compiler may fold the subtraction of MAGIC out of a sum of these,
// (a - M) + (b - M) into (a + b) - 2M, where the sum's last place is 2 and
// more (the H100's driver rounded a 3x3 Laplacian of them to multiples of
// 4): arithmetic that must be exact takes lane_code()s.
float code_value(uint code)
{
  return uintBitsToFloat(0x4B000000u | code) - MAGIC;
}

float lane_of(uint word, int lane)
{
  return code_value(lane_code(word, lane));
}

// Rounds to nearest (ties to even) and clamps to the format's range.
uint lane_bits(float v, int lane)
{
  uint q = floatBitsToUint(clamp(v, 0.0, max_code()) + MAGIC);
  return BPC == 1 ? (q & 0xffu) << (8 * lane) : (q & 0xffffu) << (16 * lane);
}

uint lane_mask(int lane)
{
  return BPC == 1 ? 0xffu << (8 * lane) : 0xffffu << (16 * lane);
}

// i mod n for any sign of i (GLSL leaves % of negative operands undefined).
int floor_mod(int i, int n)
{
  return i >= 0 ? i % n : n - 1 - (-i - 1) % n;
}

// Index i into a range of n samples, extended periodically by the border
// rule; -1 means "the constant border value".
int border_index(int i, int n, int border)
{
  if (i >= 0 && i < n)
    return i;
  if (border == BORDER_CLAMP)
    return clamp(i, 0, n - 1);
  if (border == BORDER_WRAP)
    return floor_mod(i, n);
  if (border == BORDER_MIRROR) {
    if (n == 1)
      return 0;
    int p = 2 * n - 2;
    int m = floor_mod(i, p);
    return m < n ? m : p - m;
  }
  if (border == BORDER_REFLECT) {
    int p = 2 * n;
    int m = floor_mod(i, p);
    return m < n ? m : p - 1 - m;
  }
  return -1;
}

// The lanes `keep` of output word `wx` of row `row` as they stay: the
// input's, or with VKT_KEEP_OUTPUT in chan_mask what the output holds. io
// as for store_lanes().
uint kept_lanes(uint keep, int wx, int row, uint chan_mask, ivec4 io)
{
  return ((chan_mask & VKT_KEEP_OUTPUT) != 0u ? out_words[io.z + row * io.w + wx]
                                               : in_words[io.x + row * io.y + wx]) & keep;
}

// The lanes of output word `wx` that the plane mask filters, as a mask of
// their bits.
uint filtered_lanes(int wx, uint chan_mask)
{
  uint m = 0u;
  [[unroll]] for (int l = 0; l < CPW; l++) {
    uint bit = (chan_mask >> ((wx * CPW + l) & (NCOMP - 1))) & 1u;
    m |= (0u - bit) & lane_mask(l);
  }
  return m;
}

// Writes output word `wx` of row `row` from the lanes in `vals` (final
// values, before rounding). io = (in_base, in_stride, out_base, out_stride)
// in words; target = the target ROI as lanes [x, y) of a row and rows
// [z, w). With `checked`, lanes outside the target ROI keep the input and
// words wholly outside are not written; lanes of components the plane mask
// leaves out keep the input always (kept_lanes()).
//
// The word is put together with bit masks, not a choice per lane: the
// H100's driver compiled the choice per lane of gaussblur's fused tile so
// that lane 2 of every other row took the wrong side (packed 4:2:2, whose
// views filter lanes 0 and 2 or 1 and 3).
void store_lanes(int wx, int row, vec4 vals, bool checked, bool full_mask,
                 uint chan_mask, ivec4 io, ivec4 target)
{
  if (checked) {
    if (row < target.z || row >= target.w || (wx + 1) * CPW <= target.x || wx * CPW >= target.y)
      return;
  }
  uint word = 0u;
  [[unroll]] for (int l = 0; l < CPW; l++)
    word |= lane_bits(vals[l], l);
  uint filtered = full_mask ? 0xffffffffu : filtered_lanes(wx, chan_mask);
  if (checked) {
    [[unroll]] for (int l = 0; l < CPW; l++) {
      int c = wx * CPW + l;
      if (c < target.x || c >= target.y)
        filtered &= ~lane_mask(l);
    }
  }
  if (filtered != 0xffffffffu)
    word = (word & filtered) | kept_lanes(~filtered, wx, row, chan_mask, io);
  out_words[io.z + row * io.w + wx] = word;
}

// Words wx and wx + 1 of row `row` from the lanes in v0 and v1, as two
// store_lanes() calls write them, but in one 8-byte store where both words
// are written whole and start on an 8-byte boundary. An invocation that
// writes two words with two stores has a warp's stores cover every other
// word; into host memory across PCIe (system memory out) that ran 16-bit
// formats 6-10x slower than the bus allows.
void store_lanes_pair(int wx, int row, vec4 v0, vec4 v1, bool checked, bool full_mask,
                      uint chan_mask, ivec4 io, ivec4 target)
{
  int o = io.z + row * io.w + wx;
  bool whole = full_mask && (o & 1) == 0;
  if (checked)
    whole = whole && row >= target.z && row < target.w && wx * CPW >= target.x
        && (wx + 2) * CPW <= target.y;
  if (!whole) {
    store_lanes(wx, row, v0, checked, full_mask, chan_mask, io, target);
    store_lanes(wx + 1, row, v1, checked, full_mask, chan_mask, io, target);
    return;
  }
  uvec2 words = uvec2(0u);
  [[unroll]] for (int l = 0; l < CPW; l++) {
    words.x |= lane_bits(v0[l], l);
    words.y |= lane_bits(v1[l], l);
  }
  out_words2[o >> 1] = words;
}
