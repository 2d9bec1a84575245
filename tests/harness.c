/* tests/harness.c: what the element tests share — frame comparison with the
 * first mismatch reported, random fill, property helpers for numeric arrays
 * and enums, and the timing-meta and memory probes. */
#include "harness.h"

#include <gst/vulkan/vulkan.h>
#include <string.h>

void
set_double_array (GstElement * el, const gchar * prop, const gdouble * v,
    guint n)
{
  GValue arr = G_VALUE_INIT, item = G_VALUE_INIT;
  guint i;

  g_value_init (&arr, GST_TYPE_ARRAY);
  g_value_init (&item, G_TYPE_DOUBLE);
  for (i = 0; i < n; i++) {
    g_value_set_double (&item, v[i]);
    gst_value_array_append_value (&arr, &item);
  }
  g_object_set_property (G_OBJECT (el), prop, &arr);
  g_value_unset (&item);
  g_value_unset (&arr);
}

/* Reads a GstValueArray property as doubles; returns its length. */
guint
get_double_array (GstElement * el, const gchar * prop, gdouble * v, guint max)
{
  GValue arr = G_VALUE_INIT;
  guint i, n;

  g_value_init (&arr, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (el), prop, &arr);
  n = gst_value_array_get_size (&arr);
  for (i = 0; i < n && i < max; i++) {
    const GValue *item = gst_value_array_get_value (&arr, i);
    GValue d = G_VALUE_INIT;

    g_value_init (&d, G_TYPE_DOUBLE);
    fail_unless (g_value_transform (item, &d), "%s[%u] is not a number", prop,
        i);
    v[i] = g_value_get_double (&d);
  }
  g_value_unset (&arr);
  return n;
}

/* The nick of an enum property's current value (static string). */
const gchar *
get_enum_nick (GstElement * el, const gchar * prop)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (el),
      prop);
  GEnumValue *ev;
  gint v;

  fail_unless (pspec && G_IS_PARAM_SPEC_ENUM (pspec), "%s is not an enum",
      prop);
  g_object_get (el, prop, &v, NULL);
  ev = g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class, v);
  fail_unless (ev != NULL, "%s has an unknown value %d", prop, v);
  return ev->value_nick;
}

void
fill_random (GRand * r, guint8 * data, gsize size)
{
  gsize i;

  for (i = 0; i < size; i++)
    data[i] = g_rand_int (r) >> 24;
}

gint
plane_first_comp (const GstVideoInfo * info, guint plane)
{
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if (GST_VIDEO_INFO_COMP_PLANE (info, c) == plane)
      return c;
  g_assert_not_reached ();
  return 0;
}

/* Compares every visible value of every component (tolerance tol) and every
 * padding byte inside a pixel (exact). Returns the number of mismatches. */
guint
compare_frames (const GstVideoFrame * got, const GstVideoFrame * want,
    guint tol, Mismatch * mm)
{
  const GstVideoFormatInfo *finfo = got->info.finfo;
  guint c, p;
  gint x, y, b;

  memset (mm, 0, sizeof (*mm));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (got); c++) {
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (got, c); y++) {
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (got, c); x++) {
        guint g = ref_comp_get (got, c, x, y);
        guint w = ref_comp_get (want, c, x, y);

        if ((g > w ? g - w : w - g) > tol) {
          if (mm->count++ == 0) {
            mm->comp = c;
            mm->plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
            mm->x = x;
            mm->y = y;
            mm->got = g;
            mm->want = w;
          }
        }
      }
    }
  }

  /* Bytes of a pixel that belong to no component: the x of RGBx/BGRx. */
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (got); p++) {
    gint c0 = plane_first_comp (&got->info, p);
    gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c0);
    gboolean covered[8] = { FALSE };

    for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (got); c++) {
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
        continue;
      covered[GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c)] = TRUE;
      if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) > 8)
        covered[GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) + 1] = TRUE;
    }
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (got, c0); y++) {
      const guint8 *rg = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (got, p)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (got, p);
      const guint8 *rw = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (want, p)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (want, p);

      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (got, c0); x++) {
        for (b = 0; b < pstride; b++) {
          gsize o = (gsize) x * pstride + b;

          if (covered[b] || rg[o] == rw[o])
            continue;
          if (mm->count++ == 0) {
            mm->comp = 100 + b;       /* reported as "padding byte" */
            mm->plane = p;
            mm->x = x;
            mm->y = y;
            mm->got = rg[o];
            mm->want = rw[o];
          }
        }
      }
    }
  }
  return mm->count;
}

GstPadProbeReturn
count_vulkan_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  guint *counts = data;
  guint i, vk = 0;

  for (i = 0; i < gst_buffer_n_memory (buf); i++)
    vk += gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (buf, i));
  counts[vk == gst_buffer_n_memory (buf) ? 0 : 1]++;
  return GST_PAD_PROBE_OK;
}

void
check_meta (GstBuffer * buf, const gchar * name, guint64 frame_index)
{
  GstVkTileTimingMeta *m = gst_vktile_timing_meta_get (buf, name);

  fail_unless (m != NULL, "no timing meta of %s", name);
  fail_unless_equals_string (m->element_name, name);
  fail_unless (m->frame_index == frame_index, "%s: frame_index %"
      G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT, name, m->frame_index,
      frame_index);
  fail_unless (m->dispatches > 0, "%s: no dispatches", name);
  fail_unless (m->cpu_ns > 0, "%s: cpu_ns is 0", name);
}

guint
count_metas (GstBuffer * buf)
{
  gpointer state = NULL;
  guint n = 0;

  fail_unless (gst_vktile_timing_meta_api_get_type () != 0,
      "GstVkTileTimingMeta API type not registered");
  while (gst_buffer_iterate_meta_filtered (buf, &state,
          gst_vktile_timing_meta_api_get_type ()))
    n++;
  return n;
}

void
check_enum_nicks (GObjectClass * klass, const gchar * prop,
    const gchar * const *nicks, const gchar * def)
{
  GParamSpec *pspec = g_object_class_find_property (klass, prop);
  GEnumClass *eclass;
  const gchar *const *n;

  fail_unless (pspec != NULL, "no property %s", prop);
  fail_unless (G_IS_PARAM_SPEC_ENUM (pspec), "%s is not an enum", prop);
  eclass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  for (n = nicks; *n; n++)
    fail_unless (g_enum_get_value_by_nick (eclass, *n) != NULL,
        "%s has no value %s", prop, *n);
  fail_unless_equals_string (g_enum_get_value (eclass,
          G_PARAM_SPEC_ENUM (pspec)->default_value)->value_nick, def);
}
