/* tests/harness.c: what the element tests share — random frames (noise,
 * smooth content, edges; packed, padded or odd layouts, or from the pool the
 * element proposes), frame comparison with the first mismatch reported,
 * poisoning of returned buffers, property helpers for numeric arrays and
 * enums, and the timing-meta and memory probes; and what the element
 * suites used to copy from each other: the core of their fixtures, the
 * property-spec checks, the caps and plane-mask tables, and the checks of
 * determinism, rounding, chains and properties toggled while streaming. */
#include "harness.h"

#include <gst/vulkan/vulkan.h>
#include <math.h>
#include <stdlib.h>
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

gboolean
count_caught_log (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer data)
{
  (*(guint *) data)++;
  return TRUE;
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
      covered[ref_comp_offset (finfo, c)] = TRUE;
      if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) > 8)
        covered[ref_comp_offset (finfo, c) + 1] = TRUE;
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

/* Both pads of `element` take every format of `formats`, in
 * system memory and in VulkanBuffer memory. */
void
check_pad_templates (const gchar * element, const GstVideoFormat * formats,
    guint n_formats)
{
  GstElementFactory *f;
  const GList *l;
  guint i, seen = 0;

  f = gst_element_factory_find (element);
  fail_unless (f != NULL, "no element %s", element);
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps = gst_static_pad_template_get_caps (t);

    for (i = 0; i < n_formats; i++) {
      const gchar *fmt = gst_video_format_to_string (formats[i]);
      gchar *sys = g_strdup_printf ("video/x-raw,format=%s", fmt);
      gchar *vk = g_strdup_printf ("video/x-raw(memory:VulkanBuffer),"
          "format=%s", fmt);
      gchar *img = g_strdup_printf ("video/x-raw(memory:VulkanImage),"
          "format=%s", fmt);
      GstCaps *csys = gst_caps_from_string (sys);
      GstCaps *cvk = gst_caps_from_string (vk);
      GstCaps *cimg = gst_caps_from_string (img);
      gboolean image = FALSE;
      guint k;

      for (k = 0; k < N_IMAGE_FORMATS; k++)
        image |= image_formats[k] == formats[i];
      fail_unless (gst_caps_can_intersect (caps, csys), "%s pad: no %s",
          t->name_template, sys);
      fail_unless (gst_caps_can_intersect (caps, cvk), "%s pad: no %s",
          t->name_template, vk);
      fail_unless_equals_int (gst_caps_can_intersect (caps, cimg), image);
      gst_caps_unref (csys);
      gst_caps_unref (cvk);
      gst_caps_unref (cimg);
      g_free (sys);
      g_free (vk);
      g_free (img);
    }
    gst_caps_unref (caps);
    seen++;
  }
  fail_unless_equals_int (seen, 2);
  gst_object_unref (f);
}

/* Fails the test when `element` is not registered. */
void
require_element_named (const gchar * element)
{
  GstElementFactory *f = gst_element_factory_find (element);

  fail_unless (f != NULL, "element %s not found: is the freshly built "
      "plugin on GST_PLUGIN_PATH_1_0 (tests/run.sh sets it)?", element);
  gst_object_unref (f);
}

/* The harnessed element, or in a harnessed bin the one called `name` (NULL:
 * the first of factory `element`); a new reference. */
GstElement *
harness_get_element (GstHarness * h, const gchar * element,
    const gchar * name)
{
  GstElement *el;

  if (!GST_IS_BIN (h->element))
    return gst_object_ref (h->element);
  if (name)
    el = gst_bin_get_by_name (GST_BIN (h->element), name);
  else
    el = gst_harness_find_element (h, element);
  fail_unless (el != NULL, "no %s %s in the harness", element,
      GST_STR_NULL (name));
  return el;
}

/* Pushes one frame (timestamped from *pts, which advances by a 30 fps
 * frame) and returns the output (owned); info and algorithm only name the
 * case when it fails. */
GstBuffer *
harness_push_frame (GstHarness * h, GstBuffer * in, GstClockTime * pts,
    const GstVideoInfo * info, const gchar * algorithm)
{
  GstFlowReturn ret;
  GstBuffer *out;

  GST_BUFFER_PTS (in) = *pts;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  *pts += GST_SECOND / 30;
  ret = gst_harness_push (h, in);
  fail_unless (ret == GST_FLOW_OK, "push returned %s (format %s %dx%d, "
      "algorithm %s)", gst_flow_get_name (ret), GST_VIDEO_INFO_NAME (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), algorithm);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "no output buffer");
  return out;
}

/* Deactivates and drops a pool from make_pool_frame(), if any. */
void
drop_pool (GstBufferPool ** pool)
{
  if (*pool) {
    gst_buffer_pool_set_active (*pool, FALSE);
    gst_object_unref (*pool);
    *pool = NULL;
  }
}

/* ---- random frames ---- */

/* Smooth content: 0.5 + three random sinusoids of periods >= min_period,
 * amplitudes summing to 0.45, in units of the range; plus noise of
 * +-noise. */
