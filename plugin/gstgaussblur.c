/* gstgaussblur.c: the gaussblur element — its properties, its push constants
 * and its choice of algorithm and shaders: fused ("Fusing Convolution Kernels
 * through Tiling", one dispatch per plane), two-pass ("Blurring at the Speed
 * of Light", through an intermediate buffer) or recursive (recursivefilter's
 * van Vliet Gaussian, vktiirplan.c), with the unsharp mask fused into the last
 * write. The passes are vktgausspass.c, the weights and tile math vktgauss.c;
 * devices, memory and timing are the base class's.
 *
 * SECTION:element-gaussblur
 * @title: gaussblur
 *
 * A sampled Gaussian blur on the GPU, the same along both axes or not
 * (sigma-y), optionally an unsharp mask (amount), at the cost of about one
 * copy of the frame for small sigmas: it picks the fastest exact algorithm
 * for the sigma (algorithm=auto). With roi-meta it blurs only the regions
 * a detector found (a privacy blur).
 *
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! \
 *     gaussblur sigma=3 ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect ! \
 *     gaussblur sigma=12 roi-meta=face roi-padding=16 ! videoconvert ! \
 *     autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstgaussblur.h"
#include "vktgausspass.h"
#include "vktiirplan.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_gaussblur_debug);
#define GST_CAT_DEFAULT gst_gaussblur_debug

typedef enum
{
  ALGORITHM_AUTO,
  ALGORITHM_FUSED,
  ALGORITHM_TWO_PASS,
  ALGORITHM_RECURSIVE,
} GaussblurAlgorithm;

/* Where `auto` switches, measured on an NVIDIA H100 at 1080p and 4K
 * (docs/BENCHMARKS.md): fused beats two-pass up to radius 24 (sigma 8),
 * except on planes of one pixel per word (RGBA) beyond radius 12; the
 * recursive Gaussian (since its scans' code fits the instruction caches
 * better) is within 10 % of two-pass from sigma 11 in every format and
 * size row (GRAY8, RGBA, NV12 at 1080p and 4K: two-pass takes 0.99x and
 * 0.94x as long at 1080p GRAY8 and NV12, 1.24-1.70x elsewhere; at sigma 10
 * 1080p NV12 took 0.89x), and the gap grows with sigma. */
#define AUTO_FUSED_MAX_RADIUS VKT_GAUSS_FUSED_FIXED_MAX_RADIUS
#define AUTO_FUSED_MAX_RADIUS_WIDE 12
#define AUTO_RECURSIVE_MIN_SIGMA 11.0

#define DEFAULT_SIGMA 2.0
#define DEFAULT_SIGMA_Y -1.0
#define DEFAULT_RADIUS 0
#define DEFAULT_AMOUNT 0.0
#define DEFAULT_ALGORITHM ALGORITHM_AUTO

typedef struct
{
  gdouble sigma, sigma_y;       /* sigma_y < 0: sigma */
  guint radius;                 /* 0: ceil (3 sigma) per axis */
  gdouble amount;
  GaussblurAlgorithm algorithm;
} Settings;

struct _GstGaussblur
{
  GstVkTileFilter parent;

  /* properties, under the object lock */
  Settings settings;

  /* streaming thread only */
  VktIirPlan *iir;              /* algorithm=recursive */
};

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_SIGMA_Y,
  PROP_RADIUS,
  PROP_AMOUNT,
  PROP_ALGORITHM,
};

