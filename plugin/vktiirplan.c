/* vktiirplan.c: the plan of recursive-filter scans for one plane (see
 * vktiirplan.h) — the push constants of iir_*.comp, the chunks a line
 * splits into, and the dispatches of every scan. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vktiirplan.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "iir_scan.spv.h"
#include "iir_tails.spv.h"
#include "iir_chunk_tails.spv.h"
#include "iir_scanline.spv.h"
#include "iir_temporal.spv.h"
#include "iir_box.spv.h"
#include "iir_box_rows.spv.h"
#include "iir_box_cols.spv.h"
#include "iir_noise.spv.h"

/* The push constants of every iir_*.comp (iir_interface.h). */
typedef struct
{
IIR_PUSH_FIELDS} IirPush;

_Static_assert (sizeof (IirPush) <= VKT_MAX_PUSH_BYTES, "push constants");

/* Bindings: packed input and output planes, the uniform tables, the float
 * images and tails, the temporal state. The temporal-only pass reads no
 * floats and of the tables only the temporal motion scale, the box along
 * rows no tables, the noise estimate no tables, and binding 3 receives
 * its report. */
#define SHADER(stem, tables, floats) { #stem, stem##_spv, sizeof (stem##_spv), \
    5, { VKT_BIND_STORAGE, VKT_BIND_STORAGE, tables, floats, \
      VKT_BIND_STORAGE }, sizeof (IirPush), stem##_spv_opt, \
    sizeof (stem##_spv_opt) }

#define SCAN_SHADER(stem) SHADER (stem, VKT_BIND_UNIFORM, VKT_BIND_STORAGE)

static const VktShader shader_scan = SCAN_SHADER (iir_scan);
static const VktShader shader_tails = SCAN_SHADER (iir_tails);
static const VktShader shader_chunk_tails = SCAN_SHADER (iir_chunk_tails);
static const VktShader shader_scanline = SCAN_SHADER (iir_scanline);
static const VktShader shader_box = SCAN_SHADER (iir_box);
static const VktShader shader_box_cols = SCAN_SHADER (iir_box_cols);
static const VktShader shader_box_rows = SHADER (iir_box_rows,
    VKT_BIND_UNUSED, VKT_BIND_STORAGE);
static const VktShader shader_temporal = SHADER (iir_temporal,
    VKT_BIND_UNIFORM, VKT_BIND_UNUSED);
static const VktShader shader_noise = SHADER (iir_noise,
    VKT_BIND_UNUSED, VKT_BIND_STORAGE);

_Static_assert (IIR_SPEC_COUNT <= VKT_MAX_SPEC, "specialization constants");

/* Tables are cached per log2 (SUBS). */
#define SUBS_LEVELS 9
_Static_assert (1 << (SUBS_LEVELS - 1) == IIR_MAX_SUBS, "table levels");
/* iir_tails scans up to IIR_GROUP_SIZE slots of chunks. */
_Static_assert (SUBS_LEVELS - 1 + 8 <= IIR_MAX_LEVELS
    && IIR_GROUP_SIZE == 1 << 8, "table levels");
/* Automatic tile size along y: chunks of 8 blocks. Longer ones were slower
 * on the H100 (more levels), and columns are many; shorter ones where 8
 * leaves fewer than AUTO_MIN_GROUPS work-groups (two per multiprocessor of
 * a large GPU: a 1080p GRAY8 frame had 135, and half the H100 idle). */
#define AUTO_SUBS_Y 8
#define AUTO_MIN_GROUPS 256

struct _VktIirPlan
{
  VktIirSpec spec;
  /* What a pass along each axis runs, and its tables per log2 (SUBS),
   * built when first needed. */
  VktIirStage causal[2], anticausal[2];
  VktIirTables *tables[2][SUBS_LEVELS];
  gdouble noise_gain;
};

VktIirPlan *
vkt_iir_plan_new (void)
{
  VktIirPlan *plan = g_new0 (VktIirPlan, 1);

  plan->noise_gain = 1.0;
  return plan;
}

static void
drop_tables (VktIirPlan * plan, gint axis)
{
  gint l;

  for (l = 0; l < SUBS_LEVELS; l++)
    g_clear_pointer (&plan->tables[axis][l], g_free);
}

void
vkt_iir_plan_free (VktIirPlan * plan)
{
  if (!plan)
    return;
  drop_tables (plan, 0);
  drop_tables (plan, 1);
  g_free (plan);
}

/* What a pass along `axis` runs: nothing on an axis that does not run, the
 * box's running sum of x[n + r] - x[n - r - 1] (the window's sum), or the
 * spec's stages. */
static void
axis_stages (const VktIirSpec * s, gint axis, VktIirStage * causal,
    VktIirStage * anticausal)
{
  gdouble one = 1.0;

  vkt_iir_stage_none (causal);
  vkt_iir_stage_none (anticausal);
  if (!s->axis[axis])
    return;
  if (s->box) {
    vkt_iir_stage_direct (causal, 1.0, &one, 1);
    return;
  }
  *causal = s->causal[axis];
  *anticausal = s->anticausal[axis];
}

void
vkt_iir_plan_set_spec (VktIirPlan * plan, const VktIirSpec * spec)
{
  gint axis;

  /* A property the plan does not see changed (temporal-alpha, say): the
   * noise gain and the tables stand. */
  if (memcmp (&plan->spec, spec, sizeof (*spec)) == 0)
    return;
  plan->spec = *spec;
  plan->noise_gain = 1.0;
  for (axis = 0; axis < 2; axis++) {
    if (spec->axis[axis])
      plan->noise_gain *= spec->box ?
          vkt_iir_box_noise_energy (spec->box_radius, spec->iterations) :
          vkt_iir_noise_energy (&spec->causal[axis], &spec->anticausal[axis]);
  }
  plan->noise_gain = sqrt (plan->noise_gain);
  for (axis = 0; axis < 2; axis++) {
    VktIirStage c, a;

    axis_stages (spec, axis, &c, &a);
    if (memcmp (&c, &plan->causal[axis], sizeof (c)) == 0
        && memcmp (&a, &plan->anticausal[axis], sizeof (a)) == 0)
      continue;
    plan->causal[axis] = c;
    plan->anticausal[axis] = a;
    drop_tables (plan, axis);
  }
}

gdouble
vkt_iir_plan_noise_gain (const VktIirPlan * plan)
{
  return plan->noise_gain;
}

static const VktIirTables *
get_tables (VktIirPlan * plan, gint axis, gint subs)
{
  gint level = 0;

  while ((1 << level) < subs)
    level++;
  if (!plan->tables[axis][level]) {
    plan->tables[axis][level] = g_new0 (VktIirTables, 1);
    vkt_iir_tables (plan->tables[axis][level], &plan->causal[axis],
        &plan->anticausal[axis], IIR_BLOCK, subs);
  }
  return plan->tables[axis][level];
}

/* Where a scan reads from or writes to: the packed plane, or a float image
 * in the scratch buffer covering [x0, x0 + w) x [y0, y0 + h) of the ROI. */
typedef struct
{
  gboolean packed;
  gint base, x0, y0, w, h;
} Image;

/* Floats per row of a float image: whole 16-byte vectors, which the scans
 * move at once. */
static gint
image_stride (gint w, const VktPlane * p)
{
  return (w * p->ncomp + 3) & ~3;
}

/* Words per row of the box's fixed-point image between the axes (8-bit
 * formats): two values a word, whole 16-byte vectors. */
static gint
fixed_image_stride (gint w, const VktPlane * p)
{
  return (w * p->ncomp + 7) / 8 * 4;
}

/* Line groups of a scan along `axis` (iir_interface.h): rows of 4 lanes
 * along x, 4 lanes of a row along y. */
static gint
scan_lines (const VktPlane * p, gint axis, gint lane_off)
{
  if (axis == 0)
    return (p->roi.h * p->ncomp + 3) / 4;
  return (p->roi.w * p->ncomp + lane_off + 3) / 4;
}

/* One plane being recorded. */
typedef struct
{
  VktIirPlan *plan;
  VktCompute *compute;
  const VktPlane *plane;
  VktBufferRef refs[5];
  gint tails_base;              /* floats */
  const VktIirTemporal *temporal;
} Recording;

static guint
pow2_ceil (guint n)
{
  guint p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

/* The automatic blocks per chunk along y, from the ROI alone (the scratch
 * buffer's tails are sized with it). */
static guint
auto_subs_y (const VktPlane * p)
{
  guint lines = scan_lines (p, 1, 0);
  guint n = AUTO_SUBS_Y;

  while (n > 2 && (lines + IIR_GROUP_SIZE / n - 1) / (IIR_GROUP_SIZE / n)
      * (((guint) p->roi.h + n * IIR_BLOCK - 1) / (n * IIR_BLOCK))
      < AUTO_MIN_GROUPS)
    n /= 2;
  return n;
}

/* How a line of `len` positions splits: blocks per chunk (*subs) and the
 * number of chunks returned. */
static gint
scan_chunks (const VktIirSpec * s, const VktPlane * p, gint axis, gint len,
    gint * subs)
{
  guint want, n;

  if (s->scanline) {
    n = 1;
  } else {
    want = s->tile_size ? (s->tile_size + IIR_BLOCK - 1) / IIR_BLOCK :
        (guint) (len + IIR_BLOCK - 1) / IIR_BLOCK;
    n = pow2_ceil (MAX (want, 1));
    if (!s->tile_size && axis == 1)
      n = MIN (n, auto_subs_y (p));
    n = MIN (n, IIR_MAX_SUBS);
  }
  *subs = n;
  return (len + n * IIR_BLOCK - 1) / (n * IIR_BLOCK);
}

/* One dispatch of a pass. */
static gboolean
dispatch_pass (VktCompute * compute, const VktShader * shader,
    const gint32 * spec, const VktBufferRef * refs, const IirPush * push,
    guint groups_x, guint groups_y, GError ** error)
{
  VktPipeline *pipe = vkt_compute_pipeline (compute, shader, spec,
      IIR_SPEC_COUNT, error);

  if (!pipe)
    return FALSE;
  vkt_compute_dispatch (compute, pipe, refs, push, groups_x, groups_y);
  return TRUE;
}

/* One dispatch of a pass, and the barrier the next pass needs. */
static gboolean
run_pass (VktCompute * compute, const VktShader * shader, const gint32 * spec,
    const VktBufferRef * refs, const IirPush * push, guint groups_x,
    guint groups_y, GError ** error)
{
  if (!dispatch_pass (compute, shader, spec, refs, push, groups_x, groups_y,
          error))
    return FALSE;
  vkt_compute_barrier (compute);
  return TRUE;
}

/* The uniform of a pass: its tables, and the motion scale and detail
 * threshold of the temporal smoothing its write may do. */
static VktBufferRef
pass_uniform (const Recording * rec, gfloat * uniform)
{
  const VktIirTemporal *t = rec->temporal;

  uniform[IIR_U_MISC + 3] = !t ? 0.0f : t->estimate_noise ?
      -t->motion_scale : t->motion_scale;
  uniform[IIR_U_DETAIL] = !t ? 0.0f : t->estimate_noise ?
      -t->detail_threshold : t->detail_threshold;
  uniform[IIR_U_DETAIL + 1] = !t ? 0.0f : (gfloat) t->motion_ref_lanes;
  return vkt_compute_uniform (rec->compute, uniform,
      VKT_IIR_UNIFORM_FLOATS * sizeof (gfloat));
}

/* FORM_C / FORM_A of the shaders: VktIirForm takes its values from
 * iir_interface.h; a missing stage runs no form. */
static gint
shader_form (const VktIirStage * stage)
{
  return stage->form == VKT_IIR_FORM_NONE ? IIR_FORM_DIRECT : stage->form;
}

/* What every pass of a plane pushes: the packed planes, the ROI, the
 * channels, the temporal smoothing of the last write. */
static void
plane_push (const Recording * rec, IirPush * push)
{
  GST_VKTILE_PUSH_PLANE (push, rec->plane);
  if (rec->temporal) {
    push->state_base = rec->temporal->state_base;
    /* A restart smooths with nothing: alpha 0 stores the frame as the
     * state. */
    push->temporal_alpha = rec->temporal->reset ? 0.0f :
        rec->temporal->alpha;
  }
}

/* The specialization every pass of a plane shares: the format's lanes. */
static void
plane_spec (const VktPlane * p, gint32 * spec)
{
  gst_vktile_plane_spec (p, spec);
  spec[IIR_SPEC_FULL_MASK] = p->chan_mask == (1u << p->ncomp) - 1;
}

/* Words of a plane row that the target ROI's lanes touch. */
static gsize
target_row_words (const VktPlane * p)
{
  return ((gsize) (p->roi.tx + p->roi.w) * p->ncomp + p->cpw - 1) / p->cpw
      - (gsize) p->roi.tx * p->ncomp / p->cpw;
}

/* The noise estimate of temporal->estimate_noise: zeroed when it starts
 * afresh, then this frame's Laplacians counted and their median folded in
 * by one dispatch. Frames too small for the 3x3 operator count nothing and
 * keep the estimate. */
gboolean
vkt_iir_record_noise_estimate (VktCompute * compute,
    const VktBufferRef refs[5], const VktPlane * p,
    const VktIirTemporal * t, GError ** error)
{
  Recording rec = { NULL, compute, p };
  gint32 spec[IIR_SPEC_COUNT] = { 0 };
  IirPush push = { 0 };
  VktBufferRef bound[5];
  gint rows = p->roi.h >= 3 ? (p->roi.h - 3) / IIR_NOISE_ROW_STEP + 1 : 0;

  rec.temporal = t;
  plane_push (&rec, &push);
  plane_spec (p, spec);
  push.ext_value = (gfloat) p->max_code;
  push.tails_base = t->noise_report_index;
  memcpy (bound, refs, sizeof (bound));
  bound[3] = t->noise_report;
  if (t->clear_noise) {
    spec[IIR_SPEC_NOISE_STEP] = IIR_NOISE_CLEAR;
    if (!run_pass (compute, &shader_noise, spec, bound, &push, 1, 1, error))
      return FALSE;
  }
  spec[IIR_SPEC_NOISE_STEP] = IIR_NOISE_COUNT;
  if (t->noise_temporal) {
    spec[IIR_SPEC_NOISE_STEP] = IIR_NOISE_COUNT_TEMPORAL;
    push.fin_base = t->noise_prev_base;
    push.fin_stride = t->noise_prev_valid;
  }
  push.fout_base = 2 * (gint) t->noise_slot;
  push.fout_stride = 2 * (gint) (t->noise_beside ? !t->noise_slot :
      t->noise_slot);
  if (!dispatch_pass (compute, &shader_noise, spec, bound, &push,
          MAX (p->roi.w - 2 + IIR_NOISE_GROUP_X - 1, IIR_NOISE_GROUP_X) /
          IIR_NOISE_GROUP_X,
          MAX (rows + IIR_NOISE_GROUP_ROWS - 1, IIR_NOISE_GROUP_ROWS) /
          IIR_NOISE_GROUP_ROWS, error))
    return FALSE;
  if (!t->noise_beside)
    vkt_compute_barrier (compute);
  return TRUE;
}

/* No spatial axis: one pass copies the ROI, smoothing it across frames
 * when `temporal` is on. */
static gboolean
record_temporal_only (Recording * rec, GError ** error)
{
  const VktPlane *p = rec->plane;
  gint32 spec[IIR_SPEC_COUNT] = { 0 };
  gfloat uniform[VKT_IIR_UNIFORM_FLOATS] = { 0 };
  VktBufferRef refs[5];
  IirPush push = { 0 };
  guint words;

  plane_push (rec, &push);
  plane_spec (p, spec);
  spec[IIR_SPEC_TEMPORAL] = rec->temporal != NULL;
  words = target_row_words (p);
  memcpy (refs, rec->refs, sizeof (refs));
  refs[2] = pass_uniform (rec, uniform);
  return run_pass (rec->compute, &shader_temporal, spec, refs, &push,
      (words + IIR_TEMPORAL_GROUP_X - 1) / IIR_TEMPORAL_GROUP_X,
      (p->roi.h + IIR_TEMPORAL_GROUP_Y - 1) / IIR_TEMPORAL_GROUP_Y, error);
}

/* What a pass along `axis` pushes to write positions [lo, lo + len) of
 * `out` from `in` (all but the chunks). */
static void
axis_push (const Recording * rec, gint axis, const Image * in,
    const Image * out, gint lo, gint len, gfloat ext_value, IirPush * push)
{
  const VktPlane *p = rec->plane;

  plane_push (rec, push);
  if (!in->packed) {
    push->fin_base = in->base;
    push->fin_stride = image_stride (in->w, p);
    push->fin_x0 = in->x0;
    push->fin_y0 = in->y0;
    push->fin_w = in->w;
    push->fin_h = in->h;
  }
  if (!out->packed) {
    push->fout_base = out->base;
    push->fout_stride = image_stride (out->w, p);
    push->fout_x0 = out->x0;
    push->fout_y0 = out->y0;
  }
  push->out_lo = lo;
  push->out_len = len;
  if (axis == 0) {
    /* Packed rows are written in whole words: blocks start on a word. */
    if (out->packed)
      push->off = ((p->roi.tx + lo) * p->ncomp % p->cpw) / p->ncomp;
  } else if (out->packed) {
    push->lane_off = p->roi.tx * p->ncomp % 4;
  }
  push->lines = scan_lines (p, axis, push->lane_off);
  push->tails_base = rec->tails_base;
  push->box_r = rec->plan->spec.box_radius | (isnan (ext_value) ? 1 << 30 : 0);
  push->ext_value = isnan (ext_value) ? 0.0f : ext_value;
}

/* The specialization of a pass along `axis` from `in` to `out`. */
static void
axis_spec (const Recording * rec, gint axis, const Image * in,
    const Image * out, gint lane_off, gboolean last, gint32 * spec)
{
  const VktPlane *p = rec->plane;

  plane_spec (p, spec);
  spec[IIR_SPEC_AXIS] = axis;
  spec[IIR_SPEC_IN_FLOAT] = !in->packed;
  spec[IIR_SPEC_OUT_KIND] = out->packed ? IIR_OUT_PACKED : IIR_OUT_FLOATS;
  spec[IIR_SPEC_TEMPORAL] = last && rec->temporal;
  spec[IIR_SPEC_ALIGNED] = axis == 1 && in->packed
      && (p->roi.sx * p->ncomp - lane_off) % 4 == 0;
  /* In the GPU's own memory the shuffles cost more than the partial runs
   * (RGBA 4K Gaussian 346 -> 399 µs on the H100); across the bus they
   * save several times what they cost (RGBA 1080p x scan 689 -> 202 µs). */
  spec[IIR_SPEC_OUT_RUNS] = axis == 0 && out->packed && p->out_across_bus;
}

/* Step 1 of a line of several chunks: every chunk's tails from rest. Where
 * the chunk's weights fit the uniform they are sums of its samples
 * (iir_chunk_tails.comp, 2-2.5x faster along y); otherwise the scan
 * runs with OUT_KIND tails. */
static gboolean
record_chunk_tails (Recording * rec, const VktIirTables * tables,
    const gint32 * tspec, const VktBufferRef * refs, const gfloat * uniform,
    const IirPush * push, guint scan_groups_x, GError ** error)
{
  gfloat weights[VKT_IIR_TAIL_FLOATS];
  VktBufferRef wrefs[5];

  if (tables->tail_len != tspec[IIR_SPEC_SUBS] * IIR_BLOCK)
    return run_pass (rec->compute, &shader_scan, tspec, refs, push,
        scan_groups_x, push->chunks, error);
  memcpy (weights, uniform, sizeof (gfloat) * VKT_IIR_UNIFORM_FLOATS);
  vkt_iir_pack_tail_weights (tables, weights);
  memcpy (wrefs, refs, sizeof (wrefs));
  wrefs[2] = vkt_compute_uniform (rec->compute, weights, sizeof (weights));
  return run_pass (rec->compute, &shader_chunk_tails, tspec, wrefs, push,
      (push->lines + IIR_TAIL_GROUP_X - 1) / IIR_TAIL_GROUP_X, push->chunks,
      error);
}

/* One scan along `axis`: positions [lo, lo + len) of `out` from `in`. */
static gboolean
record_scan (Recording * rec, gint axis, const Image * in, const Image * out,
    gint lo, gint len, gfloat ext_value, gboolean box, gboolean last,
    GError ** error)
{
  const VktPlane *p = rec->plane;
  const VktIirSpec *s = &rec->plan->spec;
  const VktIirStage *c = &rec->plan->causal[axis];
  const VktIirStage *a = &rec->plan->anticausal[axis];
  gint32 spec[IIR_SPEC_COUNT] = { 0 };
  gfloat uniform[VKT_IIR_UNIFORM_FLOATS];
  const VktIirTables *tables;
  VktBufferRef refs[5];
  IirPush push = { 0 };
  gint subs, lines_per_group, level = 0;
  gfloat unsharp = out->packed ? s->unsharp_amount : 0.0f;
  guint groups_x;

  axis_push (rec, axis, in, out, lo, len, ext_value, &push);
  push.chunks = scan_chunks (s, p, axis, len + push.off, &subs);
  lines_per_group = MAX (1, IIR_GROUP_SIZE / subs);
  while ((1 << level) < subs)
    level++;

  tables = get_tables (rec->plan, axis, subs);
  vkt_iir_pack (tables, c, a, box ? 1.0f / (2 * s->box_radius + 1) : 1.0f,
      unsharp, uniform);

  axis_spec (rec, axis, in, out, push.lane_off, last, spec);
  spec[IIR_SPEC_KC] = c->form != VKT_IIR_FORM_NONE ? c->order : 0;
  spec[IIR_SPEC_KA] = a->form != VKT_IIR_FORM_NONE ? a->order : 0;
  spec[IIR_SPEC_FORM_C] = shader_form (c);
  spec[IIR_SPEC_FORM_A] = shader_form (a);
  spec[IIR_SPEC_BOX] = box;
  spec[IIR_SPEC_SUBS] = subs;

  memcpy (refs, rec->refs, sizeof (refs));
  refs[2] = pass_uniform (rec, uniform);
  groups_x = (push.lines + lines_per_group - 1) / lines_per_group;

  if (s->scanline) {
    spec[IIR_SPEC_SUBS] = 0;
    spec[IIR_SPEC_UNSHARP] = unsharp != 0.0f;
    return run_pass (rec->compute, &shader_scanline, spec, refs, &push,
        (push.lines + IIR_LINEAR_GROUP - 1) / IIR_LINEAR_GROUP, 1, error);
  }

  if (push.chunks > 1 && (spec[IIR_SPEC_KC] || spec[IIR_SPEC_KA])) {
    gint32 tspec[IIR_SPEC_COUNT];
    /* iir_tails: a line group's chunks and its entering state. */
    gint slots = MIN (pow2_ceil (push.chunks + 1), IIR_GROUP_SIZE);

    memcpy (tspec, spec, sizeof (tspec));
    tspec[IIR_SPEC_OUT_KIND] = IIR_OUT_TAILS;
    if (!record_chunk_tails (rec, tables, tspec, refs, uniform, &push,
            groups_x, error))
      return FALSE;
    tspec[IIR_SPEC_LEVEL] = level;
    tspec[IIR_SPEC_SLOTS] = slots;
    if (!run_pass (rec->compute, &shader_tails, tspec, refs, &push,
            (push.lines + IIR_GROUP_SIZE / slots - 1) / (IIR_GROUP_SIZE /
                slots), 1, error))
      return FALSE;
  }
  spec[IIR_SPEC_UNSHARP] = unsharp != 0.0f;
  return run_pass (rec->compute, &shader_scan, spec, refs, &push, groups_x,
      push.chunks, error);
}

/* The box in one pass per axis (iir_box.comp): its fixed point keeps the
 * constant border and a float input to 2^-frac code values, frac at least
 * BOX_MIN_FRAC (an error of at most 1/16 code value per axis) and at most
 * BOX_MAX_FRAC. */
#define BOX_MIN_FRAC 3
#define BOX_MAX_FRAC 8
/* Walks (line groups x chunks) a box pass gives the GPU at least, where
 * chunks can shrink to that: thousands of warps on a large GPU. Along y
 * more walks paid on the H100 (4K RGBA 475 -> 187 us from 32768 to 65536);
 * along x they cost more than they gave (4K RGBA 255 -> 367 us): each
 * walk there strides through its own row, and the chunks' walk-in grows. */
#define BOX_MIN_WALKS_X 32768
#define BOX_MIN_WALKS_Y 65536

/* Fraction bits of iir_box.comp's fixed point on this plane, or -1 where
 * iir_box.comp does not run the filter: not a box, the scanline baseline,
 * or fewer than BOX_MIN_FRAC bits (its sums, up to m^iterations times the
 * largest value, must fit 32 bits, and a value must round through a
 * float's 23 fraction bits; the scans run the box then). */
static gint
box_frac_bits (const VktIirSpec * s, const VktPlane * p)
{
  guint64 m = 2 * (guint64) s->box_radius + 1, total = (guint64) p->max_code;
  guint i, iterations = MAX (s->iterations, 1);
  gint f;

  if (!s->box || s->scanline)
    return -1;
  for (i = 0; i < iterations; i++)
    total *= m;
  for (f = BOX_MAX_FRAC; f >= BOX_MIN_FRAC; f--)
    if ((total << f) < (G_GUINT64_CONSTANT (1) << 32)
        && ((guint64) p->max_code << f) < (1u << 23))
      return f;
  return -1;
}

/* Positions the box reaches on each side (iterations x radius); a chunk
 * of iir_box*.comp walks in over twice that before its first output. */
static gint
box_reach (const VktIirSpec * s)
{
  return (gint) (MAX (s->iterations, 1) * s->box_radius);
}

/* Blocks per chunk of a box pass over `lines` lines of `len` positions:
 * about 8 times the walk in before a chunk (2 iterations x radius, which
 * writes nothing), fewer where the GPU would get too few walks. */
static gint
box_subs (const VktIirSpec * s, gint axis, gint lines, gint len)
{
  gint reach = box_reach (s);
  gint64 min_walks = axis == 0 ? BOX_MIN_WALKS_X : BOX_MIN_WALKS_Y;
  gint subs;

  if (s->tile_size)
    return CLAMP ((gint) pow2_ceil ((s->tile_size + IIR_BLOCK - 1) /
            IIR_BLOCK), 1, IIR_MAX_SUBS);
  subs = CLAMP ((gint) pow2_ceil ((8 * reach + IIR_BLOCK - 1) / IIR_BLOCK),
      2, 64);
  while (subs > 2 && (gint64) lines * ((len + subs * IIR_BLOCK - 1) /
          (subs * IIR_BLOCK)) < min_walks)
    subs /= 2;
  return subs;
}

/* Work-groups a box along columns (iir_box_cols.comp) gives the GPU at
 * least, where chunks can shrink to that: 4 per multiprocessor of an H100. */
#define BOX_COLS_MIN_GROUPS 528

/* Rows per chunk of iir_box_cols.comp over `lines` line groups of `len`
 * rows, in blocks of IIR_BLOCK: a work-group takes its chunk and the
 * walk-in before it (2 iterations x radius) IIR_COLS_SEGS x IIR_COLS_ROWS
 * rows at a time, so a chunk is a number of those less the walk-in; the
 * longest that still gives the GPU enough work-groups, and at least twice
 * the walk-in (on a small frame, fewer groups cost less than walking in
 * again: 1080p GRAY8 5.8x vkCmdCopyBuffer with 420 groups against 6.4x
 * with 1020). */
static gint
box_cols_subs (const VktIirSpec * s, gint lines, gint len)
{
  gint walk_in = 2 * box_reach (s);
  gint step = IIR_COLS_SEGS * IIR_COLS_ROWS;
  gint across = (lines + IIR_COLS_LINES - 1) / IIR_COLS_LINES, k, best = 0;

  if (s->tile_size)
    return MAX (((gint) s->tile_size + IIR_BLOCK - 1) / IIR_BLOCK, 1);
  for (k = 1;; k++) {
    gint rows = MAX (k * step - walk_in, step / 2) / IIR_BLOCK * IIR_BLOCK;
    gint64 groups = (gint64) across * ((len + rows - 1) / rows);

    if (best && best >= 2 * walk_in && groups < BOX_COLS_MIN_GROUPS)
      break;
    best = rows;
    if (rows >= len)
      break;
  }
  return best / IIR_BLOCK;
}

/* One box pass along `axis`, every iteration at once. */
static gboolean
record_box_pass (Recording * rec, gint axis, const Image * in,
    const Image * out, gfloat ext_value, gint frac, gboolean in_fixed,
    gboolean last, GError ** error)
{
  const VktPlane *p = rec->plane;
  const VktIirSpec *s = &rec->plan->spec;
  gint32 spec[IIR_SPEC_COUNT] = { 0 };
  gfloat uniform[VKT_IIR_UNIFORM_FLOATS];
  VktBufferRef refs[5];
  IirPush push = { 0 };
  gint len = axis == 0 ? p->roi.w : p->roi.h, subs;
  gfloat unsharp = out->packed ? s->unsharp_amount : 0.0f;
  gboolean cols;

  axis_push (rec, axis, in, out, 0, len, ext_value, &push);
  if (in_fixed)
    push.fin_stride = fixed_image_stride (in->w, p);
  subs = box_subs (s, axis, push.lines, len + push.off);
  /* Along y from the fixed-point image, the prefix sums where the walks'
   * chunks would be shorter than twice their walk-in: per row they cost
   * more than a walk's step, but they need no short chunks (H100, 4K, x
   * vkCmdCopyBuffer, prefix sums against walks: RGBA r8, walks of 64 rows
   * and a walk-in of 48, 2.73x against 3.29x; RGBA r2 x3, walk-in 12:
   * 2.70x against 2.41x; RGBA r2 x1: 1.45x against 1.42x). From the
   * packed frame (axes=y) the walks were faster even then (4K GRAY8 r8
   * 3.44x against 3.87x). */
  cols = axis == 1 && in_fixed && out->packed
      && 4 * box_reach (s) > subs * IIR_BLOCK;
  if (cols)
    subs = box_cols_subs (s, push.lines, len);
  push.chunks = (len + push.off + subs * IIR_BLOCK - 1) / (subs * IIR_BLOCK);

  axis_spec (rec, axis, in, out, push.lane_off, last, spec);
  spec[IIR_SPEC_SUBS] = subs;
  spec[IIR_SPEC_ITER] = MAX (s->iterations, 1);
  spec[IIR_SPEC_FRAC] = frac;
  spec[IIR_SPEC_IN_FIXED] = in_fixed;
  spec[IIR_SPEC_UNSHARP] = unsharp != 0.0f;

  /* The writer's tables: only the unsharp amount matters. */
  vkt_iir_pack (get_tables (rec->plan, axis, 1), &rec->plan->causal[axis],
      &rec->plan->anticausal[axis], 1.0f, unsharp, uniform);
  memcpy (refs, rec->refs, sizeof (refs));
  refs[2] = pass_uniform (rec, uniform);
  if (cols)
    return run_pass (rec->compute, &shader_box_cols, spec, refs, &push,
        (push.lines + IIR_COLS_LINES - 1) / IIR_COLS_LINES, push.chunks,
        error);
  return run_pass (rec->compute, &shader_box, spec, refs, &push,
      (push.lines + IIR_LINEAR_GROUP - 1) / IIR_LINEAR_GROUP, push.chunks,
      error);
}

/* Subgroups a box along rows (iir_box_rows.comp) gives the GPU at least,
 * where chunks of a row can shrink to that: a full H100. */
#define BOX_ROWS_MIN_WALKS 8192

/* Chunks per row of iir_box_rows.comp: each walks in over 2 iterations x
 * radius before its first output, so a chunk stays 8 times that long, and
 * at least a segment (the positions a subgroup holds). */
static gint
box_rows_chunks (const VktIirSpec * s, const VktPlane * p, guint subgroup)
{
  gint reach = box_reach (s);
  gint segment = (gint) subgroup * 4 * p->cpw / p->ncomp;
  gint min_len = MAX (8 * 2 * reach, segment), chunks = 1;

  if (s->tile_size)
    return MAX ((p->roi.w + (gint) s->tile_size - 1) / (gint) s->tile_size, 1);
  while ((gint64) p->roi.h * chunks < BOX_ROWS_MIN_WALKS
      && p->roi.w / (2 * chunks) >= min_len)
    chunks *= 2;
  return chunks;
}

/* The box along rows from the frame into the image `out` of the ROI (16-bit
 * fixed point where `fixed`, else floats) by prefix sums across subgroups,
 * every iteration at once. */
static gboolean
record_box_rows (Recording * rec, const Image * out, gboolean fixed,
    gfloat ext_value, gint frac, GError ** error)
{
  const VktPlane *p = rec->plane;
  const VktIirSpec *s = &rec->plan->spec;
  Image src = { TRUE };
  gint32 spec[IIR_SPEC_COUNT] = { 0 };
  IirPush push = { 0 };
  guint subgroup = vkt_compute_subgroup_size (rec->compute);
  gint64 walks;

  axis_push (rec, 0, &src, out, 0, p->roi.w, ext_value, &push);
  push.lines = p->roi.h;
  push.chunks = box_rows_chunks (s, p, subgroup);
  axis_spec (rec, 0, &src, out, 0, FALSE, spec);
  if (fixed) {
    push.fout_stride = fixed_image_stride (out->w, p);
    spec[IIR_SPEC_OUT_KIND] = IIR_OUT_FIXED;
  }
  spec[IIR_SPEC_ITER] = MAX (s->iterations, 1);
  spec[IIR_SPEC_FRAC] = frac;
  /* The shader strides over the walks, so any group count covers them. */
  walks = (gint64) push.lines * push.chunks;
  return run_pass (rec->compute, &shader_box_rows, spec, rec->refs, &push,
      (guint) MIN ((walks * subgroup + IIR_LINEAR_GROUP - 1) /
          IIR_LINEAR_GROUP, 65535), 1, error);
}

/* The box on every axis: along x from the frame into an image of the ROI
 * (prefix sums along rows where the device has subgroup shuffles, else
 * walks), then along y into the frame by walks, which read whole rows of
 * that image at once. A single axis is one walk pass. */
static gboolean
record_box (Recording * rec, gfloat ext, gint frac, GError ** error)
{
  const VktIirSpec *s = &rec->plan->spec;
  const VktPlane *p = rec->plane;
  Image src = { TRUE }, dst = { TRUE }, result = {
  FALSE, 0, 0, 0, p->roi.w, p->roi.h};
  /* 8-bit values keep 1/256 code value in 16 bits: half the bytes. */
  gboolean fixed = p->bpc == 1;

  if (s->axis[0] && s->axis[1] && vkt_compute_has_subgroup_shuffles
      (rec->compute, IIR_MIN_SUBGROUP))
    return record_box_rows (rec, &result, fixed, ext, frac, error)
        && record_box_pass (rec, 1, &result, &dst, ext, frac, fixed, TRUE,
        error);
  if (s->axis[0] && s->axis[1])
    return record_box_pass (rec, 0, &src, &result, ext, frac, FALSE, FALSE,
        error)
        && record_box_pass (rec, 1, &result, &dst, ext, frac, FALSE, TRUE,
        error);
  return record_box_pass (rec, s->axis[0] ? 0 : 1, &src, &dst, ext, frac,
      FALSE, TRUE, error);
}

/* Floats of the tails (or the scanline's line buffer) of a scan. */
static gsize
scan_tail_floats (const VktIirSpec * s, const VktPlane * p, gint axis,
    gint len)
{
  gint lines = scan_lines (p, axis, 3);
  gint pad = axis == 0 ? p->cpw : 0;
  gint subs, chunks = scan_chunks (s, p, axis, len + pad, &subs);

  if (s->scanline)
    return (gsize) chunks * subs * IIR_BLOCK * lines * 4;
  return (gsize) chunks * lines * 2 * VKT_IIR_MAX_ORDER * 4;
}

/* The axes of one plane in the order they run, and the box iterations. */
static gint
plane_axes (const VktIirSpec * s, gint * axes, gint * levels, gint * pad,
    gboolean * box)
{
  gint n = 0;

  *box = s->box;
  /* Along y first: the last scan then writes packed rows. Both orders
   * filter the same infinitely extended image. */
  if (s->axis[1])
    axes[n++] = 1;
  if (s->axis[0])
    axes[n++] = 0;
  *levels = *box ? (gint) MAX (s->iterations, 1) : 1;
  *pad = *box ? (*levels - 1) * ((gint) s->box_radius + 1) : 0;
  return n;
}

/* Floats of each of the scratch images of one plane: the first axis's
 * result, ping and pong for the box's iterations. An iteration's image is
 * padded along the axis it runs on only, so the largest is the ROI padded
 * along one axis: memory grows with the radius times the frame's side, not
 * with the radius squared. */
static gsize
plane_image_floats (const VktIirSpec * s, const VktPlane * p)
{
  gint axes[2], levels, pad;
  gboolean box;

  plane_axes (s, axes, &levels, &pad, &box);
  return MAX ((gsize) image_stride (p->roi.w + 2 * pad, p) * p->roi.h,
      (gsize) image_stride (p->roi.w, p) * (p->roi.h + 2 * pad));
}

gsize
vkt_iir_plan_scratch_floats (const VktIirPlan * plan, const VktPlane * p)
{
  const VktIirSpec *s = &plan->spec;
  gint axes[2], n_axes, levels, pad, i;
  gsize tails = 0;
  gboolean box;

  n_axes = plane_axes (s, axes, &levels, &pad, &box);
  if (n_axes == 0)
    return 0;                   /* record_temporal_only() needs none */
  if (box_frac_bits (s, p) >= 0)        /* record_box(): the x result */
    return n_axes == 2 ? (gsize) image_stride (p->roi.w, p) * p->roi.h : 0;
  for (i = 0; i < n_axes; i++) {
    gint len = (axes[i] == 0 ? p->roi.w : p->roi.h) + 2 * pad;
    tails = MAX (tails, scan_tail_floats (s, p, axes[i], len));
  }
  return 3 * plane_image_floats (s, p) + tails;
}

gboolean
vkt_iir_plan_record_plane (VktIirPlan * plan, VktCompute * compute,
    const VktBufferRef refs[5], const VktPlane * p, GstVkTileBorder border,
    gdouble border_value, const VktIirTemporal * temporal, GError ** error)
{
  const VktIirSpec *s = &plan->spec;
  Recording rec = { plan, compute, p };
  gint axes[2], n_axes, levels, pad, i, l, frac;
  gfloat ext, gain = 1.0f;
  gsize img_floats = plane_image_floats (s, p);
  Image src = { TRUE }, result, ping, pong, cur;
  gboolean box;

  memcpy (rec.refs, refs, sizeof (rec.refs));
  rec.temporal = temporal;
  if (temporal && temporal->estimate_noise
      && !vkt_iir_record_noise_estimate (compute, refs, p, temporal, error))
    return FALSE;
  if (!s->axis[0] && !s->axis[1])
    return record_temporal_only (&rec, error);
  ext = border == GST_VKTILE_BORDER_CONSTANT ?
      (gfloat) (border_value * p->max_code) : NAN;
  if ((frac = box_frac_bits (s, p)) >= 0)
    return record_box (&rec, ext, frac, error);
  if (!s->scanline && !vkt_compute_has_subgroup_shuffles (compute,
          IIR_MIN_SUBGROUP)) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "algorithm=tiled needs subgroup shuffles in compute shaders (of at "
        "least %d invocations), which this Vulkan device lacks; "
        "algorithm=scanline runs without them", IIR_MIN_SUBGROUP);
    return FALSE;
  }
  n_axes = plane_axes (s, axes, &levels, &pad, &box);
  result = (Image) {
  FALSE, 0, 0, 0, p->roi.w, p->roi.h};
  ping = (Image) {
  FALSE, img_floats};
  pong = (Image) {
  FALSE, 2 * img_floats};
  rec.tails_base = 3 * img_floats;

  cur = src;
  for (i = 0; i < n_axes; i++) {
    gint axis = axes[i];
    gint n = axis == 0 ? p->roi.w : p->roi.h;
    gboolean last_axis = i == n_axes - 1;

    for (l = 1; l <= levels; l++) {
      gint half = (levels - l) * ((gint) s->box_radius + 1);
      Image out;
      gfloat level_ext = l == 1 ? ext * gain : NAN;

      if (l == levels) {
        out = last_axis ? (Image) {
        TRUE} : result;
      } else {
        out = (l & 1) ? ping : pong;
        out.x0 = axis == 0 ? -half : 0;
        out.y0 = axis == 1 ? -half : 0;
        out.w = axis == 0 ? n + 2 * half : p->roi.w;
        out.h = axis == 1 ? n + 2 * half : p->roi.h;
      }
      if (!record_scan (&rec, axis, &cur, &out, -half, n + 2 * half,
              level_ext, box, last_axis && l == levels, error))
        return FALSE;
      cur = out;
    }
    /* The next axis continues this one's result beyond the edge: the
     * constant times this axis's DC gain. */
    gain *= box ? 1.0f : (gfloat) get_tables (plan, axis, 1)->gain;
  }
  return TRUE;
}
