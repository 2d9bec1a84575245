#version 450
// iir_tails.comp: text 004's inter-tile pass. One invocation per line group
// walks its chunks in order: the causal tails become the states entering
// each chunk (from the left boundary on), then from the exact right
// boundary the anticausal tails become the states entering each chunk from
// the right, each also taking the causal state that entered its chunk
// through the cross matrix. Both are written over the tails in place.
//
// The walk is serial; what it reads does not depend on it, so the tails of
// AHEAD chunks are loaded at once and their latencies overlap.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(constant_id = IIR_SPEC_LEVEL) const int LEVEL = 0;   // the chunk transition A^L
layout(local_size_x = IIR_LINEAR_GROUP) in;

const int AHEAD = 4;

void main()
{
  int line = int(gl_GlobalInvocationID.x);
  if (line >= pc.lines)
    return;

  vec4 s[KMAX];
  zero_state(s);
  if (KC > 0) {
    left_boundary(line, s);
    for (int j0 = 0; j0 < pc.chunks; j0 += AHEAD) {
      vec4 f[AHEAD][KMAX];
      [[unroll]] for (int a = 0; a < AHEAD; a++)
        [[unroll]] for (int i = 0; i < KC; i++)
          f[a][i] = j0 + a < pc.chunks ? tail_load(j0 + a, line, i) : vec4(0.0);
      [[unroll]] for (int a = 0; a < AHEAD; a++) {
        if (j0 + a >= pc.chunks)
          break;
        [[unroll]] for (int i = 0; i < KC; i++)
          tail_store(j0 + a, line, i, s[i]);
        apply_pc(LEVEL, s);
        [[unroll]] for (int i = 0; i < KC; i++)
          s[i] += f[a][i];
      }
    }
  }

  if (KA > 0) {
    vec4 u[KMAX];
    right_boundary(line, s, u);
    for (int j0 = pc.chunks - 1; j0 >= 0; j0 -= AHEAD) {
      vec4 g[AHEAD][KMAX], sc[AHEAD][KMAX];
      [[unroll]] for (int a = 0; a < AHEAD; a++) {
        zero_state(sc[a]);
        [[unroll]] for (int i = 0; i < KA; i++)
          g[a][i] = j0 - a >= 0 ? tail_load(j0 - a, line, KC + i) : vec4(0.0);
        [[unroll]] for (int i = 0; i < KC; i++)
          sc[a][i] = j0 - a >= 0 ? tail_load(j0 - a, line, i) : vec4(0.0);
      }
      [[unroll]] for (int a = 0; a < AHEAD; a++) {
        if (j0 - a < 0)
          break;
        [[unroll]] for (int i = 0; i < KA; i++)
          tail_store(j0 - a, line, KC + i, u[i]);
        apply_pa(LEVEL, u);
        [[unroll]] for (int i = 0; i < KA; i++) {
          u[i] += g[a][i];
          [[unroll]] for (int k = 0; k < KC; k++)
            u[i] += cross_m[i][k] * sc[a][k];
        }
      }
    }
  }
}
