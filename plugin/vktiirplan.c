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
#include "iir_scanline.spv.h"

/* The GLSL twin is IirPush in shaders/iir_common.glsl. */
typedef struct
{
  gint32 in_base, in_stride, out_base, out_stride;
  gint32 src_x, src_y, dst_x, dst_y;
  gint32 width, height;
  gint32 fin_base, fin_stride, fin_x0, fin_y0, fin_w, fin_h;
  gint32 fout_base, fout_stride, fout_x0, fout_y0;
  gint32 out_lo, out_len, off, chunks, lines, lane_off;
  gint32 tails_base, state_base, box_r;
  guint32 chan_mask;
  gfloat ext_value, temporal_alpha;
} IirPush;

_Static_assert (offsetof (IirPush, fin_base) == 40, "push layout");
_Static_assert (offsetof (IirPush, out_lo) == 80, "push layout");
_Static_assert (offsetof (IirPush, chan_mask) == 116, "push layout");
_Static_assert (sizeof (IirPush) == 128, "push layout");

#define SHADER(stem) { #stem, stem##_spv, sizeof (stem##_spv), 5, \
    { VKT_BIND_STORAGE, VKT_BIND_STORAGE, VKT_BIND_UNIFORM, VKT_BIND_STORAGE, \
      VKT_BIND_STORAGE }, sizeof (IirPush) }

static const VktShader shader_scan = SHADER (iir_scan);
static const VktShader shader_tails = SHADER (iir_tails);
static const VktShader shader_scanline = SHADER (iir_scanline);

/* Specialization constant ids, as in the shaders. */
enum
{
  SPEC_BPC, SPEC_NCOMP, SPEC_CPW, SPEC_LOG2_NCOMP, SPEC_KC, SPEC_KA,
  SPEC_FORM_C, SPEC_FORM_A, SPEC_AXIS, SPEC_IN_FLOAT, SPEC_OUT_KIND,
  SPEC_BOX, SPEC_TEMPORAL, SPEC_FULL_MASK, SPEC_SUBS, SPEC_LINES,
  SPEC_ALIGNED, SPEC_UNSHARP, SPEC_COUNT
};
#define SPEC_LEVEL SPEC_SUBS    /* iir_tails.comp's one extra constant */

_Static_assert (SPEC_COUNT <= VKT_MAX_SPEC, "specialization constants");

enum
{ OUT_PACKED, OUT_FLOATS, OUT_TAILS };

/* Positions per invocation (E in the shaders), invocations per work-group,
 * and the longest chunk: SUBS blocks are combined in shared memory. */
#define BLOCK 16
#define GROUP_SIZE 256
#define MAX_SUBS 256
#define SUBS_LEVELS 9           /* log2 (MAX_SUBS) + 1 */
#define AUTO_SUBS_Y 8

struct _VktIirPlan
{
  VktIirSpec spec;
  /* What a pass along each axis runs, and its tables per log2 (SUBS),
   * built when first needed. */
  VktIirStage causal[2], anticausal[2];
  VktIirTables *tables[2][SUBS_LEVELS];
};

