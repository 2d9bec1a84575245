/* vktile tests — CPU reference of tiledconv (see reference.h).
 *
 * Straight transcription of docs/SEMANTICS.md in double precision: for each
 * selected component, for each output value of the clipped target ROI, sum
 * K[j][i] * source(x + i - r, y + j - r) with the source ROI extended by the
 * border rule; then scale, |.|, bias, floor(v + 0.5), clamp. Plane layout,
 * strides and component positions all come from GstVideoInfo /
 * GstVideoFormatInfo so the same code serves every format.
 */
#include "reference.h"

#include <math.h>
#include <string.h>

static const gdouble sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
static const gdouble laplacian[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
static const gdouble sobel_x[9] = { -1, 0, 1, -2, 0, 2, -1, 0, 1 };
static const gdouble sobel_y[9] = { -1, -2, -1, 0, 0, 0, 1, 2, 1 };
static const gdouble emboss[9] = { -2, -1, 0, -1, 1, 1, 0, 1, 2 };

void
ref_conv_init (RefConv * p)
{
  memset (p, 0, sizeof (*p));
  ref_conv_set_preset (p, "gaussian3");
  p->scale = 1.0;
  p->bias = 0.0;
  p->absolute = FALSE;
  p->border = REF_BORDER_CLAMP;
  p->border_value = 0.0;
  p->source_x = p->source_y = -1;
  p->planes = 0xf;
}

void
ref_conv_set_kernel (RefConv * p, const gdouble * k, guint n)
{
  g_assert (n == 9 || n == 25 || n == 49);
  p->ksize = n == 9 ? 3 : n == 25 ? 5 : 7;
  memcpy (p->k, k, n * sizeof (gdouble));
}

void
ref_conv_set_separable (RefConv * p, const gdouble * kx, const gdouble * ky,
    guint n)
{
  gdouble id[7] = { 0 };
  guint i, j;

  g_assert (n == 3 || n == 5 || n == 7);
  /* SEMANTICS: the axis that is not set is the identity tap. */
  id[n / 2] = 1.0;
  if (!kx)
    kx = id;
  if (!ky)
    ky = id;
  p->ksize = n;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      p->k[j * n + i] = ky[j] * kx[i];
}

gboolean
ref_conv_set_preset (RefConv * p, const gchar * nick)
{
  static const gdouble g3[3] = { 0.25, 0.5, 0.25 };
  static const gdouble g5[5] = { 1 / 16., 4 / 16., 6 / 16., 4 / 16., 1 / 16. };
  gdouble box[25];
  guint i;

  if (!g_strcmp0 (nick, "none"))
    return TRUE;
  if (!g_strcmp0 (nick, "box3") || !g_strcmp0 (nick, "box5")) {
    guint n = nick[3] == '3' ? 9 : 25;
    for (i = 0; i < n; i++)
      box[i] = 1.0 / n;
    ref_conv_set_kernel (p, box, n);
  } else if (!g_strcmp0 (nick, "gaussian3")) {
    ref_conv_set_separable (p, g3, g3, 3);
  } else if (!g_strcmp0 (nick, "gaussian5")) {
    ref_conv_set_separable (p, g5, g5, 5);
  } else if (!g_strcmp0 (nick, "sharpen")) {
    ref_conv_set_kernel (p, sharpen, 9);
  } else if (!g_strcmp0 (nick, "laplacian")) {
    ref_conv_set_kernel (p, laplacian, 9);
  } else if (!g_strcmp0 (nick, "sobel-x")) {
    ref_conv_set_kernel (p, sobel_x, 9);
  } else if (!g_strcmp0 (nick, "sobel-y")) {
    ref_conv_set_kernel (p, sobel_y, 9);
  } else if (!g_strcmp0 (nick, "emboss")) {
    ref_conv_set_kernel (p, emboss, 9);
  } else {
    return FALSE;
  }
  return TRUE;
}

const gchar *
ref_border_nick (RefBorder b)
{
  static const gchar *nicks[] =
      { "clamp", "mirror", "reflect", "wrap", "constant" };
  g_assert (b < REF_BORDER_N);
  return nicks[b];
}

/* Non-negative remainder. */
static gint
pmod (gint a, gint m)
{
  gint r = a % m;
  return r < 0 ? r + m : r;
}

gint
ref_border_map (RefBorder b, gint i, gint n)
{
  gint m;

  g_assert (n >= 1);
  if (i >= 0 && i < n)
    return i;
  switch (b) {
    case REF_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case REF_BORDER_MIRROR:
      /* dcb|abcd|cba: period 2n - 2; a single sample mirrors onto itself */
      if (n == 1)
        return 0;
      m = pmod (i, 2 * n - 2);
      return m < n ? m : 2 * n - 2 - m;
    case REF_BORDER_REFLECT:
      /* cba|abcd|dcb: period 2n */
      m = pmod (i, 2 * n);
      return m < n ? m : 2 * n - 1 - m;
    case REF_BORDER_WRAP:
      return pmod (i, n);
    case REF_BORDER_CONSTANT:
    default:
      return -1;
  }
}

void
ref_conv_set_roi (RefConv * p, const RefConv * roi)
{
  p->roi_x = roi->roi_x;
  p->roi_y = roi->roi_y;
  p->roi_width = roi->roi_width;
  p->roi_height = roi->roi_height;
  p->source_x = roi->source_x;
  p->source_y = roi->source_y;
}

gboolean
ref_plane_roi (const RefConv * p, gint W, gint H, gint ws, gint hs,
    gint pw, gint ph, gint * tx, gint * ty, gint * px, gint * py, gint * w,
    gint * h)
{
  /* 64-bit: the properties go up to G_MAXINT, and roi-x + roi-width must
   * not wrap around */
  gint64 rw = p->roi_width ? p->roi_width : (gint64) W - p->roi_x;
  gint64 rh = p->roi_height ? p->roi_height : (gint64) H - p->roi_y;
  gint64 sx = p->source_x == -1 ? p->roi_x : p->source_x;
  gint64 sy = p->source_y == -1 ? p->roi_y : p->source_y;
  gint64 ttx = p->roi_x >> ws, tty = p->roi_y >> hs;
  gint64 tw = (((gint64) p->roi_x + rw + (1 << ws) - 1) >> ws) - ttx;
  gint64 th = (((gint64) p->roi_y + rh + (1 << hs) - 1) >> hs) - tty;
  gint64 ppx = sx >> ws, ppy = sy >> hs;
  gint64 ww = MIN (tw, MIN (pw - ttx, pw - ppx));
  gint64 hh = MIN (th, MIN (ph - tty, ph - ppy));

  if (ww <= 0 || hh <= 0)
    return FALSE;
  *tx = ttx;
  *ty = tty;
  *px = ppx;
  *py = ppy;
  *w = ww;
  *h = hh;
  return TRUE;
}

gboolean
ref_comp_roi (const RefConv * p, const GstVideoFrame * f, guint c,
    gint * tx, gint * ty, gint * px, gint * py, gint * w, gint * h)
{
  const GstVideoFormatInfo *finfo = f->info.finfo;

  return ref_plane_roi (p, GST_VIDEO_FRAME_WIDTH (f),
      GST_VIDEO_FRAME_HEIGHT (f), GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c),
      GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c), GST_VIDEO_FRAME_COMP_WIDTH (f,
          c), GST_VIDEO_FRAME_COMP_HEIGHT (f, c), tx, ty, px, py, w, h);
}

