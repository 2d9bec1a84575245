/* tests/fixture.h: the one fixture of the element suites (fixture.c).
 *
 * A suite's Fx embeds a HarnessFx, called `base`, as its first member and
 * keeps its element's reference settings after it. The HarnessFx holds
 * what every element's tests need: the harness, the element the reference
 * mirrors, the caps, the random stream and the seeds, the timestamps, the
 * pool of LAYOUT_PROPOSED_POOL frames; and through its FxElement, how to
 * run the element's reference on a frame. With those, one push-and-compare
 * serves every element (harness_fx_check_*), and so do the tests whose
 * outline is the same for every element: caps changes mid-stream, ROI
 * lists, a VulkanBuffer chain of two, frames in Vulkan memory on both
 * sides, the noise estimate read back, a property toggled while frames
 * stream, an output's timing meta.
 *
 * The lower-case macros at the end take a suite's Fx (anything with a
 * HarnessFx `base`), so that a test reads fx_set_caps (&fx, ...) whatever
 * its element; FX_GROUP_TEST defines a suite's test over a format
 * group. */
#ifndef VKTILE_TESTS_FIXTURE_H
#define VKTILE_TESTS_FIXTURE_H

#include "harness.h"

G_BEGIN_DECLS

typedef struct _HarnessFx HarnessFx;

/* The rounding check of harness_fx_verify(): rounding to nearest, so
 * that at most MAX (floor, n / fraction) of the n values compared may
 * round the other way (the tolerance alone would also pass truncation).
 * All zero: the output is exact, no rounding check. */
typedef struct
{
  guint floor;
  guint fraction;
  /* the bound instead, where it depends on the settings (NULL: the one
   * of floor and fraction) */
  guint (*bound) (HarnessFx * fx, guint n_values);
  /* Only components of at most this many bits count (0: all): at 16 bits
   * fp32 noise is a good part of a code. */
  guint depth;
  /* The reference can round ties down; else the check compares with the
   * one reference. */
  gboolean ties_down_reference;
} FxRounding;

/* What the fixture needs to know of an element and its reference. */
typedef struct
{
  const gchar *name;            /* the element's factory name */
  const gchar *algorithm;       /* the algorithm property's default */
  guint tol;                    /* code values the output may be off */
  Content content;              /* what the checked frames show */
  FxRounding rounding;
  /* The reference's settings to the element's defaults, its state made
   * (NULL: nothing beyond the zeroed Fx); the state freed again. */
  void (*init) (HarnessFx * fx);
  void (*clear) (HarnessFx * fx);
  /* Filters in into out as the reference does with the suite's settings.
   * Called twice a frame: first with ties_down FALSE (a reference with
   * state advances it), then, where rounding.ties_down_reference, with
   * ties rounded down (from the state before the first call). */
  void (*filter) (HarnessFx * fx, const GstVideoFrame * in,
      GstVideoFrame * out, gboolean ties_down);
  /* The settings, for the failure messages (newly allocated). */
  gchar *(*describe) (HarnessFx * fx);
  /* The reference's recursion across frames restarts (a caps change, a
   * flush); NULL: the element keeps no state. */
  void (*restart) (HarnessFx * fx);
  /* What else to check after each frame harness_fx_check_buffer() checked
   * (NULL: nothing). */
  void (*checked) (HarnessFx * fx, const gchar * what);
} FxElement;

struct _HarnessFx
{
  const FxElement *element;
  GstHarness *h;
  GstElement *el;               /* the element the reference mirrors */
  RefConv *common;              /* the reference's base-class settings */
  GstVideoInfo info;
  gboolean have_caps;
  const gchar *algorithm;       /* the element's, for the messages */
  GRand *rand;
  guint32 base_seed;            /* VKTILE_SEED */
  guint32 seed;                 /* this test's: base_seed and its salt */
  guint64 pts;
  GstBufferPool *pool;          /* LAYOUT_PROPOSED_POOL */
  guint n_elements;             /* vktile elements in h: timing metas */
  guint n_frames;               /* frames checked */
  guint n_changed;              /* of those, outputs that differ from input */
  guint memory_in[2], memory_out[2];    /* harness_fx_watch_memory() */
  guint group;                  /* harness_fx_for_group()'s */
};

