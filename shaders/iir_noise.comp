#version 450
// iir_noise.comp: noise-sigma estimated from the input, for
// temporal-mode=motion-adaptive with noise-sigma 0. Immerkaer's "Fast Noise
// Variance Estimation" operator (a 3x3 Laplacian difference that cancels
// planes and most edges) at every IIR_NOISE_ROW_STEP-th row of the source
// ROI; the median of its magnitude, robust to the texture that remains,
// is 0.6745 * 6 sigma for Gaussian noise. Texture that fills a scene
// (grass, gravel) still raises it: IIR_NOISE_COUNT_TEMPORAL also counts
// the difference of each sampled value from the last estimated frame's,
// whose median is 0.6745 sqrt(2) sigma wherever the scene held still, and
// takes the smaller estimate. Steps (IIR_SPEC_NOISE_STEP): zero the counts
// (a new state), and count a frame's magnitudes into histograms, whose last
// work-group to finish folds the median into the running estimate that the
// temporal weights read (iir_common.glsl's motion_scale(),
// denoise.comp's noise_scaled()) and reports it to the CPU.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(local_size_x = IIR_NOISE_GROUP_X) in;
layout(constant_id = IIR_SPEC_NOISE_STEP) const int STEP = IIR_NOISE_COUNT;

// The state buffer's words before the plane's state, as counts. Written
// only by atomics, which every work-group sees as they are.
layout(std430, set = 0, binding = 4) coherent buffer NoiseCounts { uint counts[]; };
// Binding 3: the estimates as the CPU reads them, one per plane
// (push tails_base: this plane's).
layout(std430, set = 0, binding = 3) writeonly buffer NoiseReport { float reported[]; };

const int BINS = IIR_NOISE_BINS;
const int GROUP = IIR_NOISE_GROUP_X;
const int PER_THREAD = BINS / GROUP;
// |L| of Gaussian noise of sigma 1: its median (0.6745 sigma of a normal
// variable) times the operator's gain sqrt(36); and of the difference of
// two independent samples, times sqrt(2).
const float MEDIAN_PER_SIGMA = 0.6745 * 6.0;
const float MEDIAN_PER_SIGMA_T = 0.6745 * 1.41421356;
const bool TEMPORAL_EST = STEP == IIR_NOISE_COUNT_TEMPORAL;

shared uint hist[BINS];
shared uint hist_t[TEMPORAL_EST ? BINS : 1];
shared uint below_thread[GROUP];        // counts in the bins of lower threads
shared uint median_bin;
shared bool last_group;

int counts_base() { return pc.state_base - IIR_NOISE_FLOATS; }
int estimate_vec4() { return pc.state_base - IIR_NOISE_ESTIMATE_BACK; }
int estimate_read() { return estimate_vec4() + pc.fout_base; }
int estimate_written() { return estimate_vec4() + pc.fout_stride; }
int finished_index() { return estimate_vec4() + 1; }

// In integers: the lanes' float form may be summed inexactly (vktile.glsl).
uint laplacian_magnitude(int x, int c, int y)
{
  int edges = int(source_code(x - 1, c, y) + source_code(x + 1, c, y) +
                  source_code(x, c, y - 1) + source_code(x, c, y + 1));
  int corners = int(source_code(x - 1, c, y - 1) + source_code(x + 1, c, y - 1) +
                    source_code(x - 1, c, y + 1) + source_code(x + 1, c, y + 1));
  return uint(abs(4 * int(source_code(x, c, y)) - 2 * edges + corners));
}

void count_frame(int lid)
{
  int x = 1 + int(gl_GlobalInvocationID.x);
  if (x >= pc.width - 1)
    return;
  for (int r = 0; r < IIR_NOISE_GROUP_ROWS; r++) {
    int y = 1 + (int(gl_WorkGroupID.y) * IIR_NOISE_GROUP_ROWS + r) * IIR_NOISE_ROW_STEP;
    if (y >= pc.height - 1)
      break;
    for (int c = 0; c < NCOMP; c++) {
      if (!lane_filtered(c))
        continue;
      // Bins of 1 / IIR_NOISE_BINS_PER_CODE 8-bit code (ext_value: the
      // plane's largest code value), exactly, as the reference bins.
      uint b = laplacian_magnitude(x, c, y) * uint(IIR_NOISE_BINS_PER_CODE * 255) /
               uint(pc.ext_value);
      atomicAdd(hist[min(b, uint(BINS - 1))], 1u);
      if (TEMPORAL_EST) {
        int k = int(gl_WorkGroupID.y) * IIR_NOISE_GROUP_ROWS + r;
        int i = pc.fin_base + (k * (pc.width - 2) + x - 1) * NCOMP + c;
        uint now = source_code(x, c, y);
        if (pc.fin_stride == 1) {
          uint d = uint(abs(int(now) - int(counts[i])));
          uint bt = d * uint(IIR_NOISE_BINS_PER_CODE * 255) / uint(pc.ext_value);
          atomicAdd(hist_t[min(bt, uint(BINS - 1))], 1u);
        }
        counts[i] = now;
      }
    }
  }
}

