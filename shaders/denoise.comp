#version 450
// denoise.comp: the denoise element, one dispatch per plane. The spatial
// stage is gaussblur's fused tile (gauss_fused.glsl); where the tile writes,
// the temporal stage follows in registers: the motion-adaptive weight
// against the motion reference, judged per quad of lanes, the state (y, m) read and written once, the
// detail that stands out of the noise put back, the result rounded into the
// packed output (docs/SEMANTICS.md, denoise).
//
// The state is laid out in the tile's order: an invocation's 4 lanes are
// one quad, the neighbouring invocation's the next, so a subgroup's state
// loads and stores are whole runs of memory.
#extension GL_GOOGLE_include_directive : require
#include "gauss_fused.glsl"
#include "denoise_interface.h"
#include "keep_detail.glsl"

layout(std140, set = 0, binding = 3) uniform DenoiseParams { DENOISE_PARAM_FIELDS } tp;

layout(std430, set = 0, binding = 4) buffer StateQuads { uvec4 state16[]; };
layout(std430, set = 0, binding = 4) buffer StateQuadsF { vec4 state32[]; };
layout(std430, set = 0, binding = 4) readonly buffer StateFloats { float state_f[]; };

const bool STATE16 = BPC == 1;
const float UNITS = float(DENOISE_STATE_UNITS);

// A scale in code values: k, or with the noise estimated (k < 0) -k times
// the plane's estimate.
float noise_scaled(float k)
{
  return k >= 0.0 ? k : -k * state_f[tp.estimate_index];
}

uint pack_units(vec2 v)
{
  uvec2 u = uvec2(min(v * UNITS + 0.5, vec2(65535.0)));
  return u.x | (u.y << 16);
}

vec2 unpack_units(uint p)
{
  return vec2(float(p & 0xffffu), float(p >> 16)) * (1.0 / UNITS);
}

// The first state vector of quad qx of state row qy.
int state_vector(int qx, int qy)
{
  return tp.state_base + DENOISE_QUAD_VEC4S(BPC) * (qy * tp.state_stride + qx);
}

// The state of the quad at vector v.
void load_state(int v, out vec4 y, out vec4 m)
{
  if (STATE16) {
    uvec4 r = state16[v];
    y = vec4(unpack_units(r.x), unpack_units(r.y));
    m = vec4(unpack_units(r.z), unpack_units(r.w));
  } else {
    y = state32[v];
    m = state32[v + 1];
  }
}

void store_state(int v, vec4 y, vec4 m)
{
  if (STATE16) {
    state16[v] = uvec4(pack_units(y.xy), pack_units(y.zw), pack_units(m.xy),
                       pack_units(m.zw));
  } else {
    state32[v] = y;
    state32[v + 1] = m;
  }
}

// Motion is judged on the quad as a whole: the mean of (d / T)^2 over its
// lanes that hold filtered values of the target ROI. One pixel's colour
// components, or neighbouring values of one component, move together;
// their mean lets noise through less often than one value alone, so that
// still texture averages and moving texture does not.
float group_motion(int c0, vec4 d, bool checked)
{
  vec4 q = d / noise_scaled(tp.motion);
  q *= q;
  float sum = 0.0, n = 0.0;
  [[unroll]] for (int i = 0; i < 4; i++) {
    // quads start on a multiple of 4 lanes, so lane i holds slot i of a pixel
    bool counts = FULL_MASK || ((pc.chan_mask >> (i & (NCOMP - 1))) & 1u) != 0u;
    if (checked)
      counts = counts && c0 + i >= pc.dst_x * NCOMP && c0 + i < (pc.dst_x + pc.width) * NCOMP;
    sum += counts ? q[i] : 0.0;
    n += counts ? 1.0 : 0.0;
  }
  return sum / max(n, 1.0);
}

void write_blur(int c0, int row, vec4 s, bool checked)
{
  int qx = (c0 - tp.lane0) >> 2;
  int qy = row - pc.dst_y;
  float detail = tp.detail == 0.0 ? 0.0 : noise_scaled(tp.detail);
  // With keep-detail the state's y is the source's average (u), and the
  // output m with the detail standing out of the noise put back; without
  // it, y is the output and m equals it.
  vec4 y = s, m = s, w = vec4(0.0);
  if (detail != 0.0) {
    [[unroll]] for (int i = 0; i < 4; i++)
      y[i] = source_lane(c0 + i, row, checked);
  }
  // Quads of a checked tile beyond the ROI have no state.
  if (!checked || (qy < pc.height && qx < tp.state_stride)) {
    int v = state_vector(qx, qy);
    if (tp.alpha > 0.0) {
      vec4 prev_y, prev_m;
      load_state(v, prev_y, prev_m);
      w = vec4(tp.alpha);
      if (tp.motion != 0.0)
        w *= exp(-group_motion(c0, s - prev_m, checked));
      y = mix(y, detail != 0.0 ? prev_y : prev_m, w);
      m = mix(s, prev_m, w);
    }
    store_state(v, y, detail != 0.0 ? m : y);
  }
  store_vec4(c0, row, detail != 0.0 ? detail_output(y, m, w, detail) : y,
             checked);
}

void main()
{
  fused_main();
}
