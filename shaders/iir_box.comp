#version 450
// iir_box.comp: the box of radius r applied ITER times (iir_box.glsl)
// along one axis in one pass, every iteration at once, at a cost that does
// not depend on r, by walks: an invocation walks one line group (4 lanes)
// through one chunk of positions, starting ITER r before the chunk with the
// line held constant before that start.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"
#include "iir_box.glsl"

layout(constant_id = IIR_SPEC_SUBS) const int SUBS = 4;   // blocks of E outputs per chunk
layout(local_size_x = IIR_LINEAR_GROUP) in;

// Takes in the tap at q.
void advance(int q, inout uvec4 s1, inout uvec4 s2, inout uvec4 s3)
{
  int m = box_width();
  uvec4 z = uvec4(0u);
  box_advance(tap(q), tap(q - m), ITER > 1 ? tap(q - 2 * m) : z,
              ITER > 2 ? tap(q - 3 * m) : z, s1, s2, s3);
}

// The walk along y from the fixed-point image into an 8-bit frame where
// none of the general paths is needed: the line group is 8 bytes of an
// image row and one word of an output row, every lane filtered and stored
// as it is, and no tap of the chunk beyond the image. Returns whether it
// ran.
bool fixed_walk_y(int c0, int end, uvec4 back, float unit)
{
  if (!(IN_FIXED && AXIS == 1 && OUT_KIND == OUT_PACKED))
    return false;
  int reach = box_reach(), m = box_width();
  int col = image_group(), o = output_word_y(), f = first - pc.fin_y0;
  if (col < 0 || o < 0 || f < 0 || end + reach - pc.fin_y0 > pc.fin_h)
    return false;
  int rows = pc.fin_stride >> 1;
  uvec4 s1 = uvec4(0u), s2 = uvec4(0u), s3 = uvec4(0u);
  for (int q = first; q < end + reach; q++) {
    uvec4 t[4];
    [[unroll]] for (int k = 0; k < 4; k++) {
      t[k] = box_from_image_words(k <= ITER ? fixed_words2[col + max(q - pc.fin_y0 - k * m, f) * rows] : uvec2(0u));
    }
    box_advance(t[0], t[1], t[2], t[3], s1, s2, s3);
    int p = q - reach;
    if (p < max(c0, pc.out_lo))
      continue;
    vec4 v = vec4(box_total(s1, s2, s3, back)) * unit;
    out_words[o + p * pc.out_stride] = word_of_lanes(v);
  }
  return true;
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
  if (fixed_walk_y(c0, end, back, unit))
    return;
  if (OUT_KIND == OUT_FLOATS || AXIS == 1) {
    // A position at a time: one small loop. (Loading several positions'
    // taps before summing any was slower on the H100: 4K RGBA along y
    // 198 -> 254 us for 4.)
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
