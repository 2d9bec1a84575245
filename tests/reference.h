/* vktile tests — CPU reference of tiledconv.
 *
 * Owns the double-precision definition the tests compare the plugin against.
 * It is written from docs/SEMANTICS.md only and shares
 * no code with the plugin, so that a misunderstanding in one does not hide in
 * the other. Kept deliberately simple and slow: one loop per output value.
 */
#ifndef VKTILE_TESTS_REFERENCE_H
#define VKTILE_TESTS_REFERENCE_H

#include <gst/video/video.h>

G_BEGIN_DECLS

typedef enum
{
  REF_BORDER_CLAMP,
  REF_BORDER_MIRROR,
  REF_BORDER_REFLECT,
  REF_BORDER_WRAP,
  REF_BORDER_CONSTANT,
  REF_BORDER_N
} RefBorder;

/* Everything that determines tiledconv's output, in the units of the
 * element's properties. */
typedef struct
{
  gint ksize;                   /* 3, 5 or 7 */
  gdouble k[49];                /* row-major ksize x ksize, a correlation */
  gdouble scale;
  gdouble bias;                 /* in units of the format's range */
  gboolean absolute;
  RefBorder border;
  gdouble border_value;         /* 0..1 of the format's range */
  gint roi_x, roi_y, roi_width, roi_height;
  gint source_x, source_y;      /* -1: same as the target */
  guint planes;                 /* bit c: component c of GstVideoFormatInfo */
  /* Not a property: round exact .5 ties down instead of up, so that a test
   * can tell a tie rounded the other way from a real error. */
  gboolean ties_down;
} RefConv;

/* The element's defaults: preset gaussian3, clamp, full frame, all planes. */
void ref_conv_init (RefConv * p);

/* Replaces the kernel by a preset's (SEMANTICS.md table); FALSE for an
 * unknown nick. "none" leaves the kernel as it is. */
gboolean ref_conv_set_preset (RefConv * p, const gchar * nick);

/* n = 9, 25 or 49 numbers, row-major. */
void ref_conv_set_kernel (RefConv * p, const gdouble * k, guint n);

/* K = outer(ky, kx); either may be NULL (the identity tap of length n). */
void ref_conv_set_separable (RefConv * p, const gdouble * kx,
    const gdouble * ky, guint n);

const gchar *ref_border_nick (RefBorder b);

/* Maps index i into a range of length n >= 1 by the border rule, as a
 * periodic extension (any i). Returns -1 for "use the constant". */
gint ref_border_map (RefBorder b, gint i, gint n);

/* Gives p the target and source ROI of roi (roi-x .. source-y). */
void ref_conv_set_roi (RefConv * p, const RefConv * roi);

/* The target/source rectangles of one plane (SEMANTICS.md "Regions of
 * interest"). W, H: the frame; ws, hs: subsampling shifts; pw, ph: the
 * plane's size. Returns FALSE when the plane is copied unchanged. */
gboolean ref_plane_roi (const RefConv * p, gint W, gint H, gint ws, gint hs,
    gint pw, gint ph, gint * tx, gint * ty, gint * px, gint * py, gint * w,
    gint * h);

/* ref_plane_roi() for component c of frame f (its plane's size and
 * subsampling). */
gboolean ref_comp_roi (const RefConv * p, const GstVideoFrame * f, guint c,
    gint * tx, gint * ty, gint * px, gint * py, gint * w, gint * h);

/* A reference's filter of component c of in into out (data: its
 * settings). */
typedef void (*RefComponentFilter) (const GstVideoFrame * in,
    GstVideoFrame * out, guint c, gconstpointer data);

/* What a reference without state does with a frame: out a copy of in, then
 * `filter` on every component that `planes` selects. */
void ref_filter_planes (const GstVideoFrame * in, GstVideoFrame * out,
    guint planes, RefComponentFilter filter, gconstpointer data);

/* out = in, every byte of every row that holds pixels (unlike
 * gst_video_frame_copy(), which stops an odd-width YUY2 row at its last Y
 * and leaves out the last V). Both frames of the same format and size. */
gboolean ref_frame_copy (GstVideoFrame * out, const GstVideoFrame * in);

/* out = tiledconv(in). Both frames mapped with the same format and size;
 * their strides may differ. Bytes beyond each row's visible pixels are not
 * written. */
void ref_tiledconv (const GstVideoFrame * in, GstVideoFrame * out,
    const RefConv * p);

/* The largest code value of component c: the bits of its depth and its
 * shift, as P010 keeps 10 bits high in 16 (and is filtered as 16-bit). */
gdouble ref_comp_maxv (const GstVideoFormatInfo * finfo, guint c);

/* The plane component c is filtered in ("Values, components, planes"):
 * its memory plane, except that a packed 4:2:2 plane (YUY2, UYVY, YVYU)
 * is filtered as two, its Y then its U and V; and how many there are.
 * Noise estimates are per such plane. */
guint ref_comp_filtered_plane (const GstVideoFormatInfo * finfo, guint c);
guint ref_n_filtered_planes (const GstVideoInfo * info);

/* The byte offset of component c inside its pixel. */
guint ref_comp_offset (const GstVideoFormatInfo * finfo, guint c);

/* Reads / writes component c of pixel (x, y), in plane coordinates. */
guint ref_comp_get (const GstVideoFrame * f, guint c, gint x, gint y);
void ref_comp_set (GstVideoFrame * f, guint c, gint x, gint y, guint v);
/* Stores v rounded to nearest (ties up, or down with ties_down) and
 * clamped to the component's range. */
void ref_comp_store (GstVideoFrame * f, guint c, gint x, gint y, gdouble v,
    gboolean ties_down);

/* One component as the references that filter whole images see it: the
 * w x h target rectangle of its ROI at (tx, ty), the values of the source
 * rectangle at (px, py) in src and room for the result in dst, both
 * row-major; maxv, the component's largest value. */
typedef struct
{
  gint tx, ty, px, py, w, h;
  gdouble *src, *dst;
  gdouble maxv;
} RefCompRect;

/* Fills r for component c of in through p's ROI (ref_comp_roi());
 * FALSE, r untouched, where the component is copied unchanged. */
gboolean ref_comp_rect_read (const RefConv * p, const GstVideoFrame * in,
    guint c, RefCompRect * r);
/* Stores r's dst over its target rectangle of component c of out, as
 * ref_comp_store() stores each value, then frees r's values. */
void ref_comp_rect_write (GstVideoFrame * out, guint c, RefCompRect * r,
    gboolean ties_down);
void ref_comp_rect_clear (RefCompRect * r);

/* A one-line description of p for failure messages; g_free() it. */
gchar *ref_conv_describe (const RefConv * p);

G_END_DECLS

#endif /* VKTILE_TESTS_REFERENCE_H */
