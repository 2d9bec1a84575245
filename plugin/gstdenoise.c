/* gstdenoise.c: the denoise element — its properties, the temporal
 * parameters it pushes and its choice of shaders. Each plane of a frame is
 * one dispatch of shaders/denoise.comp: gaussblur's fused tile
 * (vktgausspass.c) for the spatial stage, and where it writes, the
 * motion-adaptive smoothing across frames (recursivefilter's definition,
 * with motion judged per group of values and the groups beside it and the
 * detail threshold chosen from risk sums: docs/SEMANTICS.md) with its
 * state read and written once.
 * Every 4th frame the dispatch also adds up the risk sums, which the CPU
 * reads back 4 frames later to choose the threshold (lib/vktsure.c). The
 * noise estimate is recursivefilter's pass (vktiirplan.c), run every few
 * frames: before the dispatch on a recursion's first two, beside it
 * (into the estimate's other slot, which the next frames read) after.
 * Devices, memory, timing and restarts are the base class's.
 *
 * SECTION:element-denoise
 * @title: denoise
 *
 * Live video denoising on the GPU: a small Gaussian blur whose detail
 * standing out of the noise is put back, smoothed across frames where the
 * picture is still and followed where it moves. The noise level is
 * estimated from the input unless noise-sigma gives it.
 *
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw ! denoise ! videoconvert ! \
 *     autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstdenoise.h"
#include "vktgausspass.h"
#include "vktiirplan.h"
#include "gstvktiletemporal.h"
#include "denoise_interface.h"
#include "vktsure.h"

#include <math.h>
#include <string.h>

#include "denoise.spv.h"

GST_DEBUG_CATEGORY_STATIC (gst_denoise_debug);
#define GST_CAT_DEFAULT gst_denoise_debug

/* The temporal parameters of one plane (denoise_interface.h). */
typedef struct
{
DENOISE_PARAM_FIELDS} DenoiseParams;

/* Bindings: the packed planes, gaussblur's weights, the temporal
 * parameters, the state, the risk sums. The push constants are
 * gaussblur's. */
static const VktShader shader_denoise = { "denoise", denoise_spv,
  sizeof (denoise_spv), 6, {VKT_BIND_STORAGE, VKT_BIND_STORAGE,
      VKT_BIND_UNIFORM, VKT_BIND_UNIFORM, VKT_BIND_STORAGE, VKT_BIND_STORAGE},
  sizeof (VktGaussPush)
};

/* The report: the noise estimate of each plane. */
#define REPORT_BYTES (GST_VIDEO_MAX_PLANES * sizeof (gfloat))

/* The noise estimate runs on the first two frames of a recursion and then
 * on every NOISE_INTERVAL-th: a pass of its own with atomics, it cost as much
 * as the rest of the frame at 1080p (docs/BENCHMARKS.md), and a camera's
 * noise changes over seconds, not frames. It takes the smaller of the
 * spatial estimate and the temporal one (the differences from the last
 * estimated frame), which texture does not raise where the scene holds
 * still. */
#define NOISE_INTERVAL 4

/* The detail threshold t (D = sigma / t) is chosen on the CPU from risk
 * sums the GPU adds up on every DETAIL_INTERVAL-th frame of a run that
 * keeps detail, from its third (SUMS_PHASE: the first frames have little
 * average over frames yet, and the noise estimate runs on a recursion's
 * first two and every 4th after, so from a restart never on the same
 * frame), and reads back
 * DETAIL_INTERVAL frames later, when it is done with them (unless more
 * frames than that are in flight): no frame waits, and the frames between,
 * whose shader has no sums compiled in, cost what they cost without them
 * (docs/BENCHMARKS.md). Until the first choice, t is FIRST_T. */
#define DETAIL_INTERVAL 4
#define SUMS_PHASE 2
#define FIRST_T (1.0 / 3.0)

static const gdouble sure_ts[DENOISE_SURE_CANDIDATES] = { DENOISE_SURE_TS };

/* The motion scale T in sigmas of the blurred noise: smaller than
 * recursivefilter's 3, as motion is judged on a group of values, whose mean
 * lets noise through less often than one value's, and the detail put back
 * where the picture moves is chosen by its risk. */
#define MOTION_SIGMAS 2.25

/* A noise-sigma given below this counts as this: in single precision a
 * scale of 0 would mean a fixed weight and no detail kept. */
#define MIN_NOISE_SIGMA 1e-3

