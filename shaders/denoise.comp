#version 450
// denoise.comp: the denoise element, one dispatch per plane. The spatial
// stage is gaussblur's fused tile (gauss_fused.glsl); where the tile writes,
// the temporal stage follows in registers: the motion-adaptive weight
// against the motion reference, judged per quad of lanes, the state (y, m)
// read and written once, the detail that stands out of the noise put back
// beyond the threshold the element chose, on some frames the risk sums it
// chooses the threshold from, the result rounded into the packed output
// (docs/SEMANTICS.md, denoise).
//
// The state is laid out in the tile's order: an invocation's 4 lanes are
// one quad, the neighbouring invocation's the next, so a subgroup's state
// loads and stores are whole runs of memory.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#include "gauss_fused.glsl"
#include "denoise_interface.h"
#include "keep_detail.glsl"

layout(std140, set = 0, binding = 3) uniform DenoiseParams { DENOISE_PARAM_FIELDS } tp;

layout(std430, set = 0, binding = 4) buffer StateQuads { uvec4 state16[]; };
layout(std430, set = 0, binding = 4) buffer StateQuadsF { vec4 state32[]; };
layout(std430, set = 0, binding = 4) readonly buffer StateFloats { float state_f[]; };
layout(std430, set = 0, binding = 5) writeonly buffer RiskSums { uint risk_sums[]; };

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

// Motion is judged on the quad with the quads beside it on its row: the
// mean of (d / T)^2 over the lanes that count. One pixel's colour
// components, or neighbouring values of one component, move together;
// their mean lets noise through as motion less often than one value
// alone, so that still texture averages and moving texture does not; and
// the quads beside it catch what one quad cannot tell from noise, such as
// a value that a scene change happens to leave where it was. This quad's
// sum and count:
vec2 quad_motion(vec4 d, bvec4 counts)
{
  vec4 q = d / noise_scaled(tp.motion);
  q *= q;
  float sum = 0.0, n = 0.0;
  [[unroll]] for (int i = 0; i < 4; i++) {
    sum += counts[i] ? q[i] : 0.0;
    n += counts[i] ? 1.0 : 0.0;
  }
  return vec2(sum, n);
}

// ... and the mean with its neighbours in its run, which the neighbouring
// invocations hold (every invocation of a run takes part). In a tile that
// lies inside the ROI every quad counts the same lanes: only the sums
// travel.
float neighbourhood_motion(vec2 own, int qx, const bool checked)
{
  int at = qx % DENOISE_MOTION_RUN;
  vec2 left, right;
  if (checked) {
    left = subgroupShuffleUp(own, 1u);
    right = subgroupShuffleDown(own, 1u);
  } else {
    left = vec2(subgroupShuffleUp(own.x, 1u), own.y);
    right = vec2(subgroupShuffleDown(own.x, 1u), own.y);
  }
  vec2 all = own;
  if (at != 0)
    all += left;
  if (at != DENOISE_MOTION_RUN - 1)
    all += right;
  return all.x / max(all.y, 1.0);
}

// ---- the risk sums that choose the detail threshold ----

layout(constant_id = DENOISE_SPEC_SUMS) const bool SUMS = false;

const float SURE_T[DENOISE_SURE_CANDIDATES] = float[](DENOISE_SURE_TS);

// The work-group's sums.
shared uint sure_sums[DENOISE_SURE_SUMS];

uint sure_units(float v)
{
  return uint(v * DENOISE_SURE_UNITS + 0.5);
}

// The risk terms of the residuals r of the lanes that count, in sigmas,
// added to the work-group's sums at once: sums that stay in registers
// through the tile, or residuals held until the block's end, made the
// summing frames slower.
void sure_add(vec4 r, bvec4 counts)
{
  uint sums[DENOISE_SURE_SUMS];
  [[unroll]] for (int j = 0; j < DENOISE_SURE_SUMS; j++)
    sums[j] = 0u;
  [[unroll]] for (int i = 0; i < 4; i++) {
    if (!counts[i])
      continue;
    float rho = clamp(r[i], -DENOISE_SURE_CLAMP, DENOISE_SURE_CLAMP);
    sums[0] += sure_units(rho * rho);
    [[unroll]] for (int j = 1; j < DENOISE_SURE_CANDIDATES; j++) {
      float q = rho * SURE_T[j];
      q *= q;
      float e = exp(-q);
      sums[j] += sure_units(rho * rho * e * e);
      sums[DENOISE_SURE_CANDIDATES - 1 + j] += sure_units(1.0 - e + 2.0 * q * e);
    }
    sums[DENOISE_SURE_SUMS - 1] += 1u;
  }
  if (sums[DENOISE_SURE_SUMS - 1] != 0u) {
    [[unroll]] for (int j = 0; j < DENOISE_SURE_SUMS; j++)
      atomicAdd(sure_sums[j], sums[j]);
  }
}

// Zeroed before the tile's first barrier, which orders it before the
// atomics.
void sure_begin()
{
  if (SUMS && gl_LocalInvocationIndex < DENOISE_SURE_SUMS)
    sure_sums[gl_LocalInvocationIndex] = 0u;
}

// The work-group's sums, written to its own words of the host's buffer: no
// global atomics, which on the H100 queue up on the few addresses every
// work-group adds to.
void sure_end()
{
  if (!SUMS)
    return;
  barrier();
  uint lid = gl_LocalInvocationIndex;
  if (lid < DENOISE_SURE_SUMS) {
    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    risk_sums[tp.sums_base + group * DENOISE_SURE_SUMS + lid] = sure_sums[lid];
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
    if (SUMS && (qy & 7) == 1 && qy < pc.height)
      sure_add((y - s) / detail, counts);
  }
  // Quads of a checked tile beyond the ROI have no state.
  bool has_state = !checked || (qy < pc.height && qx < tp.state_stride);
  int v = state_vector(qx, qy);
  vec4 prev_y = vec4(0.0), prev_m = vec4(0.0);
  vec2 motion = vec2(0.0);
  if (has_state && tp.alpha > 0.0) {
    load_state(v, prev_y, prev_m);
    if (tp.motion != 0.0)
      motion = quad_motion(s - prev_m, counts);
  }
  // (uniform: the whole run exchanges its quads' motion)
  float weight = tp.alpha;
  if (tp.alpha > 0.0 && tp.motion != 0.0)
    weight *= exp(-neighbourhood_motion(motion, qx, checked));
  if (has_state) {
    if (tp.alpha > 0.0) {
      w = vec4(weight);
      y = mix(y, detail != 0.0 ? prev_y : prev_m, w);
      m = mix(s, prev_m, w);
    }
    store_state(v, y, detail != 0.0 ? m : y);
  }
  // D = sigma / t; t = 0 puts no detail back
  vec4 result = detail == 0.0 ? y : tp.detail_t > 0.0 ? detail_output(y, m, w, detail / tp.detail_t) : m;
  store_vec4(c0, row, result, checked);
}

void main()
{
  sure_begin();
  fused_main();
  sure_end();
}
