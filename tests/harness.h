/* tests/harness.h: helpers shared by the element tests (tests/harness.c). */
#ifndef VKTILE_TESTS_HARNESS_H
#define VKTILE_TESTS_HARNESS_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "plugin/gstvktiletimingmeta.h"
#include "device.h"
#include "reference.h"
#include "suite.h"

G_BEGIN_DECLS

/* The first value two frames disagree on, and how many do. */
typedef struct
{
  guint count;
  guint plane, comp;
  gint x, y;
  guint got, want;
} Mismatch;

void set_double_array (GstElement * el, const gchar * prop, const gdouble * v,
    guint n);

/* Reads a GstValueArray property as doubles; returns its length. */
guint get_double_array (GstElement * el, const gchar * prop, gdouble * v, guint max);

/* The nick of an enum property's current value (static string). */
const gchar *get_enum_nick (GstElement * el, const gchar * prop);

void fill_random (GRand * r, guint8 * data, gsize size);

/* A handler for gst_check_add_log_filter(): counts the messages it
 * catches in the guint `data` and marks them handled (not a failure). */
gboolean count_caught_log (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer data);

gint plane_first_comp (const GstVideoInfo * info, guint plane);

/* Compares every visible value of every component (tolerance tol) and every
 * padding byte inside a pixel (exact). Returns the number of mismatches. */
guint compare_frames (const GstVideoFrame * got, const GstVideoFrame * want,
    guint tol, Mismatch * mm);

/* Rounding to nearest: how many values of `got` match neither `want` nor
 * want_down (the reference with ties rounded down; `want` again where
 * ties do not matter), in every component of at most max_depth bits (0:
 * every component); *n_values: how many were compared. With
 * VKTILE_ROUNDING_STATS set, prints both counts (`what` names the
 * frame). */
guint count_rounding_off (const GstVideoFrame * got,
    const GstVideoFrame * want, const GstVideoFrame * want_down,
    guint max_depth, const gchar * what, guint * n_values);

GstPadProbeReturn count_vulkan_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer data);

void check_meta (GstBuffer * buf, const gchar * name, guint64 frame_index);

guint count_metas (GstBuffer * buf);

void check_enum_nicks (GObjectClass * klass, const gchar * prop,
    const gchar * const *nicks, const gchar * def);

void require_element_named (const gchar * element);
GstElement *harness_get_element (GstHarness * h, const gchar * element,
    const gchar * name);
GstBuffer *harness_push_frame (GstHarness * h, GstBuffer * in,
    GstClockTime * pts, const GstVideoInfo * info, const gchar * algorithm);
void drop_pool (GstBufferPool ** pool);

/* The pool an element proposed upstream (for frames of `info`) hands out
 * buffers in Vulkan buffer memory. */
void check_pool_holds_vulkan (GstBufferPool * pool, const GstVideoInfo * info);

/* A random frame (info, CONTENT_NOISE, from rand) through h as
 * harness_push_frame() pushes it: returns how many values of the output
 * differ from the input's by more than tol, the first in *mm. The output
 * is dropped, first poisoned where `poison` (see poison_buffer()). */
guint harness_push_changes (GstHarness * h, GstClockTime * pts,
    const GstVideoInfo * info, const gchar * algorithm, GRand * rand,
    guint tol, gboolean poison, Mismatch * mm);

/* Identical inputs give identical outputs: pushes in (taken) twice, as
 * harness_push_frame() does, and fails unless the two outputs agree in
 * every value. */
void check_deterministic (GstHarness * h, GstBuffer * in, GstClockTime * pts,
    const GstVideoInfo * info, const gchar * algorithm);

void check_pad_templates (const gchar * element,
    const GstVideoFormat * formats, guint n_formats);

/* The supported formats in groups whose planes the shaders see alike (the
 * same bits and components per plane, the same channel mask), a group
 * shorter than 5 ending with GST_VIDEO_FORMAT_UNKNOWN. Lavapipe spends nearly all of a
 * test's time creating pipelines (a fraction of a second each, however
 * small the frame), and a pipeline lives as long as the element's device:
 * a test that runs every format of a group through one harness creates
 * each variant once per group instead of once per format. NV12 and its
 * kin have a group of their own: their two planes need the variants of
 * two groups, which would make a group with them the longest test by far
 * on a cold shader cache; so do packed 4:2:2 formats (two planes over the
 * same words), and 3-byte pixels (widened to 4 around the filter). */