#define DEFAULT_SIGMA 0.8
#define DEFAULT_TEMPORAL_ALPHA 0.8
#define DEFAULT_TEMPORAL_MODE GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE
#define DEFAULT_NOISE_SIGMA 0.0
#define DEFAULT_KEEP_DETAIL TRUE

typedef struct
{
  gdouble sigma;
  GstVkTileTemporal temporal;
} Settings;

/* What the state of a frame's planes looks like: another layout holds
 * nothing to smooth with. */
typedef struct
{
  gint quads[GST_VIDEO_MAX_PLANES], rows[GST_VIDEO_MAX_PLANES];
  guint chan_mask[GST_VIDEO_MAX_PLANES];
  gint bpc;
} StateLayout;

struct _GstDenoise
{
  GstVkTileFilter parent;

  /* properties, under the object lock */
  Settings settings;
  gboolean restart;             /* smoothing switched on, roi-meta */

  /* streaming thread only */
  StateLayout layout;           /* of the last frame smoothed; quads 0: none */
  guint noise_age;              /* frames since the last estimate */
  guint noise_count;            /* estimates since the recursion restarted */
  guint estimate_slot;          /* the state's estimate the frames read */
  gboolean noise_estimated;     /* the last frame smoothed with an estimate */
  guint detail_frames;          /* frames kept detail since the restart */
  gdouble detail_t[GST_VIDEO_MAX_PLANES];       /* the last choice */
  /* the last frame that summed: its work-groups per plane (0: none) and
   * the 2 (1 - w0) of its blur */
  guint sums_groups[GST_VIDEO_MAX_PLANES];
  gdouble sums_c2;

  /* under the object lock: the t of the last frame, of the planes it kept
   * detail on (bit i: plane i) */
  gdouble shown_t[GST_VIDEO_MAX_PLANES];
  guint shown_planes;
};

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_TEMPORAL,                /* GST_VKTILE_TEMPORAL_N_PROPS of them */
  PROP_DETAIL_THRESHOLD = PROP_TEMPORAL + GST_VKTILE_TEMPORAL_N_PROPS,
};

#define IS_TEMPORAL_PROP(id) ((id) >= PROP_TEMPORAL \
    && (id) < PROP_TEMPORAL + GST_VKTILE_TEMPORAL_N_PROPS)

