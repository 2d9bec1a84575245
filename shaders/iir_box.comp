#version 450
// iir_box.comp: the box of radius r applied ITER times — the composite FIR
// (box_m / m)^ITER, m = 2r + 1 — along one axis in one pass, every
// iteration at once, at a cost that does not depend on r.
//
// In z, that filter is z^(ITER r) (1 - z^-m)^ITER / (m (1 - z^-1))^ITER:
// a sparse difference D[q] = sum_k (-1)^k C(ITER, k) x[q - k m] of ITER + 1
// input taps, then ITER running sums. An invocation walks one line group
// (4 lanes) through one chunk of positions, starting ITER r before the
// chunk with the line held constant before that start (the chunk's outputs
// never reach it), so that the running sums start from rest.
//
// The sums are exact: the lanes are fixed-point integers (FRAC fraction
// bits: the constant border and a float input are rounded to 2^-FRAC code
// values) summed modulo 2^32, and the plan picks FRAC so that the final
// sum, at most m^ITER max 2^FRAC, fits. The intermediate sums stay bounded
// (each is a difference of window sums), but a float would carry every
// rounding forever: a running sum has its pole at 1.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(constant_id = IIR_SPEC_SUBS) const int SUBS = 4;   // blocks of E outputs per chunk
layout(constant_id = IIR_SPEC_ITER) const int ITER = 1;   // 1 to 3
layout(constant_id = IIR_SPEC_FRAC) const int FRAC = 0;
layout(local_size_x = IIR_LINEAR_GROUP) in;

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

// The difference D[q] from the taps at q, q - m, q - 2m, q - 3m (those
// past ITER unused), then the running sums.
void box_advance(uvec4 t0, uvec4 t1, uvec4 t2, uvec4 t3,
                 inout uvec4 s1, inout uvec4 s2, inout uvec4 s3)
{
  uvec4 d;
  if (ITER == 1)
    d = t0 - t1;
  else if (ITER == 2)
    d = t0 - 2u * t1 + t2;
  else
    d = t0 - 3u * t1 + 3u * t2 - t3;
  s1 += d;
  s2 += s1;
  s3 += s2;
}

// The exact sum of the walk, the held value added back: m^ITER 2^FRAC
// times the filtered value.
uvec4 box_total(uvec4 s1, uvec4 s2, uvec4 s3, uvec4 back)
{
  return (ITER == 1 ? s1 : ITER == 2 ? s2 : s3) + back;
}

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

// The line at position p in fixed point, held at its value at `first`
// before it.
uvec4 tap(int p)
{
  return box_fixed(lanes_at(max(p, first)));
}

// Takes in the tap at q.
void advance(int q, inout uvec4 s1, inout uvec4 s2, inout uvec4 s3)
{
  int m = box_width();
  uvec4 z = uvec4(0u);
  box_advance(tap(q), tap(q - m), ITER > 1 ? tap(q - 2 * m) : z,
              ITER > 2 ? tap(q - 3 * m) : z, s1, s2, s3);
}

void main()
{
  line = int(gl_GlobalInvocationID.x);
  if (line >= pc.lines)
    return;
  int reach = box_reach();
  int c0 = int(gl_WorkGroupID.y) * SUBS * E + pc.out_lo - pc.off;
  int hi = pc.out_lo + pc.out_len;
  first = c0 - reach;

  uvec4 back = tap(first) * box_gain();
  float unit = 1.0 / (float(box_gain()) * float(1 << FRAC));

  uvec4 s1 = uvec4(0u), s2 = uvec4(0u), s3 = uvec4(0u);
  int end = min(c0 + SUBS * E, hi);
  // q: the newest tap; the output it completes is at q - reach.
  if (OUT_KIND == OUT_FLOATS || AXIS == 1) {
    // A position at a time: one small loop.
    for (int q = first; q < end + reach; q++) {
      advance(q, s1, s2, s3);
      int p = q - reach;
      if (p < max(c0, pc.out_lo))
        continue;
      vec4 v = vec4(box_total(s1, s2, s3, back)) * unit;
      if (OUT_KIND == OUT_FLOATS)
        store_floats_at(p, line, v);
      else
        store_packed_y_at(p, line, v);
    }
    return;
  }
  // Packed rows: blocks of whole words.
  int q = first;
  for (; q < c0 + reach; q++)
    advance(q, s1, s2, s3);
  for (int p0 = c0; p0 < end; p0 += E) {
    vec4 vals[E];
    [[unroll]] for (int e = 0; e < E; e++, q++) {
      advance(q, s1, s2, s3);
      vals[e] = vec4(box_total(s1, s2, s3, back)) * unit;
    }
    store_block(p0, line, vals);
  }
}
