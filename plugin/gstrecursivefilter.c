/* gstrecursivefilter.c: the recursivefilter element — its properties, its
 * push constants, and the plan of scans that one frame needs: per plane,
 * the axes in turn (y first, so that the last scan writes the packed
 * output along rows), box iterations as scans over padded domains, and per
 * scan either text 004's tiled passes (intra-tile scan to tails, tails
 * across tiles, final scan) or the scanline baseline. The coefficient and
 * tail-matrix math is vktiir.c; devices, memory and timing the base
 * class's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrecursivefilter.h"
#include "vktiir.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "iir_scan.spv.h"
#include "iir_tails.spv.h"
#include "iir_scanline.spv.h"

GST_DEBUG_CATEGORY_STATIC (gst_recursivefilter_debug);
#define GST_CAT_DEFAULT gst_recursivefilter_debug

typedef enum
{
  FILTER_GAUSSIAN,
  FILTER_EXPONENTIAL,
  FILTER_BOX,
  FILTER_CUSTOM,
} FilterKind;

typedef enum
{
  DIRECTION_CAUSAL,
  DIRECTION_ANTICAUSAL,
  DIRECTION_BOTH,
} Direction;

typedef enum
{
  AXES_X,
  AXES_Y,
  AXES_XY,
  AXES_NONE,
} Axes;

typedef enum
{
  ALGORITHM_TILED,
  ALGORITHM_SCANLINE,
} Algorithm;

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
  SPEC_ALIGNED, SPEC_COUNT
};
#define SPEC_LEVEL SPEC_SUBS    /* iir_tails.comp's one extra constant */

enum
{ OUT_PACKED, OUT_FLOATS, OUT_TAILS };

/* Positions per invocation (E in the shaders), invocations per work-group,
 * and the longest chunk: SUBS blocks are combined in shared memory. */
#define BLOCK 16
#define GROUP_SIZE 256
#define MAX_SUBS 256
#define AUTO_SUBS_Y 8

#define DEFAULT_SIGMA 2.0
#define DEFAULT_ALPHA -1.0
#define DEFAULT_RADIUS 2
#define DEFAULT_ITERATIONS 1
#define DEFAULT_FEEDFORWARD 0.5
#define DEFAULT_FEEDBACK 0.5

/* Everything that decides the spatial filter, copied under the lock. */
typedef struct
{
  FilterKind filter;
  gdouble sigma, alpha;
  guint radius, iterations;
  gdouble b0;
  gdouble feedback[VKT_IIR_MAX_ORDER];
  guint n_feedback;
  Direction direction;
  Axes axes;
  Algorithm algorithm;
  guint tile_size;
  gdouble temporal_alpha;
} Settings;

struct _GstRecursivefilter
{
  GstVkTileFilter parent;

  /* properties, under the object lock */
  Settings settings;
  guint serial;                 /* bumped by every change of settings */
  gboolean reset_temporal;      /* flush, discont, caps change */

  /* streaming thread only: the filter of settings `filter_serial` */
  guint filter_serial;
  VktIirStage causal, anticausal;
  VktIirTables *tables[9];      /* per log2 (SUBS), built when first needed */
  VkBuffer state_buffer;        /* temporal state: reset when it moves */
  gsize state_size;
};

enum
{
  PROP_0,
  PROP_FILTER,
  PROP_SIGMA,
  PROP_ALPHA,
  PROP_RADIUS,
  PROP_ITERATIONS,
  PROP_FEEDFORWARD,
  PROP_FEEDBACK,
  PROP_DIRECTION,
  PROP_AXES,
  PROP_ALGORITHM,
  PROP_TILE_SIZE,
  PROP_TEMPORAL_ALPHA,
};

