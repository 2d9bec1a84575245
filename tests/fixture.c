/* tests/fixture.c: the one fixture of the element suites (fixture.h) —
 * opening and closing it, caps, the base-class properties, the
 * push-and-compare every element's check runs, and the test outlines the
 * element suites share, each given the element's reference through its
 * FxElement or a callback. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "fixture.h"

void
harness_fx_init (HarnessFx * fx, gsize fx_size, const FxElement * element,
    RefConv * common, const gchar * launch, const gchar * name,
    guint32 base_seed, guint salt)
{
  memset (fx, 0, fx_size);
  fx->element = element;
  if (element->init)
    element->init (fx);
  fx->algorithm = element->algorithm;
  fx->common = common;
  fx->base_seed = base_seed;
  fx->seed = harness_fx_open (element->name, launch, name, base_seed, salt,
      &fx->h, &fx->el, &fx->rand);
  fx->n_elements = 1;
  if (g_getenv ("VKTILE_TRACE"))
    g_printerr ("[trace] === test salt %u at %.3f s\n", salt,
        g_get_monotonic_time () / 1e6);
}

void
harness_fx_clear (HarnessFx * fx)
{
  harness_fx_close (fx->h, fx->el, fx->rand, &fx->pool);
  if (fx->element->clear)
    fx->element->clear (fx);
}

void
harness_fx_set_caps (HarnessFx * fx, GstVideoFormat format, gint width,
    gint height)
{
  GstVideoInfo old = fx->info;

  harness_set_video_caps (fx->h, &fx->pool, &fx->info, format, width,
      height);
  if (fx->element->restart && (!fx->have_caps
          || !gst_video_info_is_equal (&old, &fx->info)))
    fx->element->restart (fx);
  fx->have_caps = TRUE;
}

void
harness_fx_flush (HarnessFx * fx)
{
  harness_flush_restart (fx->h, &fx->pts);
  if (fx->element->restart)
    fx->element->restart (fx);
}

GstBuffer *
harness_fx_push (HarnessFx * fx, GstBuffer * in)
{
  return harness_push_frame (fx->h, in, &fx->pts, &fx->info, fx->algorithm);
}

void
harness_fx_set_border (HarnessFx * fx, RefBorder b, gdouble value)
{
  harness_set_border (fx->el, fx->common, b, value);
}

void
harness_fx_set_roi (HarnessFx * fx, gint x, gint y, gint w, gint h, gint sx,
    gint sy)
{
  harness_set_roi (fx->el, fx->common, x, y, w, h, sx, sy);
}

void
harness_fx_set_roi_case (HarnessFx * fx, const RoiCase roi)
{
  harness_fx_set_roi (fx, roi[0], roi[1], roi[2], roi[3], roi[4], roi[5]);
}

void
harness_fx_set_planes (HarnessFx * fx, guint planes)
{
  harness_set_planes (fx->el, fx->common, planes);
}

void
harness_fx_verify (HarnessFx * fx, GstBuffer * in, GstBuffer * out,
    const gchar * what)
{
  const FxElement *e = fx->element;
  const gchar *algorithm = fx->algorithm ? fx->algorithm : "-";
  GstVideoFrame fin, fout, fref, fdown;
  GstBuffer *refbuf, *downbuf = NULL;
  Mismatch mm, same;

  fail_unless (gst_video_frame_map (&fin, &fx->info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &fx->info, out, GST_MAP_READ),
      "cannot map the output buffer as %s %dx%d",
      GST_VIDEO_INFO_NAME (&fx->info), GST_VIDEO_INFO_WIDTH (&fx->info),
      GST_VIDEO_INFO_HEIGHT (&fx->info));
  refbuf = new_frame_buffer (&fx->info, &fref);
  e->filter (fx, &fin, &fref, FALSE);

  if (compare_frames (&fout, &fref, e->tol, &mm) > 0) {
    gchar *desc = e->describe (fx);
    guint input = mm.comp < 100 ? ref_comp_get (&fin, mm.comp, mm.x, mm.y) : 0;

    fail ("VKTILE_SEED=%u (test seed %u) %s: format %s %dx%d algorithm %s, "
        "%s: %u values off by more than %u; first at x=%d y=%d plane %u %s "
        "%u: got %u want %u (input %u)", fx->base_seed, fx->seed, what,
        GST_VIDEO_INFO_NAME (&fx->info), GST_VIDEO_INFO_WIDTH (&fx->info),
        GST_VIDEO_INFO_HEIGHT (&fx->info), algorithm, desc, mm.count, e->tol,
        mm.x, mm.y, mm.plane, mm.comp < 100 ? "component" : "padding byte",
        mm.comp < 100 ? mm.comp : mm.comp - 100, mm.got, mm.want, input);
    g_free (desc);
  }

  /* Rounding to nearest: the tolerance would also pass truncation or
   * another systematic offset, which moves a good part of the values;
   * fp32 noise moves only those within a hair of a .5 boundary. An exact
   * tie may go either way (ties to even is rounding to nearest too), so
   * values that match the reference with ties rounded down pass. */
  if (e->rounding.fraction || e->rounding.bound) {
    guint n_values, off, bound;

    if (e->rounding.ties_down_reference) {
      downbuf = new_frame_buffer (&fx->info, &fdown);
      e->filter (fx, &fin, &fdown, TRUE);
    }
    off = count_rounding_off (&fout, &fref, downbuf ? &fdown : &fref,
        e->rounding.depth, what, &n_values);
    bound = e->rounding.bound ? e->rounding.bound (fx, n_values)
        : MAX (e->rounding.floor, n_values / e->rounding.fraction);
    fail_unless (off <= bound, "VKTILE_SEED=%u %s: format %s %dx%d "
        "algorithm %s: %u of %u values differ by 1 from the reference "
        "(bound %u): not rounded to nearest, or the state lost precision?",
        fx->base_seed, what, GST_VIDEO_INFO_NAME (&fx->info),
        GST_VIDEO_INFO_WIDTH (&fx->info), GST_VIDEO_INFO_HEIGHT (&fx->info),
        algorithm, off, n_values, bound);
  }

  if (compare_frames (&fout, &fin, 0, &same) > 0)
    fx->n_changed++;
  fx->n_frames++;

  if (downbuf)
    free_frame_buffer (downbuf, &fdown);
  free_frame_buffer (refbuf, &fref);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
}

