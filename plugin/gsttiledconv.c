/* gsttiledconv.c: the tiledconv element — its properties, its push
 * constants and its choice of shaders per algorithm. Devices, memory and
 * timing are the base class's (gstvktilefilter.c); the kernel math is
 * vktkernel.c, the tile classes vkttiles.c.
 *
 * SECTION:element-tiledconv
 * @title: tiledconv
 *
 * Small 2D convolutions on the GPU: 3x3, 5x5 and 7x7 kernels, given whole
 * (kernel), as a separable pair (kernel-x, kernel-y) or as a preset, with
 * the tiled algorithm of "Tiled Convolution: Fast Image Filtering" and its
 * border classes. Every plane of every supported format, in system memory
 * or Vulkan buffers; regions of interest by properties or roi-meta.
 *
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! \
 *     tiledconv preset=sharpen ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8 ! \
 *     tiledconv preset=sobel-x absolute=true ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttiledconv.h"
#include "vktkernel.h"
#include "tiledconv_interface.h"

#include <string.h>

#include "tiledconv_tiled.spv.h"
#include "tiledconv_naive.spv.h"
#include "tiledconv_shared.spv.h"
#include "tiledconv_hpass.spv.h"
#include "tiledconv_vpass.spv.h"

GST_DEBUG_CATEGORY_STATIC (gst_tiledconv_debug);
#define GST_CAT_DEFAULT gst_tiledconv_debug

typedef enum
{
  ALGORITHM_TILED,
  ALGORITHM_NAIVE,
  ALGORITHM_TWO_PASS,
  ALGORITHM_SHARED,
} TiledconvAlgorithm;

/* The push constants of every tiledconv_*.comp (tiledconv_interface.h). */
typedef struct
{
TILEDCONV_PUSH_FIELDS} TiledconvPush;

_Static_assert (sizeof (TiledconvPush) <= VKT_MAX_PUSH_BYTES,
    "push constants");

#define SHADER(stem, n) { #stem, stem##_spv, sizeof (stem##_spv), n, \
    { VKT_BIND_STORAGE, VKT_BIND_STORAGE, VKT_BIND_UNIFORM, VKT_BIND_STORAGE }, \
    sizeof (TiledconvPush) }

static const VktShader shader_tiled = SHADER (tiledconv_tiled, 3);
static const VktShader shader_naive = SHADER (tiledconv_naive, 3);
static const VktShader shader_shared = SHADER (tiledconv_shared, 3);
static const VktShader shader_hpass = SHADER (tiledconv_hpass, 4);
static const VktShader shader_vpass = SHADER (tiledconv_vpass, 4);

_Static_assert (TILEDCONV_SPEC_COUNT <= VKT_MAX_SPEC,
    "specialization constants");

/* The most source lanes a block row of tiledconv_tiled reads (its src[]):
 * the block's lanes and R pixels of 4 components on either side, the first
 * at the last lane of a word. */
#define TILED_SRC_LANES(cpw) (((cpw) - 1 + 2 * TILEDCONV_MAX_RADIUS * 4 + \
        TILEDCONV_BLOCK_LANES + (cpw) - 1) / (cpw) * (cpw))
_Static_assert (TILED_SRC_LANES (4) <= TILEDCONV_MAX_SRC_LANES
    && TILED_SRC_LANES (2) <= TILEDCONV_MAX_SRC_LANES, "tiled source lanes");

struct _GstTiledconv
{
  GstVkTileFilter parent;

  /* properties, under the object lock */
  VktPreset preset;
  VktKernel kernel;
  /* Which of kernel-x (bit 0) and kernel-y (bit 1) were set since kernel
   * or preset last were: the other factor's length must match theirs. */
  guint factors_set;
  gdouble scale;
  gdouble bias;
  gboolean absolute;
  TiledconvAlgorithm algorithm;
};

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_KERNEL_X,
  PROP_KERNEL_Y,
  PROP_PRESET,
  PROP_SCALE,
  PROP_BIAS,
  PROP_ABSOLUTE,
  PROP_ALGORITHM,
};