void
fill_smooth (GstVideoFrame * f, GRand * r, guint c, gdouble min_period,
    gdouble noise)
{
  gdouble maxv = ref_comp_maxv (f->info.finfo, c);
  gint w = GST_VIDEO_FRAME_COMP_WIDTH (f, c);
  gint h = GST_VIDEO_FRAME_COMP_HEIGHT (f, c);
  gdouble amp[3], fx[3], fy[3], ph[3], left = 0.45;
  gint i, x, y;

  for (i = 0; i < 3; i++) {
    gdouble fmax = 2 * G_PI / min_period;
    gdouble freq = g_rand_double_range (r, 0.05, 1.0) * fmax;
    gdouble dir = g_rand_double_range (r, 0, 2 * G_PI);

    amp[i] = i < 2 ? g_rand_double_range (r, 0.0, left) : left;
    left -= amp[i];
    fx[i] = freq * cos (dir);
    fy[i] = freq * sin (dir);
    ph[i] = g_rand_double_range (r, 0, 2 * G_PI);
  }
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      gdouble v = 0.5;
      for (i = 0; i < 3; i++)
        v += amp[i] * sin (fx[i] * x + fy[i] * y + ph[i]);
      v += noise * g_rand_double_range (r, -1.0, 1.0);
      ref_comp_set (f, c, x, y, (guint) CLAMP (floor (v * maxv + 0.5), 0,
              maxv));
    }
  }
}

/* Blocks of flat values (often black or white), a bright or dark frame
 * edge on some sides, and noise: steps that make a wrong border or a wrong
 * kernel length visible. */
void
fill_edges (GstVideoFrame * f, GRand * r, guint c)
{
  gdouble maxv = ref_comp_maxv (f->info.finfo, c);
  gint w = GST_VIDEO_FRAME_COMP_WIDTH (f, c);
  gint h = GST_VIDEO_FRAME_COMP_HEIGHT (f, c);
  gdouble bg = g_rand_double (r), noise = g_rand_double_range (r, 0, 0.08);
  gint rect[4][4];
  gdouble level[4], edge[4];
  gint i, x, y;

  for (i = 0; i < 4; i++) {
    rect[i][0] = g_rand_int_range (r, -w / 4, w);
    rect[i][1] = g_rand_int_range (r, -h / 4, h);
    rect[i][2] = g_rand_int_range (r, 1, w / 2 + 2);
    rect[i][3] = g_rand_int_range (r, 1, h / 2 + 2);
    level[i] = g_rand_int_range (r, 0, 3) / 2.0;
    /* each side of the frame: 1 bright, 0 dark, -1 as the content */
    edge[i] = g_rand_int_range (r, 0, 3) == 0 ? -1 : g_rand_int_range (r, 0,
        2);
  }
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      gdouble v = bg;
      for (i = 0; i < 4; i++)
        if (x >= rect[i][0] && x < rect[i][0] + rect[i][2]
            && y >= rect[i][1] && y < rect[i][1] + rect[i][3])
          v = level[i];
      if (x == 0 && edge[0] >= 0)
        v = edge[0];
      if (x == w - 1 && edge[1] >= 0)
        v = edge[1];
      if (y == 0 && edge[2] >= 0)
        v = edge[2];
      if (y == h - 1 && edge[3] >= 0)
        v = edge[3];
      v += noise * g_rand_double_range (r, -1.0, 1.0);
      ref_comp_set (f, c, x, y, (guint) CLAMP (floor (v * maxv + 0.5), 0,
              maxv));
    }
  }
}

/* Random bytes make values beyond a 10-bit format's range (1023 in 16
 * bits), or low bits that P010_10LE leaves zero: make them what a real
 * source sends. */
static void
keep_in_range (GstVideoFrame * f, guint c)
{
  guint maxv = (guint) ref_comp_maxv (f->info.finfo, c);
  guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (f->info.finfo, c);
  gint x, y;

  if ((maxv == 255 || maxv == 65535) && shift == 0)
    return;
  for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (f, c); y++)
    for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (f, c); x++)
      ref_comp_set (f, c, x, y,
          (ref_comp_get (f, c, x, y) % (maxv + 1)) >> shift << shift);
}

void
fill_content (GstVideoFrame * f, GRand * r, Content content)
{
  guint c;

  if (content == CONTENT_ANY)
    content = g_rand_int_range (r, 0, CONTENT_KINDS);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (f); c++) {
    if (content == CONTENT_SMOOTH)
      fill_smooth (f, r, c, g_rand_double_range (r, 6, 40), 0.02);
    else if (content == CONTENT_EDGES)
      fill_edges (f, r, c);
    else
      keep_in_range (f, c);
  }
}

/* A random frame. Padded layouts carry a GstVideoMeta whose strides and
 * plane offsets differ from the defaults; every byte, the padding included,
 * is random first, so reading a gap shows up as a wrong value. */