// The median of the counts at `base` (zeroed for the next frame), in bins,
// linear inside its bin, found by a prefix sum over the threads' bins (a
// serial walk took 350 us); -1 without counts. For the whole work-group.
float median_bins(int lid, int base)
{
  uint mine = 0u;
  for (int j = 0; j < PER_THREAD; j++) {
    int i = lid * PER_THREAD + j;
    hist[i] = atomicExchange(counts[base + i], 0u);
    mine += hist[i];
  }
  below_thread[lid] = mine;
  if (lid == 0)
    median_bin = uint(BINS);
  barrier();
  // Inclusive prefix sums, Hillis and Steele.
  for (int d = 1; d < GROUP; d *= 2) {
    uint add = lid >= d ? below_thread[lid - d] : 0u;
    barrier();
    below_thread[lid] += add;
    barrier();
  }
  uint total = below_thread[GROUP - 1];
  float half_total = 0.5 * float(total);
  uint below = below_thread[lid] - mine;
  // The first bin whose counts reach half the total (then never empty).
  for (int j = 0; j < PER_THREAD; j++) {
    int i = lid * PER_THREAD + j;
    below += hist[i];
    if (total > 0u && float(below) >= half_total) {
      atomicMin(median_bin, uint(i));
      break;
    }
  }
  barrier();
  float median = -1.0;
  if (total > 0u) {
    int i = int(median_bin);
    uint before = 0u;
    for (int j = i - i % PER_THREAD; j < i; j++)
      before += hist[j];
    int owner = i / PER_THREAD;
    before += owner > 0 ? below_thread[owner - 1] : 0u;
    median = float(i) + (half_total - float(before)) / float(hist[i]);
  }
  barrier();
  return median;
}

// The temporal median in 8-bit code values. An 8-bit format's differences
// are whole codes, which fill only every other half-code bin: each counts
// as spread over [k - 1/2, k + 1/2) (k = 0: [0, 1/2)), the continuous
// difference it was rounded from; read inside its bin, the median of noise
// of 5 came out 8 % high. Deeper formats' steps are a fraction of a bin.
float temporal_codes(float m)
{
  if (pc.ext_value != 255.0)
    return m / float(IIR_NOISE_BINS_PER_CODE);
  float k = floor(0.5 * m), frac = m - 2.0 * k;
  return k == 0.0 ? 0.5 * frac : k - 0.5 + frac;
}

// The last work-group: this frame's sigma from the medians, folded into
// the estimate.
void update_estimate(int lid)
{
  float m = median_bins(lid, counts_base());
  float m_t = TEMPORAL_EST ? median_bins(lid, counts_base() + BINS) : -1.0;
  if (lid != 0)
    return;
  float est = st[estimate_read()];
  if (m >= 0.0) {
    float sigma = m / float(IIR_NOISE_BINS_PER_CODE) / MEDIAN_PER_SIGMA;
    if (m_t >= 0.0)
      sigma = min(sigma, temporal_codes(m_t) / MEDIAN_PER_SIGMA_T);
    // temporal_alpha 0: the state restarts, and the estimate with it.
    if (pc.temporal_alpha > 0.0 && est > 0.0)
      sigma = mix(est, sigma, IIR_NOISE_FOLLOW);
    est = sigma;
  }
  est = max(est, IIR_NOISE_MIN_SIGMA);
  st[estimate_written()] = est;
  counts[finished_index()] = 0u;
  reported[pc.tails_base] = est;
}

void main()
{
  int lid = int(gl_LocalInvocationID.x);
  if (STEP == IIR_NOISE_CLEAR) {
    for (int i = lid; i < IIR_NOISE_FLOATS; i += GROUP)
      counts[counts_base() + i] = 0u;
    return;
  }
  for (int i = lid; i < BINS; i += GROUP) {
    hist[i] = 0u;
    if (TEMPORAL_EST)
      hist_t[i] = 0u;
  }
  barrier();
  count_frame(lid);
  barrier();
  for (int i = lid; i < BINS; i += GROUP) {
    if (hist[i] != 0u)
      atomicAdd(counts[counts_base() + i], hist[i]);
    if (TEMPORAL_EST && hist_t[i] != 0u)
      atomicAdd(counts[counts_base() + BINS + i], hist_t[i]);
  }
  // This group's counts are in before it counts itself finished.
  memoryBarrierBuffer();
  barrier();
  if (lid == 0) {
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    last_group = atomicAdd(counts[finished_index()], 1u) == groups - 1u;
  }
  barrier();
  if (!last_group)
    return;
  memoryBarrierBuffer();
  update_estimate(lid);
}
