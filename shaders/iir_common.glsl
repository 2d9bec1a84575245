// iir_common.glsl: what every recursivefilter pass shares — the push
// constants of one scan along one axis, the filter stages and tail matrices
// of lib/vktiir.c, reading the line infinitely extended by the border
// rule, one step of a causal or anticausal stage, the chunk boundaries, and
// the writer of finished values (packed words or floats, unsharp mask,
// temporal smoothing).
//
// The interface with the C side (push constants, specialization ids,
// sizes, the tables' layout) is iir_interface.h, which both include.
#include "vktile.glsl"

#include "iir_interface.h"
#include "keep_detail.glsl"

layout(constant_id = IIR_SPEC_KC) const int KC = 0;
layout(constant_id = IIR_SPEC_KA) const int KA = 0;
layout(constant_id = IIR_SPEC_FORM_C) const int FORM_C = IIR_FORM_DIRECT;
layout(constant_id = IIR_SPEC_FORM_A) const int FORM_A = IIR_FORM_DIRECT;
layout(constant_id = IIR_SPEC_AXIS) const int AXIS = 0;
layout(constant_id = IIR_SPEC_IN_FLOAT) const bool IN_FLOAT = false;
layout(constant_id = IIR_SPEC_OUT_KIND) const int OUT_KIND = IIR_OUT_PACKED;
layout(constant_id = IIR_SPEC_BOX) const bool BOX = false;
layout(constant_id = IIR_SPEC_TEMPORAL) const bool TEMPORAL = false;
layout(constant_id = IIR_SPEC_FULL_MASK) const bool FULL_MASK = true;
// Along y from a packed plane: a line group's 4 lanes are one source word
// (two of 16 bits), so it is read whole.
layout(constant_id = IIR_SPEC_ALIGNED) const bool ALIGNED = false;
// The packed output is x + misc.z (x - v), v the filtered value and x the
// source pixel at the same position: an unsharp mask.
layout(constant_id = IIR_SPEC_UNSHARP) const bool UNSHARP = false;
// Along x, packed output to memory across the bus: a subgroup stores its
// rows as whole runs (iir_scan.comp).
layout(constant_id = IIR_SPEC_OUT_RUNS) const bool OUT_RUNS = false;

const int OUT_PACKED = IIR_OUT_PACKED;
const int OUT_FLOATS = IIR_OUT_FLOATS;
const int OUT_TAILS = IIR_OUT_TAILS;
const int KMAX = IIR_MAX_ORDER;
const int E = IIR_BLOCK;   // positions per invocation (block)
// Along x a line group is RPL consecutive rows of the ROI, its 4 lanes
// their components: lane l is component l % NCOMP of row line * RPL + l /
// NCOMP.
const int RPL = 4 / NCOMP;
// Along x, packed output: the vectors of four words that a block's row
// fills.
const int X_VECTORS = E * NCOMP / CPW / 4;

layout(push_constant) uniform IirPush { IIR_PUSH_FIELDS } pc;

layout(std140, set = 0, binding = 2) uniform IirTables {
  vec4 coef[(IIR_U_LEFT - IIR_U_COEF_C) / 4];  // causal stage's rows, then
                      // the anticausal stage's (IIR_U_COEF_A)
  vec4 left_unit;     // causal state entering a line of constant 1
  vec4 misc;          // x: output scale, y: DC gain, z: unsharp amount,
                      // w: temporal motion scale (0: fixed weight; see
                      // motion_scale())
  vec4 detail;        // x: detail threshold (see temporal()), y: the
                      // lanes whose motion reference is kept (temporal())
  // Block transitions A^(E 2^d), 4 rows each: the causal stage's, then
  // the anticausal stage's (IIR_U_PA).
  vec4 P_rows[(IIR_U_CROSS - IIR_U_PC) / 4];
  vec4 cross_m[4];
  vec4 right_m[4];    // anticausal state i from causal state j
  vec4 right_e;       // ... and from the value the line continues with
  // Output at step e from entering state j, no input: causal, then
  // anticausal (IIR_U_ZIR_A).
  vec4 zir[(IIR_U_FLOATS - IIR_U_ZIR_C) / 4];
#ifdef IIR_TAIL_WEIGHTS
  vec4 tail_w[2 * IIR_TAIL_MAX_LEN];  // IIR_U_TAIL_W
#endif
};

