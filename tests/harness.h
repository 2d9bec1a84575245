/* tests/harness.h: helpers shared by the element tests (tests/harness.c). */
#ifndef VKTILE_TESTS_HARNESS_H
#define VKTILE_TESTS_HARNESS_H

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "plugin/gstvktiletimingmeta.h"
#include "reference.h"

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

gint plane_first_comp (const GstVideoInfo * info, guint plane);

/* Compares every visible value of every component (tolerance tol) and every
 * padding byte inside a pixel (exact). Returns the number of mismatches. */
guint compare_frames (const GstVideoFrame * got, const GstVideoFrame * want,
    guint tol, Mismatch * mm);

GstPadProbeReturn count_vulkan_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer data);

void check_meta (GstBuffer * buf, const gchar * name, guint64 frame_index);

guint count_metas (GstBuffer * buf);

void check_enum_nicks (GObjectClass * klass, const gchar * prop,
    const gchar * const *nicks, const gchar * def);

G_END_DECLS

#endif
