/* gstrecursivefilter.c: the recursivefilter element — its properties, the
 * filter they describe as a VktIirSpec (the same stages along both axes),
 * and the temporal state across frames. The plan of scans is vktiirplan.c,
 * the coefficient and tail-matrix math vktiir.c; devices, memory and timing
 * the base class's.
 *
 * SECTION:element-recursivefilter
 * @title: recursivefilter
 *
 * IIR filters on the GPU with tiled scans ("Compiling High Performance
 * Recursive Filters"): a recursive Gaussian whose cost does not grow with
 * sigma, an exponential smoother, a box of any radius, custom
 * coefficients, along rows, columns or both, exact on the infinitely
 * extended frame (clamp or constant border); and smoothing across frames,
 * fixed or motion-adaptive.
 *
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! \
 *     recursivefilter sigma=40 ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! \
 *     recursivefilter filter=box radius=8 iterations=3 ! videoconvert ! \
 *     autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrecursivefilter.h"
#include "vktiirplan.h"
#include "gstvktiletemporal.h"

#include <math.h>
#include <string.h>

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

#define DEFAULT_SIGMA 2.0
#define DEFAULT_ALPHA -1.0
#define DEFAULT_RADIUS 2
#define DEFAULT_ITERATIONS 1
#define DEFAULT_FEEDFORWARD 0.5
#define DEFAULT_FEEDBACK 0.5
#define DEFAULT_NOISE_SIGMA 0.0
#define DEFAULT_KEEP_DETAIL TRUE

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
  GstVkTileTemporal temporal;
} Settings;

struct _GstRecursivefilter
{
  GstVkTileFilter parent;

  /* properties, under the object lock */
  Settings settings;
  guint serial;                 /* bumped by every change of settings */
  /* the recursion restarts: temporal smoothing switched on, roi-meta */
  gboolean reset_temporal;

  /* streaming thread only: the filter of settings `filter_serial` */
  guint filter_serial;
  VktIirPlan *plan;
  gsize state_size;             /* floats of temporal state the last frame used */
  gboolean noise_estimated;     /* the last frame estimated noise-sigma */
  /* per plane, the lane slots whose motion reference the last frame that
   * filtered them kept (with detail kept; elsewhere it is y) */
  guint motion_ref_lanes[GST_VIDEO_MAX_PLANES];
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
  PROP_BORDER,                  /* the base class's, with two modes */
  PROP_TEMPORAL,                /* GST_VKTILE_TEMPORAL_N_PROPS of them */
};

#define IS_TEMPORAL_PROP(id) ((id) >= PROP_TEMPORAL \
    && (id) < PROP_TEMPORAL + GST_VKTILE_TEMPORAL_N_PROPS)

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
/* The border modes the exact infinite extension has (docs/SEMANTICS.md),
 * with the values of GstVkTileBorder. */
DEFINE_ENUM (border_get_type, "GstRecursivefilterBorder",
    {GST_VKTILE_BORDER_CLAMP, "Repeat the edge pixel (OpenCV "
          "BORDER_REPLICATE)", "clamp"},
    {GST_VKTILE_BORDER_CONSTANT, "The constant border-value "
          "(BORDER_CONSTANT)", "constant"});
DEFINE_ENUM (algorithm_get_type, "GstRecursivefilterAlgorithm",
    {ALGORITHM_TILED, "Tiled scans (\"Compiling High Performance Recursive "
          "Filters\"): intra-tile scans that save tails, tails completed "
          "across tiles, a final scan; needs subgroup shuffles", "tiled"},
    {ALGORITHM_SCANLINE, "Scanline baseline: one invocation per row or "
          "column", "scanline"});

/* ---- the filter as a plan ---- */

/* The stages of one pass along an axis (the box's are the plan's). */
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
    case FILTER_BOX:
      return;
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

/* The plan of the settings numbered `serial`: stages computed once per
 * change of settings, not once per frame. */
static void
update_plan (GstRecursivefilter * self, const Settings * s, guint serial)
{
  VktIirSpec spec = { 0 };

  if (self->filter_serial == serial)
    return;
  settings_stages (s, &spec.causal[0], &spec.anticausal[0]);
  spec.causal[1] = spec.causal[0];
  spec.anticausal[1] = spec.anticausal[0];
  spec.axis[0] = s->axes == AXES_X || s->axes == AXES_XY;
  spec.axis[1] = s->axes == AXES_Y || s->axes == AXES_XY;
  spec.box = s->filter == FILTER_BOX;
  spec.box_radius = s->radius;
  spec.iterations = s->iterations;
  spec.scanline = s->algorithm == ALGORITHM_SCANLINE;
  spec.tile_size = s->tile_size;
  vkt_iir_plan_set_spec (self->plan, &spec);
  self->filter_serial = serial;
}