layout(std430, set = 0, binding = 3) buffer Floats { float fl[]; };
// The same floats 16 bytes at a time, where a line's values lie on vector
// boundaries.
layout(std430, set = 0, binding = 3) buffer Floats4 { vec4 fl4[]; };
layout(std430, set = 0, binding = 4) buffer TemporalState { float st[]; };
// The packed output 16 bytes at a time, for blocks whose row words start on
// a vector boundary.
layout(std430, set = 0, binding = 1) buffer OutWords4 { uvec4 out_words4[]; };

int box_radius() { return pc.box_r & 0xffff; }
bool ext_constant() { return (pc.box_r & (1 << 30)) == 0; }

// Coefficient i of the causal (anti false) or the anticausal stage.
float coef_at(bool anti, int i) { return coef[(anti ? 4 : 0) + (i >> 2)][i & 3]; }

// Component c of pixel (x, y) of the packed input, ROI coordinates inside
// the source ROI.
uint source_code(int x, int c, int y)
{
  int k = (pc.src_x + x) * NCOMP + c;
  uint w = in_words[pc.in_base + (pc.src_y + y) * pc.in_stride + (k >> (CPW == 4 ? 2 : 1))];
  return lane_code(w, k & (CPW - 1));
}

float source_lane(int x, int c, int y)
{
  return code_value(source_code(x, c, y));
}

// Index i of a line of n samples continued beyond its ends by the border
// rule: clamped into the line, or false where the constant applies.
bool extend_index(inout int i, int n)
{
  if (i >= 0 && i < n)
    return true;
  if (ext_constant())
    return false;
  i = clamp(i, 0, n - 1);
  return true;
}

// Component c of pixel (x, y) of the input, ROI coordinates, extended
// beyond its domain by the border rule (constant or clamp).
float fetch(int x, int c, int y)
{
  if (!IN_FLOAT) {
    if (!extend_index(x, pc.width) || !extend_index(y, pc.height))
      return pc.ext_value;
    return source_lane(x, c, y);
  }
  int xr = x - pc.fin_x0, yr = y - pc.fin_y0;
  if (!extend_index(xr, pc.fin_w) || !extend_index(yr, pc.fin_h))
    return pc.ext_value;
  return fl[pc.fin_base + yr * pc.fin_stride + xr * NCOMP + c];
}

// Along y from a packed plane whose line groups are whole source words
// (ALIGNED): where line group `line`'s word lies in ROI row 0, or -1 where
// read_at() reads it lane by lane.
int word_column(int line)
{
  int k0 = line * 4 - pc.lane_off;
  if (AXIS != 1 || !ALIGNED || IN_FLOAT || k0 < 0 || k0 + 4 > pc.width * NCOMP)
    return -1;
  return pc.in_base + pc.src_y * pc.in_stride + (pc.src_x * NCOMP + k0) / CPW;
}

// The lanes of that word in ROI row y (inside the ROI).
vec4 word_lanes_at(int column, int y)
{
  int w = column + y * pc.in_stride;
  if (CPW == 4) {
    uint v = in_words[w];
    return vec4(lane_of(v, 0), lane_of(v, 1), lane_of(v, 2), lane_of(v, 3));
  }
  uint v0 = in_words[w], v1 = in_words[w + 1];
  return vec4(lane_of(v0, 0), lane_of(v0, 1), lane_of(v1, 0), lane_of(v1, 1));
}

// The lanes of the word at `column` at position p (any p): beyond the rows
// the border's value.
vec4 column_word_at(int column, int p)
{
  int y = p;
  if (!extend_index(y, pc.height))
    return vec4(pc.ext_value);
  return word_lanes_at(column, y);
}

