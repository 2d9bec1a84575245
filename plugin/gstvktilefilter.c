/* gstvktilefilter.c: see gstvktilefilter.h. The GObject and
 * GstBaseTransform boundary of the base class: properties, the element's
 * errors, start/stop, context queries, caps, allocation, the events and
 * generate_output() around the frames in flight, transform() and
 * class_init. The rest is in files named for their job (see
 * gstvktilefilter-private.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktilefilter-private.h"
#include "gstvktilebufferpool.h"
#include "gstvktileimagepool.h"

#include <string.h>

GST_DEBUG_CATEGORY (gst_vktile_filter_debug);

#define VKTILE_FORMATS "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, I420, " \
    "NV12, Y444, P010_10LE, I420_10LE, Y444_16LE, NV21, NV16, Y42B, ARGB, " \
    "ABGR, xRGB, xBGR, AYUV, YUY2, UYVY, YVYU, RGB, BGR }"
/* The formats of VKTILE_FORMATS that gstvulkan 1.22 makes images of. */
#define VKTILE_IMAGE_FORMATS "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, " \
    "I420, NV12, Y444, NV21, Y42B, ARGB, ABGR, xRGB, xBGR, AYUV, YUY2, UYVY }"
#define VKTILE_CAPS \
    GST_VIDEO_CAPS_MAKE (VKTILE_FORMATS) "; " \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, \
        VKTILE_FORMATS) "; " \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, \
        VKTILE_IMAGE_FORMATS)

#define DEFAULT_FRAMES_IN_FLIGHT 2

enum
{
  PROP_0,
  PROP_BORDER,
  PROP_BORDER_VALUE,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_SOURCE_X,
  PROP_SOURCE_Y,
  PROP_PLANES,
  PROP_ROI_META,
  PROP_ROI_PADDING,
  PROP_FRAMES_IN_FLIGHT,
  PROP_POST_MESSAGES,
  PROP_DEVICE_INDEX,
  PROP_DEVICE_NAME,
  PROP_DROP_INVALID,
};

/* Whether the frame was moved into the working buffer before the filter
 * (timed as the upload); read in place, its crossing is the filter's. */
static gboolean
frame_moved_in (InputPath path)
{
  return path != INPUT_IN_PLACE && path != INPUT_IMPORTED_IN_PLACE;
}

static const gchar *const input_path_names[] = {
  "used in place", "copied on the GPU from another Vulkan buffer",
  "system memory imported (VK_EXT_external_memory_host) and copied by the GPU",
  "system memory imported (VK_EXT_external_memory_host) and read in place by "
      "the shaders",
  "system memory copied by the CPU into a host-visible buffer",
  "images (memory:VulkanImage) copied on the GPU into a storage buffer",
};

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstVkTileFilter, gst_vktile_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstVkTileFilter)
    GST_DEBUG_CATEGORY_INIT (gst_vktile_filter_debug, "vktilefilter", 0,
        "vktile base filter"));

/* PRIV(): the private struct, for every file of the base class. */
GstVkTileFilterPrivate *
gst_vktile_filter_get_priv (GstVkTileFilter * self)
{
  return gst_vktile_filter_get_instance_private (self);
}

GType
gst_vktile_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_VKTILE_BORDER_CLAMP, "Repeat the edge pixel (OpenCV BORDER_REPLICATE)",
        "clamp"},
    {GST_VKTILE_BORDER_MIRROR,
        "Reflect without repeating the edge, dcb|abcd|cba (BORDER_REFLECT_101)",
        "mirror"},
    {GST_VKTILE_BORDER_REFLECT,
        "Reflect repeating the edge, cba|abcd|dcb (BORDER_REFLECT)", "reflect"},
    {GST_VKTILE_BORDER_WRAP, "Wrap around to the opposite edge (BORDER_WRAP)",
        "wrap"},
    {GST_VKTILE_BORDER_CONSTANT,
        "The constant border-value (BORDER_CONSTANT)", "constant"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkTileBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

void
gst_vktile_filter_class_add_pad_templates (GstElementClass * klass)
{
  GstCaps *caps = gst_caps_from_string (VKTILE_CAPS);

  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

/* ---- errors ---- */

/* The element error of a failed GPU operation: the message says what the
 * user can act on (memory, a lost device), the debug string keeps the
 * Vulkan detail. `what` completes "to ..." ("filter the frame"). */
void
gst_vktile_filter_post_gpu_error (GstVkTileFilter * self, const gchar * what,
    const GError * error)
{
  gint code = error && error->domain == GST_VULKAN_ERROR ? error->code : 0;
  const gchar *detail = error ? error->message : "unknown error";

  /* A setup the user can change: its message is the cause. */
  if (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_SETTINGS)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", detail), (NULL));
    return;
  }
  switch (code) {
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_TOO_MANY_OBJECTS:
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("Not enough GPU memory to %s.", what), ("%s", detail));
      break;
    case VK_ERROR_DEVICE_LOST:
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("The GPU was lost while trying to %s (a GPU fault or a driver "
              "reset); restart the pipeline to go on.", what),
          ("%s", detail));
      break;
    default:
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not %s on the GPU.", what), ("%s", detail));
      break;
  }
}

/* ---- properties ---- */

void
gst_vktile_filter_set_border (GstVkTileFilter * filter, GstVkTileBorder border)
{
  GST_OBJECT_LOCK (filter);
  PRIV (filter)->border = border;
  GST_OBJECT_UNLOCK (filter);
}

GstVkTileBorder
gst_vktile_filter_get_border (GstVkTileFilter * filter)
{
  GstVkTileBorder border;

  GST_OBJECT_LOCK (filter);
  border = PRIV (filter)->border;
  GST_OBJECT_UNLOCK (filter);
  return border;
}

void
gst_vktile_filter_refuse_property (GstVkTileFilter * self,
    const gchar * property, const gchar * format, ...)
{
  GstBus *bus = gst_element_get_bus (GST_ELEMENT (self));
  gchar *why, *text;
  va_list args;

  va_start (args, format);
  why = g_strdup_vprintf (format, args);
  va_end (args);
  text = g_strdup_printf ("%s: refusing the value of '%s': %s; keeping the "
      "old value", GST_OBJECT_NAME (self), property, why);
  GST_WARNING_OBJECT (self, "%s", text);
  /* gst-launch-1.0 sets the properties of its elements before they are in
   * a pipeline with a bus: there only stderr reaches the user. */
  if (bus) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s", text), (NULL));
    gst_object_unref (bus);
  } else {
    g_log ("vktile", G_LOG_LEVEL_WARNING, "%s", text);
  }
  g_free (text);
  g_free (why);
}