G_DEFINE_TYPE (GstDenoise, gst_denoise, GST_TYPE_VKTILE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (denoise, "denoise", GST_RANK_NONE,
    GST_TYPE_DENOISE);

/* ---- the state ---- */

/* Quads (4 lanes) of a state row: the fused tile's grid of words. */
static gint
plane_quads (const VktPlane * p)
{
  gint word_x0;

  return (vkt_roi_words (&p->roi, p->ncomp, p->cpw, &word_x0) * p->cpw + 3)
      / 4;
}

/* The noise estimate's samples of the last estimated frame, in whole
 * vectors. */
static gsize
plane_samples_floats (const VktPlane * p)
{
  return GST_ROUND_UP_4 (VKT_IIR_NOISE_SAMPLES (p->roi.w, p->roi.h,
          p->ncomp));
}

/* Floats of a plane's part of the state: the noise estimate's samples and
 * counts, then its quads, row by row. */
static gsize
plane_state_floats (const VktPlane * p)
{
  return plane_samples_floats (p) + VKT_IIR_NOISE_FLOATS +
      (gsize) plane_quads (p) * p->roi.h * DENOISE_QUAD_VEC4S (p->bpc) * 4;
}

static void
frame_layout (const VktFrame * frame, StateLayout * layout)
{
  guint i;

  memset (layout, 0, sizeof (*layout));
  for (i = 0; i < frame->n_planes; i++) {
    const VktPlane *p = &frame->planes[i];
    if (!p->active)
      continue;
    layout->quads[i] = plane_quads (p);
    layout->rows[i] = p->roi.h;
    layout->chan_mask[i] = p->chan_mask;
    layout->bpc = p->bpc;
  }
}

/* ---- recording a frame ---- */

/* Everything a plane's dispatch needs beyond the blur. */
typedef struct
{
  gboolean smooth;              /* temporal smoothing (else the plain blur) */
  gboolean restart;
  gboolean estimate;            /* noise-sigma estimated */
  gboolean estimate_now;        /* ... this frame */
  gboolean clear_estimate;
  /* The first estimate with temporal differences: it replaces the
   * spatial ones before it, which texture may have raised. */
  gboolean first_temporal;
  /* The estimate's slot this frame reads; later estimates (beside) are
   * counted beside the filter, into the other slot, which the frames
   * after it read. */
  guint estimate_slot;
  gboolean estimate_beside;
  gdouble noise_gain;           /* what the blur leaves of the noise */
  gdouble centre_weight;        /* of the blur's 2D kernel */
  gboolean keep_detail;         /* with motion-adaptive weights */
  gdouble detail_t[GST_VIDEO_MAX_PLANES];
  gboolean sums;                /* the frame adds up risk sums */
  VktBufferRef sums_ref;
  guint sums_base[GST_VIDEO_MAX_PLANES];        /* each plane's first word */
  VktBufferRef refs[6];
} Frame;

/* What every plane of a frame records with; the state floats and the
 * reported planes of the planes recorded so far. */
typedef struct
{
  const Settings *settings;
  Frame *frame;
  const VktGaussBlur *blur;
  gsize state_floats;
  guint report_planes;
} PlaneRecording;

static gboolean
record_plane (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, guint i, const VktBufferRef * scratch, gpointer data,
    GError ** error)
{
  PlaneRecording *rec = data;
  const Settings *s = rec->settings;
  Frame *f = rec->frame;
  const VktGaussBlur *blur = rec->blur;
  gsize state_floats = rec->state_floats;
  const VktPlane *p = &frame->planes[i];
  gboolean adaptive = s->temporal.mode == GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE;
  /* Scales in the plane's code values, or per unit of the estimate. */
  gdouble unit = (f->estimate ? 1.0 : MAX (s->temporal.noise_sigma,
          MIN_NOISE_SIGMA)) * p->max_code / 255.0;
  gfloat sign = f->estimate ? -1.0f : 1.0f;
  /* The plane's part of the state: samples, counts, records. */
  gsize samples = state_floats;
  gsize records = samples + plane_samples_floats (p) + VKT_IIR_NOISE_FLOATS;
  gint word_x0;
  DenoiseParams params = { 0 };
  VktBufferRef refs[G_N_ELEMENTS (f->refs)];

  rec->state_floats += plane_state_floats (p);
  if (f->estimate)
    rec->report_planes |= 1u << i;
  if (!f->smooth)
    return vkt_gauss_record_fused (blur, compute, NULL, f->refs, p, frame,
        error);

  if (f->estimate_now) {
    VktIirTemporal t = { 0 };

    t.alpha = (gfloat) s->temporal.alpha;
    t.reset = f->clear_estimate || f->first_temporal;
    t.clear_noise = f->clear_estimate;
    t.state_base = (gint) records;
    t.noise_report_index = i;
    t.noise_temporal = TRUE;
    t.noise_prev_base = (gint) samples;
    t.noise_prev_valid = !f->clear_estimate;
    t.noise_slot = f->estimate_slot;
    t.noise_beside = f->estimate_beside;
    t.noise_report = f->refs[5];
    if (!vkt_iir_record_noise_estimate (compute, f->refs, p, &t, error))
      return FALSE;
  }

  params.alpha = f->restart ? 0.0f : (gfloat) s->temporal.alpha;
  params.motion = adaptive ?
      sign * (gfloat) (MOTION_SIGMAS * f->noise_gain * unit) : 0.0f;
  params.detail = f->keep_detail ? sign * (gfloat) unit : 0.0f;
  params.estimate_index = (gint) (records - IIR_NOISE_ESTIMATE_BACK +
      2 * f->estimate_slot);
  params.state_base = (gint) (records / 4);
  params.state_stride = plane_quads (p);
  vkt_roi_words (&p->roi, p->ncomp, p->cpw, &word_x0);
  params.lane0 = word_x0 * p->cpw;
  params.detail_t = (gfloat) f->detail_t[i];
  params.sums_base = (gint) f->sums_base[i];
  f->refs[3] = vkt_compute_uniform (compute, &params, sizeof (params));
  /* Binding 5 is the risk sums where they are written, and the report
   * (untouched) elsewhere: a frame that binds the sums' buffer is one the
   * CPU waits for when it reads them. */
  memcpy (refs, f->refs, sizeof (refs));
  if (f->sums)
    refs[5] = f->sums_ref;
  return vkt_gauss_record_fused (blur, compute, &shader_denoise, refs, p,
      frame, error);
}

/* The CPU's part of the detail threshold, for a frame that keeps detail:
 * every DETAIL_INTERVAL-th frame from the third sums, and from the second
 * of those on, first chooses t from the sums of the one before. */
static gboolean
detail_schedule (GstDenoise * self, Frame * f, const VktGaussBlur * blur,
    const VktFrame * frame, GError ** error)
{
  GstVkTileFilter *filter = GST_VKTILE_FILTER (self);
  guint age = self->detail_frames, i, j, g, words = 0, planes = 0;

  gboolean chosen = age >= DETAIL_INTERVAL + SUMS_PHASE;

  /* Past the first choice only the phase counts: the count wraps within
   * it rather than at 2^32 frames. */
  self->detail_frames = chosen ? DETAIL_INTERVAL + SUMS_PHASE +
      (age + 1 - SUMS_PHASE) % DETAIL_INTERVAL : age + 1;

  f->sums = age % DETAIL_INTERVAL == SUMS_PHASE;
  if (f->sums && chosen) {
    GstMemory *mem;
    GstMapInfo map;

    for (i = 0; i < GST_VIDEO_MAX_PLANES; i++)
      words += self->sums_groups[i] * DENOISE_SURE_SUMS;
    /* waits for the frame that summed, should it still run */
    mem = gst_vktile_filter_readback (filter, words * sizeof (guint32), NULL,
        NULL);
    if (!mem || !gst_memory_map (mem, &map, GST_MAP_READ)) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
          "Cannot read the risk sums of the detail threshold back");
      return FALSE;
    }
    for (i = 0, words = 0; i < GST_VIDEO_MAX_PLANES; i++) {
      const guint32 *v = (const guint32 *) map.data + words;
      guint64 sums[DENOISE_SURE_SUMS] = { 0 };

      for (g = 0; g < self->sums_groups[i]; g++)
        for (j = 0; j < DENOISE_SURE_SUMS; j++)
          sums[j] += v[g * DENOISE_SURE_SUMS + j];
      words += self->sums_groups[i] * DENOISE_SURE_SUMS;
      self->detail_t[i] = vkt_sure_choose (sure_ts, DENOISE_SURE_CANDIDATES,
          sums, self->sums_c2, FIRST_T);
    }
    gst_memory_unmap (mem, &map);
  }
  for (i = 0; i < frame->n_planes; i++) {
    f->detail_t[i] = chosen ? self->detail_t[i] : FIRST_T;
    if (frame->planes[i].active)
      planes |= 1u << i;
  }
  GST_OBJECT_LOCK (self);
  memcpy (self->shown_t, f->detail_t, sizeof (self->shown_t));
  self->shown_planes = planes;
  GST_OBJECT_UNLOCK (self);
  if (!f->sums)
    return TRUE;

  words = 0;
  for (i = 0; i < GST_VIDEO_MAX_PLANES; i++) {
    const VktPlane *p = &frame->planes[i];

    g = i < frame->n_planes && p->active ?
        vkt_gauss_fused_groups (blur, p, frame) : 0;
    f->sums_base[i] = words;
    self->sums_groups[i] = g;
    words += g * DENOISE_SURE_SUMS;
  }
  self->sums_c2 = 2.0 * (1.0 - f->centre_weight);
  return gst_vktile_filter_readback (filter, MAX (words, 1) * sizeof (guint32),
      &f->sums_ref, error) != NULL;
}