// The 4 lanes of line group `line` at position p (any p).
vec4 read_at(int p, int line)
{
  vec4 r = vec4(0.0);
  if (AXIS == 0) {
    [[unroll]] for (int l = 0; l < 4; l++) {
      int y = line * RPL + (l >> LOG2_NCOMP);
      if (y < pc.height)
        r[l] = fetch(p, l & (NCOMP - 1), y);
    }
  } else {
    int k0 = line * 4 - pc.lane_off;
    int column = word_column(line);
    if (column >= 0)
      return column_word_at(column, p);
    [[unroll]] for (int l = 0; l < 4; l++) {
      int k = k0 + l;
      if (k >= 0 && k < pc.width * NCOMP)
        r[l] = fetch(k >> LOG2_NCOMP, k & (NCOMP - 1), p);
    }
  }
  return r;
}

// What the first stage sees at position p.
vec4 stage_input(int p, int line)
{
  if (BOX)
    return read_at(p + box_radius(), line) - read_at(p - box_radius() - 1, line);
  return read_at(p, line);
}

// Where what stage_input() reads is one word along y (word_column()); not
// for the box, whose input is a difference of two.
int stage_word_column(int line) { return BOX ? -1 : word_column(line); }

// The values the line continues with forever beyond its ends.
vec4 edge_left(int line) { return read_at(-(1 << 29), line); }
vec4 edge_right(int line) { return read_at(1 << 29, line); }

// One sample through the causal (anti false) or the anticausal stage:
// returns y and advances the state s (vktiir.h: DIRECT keeps past outputs,
// MODAL3 a real and a complex one-pole filter, MODAL two 2x2 blocks of A
// (rows at coef 0..7), B at 8..11 and output weights at 12..15: the poles
// of a custom recursion in parallel).
vec4 step_stage(bool anti, inout vec4 s[KMAX], vec4 x)
{
  int form = anti ? FORM_A : FORM_C;
  if (form == IIR_FORM_MODAL) {
    vec4 n0 = coef_at(anti, 0) * s[0] + coef_at(anti, 1) * s[1] + coef_at(anti, 8) * x;
    vec4 n1 = coef_at(anti, 2) * s[0] + coef_at(anti, 3) * s[1] + coef_at(anti, 9) * x;
    vec4 n2 = coef_at(anti, 4) * s[2] + coef_at(anti, 5) * s[3] + coef_at(anti, 10) * x;
    vec4 n3 = coef_at(anti, 6) * s[2] + coef_at(anti, 7) * s[3] + coef_at(anti, 11) * x;
    s[0] = n0; s[1] = n1; s[2] = n2; s[3] = n3;
    return coef_at(anti, 12) * n0 + coef_at(anti, 13) * n1
        + coef_at(anti, 14) * n2 + coef_at(anti, 15) * n3;
  }
  if (form == IIR_FORM_MODAL3) {
    float a = coef_at(anti, 0), re = coef_at(anti, 1), im = coef_at(anti, 2);
    vec4 w = a * s[0] + x;
    vec4 zr = re * s[1] - im * s[2] + x;
    vec4 zi = im * s[1] + re * s[2];
    s[0] = w; s[1] = zr; s[2] = zi;
    return coef_at(anti, 3) * w + coef_at(anti, 4) * zr + coef_at(anti, 5) * zi;
  }
  int K = anti ? KA : KC;
  vec4 y = coef_at(anti, 0) * x;
  [[unroll]] for (int i = 0; i < KMAX; i++)
    if (i < K)
      y += coef_at(anti, 1 + i) * s[i];
  [[unroll]] for (int i = KMAX - 1; i > 0; i--)
    if (i < K)
      s[i] = s[i - 1];
  s[0] = y;
  return y;
}

vec4 step_c(inout vec4 s[KMAX], vec4 x) { return step_stage(false, s, x); }
vec4 step_a(inout vec4 s[KMAX], vec4 x) { return step_stage(true, s, x); }