/* roi-meta's comma-separated list of ROI types, blanks around each
 * ignored; NULL for none (off). */
static gchar **
parse_roi_types (const gchar * list)
{
  gchar **parts = g_strsplit (list ? list : "", ",", -1);
  GPtrArray *types = g_ptr_array_new ();
  guint i;

  for (i = 0; parts[i]; i++) {
    g_strstrip (parts[i]);
    if (parts[i][0])
      g_ptr_array_add (types, g_strdup (parts[i]));
  }
  g_strfreev (parts);
  if (types->len == 0) {
    g_ptr_array_free (types, TRUE);
    return NULL;
  }
  g_ptr_array_add (types, NULL);
  return (gchar **) g_ptr_array_free (types, FALSE);
}

static void
gst_vktile_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVkTileFilterPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BORDER:
      priv->border = g_value_get_enum (value);
      break;
    case PROP_BORDER_VALUE:
      priv->border_value = g_value_get_double (value);
      break;
    case PROP_ROI_X:
      priv->roi.x = g_value_get_int (value);
      priv->roi_warned = FALSE;
      break;
    case PROP_ROI_Y:
      priv->roi.y = g_value_get_int (value);
      priv->roi_warned = FALSE;
      break;
    case PROP_ROI_WIDTH:
      priv->roi.width = g_value_get_int (value);
      priv->roi_warned = FALSE;
      break;
    case PROP_ROI_HEIGHT:
      priv->roi.height = g_value_get_int (value);
      priv->roi_warned = FALSE;
      break;
    case PROP_SOURCE_X:
      priv->roi.source_x = g_value_get_int (value);
      priv->roi_warned = FALSE;
      break;
    case PROP_SOURCE_Y:
      priv->roi.source_y = g_value_get_int (value);
      priv->roi_warned = FALSE;
      break;
    case PROP_PLANES:
      priv->planes = g_value_get_uint (value);
      break;
    case PROP_ROI_META:
      g_strfreev (priv->roi_meta_types);
      priv->roi_meta_types = parse_roi_types (g_value_get_string (value));
      break;
    case PROP_ROI_PADDING:
      priv->roi_padding = g_value_get_int (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      priv->frames_in_flight = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      priv->post_messages = g_value_get_boolean (value);
      break;
    case PROP_DEVICE_INDEX:
      priv->device_index = g_value_get_int (value);
      break;
    case PROP_DEVICE_NAME:
      g_free (priv->device_name);
      priv->device_name = g_value_get_string (value) &&
          *g_value_get_string (value) ? g_value_dup_string (value) : NULL;
      break;
    case PROP_DROP_INVALID:
      priv->drop_invalid = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_vktile_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVkTileFilterPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BORDER:
      g_value_set_enum (value, priv->border);
      break;
    case PROP_BORDER_VALUE:
      g_value_set_double (value, priv->border_value);
      break;
    case PROP_ROI_X:
      g_value_set_int (value, priv->roi.x);
      break;
    case PROP_ROI_Y:
      g_value_set_int (value, priv->roi.y);
      break;
    case PROP_ROI_WIDTH:
      g_value_set_int (value, priv->roi.width);
      break;
    case PROP_ROI_HEIGHT:
      g_value_set_int (value, priv->roi.height);
      break;
    case PROP_SOURCE_X:
      g_value_set_int (value, priv->roi.source_x);
      break;
    case PROP_SOURCE_Y:
      g_value_set_int (value, priv->roi.source_y);
      break;
    case PROP_PLANES:
      g_value_set_uint (value, priv->planes);
      break;
    case PROP_ROI_META:
      g_value_take_string (value, priv->roi_meta_types ?
          g_strjoinv (",", priv->roi_meta_types) : g_strdup (""));
      break;
    case PROP_ROI_PADDING:
      g_value_set_int (value, priv->roi_padding);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, priv->frames_in_flight);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, priv->post_messages);
      break;
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, priv->device_index);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, priv->device_name ? priv->device_name : "");
      break;
    case PROP_DROP_INVALID:
      g_value_set_boolean (value, priv->drop_invalid);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

/* The timing meta carries a frame's tile classes as they are. */
G_STATIC_ASSERT (G_N_ELEMENTS (((VktFrame *) NULL)->tile_classes) ==
    GST_VKTILE_TILE_CLASSES);
G_STATIC_ASSERT ((gint) VKT_TILE_CLASSES == (gint) GST_VKTILE_TILE_CLASSES);
G_STATIC_ASSERT ((gint) VKT_TILES_FREE == (gint) GST_VKTILE_TILES_FREE);
G_STATIC_ASSERT ((gint) VKT_TILES_WRITE_CHECKED == (gint) GST_VKTILE_TILES_WRITE_CHECKED);
G_STATIC_ASSERT ((gint) VKT_TILES_READ_CHECKED == (gint) GST_VKTILE_TILES_READ_CHECKED);
G_STATIC_ASSERT ((gint) VKT_TILES_CHECKED == (gint) GST_VKTILE_TILES_CHECKED);

/* ---- device and context ---- */

static void
gst_vktile_filter_set_context (GstElement * element, GstContext * context)
{
  GstVkTileFilterPrivate *priv = PRIV (element);

  gst_vulkan_handle_set_context (element, context, NULL, &priv->instance);
  /* The pipeline's or the application's device: it wins over device-index
   * (gst_vktile_filter_open_device()). Context queries read it from other
   * threads. */
  GST_OBJECT_LOCK (element);
  if (gst_context_has_context_type (context,
          GST_VULKAN_DEVICE_CONTEXT_TYPE_STR) && !priv->device)
    gst_context_get_vulkan_device (context, &priv->device);
  GST_OBJECT_UNLOCK (element);
  GST_ELEMENT_CLASS (gst_vktile_filter_parent_class)->set_context (element,
      context);
}