G_DEFINE_TYPE (GstGaussblur, gst_gaussblur, GST_TYPE_VKTILE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (gaussblur, "gaussblur", GST_RANK_NONE,
    GST_TYPE_GAUSSBLUR);

#define GST_TYPE_GAUSSBLUR_ALGORITHM (gst_gaussblur_algorithm_get_type ())
static GType
gst_gaussblur_algorithm_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {ALGORITHM_AUTO, "Fastest measured on an NVIDIA H100: fused up to "
          "radius 24 (12 on RGBA-like planes), then two-pass; recursive from "
          "sigma 11 when radius is 0 and the border clamp or constant; with "
          "several regions of roi-meta in a frame, two-pass where one region "
          "would run fused (many small fused tiles cost more than two passes "
          "that all regions share)",
        "auto"},
    {ALGORITHM_FUSED, "One dispatch per plane: tiles blurred horizontally "
          "into shared memory, then vertically there (as in \"Fusing "
          "Convolution Kernels through Tiling\"); radii "
          "beyond what shared memory holds run two-pass", "fused"},
    {ALGORITHM_TWO_PASS, "Horizontal pass to an intermediate buffer, then "
          "vertical", "two-pass"},
    {ALGORITHM_RECURSIVE, "recursivefilter's 3rd-order recursive Gaussian: "
          "constant cost for any sigma, an approximation that ignores radius; "
          "clamp and constant borders and sigma >= 0.5 only, else two-pass",
        "recursive"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstGaussblurAlgorithm", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ---- properties ---- */

static void
gst_gaussblur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstGaussblur *self = GST_GAUSSBLUR (object);
  Settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      s->sigma = g_value_get_double (value);
      break;
    case PROP_SIGMA_Y:{
      gdouble v = g_value_get_double (value);
      /* Between -1 and the smallest sigma nothing is meaningful: refuse. */
      if (v >= 0.0 && v < 0.01) {
        GST_OBJECT_UNLOCK (self);
        gst_vktile_filter_refuse_property (GST_VKTILE_FILTER (self),
            "sigma-y", "%g is neither -1 (same as sigma) nor at least 0.01",
            v);
        return;
      }
      s->sigma_y = v < 0.0 ? -1.0 : v;
      break;
    }
    case PROP_RADIUS:
      s->radius = g_value_get_uint (value);
      break;
    case PROP_AMOUNT:
      s->amount = g_value_get_double (value);
      break;
    case PROP_ALGORITHM:
      s->algorithm = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_gaussblur_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstGaussblur *self = GST_GAUSSBLUR (object);
  Settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      g_value_set_double (value, s->sigma);
      break;
    case PROP_SIGMA_Y:
      g_value_set_double (value, s->sigma_y);
      break;
    case PROP_RADIUS:
      g_value_set_uint (value, s->radius);
      break;
    case PROP_AMOUNT:
      g_value_set_double (value, s->amount);
      break;
    case PROP_ALGORITHM:
      g_value_set_enum (value, s->algorithm);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---- the blur of one frame ---- */

/* Everything one frame's recording needs, derived once from the settings. */
typedef struct
{
  VktGaussBlur blur;
  GaussblurAlgorithm algorithm; /* resolved: fused, two-pass or recursive */
  gboolean auto_chosen;         /* by algorithm=auto */
  /* The frame has several regions (roi-meta): every algorithm's regions
   * run side by side, each pass of all of them between two barriers. */
  gboolean several_regions;
  VktCompute *compute;
  VktBufferRef refs[4];         /* in, out, weights, intermediate */
} Blur;

static gboolean
recursive_possible (const Blur * b, GstVkTileBorder border)
{
  return (border == GST_VKTILE_BORDER_CLAMP
      || border == GST_VKTILE_BORDER_CONSTANT)
      && b->blur.sigma[0] >= 0.5 && b->blur.sigma[1] >= 0.5;
}

static GaussblurAlgorithm
resolve_algorithm (const Blur * b, const Settings * s, GstVkTileBorder border)
{
  switch (s->algorithm) {
    case ALGORITHM_FUSED:
      return vkt_gauss_fused_possible (&b->blur) ? ALGORITHM_FUSED : ALGORITHM_TWO_PASS;
    case ALGORITHM_TWO_PASS:
      return ALGORITHM_TWO_PASS;
    case ALGORITHM_RECURSIVE:
      return recursive_possible (b, border) ? ALGORITHM_RECURSIVE :
          ALGORITHM_TWO_PASS;
    case ALGORITHM_AUTO:
    default:
      /* An explicit radius asks for that truncation: stay exact. */
      if (s->radius == 0 && recursive_possible (b, border)
          && MIN (b->blur.sigma[0], b->blur.sigma[1]) >=
          AUTO_RECURSIVE_MIN_SIGMA)
        return ALGORITHM_RECURSIVE;
      /* Small regions are a few fused tiles each, whose halos and
       * dispatches cost more than two passes over all regions at once
       * (docs/BENCHMARKS-HISTORY.md, 64 regions). */
      if (b->several_regions)
        return ALGORITHM_TWO_PASS;
      if (MAX (b->blur.radius[0], b->blur.radius[1]) <= AUTO_FUSED_MAX_RADIUS
          && vkt_gauss_fused_possible (&b->blur))
        return ALGORITHM_FUSED;
      return ALGORITHM_TWO_PASS;
  }
}

/* The frame's algorithm for one plane: auto's fused runs two-pass on
 * planes of one pixel per word beyond their own crossover. */
static GaussblurAlgorithm
plane_algorithm (const Blur * b, const VktPlane * p)
{
  if (b->algorithm == ALGORITHM_FUSED && b->auto_chosen
      && p->cpw == p->ncomp
      && MAX (b->blur.radius[0], b->blur.radius[1]) >
      AUTO_FUSED_MAX_RADIUS_WIDE)
    return ALGORITHM_TWO_PASS;
  return b->algorithm;
}

/* recursivefilter's Gaussian along each axis with its own sigma; the plan
 * keeps its tail tables while the sigmas stay. */
static void
set_recursive_spec (GstGaussblur * self, const Blur * b)
{
  VktIirSpec spec = { 0 };
  guint axis;

  for (axis = 0; axis < 2; axis++) {
    vkt_iir_stage_gaussian (&spec.causal[axis], b->blur.sigma[axis]);
    spec.anticausal[axis] = spec.causal[axis];
    spec.axis[axis] = TRUE;
  }
  spec.unsharp_amount = b->blur.amount;
  vkt_iir_plan_set_spec (self->iir, &spec);
}

static gboolean
record_recursive (GstGaussblur * self, Blur * b, const VktPlane * p,
    const VktFrame * frame, GError ** error)
{
  /* Binding 2 is the plan's own; 4 (temporal state) is unused. */
  VktBufferRef refs[5] = { b->refs[0], b->refs[1], b->refs[1], b->refs[3],
    b->refs[1]
  };

  return vkt_iir_plan_record_plane (self->iir, b->compute, refs, p,
      frame->border, frame->border_value, NULL, error);
}

static gsize
plane_scratch_bytes (GstVkTileFilter * filter, const VktPlane * p,
    gpointer data)
{
  const Blur *b = data;

  if (plane_algorithm (b, p) == ALGORITHM_TWO_PASS)
    return vkt_gauss_two_pass_floats (p) * sizeof (gfloat);
  if (b->algorithm == ALGORITHM_RECURSIVE)
    return vkt_iir_plan_scratch_floats (GST_GAUSSBLUR (filter)->iir, p) *
        sizeof (gfloat);
  return 0;
}

static gboolean
record_plane (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, guint i, const VktBufferRef * scratch, gpointer data,
    GError ** error)
{
  Blur *b = data;
  const VktPlane *p = &frame->planes[i];

  b->refs[3] = scratch->buffer ? *scratch : frame->out;
  switch (plane_algorithm (b, p)) {
    case ALGORITHM_FUSED:
      return vkt_gauss_record_fused (&b->blur, compute, NULL, b->refs, p,
          frame, error);
    case ALGORITHM_RECURSIVE:
      return record_recursive (GST_GAUSSBLUR (filter), b, p, frame, error);
    case ALGORITHM_TWO_PASS:
    default:
      return vkt_gauss_record_two_pass (&b->blur, compute, b->refs, p,
          frame, error);
  }
}

static gboolean
gst_gaussblur_record (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, GError ** error)
{
  static const GstVkTilePlaneRecorder recorder = {
    plane_scratch_bytes, record_plane
  };
  GstGaussblur *self = GST_GAUSSBLUR (filter);
  Blur b = { {{0}} };
  Settings s;

  GST_OBJECT_LOCK (self);
  s = self->settings;
  GST_OBJECT_UNLOCK (self);

  vkt_gauss_blur_init (&b.blur, compute, s.sigma,
      s.sigma_y > 0.0 ? s.sigma_y : s.sigma, s.radius, (gfloat) s.amount);
  b.compute = compute;
  b.several_regions = frame->n_regions > 1;
  b.algorithm = resolve_algorithm (&b, &s, frame->border);
  b.auto_chosen = s.algorithm == ALGORITHM_AUTO;
  GST_LOG_OBJECT (self, "sigma %g x %g, radius %d x %d, algorithm %d",
      b.blur.sigma[0], b.blur.sigma[1], b.blur.radius[0], b.blur.radius[1],
      b.algorithm);

  b.refs[0] = frame->in;
  b.refs[1] = frame->out;
  b.refs[2] = b.blur.weights;
  b.refs[3] = frame->out;

  if (b.algorithm == ALGORITHM_RECURSIVE)
    set_recursive_spec (self, &b);
  return gst_vktile_filter_record_planes (filter, compute, frame, &recorder,
      &b, error);
}

/* ---- type ---- */

static void
gst_gaussblur_finalize (GObject * object)
{
  GstGaussblur *self = GST_GAUSSBLUR (object);

  vkt_iir_plan_free (self->iir);
  G_OBJECT_CLASS (gst_gaussblur_parent_class)->finalize (object);
}

static void
gst_gaussblur_class_init (GstGaussblurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVkTileFilterClass *filter_class = GST_VKTILE_FILTER_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_gaussblur_debug, "gaussblur", 0,
      "Gaussian blur");

  gobject_class->set_property = gst_gaussblur_set_property;
  gobject_class->get_property = gst_gaussblur_get_property;
  gobject_class->finalize = gst_gaussblur_finalize;

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in pixels, along x (and y "
          "unless sigma-y is set); subsampled chroma planes use the same "
          "kernel in their own pixels", 0.01, 256.0, DEFAULT_SIGMA,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_SIGMA_Y,
      g_param_spec_double ("sigma-y", "Sigma y",
          "Standard deviation along y in pixels, at least 0.01; -1: the "
          "same as sigma",
          -1.0, 256.0, DEFAULT_SIGMA_Y, flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Taps on each side of the centre along both axes; 0: ceil(3 sigma) "
          "per axis. The weights exp(-j^2 / 2 sigma^2), j = -radius..radius, "
          "normalised to sum 1, are scipy.ndimage.gaussian_filter's with "
          "truncate = radius / sigma", 0, VKT_GAUSS_MAX_RADIUS, DEFAULT_RADIUS,
          flags));
  g_object_class_install_property (gobject_class, PROP_AMOUNT,
      g_param_spec_double ("amount", "Amount",
          "Unsharp mask in the same dispatch: out = in + amount * (in - blur); "
          "0 outputs the blur", -1.0, 100.0, DEFAULT_AMOUNT,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ALGORITHM,
      g_param_spec_enum ("algorithm", "Algorithm",
          "How the blur runs on the GPU; fused and two-pass give the same "
          "output, recursive approximates it", GST_TYPE_GAUSSBLUR_ALGORITHM,
          DEFAULT_ALGORITHM, flags));

  gst_element_class_set_static_metadata (element_class,
      "Gaussian blur (Vulkan)", "Filter/Effect/Video/Hardware",
      "Gaussian blur of any sigma on the GPU, fused into one dispatch per "
      "plane, with an optional unsharp mask", "vktile developers");

  filter_class->record = gst_gaussblur_record;

  gst_type_mark_as_plugin_api (GST_TYPE_GAUSSBLUR_ALGORITHM, 0);
}

static void
gst_gaussblur_init (GstGaussblur * self)
{
  self->settings.sigma = DEFAULT_SIGMA;
  self->settings.sigma_y = DEFAULT_SIGMA_Y;
  self->settings.radius = DEFAULT_RADIUS;
  self->settings.amount = DEFAULT_AMOUNT;
  self->settings.algorithm = DEFAULT_ALGORITHM;
  self->iir = vkt_iir_plan_new ();
}