GstBuffer *
make_frame (const GstVideoInfo * info, GRand * r, Layout layout,
    Content content)
{
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  gboolean wide = GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0) > 8;
  GstVideoFrame frame;
  GstBuffer *buf;
  GstMapInfo map;
  gsize pos;
  guint p;

  if (layout == LAYOUT_DEFAULT) {
    buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  } else {
    gint step = layout == LAYOUT_ODD ? (wide ? 2 : 1) : 4;

    pos = layout == LAYOUT_ODD ? 3 * step : 64;
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
      gint c = plane_first_comp (info, p);

      strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) +
          (layout == LAYOUT_ODD ? (2 * p + 5) * step : 64 + 4 * p);
      offsets[p] = pos;
      pos += (gsize) strides[p] * GST_VIDEO_INFO_COMP_HEIGHT (info, c)
          + 7 * step;
    }
    buf = gst_buffer_new_allocate (NULL, pos, NULL);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        offsets, strides);
  }
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  fill_random (r, map.data, map.size);
  gst_buffer_unmap (buf, &map);
  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buf,
          GST_MAP_WRITE));
  fill_content (&frame, r, content);
  gst_video_frame_unmap (&frame);
  return buf;
}

/* Overwrites an output buffer that is about to go back to the element's
 * pool, so that stale right answers cannot hide a value left unwritten. */
void
poison_buffer (GstBuffer * buf)
{
  GstMapInfo map;

  if (!gst_buffer_is_writable (buf))
    return;
  if (gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
    memset (map.data, 0xa5, map.size);
    gst_buffer_unmap (buf, &map);
  }
}

/* Number of values where two frames differ by more than tol. */
guint
count_diff (const GstVideoFrame * a, const GstVideoFrame * b, guint tol)
{
  Mismatch mm;

  return compare_frames (a, b, tol, &mm);
}

/* A frame in and what the element made of it, both of info, mapped for
 * reading; unmap_in_out() unmaps them again. */
static void
map_in_out (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    GstVideoFrame * fin, GstVideoFrame * fout)
{
  fail_unless (gst_video_frame_map (fin, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (fout, (GstVideoInfo *) info, out,
          GST_MAP_READ));
}

static void
unmap_in_out (GstVideoFrame * fin, GstVideoFrame * fout)
{
  gst_video_frame_unmap (fout);
  gst_video_frame_unmap (fin);
}

GstBuffer *
new_frame_buffer (const GstVideoInfo * info, GstVideoFrame * f)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);

  fail_unless (gst_video_frame_map (f, (GstVideoInfo *) info, buf,
          GST_MAP_READWRITE));
  return buf;
}

const MetaRegion roi_meta_regions[] = {
  {"face", 5, 4, 20, 14},
  {"person", 40, 10, 30, 30},   /* not listed: left alone */
  {"license-plate", 60, 33, 25, 11},
  {"face", 17, 12, 19, 15},     /* overlaps the first: its result stays */
  {"face", 88, 52, 20, 20},     /* clipped by the frame */
  {"face", 50, 2, 1, 1},        /* one pixel, grown by the padding */
  {"face", 30, 44, 10, 8},      /* apart from the next, but they share */
  {"license-plate", 45, 44, 10, 8},     /* a word of GRAY8 and of chroma */
  {"face", 200, 10, 5, 5},      /* outside the frame even when grown */
};

const guint n_roi_meta_regions = G_N_ELEMENTS (roi_meta_regions);

void
add_region_metas (GstBuffer * buf, const MetaRegion * regions, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    fail_unless (gst_buffer_add_video_region_of_interest_meta (buf,
            regions[i].type, regions[i].x, regions[i].y, regions[i].w,
            regions[i].h) != NULL);
}

gboolean
meta_region_roi (const MetaRegion * r, gint padding, gint W, gint H,
    RefConv * roi)
{
  gint x0 = MAX (r->x - padding, 0), y0 = MAX (r->y - padding, 0);
  gint x1 = MIN (r->x + r->w + padding, W), y1 = MIN (r->y + r->h + padding,
      H);

  if (r->w <= 0 || r->h <= 0 || x1 <= x0 || y1 <= y0)
    return FALSE;
  roi->roi_x = x0;
  roi->roi_y = y0;
  roi->roi_width = x1 - x0;
  roi->roi_height = y1 - y0;
  roi->source_x = roi->source_y = -1;
  return TRUE;
}

/* Copies into `out` the values of `from` inside the target ROI of `roi`
 * (each component's plane ROI, SEMANTICS.md), for the components that
 * roi->planes selects. */
static void
copy_roi_values (GstVideoFrame * out, const GstVideoFrame * from,
    const RefConv * roi)
{
  gint tx, ty, px, py, w, h, x, y;
  guint c;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (out); c++) {
    if (!(roi->planes & (1u << c))
        || !ref_comp_roi (roi, out, c, &tx, &ty, &px, &py, &w, &h))
      continue;
    for (y = ty; y < ty + h; y++)
      for (x = tx; x < tx + w; x++)
        ref_comp_set (out, c, x, y, ref_comp_get (from, c, x, y));
  }
}