G_DEFINE_TYPE (GstRecursivefilter, gst_recursivefilter,
    GST_TYPE_VKTILE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (recursivefilter, "recursivefilter",
    GST_RANK_NONE, GST_TYPE_RECURSIVEFILTER);

#define DEFINE_ENUM(func, name, ...) \
static GType \
func (void) \
{ \
  static GType type = 0; \
  static const GEnumValue values[] = { __VA_ARGS__, {0, NULL, NULL} }; \
  if (g_once_init_enter (&type)) { \
    GType t = g_enum_register_static (name, values); \
    g_once_init_leave (&type, t); \
  } \
  return type; \
}

DEFINE_ENUM (filter_kind_get_type, "GstRecursivefilterKind",
    {FILTER_GAUSSIAN, "3rd-order recursive Gaussian of van Vliet, Young and "
          "Verbeek (sigma), causal + anticausal", "gaussian"},
    {FILTER_EXPONENTIAL, "1st order y[n] = (1-a) x[n] + a y[n-1] (alpha, "
          "or sigma)", "exponential"},
    {FILTER_BOX, "Box of radius, by running sums; iterations 3 approximate "
          "a Gaussian", "box"},
    {FILTER_CUSTOM, "y[n] = b0 x[n] + a1 y[n-1] + ... + ak y[n-k] "
          "(feedforward, feedback)", "custom"});
DEFINE_ENUM (direction_get_type, "GstRecursivefilterDirection",
    {DIRECTION_CAUSAL, "Causal: left to right, top to bottom", "causal"},
    {DIRECTION_ANTICAUSAL, "Anticausal: right to left, bottom to top",
        "anticausal"},
    {DIRECTION_BOTH, "Causal, then anticausal on its result", "both"});
DEFINE_ENUM (axes_get_type, "GstRecursivefilterAxes",
    {AXES_X, "Along rows", "x"},
    {AXES_Y, "Along columns", "y"},
    {AXES_XY, "Along rows, then along columns", "xy"},
    {AXES_NONE, "No spatial filter (temporal smoothing only)", "none"});
DEFINE_ENUM (algorithm_get_type, "GstRecursivefilterAlgorithm",
    {ALGORITHM_TILED, "Tiled scans (text 004): intra-tile scans that save "
          "tails, tails completed across tiles, a final scan", "tiled"},
    {ALGORITHM_SCANLINE, "Scanline baseline: one invocation per row or "
          "column", "scanline"});

/* ---- the filter as stages ---- */

/* The stages of one pass along an axis (a box iteration is one pass). */
static void
settings_stages (const Settings * s, VktIirStage * causal,
    VktIirStage * anticausal)
{
  gboolean c = s->direction != DIRECTION_ANTICAUSAL;
  gboolean a = s->direction != DIRECTION_CAUSAL;
  VktIirStage st;

  vkt_iir_stage_none (causal);
  vkt_iir_stage_none (anticausal);
  switch (s->filter) {
    case FILTER_GAUSSIAN:
      vkt_iir_stage_gaussian (&st, s->sigma);
      c = a = TRUE;
      break;
    case FILTER_EXPONENTIAL:{
      gdouble alpha = s->alpha >= 0 ? s->alpha : exp (-1.0 / s->sigma);
      vkt_iir_stage_direct (&st, 1.0 - alpha, &alpha, 1);
      break;
    }
    case FILTER_BOX:{
      /* The running sum of x[n + r] - x[n - r - 1]: the window's sum. */
      gdouble one = 1.0;
      vkt_iir_stage_direct (causal, 1.0, &one, 1);
      return;
    }
    case FILTER_CUSTOM:
    default:
      vkt_iir_stage_recursion (&st, s->b0, s->feedback, s->n_feedback);
      break;
  }
  if (c)
    *causal = st;
  if (a)
    *anticausal = st;
}

/* The stages of the settings numbered `serial`, computed once per change of
 * settings, not once per scan. */
static void
update_filter (GstRecursivefilter * self, const Settings * s, guint serial)
{
  guint i;

  if (self->filter_serial == serial)
    return;
  for (i = 0; i < G_N_ELEMENTS (self->tables); i++)
    g_clear_pointer (&self->tables[i], g_free);
  settings_stages (s, &self->causal, &self->anticausal);
  self->filter_serial = serial;
}

static const VktIirTables *
get_tables (GstRecursivefilter * self, gint subs)
{
  gint level = 0;

  while ((1 << level) < subs)
    level++;
  if (!self->tables[level]) {
    self->tables[level] = g_new0 (VktIirTables, 1);
    vkt_iir_tables (self->tables[level], &self->causal, &self->anticausal,
        BLOCK, subs);
  }
  return self->tables[level];
}

/* ---- the plan of one plane ---- */

/* Where a scan reads from or writes to: the packed plane, or a float image
 * in the scratch buffer covering [x0, x0 + w) x [y0, y0 + h) of the ROI. */
typedef struct
{
  gboolean packed;
  gint base, x0, y0, w, h;
} Image;

static guint
pow2_ceil (guint n)
{
  guint p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

typedef struct
{
  GstRecursivefilter *self;
  VktCompute *compute;
  const Settings *s;
  const VktPlane *plane;
  VktBufferRef refs[5];
  gint tails_base;              /* floats */
  gboolean temporal;
  gfloat temporal_alpha;
  gboolean temporal_reset;
  gint state_base;
} Plan;

/* How a line of `len` positions splits: blocks per chunk (*subs) and the
 * number of chunks returned. */
static gint
scan_chunks (const Settings * s, gint axis, gint len, gint * subs)
{
  guint want, n;

  if (s->algorithm == ALGORITHM_SCANLINE) {
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
record_scan (Plan * plan, gint axis, const Image * in, const Image * out,
    gint lo, gint len, gfloat ext_value, gboolean box, gboolean last,
    GError ** error)
{
  const VktPlane *p = plan->plane;
  const Settings *s = plan->s;
  VktIirStage c, a;
  gint32 spec[SPEC_COUNT] = { 0 };
  gfloat uniform[VKT_IIR_UNIFORM_FLOATS];
  const VktIirTables *tables;
  VktBufferRef refs[5];
  IirPush push = { 0 };
  gint subs, lines_per_group, level = 0;
  guint groups_x;

  c = plan->self->causal;
  a = plan->self->anticausal;
  if (s->axes == AXES_NONE) {
    vkt_iir_stage_none (&c);
    vkt_iir_stage_none (&a);
  }

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
  push.tails_base = plan->tails_base;
  push.state_base = plan->state_base;
  push.box_r = s->radius | (isnan (ext_value) ? 1 << 30 : 0);
  push.chan_mask = p->chan_mask;
  push.ext_value = isnan (ext_value) ? 0.0f : ext_value;
  /* A restart smooths with nothing: alpha 0 stores the frame as the state. */
  push.temporal_alpha = plan->temporal_reset ? 0.0f : plan->temporal_alpha;

  push.chunks = scan_chunks (s, axis, len + push.off, &subs);
  lines_per_group = MAX (1, GROUP_SIZE / subs);
  while ((1 << level) < subs)
    level++;

  tables = get_tables (plan->self, subs);
  vkt_iir_pack (tables, &c, &a, box ? 1.0f / (2 * s->radius + 1) : 1.0f,
      uniform);

  spec[SPEC_BPC] = p->bpc;
  spec[SPEC_NCOMP] = p->ncomp;
  spec[SPEC_CPW] = p->cpw;
  spec[SPEC_LOG2_NCOMP] = p->ncomp == 4 ? 2 : p->ncomp == 2 ? 1 : 0;
  spec[SPEC_KC] = c.form != VKT_IIR_FORM_NONE ? c.order : 0;
  spec[SPEC_KA] = a.form != VKT_IIR_FORM_NONE ? a.order : 0;
  spec[SPEC_FORM_C] = shader_form (&c);
  spec[SPEC_FORM_A] = shader_form (&a);
  spec[SPEC_AXIS] = axis;
  spec[SPEC_IN_FLOAT] = !in->packed;
  spec[SPEC_OUT_KIND] = out->packed ? OUT_PACKED : OUT_FLOATS;
  spec[SPEC_BOX] = box;
  spec[SPEC_TEMPORAL] = last && plan->temporal;
  spec[SPEC_FULL_MASK] = p->chan_mask == (1u << p->ncomp) - 1;
  spec[SPEC_SUBS] = subs;
  spec[SPEC_LINES] = lines_per_group;
  spec[SPEC_ALIGNED] = axis == 1 && in->packed
      && (p->roi.sx * p->ncomp - push.lane_off) % 4 == 0;

  memcpy (refs, plan->refs, sizeof (refs));
  refs[2] = vkt_compute_uniform (plan->compute, uniform, sizeof (uniform));
  groups_x = (push.lines + lines_per_group - 1) / lines_per_group;

  if (s->algorithm == ALGORITHM_SCANLINE) {
    spec[SPEC_SUBS] = 0;
    spec[SPEC_LINES] = 0;
    return run_pass (plan->compute, &shader_scanline, spec, refs, &push,
        (push.lines + 63) / 64, 1, error);
  }

  if (push.chunks > 1 && (spec[SPEC_KC] || spec[SPEC_KA])) {
    gint32 tspec[SPEC_COUNT];

    spec[SPEC_OUT_KIND] = OUT_TAILS;
    if (!run_pass (plan->compute, &shader_scan, spec, refs, &push, groups_x,
            push.chunks, error))
      return FALSE;
    memcpy (tspec, spec, sizeof (tspec));
    tspec[SPEC_LEVEL] = level;
    tspec[SPEC_LINES] = 0;
    if (!run_pass (plan->compute, &shader_tails, tspec, refs, &push,
            (push.lines + 63) / 64, 1, error))
      return FALSE;
    spec[SPEC_OUT_KIND] = out->packed ? OUT_PACKED : OUT_FLOATS;
  }
  return run_pass (plan->compute, &shader_scan, spec, refs, &push, groups_x,
      push.chunks, error);
}

/* Floats of the tails (or the scanline's line buffer) of a scan. */
static gsize
scan_tail_floats (const Settings * s, const VktPlane * p, gint axis, gint len)
{
  gint lines = axis == 0 ? p->roi.h : (p->roi.w * p->ncomp + 3 + 3) / 4;
  gint pad = axis == 0 ? p->cpw : 0;
  gint subs, chunks = scan_chunks (s, axis, len + pad, &subs);

  if (s->algorithm == ALGORITHM_SCANLINE)
    return (gsize) chunks * subs * BLOCK * lines * 4;
  return (gsize) chunks * lines * 2 * VKT_IIR_MAX_ORDER * 4;
}

/* The axes of one plane in the order they run, and the box iterations. */
static gint
plane_axes (const Settings * s, gint * axes, gint * levels, gint * pad,
    gboolean * box)
{
  gint n = 0;

  *box = s->filter == FILTER_BOX;
  switch (s->axes) {
    case AXES_X:
      axes[n++] = 0;
      break;
    case AXES_Y:
      axes[n++] = 1;
      break;
    case AXES_XY:
      /* Along y first: the last scan then writes packed rows. Both orders
       * filter the same infinitely extended image. */
      axes[n++] = 1;
      axes[n++] = 0;
      break;
    case AXES_NONE:
      axes[n++] = 0;
      *box = FALSE;
      break;
  }
  *levels = *box ? (gint) s->iterations : 1;
  *pad = *box ? (*levels - 1) * ((gint) s->radius + 1) : 0;
  return n;
}

/* Scratch floats of one plane: the first axis's result, ping and pong for
 * the box's padded iterations, then the tails. */
static gsize
plane_image_floats (const Settings * s, const VktPlane * p)
{
  gint axes[2], levels, pad;
  gboolean box;

  plane_axes (s, axes, &levels, &pad, &box);
  return (gsize) (p->roi.w + 2 * pad) * (p->roi.h + 2 * pad) * p->ncomp;
}

static gsize
plane_scratch_floats (const Settings * s, const VktPlane * p)
{
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

/* Records every scan of one plane into the scratch buffer plan->refs[3],
 * already large enough for it. */
static gboolean
record_plane (Plan * plan, const VktFrame * frame, GError ** error)
{
  const VktPlane *p = plan->plane;
  const Settings *s = plan->s;
  gint axes[2], n_axes, levels, pad, i, l;
  gfloat ext, gain = 1.0f;
  gsize img_floats = plane_image_floats (s, p);
  Image src = { TRUE }, result, ping, pong, cur;
  gboolean box;

  n_axes = plane_axes (s, axes, &levels, &pad, &box);
  result = (Image) {
  FALSE, 0, 0, 0, p->roi.w, p->roi.h};
  ping = (Image) {
  FALSE, img_floats};
  pong = (Image) {
  FALSE, 2 * img_floats};
  plan->tails_base = 3 * img_floats;

  ext = frame->border == GST_VKTILE_BORDER_CONSTANT ?
      (gfloat) (frame->border_value * p->max_code) : NAN;
  cur = src;
  for (i = 0; i < n_axes; i++) {
    gint axis = axes[i];
    gint n = axis == 0 ? p->roi.w : p->roi.h;
    gboolean last_axis = i == n_axes - 1;

    for (l = 1; l <= levels; l++) {
      gint half = (levels - l) * ((gint) s->radius + 1);
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
      if (!record_scan (plan, axis, &cur, &out, -half, n + 2 * half,
              level_ext, box, last_axis && l == levels, error))
        return FALSE;
      cur = out;
    }
    gain *= box ? 1.0f : (gfloat) get_tables (plan->self, 1)->gain;
  }
  return TRUE;
}

/* ---- recording a frame ---- */

static gboolean
gst_recursivefilter_record (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, GError ** error)
{
  GstRecursivefilter *self = GST_RECURSIVEFILTER (filter);
  Settings s;
  guint serial, i;
  gboolean reset;
  gsize state_floats = 0, scratch_floats = 0;
  Plan plan = { 0 };

  GST_OBJECT_LOCK (self);
  s = self->settings;
  serial = self->serial;
  reset = self->reset_temporal;
  self->reset_temporal = FALSE;
  GST_OBJECT_UNLOCK (self);

  plan.self = self;
  plan.compute = compute;
  plan.s = &s;
  update_filter (self, &s, serial);
  plan.refs[0] = frame->in;
  plan.refs[1] = frame->out;
  plan.temporal = s.temporal_alpha > 0.0;
  plan.temporal_alpha = s.temporal_alpha;

  if (plan.temporal) {
    for (i = 0; i < frame->n_planes; i++)
      if (frame->planes[i].active)
        state_floats += (gsize) frame->planes[i].roi.w *
            frame->planes[i].roi.h * frame->planes[i].ncomp;
    if (!gst_vktile_filter_scratch (filter, 1,
            MAX (state_floats, 1) * sizeof (gfloat), &plan.refs[4], error))
      return FALSE;
    /* A new buffer or another layout: nothing to smooth with. */
    if (plan.refs[4].buffer != self->state_buffer
        || state_floats != self->state_size)
      reset = TRUE;
    self->state_buffer = plan.refs[4].buffer;
    self->state_size = state_floats;
  } else {
    /* Unused, but bound: any storage buffer will do. */
    plan.refs[4] = frame->out;
    self->state_size = 0;
  }
  plan.temporal_reset = reset;

  /* One scratch buffer for every plane, sized before anything is recorded:
   * growing it would free a buffer that recorded dispatches still use. */
  for (i = 0; i < frame->n_planes; i++)
    if (frame->planes[i].active)
      scratch_floats = MAX (scratch_floats,
          plane_scratch_floats (&s, &frame->planes[i]));
  if (!gst_vktile_filter_scratch (filter, 0,
          MAX (scratch_floats, 1) * sizeof (gfloat), &plan.refs[3], error))
    return FALSE;

  for (i = 0; i < frame->n_planes; i++) {
    plan.plane = &frame->planes[i];
    if (!plan.plane->active)
      continue;
    if (!record_plane (&plan, frame, error))
      return FALSE;
    plan.state_base += plan.plane->roi.w * plan.plane->roi.h *
        plan.plane->ncomp;
  }
  return TRUE;
}

/* ---- temporal resets ---- */

static void
request_reset (GstRecursivefilter * self)
{
  GST_OBJECT_LOCK (self);
  self->reset_temporal = TRUE;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_recursivefilter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
    case GST_EVENT_CAPS:
    case GST_EVENT_STREAM_START:
      request_reset (GST_RECURSIVEFILTER (trans));
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_recursivefilter_parent_class)->
      sink_event (trans, event);
}

static void
gst_recursivefilter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  if (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_DISCONT))
    request_reset (GST_RECURSIVEFILTER (trans));
}

static gboolean
gst_recursivefilter_start (GstBaseTransform * trans)
{
  request_reset (GST_RECURSIVEFILTER (trans));
  return GST_BASE_TRANSFORM_CLASS (gst_recursivefilter_parent_class)->start
      (trans);
}

/* ---- properties ---- */

static gboolean
read_feedback (const GValue * value, gdouble * out, guint * n)
{
  guint i, len = gst_value_array_get_size (value);

  if (len < 1 || len > VKT_IIR_MAX_ORDER)
    return FALSE;
  for (i = 0; i < len; i++) {
    GValue d = G_VALUE_INIT;
    g_value_init (&d, G_TYPE_DOUBLE);
    if (!g_value_transform (gst_value_array_get_value (value, i), &d))
      return FALSE;
    out[i] = g_value_get_double (&d);
  }
  *n = len;
  return vkt_iir_feedback_is_stable (out, len);
}

static void
gst_recursivefilter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstRecursivefilter *self = GST_RECURSIVEFILTER (object);
  Settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_FILTER:
      s->filter = g_value_get_enum (value);
      break;
    case PROP_SIGMA:
      s->sigma = g_value_get_double (value);
      break;
    case PROP_ALPHA:
      s->alpha = g_value_get_double (value);
      break;
    case PROP_RADIUS:
      s->radius = g_value_get_uint (value);
      break;
    case PROP_ITERATIONS:
      s->iterations = g_value_get_uint (value);
      break;
    case PROP_FEEDFORWARD:
      s->b0 = g_value_get_double (value);
      break;
    case PROP_FEEDBACK:{
      gdouble a[VKT_IIR_MAX_ORDER];
      guint n = 0;
      if (!read_feedback (value, a, &n)) {
        GST_OBJECT_UNLOCK (self);
        GST_WARNING_OBJECT (self, "Refusing 'feedback': it needs 1 to 4 "
            "finite numbers of a stable recursion; keeping the old value");
        GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
            ("Refusing 'feedback': it needs 1 to 4 finite numbers of a "
                "stable recursion (every pole inside the unit circle); "
                "keeping the old value."), (NULL));
        return;
      }
      memcpy (s->feedback, a, sizeof (a));
      s->n_feedback = n;
      break;
    }
    case PROP_DIRECTION:
      s->direction = g_value_get_enum (value);
      break;
    case PROP_AXES:
      s->axes = g_value_get_enum (value);
      break;
    case PROP_ALGORITHM:
      s->algorithm = g_value_get_enum (value);
      break;
    case PROP_TILE_SIZE:
      s->tile_size = g_value_get_uint (value);
      break;
    case PROP_TEMPORAL_ALPHA:
      /* Switching smoothing on starts from the current frame. */
      if (s->temporal_alpha == 0.0 && g_value_get_double (value) > 0.0)
        self->reset_temporal = TRUE;
      s->temporal_alpha = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  self->serial++;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_recursivefilter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstRecursivefilter *self = GST_RECURSIVEFILTER (object);
  Settings *s = &self->settings;
  guint i;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_FILTER:
      g_value_set_enum (value, s->filter);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, s->sigma);
      break;
    case PROP_ALPHA:
      g_value_set_double (value, s->alpha);
      break;
    case PROP_RADIUS:
      g_value_set_uint (value, s->radius);
      break;
    case PROP_ITERATIONS:
      g_value_set_uint (value, s->iterations);
      break;
    case PROP_FEEDFORWARD:
      g_value_set_double (value, s->b0);
      break;
    case PROP_FEEDBACK:
      for (i = 0; i < s->n_feedback; i++) {
        GValue v = G_VALUE_INIT;
        g_value_init (&v, G_TYPE_DOUBLE);
        g_value_set_double (&v, s->feedback[i]);
        gst_value_array_append_and_take_value (value, &v);
      }
      break;
    case PROP_DIRECTION:
      g_value_set_enum (value, s->direction);
      break;
    case PROP_AXES:
      g_value_set_enum (value, s->axes);
      break;
    case PROP_ALGORITHM:
      g_value_set_enum (value, s->algorithm);
      break;
    case PROP_TILE_SIZE:
      g_value_set_uint (value, s->tile_size);
      break;
    case PROP_TEMPORAL_ALPHA:
      g_value_set_double (value, s->temporal_alpha);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---- type ---- */

