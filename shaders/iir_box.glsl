// iir_box.glsl: what the two box shaders share — the box of radius r
// applied ITER times, the composite FIR (box_m / m)^ITER, m = 2r + 1, as
// a sparse difference and ITER running sums in exact fixed point.
//
// In z, that filter is z^(ITER r) (1 - z^-m)^ITER / (m (1 - z^-1))^ITER:
// a difference D[q] = sum_k (-1)^k C(ITER, k) x[q - k m] of ITER + 1 input
// taps, then ITER running sums; the output at p is the last sum at
// q = p + ITER r. A run of the sums starts at some position `first` with
// the line held constant before it (the outputs it writes never reach
// back that far): D is 0 there, so the sums start from rest, and
// m^ITER times the held value is added back at the end.
//
// The sums are exact: the lanes are fixed-point integers (FRAC fraction
// bits: the constant border and a float input are rounded to 2^-FRAC code
// values) summed modulo 2^32, and the plan picks FRAC so that the final
// sum, at most m^ITER max 2^FRAC, fits. The intermediate sums stay bounded
// (each is a difference of window sums), but a float would carry every
// rounding forever: a running sum has its pole at 1. Integer sums are also
// associative, so any order of adding them gives the same bits.

layout(constant_id = IIR_SPEC_ITER) const int ITER = 1;   // 1 to 3
layout(constant_id = IIR_SPEC_FRAC) const int FRAC = 0;
// The input is the image between the axes in 16-bit fixed point.
layout(constant_id = IIR_SPEC_IN_FIXED) const bool IN_FIXED = false;

// That image: two values a word, IIR_FIXED_FRAC fraction bits; a row is
// fin_stride / fout_stride words.
layout(std430, set = 0, binding = 3) buffer FixedWords { uint fixed_words[]; };
layout(std430, set = 0, binding = 3) buffer FixedWords2 { uvec2 fixed_words2[]; };
layout(std430, set = 0, binding = 3) buffer FixedWords4 { uvec4 fixed_words4[]; };

const int FIXED_ONE = 1 << IIR_FIXED_FRAC;

int box_width() { return 2 * box_radius() + 1; }
int box_reach() { return ITER * box_radius(); }

// m^ITER: the sums' DC gain.
uint box_gain()
{
  uint m = uint(box_width());
  return ITER == 1 ? m : ITER == 2 ? m * m : m * m * m;
}

// Values below 2^23 in fixed point, rounded through the float's bits.
uvec4 box_fixed(vec4 v)
{
  return floatBitsToUint(v * float(1 << FRAC) + MAGIC) & 0x7fffffu;
}

// Values of the fixed-point image as FRAC fraction bits, rounded.
uvec4 box_from_image(uvec4 h)
{
  const int drop = IIR_FIXED_FRAC - FRAC;
  return drop <= 0 ? h << max(-drop, 0) : (h + (1u << max(drop - 1, 0))) >> drop;
}

// The 4 values of the fixed-point image in two words, as FRAC fraction
// bits.
uvec4 box_from_image_words(uvec2 w)
{
  return box_from_image(uvec4(w.x & 0xffffu, w.x >> 16, w.y & 0xffffu, w.y >> 16));
}

// The weight of tap k (at q - k m) in D: (-1)^k C(ITER, k), modulo 2^32
// (0 past ITER).
uint box_tap_weight(int k)
{
  const uint binomial = ITER == 1 ? 0x0101u : ITER == 2 ? 0x010201u : 0x01030301u;
  uint w = (binomial >> (8 * k)) & 0xffu;
  return (k & 1) == 0 ? w : -w;
}

// The difference D[q] from the taps at q, q - m, q - 2m, q - 3m (those
// past ITER unused), then the running sums.
void box_advance(uvec4 t0, uvec4 t1, uvec4 t2, uvec4 t3,
                 inout uvec4 s1, inout uvec4 s2, inout uvec4 s3)
{
  s1 += box_tap_weight(0) * t0 + box_tap_weight(1) * t1
      + box_tap_weight(2) * t2 + box_tap_weight(3) * t3;
  s2 += s1;
  s3 += s2;
}

// The exact sum of the walk, the held value added back: m^ITER 2^FRAC
// times the filtered value.
uvec4 box_total(uvec4 s1, uvec4 s2, uvec4 s3, uvec4 back)
{
  return (ITER == 1 ? s1 : ITER == 2 ? s2 : s3) + back;
}