/* Opens the fixture of a suite's Fx (fx its `base`, fx_size the whole
 * Fx, zeroed first): the reference to the element's defaults
 * (element->init), then harness_fx_open(): the test is skipped unless the
 * element is registered, the salt gives the test its own random stream,
 * and the harness holds a lone element or `launch`, whose element called
 * `name` the reference mirrors. `common`: the base-class settings in the
 * suite's reference. */
void harness_fx_init (HarnessFx * fx, gsize fx_size,
    const FxElement * element, RefConv * common, const gchar * launch,
    const gchar * name, guint32 base_seed, guint salt);
void harness_fx_clear (HarnessFx * fx);

/* New caps (30 fps) on both sides of the harness, the old pool dropped;
 * other caps than before restart the reference's recursion. */
void harness_fx_set_caps (HarnessFx * fx, GstVideoFormat format,
    gint width, gint height);

/* FLUSH_START, FLUSH_STOP, a new segment, timestamps from 0 again: the
 * recursion restarts. */
void harness_fx_flush (HarnessFx * fx);

/* Pushes one frame (taken) as harness_push_frame() does; returns the
 * output (owned). */
GstBuffer *harness_fx_push (HarnessFx * fx, GstBuffer * in);

/* The base class's properties, set on the element and in the reference. */
void harness_fx_set_border (HarnessFx * fx, RefBorder b, gdouble value);
void harness_fx_set_roi (HarnessFx * fx, gint x, gint y, gint w, gint h,
    gint sx, gint sy);
void harness_fx_set_planes (HarnessFx * fx, guint planes);

/* out against the reference of in: within the element's tolerance in
 * every value, rounded to nearest (the element's rounding); counts
 * the frames and those the element changed. */
void harness_fx_verify (HarnessFx * fx, GstBuffer * in, GstBuffer * out,
    const gchar * what);

/* in (taken) through the element and checked (harness_fx_verify()), with
 * one timing meta per vktile element of the harness; the output poisoned
 * before it goes back to the pool. VKTILE_TRACE=1 prints the settings
 * before the push (a crash inside the driver leaves no other trace) and
 * the times. */
void harness_fx_check_buffer (HarnessFx * fx, GstBuffer * in,
    const gchar * what);

/* A test frame of `layout` (the element's content), with `flags`, through
 * harness_fx_check_buffer(). */
void harness_fx_check_frame (HarnessFx * fx, Layout layout,
    GstBufferFlags flags, const gchar * what);

/* A random frame through harness_fx_check_buffer(); `what` (taken). */
void harness_fx_check_what (HarnessFx * fx, gchar * what);

/* The element's noise-estimate property, one value per plane, each
 * within 1e-5 of the reference's `want`. */
void harness_fx_check_noise_estimate (HarnessFx * fx, const gdouble * want,
    const gchar * what);

/* Counts the buffers into and out of fx->el (probe_pad_memory()) in
 * memory_in and memory_out; harness_fx_check_vulkan_memory() fails unless
 * n frames came in and went out, all of them in VulkanBuffer memory. */
void harness_fx_watch_memory (HarnessFx * fx);
void harness_fx_check_vulkan_memory (HarnessFx * fx, guint n);

/* A launch line whose element `name=a` reads and writes only VulkanBuffer
 * memory: a copy (`copier` with planes=0) before and after it. For
 * harness_fx_watch_memory(); fx->n_elements is 3. */
#define VULKAN_BETWEEN_COPIES(copier, element)                       \
  copier " planes=0 ! video/x-raw(memory:VulkanBuffer) ! " element      \
  " name=a ! video/x-raw(memory:VulkanBuffer) ! " copier " planes=0"

/* Calls `each` with every format of format group `group` in turn
 * (harness_group_format()), all through fx's one harness (fx->group is
 * the group): `position` is the format's place in the group, `index` its
 * index in all_formats, `lead` that of the group's first. */
typedef void (*FxGroupEach) (HarnessFx * fx, GstVideoFormat format,
    guint position, guint index, guint lead);
void harness_fx_for_group (HarnessFx * fx, guint group, FxGroupEach each);

/* Size and format changes mid-stream (caps_change_steps): two frames
 * after each, checked. */
void harness_fx_check_caps_changes (HarnessFx * fx);