static gboolean
gst_vktile_filter_query (GstBaseTransform * bt, GstPadDirection direction,
    GstQuery * query)
{
  GstVkTileFilterPrivate *priv = PRIV (bt);

  /* Neighbours query from their own threads, maybe while we stop: answer
   * with references taken under the lock. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GstVulkanInstance *instance;
    GstVulkanDevice *device;
    GstVulkanQueue *queue;
    gboolean answered;

    GST_OBJECT_LOCK (bt);
    instance = priv->instance ? gst_object_ref (priv->instance) : NULL;
    device = priv->device ? gst_object_ref (priv->device) : NULL;
    queue = priv->queue ? gst_object_ref (priv->queue) : NULL;
    GST_OBJECT_UNLOCK (bt);
    answered = gst_vulkan_handle_context_query (GST_ELEMENT (bt), query, NULL,
        instance, device)
        || gst_vulkan_queue_handle_context_query (GST_ELEMENT (bt), query,
        queue);
    gst_clear_object (&instance);
    gst_clear_object (&device);
    gst_clear_object (&queue);
    if (answered)
      return TRUE;
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_DRAIN && direction == GST_PAD_SINK)
    gst_vktile_filter_drain_output (GST_VKTILE_FILTER (bt));
  if (!GST_BASE_TRANSFORM_CLASS (gst_vktile_filter_parent_class)->query (bt,
          direction, query))
    return FALSE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY && direction == GST_PAD_SRC) {
    GstClockTime min, max, added = 0;
    gboolean live;
    guint in_flight;

    /* A frame leaves as soon as its work is done: nothing is added to the
     * minimum. Frames in flight are what the element can hold while the
     * GPU catches up. */
    GST_OBJECT_LOCK (bt);
    in_flight = priv->frames_in_flight;
    GST_OBJECT_UNLOCK (bt);
    if (priv->in_info.fps_n > 0)
      added = gst_util_uint64_scale_int (GST_SECOND * (in_flight - 1),
          priv->in_info.fps_d, priv->in_info.fps_n);
    gst_query_parse_latency (query, &live, &min, &max);
    if (GST_CLOCK_TIME_IS_VALID (max))
      max += added;
    gst_query_set_latency (query, live, min, max);
  }
  return TRUE;
}

static gboolean
gst_vktile_filter_start (GstBaseTransform * bt)
{
  GstVkTileFilterPrivate *priv = PRIV (bt);
  GError *error = NULL;

  priv->frame_index = 0;
  priv->last_input_path = priv->last_output_path = -1;
  gst_vktile_filter_request_restart (GST_VKTILE_FILTER (bt));
  gst_vktile_filter_unflush_output (GST_VKTILE_FILTER (bt));
  if (!gst_vktile_filter_open_device (GST_VKTILE_FILTER (bt), &error)) {
    if (g_error_matches (error, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_SETTINGS))
      GST_ELEMENT_ERROR (bt, RESOURCE, SETTINGS, ("%s", error->message),
          (NULL));
    else if (priv->device)
      gst_vktile_filter_post_gpu_error (GST_VKTILE_FILTER (bt),
          "set up the filter", error);
    else
      GST_ELEMENT_ERROR (bt, RESOURCE, NOT_FOUND,
          ("No Vulkan device with compute support is available."),
          ("%s", error ? error->message : "unknown error"));
    g_clear_error (&error);
    /* a state change may try again */
    gst_vktile_filter_release_device (GST_VKTILE_FILTER (bt));
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_vktile_filter_stop (GstBaseTransform * bt)
{
  gst_vktile_filter_flush_output (GST_VKTILE_FILTER (bt), TRUE);
  gst_vktile_timing_messages_clear (PRIV (bt)->messages);
  gst_vktile_filter_release_device (GST_VKTILE_FILTER (bt));
  return TRUE;
}

/* ---- caps ---- */

static GstCaps *
gst_vktile_filter_transform_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *result = gst_caps_new_empty ();
  guint i;

  /* Same format and size on both pads, in either memory. */
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    gst_caps_append_structure_full (result, gst_structure_copy (s),
        gst_caps_features_new_empty ());
    gst_caps_append_structure_full (result, gst_structure_copy (s),
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, NULL));
    gst_caps_append_structure_full (result, gst_structure_copy (s),
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, NULL));
  }
  result = gst_caps_simplify (result);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  return result;
}

static gboolean
caps_has_feature (GstCaps * caps, const gchar * feature)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    if (f && !gst_caps_features_is_any (f)
        && gst_caps_features_contains (f, feature))
      return TRUE;
  }
  return FALSE;
}

/* The structures of `caps` in memory `feature` (NULL: system memory). */
static GstCaps *
caps_with_feature (GstCaps * caps, const gchar * feature)
{
  GstCaps *result = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    gboolean gpu = f && !gst_caps_features_is_any (f)
        && (gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER)
        || gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE));
    if (feature ? gpu && gst_caps_features_contains (f, feature) : !gpu)
      gst_caps_append_structure_full (result,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          gst_caps_features_copy (f));
  }
  return result;
}

/* Frames stay in Vulkan memory only where downstream says explicitly that
 * it takes it: an element with ANY caps (fakesink, filesink, appsink)
 * would map the memory, so it gets host-visible system memory. Buffers
 * (what the shaders write) before images (gstvulkan's elements). */
static GstCaps *
gst_vktile_filter_fixate_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  if (direction == GST_PAD_SINK) {
    GstCaps *peer = gst_pad_peer_query_caps (GST_BASE_TRANSFORM_SRC_PAD (bt),
        NULL);
    gboolean explicit = peer && !gst_caps_is_any (peer);
    const gchar *feature = NULL;
    GstCaps *preferred;

    if (explicit && caps_has_feature (peer,
            GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER))
      feature = GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER;
    else if (explicit && caps_has_feature (peer,
            GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE))
      feature = GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE;
    preferred = caps_with_feature (othercaps, feature);

    if (peer)
      gst_caps_unref (peer);
    if (!gst_caps_is_empty (preferred)) {
      gst_caps_unref (othercaps);
      othercaps = preferred;
    } else {
      gst_caps_unref (preferred);
    }
  }
  return GST_BASE_TRANSFORM_CLASS (gst_vktile_filter_parent_class)->fixate_caps
      (bt, direction, caps, othercaps);
}

