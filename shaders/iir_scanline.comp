#version 450
// iir_scanline.comp: algorithm=scanline, the baseline — one invocation per line
// group runs the whole line serially: the causal stage left to right from
// the left boundary, the anticausal stage back from the exact right
// boundary, through a float line in the scratch buffer (the tails region),
// then writes the result in blocks.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(local_size_x = IIR_LINEAR_GROUP) in;

int line_index(int v, int line) { return pc.tails_base + (v * pc.lines + line) * 4; }

void put(int v, int line, vec4 y)
{
  int b = line_index(v, line);
  fl[b] = y.x; fl[b + 1] = y.y; fl[b + 2] = y.z; fl[b + 3] = y.w;
}

vec4 get(int v, int line)
{
  int b = line_index(v, line);
  return vec4(fl[b], fl[b + 1], fl[b + 2], fl[b + 3]);
}

void main()
{
  int line = int(gl_GlobalInvocationID.x);
  if (line >= pc.lines)
    return;
  int n = pc.chunks * E;
  int pstart = pc.out_lo - pc.off;

  vec4 s[KMAX];
  zero_state(s);
  if (KC > 0)
    left_boundary(line, s);
  if (BOX) {
    // The box's running sum adds and subtracts values up to 65535 (2r + 1)
    // along the whole padded line: compensated, or its rounding drifts.
    precise vec4 sum = s[0];
    precise vec4 lost = vec4(0.0);
    for (int v = 0; v < n; v++) {
      precise vec4 z = stage_input(pstart + v, line) - lost;
      precise vec4 t = sum + z;
      lost = (t - sum) - z;
      sum = t;
      put(v, line, sum);
    }
  } else {
    for (int v = 0; v < n; v++) {
      vec4 y = stage_input(pstart + v, line);
      if (KC > 0)
        y = step_c(s, y);
      put(v, line, y);
    }
  }
  if (KA > 0) {
    vec4 u[KMAX];
    right_boundary(line, s, u);
    for (int v = n - 1; v >= 0; v--)
      put(v, line, step_a(u, get(v, line)));
  }
  for (int b = 0; b < pc.chunks; b++) {
    vec4 x[E];
    [[unroll]] for (int e = 0; e < E; e++)
      x[e] = get(b * E + e, line);
    store_block(pstart + b * E, line, x);
  }
}