// The walks' reading of a line (iir_box.comp, iir_box_cols.comp).

int line, first;    // the walk's line group, and its first position

// The lanes at position p (any p), as read_at() but a vector or a word at a
// time where the 4 lanes lie together: a pixel of four 8-bit components
// along x, a float image's row vector along y.
vec4 lanes_at(int p)
{
  if (AXIS == 0 && NCOMP == 4 && !IN_FLOAT && CPW == 4) {
    if (!extend_index(p, pc.width))
      return vec4(pc.ext_value);
    uint w = in_words[pc.in_base + (pc.src_y + line) * pc.in_stride + pc.src_x + p];
    return vec4(lane_of(w, 0), lane_of(w, 1), lane_of(w, 2), lane_of(w, 3));
  }
  if (AXIS == 0 && NCOMP == 4 && IN_FLOAT) {
    int xr = p - pc.fin_x0;
    if (!extend_index(xr, pc.fin_w))
      return vec4(pc.ext_value);
    return fl4[(pc.fin_base + (line - pc.fin_y0) * pc.fin_stride + xr * 4) >> 2];
  }
  if (AXIS == 1 && IN_FLOAT) {
    int k0 = line * 4 - pc.lane_off;
    int i = pc.fin_base + k0 - pc.fin_x0 * NCOMP;
    if (k0 >= 0 && k0 + 4 <= pc.width * NCOMP && pc.fin_x0 <= 0
        && pc.fin_x0 + pc.fin_w >= pc.width && (i & 3) == 0
        && (pc.fin_stride & 3) == 0) {
      int yr = p - pc.fin_y0;
      if (!extend_index(yr, pc.fin_h))
        return vec4(pc.ext_value);
      return fl4[(i + yr * pc.fin_stride) >> 2];
    }
  }
  return read_at(p, line);
}

// Along y, where the line group's 4 lanes lie together as 8 bytes of the
// fixed-point image: their index in fixed_words2 at the image's row 0, or
// -1. A row is fin_stride / 2 of those.
int image_group()
{
  int k0 = line * 4 - pc.lane_off - pc.fin_x0 * NCOMP;
  if (k0 < 0 || k0 + 4 > pc.fin_w * NCOMP || (k0 & 3) != 0)
    return -1;
  return (pc.fin_base + k0 / 2) >> 1;
}

// Along y, the word of the packed output's row 0 that the line group
// fills alone, every lane filtered and stored as it is (no unsharp mask,
// no temporal smoothing), or -1.
int output_word_y()
{
  int k0 = line * 4 - pc.lane_off;
  if (!(CPW == 4 && FULL_MASK && !UNSHARP && !TEMPORAL) || k0 < 0
      || k0 + 4 > pc.width * NCOMP)
    return -1;
  return pc.out_base + pc.dst_y * pc.out_stride + (pc.dst_x * NCOMP + k0) / 4;
}

// Four 8-bit lanes as one word.
uint word_of_lanes(vec4 v)
{
  return lane_bits(v.x, 0) | lane_bits(v.y, 1) | lane_bits(v.z, 2) | lane_bits(v.w, 3);
}

// Along y, the lanes at position p of the fixed-point image, as FRAC
// fraction bits: 8 bytes at once where the 4 lanes lie together.
uvec4 image_lanes_at(int p)
{
  int yr = p - pc.fin_y0;
  if (!extend_index(yr, pc.fin_h))
    return box_fixed(vec4(pc.ext_value));
  int group = image_group();
  if (group >= 0)
    return box_from_image_words(fixed_words2[group + yr * (pc.fin_stride >> 1)]);
  int row = pc.fin_base + yr * pc.fin_stride;
  int k0 = line * 4 - pc.lane_off - pc.fin_x0 * NCOMP;
  uvec4 h = uvec4(0u);
  [[unroll]] for (int l = 0; l < 4; l++) {
    int k = k0 + l;
    if (k >= 0 && k < pc.fin_w * NCOMP)
      h[l] = (fixed_words[row + (k >> 1)] >> (16 * (k & 1))) & 0xffffu;
  }
  return box_from_image(h);
}

// The line at position p in fixed point, held at its value at `first`
// before it.
uvec4 tap(int p)
{
  if (IN_FIXED)
    return image_lanes_at(max(p, first));
  return box_fixed(lanes_at(max(p, first)));
}
