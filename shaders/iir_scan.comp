#version 450
// iir_scan.comp: text 004's intra-tile scan. A work-group holds LINES line
// groups x one chunk of SUBS blocks of E positions; each invocation keeps
// its block in registers. A block first runs the causal stage from rest,
// the blocks' end states are combined across the chunk through shared
// memory (a Kogge-Stone scan with the block transitions P_d = A^(E 2^d)),
// and the block runs again from its true entering state; the same from the
// right for the anticausal stage, which reads the causal result.
//
// OUT_KIND tails: the chunk starts from rest on both sides and only its
// tails are written — the causal state leaving it and the anticausal state
// leaving it to the left (iir_tails.comp completes them across chunks).
// Otherwise the chunk's entering states are the completed tails (or, for a
// line of one chunk, the boundaries) and the filtered values are written.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(constant_id = IIR_SPEC_SUBS) const int SUBS = 1;    // blocks per chunk: a power of two
layout(constant_id = IIR_SPEC_LINES) const int LINES = 64;  // line groups per work-group
layout(local_size_x_id = IIR_SPEC_LINES, local_size_y_id = IIR_SPEC_SUBS) in;

const int KS = KC > KA ? KC : KA;
shared vec4 xch[SUBS * LINES * (KS > 0 ? KS : 1)];

int slot(int t, int lg, int i) { return (t * LINES + lg) * KS + i; }

// Along x an invocation's block is E consecutive pixels of a row, so its
// own loads and stores would stride the row by whole blocks. The
// work-group instead moves its rows through shared memory with consecutive
// invocations on consecutive values, in NCOMP rounds of SLAB positions
// (4096 floats for 256 invocations).
const int ROUNDS = AXIS == 0 ? NCOMP : 1;
const int SLAB = SUBS * E / ROUNDS;
const int SLAB_F = SLAB * NCOMP;
const int ROW_F = SLAB_F + SLAB_F / 32;   // a float of padding per 32: no bank conflicts
const int GROUP = SUBS * LINES;
const int ITER = LINES * SLAB_F / GROUP;  // values each invocation moves per round: 16
shared float stage[AXIS == 0 ? LINES * ROW_F : 1];

int spad(int i) { return i + (i >> 5); }

// The stage input of the group's rows for the chunk starting at ROI
// position chunk_p; invocation (lg, t) gets its block.
void load_rows(int chunk_p, int line0, int lg, int t, out vec4 x[E])
{
  int tid = int(gl_LocalInvocationIndex);
  [[unroll]] for (int e = 0; e < E; e++)
    x[e] = vec4(0.0);
  [[unroll]] for (int r = 0; r < ROUNDS; r++) {
    // All ITER loads first, so that they are in flight together.
    float v[ITER];
    [[unroll]] for (int it = 0; it < ITER; it++) {
      int idx = tid + it * GROUP;
      int rl = idx / SLAB_F, i = idx - rl * SLAB_F;
      int row = line0 + rl;
      v[it] = 0.0;
      if (row < pc.lines) {
        int p = chunk_p + r * SLAB + (i >> LOG2_NCOMP);
        int c = i & (NCOMP - 1);
        v[it] = BOX ? fetch(p + box_radius(), c, row) - fetch(p - box_radius() - 1, c, row)
                    : fetch(p, c, row);
      }
    }
    [[unroll]] for (int it = 0; it < ITER; it++) {
      int idx = tid + it * GROUP;
      int rl = idx / SLAB_F;
      stage[rl * ROW_F + spad(idx - rl * SLAB_F)] = v[it];
    }
    barrier();
    [[unroll]] for (int e = 0; e < E; e++) {
      int q = t * E + e - r * SLAB;
      if (q >= 0 && q < SLAB)
        [[unroll]] for (int c = 0; c < NCOMP; c++)
          x[e][c] = stage[lg * ROW_F + spad(q * NCOMP + c)];
    }
    barrier();
  }
}

