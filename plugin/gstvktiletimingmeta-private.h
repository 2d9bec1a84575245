/* gstvktiletimingmeta-private.h: registration and attachment of the timing
 * meta, for the plugin's own use. */
#ifndef __GST_VKTILE_TIMING_META_PRIVATE_H__
#define __GST_VKTILE_TIMING_META_PRIVATE_H__

#include "gstvktiletimingmeta.h"

G_BEGIN_DECLS

GType gst_vktile_timing_meta_api_register (void);
const GstMetaInfo *gst_vktile_timing_meta_get_info (void);
GstVkTileTimingMeta *gst_vktile_timing_meta_add (GstBuffer * buffer,
    const gchar * element_name);

G_END_DECLS

#endif
