#version 450
// denoise.comp: the denoise element, one dispatch per plane. The spatial
// stage is gaussblur's fused tile (gauss_fused.glsl); where the tile writes,
// the temporal stage follows in registers: the motion-adaptive weight
// against the motion reference, judged per quad of lanes, the state (y, m)
// read and written once, the detail that stands out of the noise put back
// beyond the threshold the last frame's risk sums chose, this frame's risk
// sums added up for the next, the result rounded into the packed output
// (docs/SEMANTICS.md, denoise).
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
layout(std430, set = 0, binding = 4) coherent buffer StateUints { uint state_u[]; };
layout(std430, set = 0, binding = 5) writeonly buffer Report { float report[]; };

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

// The lanes of the quad at c0 that hold filtered values of the target ROI.
bvec4 lanes_that_count(int c0, bool checked)
{
  bvec4 counts;
  [[unroll]] for (int i = 0; i < 4; i++) {
    // quads start on a multiple of 4 lanes, so lane i holds slot i of a pixel
    counts[i] = FULL_MASK || ((pc.chan_mask >> (i & (NCOMP - 1))) & 1u) != 0u;
    if (checked)
      counts[i] = counts[i] && c0 + i >= pc.dst_x * NCOMP && c0 + i < (pc.dst_x + pc.width) * NCOMP;
  }
  return counts;
}

// Motion is judged on the quad as a whole: the mean of (d / T)^2 over the
// lanes that count. One pixel's colour components, or neighbouring values
// of one component, move together; their mean lets noise through less
// often than one value alone, so that still texture averages and moving
// texture does not.
float group_motion(vec4 d, bvec4 counts)
{
  vec4 q = d / noise_scaled(tp.motion);
  q *= q;
  float sum = 0.0, n = 0.0;
  [[unroll]] for (int i = 0; i < 4; i++) {
    sum += counts[i] ? q[i] : 0.0;
    n += counts[i] ? 1.0 : 0.0;
  }
  return sum / max(n, 1.0);
}

// ---- the detail threshold, chosen by Stein's unbiased risk estimate ----

const float SURE_T[DENOISE_SURE_CANDIDATES] = float[](0.0, 1.0 / 6.0, 0.25, 1.0 / 3.0, 0.5);

// This invocation's share of the frame's sums, then the work-group's,
// added to the ring once.
uint g_sure[DENOISE_SURE_SUMS];
shared uint sure_sums[DENOISE_SURE_SUMS];
float g_detail_t;     // t of this frame: D = sigma / t, 0 puts no detail back

uint sure_units(float v)
{
  return uint(v * DENOISE_SURE_UNITS + 0.5);
}

// The risk terms of the residuals r of the lanes that count, in sigmas.
void sure_add(vec4 r, bvec4 counts)
{
  [[unroll]] for (int i = 0; i < 4; i++) {
    if (!counts[i])
      continue;
    float rho = clamp(r[i], -DENOISE_SURE_CLAMP, DENOISE_SURE_CLAMP);
    g_sure[0] += sure_units(rho * rho);
    [[unroll]] for (int j = 1; j < DENOISE_SURE_CANDIDATES; j++) {
      float q = rho * SURE_T[j];
      q *= q;
      float e = exp(-q);
      g_sure[j] += sure_units(rho * rho * e * e);
      g_sure[DENOISE_SURE_CANDIDATES - 1 + j] += sure_units(1.0 - e + 2.0 * q * e);
    }
    g_sure[DENOISE_SURE_SUMS - 1] += 1u;
  }
}

// Sum j of `slot` minus sum k (k < 0: zero), as a float: the difference
// is taken in 64 bits first, as the risks differ by little compared with
// their size, and a float of each sum would lose what tells them apart.
float sure_diff(int slot, int j, int k)
{
  int u = tp.sure_base + slot * DENOISE_SURE_SLOT_UINTS;
  uint alo = state_u[u + 2 * j], ahi = state_u[u + 2 * j + 1];
  uint blo = k < 0 ? 0u : state_u[u + 2 * k], bhi = k < 0 ? 0u : state_u[u + 2 * k + 1];
  bool negative = ahi < bhi || (ahi == bhi && alo < blo);
  if (negative) {
    uint t = alo; alo = blo; blo = t;
    t = ahi; ahi = bhi; bhi = t;
  }
  uint lo = alo - blo, hi = ahi - bhi - (alo < blo ? 1u : 0u);
  float d = (float(hi) * 4294967296.0 + float(lo)) / DENOISE_SURE_UNITS;
  return negative ? -d : d;
}