/* ---- recording a frame ---- */

/* A plane's y, and again its motion reference: a float per component of
 * its ROI. */
static gsize
plane_state_floats (const VktPlane * p)
{
  return (gsize) p->roi.w * p->roi.h * p->ncomp;
}

/* What every plane of a frame records with. */
typedef struct
{
  GstRecursivefilter *self;
  const Settings *settings;
  VktBufferRef *refs;
  VktIirTemporal *temporal;     /* NULL: no smoothing across frames */
  gdouble noise_gain;
} PlaneRecording;

static gsize
plane_scratch_bytes (GstVkTileFilter * filter, const VktPlane * p,
    gpointer data)
{
  return MAX (1, vkt_iir_plan_scratch_floats (GST_RECURSIVEFILTER
          (filter)->plan, p)) * sizeof (gfloat);
}

static gboolean
record_plane (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, guint i, const VktBufferRef * scratch, gpointer data,
    GError ** error)
{
  PlaneRecording *rec = data;
  GstRecursivefilter *self = rec->self;
  const Settings *s = rec->settings;
  const VktPlane *p = &frame->planes[i];
  VktIirTemporal *temporal = rec->temporal;
  gdouble noise_unit;
  gboolean ok;

  rec->refs[3] = *scratch;
  if (!temporal) {
    self->motion_ref_lanes[i] &= ~p->chan_mask;
    return vkt_iir_plan_record_plane (self->plan, compute, rec->refs, p,
        frame->border, frame->border_value, NULL, error);
  }
  /* The estimate is in 8-bit code values too: T per unit of it. */
  noise_unit = (temporal->estimate_noise ? 1.0 : s->temporal.noise_sigma) *
      p->max_code / 255.0;
  temporal->motion_scale =
      s->temporal.mode == GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE ?
      (gfloat) (VKT_MOTION_SIGMAS * rec->noise_gain * noise_unit) : 0.0f;
  /* Without a spatial axis there is nothing to put back. */
  temporal->detail_threshold =
      s->temporal.mode == GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE
      && s->temporal.keep_detail && s->axes != AXES_NONE ?
      (gfloat) (VKT_DETAIL_SIGMAS * noise_unit) : 0.0f;
  temporal->state_base += VKT_IIR_NOISE_FLOATS;
  temporal->noise_report_index = i;
  temporal->motion_ref_lanes = self->motion_ref_lanes[i];
  ok = vkt_iir_plan_record_plane (self->plan, compute, rec->refs, p,
      frame->border, frame->border_value, temporal, error);
  if (temporal->detail_threshold != 0.0f)
    self->motion_ref_lanes[i] |= p->chan_mask;
  else
    self->motion_ref_lanes[i] &= ~p->chan_mask;
  temporal->state_base += 2 * plane_state_floats (p);
  return ok;
}