static gboolean
gst_denoise_record (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, GError ** error)
{
  GstDenoise *self = GST_DENOISE (filter);
  Settings s;
  Frame f = { 0 };
  VktGaussBlur blur;
  static const GstVkTilePlaneRecorder recorder = { NULL, record_plane };
  StateLayout layout;
  PlaneRecording rec;
  gsize state_floats = 0;
  guint i;

  /* Neighbouring invocations hand each other their quads' motion. */
  if (!vkt_compute_has_subgroup_shuffles (compute, DENOISE_MOTION_RUN)) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_FEATURE_NOT_PRESENT,
        "denoise needs subgroup shuffles in compute shaders (of at least %d "
        "invocations), which this Vulkan device lacks", DENOISE_MOTION_RUN);
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  s = self->settings;
  f.restart = self->restart;
  /* The regions of roi-meta move from frame to frame: nothing is smoothed
   * across frames there, and the recursion starts afresh after them. */
  self->restart = frame->n_regions > 0;
  GST_OBJECT_UNLOCK (self);
  f.restart |= gst_vktile_filter_take_restart (filter);

  vkt_gauss_blur_init (&blur, compute, s.sigma, s.sigma, 0, 0.0f);
  /* the tile's shared memory shares the device's with the risk sums */
  blur.shared_bytes -= DENOISE_SHARED_BYTES;
  f.noise_gain = vkt_gauss_noise_gain (s.sigma, blur.radius[0]) *
      vkt_gauss_noise_gain (s.sigma, blur.radius[1]);
  f.centre_weight = vkt_gauss_centre_weight (s.sigma, blur.radius[0]) *
      vkt_gauss_centre_weight (s.sigma, blur.radius[1]);
  f.smooth = s.temporal.alpha > 0.0 && frame->n_regions == 0;
  f.refs[0] = frame->in;
  f.refs[1] = frame->out;

  if (f.smooth) {
    gboolean fresh;
    for (i = 0; i < frame->n_planes; i++)
      if (frame->planes[i].active)
        state_floats += plane_state_floats (&frame->planes[i]);
    if (!gst_vktile_filter_temporal_state (filter,
            MAX (state_floats, 1) * sizeof (gfloat), &f.refs[4], &fresh,
            error))
      return FALSE;
    /* The noise estimates and the detail thresholds read back. */
    if (!gst_vktile_filter_report (filter, REPORT_BYTES, &f.refs[5], error))
      return FALSE;
    frame_layout (frame, &layout);
    /* A new buffer, another layout or other planes: nothing to smooth
     * with. */
    if (fresh || memcmp (&layout, &self->layout, sizeof (layout)) != 0)
      f.restart = TRUE;
    self->layout = layout;
    f.estimate = s.temporal.mode == GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE
        && s.temporal.noise_sigma == 0.0;
  } else {
    memset (&self->layout, 0, sizeof (self->layout));
  }
  /* The estimate starts afresh with the recursion, or after frames that
   * did not estimate. */
  f.clear_estimate = f.restart || !self->noise_estimated;
  /* The frame after a restart estimates too: its temporal estimate is the
   * first that texture cannot raise. */
  f.estimate_now = f.estimate && (f.clear_estimate || self->noise_count == 1
      || self->noise_age + 1 >= NOISE_INTERVAL);
  self->noise_age = f.estimate_now ? 0 : self->noise_age + 1;
  if (f.clear_estimate)
    self->noise_count = 0;
  f.first_temporal = f.estimate_now && self->noise_count == 1;
  if (f.estimate_now)
    self->noise_count++;
  /* The estimate that the first two frames of a recursion take is what
   * they filter with: they count before they filter. Later ones run
   * beside the filter, which reads the estimate as it stood. */
  if (f.clear_estimate)
    self->estimate_slot = 0;
  f.estimate_slot = self->estimate_slot;
  f.estimate_beside = f.estimate_now && !f.clear_estimate
      && !f.first_temporal;
  self->noise_estimated = f.estimate;
  f.keep_detail = s.temporal.keep_detail
      && s.temporal.mode == GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE;
  if (f.restart || !f.smooth || !f.keep_detail)
    self->detail_frames = 0;
  if (f.smooth && f.keep_detail) {
    if (!detail_schedule (self, &f, &blur, frame, error))
      return FALSE;
  } else {
    GST_OBJECT_LOCK (self);
    self->shown_planes = 0;
    GST_OBJECT_UNLOCK (self);
  }
  blur.shader_spec = f.sums;
  GST_LOG_OBJECT (self, "sigma %g, radius %d, smooth %d, restart %d, "
      "estimate %d (now %d)", s.sigma, blur.radius[0], f.smooth, f.restart,
      f.estimate, f.estimate_now);

  /* The planes run side by side, each with its part of the state. */
  rec.settings = &s;
  rec.frame = &f;
  rec.blur = &blur;
  rec.state_floats = 0;
  rec.report_planes = 0;
  if (!gst_vktile_filter_record_planes (filter, compute, frame, &recorder,
          &rec, error)) {
    /* whatever this frame was to sum, no later frame reads it */
    self->detail_frames = 0;
    return FALSE;
  }
  gst_vktile_filter_set_reported (filter, rec.report_planes);
  if (f.estimate_beside)
    self->estimate_slot = !f.estimate_slot;
  return TRUE;
}