VktIirPlan *
vkt_iir_plan_new (void)
{
  return g_new0 (VktIirPlan, 1);
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

  plan->spec = *spec;
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

static const VktIirTables *
get_tables (VktIirPlan * plan, gint axis, gint subs)
{
  gint level = 0;

  while ((1 << level) < subs)
    level++;
  if (!plan->tables[axis][level]) {
    plan->tables[axis][level] = g_new0 (VktIirTables, 1);
    vkt_iir_tables (plan->tables[axis][level], &plan->causal[axis],
        &plan->anticausal[axis], BLOCK, subs);
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

/* How a line of `len` positions splits: blocks per chunk (*subs) and the
 * number of chunks returned. */
static gint
scan_chunks (const VktIirSpec * s, gint axis, gint len, gint * subs)
{
  guint want, n;

  if (s->scanline) {
    n = 1;
  } else {
    want = s->tile_size ? (s->tile_size + BLOCK - 1) / BLOCK :
        (guint) (len + BLOCK - 1) / BLOCK;
    n = pow2_ceil (MAX (want, 1));
    if (!s->tile_size && axis == 1)
      n = MIN (n, AUTO_SUBS_Y);
    n = MIN (n, MAX_SUBS);
  }
  *subs = n;
  return (len + n * BLOCK - 1) / (n * BLOCK);
}

/* One dispatch of a pass, and the barrier the next pass needs. */
static gboolean
run_pass (VktCompute * compute, const VktShader * shader, const gint32 * spec,
    const VktBufferRef * refs, const IirPush * push, guint groups_x,
    guint groups_y, GError ** error)
{
  VktPipeline *pipe = vkt_compute_pipeline (compute, shader, spec,
      SPEC_COUNT, error);

  if (!pipe)
    return FALSE;
  vkt_compute_dispatch (compute, pipe, refs, push, groups_x, groups_y);
  vkt_compute_barrier (compute);
  return TRUE;
}

/* FORM_C / FORM_A of the shaders */
static gint
shader_form (const VktIirStage * stage)
{
  return stage->form == VKT_IIR_FORM_MODAL ? 3 :
      stage->form == VKT_IIR_FORM_MODAL3 ? 2 : 1;
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
  gint32 spec[SPEC_COUNT] = { 0 };
  gfloat uniform[VKT_IIR_UNIFORM_FLOATS];
  const VktIirTables *tables;
  VktBufferRef refs[5];
  IirPush push = { 0 };
  gint subs, lines_per_group, level = 0;
  gfloat unsharp = out->packed ? s->unsharp_amount : 0.0f;
  guint groups_x;

  push.in_base = p->in_base;
  push.in_stride = p->in_stride;
  push.out_base = p->out_base;
  push.out_stride = p->out_stride;
  push.src_x = p->roi.sx;
  push.src_y = p->roi.sy;
  push.dst_x = p->roi.tx;
  push.dst_y = p->roi.ty;
  push.width = p->roi.w;
  push.height = p->roi.h;
  if (!in->packed) {
    push.fin_base = in->base;
    push.fin_stride = in->w * p->ncomp;
    push.fin_x0 = in->x0;
    push.fin_y0 = in->y0;
    push.fin_w = in->w;
    push.fin_h = in->h;
  }
  if (!out->packed) {
    push.fout_base = out->base;
    push.fout_stride = out->w * p->ncomp;
    push.fout_x0 = out->x0;
    push.fout_y0 = out->y0;
  }
  push.out_lo = lo;
  push.out_len = len;
  if (axis == 0) {
    push.lines = p->roi.h;
    /* Packed rows are written in whole words: blocks start on a word. */
    if (out->packed)
      push.off = ((p->roi.tx + lo) * p->ncomp % p->cpw) / p->ncomp;
  } else {
    if (out->packed)
      push.lane_off = p->roi.tx * p->ncomp % 4;
    push.lines = (p->roi.w * p->ncomp + push.lane_off + 3) / 4;
  }
  push.tails_base = rec->tails_base;
  push.box_r = s->box_radius | (isnan (ext_value) ? 1 << 30 : 0);
  push.chan_mask = p->chan_mask;
  push.ext_value = isnan (ext_value) ? 0.0f : ext_value;
  if (rec->temporal) {
    push.state_base = rec->temporal->state_base;
    /* A restart smooths with nothing: alpha 0 stores the frame as the
     * state. */
    push.temporal_alpha = rec->temporal->reset ? 0.0f : rec->temporal->alpha;
  }

  push.chunks = scan_chunks (s, axis, len + push.off, &subs);
  lines_per_group = MAX (1, GROUP_SIZE / subs);
  while ((1 << level) < subs)
    level++;

  tables = get_tables (rec->plan, axis, subs);
  vkt_iir_pack (tables, c, a, box ? 1.0f / (2 * s->box_radius + 1) : 1.0f,
      unsharp, uniform);

  spec[SPEC_BPC] = p->bpc;
  spec[SPEC_NCOMP] = p->ncomp;
  spec[SPEC_CPW] = p->cpw;
  spec[SPEC_LOG2_NCOMP] = p->ncomp == 4 ? 2 : p->ncomp == 2 ? 1 : 0;
  spec[SPEC_KC] = c->form != VKT_IIR_FORM_NONE ? c->order : 0;
  spec[SPEC_KA] = a->form != VKT_IIR_FORM_NONE ? a->order : 0;
  spec[SPEC_FORM_C] = shader_form (c);
  spec[SPEC_FORM_A] = shader_form (a);
  spec[SPEC_AXIS] = axis;
  spec[SPEC_IN_FLOAT] = !in->packed;
  spec[SPEC_OUT_KIND] = out->packed ? OUT_PACKED : OUT_FLOATS;
  spec[SPEC_BOX] = box;
  spec[SPEC_TEMPORAL] = last && rec->temporal;
  spec[SPEC_FULL_MASK] = p->chan_mask == (1u << p->ncomp) - 1;
  spec[SPEC_SUBS] = subs;
  spec[SPEC_LINES] = lines_per_group;
  spec[SPEC_ALIGNED] = axis == 1 && in->packed
      && (p->roi.sx * p->ncomp - push.lane_off) % 4 == 0;

  memcpy (refs, rec->refs, sizeof (refs));
  refs[2] = vkt_compute_uniform (rec->compute, uniform, sizeof (uniform));
  groups_x = (push.lines + lines_per_group - 1) / lines_per_group;

  if (s->scanline) {
    spec[SPEC_SUBS] = 0;
    spec[SPEC_LINES] = 0;
    spec[SPEC_UNSHARP] = unsharp != 0.0f;
    return run_pass (rec->compute, &shader_scanline, spec, refs, &push,
        (push.lines + 63) / 64, 1, error);
  }

  if (push.chunks > 1 && (spec[SPEC_KC] || spec[SPEC_KA])) {
    gint32 tspec[SPEC_COUNT];

    memcpy (tspec, spec, sizeof (tspec));
    tspec[SPEC_OUT_KIND] = OUT_TAILS;
    if (!run_pass (rec->compute, &shader_scan, tspec, refs, &push, groups_x,
            push.chunks, error))
      return FALSE;
    tspec[SPEC_LEVEL] = level;
    tspec[SPEC_LINES] = 0;
    if (!run_pass (rec->compute, &shader_tails, tspec, refs, &push,
            (push.lines + 63) / 64, 1, error))
      return FALSE;
  }
  spec[SPEC_UNSHARP] = unsharp != 0.0f;
  return run_pass (rec->compute, &shader_scan, spec, refs, &push, groups_x,
      push.chunks, error);
}

/* Floats of the tails (or the scanline's line buffer) of a scan. */
static gsize
scan_tail_floats (const VktIirSpec * s, const VktPlane * p, gint axis,
    gint len)
{
  gint lines = axis == 0 ? p->roi.h : (p->roi.w * p->ncomp + 3 + 3) / 4;
  gint pad = axis == 0 ? p->cpw : 0;
  gint subs, chunks = scan_chunks (s, axis, len + pad, &subs);

  if (s->scanline)
    return (gsize) chunks * subs * BLOCK * lines * 4;
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
  if (n == 0) {
    axes[n++] = 0;
    *box = FALSE;
  }
  *levels = *box ? (gint) MAX (s->iterations, 1) : 1;
  *pad = *box ? (*levels - 1) * ((gint) s->box_radius + 1) : 0;
  return n;
}

/* Scratch floats of one plane: the first axis's result, ping and pong for
 * the box's padded iterations, then the tails. */
static gsize
plane_image_floats (const VktIirSpec * s, const VktPlane * p)
{
  gint axes[2], levels, pad;
  gboolean box;

  plane_axes (s, axes, &levels, &pad, &box);
  return (gsize) (p->roi.w + 2 * pad) * (p->roi.h + 2 * pad) * p->ncomp;
}

gsize
vkt_iir_plan_scratch_floats (const VktIirPlan * plan, const VktPlane * p)
{
  const VktIirSpec *s = &plan->spec;
  gint axes[2], n_axes, levels, pad, i;
  gsize tails = 0;
  gboolean box;

  n_axes = plane_axes (s, axes, &levels, &pad, &box);
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
  gint axes[2], n_axes, levels, pad, i, l;
  gfloat ext, gain = 1.0f;
  gsize img_floats = plane_image_floats (s, p);
  Image src = { TRUE }, result, ping, pong, cur;
  gboolean box;

  memcpy (rec.refs, refs, sizeof (rec.refs));
  rec.temporal = temporal;
  n_axes = plane_axes (s, axes, &levels, &pad, &box);
  result = (Image) {
  FALSE, 0, 0, 0, p->roi.w, p->roi.h};
  ping = (Image) {
  FALSE, img_floats};
  pong = (Image) {
  FALSE, 2 * img_floats};
  rec.tails_base = 3 * img_floats;

  ext = border == GST_VKTILE_BORDER_CONSTANT ?
      (gfloat) (border_value * p->max_code) : NAN;
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