/* Caps GstVideoInfo cannot describe. The one reason a user runs into is a
 * frame too large for it (4 GiB or more, e.g. 32768x32768 RGBA): say so,
 * rather than leave a bare "not-negotiated" upstream. */
static void
refuse_caps (GstBaseTransform * bt, GstCaps * caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  const gchar *format = gst_structure_get_string (s, "format");
  gint width = 0, height = 0;
  GstVideoInfo row;

  if (format && gst_structure_get_int (s, "width", &width)
      && gst_structure_get_int (s, "height", &height) && height > 0
      && gst_video_info_set_format (&row, gst_video_format_from_string
          (format), width, 1)
      && (guint64) row.size * height >= G_MAXUINT32)
    GST_ELEMENT_ERROR (bt, STREAM, FORMAT,
        ("A %dx%d %s frame is too large: GStreamer video frames must be "
            "smaller than 4 GiB.", width, height, format),
        ("%" GST_PTR_FORMAT, caps));
  else
    GST_ELEMENT_ERROR (bt, STREAM, FORMAT,
        ("Cannot filter video of these caps."), ("%" GST_PTR_FORMAT, caps));
}

static gboolean
gst_vktile_filter_set_caps (GstBaseTransform * bt, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstVkTileFilterPrivate *priv = PRIV (bt);
  guint64 largest;
  guint i;

  if (!gst_video_info_from_caps (&priv->in_info, incaps)
      || !gst_video_info_from_caps (&priv->out_info, outcaps)) {
    refuse_caps (bt, incaps);
    return FALSE;
  }
  /* 3-byte pixels are filtered as 4-byte ones: a pixel a word. */
  priv->work_info = priv->in_info;
  priv->widen = GST_VIDEO_INFO_FORMAT (&priv->in_info) == GST_VIDEO_FORMAT_RGB
      || GST_VIDEO_INFO_FORMAT (&priv->in_info) == GST_VIDEO_FORMAT_BGR;
  if (priv->widen)
    gst_video_info_set_format (&priv->work_info,
        GST_VIDEO_INFO_FORMAT (&priv->in_info) == GST_VIDEO_FORMAT_RGB ?
        GST_VIDEO_FORMAT_RGBx : GST_VIDEO_FORMAT_BGRx,
        GST_VIDEO_INFO_WIDTH (&priv->in_info),
        GST_VIDEO_INFO_HEIGHT (&priv->in_info));
  largest = priv->device ? vkt_device_largest_buffer (priv->device) :
      G_MAXUINT64;
  if (priv->out_info.size > largest) {
    GST_ELEMENT_ERROR (bt, RESOURCE, NO_SPACE_LEFT,
        ("A %dx%d %s frame needs %.1f MiB in one GPU buffer; this GPU "
            "allocates at most %.1f MiB at once.",
            GST_VIDEO_INFO_WIDTH (&priv->out_info),
            GST_VIDEO_INFO_HEIGHT (&priv->out_info),
            GST_VIDEO_INFO_NAME (&priv->out_info),
            priv->out_info.size / 1048576.0, largest / 1048576.0),
        ("%" G_GSIZE_FORMAT " bytes, largest allocation %" G_GUINT64_FORMAT,
            priv->out_info.size, largest));
    return FALSE;
  }
  /* The shaders address planes as 32-bit words. */
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&priv->out_info); i++)
    if (priv->out_info.offset[i] % 4 || priv->out_info.stride[i] % 4) {
      GST_ERROR_OBJECT (bt, "plane %u of %" GST_PTR_FORMAT
          " is not 4-byte aligned", i, outcaps);
      return FALSE;
    }
  priv->out_vulkan = caps_has_feature (outcaps,
      GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER)
      || caps_has_feature (outcaps, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE);
  GST_OBJECT_LOCK (bt);
  priv->roi_warned = FALSE;     /* a ROI may miss this frame size only */
  GST_OBJECT_UNLOCK (bt);
  GST_DEBUG_OBJECT (bt, "in %" GST_PTR_FORMAT " out %" GST_PTR_FORMAT, incaps,
      outcaps);
  return TRUE;
}

/* ---- allocation ---- */

static gboolean
gst_vktile_filter_propose_allocation (GstBaseTransform * bt,
    GstQuery * decide_query, GstQuery * query)
{
  GstVkTileFilterPrivate *priv = PRIV (bt);
  GstCaps *caps;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;
  guint min;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !priv->device || !gst_video_info_from_caps (&info, caps))
    return TRUE;
  /* Images come from upstream's own image pool. */
  if (caps_has_feature (caps, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE))
    return TRUE;

  /* The element holds the input buffers of the frames in flight, and one
   * being recorded. */
  GST_OBJECT_LOCK (bt);
  min = priv->frames_in_flight + 1;
  GST_OBJECT_UNLOCK (bt);

  /* Upstream writes straight into memory the GPU reads. */
  pool = gst_vktile_buffer_pool_new (priv->device, TRUE);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (gst_buffer_pool_set_config (pool, config))
    gst_query_add_allocation_pool (query, pool, info.size, min, 0);
  else
    gst_query_add_allocation_pool (query, NULL, info.size, min, 0);
  gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_vktile_filter_decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
  GstVkTileFilterPrivate *priv = PRIV (bt);
  GstCaps *caps;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  gboolean vulkan, image;
  guint min = 2, max = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  vulkan = caps_has_feature (caps, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER);
  image = caps_has_feature (caps, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE);

  /* Always our own pool: the shaders write storage buffers. Frames that
   * stay on the GPU live in device-local memory; images are gstvulkan's,
   * with storage usage added, written after the filter. */
  pool = image ? gst_vktile_image_pool_new (priv->device) :
      gst_vktile_buffer_pool_new (priv->device, !vulkan);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);
  /* Downstream's, plus the frames in flight, plus one being recorded. */
  GST_OBJECT_LOCK (bt);
  min = MAX (min + priv->frames_in_flight + 1, 2);
  GST_OBJECT_UNLOCK (bt);
  if (max && max < min)
    max = min;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  if (!image)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return FALSE;
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, info.size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, info.size, min, max);
  gst_object_unref (pool);
  return GST_BASE_TRANSFORM_CLASS (gst_vktile_filter_parent_class)->decide_allocation
      (bt, query);
}

