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

// The weight of tap k (at q - k m) in D: (-1)^k C(ITER, k), modulo 2^32.
uint box_tap_weight(int k)
{
  const uint binomial = ITER == 1 ? 0x0101u : ITER == 2 ? 0x010201u : 0x01030301u;
  uint w = (binomial >> (8 * k)) & 0xffu;
  return (k & 1) == 0 ? w : -w;
}