#define N_FORMAT_GROUPS 8
extern const GstVideoFormat format_groups[N_FORMAT_GROUPS][5];

/* Every format the elements take, in the order of their pad templates. */
#define N_FORMATS 25
extern const GstVideoFormat all_formats[N_FORMATS];

/* Those they take in Vulkan images: the ones gstvulkan 1.22 makes images
 * of (its elements abort the program on the others). */
#define N_IMAGE_FORMATS 18
extern const GstVideoFormat image_formats[N_IMAGE_FORMATS];

/* The i-th format of group g (GST_VIDEO_FORMAT_UNKNOWN past its end) and,
 * for a format, its index in all_formats: the loop tests run a group of
 * formats through one harness. */
GstVideoFormat harness_group_format (guint g, guint i, guint * index);

/* How a test frame is laid out in memory. */
typedef enum
{
  LAYOUT_DEFAULT,               /* tightly packed, no GstVideoMeta */
  LAYOUT_PADDED,                /* GstVideoMeta, strides/offsets 4-aligned */
  LAYOUT_ODD,                   /* GstVideoMeta, odd strides and offsets */
  LAYOUT_PROPOSED_POOL,         /* from the pool the element proposes */
} Layout;

/* What a test frame shows. */
typedef enum
{
  CONTENT_NOISE,                /* every byte random */
  CONTENT_SMOOTH,               /* sinusoids plus a little noise */
  CONTENT_EDGES,                /* flat blocks, bright frame edges, noise */
  CONTENT_KINDS,
  CONTENT_ANY = -1,             /* one of the above at random */
} Content;

void fill_smooth (GstVideoFrame * f, GRand * r, guint c, gdouble min_period,
    gdouble noise);
void fill_edges (GstVideoFrame * f, GRand * r, guint c);
void fill_content (GstVideoFrame * f, GRand * r, Content content);

/* A random frame (every byte random first, then the content). */
GstBuffer *make_frame (const GstVideoInfo * info, GRand * r, Layout layout,
    Content content);
GstBuffer *make_pool_frame (GstHarness * h, const GstVideoInfo * info,
    GstBufferPool ** pool, GRand * rand, Content content);

/* A test frame of `layout`: make_pool_frame() for LAYOUT_PROPOSED_POOL
 * (the pool kept in *pool), else make_frame(). */
GstBuffer *make_test_frame (GstHarness * h, const GstVideoInfo * info,
    GstBufferPool ** pool, GRand * rand, Layout layout, Content content);

/* VKTILE_TRACE=1: how long the element took (pushed at t0, out at t1)
 * and the check of its output (from t1 until now). */
void harness_trace_times (gint64 t0, gint64 t1);

/* Overwrites a buffer about to go back to the element's pool. */
void poison_buffer (GstBuffer * buf);
guint count_diff (const GstVideoFrame * a, const GstVideoFrame * b, guint tol);
GstBuffer *new_frame_buffer (const GstVideoInfo * info, GstVideoFrame * f);
void free_frame_buffer (GstBuffer * buf, GstVideoFrame * f);

/* A region of interest a detector would attach to a frame (luma pixels),
 * for the roi-meta tests. */
typedef struct
{
  const gchar *type;
  gint x, y, w, h;
} MetaRegion;

/* Regions for a frame of 97x61, with the types "face" and "license-plate"
 * listed and a padding of 2: overlapping, clipped by the frame, a pixel,
 * outside the frame, sharing a word without sharing a pixel, and of a type
 * not listed ("person"). */
#define ROI_META_W 97
#define ROI_META_H 61
extern const MetaRegion roi_meta_regions[];
extern const guint n_roi_meta_regions;

/* Attaches regions[0..n) to buf as GstVideoRegionOfInterestMeta, in order. */
void add_region_metas (GstBuffer * buf, const MetaRegion * regions, guint n);

/* What roi-meta makes of a region, stated independently of the plugin:
 * grown by `padding` on every side, clipped to the W x H frame, as the
 * target ROI (source the same) of `roi`; FALSE when nothing is left. */
gboolean meta_region_roi (const MetaRegion * r, gint padding, gint W, gint H,
    RefConv * roi);

/* An element's reference with its ROI replaced by `roi`'s: filters in into
 * out (data: the test's reference settings). */
typedef void (*RefWithRoi) (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * roi, gpointer data);

