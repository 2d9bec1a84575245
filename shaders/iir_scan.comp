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

layout(constant_id = 14) const int SUBS = 1;    // blocks per chunk: a power of two
layout(constant_id = 15) const int LINES = 64;  // line groups per work-group
layout(local_size_x_id = 15, local_size_y_id = 14) in;

const int KS = KC > KA ? KC : KA;
shared vec4 xch[SUBS * LINES * (KS > 0 ? KS : 1)];

int slot(int t, int lg, int i) { return (t * LINES + lg) * KS + i; }

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

  vec4 x[E];
  [[unroll]] for (int e = 0; e < E; e++)
    x[e] = live ? stage_input(p0 + e, line) : vec4(0.0);

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
    [[unroll]] for (int e = E - 1; e >= 0; e--)
      x[e] = step_a(enter, x[e]);
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