/* Components lie alike when they share their memory plane, their pixel
 * stride and their horizontal subsampling; each such kind is a plane the
 * filters see, in the order of its first component. */
static gboolean
comps_alike (const GstVideoFormatInfo * finfo, guint a, guint b)
{
  return GST_VIDEO_FORMAT_INFO_PLANE (finfo, a) ==
      GST_VIDEO_FORMAT_INFO_PLANE (finfo, b)
      && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, a) ==
      GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, b)
      && GST_VIDEO_FORMAT_INFO_W_SUB (finfo, a) ==
      GST_VIDEO_FORMAT_INFO_W_SUB (finfo, b);
}

guint
ref_comp_filtered_plane (const GstVideoFormatInfo * finfo, guint c)
{
  guint first, k, n = 0;

  for (first = 0; first <= c; first++) {
    for (k = 0; k < first && !comps_alike (finfo, k, first); k++);
    if (k < first)
      continue;                 /* not the first of its kind */
    if (comps_alike (finfo, first, c))
      return n;
    n++;
  }
  g_assert_not_reached ();
  return 0;
}

guint
ref_n_filtered_planes (const GstVideoInfo * info)
{
  guint c, n = 0;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    n = MAX (n, ref_comp_filtered_plane (info->finfo, c) + 1);
  return n;
}

