#version 450
// iir_noise.comp: noise-sigma estimated from the input, for
// temporal-mode=motion-adaptive with noise-sigma 0. Immerkaer's "Fast Noise
// Variance Estimation" operator (a 3x3 Laplacian difference that cancels
// planes and most edges) at every IIR_NOISE_ROW_STEP-th row of the source
// ROI; the median of its magnitude, robust to the texture that remains,
// is 0.6745 * 6 sigma for Gaussian noise. Three steps (IIR_SPEC_NOISE_STEP):
// zero the counts (a new state), count a frame's magnitudes into a
// histogram, and fold its median into the running estimate that the
// temporal weights read (iir_common.glsl's motion_scale()).
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(local_size_x = IIR_NOISE_GROUP_X) in;
layout(constant_id = IIR_SPEC_NOISE_STEP) const int STEP = IIR_NOISE_COUNT;

// The state buffer's words before the plane's state, as counts.
layout(std430, set = 0, binding = 4) buffer NoiseCounts { uint counts[]; };

shared uint hist[IIR_NOISE_BINS];

const int BINS = IIR_NOISE_BINS;
const int GROUP = IIR_NOISE_GROUP_X;
// |L| of Gaussian noise of sigma 1: its median (0.6745 sigma of a normal
// variable) times the operator's gain sqrt(36).
const float MEDIAN_PER_SIGMA = 0.6745 * 6.0;

int counts_base() { return pc.state_base - IIR_NOISE_FLOATS; }
int estimate_index() { return pc.state_base - IIR_NOISE_ESTIMATE_BACK; }

float laplacian(int x, int c, int y)
{
  float edges = source_lane(x - 1, c, y) + source_lane(x + 1, c, y) +
                source_lane(x, c, y - 1) + source_lane(x, c, y + 1);
  float corners = source_lane(x - 1, c, y - 1) + source_lane(x + 1, c, y - 1) +
                  source_lane(x - 1, c, y + 1) + source_lane(x + 1, c, y + 1);
  return 4.0 * source_lane(x, c, y) - 2.0 * edges + corners;
}

void count_frame()
{
  int lid = int(gl_LocalInvocationID.x);
  for (int i = lid; i < BINS; i += GROUP)
    hist[i] = 0u;
  barrier();
  int x = 1 + int(gl_GlobalInvocationID.x);
  if (x < pc.width - 1) {
    for (int r = 0; r < IIR_NOISE_GROUP_ROWS; r++) {
      int y = 1 + (int(gl_WorkGroupID.y) * IIR_NOISE_GROUP_ROWS + r) * IIR_NOISE_ROW_STEP;
      if (y >= pc.height - 1)
        break;
      for (int c = 0; c < NCOMP; c++) {
        if (!lane_filtered(c))
          continue;
        // |L| is a whole number: binned exactly, in integers (ext_value:
        // the plane's largest code value), as the reference does in double.
        uint b = uint(abs(laplacian(x, c, y))) * uint(IIR_NOISE_BINS_PER_CODE * 255) /
                 uint(pc.ext_value);
        atomicAdd(hist[min(b, uint(BINS - 1))], 1u);
      }
    }
  }
  barrier();
  for (int i = lid; i < BINS; i += GROUP)
    if (hist[i] != 0u)
      atomicAdd(counts[counts_base() + i], hist[i]);
}

// One work-group: the counts moved to shared memory (and zeroed for the
// next frame), the median found there, linear inside its bin, in two
// levels, spans of SPAN bins: a serial walk over global memory took 350 us.
const int SPAN = 32;
shared uint span_total[BINS / SPAN];

void update_estimate()
{
  int lid = int(gl_LocalInvocationID.x);
  for (int i = lid; i < BINS; i += GROUP) {
    hist[i] = counts[counts_base() + i];
    counts[counts_base() + i] = 0u;
  }
  barrier();
  if (lid < BINS / SPAN) {
    uint n = 0u;
    for (int i = 0; i < SPAN; i++)
      n += hist[lid * SPAN + i];
    span_total[lid] = n;
  }
  barrier();
  if (lid != 0)
    return;
  uint total = 0u;
  for (int s = 0; s < BINS / SPAN; s++)
    total += span_total[s];
  if (total > 0u) {
    float half_total = 0.5 * float(total), below = 0.0, median = float(BINS);
    int s = 0;
    while (s < BINS / SPAN - 1 && below + float(span_total[s]) < half_total)
      below += float(span_total[s++]);
    for (int i = s * SPAN; i < BINS; i++) {
      float n = float(hist[i]);
      if (n > 0.0 && below + n >= half_total) {
        median = float(i) + (half_total - below) / n;
        break;
      }
      below += n;
    }
    float sigma = median / float(IIR_NOISE_BINS_PER_CODE) / MEDIAN_PER_SIGMA;
    float old = st[estimate_index()];
    // temporal_alpha 0: the state restarts, and the estimate with it.
    if (pc.temporal_alpha > 0.0 && old > 0.0)
      sigma = mix(old, sigma, IIR_NOISE_FOLLOW);
    st[estimate_index()] = max(sigma, IIR_NOISE_MIN_SIGMA);
  } else if (!(st[estimate_index()] > 0.0)) {
    st[estimate_index()] = IIR_NOISE_MIN_SIGMA;
  }
}

void main()
{
  if (STEP == IIR_NOISE_CLEAR) {
    for (int i = int(gl_LocalInvocationID.x); i < IIR_NOISE_FLOATS; i += GROUP)
      counts[counts_base() + i] = 0u;
  } else if (STEP == IIR_NOISE_COUNT) {
    count_frame();
  } else {
    update_estimate();
  }
}