void zero_state(out vec4 s[KMAX])
{
  [[unroll]] for (int i = 0; i < KMAX; i++)
    s[i] = vec4(0.0);
}

// Adds to a block's outputs from rest what its true entering state s
// does with no input: linear in s, a table per step. (The second run of the
// stage from s that this replaces cost 8 products per lane and step in the
// modal forms instead of 3, in a chain of dependent steps.)
void add_zero_input(bool anti, vec4 s[KMAX], inout vec4 x[E])
{
  int K = anti ? KA : KC;
  [[unroll]] for (int e = 0; e < E; e++) {
    // The anticausal stage steps from the block's end.
    vec4 z = anti ? zir[2 * E - 1 - e] : zir[e];
    [[unroll]] for (int j = 0; j < KMAX; j++)
      if (j < K)
        x[e] += z[j] * s[j];
  }
}

// Whether entry (i, j) of a stage's transitions can be nonzero: the modal
// forms keep their poles apart, so A and its powers are block-diagonal
// (exactly: the tables are powers of A in double).
bool coupled(int form, int i, int j)
{
  if (form == IIR_FORM_MODAL3)
    return (i == 0) == (j == 0);
  if (form == IIR_FORM_MODAL)
    return (i < 2) == (j < 2);
  return true;
}

// s = P_d s, P_d transition d of the anticausal or the causal stage.
void apply_p(bool anti, int d, inout vec4 s[KMAX])
{
  int K = anti ? KA : KC, form = anti ? FORM_A : FORM_C;
  int base = (anti ? (IIR_U_PA - IIR_U_PC) / 4 : 0) + 4 * d;
  vec4 r[KMAX];
  [[unroll]] for (int i = 0; i < KMAX; i++) {
    r[i] = vec4(0.0);
    [[unroll]] for (int j = 0; j < KMAX; j++)
      if (i < K && j < K && coupled(form, i, j))
        r[i] += P_rows[base + i][j] * s[j];
  }
  [[unroll]] for (int i = 0; i < KMAX; i++)
    if (i < K)
      s[i] = r[i];
}

// The causal state entering virtual position 0 of a line: the steady state
// of the constant the line continues with, or for the box's running sum the
// window sum just before it.
void left_boundary(int line, out vec4 s[KMAX])
{
  zero_state(s);
  if (BOX) {
    // 2r + 1 values of up to 65535: compensated, or the sum drifts.
    int p = pc.out_lo - pc.off - 1;
    precise vec4 sum = vec4(0.0);
    precise vec4 lost = vec4(0.0);
    for (int i = -box_radius(); i <= box_radius(); i++) {
      precise vec4 z = read_at(p + i, line) - lost;
      precise vec4 t = sum + z;
      lost = (t - sum) - z;
      sum = t;
    }
    s[0] = sum;
    return;
  }
  vec4 e = edge_left(line);
  [[unroll]] for (int i = 0; i < KC; i++)
    s[i] = left_unit[i] * e;
}

// The anticausal state entering the last virtual position from the right,
// from the causal state at the end: the exact infinite extension.
void right_boundary(int line, vec4 sc[KMAX], out vec4 u[KMAX])
{
  vec4 e = edge_right(line);
  zero_state(u);
  [[unroll]] for (int i = 0; i < KA; i++) {
    u[i] = right_e[i] * e;
    [[unroll]] for (int j = 0; j < KC; j++)
      u[i] += right_m[i][j] * sc[j];
  }
}

// n, as a loop bound the compiler cannot see through. The general paths of
// the block readers and writers (ROI edges, masks, borders) run as such
// loops over a copy in local memory: unrolled (NVIDIA's compiler unrolls
// loops of constant count whatever their hint says), they doubled the
// pipelines' code, and the hot paths of the full frame ran a third slower
// for it: the GPU fetches instructions too, and a scan's code is larger
// than its instruction cache (on the H100 a loop body of 32 KB ran 1.5x
// faster than one of 64 KB doing the same work).
int rolled(int n) { return n + min(pc.lines, 0); }