/* What roi-meta filters: the regions of `types` among regions[0..n), each
 * grown by `padding` and clipped, as the reference with that ROI, a later
 * overlapping region's result kept (tolerance tol); every other value the
 * input, byte for byte; something changed where a region was filtered.
 * `planes`: the element's plane mask. */
void check_roi_meta (const GstVideoInfo * info, GstBuffer * in,
    GstBuffer * out, const MetaRegion * regions, guint n,
    const gchar * const *types, gint padding, guint planes, RefWithRoi ref,
    gpointer data, guint tol, guint32 seed, const gchar * what);

/* The leaks tracer (GST_TRACERS=leaks before gst_check_init): objects
 * created after leaks_start_tracking() and still alive at
 * leaks_count_alive(), each logged at ERROR, which also stops tracking. */
void leaks_start_tracking (void);
guint leaks_count_alive (void);

/* Fails unless `run` leaves nothing alive: it runs once untracked, to make
 * what lives as long as the process (element classes' pad templates,
 * allocators, the system clock), then again under the leaks tracer. */
void check_leaves_nothing_alive (void (*run) (void));

/* The test of a suite whose subject is what `run` leaves alive: nothing
 * (check_leaves_nothing_alive()). */
#define LEAKS_TEST(test, run)                                       \
GST_START_TEST (test)                                               \
{                                                                   \
  check_leaves_nothing_alive (run);                                 \
}                                                                   \
GST_END_TEST

/* A SuiteSetup (suite.h) for the suites that count what they leave alive:
 * the leaks tracer, before gst_init so that it sees every object from the
 * start. */
int harness_start_leaks_tracer (int argc, char **argv);

/* FLUSH_START, FLUSH_STOP and a new TIME segment through the harness. */
void harness_flush (GstHarness * h);

/* harness_flush(), and the frames' timestamps (*pts, as
 * harness_push_frame() advances it) start again from 0. */
void harness_flush_restart (GstHarness * h, GstClockTime * pts);

/* Counts the buffers through el's pad `pad` ("sink" or "src") as
 * count_vulkan_buffers() does: counts[0] all in VulkanBuffer memory,
 * counts[1] the others. */
void probe_pad_memory (GstElement * el, const gchar * pad, guint * counts);

/* A sample of the standard normal distribution (Box-Muller). */
gdouble gauss_sample (GRand * r);

/* Scene `scene` (smooth sinusoids, the same for the same number) plus
 * Gaussian noise of `noise` 8-bit code values (scaled to each component's
 * range) in every component, rounded and clamped. */
GstBuffer *noisy_scene (const GstVideoInfo * info, GRand * r, guint scene,
    gdouble noise);

/* ---- the fixture every element suite builds its Fx on ---- */

/* Opens a suite's fixture: skips the test unless `element` is registered,
 * seeds *rand with base_seed + salt * 2654435761 (returned, for the
 * failure messages: each test's salt gives it its own stream), and
 * harnesses `launch` (NULL: a lone `element`); *el is the `element` of the
 * launch line called `name` (NULL: the only one), a new reference. */
guint32 harness_fx_open (const gchar * element, const gchar * launch,
    const gchar * name, guint32 base_seed, guint salt, GstHarness ** h,
    GstElement ** el, GRand ** rand);

/* Closes what harness_fx_open() opened, the pool of LAYOUT_PROPOSED_POOL
 * frames first (pool: NULL where the suite keeps none). */
void harness_fx_close (GstHarness * h, GstElement * el, GRand * rand,
    GstBufferPool ** pool);

/* Sets *info to format at width x height and 30 fps, and gives the
 * harness those caps on both sides; first drops *pool (NULL: none), the
 * pool proposed for the old caps. */
void harness_set_video_caps (GstHarness * h, GstBufferPool ** pool,
    GstVideoInfo * info, GstVideoFormat format, gint width, gint height);

/* The base class's border, border-value, roi-* / source-* and planes
 * properties of el, set and mirrored in the reference's RefConv. */
void harness_set_border (GstElement * el, RefConv * ref, RefBorder b,
    gdouble value);
void harness_set_roi (GstElement * el, RefConv * ref, gint x, gint y, gint w,
    gint h, gint sx, gint sy);
void harness_set_planes (GstElement * el, RefConv * ref, guint planes);

/* ---- property specs ---- */

/* prop is a property of GParamSpec type `type` (G_TYPE_PARAM_DOUBLE or
 * G_TYPE_PARAM_UINT, whose values are exact as doubles) with this range
 * and default; check_double_spec() and check_uint_spec() name the type. */