void
check_roi_meta (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const MetaRegion * regions, guint n, const gchar * const *types,
    gint padding, guint planes, RefWithRoi ref, gpointer data, guint tol,
    guint32 seed, const gchar * what)
{
  gint W = GST_VIDEO_INFO_WIDTH (info), H = GST_VIDEO_INFO_HEIGHT (info);
  GstVideoFrame fin, fout, fwant, fkept, ftmp;
  GstBuffer *want, *kept;
  guint i, filtered = 0;
  Mismatch mm;

  map_in_out (info, in, out, &fin, &fout);
  want = new_frame_buffer (info, &fwant);
  kept = new_frame_buffer (info, &fkept);
  fail_unless (ref_frame_copy (&fwant, &fin));
  fail_unless (ref_frame_copy (&fkept, &fin));
  for (i = 0; i < n; i++) {
    RefConv roi;
    GstBuffer *tmp;

    ref_conv_init (&roi);
    roi.planes = planes;
    if (!g_strv_contains (types, regions[i].type)
        || !meta_region_roi (&regions[i], padding, W, H, &roi))
      continue;
    tmp = new_frame_buffer (info, &ftmp);
    ref (&fin, &ftmp, &roi, data);
    copy_roi_values (&fwant, &ftmp, &roi);
    /* the element's values there, the input everywhere else */
    copy_roi_values (&fkept, &fout, &roi);
    free_frame_buffer (tmp, &ftmp);
    filtered++;
  }
  fail_unless (compare_frames (&fout, &fwant, tol, &mm) == 0,
      "VKTILE_SEED=%u %s %s: %u values off by more than %u; first at x=%d "
      "y=%d plane %u: got %u want %u", seed, what, GST_VIDEO_INFO_NAME (info),
      mm.count, tol, mm.x, mm.y, mm.plane, mm.got, mm.want);
  fail_unless (compare_frames (&fout, &fkept, 0, &mm) == 0,
      "VKTILE_SEED=%u %s %s: %u values outside the regions changed; first "
      "at x=%d y=%d plane %u: got %u, the input %u", seed, what,
      GST_VIDEO_INFO_NAME (info), mm.count, mm.x, mm.y, mm.plane, mm.got,
      mm.want);
  if (filtered)
    fail_unless (count_diff (&fout, &fin, 0) > 0, "%s: nothing filtered",
        what);
  free_frame_buffer (kept, &fkept);
  free_frame_buffer (want, &fwant);
  unmap_in_out (&fin, &fout);
}

void
free_frame_buffer (GstBuffer * buf, GstVideoFrame * f)
{
  gst_video_frame_unmap (f);
  gst_buffer_unref (buf);
}

/* A buffer from the pool that the harnessed element proposes upstream
 * (negotiated into *pool on the first call), filled through a
 * GstVideoFrame mapping. */
GstBuffer *
make_pool_frame (GstHarness * h, const GstVideoInfo * info,
    GstBufferPool ** pool, GRand * rand, Content content)
{
  GstVideoFrame frame;
  GstBuffer *buf = NULL;
  guint p;
  gint y;

  if (!*pool) {
    GstCaps *caps = gst_video_info_to_caps ((GstVideoInfo *) info);
    GstQuery *q = gst_query_new_allocation (caps, TRUE);
    GstStructure *config;
    guint size, min, max;

    fail_unless (gst_pad_peer_query (h->srcpad, q),
        "the allocation query failed");
    fail_unless (gst_query_get_n_allocation_pools (q) > 0, "no pool proposed");
    gst_query_parse_nth_allocation_pool (q, 0, &*pool, &size, &min, &max);
    fail_unless (*pool != NULL, "no pool proposed");
    config = gst_buffer_pool_get_config (*pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    fail_unless (gst_buffer_pool_set_config (*pool, config));
    fail_unless (gst_buffer_pool_set_active (*pool, TRUE));
    gst_query_unref (q);
    gst_caps_unref (caps);
  }
  fail_unless (gst_buffer_pool_acquire_buffer (*pool, &buf, NULL) ==
      GST_FLOW_OK);
  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buf,
          GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    gint c = plane_first_comp (info, p);

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&frame, c); y++)
      fill_random (rand, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
          (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&frame, c) *
          GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c));
  }
  fill_content (&frame, rand, content);
  gst_video_frame_unmap (&frame);
  return buf;
}

/* ---- the leaks tracer (GST_TRACERS=leaks set before gst_check_init) ---- */

int
harness_start_leaks_tracer (int argc, char **argv)
{
  g_setenv ("GST_TRACERS", "leaks", TRUE);
  return -1;
}

static GstTracer *
leaks_tracer (void)
{
  GList *tracers = gst_tracing_get_active_tracers (), *l;
  GstTracer *found = NULL;

  for (l = tracers; l; l = l->next)
    if (!found && g_str_has_prefix (G_OBJECT_TYPE_NAME (l->data), "GstLeaks"))
      found = gst_object_ref (l->data);
  g_list_free_full (tracers, gst_object_unref);
  fail_unless (found != NULL, "the leaks tracer is not active");
  return found;
}

void
leaks_start_tracking (void)
{
  GstTracer *tracer = leaks_tracer ();

  g_signal_emit_by_name (tracer, "activity-start-tracking");
  gst_object_unref (tracer);
}

