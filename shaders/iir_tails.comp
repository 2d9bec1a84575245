#version 450
// iir_tails.comp: text 004's inter-tile pass. One invocation per line group
// walks its chunks in order: the causal tails become the states entering
// each chunk (from the left boundary on), then from the exact right
// boundary the anticausal tails become the states entering each chunk from
// the right, each also taking the causal state that entered its chunk
// through the cross matrix. Both are written over the tails in place.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(constant_id = IIR_SPEC_LEVEL) const int LEVEL = 0;   // the chunk transition A^L
layout(local_size_x = IIR_LINEAR_GROUP) in;

void main()
{
  int line = int(gl_GlobalInvocationID.x);
  if (line >= pc.lines)
    return;

  vec4 s[KMAX];
  if (KC > 0) {
    left_boundary(line, s);
    for (int j = 0; j < pc.chunks; j++) {
      vec4 f[KMAX];
      zero_state(f);
      [[unroll]] for (int i = 0; i < KC; i++) {
        f[i] = tail_load(j, line, i);
        tail_store(j, line, i, s[i]);
      }
      apply_pc(LEVEL, s);
      [[unroll]] for (int i = 0; i < KC; i++)
        s[i] += f[i];
    }
  } else {
    zero_state(s);
  }

  if (KA > 0) {
    vec4 u[KMAX];
    right_boundary(line, s, u);
    for (int j = pc.chunks - 1; j >= 0; j--) {
      vec4 g[KMAX], sc[KMAX];
      zero_state(g);
      zero_state(sc);
      [[unroll]] for (int i = 0; i < KA; i++) {
        g[i] = tail_load(j, line, KC + i);
        tail_store(j, line, KC + i, u[i]);
      }
      [[unroll]] for (int i = 0; i < KC; i++)
        sc[i] = tail_load(j, line, i);
      apply_pa(LEVEL, u);
      [[unroll]] for (int i = 0; i < KA; i++) {
        u[i] += g[i];
        [[unroll]] for (int k = 0; k < KC; k++)
          u[i] += cross_m[i][k] * sc[k];
      }
    }
  }
}
