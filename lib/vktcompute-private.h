/* vktcompute-private.h: what the files of the compute helper share, not for
 * the elements: the structures behind vktcompute.h's handles (VktCompute and
 * its slots, VktPipeline, VktSync, the per-device cache), the debug
 * category, and the helpers more than one of the files calls. */
#ifndef __VKT_COMPUTE_PRIVATE_H__
#define __VKT_COMPUTE_PRIVATE_H__

#include "vktcompute.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (vkt_compute_debug);
#define GST_CAT_DEFAULT vkt_compute_debug

#define RECENT_UNIFORMS 8
/* Dispatches of a frame timed one by one when the vktcompute debug
 * category is at TRACE: a timestamp pair around each, after the frame's
 * own timestamps in the slot's query pool. */
#define MAX_TRACED 32
#define N_QUERIES (VKT_TS_COUNT + 2 * MAX_TRACED)
/* Importing system memory: vkt_device_request_host_import() asks for it,
 * vkt_buffer_import_host() uses it. */
#define HOST_IMPORT_EXTENSION "VK_EXT_external_memory_host"

struct _VktPipeline
{
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkPipeline pipeline;
  const VktShader *shader;
};

/* What the elements on one device share. Fences are recycled because
 * creating and destroying one costs hundreds of microseconds on some
 * drivers (NVIDIA 580: ~300 µs each way), more than a small frame's GPU
 * work. */
typedef struct
{
  GMutex lock;
  VkDevice device;
  GHashTable *pipelines;        /* key string -> VktPipeline* */
  GArray *idle_fences;          /* VkFence, unsignalled */
  /* Held around every vkQueueSubmit of ours on the device. gstvulkan 1.22
   * hands out a new GstVulkanQueue, with a lock of its own, each time the
   * same VkQueue is asked for: elements that found their queue apart (a
   * tee's branches, pipelines sharing a device) submitted at once, which
   * Vulkan forbids; on the H100 two streams lost the device within
   * seconds. */
  GMutex submit_lock;
} VktDeviceCache;

/* One submission in flight. Timestamps are read (under `lock`) by the first
 * vkt_sync_wait() after the fence, while the slot still owns the query
 * pool; the slot detaches the pool before it reuses it. */
struct _VktSync
{
  gint refcount;
  GMutex lock;
  GstVulkanDevice *device;      /* keeps `cache` alive */
  VktDeviceCache *cache;
  VkFence fence;
  gboolean done;
  GError *error;                /* a failed wait, returned again */
  VkQueryPool query_pool;       /* the slot's, until it is reused */
  gboolean has_timestamps;
  guint64 ts_mask;
  gdouble ts_period;
  guint64 timestamps[VKT_TS_COUNT];
  guint n_traced;
  const gchar *traced[MAX_TRACED];      /* shader names */
};

typedef struct
{
  VkCommandBuffer cmd;
  VkDescriptorPool desc_pool;
  VkQueryPool query_pool;
  gsize uniform_base;           /* this slot's part of the uniform ring */
  GPtrArray *kept;              /* GstMiniObjects used by the submission */
  VktSync *sync;                /* the submission, until the slot is reused */
} VktSlot;

struct _VktCompute
{
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  VktDeviceCache *cache;

  VkCommandPool cmd_pool;
  VktSlot slots[VKT_SLOTS];
  guint next_slot;
  VktSlot *cur;                 /* the slot being recorded */
  VktSync *last;                /* of vkt_compute_submit_wait() */
  gboolean has_timestamps;
  guint64 ts_mask;
  gdouble ts_period;
  guint32 ts_written;
  guint shuffle_subgroup;       /* subgroup size with shuffles, 0: none */
  gboolean tracing;             /* time each dispatch of this recording */
  guint n_traced;
  const gchar *traced[MAX_TRACED];

  GstMemory *uniform_mem;
  GstMapInfo uniform_map;
  gsize uniform_used;
  gsize uniform_align;
  /* This recording's latest uploads: the same tables again (one per
   * region of interest of a frame) take no room. */
  struct
  {
    gsize offset, size;
  } recent_uniforms[RECENT_UNIFORMS];
  guint n_recent_uniforms, next_recent_uniform;

  guint dispatches;
  GError *error;                /* first recording error of this frame */
  /* Images whose barrier state this recording moved, with the state
   * before (vktimage.c): restored if the recording is abandoned. While it
   * holds any, the recording holds the images' lock until it is
   * submitted. */
  GArray *image_states;

  /* Between vkt_compute_streams_begin() and _end(): the dispatches held
   * back, and the step (barriers so far) of the stream being recorded. */
  guint streaming;              /* nesting depth of _streams_begin */
  GArray *held;                 /* HeldDispatch */
  guint step, max_step;
};

/* vktcompute.c */
gboolean vkt_check_vk (VkResult res, GError ** error, const gchar * what);
/* Before the first log to the category: the entry points that may come
 * first (vkt_compute_new(), the buffer allocator) call it. */
void vkt_ensure_debug (void);

/* vktpipeline.c */
void vkt_pipeline_free (gpointer data, VkDevice device);
VkDescriptorType vkt_descriptor_type (VktBindType bind);

/* vktsync.c */
VktSync *vkt_sync_new (VktCompute * c, VktSlot * slot, GError ** error);

/* vktdevice.c */
VktDeviceCache *vkt_device_cache_get (GstVulkanDevice * device);
guint vkt_device_shuffle_subgroup_size (GstVulkanDevice * device);

G_END_DECLS

/* vktimage.c: the end of a recording that moved images' barrier states:
 * submitted (keep them) or abandoned (restore them); lets the lock go. */
void vkt_image_states_release (VktCompute * c, gboolean restore);

#endif