/* VKTILE_TRACE=1: a frame's settings before it is pushed. */
static void
fx_trace (HarnessFx * fx, const gchar * what)
{
  gchar *desc;

  if (!g_getenv ("VKTILE_TRACE"))
    return;
  desc = fx->element->describe (fx);
  g_printerr ("[trace] %s: %s %dx%d algorithm %s, %s\n", what,
      GST_VIDEO_INFO_NAME (&fx->info), GST_VIDEO_INFO_WIDTH (&fx->info),
      GST_VIDEO_INFO_HEIGHT (&fx->info), GST_STR_NULL (fx->algorithm), desc);
  g_free (desc);
}

void
harness_fx_check_buffer (HarnessFx * fx, GstBuffer * in, const gchar * what)
{
  GstBuffer *out;
  gint64 t0, t1;

  fx_trace (fx, what);
  t0 = g_get_monotonic_time ();
  out = harness_fx_push (fx, gst_buffer_ref (in));
  t1 = g_get_monotonic_time ();
  harness_fx_verify (fx, in, out, what);
  harness_trace_times (t0, t1);
  fail_unless (count_metas (out) == fx->n_elements, "%s: %u timing metas "
      "on an output buffer, want %u", what, count_metas (out),
      fx->n_elements);
  if (fx->element->checked)
    fx->element->checked (fx, what);
  poison_buffer (out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

void
harness_fx_check_frame (HarnessFx * fx, Layout layout, GstBufferFlags flags,
    const gchar * what)
{
  GstBuffer *in = make_test_frame (fx->h, &fx->info, &fx->pool, fx->rand,
      layout, fx->element->content);

  GST_BUFFER_FLAG_SET (in, flags);
  harness_fx_check_buffer (fx, in, what);
}

void
harness_fx_check_what (HarnessFx * fx, gchar * what)
{
  harness_fx_check_frame (fx, LAYOUT_DEFAULT, 0, what);
  g_free (what);
}

void
harness_fx_check_noise_estimate (HarnessFx * fx, const gdouble * want,
    const gchar * what)
{
  gdouble est[GST_VIDEO_MAX_PLANES];
  guint n = get_double_array (fx->el, "noise-estimate", est,
      G_N_ELEMENTS (est)), plane;

  fail_unless_equals_int (n, ref_n_filtered_planes (&fx->info));
  for (plane = 0; plane < n; plane++)
    fail_unless (fabs (est[plane] / want[plane] - 1.0) < 1e-5,
        "VKTILE_SEED=%u %s %s plane %u: noise-estimate %.7g, the "
        "reference's %.7g", fx->base_seed, what,
        GST_VIDEO_INFO_NAME (&fx->info), plane, est[plane], want[plane]);
}

void
harness_fx_watch_memory (HarnessFx * fx)
{
  probe_pad_memory (fx->el, "sink", fx->memory_in);
  probe_pad_memory (fx->el, "src", fx->memory_out);
}

void
harness_fx_check_vulkan_memory (HarnessFx * fx, guint n)
{
  fail_unless (fx->memory_in[0] == n && fx->memory_in[1] == 0
      && fx->memory_out[0] == n && fx->memory_out[1] == 0, "%s: frames in "
      "%u VulkanBuffer, %u other; out %u VulkanBuffer, %u other (want %u "
      "VulkanBuffer)", GST_VIDEO_INFO_NAME (&fx->info), fx->memory_in[0],
      fx->memory_in[1], fx->memory_out[0], fx->memory_out[1], n);
}

void
harness_fx_for_group (HarnessFx * fx, guint group, FxGroupEach each)
{
  GstVideoFormat format;
  guint i, index, lead = 0;

  fx->group = group;
  harness_group_format (group, 0, &lead);
  for (i = 0; (format = harness_group_format (group, i, &index)); i++)
    each (fx, format, i, index, lead);
}

void
harness_fx_check_caps_changes (HarnessFx * fx)
{
  guint s;

  for (s = 0; s < n_caps_change_steps; s++) {
    gchar *what = g_strdup_printf ("after a caps change (step %u)", s);

    harness_fx_set_caps (fx, caps_change_steps[s].fmt,
        caps_change_steps[s].w, caps_change_steps[s].h);
    harness_fx_check_frame (fx, LAYOUT_DEFAULT, 0, what);
    harness_fx_check_what (fx, g_strdup_printf ("second frame %s", what));
    g_free (what);
  }
}

void
harness_fx_check_deterministic (HarnessFx * fx)
{
  check_deterministic (fx->h, make_frame (&fx->info, fx->rand,
          LAYOUT_DEFAULT, fx->element->content), &fx->pts, &fx->info,
      fx->algorithm);
}

guint
harness_fx_push_changes (HarnessFx * fx, guint tol, gboolean poison,
    Mismatch * mm)
{
  return harness_push_changes (fx->h, &fx->pts, &fx->info, fx->algorithm,
      fx->rand, tol, poison, mm);
}

void
harness_fx_check_toggled (HarnessFx * fx, const Toggle * toggle, guint n_frames)
{
  check_toggled_while_streaming (fx->h, fx->el, &fx->info, fx->rand,
      fx->element->content, &fx->pts, fx->algorithm, toggle, n_frames,
      fx->element->tol, fx->base_seed);
}

GstBuffer *
harness_fx_push_timed (HarnessFx * fx, const gchar * name, guint frame,
    GstVkTileTimingMeta ** meta)
{
  GstBuffer *out = harness_fx_push (fx, make_frame (&fx->info, fx->rand,
          LAYOUT_DEFAULT, CONTENT_NOISE));
  GstVkTileTimingMeta *m;
  GstBuffer *copy;

  fail_unless_equals_int (count_metas (out), 1);
  check_meta (out, name, frame);
  m = gst_vktile_timing_meta_get (out, name);
  fail_unless (m != NULL);
  if (meta)
    *meta = m;
  /* the meta survives a copy of the buffer */
  copy = gst_buffer_copy (out);
  fail_unless_equals_int (count_metas (copy), 1);
  gst_buffer_unref (copy);
  return out;
}

/* The element's reference with roi's ROI (a RefWithRoi; data: the
 * HarnessFx). */
static void
fx_filter_with_roi (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * roi, gpointer data)
{
  HarnessFx *fx = data;
  RefConv settings = *fx->common;

  ref_conv_set_roi (fx->common, roi);
  fx->element->filter (fx, in, out, FALSE);
  *fx->common = settings;
}

void
harness_fx_check_roi_meta (HarnessFx * fx, guint n,
    const gchar * const *types, gint padding, const gchar * what)
{
  GstBuffer *in = make_frame (&fx->info, fx->rand, LAYOUT_DEFAULT,
      fx->element->content);
  GstBuffer *out;

  add_region_metas (in, roi_meta_regions, n);
  out = harness_fx_push (fx, gst_buffer_ref (in));
  check_roi_meta (&fx->info, in, out, roi_meta_regions, n, types, padding,
      fx->common->planes, fx_filter_with_roi, fx, fx->element->tol,
      fx->base_seed, what);
  poison_buffer (out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

gchar *
harness_chain_launch (const gchar * element, GstVideoFormat format)
{
  return g_strdup_printf ("%s name=a ! video/x-raw(memory:VulkanBuffer),"
      "format=%s ! %s name=b", element, gst_video_format_to_string (format),
      element);
}

void
harness_fx_check_chain (HarnessFx * fx, GstVideoFormat format, gint width,
    gint height, guint n_steps, ChainStep setup, RefApply ref,
    gconstpointer ref_a, guint64 * a_download, guint64 * b_upload)
{
  GstElement *b = harness_get_element (fx->h, fx->element->name, "b");
  guint counts[2] = { 0, 0 };
  guint i;

  probe_pad_memory (b, "sink", counts);
  harness_fx_set_caps (fx, format, width, height);
  for (i = 0; i < n_steps; i++) {
    gconstpointer ref_b = setup (fx, b, i);
    GstBuffer *in = make_frame (&fx->info, fx->rand, LAYOUT_DEFAULT,
        fx->element->content);
    GstBuffer *out = harness_fx_push (fx, gst_buffer_ref (in));

    if (a_download)
      *a_download = MAX (*a_download,
          gst_vktile_timing_meta_get (out, "a")->download_ns);
    if (b_upload)
      *b_upload = MAX (*b_upload,
          gst_vktile_timing_meta_get (out, "b")->upload_ns);
    check_chain_output (&fx->info, in, out, ref, ref_a, ref_b, i, counts,
        fx->base_seed);
  }
  gst_object_unref (b);
}

void
set_properties (GstElement * el, const gchar * props)
{
  gchar **pairs = g_strsplit (props, " ", -1);
  guint i;

  for (i = 0; pairs[i]; i++) {
    gchar **kv = g_strsplit (pairs[i], "=", 2);

    fail_unless (kv[0] && kv[1], "not prop=value: %s", pairs[i]);
    gst_util_set_object_arg (G_OBJECT (el), kv[0], kv[1]);
    g_strfreev (kv);
  }
  g_strfreev (pairs);
}

GstElement *
harness_new_element (const gchar * element)
{
  require_element_named (element);
  return gst_element_factory_make (element, NULL);
}

void
check_element_interface (GstElement * el, const gchar * const *own,
    const gchar * const *animated)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (el);
  gchar *name =
      g_strdup (GST_OBJECT_NAME (gst_element_get_factory (el)));

  check_base_class_specs (klass);
  if (animated)
    check_controllable (klass, animated);
  if (own)
    check_blurbs (klass, own);
  gst_object_unref (el);
  check_pad_templates (name, all_formats, N_FORMATS);
  g_free (name);
}

/* A number property's value as a double (int, uint or double). */
static gdouble
number_property (GstElement * el, const gchar * prop)
{
  GValue v = G_VALUE_INIT, d = G_VALUE_INIT;
  gdouble value;

  g_value_init (&d, G_TYPE_DOUBLE);
  g_object_get_property (G_OBJECT (el), prop, &v);
  fail_unless (g_value_transform (&v, &d), "%s is not a number", prop);
  value = g_value_get_double (&d);
  g_value_unset (&v);
  return value;
}

void
check_refused_numbers (GstElement * el, const gchar * prop,
    const gdouble * bad, guint n_bad)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (el),
      prop);
  gdouble kept = number_property (el, prop), now;
  guint i;

  fail_unless (pspec != NULL, "no property %s", prop);
  for (i = 0; i < n_bad; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (pspec));
    if (G_VALUE_HOLDS_DOUBLE (&v))
      g_value_set_double (&v, bad[i]);
    else if (G_VALUE_HOLDS_UINT (&v))
      g_value_set_uint (&v, (guint) bad[i]);
    else
      g_value_set_int (&v, (gint) bad[i]);
    ASSERT_WARNING (g_object_set_property (G_OBJECT (el), prop, &v));
    g_value_unset (&v);
  }
  now = number_property (el, prop);
  fail_unless (now == kept, "%s changed to %g, was %g", prop, now, kept);
}