// Tail i of every line group of a chunk side by side: the passes that read
// and write them hold consecutive line groups in consecutive invocations.
int tail_index(int chunk, int line, int i)
{
  return pc.tails_base + ((chunk * (KC + KA) + i) * pc.lines + line) * 4;
}

// Tails start on a vector (the float images before them are whole vectors
// per row).
vec4 tail_load(int chunk, int line, int i)
{
  return fl4[tail_index(chunk, line, i) >> 2];
}

void tail_store(int chunk, int line, int i, vec4 v)
{
  fl4[tail_index(chunk, line, i) >> 2] = v;
}

// Temporal smoothing of one output value, before rounding. The state is a
// float per component of the ROI, row by row.
int state_index(int x, int c, int y) { return pc.state_base + (y * pc.width + x) * NCOMP + c; }

// A scale of the motion-adaptive mode in code values: k, or with
// noise-sigma estimated (k < 0) -k times the plane's estimate, which
// iir_noise.comp keeps just before its state.
float noise_scaled(float k)
{
  return k > 0.0 ? k : -k * st[pc.state_base - IIR_NOISE_ESTIMATE_BACK];
}

// The motion scale T: a change of the filtered value by T is motion.
float motion_scale() { return noise_scaled(misc.w); }

// The weight of the previous output in the recursion, per component: alpha,
// or in the motion-adaptive mode (misc.w != 0) alpha exp(-(d / T)^2), d how
// far the value moved since then, so that what moved follows the input
// instead of ghosting.
vec4 temporal_weights(vec4 v, vec4 prev)
{
  vec4 w = vec4(pc.temporal_alpha);
  if (misc.w != 0.0) {
    vec4 d = (v - prev) / motion_scale();
    w *= exp(-d * d);
  }
  return w;
}

// Motion is measured on the filtered v against its own recursion m (after
// the plane's y in the state where the last frame kept detail, else y
// itself). Without keep-detail the output is that recursion; with it the
// state's y holds the source's average, and the output is m with the
// detail that stands out of the noise put back (keep_detail.glsl): against
// an output that holds detail, a still textured scene would read as motion
// and keep its noise.
float temporal(float v, int x, int c, int y)
{
  if (!TEMPORAL)
    return v;
  int i = state_index(x, c, y);
  int im = i + pc.width * pc.height * NCOMP;
  bool keep = detail.x != 0.0;
  float a = keep ? source_lane(x, c, y) : v, m = v, w = 0.0;
  if (pc.temporal_alpha > 0.0) {
    float prev = st[i];
    float prev_m = ((uint(detail.y) >> c) & 1u) != 0u ? st[im] : prev;
    w = temporal_weights(vec4(v), vec4(prev_m)).x;
    a = mix(a, keep ? prev : prev_m, w);
    m = mix(v, prev_m, w);
  }
  st[i] = a;
  if (!keep)
    return a;
  st[im] = m;
  return detail_output(vec4(a), vec4(m), vec4(w), noise_scaled(detail.x)).x;
}

// The value written at ROI position (x, y), component c, before rounding:
// the filtered v, unsharp-masked against the source pixel, then smoothed
// across frames.
float finish(float v, int x, int c, int y)
{
  if (UNSHARP) {
    float src = source_lane(x, c, y);
    v = src + misc.z * (src - v);
  }
  return temporal(v, x, c, y);
}

// The packed planes as store_lanes() and kept_lanes() take them.
ivec4 plane_io() { return ivec4(pc.in_base, pc.in_stride, pc.out_base, pc.out_stride); }

bool lane_filtered(int c)
{
  return FULL_MASK || ((pc.chan_mask >> c) & 1u) != 0u;
}

// The output scale of a scan: only the box divides by its width.
float output_scale() { return BOX ? misc.x : 1.0; }