// Writes the group's finished rows: floats, or packed words (finish()ed)
// merged with the input where a lane is not filtered or lies outside the
// ROI.
void store_rows(int chunk_p, int line0, int lg, int t, vec4 x[E])
{
  int tid = int(gl_LocalInvocationIndex);
  int lo = pc.out_lo, hi = pc.out_lo + pc.out_len;
  [[unroll]] for (int r = 0; r < ROUNDS; r++) {
    int slab_p = chunk_p + r * SLAB;
    [[unroll]] for (int e = 0; e < E; e++) {
      int q = t * E + e - r * SLAB;
      if (q >= 0 && q < SLAB)
        [[unroll]] for (int c = 0; c < NCOMP; c++)
          stage[lg * ROW_F + spad(q * NCOMP + c)] = x[e][c] * misc.x;
    }
    barrier();
    if (OUT_KIND == OUT_FLOATS) {
      [[unroll]] for (int it = 0; it < ITER; it++) {
        int idx = tid + it * GROUP;
        int rl = idx / SLAB_F, i = idx - rl * SLAB_F;
        int row = line0 + rl;
        int p = slab_p + (i >> LOG2_NCOMP);
        if (row < pc.lines && p >= lo && p < hi)
          fl[pc.fout_base + (row - pc.fout_y0) * pc.fout_stride + (p - pc.fout_x0) * NCOMP
             + (i & (NCOMP - 1))] = stage[rl * ROW_F + spad(i)];
      }
    } else {
      const int WORDS = SLAB_F / CPW;
      int word0 = ((pc.dst_x + slab_p) * NCOMP) / CPW;
      [[unroll]] for (int it = 0; it < ITER / CPW; it++) {
        int idx = tid + it * GROUP;
        int rl = idx / WORDS, wi = idx - rl * WORDS;
        int row = line0 + rl;
        int pw0 = slab_p + ((wi * CPW) >> LOG2_NCOMP);
        int pw1 = slab_p + ((wi * CPW + CPW - 1) >> LOG2_NCOMP);
        if (row >= pc.lines || pw1 < lo || pw0 >= hi)
          continue;
        int trow = pc.dst_y + row;
        uint word = 0u, keep = 0u;
        [[unroll]] for (int l = 0; l < CPW; l++) {
          int i = wi * CPW + l;
          int p = slab_p + (i >> LOG2_NCOMP);
          int c = i & (NCOMP - 1);
          if (p >= lo && p < hi && lane_filtered(c))
            word |= lane_bits(finish(stage[rl * ROW_F + spad(i)], p, c, row), l);
          else
            keep |= lane_mask(l);
        }
        if (keep != 0u)
          word |= in_words[pc.in_base + trow * pc.in_stride + word0 + wi] & keep;
        out_words[pc.out_base + trow * pc.out_stride + word0 + wi] = word;
      }
    }
    barrier();
  }
}