/* Our pool's allocations are where the GPU runs out of memory first: an
 * element error that says so, not basetransform's "failed to activate
 * bufferpool". */
static GstFlowReturn
gst_vktile_filter_prepare_output_buffer (GstBaseTransform * bt,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstBufferPool *pool = gst_base_transform_get_buffer_pool (bt);
  GstFlowReturn ret = GST_FLOW_OK;
  GError *error = NULL;

  if (pool && !gst_buffer_pool_is_active (pool)
      && !gst_buffer_pool_set_active (pool, TRUE)) {
    error = gst_vktile_buffer_pool_take_error (pool);
    gst_vktile_filter_post_gpu_error (GST_VKTILE_FILTER (bt),
        "allocate the output frames", error);
    ret = GST_FLOW_ERROR;
  } else {
    ret = GST_BASE_TRANSFORM_CLASS (gst_vktile_filter_parent_class)->
        prepare_output_buffer (bt, inbuf, outbuf);
    if (ret == GST_FLOW_ERROR && pool
        && (error = gst_vktile_buffer_pool_take_error (pool)))
      gst_vktile_filter_post_gpu_error (GST_VKTILE_FILTER (bt),
          "allocate an output frame", error);
  }
  g_clear_error (&error);
  if (pool)
    gst_object_unref (pool);
  return ret;
}

/* ---- frames in flight ---- */

static GstFlowReturn
gst_vktile_filter_generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
  GstVkTileFilterPrivate *priv = PRIV (bt);
  GstFlowReturn ret;
  PendingFrame *recorded;

  ret = GST_BASE_TRANSFORM_CLASS (gst_vktile_filter_parent_class)->
      generate_output (bt, outbuf);
  recorded = g_steal_pointer (&priv->recorded);
  if (!recorded)
    return ret;
  if (ret != GST_FLOW_OK || !*outbuf || *outbuf != recorded->outbuf) {
    gst_vktile_filter_pending_frame_free (recorded);
    return ret;
  }
  /* The queue takes the parent's reference to the buffer. */
  ret =
      gst_vktile_filter_queue_output (GST_VKTILE_FILTER (bt), *outbuf,
      recorded->sync, recorded->download);
  gst_buffer_unref (recorded->outbuf);
  g_free (recorded);
  *outbuf = NULL;
  return ret;
}

static gboolean
gst_vktile_filter_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstVkTileFilter *self = GST_VKTILE_FILTER (bt);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP
      || GST_EVENT_TYPE (event) == GST_EVENT_CAPS
      || GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START)
    gst_vktile_filter_request_restart (self);
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:{
      gboolean ret;
      g_mutex_lock (&PRIV (self)->out_lock);
      PRIV (self)->out_flushing = TRUE;
      g_cond_broadcast (&PRIV (self)->out_cond);
      g_mutex_unlock (&PRIV (self)->out_lock);
      /* Downstream flushing first, so that a push in progress returns. */
      ret = GST_BASE_TRANSFORM_CLASS (gst_vktile_filter_parent_class)->
          sink_event (bt, event);
      gst_vktile_filter_flush_output (self, FALSE);
      return ret;
    }
    case GST_EVENT_FLUSH_STOP:
      gst_vktile_filter_flush_output (self, FALSE);
      gst_vktile_filter_unflush_output (self);
      break;
    default:
      /* Frames go out before the events that followed them in. */
      if (GST_EVENT_IS_SERIALIZED (event))
        gst_vktile_filter_drain_output (self);
      /* ... and their messages before the sink's end of stream. */
      if (GST_EVENT_TYPE (event) == GST_EVENT_EOS)
        gst_vktile_timing_messages_post (PRIV (self)->messages,
            GST_ELEMENT (self), TRUE);
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_vktile_filter_parent_class)->sink_event
      (bt, event);
}

/* ---- the frame ---- */

static void
say_paths (GstVkTileFilter * self, InputPath in, OutputPath out)
{
  static const gchar *const output_path_names[] = {
    "written in place by the shaders",
    "written by the shaders straight into the host-visible output buffer",
    "computed in a host-visible buffer and copied by the CPU",
    "computed in a storage buffer and copied on the GPU into images "
        "(memory:VulkanImage)",
    "computed in GPU memory and written across the bus beside the next "
        "frame's upload",
  };
  GstVkTileFilterPrivate *priv = PRIV (self);

  if ((gint) in == priv->last_input_path && (gint) out == priv->last_output_path)
    return;
  GST_INFO_OBJECT (self, "input frames: %s; output frames: %s",
      input_path_names[in], output_path_names[out]);
  priv->last_input_path = in;
  priv->last_output_path = out;
}

static void
keep_memories (VktCompute * compute, GstBuffer * buffer)
{
  guint i;

  for (i = 0; i < gst_buffer_n_memory (buffer); i++)
    vkt_compute_keep (compute, gst_buffer_peek_memory (buffer, i));
}

/* Control bindings (GstController) set the properties for the frame's
 * stream time, before the element reads them. */
static void
gst_vktile_filter_before_transform (GstBaseTransform * bt, GstBuffer * inbuf)
{
  GstClockTime stream_time;

  if (GST_BUFFER_FLAG_IS_SET (inbuf, GST_BUFFER_FLAG_DISCONT))
    gst_vktile_filter_request_restart (GST_VKTILE_FILTER (bt));
  if (bt->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&bt->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (inbuf));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (bt), stream_time);
}

/* A frame's memory must hold what its caps or video meta describe: such a
 * frame is never read. GST_FLOW_OK, or the frame dropped or the stream
 * stopped as drop-invalid says (posted). */
static GstFlowReturn
check_buffers (GstVkTileFilter * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GError *error = NULL;
  gboolean drop_invalid;

  if (gst_vktile_filter_check_frame_layout (inbuf, &priv->in_info, "input",
          &error)
      && gst_vktile_filter_check_frame_layout (outbuf, &priv->out_info,
          "output", &error))
    return GST_FLOW_OK;
  GST_OBJECT_LOCK (self);
  drop_invalid = priv->drop_invalid;
  GST_OBJECT_UNLOCK (self);
  if (drop_invalid)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Dropping a frame whose memory does not hold what it describes."),
        ("%s", error->message));
  else
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("A frame's memory does not hold what its caps or video meta "
            "describe (set drop-invalid to drop such frames instead)."),
        ("%s", error->message));
  g_clear_error (&error);
  return drop_invalid ? GST_BASE_TRANSFORM_FLOW_DROPPED : GST_FLOW_ERROR;
}