// Writes position p of line group `line` (not yet scaled) to the float
// output; p is inside [out_lo, out_lo + out_len).
// Along y: the float index of line group `line`'s lanes at position p of
// the float output, and whether they are one whole vector there (every
// lane inside the row, on a vector boundary).
bool float_vector_y(int p, int line, out int i)
{
  int k0 = line * 4 - pc.lane_off;
  i = pc.fout_base + (p - pc.fout_y0) * pc.fout_stride - pc.fout_x0 * NCOMP + k0;
  return k0 >= 0 && k0 + 4 <= pc.width * NCOMP && (i & 3) == 0;
}

void store_floats_at(int p, int line, vec4 v)
{
  v *= output_scale();
  if (AXIS == 0) {
    [[unroll]] for (int r = 0; r < RPL; r++) {
      int y = line * RPL + r;
      if (y >= pc.height)
        break;
      int b = pc.fout_base + (y - pc.fout_y0) * pc.fout_stride + (p - pc.fout_x0) * NCOMP;
      if (NCOMP == 4 && (b & 3) == 0) {
        fl4[b >> 2] = v;
        continue;
      }
      [[unroll]] for (int c = 0; c < NCOMP; c++)
        fl[b + c] = v[r * NCOMP + c];
    }
  } else {
    int i;
    if (float_vector_y(p, line, i)) {
      fl4[i >> 2] = v;
      return;
    }
    int k0 = line * 4 - pc.lane_off;
    [[unroll]] for (int l = 0; l < 4; l++) {
      int k = k0 + l;
      if (k >= 0 && k < pc.width * NCOMP)
        fl[i + l] = v[l];
    }
  }
}

// Writes position p of line group `line` along y (not yet scaled) to the
// packed output: the row's words that the group's lanes cover, finished.
// A word with no lane inside the ROI is not written: past the end of a row
// it is the next row's first word, which another group writes (16-bit
// lanes: a group of 4 lanes is two words, the second one outside an odd
// number of lanes).
void store_packed_y_at(int p, int line, vec4 v)
{
  v *= output_scale();
  int k0 = line * 4 - pc.lane_off;
  int word0 = (pc.dst_x * NCOMP + k0) / CPW;
  int row = pc.dst_y + p;
  [[unroll]] for (int w = 0; w < 4 / CPW; w++) {
    if (k0 + (w + 1) * CPW <= 0 || k0 + w * CPW >= pc.width * NCOMP)
      continue;
    uint word = 0u, keep = 0u;
    [[unroll]] for (int l = 0; l < CPW; l++) {
      int k = k0 + w * CPW + l;
      int c = k & (NCOMP - 1);
      if (k >= 0 && k < pc.width * NCOMP && lane_filtered(c))
        word |= lane_bits(finish(v[w * CPW + l], k >> LOG2_NCOMP, c, p), l);
      else
        keep |= lane_mask(l);
    }
    if (keep != 0u)
      word |= kept_lanes(keep, word0 + w, row, pc.chan_mask, plane_io());
    out_words[pc.out_base + row * pc.out_stride + word0 + w] = word;
  }
}

// The general writer of a block (any ROI, mask, alignment), as a loop over
// a copy in local memory (see rolled()).
void store_block_general(int p0, int line, vec4 vals[E])
{
  int lo = pc.out_lo, hi = pc.out_lo + pc.out_len;
  float scale = output_scale();
  vec4 t[E];
  [[unroll]] for (int e = 0; e < E; e++)
    t[e] = vals[e];
  if (OUT_KIND == OUT_FLOATS || AXIS == 1) {
    for (int e = 0; e < rolled(E); e++) {
      int p = p0 + e;
      if (p < lo || p >= hi)
        continue;
      if (OUT_KIND == OUT_FLOATS)
        store_floats_at(p, line, t[e]);
      else
        store_packed_y_at(p, line, t[e]);
    }
    return;
  }
  // Each row's lanes of the block, as a stream of words of the target row.
  for (int r = 0; r < rolled(RPL); r++) {
    int y = line * RPL + r;
    if (y >= pc.height)
      break;
    int row = pc.dst_y + y;
    int word0 = ((pc.dst_x + p0) * NCOMP) / CPW;
    for (int w = 0; w < rolled(E * NCOMP / CPW); w++) {
      int pw0 = p0 + (w * CPW) / NCOMP;
      int pw1 = p0 + ((w + 1) * CPW - 1) / NCOMP;
      if (pw1 < lo || pw0 >= hi)
        continue;
      uint word = 0u, keep = 0u;
      [[unroll]] for (int l = 0; l < CPW; l++) {
        int g = w * CPW + l;
        int e = g >> LOG2_NCOMP;
        int c = g & (NCOMP - 1);
        int p = p0 + e;
        if (p >= lo && p < hi && lane_filtered(c))
          word |= lane_bits(finish(t[e][r * NCOMP + c] * scale, p, c, y), l);
        else
          keep |= lane_mask(l);
      }
      if (keep != 0u)
        word |= kept_lanes(keep, word0 + w, row, pc.chan_mask, plane_io());
      out_words[pc.out_base + row * pc.out_stride + word0 + w] = word;
    }
  }
}

