/* gstvktiletemporal.c: see gstvktiletemporal.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktiletemporal.h"

GType
gst_vktile_temporal_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_VKTILE_TEMPORAL_FIXED, "Every pixel keeps temporal-alpha of its "
          "previous output: still scenes lose the most noise, moving edges "
          "ghost", "fixed"},
    {GST_VKTILE_TEMPORAL_MOTION_ADAPTIVE, "A pixel keeps less of its "
          "previous output the more it changed (beyond a few noise-sigma it "
          "follows the input), so motion does not ghost", "motion-adaptive"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkTileTemporalMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

void
gst_vktile_temporal_install_properties (GObjectClass * klass, guint first_id,
    const GstVkTileTemporal * defaults, gdouble max_alpha,
    const GstVkTileTemporalWords * words)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_NAME |
      G_PARAM_STATIC_NICK | G_PARAM_STATIC_BLURB | GST_PARAM_MUTABLE_PLAYING;
  /* The descriptions built at run time own their text. */
  GParamFlags own_blurb = flags & ~G_PARAM_STATIC_BLURB;
  gchar *noise_blurb = g_strdup_printf ("Standard deviation of the input's "
      "noise in 8-bit code values (scaled to the format's range), for "
      "temporal-mode=motion-adaptive: a change of the spatially filtered "
      "value well beyond a few times what remains of this noise is taken as "
      "motion and follows the input. Too low leaves still areas noisy, too "
      "high lets moving edges ghost. 0: estimated from each plane's input "
      "on the GPU, %s", words->estimated);
  gchar *mode_blurb = g_strdup_printf ("How temporal-alpha applies per "
      "pixel: fixed, or motion-adaptive, where each pixel keeps "
      "temporal-alpha * exp(-(d / T)^2) of its previous output, d how far its "
      "spatially filtered value moved since then and T %s",
      words->motion_scale);
  gchar *detail_blurb = g_strdup_printf ("For "
      "temporal-mode=motion-adaptive: where the spatial filter changes a "
      "pixel by well over the noise (%s), put that change back, so that "
      "edges and texture stay sharp while the noise goes (false: the plain "
      "spatial filter)", words->detail_threshold);

  g_object_class_install_property (klass,
      first_id + GST_VKTILE_TEMPORAL_PROP_ALPHA,
      g_param_spec_double ("temporal-alpha", "Temporal alpha",
          "Per-pixel smoothing across frames after the spatial filter, "
          "y_t = a y_(t-1) + (1-a) x_t, for live denoising (0: off; "
          "temporal-mode=motion-adaptive lowers a where a pixel moved); "
          "restarts on flush, discontinuity and caps change; not applied in "
          "the regions of roi-meta, which move from frame to frame", 0.0,
          max_alpha, defaults->alpha, flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (klass,
      first_id + GST_VKTILE_TEMPORAL_PROP_MODE,
      g_param_spec_enum ("temporal-mode", "Temporal mode", mode_blurb,
          GST_TYPE_VKTILE_TEMPORAL_MODE, defaults->mode, own_blurb));
  g_object_class_install_property (klass,
      first_id + GST_VKTILE_TEMPORAL_PROP_NOISE_SIGMA,
      g_param_spec_double ("noise-sigma", "Noise sigma", noise_blurb, 0.0,
          255.0, defaults->noise_sigma, own_blurb | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (klass,
      first_id + GST_VKTILE_TEMPORAL_PROP_KEEP_DETAIL,
      g_param_spec_boolean ("keep-detail", "Keep detail", detail_blurb,
          defaults->keep_detail, own_blurb));
  g_object_class_install_property (klass,
      first_id + GST_VKTILE_TEMPORAL_PROP_NOISE_ESTIMATE,
      gst_param_spec_array ("noise-estimate", "Noise estimate",
          "The noise-sigma that noise-sigma=0 has estimated so far, per "
          "plane (NV12: Y, then UV; YUY2 and the other packed 4:2:2 "
          "formats: Y, then UV), in 8-bit code values; empty while "
          "nothing is estimated. Reading it waits for the GPU to finish "
          "the last frame sent",
          g_param_spec_double ("sigma", "Sigma",
              "The estimate of one plane", 0.0, G_MAXDOUBLE, 0.0,
              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS),
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_free (noise_blurb);
  g_free (mode_blurb);
  g_free (detail_blurb);
  gst_type_mark_as_plugin_api (GST_TYPE_VKTILE_TEMPORAL_MODE, 0);
}

gboolean
gst_vktile_temporal_set (GstVkTileTemporal * t, GstVkTileTemporalProp prop,
    const GValue * value)
{
  gboolean switched_on = FALSE;

  switch (prop) {
    case GST_VKTILE_TEMPORAL_PROP_ALPHA:
      switched_on = t->alpha == 0.0 && g_value_get_double (value) > 0.0;
      t->alpha = g_value_get_double (value);
      break;
    case GST_VKTILE_TEMPORAL_PROP_MODE:
      t->mode = g_value_get_enum (value);
      break;
    case GST_VKTILE_TEMPORAL_PROP_NOISE_SIGMA:
      t->noise_sigma = g_value_get_double (value);
      break;
    case GST_VKTILE_TEMPORAL_PROP_KEEP_DETAIL:
      t->keep_detail = g_value_get_boolean (value);
      break;
    default:
      break;
  }
  return switched_on;
}

void
gst_vktile_temporal_get (GstVkTileFilter * filter,
    const GstVkTileTemporal * t, GstVkTileTemporalProp prop, GValue * value)
{
  if (prop == GST_VKTILE_TEMPORAL_PROP_NOISE_ESTIMATE) {
    gst_vktile_filter_read_reported (filter, (1u << GST_VIDEO_MAX_PLANES) - 1,
        value);
    return;
  }
  GST_OBJECT_LOCK (filter);
  switch (prop) {
    case GST_VKTILE_TEMPORAL_PROP_ALPHA:
      g_value_set_double (value, t->alpha);
      break;
    case GST_VKTILE_TEMPORAL_PROP_MODE:
      g_value_set_enum (value, t->mode);
      break;
    case GST_VKTILE_TEMPORAL_PROP_NOISE_SIGMA:
      g_value_set_double (value, t->noise_sigma);
      break;
    case GST_VKTILE_TEMPORAL_PROP_KEEP_DETAIL:
      g_value_set_boolean (value, t->keep_detail);
      break;
    default:
      break;
  }
  GST_OBJECT_UNLOCK (filter);
}