/* What recording a frame tells the steps after it. */
typedef struct
{
  VktFrame frame;
  InputPath in_path;
  OutputPath path;
  guint64 cpu_upload_ns;
  GstVkTileTimingMeta *meta;
  /* OUTPUT_PAIRED: this frame's download, which a later submission
   * records; and the previous frame's, which this one carries */
  GstVkTileDeferredDownload *download, *carried;
} RecordedFrame;

/* Records the frame's work — the input made readable, the unfiltered
 * parts copied, the element's dispatches per frame or per region — and
 * submits it; NULL, with nothing left recording, on an error. */
static VktSync *
record_frame (GstVkTileFilter * self, GstBuffer * inbuf, GstBuffer * outbuf,
    RecordedFrame * rec, GError ** error)
{
  GstVkTileFilterClass *klass = GST_VKTILE_FILTER_GET_CLASS (self);
  GstVkTileFilterPrivate *priv = PRIV (self);
  VktCompute *compute = priv->compute;
  GArray *regions = NULL;
  VktBufferRef narrow_out = { VK_NULL_HANDLE, 0, 0, VK_NULL_HANDLE };
  VktPlane narrow_plane;
  VktSync *sync;
  guint moving, filtering;
  gboolean pair, ok;

  if (!compute) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "Not started");
    return NULL;
  }
  /* Frames that come while the GPU still works on earlier ones pair their
   * transfers: each upload crosses the bus beside the previous frame's
   * download, in one submission. A frame that finds the GPU idle (a live
   * source) is filtered and written out at once, as it always was. */
  GST_OBJECT_LOCK (self);
  pair = priv->separate_vram && priv->frames_in_flight >= 2
      && !priv->out_vulkan && (priv->deferred || vkt_compute_busy (compute));
  GST_OBJECT_UNLOCK (self);
  if (!vkt_compute_begin (compute, error))
    return NULL;
  /* The input buffer goes back to its pool (and upstream may write it)
   * only once the GPU has read it; the output's memory stays allocated
   * until the GPU has written it, whatever downstream does with it. */
  vkt_compute_keep (compute, inbuf);
  keep_memories (compute, outbuf);
  vkt_compute_timestamp (compute, VKT_TS_START);
  ok = gst_vktile_filter_prepare_input (self, inbuf, &rec->frame, pair,
      &rec->in_path, &rec->cpu_upload_ns, error);
  /* With no barrier between them: both directions of the bus at once. */
  ok = ok && gst_vktile_filter_carry_deferred (self, &rec->carried, error);
  vkt_compute_barrier (compute);
  moving = vkt_compute_dispatch_count (compute);
  vkt_compute_timestamp (compute, VKT_TS_UPLOADED);
  /* The widening of 3-byte pixels is the element's work: in gpu_ns. */
  if (ok && priv->widen) {
    ok = gst_vktile_filter_widen_input (self, &rec->frame, error);
    vkt_compute_barrier (compute);
  }
  ok = ok && gst_vktile_filter_prepare_output (self, outbuf, &rec->frame,
      pair, &rec->path, &rec->download, error);
  ok = ok && (!priv->widen || gst_vktile_filter_widen_output (self,
          &rec->frame, &narrow_out, &narrow_plane, error));
  if (ok && (regions = gst_vktile_filter_frame_regions (self, inbuf))) {
    ok = gst_vktile_filter_record_regions (self, &rec->frame, regions, error);
  } else if (ok) {
    gst_vktile_filter_describe_planes (self, &rec->frame, NULL, FALSE);
    if (gst_vktile_filter_record_unfiltered_copies (self, &rec->frame))
      vkt_compute_barrier (compute);
    ok = klass->record (self, compute, &rec->frame, error);
  }
  g_clear_pointer (&regions, g_array_unref);
  if (ok && priv->widen) {
    vkt_compute_barrier (compute);
    ok = gst_vktile_filter_narrow_output (self, &rec->frame, &narrow_out,
        &narrow_plane, error);
  }
  if (!ok)
    goto abandon;
  vkt_compute_barrier (compute);
  vkt_compute_timestamp (compute, VKT_TS_FILTERED);
  filtering = vkt_compute_dispatch_count (compute) - moving;
  if (rec->path == OUTPUT_IMAGE
      && !gst_vktile_filter_write_output_images (self, outbuf, error))
    goto abandon;
  vkt_compute_timestamp (compute, VKT_TS_WRITTEN_OUT);
  say_paths (self, rec->in_path, rec->path);
  rec->meta = gst_vktile_timing_meta_add (outbuf, GST_OBJECT_NAME (self));
  if (rec->meta) {
    rec->meta->frame_index = priv->frame_index;
    rec->meta->dispatches = filtering;
    memcpy (rec->meta->tile_classes, rec->frame.tile_classes,
        sizeof (rec->meta->tile_classes));
  }
  if (!(sync = vkt_compute_submit (compute, error)))
    return NULL;
  gst_vktile_filter_carried (self, rec->carried, sync);
  if (rec->download) {
    /* The next submission carries it, or the output task records it. */
    g_clear_pointer (&priv->deferred, gst_vktile_deferred_download_unref);
    priv->deferred = gst_vktile_deferred_download_ref (rec->download);
  }
  return sync;

abandon:
  vkt_compute_abandon (compute);
  return NULL;
}

/* After the submission: no more than frames-in-flight unfinished, the
 * CPU copy out where the output is not the GPU's, the timing meta and
 * messages, and the output handed on (sync taken). */