// t from the last frame's sums: the vertex of the parabola through the
// risks of the candidate with the least risk and its neighbours (the two
// after the first, the two before the last), which moves smoothly as the
// sums do; where that parabola has no minimum, whichever of its outer two
// candidates has the smaller risk. Risks are taken relative to t = 0's.
float sure_choice(int slot)
{
  if (sure_diff(slot, DENOISE_SURE_SUMS - 1, -1) == 0.0)
    return DENOISE_SURE_FIRST_T;
  float risk[DENOISE_SURE_CANDIDATES];
  risk[0] = 0.0;
  int best = 0;
  [[unroll]] for (int j = 1; j < DENOISE_SURE_CANDIDATES; j++) {
    risk[j] = sure_diff(slot, j, 0) + tp.sure_c2 * sure_diff(slot, DENOISE_SURE_CANDIDATES - 1 + j, -1);
    if (risk[j] < risk[best])
      best = j;
  }
  int i = clamp(best, 1, DENOISE_SURE_CANDIDATES - 2);
  float t0 = SURE_T[i - 1], t1 = SURE_T[i], t2 = SURE_T[i + 1];
  float d01 = (risk[i] - risk[i - 1]) / (t1 - t0);
  float d12 = (risk[i + 1] - risk[i]) / (t2 - t1);
  float a = (d12 - d01) / (t2 - t0);
  if (a <= 0.0)
    return risk[i - 1] <= risk[i + 1] ? t0 : t2;
  float vertex = ((t0 + t1) - d01 / a) * 0.5;
  return clamp(vertex, SURE_T[0], SURE_T[DENOISE_SURE_CANDIDATES - 1]);
}

void sure_begin()
{
  int lid = int(gl_LocalInvocationIndex);
  g_detail_t = 0.0;
  [[unroll]] for (int j = 0; j < DENOISE_SURE_SUMS; j++)
    g_sure[j] = 0u;
  if (tp.detail == 0.0)
    return;
  if (lid < DENOISE_SURE_SUMS)
    sure_sums[lid] = 0u;
  // The slot the next frame adds to; nobody reads or adds to it now.
  if (gl_WorkGroupID.xy == uvec2(0) && lid < DENOISE_SURE_SLOT_UINTS)
    state_u[tp.sure_base + (tp.sure_slot + 1) % 3 * DENOISE_SURE_SLOT_UINTS + lid] = 0u;
  g_detail_t = tp.sure_prev != 0 ? sure_choice((tp.sure_slot + 2) % 3) : DENOISE_SURE_FIRST_T;
  if (gl_WorkGroupID.xy == uvec2(0) && lid == 0)
    report[DENOISE_REPORT_DETAIL + tp.report_index] = g_detail_t;
}

// Adds the invocations' sums to the work-group's (one atomic per sum and
// invocation that sampled, not per sampled row), then those to this
// frame's slot, as 64-bit sums.
void sure_end()
{
  if (tp.detail == 0.0)
    return;
  if (g_sure[DENOISE_SURE_SUMS - 1] != 0u) {
    [[unroll]] for (int j = 0; j < DENOISE_SURE_SUMS; j++)
      atomicAdd(sure_sums[j], g_sure[j]);
  }
  barrier();
  int lid = int(gl_LocalInvocationIndex);
  if (lid < DENOISE_SURE_SUMS) {
    uint v = sure_sums[lid];
    int u = tp.sure_base + tp.sure_slot * DENOISE_SURE_SLOT_UINTS + 2 * lid;
    if (v != 0u && atomicAdd(state_u[u], v) > 0xffffffffu - v)
      atomicAdd(state_u[u + 1], 1u);
  }
}

void write_blur(int c0, int row, vec4 s, bool checked)
{
  int qx = (c0 - tp.lane0) >> 2;
  int qy = row - pc.dst_y;
  // keep-detail: the sigma that scales the residual and its threshold
  float detail = tp.detail == 0.0 ? 0.0 : noise_scaled(tp.detail);
  bvec4 counts = lanes_that_count(c0, checked);
  // With keep-detail the state's y is the source's average (u), and the
  // output m with the detail standing out of the noise put back; without
  // it, y is the output and m equals it.
  vec4 y = s, m = s, w = vec4(0.0);
  if (detail != 0.0) {
    [[unroll]] for (int i = 0; i < 4; i++)
      y[i] = source_lane(c0 + i, row, checked);
    if ((qy & 7) == 1 && qy < pc.height)
      sure_add((y - s) / detail, counts);
  }
  // Quads of a checked tile beyond the ROI have no state.
  if (!checked || (qy < pc.height && qx < tp.state_stride)) {
    int v = state_vector(qx, qy);
    if (tp.alpha > 0.0) {
      vec4 prev_y, prev_m;
      load_state(v, prev_y, prev_m);
      w = vec4(tp.alpha);
      if (tp.motion != 0.0)
        w *= exp(-group_motion(s - prev_m, counts));
      y = mix(y, detail != 0.0 ? prev_y : prev_m, w);
      m = mix(s, prev_m, w);
    }
    store_state(v, y, detail != 0.0 ? m : y);
  }
  // D = sigma / t; t = 0 puts no detail back
  vec4 result = detail == 0.0 ? y : g_detail_t > 0.0 ? detail_output(y, m, w, detail / g_detail_t) : m;
  store_vec4(c0, row, result, checked);
}

void main()
{
  sure_begin();
  fused_main();
  sure_end();
}