guint
leaks_count_alive (void)
{
  GstTracer *tracer = leaks_tracer ();
  GstStructure *checkpoint = NULL;
  const GValue *created, *removed;
  GHashTable *gone;
  guint i, alive = 0;

  g_signal_emit_by_name (tracer, "activity-get-checkpoint", &checkpoint);
  g_signal_emit_by_name (tracer, "activity-stop-tracking");
  fail_unless (checkpoint != NULL);
  /* Objects created and then destroyed appear in both lists. */
  created = gst_structure_get_value (checkpoint, "objects-created-list");
  removed = gst_structure_get_value (checkpoint, "objects-removed-list");
  gone = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (i = 0; removed && i < gst_value_list_get_size (removed); i++) {
    const GstStructure *o =
        gst_value_get_structure (gst_value_list_get_value (removed, i));
    g_hash_table_add (gone, g_strdup_printf ("%s %s",
            gst_structure_get_string (o, "type-name"),
            gst_structure_get_string (o, "address")));
  }
  for (i = 0; created && i < gst_value_list_get_size (created); i++) {
    const GstStructure *o =
        gst_value_get_structure (gst_value_list_get_value (created, i));
    gchar *key = g_strdup_printf ("%s %s",
        gst_structure_get_string (o, "type-name"),
        gst_structure_get_string (o, "address"));

    if (!g_hash_table_contains (gone, key)) {
      GST_ERROR ("still alive: %" GST_PTR_FORMAT, o);
      alive++;
    }
    g_free (key);
  }
  g_hash_table_unref (gone);
  gst_structure_free (checkpoint);
  gst_object_unref (tracer);
  return alive;
}

void
check_leaves_nothing_alive (void (*run) (void))
{
  run ();
  leaks_start_tracking ();
  run ();
  fail_unless_equals_int (leaks_count_alive (), 0);
}

const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_Y444_16LE, GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_NV16,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_AYUV,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR,
};

const GstVideoFormat image_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_ARGB,
  GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
  GST_VIDEO_FORMAT_AYUV, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
};

const GstVideoFormat format_groups[N_FORMAT_GROUPS][5] = {
  {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444,
      GST_VIDEO_FORMAT_Y42B},
  {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_NV16},
  {GST_VIDEO_FORMAT_P010_10LE},
  {GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420_10LE,
      GST_VIDEO_FORMAT_Y444_16LE},
  {GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB,
      GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_AYUV},
  {GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB,
      GST_VIDEO_FORMAT_xBGR},
  {GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU},
  {GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR},
};

static guint
format_index (GstVideoFormat fmt)
{
  guint i;

  for (i = 0; i < N_FORMATS; i++)
    if (all_formats[i] == fmt)
      return i;
  g_error ("format %s is not in the list", gst_video_format_to_string (fmt));
  return 0;
}

GstVideoFormat
harness_group_format (guint g, guint i, guint * index)
{
  GstVideoFormat fmt = i < G_N_ELEMENTS (format_groups[g]) ?
      format_groups[g][i] : GST_VIDEO_FORMAT_UNKNOWN;

  if (fmt != GST_VIDEO_FORMAT_UNKNOWN)
    *index = format_index (fmt);
  return fmt;
}

void
harness_flush (GstHarness * h)
{
  GstSegment seg;

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
}

gdouble
gauss_sample (GRand * r)
{
  gdouble u1 = g_rand_double_range (r, 1e-12, 1.0), u2 = g_rand_double (r);

  return sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
}

GstBuffer *
noisy_scene (const GstVideoInfo * info, GRand * r, guint scene, gdouble noise)
{
  GstVideoFrame f;
  GstBuffer *buf = new_frame_buffer (info, &f);
  guint c;
  gint x, y;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    GRand *sr = g_rand_new_with_seed (1000 * scene + c);
    gdouble maxv = (1 << GST_VIDEO_INFO_COMP_DEPTH (info, c)) - 1;

    fill_smooth (&f, sr, c, 32.0, 0.0);
    g_rand_free (sr);
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++) {
        gdouble n = noise * maxv / 255.0 * gauss_sample (r);
        ref_comp_set (&f, c, x, y, (guint) CLAMP (lround (ref_comp_get (&f,
                        c, x, y) + n), 0, maxv));
      }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

guint32
harness_fx_open (const gchar * element, const gchar * launch,
    const gchar * name, guint32 base_seed, guint salt, GstHarness ** h,
    GstElement ** el, GRand ** rand)
{
  guint32 seed;

  require_element_named (element);
  seed = base_seed + salt * 2654435761u;
  *rand = g_rand_new_with_seed (seed);
  *h = launch ? gst_harness_new_parse (launch) : gst_harness_new (element);
  *el = harness_get_element (*h, element, name);
  return seed;
}

void
harness_fx_close (GstHarness * h, GstElement * el, GRand * rand,
    GstBufferPool ** pool)
{
  if (pool)
    drop_pool (pool);
  gst_object_unref (el);
  gst_harness_teardown (h);
  g_rand_free (rand);
}