/* The cases of the suites' test_roi, one list: x, y, w, h, source-x,
 * source-y on 41x27. */
const RoiCase roi_small_cases[] = {
  {6, 4, 20, 12, -1, -1},       /* 0: inside, even */
  {1, 3, 19, 11, -1, -1},       /* 1: x = 1: GRAY8 words split */
  {3, 2, 15, 8, 17, 13},        /* 2: source elsewhere, x = 3 */
  {5, 5, 11, 9, 24, 7},         /* 3: odd target and source */
  {2, 1, 9, 7, 1, 16},          /* 4: source below, odd */
  {30, 20, 20, 20, -1, -1},     /* 5: clipped by the frame */
  {4, 4, 16, 10, 33, 22},       /* 6: source clipped by the frame */
  {9, 0, 1, 0, -1, -1},         /* 7: 1 wide, to the bottom edge */
  {0, 13, 0, 1, 7, 3},          /* 8: 1 high, to the right edge, moved */
  {10, 3, 1, 1, 21, 8},         /* 9: a single pixel, moved */
  {17, 9, 0, 0, -1, -1},        /* 10: to the edges */
  {41, 0, 5, 5, -1, -1},        /* 11: outside: a copy */
  {0, 0, 0, 0, 40, 26},         /* 12: source is the last pixel: 1x1 */
  {1, 1, 39, 25, 0, 0},         /* 13: overlapping, shifted by one */
  {5, 3, 19, 11, -1, -1},       /* 14: inside, odd */
  {4, 2, 15, 8, 17, 13},        /* 15: source elsewhere */
  {3, 5, 11, 9, 24, 7},         /* 16: odd target and source */
};

