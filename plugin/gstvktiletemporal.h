/* gstvktiletemporal.h: the properties of smoothing across frames that
 * recursivefilter and denoise share — temporal-alpha, temporal-mode,
 * noise-sigma, keep-detail and noise-estimate: one enum type, one text of
 * each description, each element's defaults. The definition is
 * docs/SEMANTICS.md's; recording it is the elements' (vktiirplan.c,
 * shaders/denoise.comp). */
#ifndef __GST_VKTILE_TEMPORAL_H__
#define __GST_VKTILE_TEMPORAL_H__

#include "gstvktilefilter.h"

G_BEGIN_DECLS

typedef enum
{
  GST_VKTILE_TEMPORAL_FIXED,
  GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE,
} GstVkTileTemporalMode;

#define GST_TYPE_VKTILE_TEMPORAL_MODE (gst_vktile_temporal_mode_get_type ())
GType gst_vktile_temporal_mode_get_type (void);

/* The settings, under the element's object lock. */
typedef struct
{
  gdouble alpha;                /* temporal-alpha, 0: off */
  GstVkTileTemporalMode mode;
  gdouble noise_sigma;          /* 8-bit code values; 0: estimated */
  gboolean keep_detail;
} GstVkTileTemporal;

/* The properties in the order of their ids, from the element's first. */
typedef enum
{
  GST_VKTILE_TEMPORAL_PROP_ALPHA,
  GST_VKTILE_TEMPORAL_PROP_MODE,
  GST_VKTILE_TEMPORAL_PROP_NOISE_SIGMA,
  GST_VKTILE_TEMPORAL_PROP_KEEP_DETAIL,
  GST_VKTILE_TEMPORAL_PROP_NOISE_ESTIMATE,
  GST_VKTILE_TEMPORAL_N_PROPS
} GstVkTileTemporalProp;

/* What the descriptions of the temporal properties say of one element:
 * when noise-sigma=0 estimates (e.g. "on every frame"), what T is (the
 * motion scale), and the threshold beyond which keep-detail puts detail
 * back. */
typedef struct
{
  const gchar *estimated;
  const gchar *motion_scale;
  const gchar *detail_threshold;
} GstVkTileTemporalWords;

/* Installs the properties with ids first_id .. first_id + N_PROPS - 1,
 * defaults from `defaults`, temporal-alpha up to max_alpha, described with
 * `words`. */
void gst_vktile_temporal_install_properties (GObjectClass * klass,
    guint first_id, const GstVkTileTemporal * defaults, gdouble max_alpha,
    const GstVkTileTemporalWords * words);

/* Sets property `prop` (an id minus first_id) under the object lock;
 * returns TRUE where smoothing was just switched on, from which frame the
 * recursion restarts. noise-estimate is read-only. */
gboolean gst_vktile_temporal_set (GstVkTileTemporal * t,
    GstVkTileTemporalProp prop, const GValue * value);

/* Gets property `prop` (an id minus first_id); call it without the object
 * lock: it takes it, and noise-estimate waits for the GPU outside it. */
void gst_vktile_temporal_get (GstVkTileFilter * filter,
    const GstVkTileTemporal * t, GstVkTileTemporalProp prop, GValue * value);

G_END_DECLS

#endif
