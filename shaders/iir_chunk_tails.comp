#version 450
// iir_chunk_tails.comp: the tails iir_scan.comp writes with OUT_KIND tails
// (the causal state leaving each chunk, and the anticausal state leaving it
// to the left over the causal result, both from rest), as sums. From rest
// every tail is linear in the chunk's samples, tail_i = sum_n W[n][i] x[n],
// with W from lib/vktiir.c in the uniform, so no recursion runs here:
// a chunk splits into stretches of any length, whose loads do not wait for
// each other. A work-group is IIR_TAIL_GROUP_X line groups (consecutive
// words of a row along y) x SPLIT stretches of a chunk; all invocations of
// a subgroup read the same weights, and the stretches' sums meet in shared
// memory.
#extension GL_GOOGLE_include_directive : require
#define IIR_TAIL_WEIGHTS
#include "iir_common.glsl"

layout(constant_id = IIR_SPEC_SUBS) const int SUBS = 1;   // chunk length / E
layout(local_size_x = IIR_TAIL_GROUP_X, local_size_y = IIR_TAIL_SPLIT) in;

const int NT = KC + KA;
const int LEN = SUBS * E;
// Stretches of at least 4 positions.
const int SPLIT = LEN / 4 < IIR_TAIL_SPLIT ? LEN / 4 : IIR_TAIL_SPLIT;
const int STRETCH = LEN / SPLIT;
shared vec4 partial[IIR_TAIL_SPLIT][IIR_TAIL_GROUP_X];

void main()
{
  int lx = int(gl_LocalInvocationID.x), part = int(gl_LocalInvocationID.y);
  int line = int(gl_WorkGroupID.x) * IIR_TAIL_GROUP_X + lx;
  int chunk = int(gl_WorkGroupID.y);
  int n0 = part * STRETCH;
  int p0 = chunk * LEN + n0 + pc.out_lo - pc.off;
  int column = stage_word_column(line);

  vec4 acc[2 * KMAX];
  [[unroll]] for (int i = 0; i < 2 * KMAX; i++)
    acc[i] = vec4(0.0);
  if (part < SPLIT && line < pc.lines) {
    for (int n = 0; n < STRETCH; n += 4) {
      vec4 x[4];
      [[unroll]] for (int k = 0; k < 4; k++)
        x[k] = column >= 0 ? column_word_at(column, p0 + n + k) : stage_input(p0 + n + k, line);
      [[unroll]] for (int k = 0; k < 4; k++) {
        vec4 w0 = tail_w[2 * (n0 + n + k)], w1 = tail_w[2 * (n0 + n + k) + 1];
        [[unroll]] for (int i = 0; i < NT; i++)
          acc[i] += (i < 4 ? w0[i] : w1[i - 4]) * x[k];
      }
    }
  }

  // The stretches' sums, one tail at a time through shared memory.
  [[unroll]] for (int i = 0; i < NT; i++) {
    partial[part][lx] = acc[i];
    barrier();
    if (part == 0)
      [[unroll]] for (int q = 1; q < SPLIT; q++)
        acc[i] += partial[q][lx];
    barrier();
  }
  if (part == 0 && line < pc.lines)
    [[unroll]] for (int i = 0; i < NT; i++)
      tail_store(chunk, line, i, acc[i]);
}