static void
gst_recursivefilter_finalize (GObject * object)
{
  GstRecursivefilter *self = GST_RECURSIVEFILTER (object);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (self->tables); i++)
    g_free (self->tables[i]);
  G_OBJECT_CLASS (gst_recursivefilter_parent_class)->finalize (object);
}

static void
gst_recursivefilter_class_init (GstRecursivefilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVkTileFilterClass *filter_class = GST_VKTILE_FILTER_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_recursivefilter_debug, "recursivefilter", 0,
      "recursive (IIR) filters");

  gobject_class->set_property = gst_recursivefilter_set_property;
  gobject_class->get_property = gst_recursivefilter_get_property;
  gobject_class->finalize = gst_recursivefilter_finalize;

  g_object_class_install_property (gobject_class, PROP_FILTER,
      g_param_spec_enum ("filter", "Filter", "The recursive filter",
          filter_kind_get_type (), FILTER_GAUSSIAN, flags));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation in pixels of filter=gaussian (the cost does "
          "not depend on it); for filter=exponential with alpha < 0, "
          "alpha = exp(-1/sigma)", 0.5, 2048.0, DEFAULT_SIGMA,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ALPHA,
      g_param_spec_double ("alpha", "Alpha",
          "Feedback a of filter=exponential, y[n] = (1-a) x[n] + a y[n-1]; "
          "-1: derived from sigma", -1.0, 0.999, DEFAULT_ALPHA,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Radius of filter=box: the window is 2 radius + 1 pixels "
          "(0: identity)", 0, 2048, DEFAULT_RADIUS, flags));
  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_uint ("iterations", "Iterations",
          "How many times filter=box is applied (the composite filter); 3 "
          "approximates a Gaussian", 1, 3, DEFAULT_ITERATIONS, flags));
  g_object_class_install_property (gobject_class, PROP_FEEDFORWARD,
      g_param_spec_double ("feedforward", "Feedforward",
          "b0 of filter=custom", -1e6, 1e6, DEFAULT_FEEDFORWARD,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_FEEDBACK,
      gst_param_spec_array ("feedback", "Feedback",
          "a1..ak (k <= 4) of filter=custom, y[n] = b0 x[n] + a1 y[n-1] + "
          "... + ak y[n-k] (anticausal: y[n+1] ...), e.g. \"<1.2,-0.4>\"; "
          "the recursion must be stable (every pole inside the unit circle)",
          g_param_spec_double ("value", "Value", "A feedback coefficient",
              -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS), flags));
  g_object_class_install_property (gobject_class, PROP_DIRECTION,
      g_param_spec_enum ("direction", "Direction",
          "Direction of filter=exponential and custom (gaussian is always "
          "both, box is symmetric)", direction_get_type (), DIRECTION_BOTH,
          flags));
  g_object_class_install_property (gobject_class, PROP_AXES,
      g_param_spec_enum ("axes", "Axes", "Axes the filter runs along",
          axes_get_type (), AXES_XY, flags));
  g_object_class_install_property (gobject_class, PROP_ALGORITHM,
      g_param_spec_enum ("algorithm", "Algorithm",
          "How the scans run on the GPU; both give the same output, the "
          "baseline exists for benchmarks and tests", algorithm_get_type (),
          ALGORITHM_TILED, flags));
  g_object_class_install_property (gobject_class, PROP_TILE_SIZE,
      g_param_spec_uint ("tile-size", "Tile size",
          "Tile length along the filtered axis in pixels for "
          "algorithm=tiled, rounded up to 16 times a power of two, at most "
          "4096 (0: automatic)", 0, 16384, 0, flags));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_ALPHA,
      g_param_spec_double ("temporal-alpha", "Temporal alpha",
          "Per-pixel smoothing across frames after the spatial filter, "
          "y_t = a y_(t-1) + (1-a) x_t, for live denoising (0: off); "
          "restarts on flush, discontinuity and caps change", 0.0, 0.999, 0.0,
          flags | GST_PARAM_CONTROLLABLE));

  gst_element_class_set_static_metadata (element_class,
      "Recursive filter (Vulkan)", "Filter/Effect/Video/Hardware",
      "IIR filters on the GPU with tiled scans: recursive Gaussian of any "
      "sigma at constant cost, exponential, box, custom coefficients, and "
      "temporal smoothing. Borders: clamp and constant",
      "vktile developers");

  bt_class->sink_event = gst_recursivefilter_sink_event;
  bt_class->before_transform = gst_recursivefilter_before_transform;
  bt_class->start = gst_recursivefilter_start;
  filter_class->record = gst_recursivefilter_record;
  filter_class->supported_borders = (1u << GST_VKTILE_BORDER_CLAMP) |
      (1u << GST_VKTILE_BORDER_CONSTANT);

  gst_type_mark_as_plugin_api (filter_kind_get_type (), 0);
  gst_type_mark_as_plugin_api (direction_get_type (), 0);
  gst_type_mark_as_plugin_api (axes_get_type (), 0);
  gst_type_mark_as_plugin_api (algorithm_get_type (), 0);
}

static void
gst_recursivefilter_init (GstRecursivefilter * self)
{
  Settings *s = &self->settings;

  s->filter = FILTER_GAUSSIAN;
  s->sigma = DEFAULT_SIGMA;
  s->alpha = DEFAULT_ALPHA;
  s->radius = DEFAULT_RADIUS;
  s->iterations = DEFAULT_ITERATIONS;
  s->b0 = DEFAULT_FEEDFORWARD;
  s->feedback[0] = DEFAULT_FEEDBACK;
  s->n_feedback = 1;
  s->direction = DIRECTION_BOTH;
  s->axes = AXES_XY;
  s->algorithm = ALGORITHM_TILED;
  s->tile_size = 0;
  s->temporal_alpha = 0.0;
  self->serial = 1;
  self->filter_serial = 0;
}
