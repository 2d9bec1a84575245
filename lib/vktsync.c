/* vktsync.c: VktSync, one submission of the compute helper: its fence, taken
 * from the device's idle fences and given back to them once signalled
 * (fences are recycled), the wait that reads the submission's timestamps
 * (and logs its traced dispatches), and its reference count. */
#include "vktcompute-private.h"

#include <string.h>

/* An unsignalled fence: an idle one, else a new one. */
static gboolean
fence_acquire (VktDeviceCache * cache, VkFence * fence, GError ** error)
{
  VkFenceCreateInfo info = {
    .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
  };

  g_mutex_lock (&cache->lock);
  *fence = VK_NULL_HANDLE;
  if (cache->idle_fences->len) {
    *fence = g_array_index (cache->idle_fences, VkFence,
        cache->idle_fences->len - 1);
    g_array_set_size (cache->idle_fences, cache->idle_fences->len - 1);
  }
  g_mutex_unlock (&cache->lock);
  if (*fence)
    return TRUE;
  return vkt_check_vk (vkCreateFence (cache->device, &info, NULL, fence), error,
      "vkCreateFence");
}

/* A fence whose submission has finished goes back for reuse; one whose
 * wait failed (device lost) is destroyed. */
static void
fence_release (VktDeviceCache * cache, VkFence fence, gboolean signalled)
{
  if (signalled && vkResetFences (cache->device, 1, &fence) == VK_SUCCESS) {
    g_mutex_lock (&cache->lock);
    g_array_append_val (cache->idle_fences, fence);
    g_mutex_unlock (&cache->lock);
  } else {
    vkDestroyFence (cache->device, fence, NULL);
  }
}

VktSync *
vkt_sync_new (VktCompute * c, VktSlot * slot, GError ** error)
{
  VktSync *sync = g_new0 (VktSync, 1);

  sync->refcount = 1;
  g_mutex_init (&sync->lock);
  sync->device = gst_object_ref (c->device);
  sync->cache = c->cache;
  if (!fence_acquire (c->cache, &sync->fence, error)) {
    vkt_sync_unref (sync);
    return NULL;
  }
  sync->has_timestamps = c->has_timestamps
      && c->ts_written == (1u << VKT_TS_COUNT) - 1;
  sync->query_pool = slot->query_pool;
  sync->ts_mask = c->ts_mask;
  sync->ts_period = c->ts_period;
  sync->n_traced = c->n_traced;
  memcpy (sync->traced, c->traced, sizeof (sync->traced));
  return sync;
}

VktSync *
vkt_sync_ref (VktSync * sync)
{
  g_atomic_int_inc (&sync->refcount);
  return sync;
}

void
vkt_sync_unref (VktSync * sync)
{
  if (!sync || !g_atomic_int_dec_and_test (&sync->refcount))
    return;
  /* An unsignalled fence may not be destroyed: a device loss has already
   * failed the wait, and then nothing runs any more. */
  if (sync->fence && !sync->done && !sync->error
      && vkWaitForFences (sync->device->device, 1, &sync->fence, VK_TRUE,
          G_MAXUINT64) == VK_SUCCESS)
    sync->done = TRUE;
  if (sync->fence)
    fence_release (sync->cache, sync->fence, sync->done);
  g_clear_error (&sync->error);
  gst_object_unref (sync->device);
  g_mutex_clear (&sync->lock);
  g_free (sync);
}

/* ns between two timestamp values of the queue; 0 where they are out of
 * order. */
static gdouble
ticks_ns (VktSync * sync, guint64 from, guint64 to)
{
  guint64 a = from & sync->ts_mask, b = to & sync->ts_mask;

  return b > a ? (b - a) * sync->ts_period : 0.0;
}

/* The filter's span of a submission whose timestamps are fetched, µs. */
static gdouble
filter_us (VktSync * sync)
{
  return ticks_ns (sync, sync->timestamps[VKT_TS_UPLOADED],
      sync->timestamps[VKT_TS_FILTERED]) / 1e3;
}

/* The TRACE line of a traced submission: each dispatch's GPU time. */
static void
log_traced (VktSync * sync)
{
  guint64 ts[2 * MAX_TRACED];
  GString *line;
  guint i;

  if (vkGetQueryPoolResults (sync->device->device, sync->query_pool,
          VKT_TS_COUNT, 2 * sync->n_traced, sizeof (ts), ts, sizeof (guint64),
          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
    return;
  line = g_string_new (NULL);
  for (i = 0; i < sync->n_traced; i++)
    g_string_append_printf (line, "%s%s %.1f", i ? ", " : "",
        sync->traced[i], ticks_ns (sync, ts[2 * i], ts[2 * i + 1]) / 1e3);
  /* the whole filter too: dispatches that overlap do not add up */
  if (sync->has_timestamps)
    g_string_append_printf (line, "; filter %.1f", filter_us (sync));
  GST_TRACE ("dispatches (GPU µs): %s", line->str);
  g_string_free (line, TRUE);
}

gboolean
vkt_sync_wait (VktSync * sync, GError ** error)
{
  VkDevice dev = sync->device->device;
  gboolean ok;

  g_mutex_lock (&sync->lock);
  if (!sync->done && !sync->error) {
    /* A device loss shows up here; the element turns it into an error. */
    VkResult res = vkWaitForFences (dev, 1, &sync->fence, VK_TRUE,
        G_MAXUINT64);
    if (vkt_check_vk (res, &sync->error, "vkWaitForFences")) {
      sync->done = TRUE;
      if (sync->has_timestamps && sync->query_pool
          && vkGetQueryPoolResults (dev, sync->query_pool, 0, VKT_TS_COUNT,
              sizeof (sync->timestamps), sync->timestamps, sizeof (guint64),
              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        sync->has_timestamps = FALSE;
      if (sync->n_traced && sync->query_pool)
        log_traced (sync);
      /* Per submission, without the traced timestamps' serialization:
       * GST_DEBUG=vktcompute:6 gives every frame's filter time. */
      if (sync->has_timestamps)
        GST_LOG ("filter %.2f µs", filter_us (sync));
    }
  }
  ok = sync->done;
  if (!ok && error)
    *error = g_error_copy (sync->error);
  g_mutex_unlock (&sync->lock);
  return ok;
}

gboolean
vkt_sync_is_done (VktSync * sync)
{
  gboolean done;

  g_mutex_lock (&sync->lock);
  done = sync->done || sync->error
      || vkGetFenceStatus (sync->device->device, sync->fence) != VK_NOT_READY;
  g_mutex_unlock (&sync->lock);
  return done;
}

guint64
vkt_sync_elapsed_ns (VktSync * sync, VktTimestamp from, VktTimestamp to)
{
  if (!vkt_sync_wait (sync, NULL) || !sync->has_timestamps)
    return 0;
  return (guint64) (ticks_ns (sync, sync->timestamps[from],
          sync->timestamps[to]) + 0.5);
}
