#version 450
// iir_box_cols.comp: the box of radius r applied ITER times (iir_box.glsl)
// along columns into the packed frame, by prefix sums across invocations
// instead of one walk per chunk. A work-group holds COLS_LINES line groups
// (4 lanes of a row each, side by side, so that a row's loads and stores
// are contiguous) x COLS_SEGS segments of COLS_ROWS rows, and takes them
// down its chunk COLS_SEGS x COLS_ROWS rows at a time. Each invocation
// runs the sums of its segment from rest, keeping the last sum of every
// row; the segments' totals meet in shared memory, where each segment
// finds the sums entering it (after n rows, the state is a polynomial in
// n of the state before); then every row is finished and stored. Chunks
// can be long, so that their walk-in (2 ITER r rows) costs little.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"
#include "iir_box.glsl"

layout(constant_id = IIR_SPEC_SUBS) const int SUBS = 4;   // rows per chunk / E
layout(local_size_x = IIR_COLS_LINES, local_size_y = IIR_COLS_SEGS) in;

const int R = IIR_COLS_ROWS;

// Per line group and segment: the three sums after the segment's rows,
// from rest.
shared uvec4 seg_sums[IIR_COLS_SEGS][IIR_COLS_LINES][3];

// The running sums (S1, S2, S3) entering a run of n rows, then through them
// with sums t from rest.
void through(inout uvec4 c[3], uint n, uvec4 t[3])
{
  c[2] += n * c[1] + (n * (n + 1u) / 2u) * c[0] + t[2];
  c[1] += n * c[0] + t[1];
  c[0] += t[0];
}

// The last sum at the n-th row of a run entered with c, whose own last sum
// from rest there is l.
uvec4 finished(uvec4 c[3], uint n, uvec4 l)
{
  if (ITER == 1)
    return c[0] + l;
  if (ITER == 2)
    return c[1] + n * c[0] + l;
  return c[2] + n * c[1] + (n * (n + 1u) / 2u) * c[0] + l;
}

// A segment's sums from rest through the border rules: R rows from tap
// row q0, the last sum of each in l. A loop over copies in local memory
// (rolled()): unrolled like the plain path, it doubled the pipeline's code.
void segment_general(int q0, int m, bool live, inout uvec4 t[3], out uvec4 l[R])
{
  uvec4 last[R];
  for (int i = 0; i < rolled(R); i++) {
    uvec4 x[4];
    for (int k = 0; k < rolled(4); k++)
      x[k] = k > ITER || !live ? uvec4(0u) : tap(max(q0 + i - k * m, first));
    box_advance(x[0], x[1], x[2], x[3], t[0], t[1], t[2]);
    last[i] = t[ITER - 1];
  }
  [[unroll]] for (int i = 0; i < R; i++)
    l[i] = last[i];
}

void main()
{
  line = int(gl_WorkGroupID.x) * IIR_COLS_LINES + int(gl_LocalInvocationID.x);
  int seg = int(gl_LocalInvocationID.y);
  int reach = box_reach(), m = box_width();
  int c0 = int(gl_WorkGroupID.y) * SUBS * E + pc.out_lo;
  int end = min(c0 + SUBS * E, pc.out_lo + pc.out_len);
  bool live = line < pc.lines;
  first = c0 - reach;

  // The image read directly where the line group is 8 bytes of its rows
  // (taps inside it are then plain loads), the output a word at a time
  // where it can be.
  int col = IN_FIXED ? image_group() : -1, rows = pc.fin_stride >> 1;
  int o = output_word_y();

  uvec4 back = live ? tap(first) * box_gain() : uvec4(0u);
  float unit = 1.0 / (float(box_gain()) * float(1 << FRAC));
  uvec4 carry[3] = uvec4[3](uvec4(0u), uvec4(0u), uvec4(0u));

  for (int qa = first; qa < end + reach; qa += IIR_COLS_SEGS * R) {
    int q0 = qa + seg * R;   // this segment's first tap row
    uvec4 l[R];
    uvec4 t[3] = uvec4[3](uvec4(0u), uvec4(0u), uvec4(0u));
    // Every tap of the segment a row of the image: plain loads.
    if (live && col >= 0 && max(q0 - ITER * m, first) >= pc.fin_y0
        && max(q0 + R - 1, first) < pc.fin_y0 + pc.fin_h) {
      [[unroll]] for (int i = 0; i < R; i++) {
        uvec4 x[4];
        [[unroll]] for (int k = 0; k < 4; k++) {
          x[k] = uvec4(0u);
          if (k <= ITER)
            x[k] = box_from_image_words(fixed_words2[col + (max(q0 + i - k * m, first) - pc.fin_y0) * rows]);
        }
        box_advance(x[0], x[1], x[2], x[3], t[0], t[1], t[2]);
        l[i] = t[ITER - 1];
      }
    } else {
      segment_general(q0, m, live, t, l);
    }
    seg_sums[seg][gl_LocalInvocationID.x] = t;
    barrier();
    uvec4 enter[3] = carry;
    [[unroll]] for (int j = 0; j < IIR_COLS_SEGS; j++) {
      if (j == seg)
        enter = carry;
      through(carry, uint(R), seg_sums[j][gl_LocalInvocationID.x]);
    }
    barrier();
    if (!live)
      continue;
    vec4 v[R];
    [[unroll]] for (int i = 0; i < R; i++)
      v[i] = vec4(finished(enter, uint(i + 1), l[i]) + back) * unit;
    if (o >= 0) {
      [[unroll]] for (int i = 0; i < R; i++) {
        int p = q0 + i - reach;
        if (p >= max(c0, pc.out_lo) && p < end)
          out_words[o + p * pc.out_stride] = word_of_lanes(v[i]);
      }
    } else {
      // The general writer, once, in a loop over a copy (rolled()).
      vec4 w[R] = v;
      for (int i = 0; i < rolled(R); i++) {
        int p = q0 + i - reach;
        if (p >= max(c0, pc.out_lo) && p < end)
          store_packed_y_at(p, line, w[i]);
      }
    }
  }
}
