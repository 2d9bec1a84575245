/* gstvktiletimingmeta-private.h: registration and attachment of the timing
 * meta, for the plugin's own use. */
#ifndef __GST_VKTILE_TIMING_META_PRIVATE_H__
#define __GST_VKTILE_TIMING_META_PRIVATE_H__

#include "gstvktiletimingmeta.h"
#include "vktcompute.h"

G_BEGIN_DECLS

GType gst_vktile_timing_meta_api_register (void);
const GstMetaInfo *gst_vktile_timing_meta_get_info (void);
GstVkTileTimingMeta *gst_vktile_timing_meta_add (GstBuffer * buffer,
    const gchar * element_name);
/* gpu_ns, upload_ns and download_ns come from `sync` (plus the CPU's part
 * of moving the frame) when the meta is read. */
void gst_vktile_timing_meta_set_pending (GstVkTileTimingMeta * meta,
    VktSync * sync, gboolean uploaded, guint64 cpu_upload_ns,
    gboolean downloaded, guint64 cpu_download_ns);
/* Completes every pending timing meta of `buffer` (waits for its work). */
void gst_vktile_timing_meta_complete_all (GstBuffer * buffer);

G_END_DECLS

#endif