static gboolean
gst_recursivefilter_record (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, GError ** error)
{
  static const GstVkTilePlaneRecorder recorder = {
    plane_scratch_bytes, record_plane
  };
  GstRecursivefilter *self = GST_RECURSIVEFILTER (filter);
  Settings s;
  guint serial, i;
  gboolean reset;
  gsize state_floats = 0;
  VktBufferRef refs[5] = { frame->in, frame->out };
  VktIirTemporal temporal = { 0 };
  PlaneRecording rec;
  gboolean smooth;
  guint report_planes = 0;

  GST_OBJECT_LOCK (self);
  s = self->settings;
  serial = self->serial;
  reset = self->reset_temporal | gst_vktile_filter_take_restart (filter);
  /* The regions of roi-meta move from frame to frame: nothing is smoothed
   * across frames there, and the recursion starts afresh after them. */
  self->reset_temporal = frame->n_regions > 0;
  GST_OBJECT_UNLOCK (self);

  update_plan (self, &s, serial);
  smooth = s.temporal.alpha > 0.0 && frame->n_regions == 0;
  temporal.alpha = s.temporal.alpha;

  if (smooth) {
    gboolean fresh;
    /* Per plane: its noise estimate, then its y, then its motion
     * reference. */
    for (i = 0; i < frame->n_planes; i++)
      if (frame->planes[i].active)
        state_floats += VKT_IIR_NOISE_FLOATS + 2 * plane_state_floats
            (&frame->planes[i]);
    if (!gst_vktile_filter_temporal_state (filter,
            MAX (state_floats, 1) * sizeof (gfloat), &refs[4], &fresh, error))
      return FALSE;
    /* A new buffer or another layout: nothing to smooth with. */
    if (fresh || state_floats != self->state_size)
      reset = TRUE;
    self->state_size = state_floats;
    if (reset)
      memset (self->motion_ref_lanes, 0, sizeof (self->motion_ref_lanes));
  } else {
    /* Unused, but bound: any storage buffer will do. */
    refs[4] = frame->out;
    self->state_size = 0;
  }
  temporal.reset = reset;
  temporal.estimate_noise = smooth &&
      s.temporal.mode == GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE && s.temporal.noise_sigma == 0.0;
  /* The estimate's words hold what a new buffer held, or an estimate from
   * before a pause of the automatic mode: start it afresh. */
  temporal.clear_noise = reset || !self->noise_estimated;
  self->noise_estimated = temporal.estimate_noise;
  if (temporal.estimate_noise) {
    if (!gst_vktile_filter_report (filter,
            GST_VIDEO_MAX_PLANES * sizeof (gfloat), &temporal.noise_report,
            error))
      return FALSE;
    for (i = 0; i < frame->n_planes; i++)
      if (frame->planes[i].active)
        report_planes |= 1u << i;
  }
  gst_vktile_filter_set_reported (filter, report_planes);

  /* The planes run side by side, each with its own scratch buffer (and
   * its own part of the temporal state). */
  rec.self = self;
  rec.settings = &s;
  rec.refs = refs;
  rec.temporal = smooth ? &temporal : NULL;
  rec.noise_gain = vkt_iir_plan_noise_gain (self->plan);
  return gst_vktile_filter_record_planes (filter, compute, frame, &recorder,
      &rec, error);
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

  if (prop_id == PROP_BORDER) {
    gst_vktile_filter_set_border (GST_VKTILE_FILTER (self),
        g_value_get_enum (value));
    return;
  }
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
        gst_vktile_filter_refuse_property (GST_VKTILE_FILTER (self),
            "feedback", "it needs 1 to 4 finite numbers of a stable "
            "recursion (every pole inside the unit circle)");
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
    default:
      /* Switching smoothing on starts from the current frame. */
      if (IS_TEMPORAL_PROP (prop_id))
        self->reset_temporal |= gst_vktile_temporal_set (&s->temporal,
            prop_id - PROP_TEMPORAL, value);
      else
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

  if (IS_TEMPORAL_PROP (prop_id)) {
    gst_vktile_temporal_get (GST_VKTILE_FILTER (self), &s->temporal,
        prop_id - PROP_TEMPORAL, value);
    return;
  }
  if (prop_id == PROP_BORDER) {
    g_value_set_enum (value,
        gst_vktile_filter_get_border (GST_VKTILE_FILTER (self)));
    return;
  }
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

  vkt_iir_plan_free (self->plan);
  G_OBJECT_CLASS (gst_recursivefilter_parent_class)->finalize (object);
}

static void
gst_recursivefilter_class_init (GstRecursivefilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
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
  /* In place of the base class's: only the modes the exact infinite
   * extension has, so that a pipeline asking for another fails to parse
   * instead of running with clamp. */
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "How the source is continued beyond the edges of the source ROI "
          "(the filter is exact on that infinite extension)",
          border_get_type (), GST_VKTILE_BORDER_CLAMP, flags));
  {
    GstVkTileTemporal defaults = { 0.0, GST_VKTILE_TEMPORAL_FIXED,
      DEFAULT_NOISE_SIGMA, DEFAULT_KEEP_DETAIL
    };
    static const GstVkTileTemporalWords words = {
      "on every frame, following changes within a few frames",
      "3 times the noise-sigma that the spatial filter leaves (sigma=0.8: "
          "about 1 noise-sigma)",
      "3 noise-sigma"
    };
    gst_vktile_temporal_install_properties (gobject_class, PROP_TEMPORAL,
        &defaults, 0.999, &words);
  }

  gst_element_class_set_static_metadata (element_class,
      "Recursive filter (Vulkan)", "Filter/Effect/Video/Hardware",
      "IIR filters on the GPU with tiled scans: recursive Gaussian of any "
      "sigma at constant cost, exponential, box, custom coefficients, and "
      "temporal smoothing. Borders: clamp and constant",
      "vktile developers");

  filter_class->record = gst_recursivefilter_record;

  gst_type_mark_as_plugin_api (filter_kind_get_type (), 0);
  gst_type_mark_as_plugin_api (direction_get_type (), 0);
  gst_type_mark_as_plugin_api (axes_get_type (), 0);
  gst_type_mark_as_plugin_api (algorithm_get_type (), 0);
  gst_type_mark_as_plugin_api (border_get_type (), 0);
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
  s->temporal.alpha = 0.0;
  s->temporal.mode = GST_VKTILE_TEMPORAL_FIXED;
  s->temporal.noise_sigma = DEFAULT_NOISE_SIGMA;
  s->temporal.keep_detail = DEFAULT_KEEP_DETAIL;
  self->serial = 1;
  self->filter_serial = 0;
  self->plan = vkt_iir_plan_new ();
}