G_DEFINE_TYPE (GstTiledconv, gst_tiledconv, GST_TYPE_VKTILE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (tiledconv, "tiledconv", GST_RANK_NONE,
    GST_TYPE_TILEDCONV);

#define GST_TYPE_TILEDCONV_PRESET (gst_tiledconv_preset_get_type ())
static GType
gst_tiledconv_preset_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {VKT_PRESET_NONE, "The kernel, or kernel-x and kernel-y", "none"},
    {VKT_PRESET_BOX3, "3x3 box average", "box3"},
    {VKT_PRESET_BOX5, "5x5 box average", "box5"},
    {VKT_PRESET_GAUSSIAN3, "3x3 Gaussian, [1 2 1]/4 separable", "gaussian3"},
    {VKT_PRESET_GAUSSIAN5, "5x5 Gaussian, [1 4 6 4 1]/16 separable",
        "gaussian5"},
    {VKT_PRESET_SHARPEN, "3x3 sharpen [0 -1 0; -1 5 -1; 0 -1 0]", "sharpen"},
    {VKT_PRESET_LAPLACIAN, "3x3 Laplacian [0 1 0; 1 -4 1; 0 1 0]",
        "laplacian"},
    {VKT_PRESET_SOBEL_X, "Sobel, horizontal gradient", "sobel-x"},
    {VKT_PRESET_SOBEL_Y, "Sobel, vertical gradient", "sobel-y"},
    {VKT_PRESET_EMBOSS, "3x3 emboss [-2 -1 0; -1 1 1; 0 1 2]", "emboss"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstTiledconvPreset", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_TILEDCONV_ALGORITHM (gst_tiledconv_algorithm_get_type ())
static GType
gst_tiledconv_algorithm_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {ALGORITHM_TILED, "Tiled: 32x32 tiles, 4x4 outputs per invocation, "
          "border-class dispatch", "tiled"},
    {ALGORITHM_NAIVE, "Naive baseline: every tap read from memory", "naive"},
    {ALGORITHM_TWO_PASS, "Two-pass baseline: horizontal pass to an "
          "intermediate buffer, then vertical (separable kernels; others run "
          "naive)", "two-pass"},
    {ALGORITHM_SHARED, "Shared-memory baseline: 16x16 work-groups stage "
          "their tile with halo", "shared"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstTiledconvAlgorithm", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ---- kernel properties ---- */

/* Reads a GstValueArray of numbers; FALSE if it holds anything else. */
static gboolean
read_numbers (const GValue * value, gdouble * out, guint max, guint * n)
{
  guint i, len = gst_value_array_get_size (value);

  if (len > max)
    return FALSE;
  for (i = 0; i < len; i++) {
    const GValue *v = gst_value_array_get_value (value, i);
    GValue d = G_VALUE_INIT;
    g_value_init (&d, G_TYPE_DOUBLE);
    if (!g_value_transform (v, &d))
      return FALSE;
    out[i] = g_value_get_double (&d);
  }
  *n = len;
  return TRUE;
}

static void
write_numbers (GValue * value, const gdouble * values, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, values[i]);
    gst_value_array_append_and_take_value (value, &v);
  }
}

/* Sets kernel, kernel-x or kernel-y; NULL, or why the value is refused. */
static gchar *
set_kernel_property (GstTiledconv * self, guint prop_id, const GValue * value)
{
  gdouble values[VKT_KERNEL_MAX_SIZE * VKT_KERNEL_MAX_SIZE];
  guint bit = prop_id == PROP_KERNEL_X ? 1 : prop_id == PROP_KERNEL_Y ? 2 : 0;
  VktKernel kernel;
  guint n = 0;

  if (!read_numbers (value, values, G_N_ELEMENTS (values), &n)
      || (prop_id == PROP_KERNEL && !vkt_kernel_from_2d (&kernel, values, n)))
    goto invalid;
  if (prop_id != PROP_KERNEL) {
    /* The other factor: as it was set, of the same length, or the
     * identity tap where it was not set. */
    gboolean keep = (self->factors_set & (3 ^ bit)) != 0;
    const gdouble *kx = bit == 1 ? values : keep ? self->kernel.kx : NULL;
    const gdouble *ky = bit == 2 ? values : keep ? self->kernel.ky : NULL;
    if (keep && self->kernel.size != n && (n == 3 || n == 5 || n == 7))
      return g_strdup_printf ("it has %u taps and %s %u: give both the same "
          "length (setting kernel or a preset first starts over)", n,
          bit == 1 ? "kernel-y" : "kernel-x", self->kernel.size);
    if (!vkt_kernel_from_separable (&kernel, kx, kx ? n : 0, ky, ky ? n : 0))
      goto invalid;
  }
  self->kernel = kernel;
  self->preset = VKT_PRESET_NONE;
  self->factors_set = bit ? self->factors_set | bit : 0;
  return NULL;

invalid:
  return g_strdup_printf ("it needs %s numbers within float range (about "
      "3.4e38)%s", prop_id == PROP_KERNEL ? "9, 25 or 49" : "3, 5 or 7",
      prop_id == PROP_KERNEL ? "" : ", and their products with the other "
      "factor's");
}

static void
gst_tiledconv_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstTiledconv *self = GST_TILEDCONV (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
    case PROP_KERNEL_X:
    case PROP_KERNEL_Y:
    {
      gchar *why = set_kernel_property (self, prop_id, value);
      if (why) {
        GST_OBJECT_UNLOCK (self);
        gst_vktile_filter_refuse_property (GST_VKTILE_FILTER (self),
            pspec->name, "%s", why);
        g_free (why);
        return;
      }
      break;
    }
    case PROP_PRESET:
      self->preset = g_value_get_enum (value);
      self->factors_set = 0;
      if (self->preset != VKT_PRESET_NONE)
        vkt_kernel_from_preset (&self->kernel, self->preset);
      break;
    case PROP_SCALE:
      self->scale = g_value_get_double (value);
      break;
    case PROP_BIAS:
      self->bias = g_value_get_double (value);
      break;
    case PROP_ABSOLUTE:
      self->absolute = g_value_get_boolean (value);
      break;
    case PROP_ALGORITHM:
      self->algorithm = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_tiledconv_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstTiledconv *self = GST_TILEDCONV (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
      write_numbers (value, self->kernel.k,
          self->kernel.size * self->kernel.size);
      break;
    case PROP_KERNEL_X:
      if (self->kernel.separable)
        write_numbers (value, self->kernel.kx, self->kernel.size);
      break;
    case PROP_KERNEL_Y:
      if (self->kernel.separable)
        write_numbers (value, self->kernel.ky, self->kernel.size);
      break;
    case PROP_PRESET:
      g_value_set_enum (value, self->preset);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->scale);
      break;
    case PROP_BIAS:
      g_value_set_double (value, self->bias);
      break;
    case PROP_ABSOLUTE:
      g_value_set_boolean (value, self->absolute);
      break;
    case PROP_ALGORITHM:
      g_value_set_enum (value, self->algorithm);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---- recording ---- */

static void
fill_push (TiledconvPush * push, const VktPlane * p, const VktFrame * frame,
    gdouble scale, gdouble bias, gboolean absolute)
{
  memset (push, 0, sizeof (*push));
  GST_VKTILE_PUSH_PLANE (push, p);
  push->border = frame->border;
  push->border_value = frame->border_value * p->max_code;
  push->scale = scale;
  push->bias = bias * p->max_code;
  push->absolute = absolute;
}

static void
fill_spec (gint32 * spec, const VktPlane * p, gint radius, gboolean separable)
{
  gst_vktile_plane_spec (p, spec);
  spec[TILEDCONV_SPEC_R] = radius;
  spec[TILEDCONV_SPEC_SEPARABLE] = separable;
  spec[TILEDCONV_SPEC_FULL_MASK] = p->chan_mask == (1u << p->ncomp) - 1;
}

static gint
floor_div (gint a, gint b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static gboolean
record_tiled (VktCompute * compute, const VktPlane * p, TiledconvPush * push,
    gint32 * spec, VktBufferRef * refs, VktFrame * frame, GError ** error)
{
  gint r = spec[TILEDCONV_SPEC_R];
  gint delta = (p->roi.sx - p->roi.tx) * p->ncomp;
  gint shift = delta - floor_div (delta, p->cpw) * p->cpw;
  gint block_words = TILEDCONV_BLOCK_LANES / p->cpw;
  gint first_word, lane0;
  VktTileGrid grid;
  VktPipeline *pipe;
  guint n_border, i;

  vkt_tile_grid (&grid, &p->roi, p->ncomp, p->cpw, r, r,
      TILEDCONV_GROUP_X * block_words, TILEDCONV_TILE_ROWS);
  push->word_x0 = grid.word_x0;
  push->src_word_delta = floor_div (delta - shift, p->cpw);
  push->tiles_x = grid.tiles_x;
  push->tiles_y = grid.tiles_y;
  push->free_x0 = grid.free_x0;
  push->free_x1 = grid.free_x1;
  push->free_y0 = grid.free_y0;
  push->free_y1 = grid.free_y1;
  push->grid_words = grid.words;

  first_word = floor_div (shift - r * p->ncomp, p->cpw);
  lane0 = shift - r * p->ncomp - first_word * p->cpw;
  spec[TILEDCONV_SPEC_FIRST_WORD] = first_word;
  spec[TILEDCONV_SPEC_LANE0] = lane0;
  spec[TILEDCONV_SPEC_NWORDS] = (lane0 + 2 * r * p->ncomp +
      TILEDCONV_BLOCK_LANES + p->cpw - 1) / p->cpw;
  spec[TILEDCONV_SPEC_BW] = block_words;

  /* The ring of border tiles first, then the free tiles (see the shader):
   * nothing orders the two dispatches, so the slower ring tiles start first
   * and the free tiles fill the GPU around them instead of leaving a tail. */
  n_border = vkt_tile_grid_border_count (&grid);
  if (n_border) {
    guint gx = MIN (n_border, vkt_compute_max_groups (compute));
    spec[TILEDCONV_SPEC_CHECKED] = 1;
    if (!(pipe = vkt_compute_pipeline (compute, &shader_tiled, spec,
                TILEDCONV_SPEC_COUNT, error)))
      return FALSE;
    vkt_compute_dispatch (compute, pipe, refs, push, gx,
        (n_border + gx - 1) / gx);
  }
  if (vkt_tile_grid_free_count (&grid)) {
    spec[TILEDCONV_SPEC_CHECKED] = 0;
    if (!(pipe = vkt_compute_pipeline (compute, &shader_tiled, spec,
                TILEDCONV_SPEC_COUNT, error)))
      return FALSE;
    vkt_compute_dispatch (compute, pipe, refs, push,
        grid.free_x1 - grid.free_x0, grid.free_y1 - grid.free_y0);
  }
  for (i = 0; i < G_N_ELEMENTS (frame->tile_classes); i++)
    frame->tile_classes[i] += grid.classes[i];
  return TRUE;
}

/* The tiled algorithm stages each source tile through shared memory once,
 * in rows; the baselines read words several times from memory (measured
 * in docs/BENCHMARKS.md: only tiled gained from reading the bus). */
static gboolean
gst_tiledconv_reads_input_in_runs (GstVkTileFilter * filter)
{
  GstTiledconv *self = GST_TILEDCONV (filter);
  gboolean runs;

  GST_OBJECT_LOCK (self);
  runs = self->algorithm == ALGORITHM_TILED;
  GST_OBJECT_UNLOCK (self);
  return runs;
}

/* What every plane of a frame records with. */
typedef struct
{
  TiledconvAlgorithm algorithm;
  VktKernel kernel;
  gdouble scale, bias;
  gboolean absolute;
  VktBufferRef weights;
} PlaneRecording;

/* The two-pass algorithm's intermediate: a float per lane of the ROI's
 * words. */
static gsize
plane_scratch_bytes (GstVkTileFilter * filter, const VktPlane * plane,
    gpointer data)
{
  const PlaneRecording *rec = data;
  gint word_x0;

  if (rec->algorithm != ALGORITHM_TWO_PASS)
    return 0;
  return (gsize) vkt_roi_words (&plane->roi, plane->ncomp, plane->cpw,
      &word_x0) * plane->cpw * plane->roi.h * sizeof (gfloat);
}

static gboolean
record_plane (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, guint i, const VktBufferRef * scratch, gpointer data,
    GError ** error)
{
  const PlaneRecording *rec = data;
  const VktPlane *plane = &frame->planes[i];
  VktBufferRef refs[4] = { frame->in, frame->out, rec->weights,
    scratch->buffer ? *scratch : frame->out
  };
  gint radius = rec->kernel.size / 2;
  gint32 spec[TILEDCONV_SPEC_COUNT] = { 0 };
  TiledconvPush push;
  VktPipeline *pipe;
  guint gx, gy;

  fill_push (&push, plane, frame, rec->scale, rec->bias, rec->absolute);
  fill_spec (spec, plane, radius, rec->kernel.separable);
  push.grid_words = vkt_roi_words (&plane->roi, plane->ncomp, plane->cpw,
      &push.word_x0);
  gx = (push.grid_words + TILEDCONV_BASE_GROUP - 1) / TILEDCONV_BASE_GROUP;
  gy = (plane->roi.h + TILEDCONV_BASE_GROUP - 1) / TILEDCONV_BASE_GROUP;

  switch (rec->algorithm) {
    case ALGORITHM_TILED:
      return record_tiled (compute, plane, &push, spec, refs, frame, error);
    case ALGORITHM_NAIVE:
    case ALGORITHM_SHARED:
      spec[TILEDCONV_SPEC_SEPARABLE] = 0;
      if (!(pipe = vkt_compute_pipeline (compute,
                  rec->algorithm == ALGORITHM_NAIVE ? &shader_naive :
                  &shader_shared, spec, TILEDCONV_SPEC_BASE_COUNT, error)))
        return FALSE;
      vkt_compute_dispatch (compute, pipe, refs, &push, gx, gy);
      return TRUE;
    case ALGORITHM_TWO_PASS:
    default:
      if (!(pipe = vkt_compute_pipeline (compute, &shader_hpass, spec,
                  TILEDCONV_SPEC_BASE_COUNT, error)))
        return FALSE;
      vkt_compute_dispatch (compute, pipe, refs, &push, gx, gy);
      vkt_compute_barrier (compute);
      if (!(pipe = vkt_compute_pipeline (compute, &shader_vpass, spec,
                  TILEDCONV_SPEC_BASE_COUNT, error)))
        return FALSE;
      vkt_compute_dispatch (compute, pipe, refs, &push, gx, gy);
      return TRUE;
  }
}

static gboolean
gst_tiledconv_record (GstVkTileFilter * filter, VktCompute * compute,
    VktFrame * frame, GError ** error)
{
  static const GstVkTilePlaneRecorder recorder = {
    plane_scratch_bytes, record_plane
  };
  GstTiledconv *self = GST_TILEDCONV (filter);
  gfloat weights[VKT_KERNEL_WEIGHTS];
  PlaneRecording rec;

  GST_OBJECT_LOCK (self);
  rec.kernel = self->kernel;
  rec.algorithm = self->algorithm;
  rec.scale = self->scale;
  rec.bias = self->bias;
  rec.absolute = self->absolute;
  GST_OBJECT_UNLOCK (self);

  if (rec.algorithm == ALGORITHM_TWO_PASS && !rec.kernel.separable)
    rec.algorithm = ALGORITHM_NAIVE;
  /* The separable tiled shader shares two arrays of halo rows between its
   * rows of blocks; a device with less shared memory (Vulkan promises
   * 16 KiB, R = 3 needs 24) runs the shared-memory baseline instead. */
  if (rec.algorithm == ALGORITHM_TILED && rec.kernel.separable
      && 2 * TILEDCONV_HALO_FLOATS (rec.kernel.size / 2) * sizeof (gfloat) >
      vkt_compute_max_shared_bytes (compute))
    rec.algorithm = ALGORITHM_SHARED;

  vkt_kernel_pack (&rec.kernel, weights);
  rec.weights = vkt_compute_uniform (compute, weights, sizeof (weights));
  return gst_vktile_filter_record_planes (filter, compute, frame, &recorder,
      &rec, error);
}

/* ---- type ---- */

static GParamSpec *
kernel_param_spec (const gchar * name, const gchar * nick, const gchar * blurb,
    GParamFlags flags)
{
  return gst_param_spec_array (name, nick, blurb,
      g_param_spec_double ("value", "Value", "A kernel weight", -G_MAXDOUBLE,
          G_MAXDOUBLE, 0.0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
      flags);
}

static void
gst_tiledconv_class_init (GstTiledconvClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVkTileFilterClass *filter_class = GST_VKTILE_FILTER_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_tiledconv_debug, "tiledconv", 0,
      "tiled 2D convolution");

  gobject_class->set_property = gst_tiledconv_set_property;
  gobject_class->get_property = gst_tiledconv_get_property;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      kernel_param_spec ("kernel", "Kernel",
          "2D kernel of 9, 25 or 49 numbers (3x3, 5x5, 7x7), row-major, "
          "applied as a correlation like OpenCV filter2D, e.g. "
          "\"<0,-1,0,-1,5,-1,0,-1,0>\". Setting it selects preset=none; a "
          "rank-1 kernel runs as separable", flags));
  g_object_class_install_property (gobject_class, PROP_KERNEL_X,
      kernel_param_spec ("kernel-x", "Horizontal kernel",
          "Separable kernel: the horizontal row of 3, 5 or 7 taps; the 2D "
          "kernel is outer(kernel-y, kernel-x), with kernel-y the identity "
          "tap unless it is set too (to the same length). Setting it "
          "selects preset=none; it reads back the current kernel's row",
          flags));
  g_object_class_install_property (gobject_class, PROP_KERNEL_Y,
      kernel_param_spec ("kernel-y", "Vertical kernel",
          "Separable kernel: the vertical column of 3, 5 or 7 taps, with "
          "kernel-x the identity tap unless it is set too (to the same "
          "length). Setting it selects preset=none; it reads back the "
          "current kernel's column", flags));
  g_object_class_install_property (gobject_class, PROP_PRESET,
      g_param_spec_enum ("preset", "Preset",
          "A predefined kernel; none uses kernel or kernel-x/kernel-y",
          GST_TYPE_TILEDCONV_PRESET, VKT_PRESET_GAUSSIAN3, flags));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale",
          "Factor applied to the weighted sum", -G_MAXFLOAT, G_MAXFLOAT, 1.0,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_BIAS,
      g_param_spec_double ("bias", "Bias",
          "Added after scaling (and after absolute), as a fraction of the "
          "format's range: 0.5 centres a signed result", -1.0, 1.0, 0.0,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ABSOLUTE,
      g_param_spec_boolean ("absolute", "Absolute",
          "Take the absolute value of the scaled sum before the bias (edge "
          "detectors)", FALSE, flags));
  g_object_class_install_property (gobject_class, PROP_ALGORITHM,
      g_param_spec_enum ("algorithm", "Algorithm",
          "How the convolution runs on the GPU; all give the same output, "
          "the baselines exist for benchmarks and tests",
          GST_TYPE_TILEDCONV_ALGORITHM, ALGORITHM_TILED, flags));

  gst_element_class_set_static_metadata (element_class,
      "Tiled convolution (Vulkan)", "Filter/Effect/Video/Hardware",
      "Small 2D convolutions (3x3, 5x5, 7x7, separable or not) on the GPU "
      "with the tiled algorithm and border-class dispatch",
      "vktile developers");

  filter_class->record = gst_tiledconv_record;
  filter_class->reads_input_in_runs = gst_tiledconv_reads_input_in_runs;

  gst_type_mark_as_plugin_api (GST_TYPE_TILEDCONV_PRESET, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_TILEDCONV_ALGORITHM, 0);
}

static void
gst_tiledconv_init (GstTiledconv * self)
{
  self->preset = VKT_PRESET_GAUSSIAN3;
  vkt_kernel_from_preset (&self->kernel, self->preset);
  self->scale = 1.0;
  self->bias = 0.0;
  self->absolute = FALSE;
  self->algorithm = ALGORITHM_TILED;
}