void
harness_set_video_caps (GstHarness * h, GstBufferPool ** pool,
    GstVideoInfo * info, GstVideoFormat format, gint width, gint height)
{
  GstCaps *caps;

  if (pool)
    drop_pool (pool);
  fail_unless (gst_video_info_set_format (info, format, width, height));
  GST_VIDEO_INFO_FPS_N (info) = 30;
  GST_VIDEO_INFO_FPS_D (info) = 1;
  caps = gst_video_info_to_caps (info);
  gst_harness_set_caps (h, gst_caps_ref (caps), caps);
}

void
harness_set_border (GstElement * el, RefConv * ref, RefBorder b,
    gdouble value)
{
  gst_util_set_object_arg (G_OBJECT (el), "border", ref_border_nick (b));
  g_object_set (el, "border-value", value, NULL);
  ref->border = b;
  ref->border_value = value;
}

void
harness_set_roi (GstElement * el, RefConv * ref, gint x, gint y, gint w,
    gint h, gint sx, gint sy)
{
  g_object_set (el, "roi-x", x, "roi-y", y, "roi-width", w,
      "roi-height", h, "source-x", sx, "source-y", sy, NULL);
  ref->roi_x = x;
  ref->roi_y = y;
  ref->roi_width = w;
  ref->roi_height = h;
  ref->source_x = sx;
  ref->source_y = sy;
}

void
harness_set_planes (GstElement * el, RefConv * ref, guint planes)
{
  g_object_set (el, "planes", planes, NULL);
  ref->planes = planes;
}

void
check_number_spec (GObjectClass * klass, const gchar * prop, GType type,
    gdouble min, gdouble max, gdouble def)
{
  GParamSpec *pspec = g_object_class_find_property (klass, prop);
  gdouble got_min, got_max, got_def;

  fail_unless (pspec != NULL, "no property %s", prop);
  fail_unless (G_TYPE_CHECK_INSTANCE_TYPE (pspec, type), "%s is not a %s",
      prop, type == G_TYPE_PARAM_DOUBLE ? "double" : "uint");
  if (type == G_TYPE_PARAM_DOUBLE) {
    got_min = G_PARAM_SPEC_DOUBLE (pspec)->minimum;
    got_max = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
    got_def = G_PARAM_SPEC_DOUBLE (pspec)->default_value;
  } else {
    got_min = G_PARAM_SPEC_UINT (pspec)->minimum;
    got_max = G_PARAM_SPEC_UINT (pspec)->maximum;
    got_def = G_PARAM_SPEC_UINT (pspec)->default_value;
  }
  fail_unless (got_min == min && got_max == max && got_def == def,
      "%s: range [%.10g, %.10g] default %.10g, want [%.10g, %.10g] default "
      "%.10g", prop, got_min, got_max, got_def, min, max, def);
}

void
check_base_class_specs (GObjectClass * klass)
{
  static const gchar *ints0[] = { "roi-x", "roi-y", "roi-width",
    "roi-height", NULL
  };
  static const gchar *sources[] = { "source-x", "source-y", NULL };
  GParamSpec *pspec;
  const gchar **p;
  GValue v = G_VALUE_INIT;

  for (p = ints0; *p; p++) {
    pspec = g_object_class_find_property (klass, *p);
    fail_unless (pspec && G_IS_PARAM_SPEC_INT (pspec), "%s: no int", *p);
    fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->minimum, 0);
    fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->default_value, 0);
    /* the GParamSpec itself refuses -1 */
    g_value_init (&v, G_TYPE_INT);
    g_value_set_int (&v, -1);
    fail_unless (g_param_value_validate (pspec, &v), "%s accepts -1", *p);
    g_value_unset (&v);
  }
  /* -1: where the target ROI is */
  for (p = sources; *p; p++) {
    pspec = g_object_class_find_property (klass, *p);
    fail_unless (pspec && G_IS_PARAM_SPEC_INT (pspec), "%s: no int", *p);
    fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->minimum, -1);
    fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->default_value, -1);
  }
  pspec = g_object_class_find_property (klass, "planes");
  fail_unless (pspec && G_IS_PARAM_SPEC_UINT (pspec));
  fail_unless_equals_int (G_PARAM_SPEC_UINT (pspec)->default_value, 0xf);
}

void
check_controllable (GObjectClass * klass, const gchar * const *props)
{
  const gchar *const *p;

  for (p = props; *p; p++)
    fail_unless (g_object_class_find_property (klass,
            *p)->flags & GST_PARAM_CONTROLLABLE, "%s not controllable", *p);
}

void
check_blurbs (GObjectClass * klass, const gchar * const *props)
{
  const gchar *const *p;

  for (p = props; *p; p++) {
    const gchar *blurb =
        g_param_spec_get_blurb (g_object_class_find_property (klass, *p));
    fail_unless (blurb && strlen (blurb) > 8, "%s has no blurb", *p);
  }
}

guint
bus_warnings_naming (GstBus * bus, const gchar * prop)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_warning (msg, &err, &debug);
    if ((err && strstr (err->message, prop)) || (debug && strstr (debug,
                prop)))
      n++;
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
  }
  return n;
}

/* tiledconv's table, the richest of the suites' copies (gaussblur's and
 * recursivefilter's lacked the P010 cases). */
