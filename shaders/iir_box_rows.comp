#version 450
// iir_box_rows.comp: the box of radius r applied ITER times (iir_box.glsl)
// along rows, from the packed frame into the image between the axes (16-bit
// fixed point for 8-bit formats, floats otherwise), by prefix sums instead
// of walks. A subgroup takes one row through one
// chunk in segments; each invocation holds CI consecutive components of
// the row (four source words' worth), so that every load and store of a
// segment is contiguous across the subgroup. The ITER running sums are
// ITER prefix sums, each done in the invocation's registers and then
// across the subgroup by shuffles, the segment's totals carried to the
// next; integer sums give the same bits in any order.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#include "iir_common.glsl"
#include "iir_box.glsl"

layout(local_size_x = IIR_LINEAR_GROUP) in;

const int CI = 4 * CPW;         // components per invocation
const int PPI = CI / NCOMP;     // positions per invocation

// first (iir_box.glsl): where the walk's sums start; the row is held
// constant before it.
int row;      // the walk's row of the ROI
// In fixed point, per lane: the value of every position before
// max(first, 0) (the held one, or the border's), and of every position
// past the ROI's right edge.
uvec4 left_value, right_value;

// The sum of v over this invocation and those below it in the subgroup.
#define DEFINE_INCLUSIVE_SUM(T) \
  T inclusive_sum(T v) \
  { \
    for (uint o = 1u; o < gl_SubgroupSize; o <<= 1) { \
      T n = subgroupShuffleUp(v, o); \
      if (gl_SubgroupInvocationID >= o) \
        v += n; \
    } \
    return v; \
  }
DEFINE_INCLUSIVE_SUM(uint)
DEFINE_INCLUSIVE_SUM(uvec2)
DEFINE_INCLUSIVE_SUM(uvec4)

// inclusive_sum of a pixel's lanes, shuffling only the NCOMP that exist.
uvec4 lane_sums(uvec4 v)
{
  if (NCOMP == 1)
    return uvec4(inclusive_sum(v.x), 0u, 0u, 0u);
  if (NCOMP == 2)
    return uvec4(inclusive_sum(v.xy), 0u, 0u);
  return inclusive_sum(v);
}

// Component c of the row at position p, held before `first` and continued
// beyond the ROI by the border rule, in fixed point.
uvec4 held_pixel(int p)
{
  uvec4 v = uvec4(0u);
  [[unroll]] for (int c = 0; c < NCOMP; c++)
    v[c] = box_fixed(vec4(fetch(max(p, first), c, row))).x;
  return v;
}

// The taps of the CI components from ROI component gc on: the source words
// that hold them, shifted into place. Unless all of them lie `inside`
// [max(first, 0), width), the words are read clamped to the row and the
// positions outside take left_value or right_value.
void taps_at(int gc, bool inside, out uint t[CI])
{
  const int log2_cpw = CPW == 4 ? 2 : 1;
  int k = pc.src_x * NCOMP + gc;
  int base = pc.in_base + (pc.src_y + row) * pc.in_stride;
  int w = k >> log2_cpw, s = (k & (CPW - 1)) * 8 * BPC;
  int w_lo = (pc.src_x * NCOMP) >> log2_cpw;
  int w_hi = (pc.src_x * NCOMP + pc.width * NCOMP - 1) >> log2_cpw;
  uint words[5];
  [[unroll]] for (int j = 0; j < 5; j++) {
    // The fifth word holds components of the row only when they straddle.
    if (j == 4 && s == 0)
      words[j] = 0u;
    else
      words[j] = in_words[base + (inside ? w + j : clamp(w + j, w_lo, w_hi))];
  }
  [[unroll]] for (int j = 0; j < 4; j++) {
    uint u = s == 0 ? words[j] : (words[j] >> s) | (words[j + 1] << (32 - s));
    [[unroll]] for (int l = 0; l < CPW; l++)
      t[j * CPW + l] = bitfieldExtract(u, 8 * BPC * l, 8 * BPC) << FRAC;
  }
  if (inside)
    return;
  int lo = max(first, 0);
  [[unroll]] for (int i = 0; i < CI; i++) {
    int p = (gc + i) >> LOG2_NCOMP;
    if (p < lo)
      t[i] = left_value[i & (NCOMP - 1)];
    else if (p >= pc.width)
      t[i] = right_value[i & (NCOMP - 1)];
  }
}

// The differences D of the box at the CI components from g on (outputs
// at positions g / NCOMP on, so taps ITER r further right).
void differences(int g, out uint d[CI])
{
  [[unroll]] for (int i = 0; i < CI; i++)
    d[i] = 0u;
  int p0 = g >> LOG2_NCOMP;
  [[unroll]] for (int k = 0; k < 4; k++) {
    if (k > ITER)
      break;
    int shift = box_reach() - k * box_width();
    uint wk = box_tap_weight(k);
    uint t[CI];
    taps_at(g + shift * NCOMP, p0 + shift >= max(first, 0)
            && p0 + shift + PPI <= pc.width, t);
    [[unroll]] for (int i = 0; i < CI; i++)
      d[i] += wk * t[i];
  }
}