/* Identical inputs give identical outputs (check_deterministic()). */
void harness_fx_check_deterministic (HarnessFx * fx);

/* harness_push_changes() on fx's harness, with its random stream. */
guint harness_fx_push_changes (HarnessFx * fx, guint tol, gboolean poison,
    Mismatch * mm);

/* check_toggled_while_streaming() on fx's harness and element: n_frames
 * of the element's content, within its tolerance. */
void harness_fx_check_toggled (HarnessFx * fx, const Toggle * toggle,
    guint n_frames);

/* A random frame (CONTENT_NOISE) through the element, whose output must
 * carry one timing meta, that of the element called `name` for frame
 * `frame` (check_meta()), which a copy of the buffer keeps. Returns the
 * output (owned) and, where meta is not NULL, its meta in *meta. */
GstBuffer *harness_fx_push_timed (HarnessFx * fx, const gchar * name,
    guint frame, GstVkTileTimingMeta ** meta);

/* Sets up both elements of a chain for one step (`step` from 0): a's
 * settings through fx, b's on `b`; returns b's reference settings (for
 * the RefApply of harness_fx_check_chain()). */
typedef gconstpointer (*ChainStep) (HarnessFx * fx, GstElement * b,
    guint step);

/* fx opened on harness_chain_launch(): for each of n_steps steps, the
 * settings of `setup`, a random frame of format at width x height through
 * both and check_chain_output() (ref with ref_a, then with what setup
 * returned). *a_download and *b_upload (NULL: not wanted): the most
 * download_ns of a's meta and upload_ns of b's over the steps. */
void harness_fx_check_chain (HarnessFx * fx, GstVideoFormat format,
    gint width, gint height, guint n_steps, ChainStep setup, RefApply ref,
    gconstpointer ref_a, guint64 * a_download, guint64 * b_upload);

/* "<element> name=a ! video/x-raw(memory:VulkanBuffer),format=<format> !
 * <element> name=b" (g_free it). */
gchar *harness_chain_launch (const gchar * element, GstVideoFormat format);

/* A random frame with regions[0..n) of roi_meta_regions attached (the
 * element's roi-meta set to `types`, roi-padding to `padding`) through
 * the element, checked by check_roi_meta() against the element's
 * reference with each region's ROI, within the element's tolerance. */
void harness_fx_check_roi_meta (HarnessFx * fx, guint n,
    const gchar * const *types, gint padding, const gchar * what);

/* Sets the space-separated prop=value of `props` on el (as
 * gst_util_set_object_arg() reads values, as a launch line would). */
void set_properties (GstElement * el, const gchar * props);

/* ---- the element's interface ---- */

/* A new `element` (the test skipped unless it is registered). */
GstElement *harness_new_element (const gchar * element);

/* What every element built on the base class shows gst-inspect-1.0: the
 * base class's properties (check_base_class_specs()), the properties of
 * `animated` controllable and those of `own` described (NULL: not
 * checked here), and pads that take every supported format (the pad
 * templates). Takes el. */
void check_element_interface (GstElement * el, const gchar * const *own,
    const gchar * const *animated);

/* Each value of bad[0..n_bad) for the number property prop of el is
 * refused by its GParamSpec (GLib warns) and the property keeps its
 * value. */
void check_refused_numbers (GstElement * el, const gchar * prop,
    const gdouble * bad, guint n_bad);

/* ---- ROI lists ---- */

/* A target ROI and where it reads from: roi-x, roi-y, roi-width,
 * roi-height, source-x, source-y. */
typedef gint RoiCase[6];

/* Target and source ROIs on a 41x27 frame (ROI_SMALL_W x ROI_SMALL_H);
 * each suite runs those of its list (roi_small_*). */
#define ROI_SMALL_W 41
#define ROI_SMALL_H 27
extern const RoiCase roi_small_cases[];
extern const guint roi_small_recursivefilter[], roi_small_tiledconv[],
    roi_small_gaussblur[];
extern const guint n_roi_small_recursivefilter, n_roi_small_tiledconv,
    n_roi_small_gaussblur;

/* ROIs on 257x130, a frame of many tiles, whose edges cut through tiles. */
#define ROI_LARGE_W 257
#define ROI_LARGE_H 130
extern const RoiCase roi_large_cases[];
extern const guint n_roi_large_cases;