const PlanesCase planes_cases[] = {
  {GST_VIDEO_FORMAT_RGBA, 0x1},         /* only R */
  {GST_VIDEO_FORMAT_BGRA, 0x1},         /* only R, which is byte 2 */
  {GST_VIDEO_FORMAT_BGRA, 0x8},         /* only A */
  {GST_VIDEO_FORMAT_RGBx, 0xf},         /* x copied even with bit 3 */
  {GST_VIDEO_FORMAT_BGRx, 0x6},         /* G and B */
  {GST_VIDEO_FORMAT_NV12, 0x1},         /* only Y */
  {GST_VIDEO_FORMAT_NV12, 0x4},         /* only V, interleaved with U */
  {GST_VIDEO_FORMAT_I420, 0x6},         /* chroma only */
  {GST_VIDEO_FORMAT_Y444, 0x2},         /* only U */
  {GST_VIDEO_FORMAT_GRAY8, 0x2},        /* nothing: a copy */
  {GST_VIDEO_FORMAT_GRAY16_LE, 0x1},
  {GST_VIDEO_FORMAT_P010_10LE, 0x4},    /* only V, 16 bits beside U */
  {GST_VIDEO_FORMAT_P010_10LE, 0x3},    /* Y and U */
};

const guint n_planes_cases = G_N_ELEMENTS (planes_cases);

void
harness_flush_restart (GstHarness * h, GstClockTime * pts)
{
  harness_flush (h);
  *pts = 0;
}

void
probe_pad_memory (GstElement * el, const gchar * pad, guint * counts)
{
  GstPad *p = gst_element_get_static_pad (el, pad);

  gst_pad_add_probe (p, GST_PAD_PROBE_TYPE_BUFFER, count_vulkan_buffers,
      counts, NULL);
  gst_object_unref (p);
}

void
check_chain_output (const GstVideoInfo * info, GstBuffer * in,
    GstBuffer * out, RefApply ref, gconstpointer ref_a, gconstpointer ref_b,
    guint step, const guint * counts, guint32 base_seed)
{
  GstVideoFrame fin, fout, fa, fb;
  GstBuffer *ba, *bb;
  Mismatch mm;

  map_in_out (info, in, out, &fin, &fout);
  ba = new_frame_buffer (info, &fa);
  bb = new_frame_buffer (info, &fb);
  ref (&fin, &fa, ref_a);
  ref (&fa, &fb, ref_b);
  fail_unless (compare_frames (&fout, &fb, 2, &mm) == 0, "VKTILE_SEED=%u "
      "chain a ! b, step %u: %u values off by more than 2; first at x=%d "
      "y=%d plane %u: got %u want %u", base_seed, step, mm.count, mm.x, mm.y,
      mm.plane, mm.got, mm.want);
  fail_unless (counts[0] == step + 1 && counts[1] == 0, "between a and b: %u "
      "VulkanBuffer frames, %u other", counts[0], counts[1]);
  fail_unless_equals_int (count_metas (out), 2);
  check_meta (out, "a", step);
  check_meta (out, "b", step);
  free_frame_buffer (ba, &fa);
  free_frame_buffer (bb, &fb);
  unmap_in_out (&fin, &fout);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

const CapsStep caps_change_steps[] = {
  {GST_VIDEO_FORMAT_RGBA, 33, 17},
  {GST_VIDEO_FORMAT_RGBA, 70, 41},
  {GST_VIDEO_FORMAT_NV12, 70, 41},
  {GST_VIDEO_FORMAT_GRAY16_LE, 5, 7},
  {GST_VIDEO_FORMAT_I420, 31, 9},
  {GST_VIDEO_FORMAT_RGBA, 33, 17},
};

const guint n_caps_change_steps = G_N_ELEMENTS (caps_change_steps);

guint
count_rounding_off (const GstVideoFrame * got, const GstVideoFrame * want,
    const GstVideoFrame * want_down, guint max_depth, const gchar * what,
    guint * n_values)
{
  guint off = 0, n = 0, c;
  gint x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (got); c++) {
    if (max_depth && GST_VIDEO_FORMAT_INFO_DEPTH (got->info.finfo, c) >
        max_depth)
      continue;
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (got, c); y++) {
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (got, c); x++) {
        guint g = ref_comp_get (got, c, x, y);

        n++;
        off += g != ref_comp_get (want, c, x, y)
            && g != ref_comp_get (want_down, c, x, y);
      }
    }
  }
  if (g_getenv ("VKTILE_ROUNDING_STATS"))
    g_printerr ("rounding: %u of %u values not exact (%s %s)\n", off, n,
        GST_VIDEO_INFO_NAME (&got->info), what);
  *n_values = n;
  return off;
}