// Stores the finished components g .. g + CI - 1 of the row that lie in
// positions [lo, hi) to the float image.
void store_floats(int g, int lo, int hi, float unit, uvec4 back, uint a[CI])
{
  int b = pc.fout_base + (row - pc.fout_y0) * pc.fout_stride - pc.fout_x0 * NCOMP + g;
  if (g >= lo * NCOMP && g + CI <= hi * NCOMP && (b & 3) == 0) {
    [[unroll]] for (int j = 0; j < CI / 4; j++) {
      vec4 v;
      [[unroll]] for (int l = 0; l < 4; l++)
        v[l] = float(a[4 * j + l] + back[(4 * j + l) & (NCOMP - 1)]) * unit;
      fl4[(b >> 2) + j] = v;
    }
    return;
  }
  [[unroll]] for (int i = 0; i < CI; i++) {
    int p = (g + i) >> LOG2_NCOMP;
    if (p >= lo && p < hi)
      fl[b + i] = float(a[i] + back[i & (NCOMP - 1)]) * unit;
  }
}

// The same into the fixed-point image (8-bit formats): the words of
// components g .. g + CI - 1, whose first component lies in [lo, hi). A
// chunk starts on a whole invocation, so no other walk writes them; past
// the row's last component the word's high half is padding.
void store_fixed(int g, int lo, int hi, float unit, uvec4 back, uint a[CI])
{
  uint h[CI];
  [[unroll]] for (int i = 0; i < CI; i++) {
    float v = float(a[i] + back[i & (NCOMP - 1)]) * (unit * float(FIXED_ONE));
    h[i] = floatBitsToUint(v + MAGIC) & 0xffffu;
  }
  int b = pc.fout_base + (row - pc.fout_y0) * pc.fout_stride + (g - pc.fout_x0 * NCOMP) / 2;
  if (g >= lo * NCOMP && g + CI <= hi * NCOMP) {
    [[unroll]] for (int j = 0; j < CI / 8; j++)
      fixed_words4[(b >> 2) + j] = uvec4(h[8 * j] | (h[8 * j + 1] << 16),
                                         h[8 * j + 2] | (h[8 * j + 3] << 16),
                                         h[8 * j + 4] | (h[8 * j + 5] << 16),
                                         h[8 * j + 6] | (h[8 * j + 7] << 16));
    return;
  }
  [[unroll]] for (int j = 0; j < CI / 2; j++) {
    int p = (g + 2 * j) >> LOG2_NCOMP;
    if (p >= lo && p < hi)
      fixed_words[b + j] = h[2 * j] | (((g + 2 * j + 1) >> LOG2_NCOMP) < hi ? h[2 * j + 1] << 16 : 0u);
  }
}

void main()
{
  int walks = pc.lines * pc.chunks;
  int lane = int(gl_SubgroupInvocationID);
  int segment = int(gl_SubgroupSize) * CI;
  int reach = box_reach();
  // Chunks of whole invocations; the plan's count, whatever the subgroup
  // size.
  int chunk_len = ((pc.width + pc.chunks - 1) / pc.chunks + PPI - 1) / PPI * PPI;
  float unit = 1.0 / (float(box_gain()) * float(1 << FRAC));
  int step = int(gl_NumWorkGroups.x * gl_NumSubgroups);

  for (int w = int(gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID); w < walks; w += step) {
    row = w % pc.lines;
    int c0 = (w / pc.lines) * chunk_len;
    if (c0 >= pc.width)
      continue;
    int c1 = min(c0 + chunk_len, pc.width);
    first = c0 - reach;
    left_value = held_pixel(first);
    right_value = held_pixel(pc.width);
    uvec4 back = left_value * box_gain();

    uvec4 carry[3] = uvec4[3](uvec4(0u), uvec4(0u), uvec4(0u));
    // Segments start where the outputs read the tap at `first`, or
    // before: D is 0 while every tap is held.
    int g0 = ((first - reach) * NCOMP) & ~(CI - 1);
    for (int gs = g0; gs < c1 * NCOMP; gs += segment) {
      int g = gs + lane * CI;
      uint a[CI];
      differences(g, a);
      [[unroll]] for (int level = 0; level < 3; level++) {
        if (level >= ITER)
          break;
        [[unroll]] for (int i = NCOMP; i < CI; i++)
          a[i] += a[i - NCOMP];
        uvec4 mine = uvec4(0u);
        [[unroll]] for (int c = 0; c < NCOMP; c++)
          mine[c] = a[CI - NCOMP + c];
        uvec4 below = lane_sums(mine);
        uvec4 enter = below - mine + carry[level];
        [[unroll]] for (int i = 0; i < CI; i++)
          a[i] += enter[i & (NCOMP - 1)];
        carry[level] += subgroupShuffle(below, gl_SubgroupSize - 1u);
      }
      if (OUT_KIND == IIR_OUT_FIXED)
        store_fixed(g, c0, c1, unit, back, a);
      else
        store_floats(g, c0, c1, unit, back, a);
    }
  }
}