void main()
{
  int lg = int(gl_LocalInvocationID.x);
  int t = int(gl_LocalInvocationID.y);
  int line = int(gl_WorkGroupID.x) * LINES + lg;
  int chunk = int(gl_WorkGroupID.y);
  bool live = line < pc.lines;
  int p0 = (chunk * SUBS + t) * E + pc.out_lo - pc.off;
  bool tails = OUT_KIND == OUT_TAILS;
  bool one_chunk = pc.chunks == 1;

  int chunk_p = chunk * SUBS * E + pc.out_lo - pc.off;
  int line0 = int(gl_WorkGroupID.x) * LINES;
  vec4 x[E];
  if (AXIS == 0) {
    load_rows(chunk_p, line0, lg, t, x);
  } else {
    [[unroll]] for (int e = 0; e < E; e++)
      x[e] = live ? stage_input(p0 + e, line) : vec4(0.0);
  }

  vec4 s[KMAX], sin_c[KMAX], send[KMAX];
  zero_state(send);
  if (KC > 0) {
    zero_state(s);
    [[unroll]] for (int e = 0; e < E; e++)
      step_c(s, x[e]);

    zero_state(sin_c);
    if (!tails && live) {
      if (one_chunk)
        left_boundary(line, sin_c);
      else
        [[unroll]] for (int i = 0; i < KC; i++)
          sin_c[i] = tail_load(chunk, line, i);
    }
    if (t == 0) {
      vec4 carry[KMAX] = sin_c;
      apply_pc(0, carry);
      [[unroll]] for (int i = 0; i < KC; i++)
        s[i] += carry[i];
    }
    // Inclusive scan: s becomes the true state leaving block t.
    for (int d = 0; (1 << d) < SUBS; d++) {
      int o = 1 << d;
      [[unroll]] for (int i = 0; i < KC; i++)
        xch[slot(t, lg, i)] = s[i];
      barrier();
      if (t >= o) {
        vec4 prev[KMAX];
        zero_state(prev);
        [[unroll]] for (int i = 0; i < KC; i++)
          prev[i] = xch[slot(t - o, lg, i)];
        apply_pc(d, prev);
        [[unroll]] for (int i = 0; i < KC; i++)
          s[i] += prev[i];
      }
      barrier();
    }
    [[unroll]] for (int i = 0; i < KC; i++)
      xch[slot(t, lg, i)] = s[i];
    barrier();
    vec4 enter[KMAX] = sin_c;
    if (t > 0)
      [[unroll]] for (int i = 0; i < KC; i++)
        enter[i] = xch[slot(t - 1, lg, i)];
    [[unroll]] for (int i = 0; i < KC; i++)
      send[i] = xch[slot(SUBS - 1, lg, i)];
    barrier();
    // The tails need the causal result only as the anticausal input.
    if (!tails || KA > 0)
      [[unroll]] for (int e = 0; e < E; e++)
        x[e] = step_c(enter, x[e]);
  }

  vec4 u[KMAX], uin[KMAX], uleft[KMAX];
  if (KA > 0) {
    zero_state(u);
    [[unroll]] for (int e = E - 1; e >= 0; e--)
      step_a(u, x[e]);

    zero_state(uin);
    if (!tails && live) {
      if (one_chunk)
        right_boundary(line, send, uin);
      else
        [[unroll]] for (int i = 0; i < KA; i++)
          uin[i] = tail_load(chunk, line, KC + i);
    }
    if (t == SUBS - 1) {
      vec4 carry[KMAX] = uin;
      apply_pa(0, carry);
      [[unroll]] for (int i = 0; i < KA; i++)
        u[i] += carry[i];
    }
    for (int d = 0; (1 << d) < SUBS; d++) {
      int o = 1 << d;
      [[unroll]] for (int i = 0; i < KA; i++)
        xch[slot(t, lg, i)] = u[i];
      barrier();
      if (t + o < SUBS) {
        vec4 next[KMAX];
        zero_state(next);
        [[unroll]] for (int i = 0; i < KA; i++)
          next[i] = xch[slot(t + o, lg, i)];
        apply_pa(d, next);
        [[unroll]] for (int i = 0; i < KA; i++)
          u[i] += next[i];
      }
      barrier();
    }
    [[unroll]] for (int i = 0; i < KA; i++)
      xch[slot(t, lg, i)] = u[i];
    barrier();
    vec4 enter[KMAX] = uin;
    if (t < SUBS - 1)
      [[unroll]] for (int i = 0; i < KA; i++)
        enter[i] = xch[slot(t + 1, lg, i)];
    [[unroll]] for (int i = 0; i < KA; i++)
      uleft[i] = xch[slot(0, lg, i)];
    if (!tails)
      [[unroll]] for (int e = E - 1; e >= 0; e--)
        x[e] = step_a(enter, x[e]);
  }

  if (AXIS == 0 && !tails) {
    store_rows(chunk_p, line0, lg, t, x);
    return;
  }
  if (!live)
    return;
  if (tails) {
    if (t == SUBS - 1)
      [[unroll]] for (int i = 0; i < KC; i++)
        tail_store(chunk, line, i, send[i]);
    if (t == 0)
      [[unroll]] for (int i = 0; i < KA; i++)
        tail_store(chunk, line, KC + i, uleft[i]);
    return;
  }
  store_block(p0, line, x);
}
