#version 450
// iir_scan.comp: "Compiling High Performance Recursive Filters"'s intra-tile
// scan. A work-group holds IIR_GROUP_SIZE / SUBS line groups x one chunk of
// SUBS blocks of E positions; each invocation keeps its block in registers. A
// block first runs the causal stage from rest; the blocks' end states are
// combined across the chunk — within a subgroup by shuffles (a Kogge-Stone
// scan with the block transitions P_d = A^(E 2^d)), across the subgroups of a
// long chunk, and along y (where a subgroup holds one block of many line
// groups), through shared memory — and the block's outputs from rest get what
// its true entering state adds with no input (a table per step); the same from
// the right for the anticausal stage, which reads the causal result.
//
// OUT_KIND tails: the chunk starts from rest on both sides and only its
// tails are written — the causal state leaving it and the anticausal state
// leaving it to the left (iir_tails.comp completes them across chunks).
// Otherwise the chunk's entering states are the completed tails (or, for a
// line of one chunk, the boundaries) and the filtered values are written.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#include "iir_common.glsl"

layout(constant_id = IIR_SPEC_SUBS) const int SUBS = 1;    // blocks per chunk: a power of two
layout(local_size_x = IIR_GROUP_SIZE) in;

const int LINES = IIR_GROUP_SIZE / SUBS;    // line groups per work-group
const int KS = KC > KA ? KC : KA;
const int KS1 = KS > 0 ? KS : 1;
// A line's blocks are consecutive invocations of its subgroups: a segment
// of min(SUBS, subgroup size) blocks per subgroup. Only a chunk longer than
// a subgroup passes the segments' states through shared memory.
// Along y, a subgroup instead holds one block of as many line groups as it
// has invocations (consecutive words of the rows: its loads are whole row
// segments), and every block's state passes through shared memory.
const int TOTALS = (AXIS == 1 && SUBS > 1 ? IIR_GROUP_SIZE
    : SUBS > IIR_MIN_SUBGROUP ? IIR_GROUP_SIZE / IIR_MIN_SUBGROUP : 1) * KS1;
shared vec4 seg_total[AXIS == 0 ? 2 * TOTALS : TOTALS];

int sg_id, seg, seg_j, seg_k, nseg;
int seg_w, seg_lane;    // line groups per segment, and this one's

int total_index(int segment, int i) { return (segment * KS1 + i) * seg_w + seg_lane; }

vec4 shuffle_toward(bool anti, vec4 v, int o)
{
  return anti ? subgroupShuffleDown(v, o) : subgroupShuffleUp(v, o);
}

// The scan of one stage over the chunk's blocks along its direction
// (causal: rising positions). b is this block's state leaving it from
// rest, cin the true state entering the chunk. Returns the true state
// entering this block, and in leave the true state leaving the chunk
// (where need_leave says a caller uses it). Called by every invocation
// (subgroup operations and barriers).
void scan_blocks(bool anti, bool need_leave, vec4 b[KMAX], vec4 cin[KMAX],
                 out vec4 enter[KMAX], out vec4 leave[KMAX])
{
  int K = anti ? KA : KC;
  int jj = anti ? seg - 1 - seg_j : seg_j;  // place in the segment, along the scan
  vec4 s[KMAX] = b;
  for (int d = 0; (1 << d) < seg; d++) {
    int o = 1 << d;
    vec4 n[KMAX];
    zero_state(n);
    [[unroll]] for (int i = 0; i < K; i++)
      n[i] = shuffle_toward(anti, s[i], o);
    if (jj >= o) {
      apply_p(anti, d, n);
      [[unroll]] for (int i = 0; i < K; i++)
        s[i] += n[i];
    }
  }
  // s: the state leaving this block when its segment starts at rest.
  vec4 before[KMAX];
  zero_state(before);
  [[unroll]] for (int i = 0; i < K; i++)
    before[i] = shuffle_toward(anti, s[i], 1);
  if (jj == 0)
    zero_state(before);

  int seg_level = findLSB(seg);
  vec4 e[KMAX] = cin, mine[KMAX];
  if (nseg == 1) {
    int base = int(gl_SubgroupInvocationID) & ~(seg - 1);
    int last = anti ? base : base + seg - 1;
    vec4 total[KMAX];
    zero_state(total);
    [[unroll]] for (int i = 0; i < K; i++)
      total[i] = subgroupShuffle(s[i], last);
    mine = e;
    apply_p(anti, seg_level, e);
    [[unroll]] for (int i = 0; i < K; i++)
      e[i] += total[i];
  } else {
    int totals_at = anti && AXIS == 0 ? TOTALS : 0;
    if (jj == seg - 1)
      [[unroll]] for (int i = 0; i < K; i++)
        seg_total[totals_at + total_index(sg_id, i)] = s[i];
    barrier();
    int first_sg = sg_id - seg_k;   // the subgroup of the line's segment 0
    mine = e;
    for (int q = 0; q < nseg; q++) {
      int k = anti ? nseg - 1 - q : q;
      if (k == seg_k) {
        mine = e;
        if (!need_leave)
          break;
      }
      apply_p(anti, seg_level, e);
      [[unroll]] for (int i = 0; i < K; i++)
        e[i] += seg_total[totals_at + total_index(first_sg + k, i)];
    }
    // Along x each stage has its own totals; along y the next stage
    // overwrites these.
    if (AXIS == 1)
      barrier();
  }
  leave = e;
  // From the segment's entering state to this block's: A^(E jj), one
  // P_d per bit of jj. (A table of A^(E j) indexed by jj reads the uniform
  // buffer at a different address per invocation: slower on the H100.)
  for (int d = 0; (1 << d) < seg; d++)
    if (((jj >> d) & 1) != 0)
      apply_p(anti, d, mine);
  [[unroll]] for (int i = 0; i < KMAX; i++)
    enter[i] = mine[i] + before[i];
}

