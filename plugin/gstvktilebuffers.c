/* gstvktilebuffers.c: the working GPU buffers of GstVkTileFilter. Owns
 * allocating them and binding them into a recording
 * (gst_vktile_filter_ensure_buffer(), gst_vktile_filter_bind()), the
 * scratch buffers the subclasses record with (a part per region while
 * regions are recorded), the temporal state and its restarts, and the
 * report the GPU writes back. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktilefilter-private.h"

#include <string.h>

void
gst_vktile_filter_free_memory (GstMemory ** mem)
{
  if (*mem) {
    gst_memory_unref (*mem);
    *mem = NULL;
  }
}

gboolean
gst_vktile_filter_ensure_buffer (GstVkTileFilter * self, GstMemory ** slot,
    gsize size, gboolean host_visible, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);

  if (*slot && gst_memory_get_sizes (*slot, NULL, NULL) >= size)
    return TRUE;
  gst_vktile_filter_free_memory (slot);
  *slot = vkt_buffer_alloc (priv->device, size, host_visible, error);
  return *slot != NULL;
}

/* The only way the recording gets at a buffer: the submission keeps it
 * alive until its fence, so a buffer replaced or freed by the element (or
 * returned to its pool) is never released under the GPU. */
VktBufferRef
gst_vktile_filter_bind (GstVkTileFilter * self, GstMemory * mem)
{
  VktBufferRef ref = { ((GstVulkanBufferMemory *) mem)->buffer, 0, 0 };

  vkt_compute_keep (PRIV (self)->compute, mem);
  return ref;
}

/* The next unused part of scratch buffer `slot` for the region being
 * recorded. A buffer too small for it is replaced by one with room for
 * this part in every region still to come; the regions recorded before
 * keep the old one (the recording holds it). */
static gboolean
region_scratch (GstVkTileFilter * self, guint slot, gsize size,
    VktBufferRef * ref, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  gsize align = MAX (priv->device->physical_device->properties.
      limits.minStorageBufferOffsetAlignment, 4);
  gsize part = (MAX (size, 1) + align - 1) / align * align;
  gsize have = priv->scratch[slot] ?
      gst_memory_get_sizes (priv->scratch[slot], NULL, NULL) : 0;

  if (priv->scratch_used[slot] + part > have) {
    if (!gst_vktile_filter_ensure_buffer (self, &priv->scratch[slot],
            MAX (2 * have, part * MAX (priv->regions_to_come, 1)), FALSE,
            error))
      return FALSE;
    priv->scratch_used[slot] = 0;
  }
  *ref = gst_vktile_filter_bind (self, priv->scratch[slot]);
  ref->offset = priv->scratch_used[slot];
  ref->range = part;
  priv->scratch_used[slot] += part;
  return TRUE;
}

gboolean
gst_vktile_filter_scratch (GstVkTileFilter * self, guint slot, gsize size,
    VktBufferRef * ref, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);

  g_return_val_if_fail (slot < N_SCRATCH, FALSE);
  if (priv->scratch_per_region)
    return region_scratch (self, slot, size, ref, error);
  if (!gst_vktile_filter_ensure_buffer (self, &priv->scratch[slot], size, FALSE,
          error))
    return FALSE;
  *ref = gst_vktile_filter_bind (self, priv->scratch[slot]);
  return TRUE;
}

gboolean
gst_vktile_filter_temporal_state (GstVkTileFilter * self, gsize size,
    VktBufferRef * ref, gboolean * fresh, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstMemory *old = priv->temporal_state;

  *fresh = !old || gst_memory_get_sizes (old, NULL, NULL) < size;
  if (*fresh) {
    /* Not gst_vktile_filter_ensure_buffer: a state that shrinks keeps its
     * buffer but is as new to the caller, who compares layouts. */
    priv->temporal_state = NULL;
    if (old)
      gst_memory_unref (old);
    priv->temporal_state = vkt_buffer_alloc (priv->device, size, FALSE, error);
    if (!priv->temporal_state)
      return FALSE;
  }
  *ref = gst_vktile_filter_bind (self, priv->temporal_state);
  return TRUE;
}

gboolean
gst_vktile_filter_take_restart (GstVkTileFilter * self)
{
  return g_atomic_int_exchange (&PRIV (self)->temporal_restart, FALSE);
}

GstMemory *
gst_vktile_filter_readback (GstVkTileFilter * self, gsize size,
    VktBufferRef * ref, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  gsize have = priv->readback ?
      gst_memory_get_sizes (priv->readback, NULL, NULL) : 0;

  if (!ref) {
    if (have < size) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
          "Nothing of %" G_GSIZE_FORMAT " bytes to read back", size);
      return NULL;
    }
    return priv->readback;
  }
  if (have < size) {
    gst_vktile_filter_free_memory (&priv->readback);
    /* the CPU reads it: cached where the device has such memory */
    if (!(priv->readback = vkt_buffer_alloc_host_cached (priv->device, size,
                error)))
      return NULL;
  }
  *ref = gst_vktile_filter_bind (self, priv->readback);
  return priv->readback;
}

void
gst_vktile_filter_set_reported (GstVkTileFilter * self, guint floats)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstMemory *report = floats ? priv->report : NULL;

  GST_OBJECT_LOCK (self);
  if (priv->reported != report) {
    if (priv->reported)
      gst_memory_unref (priv->reported);
    priv->reported = report ? gst_memory_ref (report) : NULL;
  }
  priv->reported_floats = floats;
  GST_OBJECT_UNLOCK (self);
}

void
gst_vktile_filter_read_reported (GstVkTileFilter * self, guint wanted,
    GValue * array)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstMemory *report;
  guint floats, i;
  GstMapInfo map;

  GST_OBJECT_LOCK (self);
  report = priv->reported ? gst_memory_ref (priv->reported) : NULL;
  floats = priv->reported_floats & wanted;
  GST_OBJECT_UNLOCK (self);
  if (!report)
    return;
  /* The map waits for the last frame that wrote the report. */
  if (gst_memory_map (report, &map, GST_MAP_READ)) {
    const gfloat *value = (const gfloat *) map.data;
    for (i = 0; i < 32 && (i + 1) * sizeof (gfloat) <= map.size; i++) {
      GValue v = G_VALUE_INIT;
      if (!(floats & (1u << i)))
        continue;
      g_value_init (&v, G_TYPE_DOUBLE);
      g_value_set_double (&v, value[i]);
      gst_value_array_append_and_take_value (array, &v);
    }
    gst_memory_unmap (report, &map);
  }
  gst_memory_unref (report);
}

void
gst_vktile_filter_request_restart (GstVkTileFilter * self)
{
  g_atomic_int_set (&PRIV (self)->temporal_restart, TRUE);
}

GstMemory *
gst_vktile_filter_report (GstVkTileFilter * self, gsize size,
    VktBufferRef * ref, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstMapInfo map;

  if (!priv->report || gst_memory_get_sizes (priv->report, NULL, NULL) < size) {
    if (!gst_vktile_filter_ensure_buffer (self, &priv->report, size, TRUE,
            error))
      return NULL;
    /* Read before the GPU writes it: nothing to report yet. */
    if (gst_memory_map (priv->report, &map, GST_MAP_WRITE)) {
      memset (map.data, 0, map.size);
      gst_memory_unmap (priv->report, &map);
    }
  }
  *ref = gst_vktile_filter_bind (self, priv->report);
  return priv->report;
}