void harness_fx_set_roi_case (HarnessFx * fx, const RoiCase roi);

/* ---- a suite's Fx (one with a HarnessFx `base`) ---- */

/* The suite defines its FxElement as `fx_element`, its seed as
 * `base_seed`, and its Fx's reference settings as `ref` (their RefConv
 * `common`, or the RefConv itself where FX_COMMON says so). */
#ifndef FX_COMMON
#define FX_COMMON(fx) (&(fx)->ref.common)
#endif
#define fx_init_full(fx, launch, name, salt)                          \
  harness_fx_init (&(fx)->base, sizeof (*(fx)), &fx_element,            \
      FX_COMMON (fx), launch, name, base_seed, salt)
#define fx_init(fx, salt) fx_init_full (fx, NULL, NULL, salt)
/* the suite's Fx of a HarnessFx (its first member) */
#define FX(base) ((Fx *) (base))
#define fx_clear(fx) harness_fx_clear (&(fx)->base)

#define fx_set_caps(fx, format, width, height) \
  harness_fx_set_caps (&(fx)->base, format, width, height)
#define fx_flush(fx) harness_fx_flush (&(fx)->base)
#define fx_push(fx, in) harness_fx_push (&(fx)->base, in)
#define fx_set_roi(fx, x, y, w, h, sx, sy) \
  harness_fx_set_roi (&(fx)->base, x, y, w, h, sx, sy)
#define fx_set_roi_case(fx, roi) harness_fx_set_roi_case (&(fx)->base, roi)
#define fx_set_planes(fx, planes) harness_fx_set_planes (&(fx)->base, planes)
#define verify_output(fx, in, out, what) \
  harness_fx_verify (&(fx)->base, in, out, what)
#define fx_check_buffer(fx, in, what) \
  harness_fx_check_buffer (&(fx)->base, in, what)
#define fx_check_frame(fx, layout, what) \
  harness_fx_check_frame (&(fx)->base, layout, 0, what)
/* A test of the suite's Fx (a loop test too: salt + __i__ its salt)
 * whose body, written after it as after GST_START_TEST, runs on the
 * fixture opened before it (fx_init()) and closed after it (fx_clear()):
 * in the body `fx` is the suite's Fx, and __i__ the loop's index. */
#define FX_TEST(test, salt)                                           \
static void test##_body (Fx * fx, int __i__);                         \
GST_START_TEST (test)                                                 \
{                                                                     \
  Fx fx;                                                              \
                                                                      \
  fx_init (&fx, (salt) + __i__);                                      \
  test##_body (&fx, __i__);                                           \
  fx_clear (&fx);                                                     \
}                                                                     \
GST_END_TEST;                                                         \
static void                                                           \
test##_body (Fx * fx, int G_GNUC_UNUSED __i__)

/* A loop test (__i__: the format group; salt + __i__ its salt) of the
 * suite's Fx whose body, written after it as after GST_START_TEST, runs
 * for each of the group's formats in turn, all through one harness
 * (harness_fx_for_group()). In the body `fx` is the suite's Fx, `fmt` the
 * format, `position` its place in the group, `fi` its index in
 * all_formats and `lead` that of the group's first. */
#define FX_GROUP_TEST(test, salt)                                     \
static void test##_format (Fx * fx, GstVideoFormat fmt, guint position, \
    guint fi, guint lead);                                            \
static void                                                           \
test##_each (HarnessFx * base, GstVideoFormat fmt, guint position,    \
    guint fi, guint lead)                                             \
{                                                                     \
  test##_format (FX (base), fmt, position, fi, lead);                 \
}                                                                     \
GST_START_TEST (test)                                                 \
{                                                                     \
  Fx fx;                                                              \
                                                                      \
  fx_init (&fx, (salt) + __i__);                                      \
  harness_fx_for_group (&fx.base, __i__, test##_each);                \
  fx_clear (&fx);                                                     \
}                                                                     \
GST_END_TEST;                                                         \
static void                                                           \
test##_format (Fx * fx, GstVideoFormat fmt, guint position, guint fi, \
    guint lead)

/* a random frame, `what` printf-style */
#define fx_check(fx, ...) \
  harness_fx_check_what (&(fx)->base, g_strdup_printf (__VA_ARGS__))

G_END_DECLS

#endif