// Along x from a float image: the block's rows as 16-byte loads where they
// lie inside the image on a vector boundary (the full-frame case).
bool load_rows_vec4(int p0, int line, inout vec4 x[E])
{
  int xr = p0 - pc.fin_x0;
  int y0 = line * RPL;
  if (xr < 0 || xr + E > pc.fin_w || pc.fin_y0 > y0 || pc.fin_y0 + pc.fin_h < min(y0 + RPL, pc.height)
      || ((pc.fin_base | pc.fin_stride | (xr * NCOMP)) & 3) != 0)
    return false;
  [[unroll]] for (int r = 0; r < RPL; r++) {
    int y = y0 + r;
    if (y >= pc.height)
      break;
    int b4 = (pc.fin_base + (y - pc.fin_y0) * pc.fin_stride + xr * NCOMP) >> 2;
    [[unroll]] for (int q = 0; q < E * NCOMP / 4; q++) {
      vec4 v = fl4[b4 + q];
      [[unroll]] for (int l = 0; l < 4; l++) {
        int g = q * 4 + l;
        x[g >> LOG2_NCOMP][r * NCOMP + (g & (NCOMP - 1))] = v[l];
      }
    }
  }
  return true;
}

// Whether a block lies wholly beyond one end of the input along the axis:
// then every position reads the value the line continues with there.
bool beyond_input(int p0)
{
  int lo = 0, hi = AXIS == 0 ? pc.width : pc.height;
  if (IN_FLOAT) {
    lo = AXIS == 0 ? pc.fin_x0 : pc.fin_y0;
    hi = lo + (AXIS == 0 ? pc.fin_w : pc.fin_h);
  }
  return p0 >= hi || p0 + E <= lo;
}

// The block read position by position through the border rules, as a
// loop over a copy in local memory (see rolled()). A block wholly beyond
// one end of the input (the blocks that pad a line to whole chunks) reads
// one value: the line continues with it there.
void load_block_general(int p0, int line, out vec4 x[E])
{
  bool one_value = !BOX && beyond_input(p0);
  vec4 t[E];
  for (int e = 0; e < rolled(E); e++) {
    if (one_value && e > 0)
      t[e] = t[0];
    else
      t[e] = stage_input(p0 + e, line);
  }
  [[unroll]] for (int e = 0; e < E; e++)
    x[e] = t[e];
}

void load_block(int p0, int line, out vec4 x[E])
{
  [[unroll]] for (int e = 0; e < E; e++)
    x[e] = vec4(0.0);
  if (AXIS == 0 && IN_FLOAT && !BOX && load_rows_vec4(p0, line, x))
    return;
  // Along y, a block inside the frame's rows reads its words with no
  // border checks.
  int column = stage_word_column(line);
  if (column >= 0 && p0 >= 0 && p0 + E <= pc.height) {
    [[unroll]] for (int e = 0; e < E; e++)
      x[e] = word_lanes_at(column, p0 + e);
    return;
  }
  load_block_general(p0, line, x);
}