/* recursivefilter: all but the last three (the words of GRAY8 split) */
const guint roi_small_recursivefilter[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
  10, 11, 12, 13
};
const guint n_roi_small_recursivefilter =
G_N_ELEMENTS (roi_small_recursivefilter);

/* tiledconv: the odd cases at other offsets */
const guint roi_small_tiledconv[] = { 0, 14, 15, 16, 4, 5, 6, 7, 8, 9, 10,
  11, 12, 13
};
const guint n_roi_small_tiledconv = G_N_ELEMENTS (roi_small_tiledconv);

/* gaussblur: fewer (its pipelines cost more) */
const guint roi_small_gaussblur[] = { 0, 2, 3, 5, 6, 7, 8, 9, 11, 13 };
const guint n_roi_small_gaussblur = G_N_ELEMENTS (roi_small_gaussblur);

/* x, y, w, h, source-x, source-y on 257x130 */
const RoiCase roi_large_cases[] = {
  {37, 21, 150, 90, 61, 33},
  {64, 32, 128, 64, 1, 3},      /* tile-aligned target, odd source */
  {3, 5, 0, 0, -1, -1},         /* to the edges */
  {100, 40, 200, 200, 0, 0},    /* clipped */
};

const guint n_roi_large_cases = G_N_ELEMENTS (roi_large_cases);