/* ---- properties ---- */

/* The last frame's detail thresholds, D / sigma = 1 / t per plane; 0 where
 * none was put back (t = 0). */
static void
detail_threshold (GstDenoise * self, GValue * value)
{
  guint i;

  GST_OBJECT_LOCK (self);
  for (i = 0; i < GST_VIDEO_MAX_PLANES; i++) {
    GValue v = G_VALUE_INIT;

    if (!(self->shown_planes & (1u << i)))
      continue;
    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, self->shown_t[i] > 0.0 ? 1.0 / self->shown_t[i] :
        0.0);
    gst_value_array_append_and_take_value (value, &v);
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_denoise_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstDenoise *self = GST_DENOISE (object);
  Settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_SIGMA)
    s->sigma = g_value_get_double (value);
  else if (IS_TEMPORAL_PROP (prop_id))
    /* Switching smoothing on starts from the current frame. */
    self->restart |= gst_vktile_temporal_set (&s->temporal,
        prop_id - PROP_TEMPORAL, value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_denoise_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstDenoise *self = GST_DENOISE (object);
  Settings *s = &self->settings;

  if (IS_TEMPORAL_PROP (prop_id)) {
    gst_vktile_temporal_get (GST_VKTILE_FILTER (self), &s->temporal,
        prop_id - PROP_TEMPORAL, value);
  } else if (prop_id == PROP_DETAIL_THRESHOLD) {
    detail_threshold (self, value);
  } else if (prop_id == PROP_SIGMA) {
    GST_OBJECT_LOCK (self);
    g_value_set_double (value, s->sigma);
    GST_OBJECT_UNLOCK (self);
  } else {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

/* ---- type ---- */

static void
gst_denoise_class_init (GstDenoiseClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVkTileFilterClass *filter_class = GST_VKTILE_FILTER_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_denoise_debug, "denoise", 0,
      "live video denoising");

  gobject_class->set_property = gst_denoise_set_property;
  gobject_class->get_property = gst_denoise_get_property;

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation in pixels of the spatial stage, a sampled "
          "Gaussian of radius ceil(3 sigma) as gaussblur computes it "
          "(subsampled chroma planes use it in their own pixels)",
          0.1, 8.0, DEFAULT_SIGMA, flags | GST_PARAM_CONTROLLABLE));
  {
    GstVkTileTemporal defaults = { DEFAULT_TEMPORAL_ALPHA,
      DEFAULT_TEMPORAL_MODE, DEFAULT_NOISE_SIGMA, DEFAULT_KEEP_DETAIL
    };
    static const GstVkTileTemporalWords words = {
      "on every 4th frame, following changes within a second or two",
      "2.25 times the noise-sigma that the blur leaves (sigma=0.8: about "
          "0.8 noise-sigma), (d / T)^2 taken as its mean over a pixel's "
          "components, or over 2 or 4 neighbouring values in planes of one "
          "or two components",
      "from 2 noise-sigma to never, chosen for each plane every 4th "
          "frame by Stein's unbiased risk estimate on a frame 4 before; 3 "
          "noise-sigma on a recursion's first six frames"
    };
    gst_vktile_temporal_install_properties (gobject_class, PROP_TEMPORAL,
        &defaults, 0.99, &words);
  }
  g_object_class_install_property (gobject_class, PROP_DETAIL_THRESHOLD,
      gst_param_spec_array ("detail-threshold", "Detail threshold",
          "How far, in noise-sigmas, the detail the blur removed had to "
          "stand out of the noise to be put back on the last frame sent, "
          "per plane (as noise-estimate lists them); 0: none was put back. "
          "keep-detail chooses it every 4th frame by the risk the output "
          "had on a frame 4 before, 3 until the first choice; empty "
          "without keep-detail",
          g_param_spec_double ("threshold", "Threshold",
              "The threshold of one plane", 0.0, G_MAXDOUBLE, 0.0,
              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS),
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "Video denoiser (Vulkan)", "Filter/Effect/Video/Hardware",
      "Live video denoising on the GPU in one pass over each plane: a small "
      "Gaussian that keeps the detail standing out of the noise, smoothed "
      "across frames where the picture is still, with the noise level "
      "estimated from the input", "vktile developers");

  filter_class->record = gst_denoise_record;

}

static void
gst_denoise_init (GstDenoise * self)
{
  Settings *s = &self->settings;

  s->sigma = DEFAULT_SIGMA;
  s->temporal.alpha = DEFAULT_TEMPORAL_ALPHA;
  s->temporal.mode = DEFAULT_TEMPORAL_MODE;
  s->temporal.noise_sigma = DEFAULT_NOISE_SIGMA;
  s->temporal.keep_detail = DEFAULT_KEEP_DETAIL;
}