// Along x, the packed rows of a subgroup's blocks, stored as runs that
// are contiguous across the subgroup (OUT_RUNS). Stored by store_block(),
// neighbouring invocations' stores lie X_VECTORS vectors apart; a discrete
// GPU writing host memory across the bus pays for each such partial run
// (the RGBA 1080p x scan on the H100: 689 µs, 202 with runs, 68 into its
// own memory). Here the vectors go through shuffles so that store q of the
// subgroup writes the q-th run of S vectors. Taken where the subgroup's
// first n invocations hold whole vector-aligned blocks of one line group
// whose rows follow each other and the rest have nothing to write (past
// the ROI's end, or no line); returns whether it stored. Called by every
// invocation.
bool store_block_coalesced(bool live, int p0, int line, vec4 vals[E])
{
  if (!OUT_RUNS || OUT_KIND != OUT_PACKED || AXIS != 0 || X_VECTORS < 2
      || X_VECTORS > 4)
    return false;
  int S = int(gl_SubgroupSize), lane = int(gl_SubgroupInvocationID);
  int o0;
  bool ok = x_words_vector(p0, line, o0) && live;
  bool empty = !live || p0 >= pc.out_lo + pc.out_len;
  int n = int(subgroupBallotBitCount(subgroupBallot(ok)));
  int first = subgroupBroadcastFirst(o0), first_line = subgroupBroadcastFirst(line);
  bool fits = ok ? lane < n && o0 == first + lane * X_VECTORS * 4 && line == first_line
      : empty && lane >= n;
  if (S % X_VECTORS != 0 || n == 0 || !subgroupAll(fits))
    return false;
  float scale = output_scale();
  int src_lane = lane / X_VECTORS, want = lane % X_VECTORS;
  [[unroll]] for (int r = 0; r < RPL; r++) {
    int y = first_line * RPL + r;
    if (y >= pc.height)
      break;
    uvec4 mine[4];
    [[unroll]] for (int q = 0; q < X_VECTORS; q++)
      mine[q] = uvec4(0u);
    if (ok)
      [[unroll]] for (int q = 0; q < X_VECTORS; q++)
        mine[q] = x_words4(vals, p0, y, r, q, scale);
    int run = ((first + r * pc.out_stride) >> 2) + lane;
    [[unroll]] for (int q = 0; q < X_VECTORS; q++) {
      // Vector S q + lane of the run: vector `want` of invocation
      // (S q + lane) / X_VECTORS.
      int from = q * (S / X_VECTORS) + src_lane;
      uvec4 v = uvec4(0u);
      [[unroll]] for (int k = 0; k < X_VECTORS; k++) {
        uvec4 w = subgroupShuffle(mine[k], from);
        if (k == want)
          v = w;
      }
      if (from < n)
        out_words4[run + q * S] = v;
    }
  }
  return true;
}

void main()
{
  int sg_size = int(gl_SubgroupSize);
  sg_id = int(gl_SubgroupID);
  int idx = sg_id * sg_size + int(gl_SubgroupInvocationID);
  int lg = idx / SUBS, t = idx % SUBS;
  seg = min(SUBS, sg_size);
  seg_w = 1;
  seg_lane = 0;
  if (AXIS == 1 && SUBS > 1 && sg_size * SUBS <= IIR_GROUP_SIZE) {
    t = sg_id % SUBS;
    lg = (sg_id / SUBS) * sg_size + int(gl_SubgroupInvocationID);
    seg = 1;
    seg_w = sg_size;
    seg_lane = int(gl_SubgroupInvocationID);
  }
  seg_j = t & (seg - 1);
  seg_k = t / seg;
  nseg = SUBS / seg;

  int line = int(gl_WorkGroupID.x) * LINES + lg;
  int chunk = int(gl_WorkGroupID.y);
  bool live = line < pc.lines;
  int p0 = (chunk * SUBS + t) * E + pc.out_lo - pc.off;
  bool tails = OUT_KIND == OUT_TAILS;
  bool one_chunk = pc.chunks == 1;

  vec4 x[E];
  if (live)
    load_block(p0, line, x);
  else
    [[unroll]] for (int e = 0; e < E; e++)
      x[e] = vec4(0.0);

  vec4 send[KMAX];
  zero_state(send);
  if (KC > 0) {
    // From rest: the block's outputs and the state leaving it. (The
    // tails use no outputs; the compiler drops them there.)
    vec4 b[KMAX], cin[KMAX], enter[KMAX];
    zero_state(b);
    [[unroll]] for (int e = 0; e < E; e++)
      x[e] = step_c(b, x[e]);
    zero_state(cin);
    if (!tails && live) {
      if (one_chunk)
        left_boundary(line, cin);
      else
        [[unroll]] for (int i = 0; i < KC; i++)
          cin[i] = tail_load(chunk, line, i);
    }
    scan_blocks(false, tails || (one_chunk && KA > 0), b, cin, enter, send);
    // The tails need the causal result only as the anticausal input.
    if (!tails || KA > 0)
      add_zero_input(false, enter, x);
  }

  vec4 uleft[KMAX];
  zero_state(uleft);
  if (KA > 0) {
    vec4 b[KMAX], uin[KMAX], enter[KMAX];
    zero_state(b);
    [[unroll]] for (int e = E - 1; e >= 0; e--)
      x[e] = step_a(b, x[e]);
    zero_state(uin);
    if (!tails && live) {
      if (one_chunk)
        right_boundary(line, send, uin);
      else
        [[unroll]] for (int i = 0; i < KA; i++)
          uin[i] = tail_load(chunk, line, KC + i);
    }
    scan_blocks(true, tails, b, uin, enter, uleft);
    if (!tails)
      add_zero_input(true, enter, x);
  }

  if (!tails && store_block_coalesced(live, p0, line, x))
    return;
  if (!live)
    return;
  if (tails) {
    if (t == 0) {
      [[unroll]] for (int i = 0; i < KC; i++)
        tail_store(chunk, line, i, send[i]);
      [[unroll]] for (int i = 0; i < KA; i++)
        tail_store(chunk, line, KC + i, uleft[i]);
    }
    return;
  }
  store_block(p0, line, x);
}