// Along x, packed output, every lane filtered: where the rows of the block
// at p0 start (o0, in words of the output), and whether the block is
// wholly written and its rows start on a vector boundary that the stride
// keeps.
bool x_words_vector(int p0, int line, out int o0)
{
  int word0 = ((pc.dst_x + p0) * NCOMP) / CPW;
  bool whole = p0 >= pc.out_lo && p0 + E <= pc.out_lo + pc.out_len;
  o0 = pc.out_base + (pc.dst_y + line * RPL) * pc.out_stride + word0;
  return OUT_KIND == OUT_PACKED && AXIS == 0 && FULL_MASK && whole
      && ((o0 | pc.out_stride) & 3) == 0;
}

// Words 4q .. 4q + 3 of row r (frame row y) of a block at p0 along x,
// finished and packed.
uvec4 x_words4(vec4 vals[E], int p0, int y, int r, int q, float scale)
{
  uvec4 words = uvec4(0u);
  [[unroll]] for (int j = 0; j < 4; j++) {
    [[unroll]] for (int l = 0; l < CPW; l++) {
      int g = (q * 4 + j) * CPW + l;
      int e = g >> LOG2_NCOMP;
      int c = g & (NCOMP - 1);
      words[j] |= lane_bits(finish(vals[e][r * NCOMP + c] * scale, p0 + e, c, y), l);
    }
  }
  return words;
}

// Writes a block of E finished positions starting at ROI position p0 of
// line group `line`; positions outside [out_lo, out_lo + out_len) are not
// written. Packed x output: p0 is aligned so that the block covers whole
// words. A block wholly written on a vector boundary (the full frame) takes
// the unrolled paths; any other the general loop.
void store_block(int p0, int line, vec4 vals[E])
{
  int lo = pc.out_lo, hi = pc.out_lo + pc.out_len;
  if (p0 >= hi || p0 + E <= lo)
    return;
  bool whole = p0 >= lo && p0 + E <= hi;
  float scale = output_scale();
  if (OUT_KIND == OUT_FLOATS && AXIS == 1) {
    // One vector per position where the first is one and rows are whole
    // vectors.
    int i;
    if (whole && float_vector_y(p0, line, i) && (pc.fout_stride & 3) == 0) {
      [[unroll]] for (int e = 0; e < E; e++)
        fl4[(i + e * pc.fout_stride) >> 2] = vals[e] * scale;
      return;
    }
  }
  int o0;
  if (x_words_vector(p0, line, o0)) {
    // Every row's words on a vector boundary: four words per store.
    [[unroll]] for (int r = 0; r < RPL; r++) {
      if (line * RPL + r >= pc.height)
        break;
      [[unroll]] for (int q = 0; q < X_VECTORS; q++)
        out_words4[((o0 + r * pc.out_stride) >> 2) + q] = x_words4(vals, p0, line * RPL + r, r, q, scale);
    }
    return;
  }
  store_block_general(p0, line, vals);
}
