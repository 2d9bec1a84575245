#version 450
// iir_tails.comp: "Compiling High Performance Recursive Filters"'s inter-tile
// pass. The chunks' tails from rest become the states entering each chunk:
// causal from the left boundary on (s_(j+1) = A^L s_j + f_j), then anticausal
// from the exact right boundary (u_(j-1) = A^L u_j + g_j + cross s_j, the
// causal state entering a chunk reaching its anticausal tail through the cross
// matrix). Both are written over the tails in place.
//
// A work-group is SLOTS slots x LINES line groups (a slot's line groups in
// consecutive invocations, as their tails lie), and each recurrence is an
// inclusive scan across a line group's slots (Kogge-Stone through shared
// memory, with the chunk transitions A^(L 2^d)): slot 0 holds the state
// entering the first chunk of a window and slot k the tail of the k-th,
// so that slot k ends with the state entering chunk k. A line of more than
// SLOTS - 1 chunks runs window after window, slot SLOTS - 1's result
// entering the next. (Scanning by subgroup shuffles where a subgroup holds
// whole line groups measured the same on the H100.)
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(constant_id = IIR_SPEC_LEVEL) const int LEVEL = 0;   // the chunk transition A^L
layout(constant_id = IIR_SPEC_SLOTS) const int SLOTS = 4;   // a power of two, at most IIR_GROUP_SIZE
layout(local_size_x = IIR_GROUP_SIZE) in;

const int LINES = IIR_GROUP_SIZE / SLOTS;   // line groups per work-group
const int WINDOW = SLOTS - 1;               // chunks per window

shared vec4 partial[KMAX * IIR_GROUP_SIZE];
// Per line group, a state passed to slot 0 (SLOTS >= 4: two chunks or more).
shared vec4 handover[KMAX * IIR_GROUP_SIZE / 4];

// v at slot k becomes sum over slots i <= k of A^(L (k - i)) v_i. Called
// by every invocation (barriers).
void scan_slots(bool anti, int k, inout vec4 v[KMAX])
{
  int K = anti ? KA : KC;
  int me = int(gl_LocalInvocationIndex);
  for (int d = 0; (1 << d) < SLOTS; d++) {
    vec4 n[KMAX];
    zero_state(n);
    [[unroll]] for (int i = 0; i < K; i++)
      partial[i * IIR_GROUP_SIZE + me] = v[i];
    barrier();
    if (k >= (1 << d))
      [[unroll]] for (int i = 0; i < K; i++)
        n[i] = partial[i * IIR_GROUP_SIZE + me - (LINES << d)];
    barrier();
    if (k >= (1 << d)) {
      apply_p(anti, LEVEL + d, n);
      [[unroll]] for (int i = 0; i < K; i++)
        v[i] += n[i];
    }
  }
}

// Slot `from`'s v to slot 0 of the same line group. Called by every
// invocation (barriers).
void to_slot0(int k, int lg, int from, inout vec4 v[KMAX])
{
  if (k == from)
    [[unroll]] for (int i = 0; i < KMAX; i++)
      handover[i * LINES + lg] = v[i];
  barrier();
  if (k == 0)
    [[unroll]] for (int i = 0; i < KMAX; i++)
      v[i] = handover[i * LINES + lg];
  barrier();
}

void main()
{
  int me = int(gl_LocalInvocationIndex);
  int k = me / LINES, lg = me % LINES;
  int line = int(gl_WorkGroupID.x) * LINES + lg;
  bool live = line < pc.lines;
  int m = pc.chunks;

  // Causal: slot 0 starts from the left boundary.
  vec4 carry[KMAX], send[KMAX];
  zero_state(carry);
  zero_state(send);
  if (KC > 0) {
    if (live && k == 0)
      left_boundary(line, carry);
    for (int c0 = 0; c0 < m; c0 += WINDOW) {
      vec4 v[KMAX];
      zero_state(v);
      if (k == 0)
        v = carry;
      else if (live && c0 + k - 1 < m)
        [[unroll]] for (int i = 0; i < KC; i++)
          v[i] = tail_load(c0 + k - 1, line, i);
      scan_slots(false, k, v);
      if (live && k < WINDOW && c0 + k < m)
        [[unroll]] for (int i = 0; i < KC; i++)
          tail_store(c0 + k, line, i, v[i]);
      if (c0 + k == m)
        send = v;   // the state leaving the line
      to_slot0(k, lg, WINDOW, v);
      if (k == 0)
        carry = v;
    }
  }
  if (KA == 0)
    return;

  // The slot that left the line hands its state to slot 0 for the right
  // boundary; the causal states stored above are read below.
  if (KC > 0) {
    to_slot0(k, lg, (m - 1) % WINDOW + 1, send);
    memoryBarrierBuffer();
    barrier();
  }

  // Anticausal, from the right: slot 0 starts from the right boundary,
  // slot k takes g + cross s of the chunk k - 1 to the right of the
  // window's first.
  zero_state(carry);
  if (live && k == 0)
    right_boundary(line, send, carry);
  for (int c1 = m - 1; c1 >= 0; c1 -= WINDOW) {
    vec4 v[KMAX];
    zero_state(v);
    int j = c1 - k + 1;
    if (k == 0) {
      v = carry;
    } else if (live && j >= 0) {
      vec4 sc[KMAX];
      zero_state(sc);
      [[unroll]] for (int i = 0; i < KC; i++)
        sc[i] = tail_load(j, line, i);
      [[unroll]] for (int i = 0; i < KA; i++) {
        v[i] = tail_load(j, line, KC + i);
        [[unroll]] for (int q = 0; q < KC; q++)
          v[i] += cross_m[i][q] * sc[q];
      }
    }
    scan_slots(true, k, v);
    if (live && k < WINDOW && c1 - k >= 0)
      [[unroll]] for (int i = 0; i < KA; i++)
        tail_store(c1 - k, line, KC + i, v[i]);
    to_slot0(k, lg, WINDOW, v);
    if (k == 0)
      carry = v;
  }
}