void check_number_spec (GObjectClass * klass, const gchar * prop, GType type,
    gdouble min, gdouble max, gdouble def);
#define check_double_spec(klass, prop, min, max, def) \
  check_number_spec (klass, prop, G_TYPE_PARAM_DOUBLE, min, max, def)
#define check_uint_spec(klass, prop, min, max, def) \
  check_number_spec (klass, prop, G_TYPE_PARAM_UINT, min, max, def)

/* The base class's roi-x/y/width/height (ints from 0, default 0, -1
 * refused), source-x/y (ints from -1, default -1) and planes (default
 * 0xf), as every filter built on it has them. */
void check_base_class_specs (GObjectClass * klass);

/* Every property of the NULL-terminated props is controllable (what makes
 * sense to animate). */
void check_controllable (GObjectClass * klass, const gchar * const *props);

/* Every property of the NULL-terminated props has a blurb of more than 8
 * characters (what gst-inspect-1.0 shows). */
void check_blurbs (GObjectClass * klass, const gchar * const *props);

/* Pops every WARNING message off bus; returns how many name `prop` in
 * their error or debug text. */
guint bus_warnings_naming (GstBus * bus, const gchar * prop);

/* ---- chains and caps changes ---- */

/* An element's reference with the settings `ref` (its Ref* struct):
 * filters in into out. */
typedef void (*RefApply) (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref);

/* What a chain "a ! b" of two vktile elements (called so) that pass
 * VulkanBuffer memory between them gives at step `step` (from 0) of the
 * test, for in (info; taken): out (taken) matches the reference with a's
 * settings then with b's within 2 code values, every buffer between a and
 * b so far was VulkanBuffer memory (counts: b's sink pad,
 * probe_pad_memory()), and out carries a's and b's timing metas,
 * frame_index `step`. */
void check_chain_output (const GstVideoInfo * info, GstBuffer * in,
    GstBuffer * out, RefApply ref, gconstpointer ref_a, gconstpointer ref_b,
    guint step, const guint * counts, guint32 base_seed);

/* Sets the property check_toggled_while_streaming() toggles to its
 * which-th (0 or 1) value; data: the caller's. */
typedef void (*ToggleSet) (GstElement * el, guint which, gconstpointer data);

/* What check_toggled_while_streaming() toggles, and the two references it
 * expects: set (with set_data) 0 gives what ref with ref_a gives, called
 * what_a in messages; likewise 1, ref_b and what_b. */
typedef struct
{
  ToggleSet set;
  gconstpointer set_data;
  RefApply ref;
  gconstpointer ref_a, ref_b;
  const gchar *what_a, *what_b;
} Toggle;

/* A ToggleSet for a double property: data is a ToggleDouble. */
typedef struct
{
  const gchar *prop;
  gdouble value[2];
} ToggleDouble;
void toggle_set_double (GstElement * el, guint which, gconstpointer data);

/* A property of el changed from another thread while frames stream
 * (properties are safe to change while playing): toggle->set alternates
 * between its two values every 300 us while n_frames random frames (info,
 * `content`, from rand) go through h (timestamps from *pts, `algorithm`
 * for the messages); every output must be, within tol, entirely the
 * reference with ref_a or with ref_b, never a mix, never a crash. */
void check_toggled_while_streaming (GstHarness * h, GstElement * el,
    const GstVideoInfo * info, GRand * rand, Content content,
    GstClockTime * pts, const gchar * algorithm, const Toggle * toggle,
    guint n_frames, guint tol, guint32 base_seed);

/* A format and a frame size. */
typedef struct
{
  GstVideoFormat fmt;
  gint w, h;
} CapsStep;

/* The caps test_caps_change steps through mid-stream: a size change, a
 * format change at that size, 16-bit, planar and back to the start. */
extern const CapsStep caps_change_steps[];
extern const guint n_caps_change_steps;

/* ---- plane masks ---- */

/* A format and a `planes` mask that selects some of its components. */
typedef struct
{
  GstVideoFormat fmt;
  guint planes;
} PlanesCase;

/* What test_planes runs through each filter: one component of packed RGB
 * in either byte order, padding (x) with and without its bit, one plane
 * or one interleaved component of semi-planar and planar YUV, 16-bit
 * samples, and a mask that selects nothing (a copy). */
extern const PlanesCase planes_cases[];
extern const guint n_planes_cases;

G_END_DECLS

#endif