static gboolean
finish_frame (GstVkTileFilter * self, GstBuffer * inbuf, GstBuffer * outbuf,
    RecordedFrame * rec, VktSync * sync, gint64 t0, GError ** error)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstVkTileTimingMeta *meta = rec->meta;
  gboolean cpu_copy = rec->path == OUTPUT_CPU_COPY, post_messages, ok;
  /* The output moved after the filter: by the CPU, or into images. */
  gboolean moved_out = cpu_copy || rec->path == OUTPUT_IMAGE;
  guint64 cpu_download_ns = 0;
  guint limit;

  GST_OBJECT_LOCK (self);
  limit = priv->frames_in_flight;
  post_messages = priv->post_messages;
  GST_OBJECT_UNLOCK (self);

  /* This also hands finished input buffers back to upstream. */
  g_mutex_lock (&priv->record_lock);
  ok = vkt_compute_retire (priv->compute, limit, error);
  g_mutex_unlock (&priv->record_lock);
  if (ok && cpu_copy) {
    gint64 t_download;
    ok = vkt_sync_wait (sync, error);
    t_download = g_get_monotonic_time ();
    ok = ok && gst_vktile_filter_copy_frame_staging (&priv->out_info, outbuf,
        priv->out_staging, FALSE, error);
    cpu_download_ns = (g_get_monotonic_time () - t_download) * 1000;
  }
  if (ok && meta) {
    gboolean moved_in = frame_moved_in (rec->in_path);
    gst_vktile_timing_meta_set_pending (meta, sync, moved_in,
        rec->cpu_upload_ns, moved_out, cpu_download_ns, rec->download);
    meta->cpu_ns = (g_get_monotonic_time () - t0) * 1000;
    GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT " submitted: %u "
        "dispatches, %u regions, cpu %" G_GUINT64_FORMAT " ns",
        meta->frame_index, meta->dispatches, rec->frame.n_regions,
        meta->cpu_ns);
    if (post_messages) {
      GstVkTileFrameTimes times = { GST_BUFFER_PTS (inbuf),
        GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_BUFFER_DURATION (inbuf),
        rec->frame.n_regions
      };
      if (bt->segment.format == GST_FORMAT_TIME) {
        times.stream_time = gst_segment_to_stream_time (&bt->segment,
            GST_FORMAT_TIME, times.timestamp);
        times.running_time = gst_segment_to_running_time (&bt->segment,
            GST_FORMAT_TIME, times.timestamp);
      }
      gst_vktile_timing_messages_add (priv->messages, meta, &times, sync,
          moved_in, rec->cpu_upload_ns, moved_out, cpu_download_ns,
          rec->download);
    }
  }
  if (!ok) {
    vkt_sync_unref (sync);
    return FALSE;
  }
  gst_vktile_timing_messages_post (priv->messages, GST_ELEMENT (self), FALSE);
  priv->frame_index++;
  if (priv->out_vulkan || cpu_copy) {
    /* Vulkan memory out: whoever uses it next orders after the submission
     * (the queue) or waits for it (a map). */
    vkt_sync_unref (sync);
  } else {
    priv->recorded = g_new0 (PendingFrame, 1);
    priv->recorded->outbuf = gst_buffer_ref (outbuf);
    priv->recorded->sync = sync;
    priv->recorded->download = g_steal_pointer (&rec->download);
  }
  return TRUE;
}

/* The steps of a frame: its buffers checked, its work recorded and
 * submitted, then finished. */
static GstFlowReturn
gst_vktile_filter_transform (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstVkTileFilter *self = GST_VKTILE_FILTER (bt);
  gint64 t0 = g_get_monotonic_time ();
  RecordedFrame rec;
  GError *error = NULL;
  GstFlowReturn ret;
  VktSync *sync;

  memset (&rec, 0, sizeof (rec));
  ret = check_buffers (self, inbuf, outbuf);
  if (ret == GST_FLOW_OK) {
    /* The output task records a deferred download under the same lock;
     * it is held no longer than the recording, so that a frame whose work
     * is done gets its download at once. */
    g_mutex_lock (&PRIV (self)->record_lock);
    sync = record_frame (self, inbuf, outbuf, &rec, &error);
    g_mutex_unlock (&PRIV (self)->record_lock);
    if (!sync || !finish_frame (self, inbuf, outbuf, &rec, sync, t0, &error))
      ret = GST_FLOW_ERROR;
    g_clear_pointer (&rec.download, gst_vktile_deferred_download_unref);
    if (ret == GST_FLOW_ERROR) {
      gst_vktile_filter_post_gpu_error (self, "filter the frame", error);
      g_clear_error (&error);
    }
  }
  return ret;
}

/* The output task waits with the source pad's stream lock held, and the
 * pad cannot deactivate until it lets go: stop it before the pads go. */
static GstStateChangeReturn
gst_vktile_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    gst_vktile_filter_flush_output (GST_VKTILE_FILTER (element), TRUE);
  return GST_ELEMENT_CLASS (gst_vktile_filter_parent_class)->change_state
      (element, transition);
}

static void
gst_vktile_filter_finalize (GObject * object)
{
  GstVkTileFilterPrivate *priv = PRIV (object);

  gst_vktile_filter_release_device (GST_VKTILE_FILTER (object));
  g_strfreev (priv->roi_meta_types);
  g_free (priv->device_name);
  gst_vktile_timing_messages_free (priv->messages);
  g_queue_clear_full (&priv->out_queue,
      (GDestroyNotify) gst_vktile_filter_pending_frame_free);
  g_mutex_clear (&priv->out_lock);
  g_mutex_clear (&priv->record_lock);
  g_cond_clear (&priv->out_cond);
  if (priv->reported)
    gst_memory_unref (priv->reported);
  G_OBJECT_CLASS (gst_vktile_filter_parent_class)->finalize (object);
}