gboolean
ref_frame_copy (GstVideoFrame * out, const GstVideoFrame * in)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  guint p, c;
  gint y;

  if (GST_VIDEO_FRAME_FORMAT (out) != GST_VIDEO_FRAME_FORMAT (in)
      || GST_VIDEO_FRAME_WIDTH (out) != GST_VIDEO_FRAME_WIDTH (in)
      || GST_VIDEO_FRAME_HEIGHT (out) != GST_VIDEO_FRAME_HEIGHT (in))
    return FALSE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (in); p++) {
    gsize bytes = 0;
    gint rows = 0;
    for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++) {
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
        continue;
      bytes = MAX (bytes, (gsize) GST_VIDEO_FRAME_COMP_WIDTH (in, c) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c));
      rows = MAX (rows, GST_VIDEO_FRAME_COMP_HEIGHT (in, c));
    }
    for (y = 0; y < rows; y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (out, p),
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (in, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (in, p), bytes);
  }
  return TRUE;
}

guint
ref_comp_offset (const GstVideoFormatInfo * finfo, guint c)
{
  guint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

  /* A 16-bit little-endian value starts at an even byte; GStreamer 1.22
   * tables P010_10LE's V at offset 1, counted in components, while its
   * pack and unpack functions put V at byte 2 */
  if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) > 8 && offset % 2 != 0)
    offset *= 2;
  return offset;
}

static guint8 *
comp_ptr (const GstVideoFrame * f, guint c, gint x, gint y)
{
  const GstVideoFormatInfo *finfo = f->info.finfo;
  guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
  guint8 *base = GST_VIDEO_FRAME_PLANE_DATA (f, plane);

  return base + ref_comp_offset (finfo, c)
      + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (f, plane)
      + (gsize) x * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
}

gdouble
ref_comp_maxv (const GstVideoFormatInfo * finfo, guint c)
{
  return (1u << (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) +
          GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c))) - 1;
}

guint
ref_comp_get (const GstVideoFrame * f, guint c, gint x, gint y)
{
  const guint8 *ptr = comp_ptr (f, c, x, y);

  if (GST_VIDEO_FORMAT_INFO_DEPTH (f->info.finfo, c) > 8)
    return GST_READ_UINT16_LE (ptr);    /* the 16-bit formats are little-endian */
  return *ptr;
}

void
ref_comp_set (GstVideoFrame * f, guint c, gint x, gint y, guint v)
{
  guint8 *ptr = comp_ptr (f, c, x, y);

  if (GST_VIDEO_FORMAT_INFO_DEPTH (f->info.finfo, c) > 8)
    GST_WRITE_UINT16_LE (ptr, v);
  else
    *ptr = v;
}

void
ref_comp_store (GstVideoFrame * f, guint c, gint x, gint y, gdouble v,
    gboolean ties_down)
{
  gdouble maxv = ref_comp_maxv (f->info.finfo, c);

  v = ties_down ? ceil (v - 0.5) : floor (v + 0.5);
  ref_comp_set (f, c, x, y, (guint) CLAMP (v, 0.0, maxv));
}