void
check_deterministic (GstHarness * h, GstBuffer * in, GstClockTime * pts,
    const GstVideoInfo * info, const gchar * algorithm)
{
  GstBuffer *out1, *out2;
  GstVideoFrame f1, f2;
  Mismatch mm;

  out1 = harness_push_frame (h, gst_buffer_ref (in), pts, info, algorithm);
  out2 = harness_push_frame (h, gst_buffer_ref (in), pts, info, algorithm);
  fail_unless (gst_video_frame_map (&f1, (GstVideoInfo *) info, out1,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&f2, (GstVideoInfo *) info, out2,
          GST_MAP_READ));
  fail_unless (compare_frames (&f1, &f2, 0, &mm) == 0, "algorithm %s: two "
      "runs on the same frame differ in %u values, first at x=%d y=%d plane "
      "%u: %u then %u", algorithm, mm.count, mm.x, mm.y, mm.plane, mm.got,
      mm.want);
  gst_video_frame_unmap (&f1);
  gst_video_frame_unmap (&f2);
  gst_buffer_unref (out1);
  gst_buffer_unref (out2);
  gst_buffer_unref (in);
}

void
toggle_set_double (GstElement * el, guint which, gconstpointer data)
{
  const ToggleDouble *d = data;

  g_object_set (el, d->prop, d->value[which], NULL);
}

/* check_toggled_while_streaming()'s thread. */
typedef struct
{
  gint stop;
  GstElement *el;
  const Toggle *toggle;
} Toggler;

static gpointer
toggle_property (gpointer data)
{
  Toggler *t = data;
  guint i;

  /* one property only: two could be seen half-applied by a frame */
  for (i = 0; !g_atomic_int_get (&t->stop); i++) {
    t->toggle->set (t->el, i % 2, t->toggle->set_data);
    g_usleep (300);
  }
  return NULL;
}

void
check_toggled_while_streaming (GstHarness * h, GstElement * el,
    const GstVideoInfo * info, GRand * rand, Content content,
    GstClockTime * pts, const gchar * algorithm, const Toggle * toggle,
    guint n_frames, guint tol, guint32 base_seed)
{
  GstVideoFrame fin, fout, fref;
  GstBuffer *refbuf;
  Toggler t = { 0, el, toggle };
  GThread *thread;
  guint i, diff_a, diff_b, matched_a = 0, matched_b = 0;

  thread = g_thread_new ("toggle", toggle_property, &t);
  for (i = 0; i < n_frames; i++) {
    GstBuffer *in = make_frame (info, rand, LAYOUT_DEFAULT, content);
    GstBuffer *out = harness_push_frame (h, gst_buffer_ref (in), pts, info,
        algorithm);

    map_in_out (info, in, out, &fin, &fout);
    refbuf = new_frame_buffer (info, &fref);
    toggle->ref (&fin, &fref, toggle->ref_a);
    diff_a = count_diff (&fout, &fref, tol);
    toggle->ref (&fin, &fref, toggle->ref_b);
    diff_b = count_diff (&fout, &fref, tol);
    fail_unless (diff_a == 0 || diff_b == 0, "VKTILE_SEED=%u frame %u "
        "matches neither %s nor %s (%u values differ from the one, %u from "
        "the other)", base_seed, i, toggle->what_a, toggle->what_b, diff_a,
        diff_b);
    matched_a += diff_a == 0;
    matched_b += diff_b == 0;
    free_frame_buffer (refbuf, &fref);
    unmap_in_out (&fin, &fout);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  g_atomic_int_set (&t.stop, 1);
  g_thread_join (thread);
  GST_INFO ("%u frames matched %s, %u %s", matched_a, toggle->what_a,
      matched_b, toggle->what_b);
}

void
check_pool_holds_vulkan (GstBufferPool * pool, const GstVideoInfo * info)
{
  GstBuffer *buf = NULL;

  fail_unless (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) ==
      GST_FLOW_OK);
  fail_unless (gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (buf, 0)),
      "%s: the proposed pool does not hold Vulkan buffers",
      GST_VIDEO_INFO_NAME (info));
  gst_buffer_unref (buf);
}

guint
harness_push_changes (GstHarness * h, GstClockTime * pts,
    const GstVideoInfo * info, const gchar * algorithm, GRand * rand,
    guint tol, gboolean poison, Mismatch * mm)
{
  GstBuffer *in = make_frame (info, rand, LAYOUT_DEFAULT, CONTENT_NOISE);
  GstBuffer *out = harness_push_frame (h, gst_buffer_ref (in), pts, info,
      algorithm);
  GstVideoFrame fin, fout;
  guint n;

  map_in_out (info, in, out, &fin, &fout);
  n = compare_frames (&fout, &fin, tol, mm);
  unmap_in_out (&fin, &fout);
  if (poison)
    poison_buffer (out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  return n;
}

GstBuffer *
make_test_frame (GstHarness * h, const GstVideoInfo * info,
    GstBufferPool ** pool, GRand * rand, Layout layout, Content content)
{
  if (layout == LAYOUT_PROPOSED_POOL)
    return make_pool_frame (h, info, pool, rand, content);
  return make_frame (info, rand, layout, content);
}

void
harness_trace_times (gint64 t0, gint64 t1)
{
  if (g_getenv ("VKTILE_TRACE"))
    g_printerr ("[trace]   element %.3f s, reference %.3f s\n",
        (t1 - t0) / 1e6, (g_get_monotonic_time () - t1) / 1e6);
}