static void
gst_vktile_filter_class_init (GstVkTileFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_vktile_filter_set_property;
  gobject_class->get_property = gst_vktile_filter_get_property;
  gobject_class->finalize = gst_vktile_filter_finalize;
  gst_vktile_filter_host_import_quark =
      g_quark_from_static_string ("vktile-host-import");

  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "How the source is continued beyond the edges of the source ROI",
          gst_vktile_border_get_type (), GST_VKTILE_BORDER_CLAMP, flags));
  g_object_class_install_property (gobject_class, PROP_BORDER_VALUE,
      g_param_spec_double ("border-value", "Border value",
          "Value outside the source ROI with border=constant, as a fraction "
          "of the format's range (0.0 black, 1.0 full scale)", 0.0, 1.0, 0.0,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ROI_X,
      g_param_spec_int ("roi-x", "Target ROI x",
          "Left edge of the target region of interest; pixels outside it "
          "pass unchanged", 0, G_MAXINT, 0, flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ROI_Y,
      g_param_spec_int ("roi-y", "Target ROI y",
          "Top edge of the target region of interest", 0, G_MAXINT, 0,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ROI_WIDTH,
      g_param_spec_int ("roi-width", "Target ROI width",
          "Width of the region of interest (0: to the right edge of the "
          "frame); a region that does not fit is clipped", 0, G_MAXINT, 0,
          flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ROI_HEIGHT,
      g_param_spec_int ("roi-height", "Target ROI height",
          "Height of the region of interest (0: to the bottom edge of the "
          "frame)", 0, G_MAXINT, 0, flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_SOURCE_X,
      g_param_spec_int ("source-x", "Source ROI x",
          "Left edge of the source region the target ROI is computed from "
          "(-1: same as roi-x); no pixel outside it is read", -1, G_MAXINT,
          -1, flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_SOURCE_Y,
      g_param_spec_int ("source-y", "Source ROI y",
          "Top edge of the source region (-1: same as roi-y)", -1, G_MAXINT,
          -1, flags | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_PLANES,
      g_param_spec_uint ("planes", "Planes",
          "Bitmask of the components to filter, in the format's component "
          "order: 0x1 R or Y, 0x2 G or U, 0x4 B or V, 0x8 A; the others are "
          "copied", 0, 0xf, 0xf, flags));
  g_object_class_install_property (gobject_class, PROP_ROI_META,
      g_param_spec_string ("roi-meta", "ROI metadata types",
          "Filter, in each frame, the regions of interest that the frame's "
          "metadata names (GstVideoRegionOfInterestMeta, as detectors such "
          "as facedetect attach) of these comma-separated types, e.g. "
          "\"face,license-plate\"; the rest of the frame, and a frame "
          "without such regions, pass unchanged. Each region is filtered "
          "from the input with the border rule at its own edges; where "
          "regions overlap, the one attached last wins. Empty: off (the "
          "roi-* properties apply; while roi-meta is set they are "
          "ignored)", "", flags));
  g_object_class_install_property (gobject_class, PROP_ROI_PADDING,
      g_param_spec_int ("roi-padding", "ROI metadata padding",
          "Pixels added on every side of each region from roi-meta before "
          "it is clipped to the frame (a detector's box often cuts the "
          "object's edge)", 0, G_MAXINT, 0, flags));
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames submitted to the GPU and not finished yet. Above 1, the "
          "element prepares and submits the next frame, and pushes finished "
          "ones, while the GPU works on earlier frames; a frame still leaves "
          "as soon as its own work is done, so a live source gains no "
          "latency. On a discrete GPU, frames in system memory that come "
          "faster than the GPU takes them then cross the bus both ways at "
          "once (each upload beside the previous frame's download). The "
          "element holds this many input buffers", 1,
          VKT_SLOTS - 2,
          DEFAULT_FRAMES_IN_FLIGHT, flags));
  g_object_class_install_property (gobject_class, PROP_DEVICE_INDEX,
      g_param_spec_int ("device-index", "Device index",
          "The GPU to run on, numbered as vulkaninfo lists them (-1: the "
          "first). A device the pipeline or the application already shares "
          "(another Vulkan element's, a GstContext) is used instead, with a "
          "warning if it is another one. One pipeline per GPU is how to use "
          "several", -1, G_MAXINT, -1,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Run on the first GPU whose name contains this text, case "
          "ignored (e.g. \"H100\"; empty: any). With device-index, both must "
          "hold. A shared device wins, as for device-index", "",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post an element message \"vktile-timing\" on the bus for every "
          "frame once its GPU work has finished, for applications that "
          "cannot read the timing meta (Python): frame-index, gpu-ns, "
          "upload-ns, download-ns, cpu-ns, dispatches, regions (from "
          "roi-meta), and the frame's timestamp, stream-time, running-time "
          "and duration", FALSE, flags));
  g_object_class_install_property (gobject_class, PROP_DROP_INVALID,
      g_param_spec_boolean ("drop-invalid", "Drop invalid frames",
          "What to do with a frame whose memory does not hold what its caps "
          "or video meta describe (too small, strides shorter than a row, "
          "a meta that disagrees with the caps): false stops the stream with "
          "an error, true drops the frame with a warning. Such a frame is "
          "never read", FALSE, flags));

  element_class->set_context = gst_vktile_filter_set_context;
  element_class->change_state = gst_vktile_filter_change_state;
  gst_vktile_filter_class_add_pad_templates (element_class);

  bt_class->passthrough_on_same_caps = FALSE;
  bt_class->query = gst_vktile_filter_query;
  bt_class->start = gst_vktile_filter_start;
  bt_class->stop = gst_vktile_filter_stop;
  bt_class->transform_caps = gst_vktile_filter_transform_caps;
  bt_class->fixate_caps = gst_vktile_filter_fixate_caps;
  bt_class->set_caps = gst_vktile_filter_set_caps;
  bt_class->propose_allocation = gst_vktile_filter_propose_allocation;
  bt_class->decide_allocation = gst_vktile_filter_decide_allocation;
  bt_class->prepare_output_buffer = gst_vktile_filter_prepare_output_buffer;
  bt_class->before_transform = gst_vktile_filter_before_transform;
  bt_class->transform = gst_vktile_filter_transform;
  bt_class->generate_output = gst_vktile_filter_generate_output;
  bt_class->sink_event = gst_vktile_filter_sink_event;

  gst_type_mark_as_plugin_api (gst_vktile_border_get_type (), 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VKTILE_FILTER, 0);
}

static void
gst_vktile_filter_init (GstVkTileFilter * self)
{
  GstVkTileFilterPrivate *priv = PRIV (self);

  priv->border = GST_VKTILE_BORDER_CLAMP;
  priv->border_value = 0.0;
  priv->roi = (VktRoiParams) { 0, 0, 0, 0, -1, -1 };
  priv->planes = 0xf;
  priv->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  priv->device_index = -1;
  /* Late frames are dropped before any GPU work (live pipelines). */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  priv->messages = gst_vktile_timing_messages_new ();
  g_mutex_init (&priv->out_lock);
  g_mutex_init (&priv->record_lock);
  g_cond_init (&priv->out_cond);
  g_queue_init (&priv->out_queue);
}