static void
filter_component (const GstVideoFrame * in, GstVideoFrame * out, guint c,
    gconstpointer data)
{
  const RefConv *p = data;
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gdouble maxv = ref_comp_maxv (finfo, c);
  gdouble cval = p->border_value * maxv;
  gint r = p->ksize / 2;
  gint tx, ty, px, py, w, h, x, y, i, j;

  if (!ref_comp_roi (p, in, c, &tx, &ty, &px, &py, &w, &h))
    return;

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      gdouble sum = 0.0, v;

      for (j = 0; j < p->ksize; j++) {
        gint my = ref_border_map (p->border, y + j - r, h);
        for (i = 0; i < p->ksize; i++) {
          gint mx = ref_border_map (p->border, x + i - r, w);
          gdouble s = (mx < 0 || my < 0) ? cval
              : ref_comp_get (in, c, px + mx, py + my);
          sum += p->k[j * p->ksize + i] * s;
        }
      }
      v = p->scale * sum;
      if (p->absolute)
        v = fabs (v);
      v += p->bias * maxv;
      ref_comp_store (out, c, tx + x, ty + y, v, p->ties_down);
    }
  }
}

void
ref_filter_planes (const GstVideoFrame * in, GstVideoFrame * out,
    guint planes, RefComponentFilter filter, gconstpointer data)
{
  guint c;

  g_return_if_fail (GST_VIDEO_FRAME_FORMAT (in) == GST_VIDEO_FRAME_FORMAT (out));
  /* Everything not written below (padding bytes, unselected components,
   * pixels outside the target ROI) is the input unchanged. */
  ref_frame_copy (out, in);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++)
    if (planes & (1u << c))
      filter (in, out, c, data);
}

void
ref_tiledconv (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * p)
{
  ref_filter_planes (in, out, p->planes, filter_component, p);
}

gchar *
ref_conv_describe (const RefConv * p)
{
  GString *s = g_string_new (NULL);
  gint i;

  g_string_append_printf (s, "kernel %dx%d [", p->ksize, p->ksize);
  for (i = 0; i < p->ksize * p->ksize; i++)
    g_string_append_printf (s, "%s%.6g", i ? " " : "", p->k[i]);
  g_string_append_printf (s, "] scale=%g bias=%g absolute=%d border=%s "
      "border-value=%g roi=%d,%d,%dx%d source=%d,%d planes=0x%x",
      p->scale, p->bias, p->absolute, ref_border_nick (p->border),
      p->border_value, p->roi_x, p->roi_y, p->roi_width, p->roi_height,
      p->source_x, p->source_y, p->planes);
  return g_string_free (s, FALSE);
}

gboolean
ref_comp_rect_read (const RefConv * p, const GstVideoFrame * in, guint c,
    RefCompRect * r)
{
  gint i, j;

  if (!ref_comp_roi (p, in, c, &r->tx, &r->ty, &r->px, &r->py, &r->w, &r->h))
    return FALSE;
  r->maxv = ref_comp_maxv (in->info.finfo, c);
  r->src = g_new (gdouble, (gsize) r->w * r->h);
  r->dst = g_new (gdouble, (gsize) r->w * r->h);
  for (j = 0; j < r->h; j++)
    for (i = 0; i < r->w; i++)
      r->src[(gsize) j * r->w + i] = ref_comp_get (in, c, r->px + i, r->py + j);
  return TRUE;
}

void
ref_comp_rect_write (GstVideoFrame * out, guint c, RefCompRect * r,
    gboolean ties_down)
{
  gint i, j;

  for (j = 0; j < r->h; j++)
    for (i = 0; i < r->w; i++)
      ref_comp_store (out, c, r->tx + i, r->ty + j,
          r->dst[(gsize) j * r->w + i], ties_down);
  ref_comp_rect_clear (r);
}

void
ref_comp_rect_clear (RefCompRect * r)
{
  g_clear_pointer (&r->src, g_free);
  g_clear_pointer (&r->dst, g_free);
}
