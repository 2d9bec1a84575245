/* gstvktileframeio.c: moving frames in and out of GstVkTileFilter. Owns
 * the frame layout checks (gst_vktile_filter_check_frame_layout()), the
 * input paths (gst_vktile_filter_prepare_input(): in place, copied on the
 * GPU, host memory imported, staged by the CPU), the output paths
 * (gst_vktile_filter_prepare_output()), and the plane copies, image
 * copies, widening of 3-byte pixels and CPU staging copies they make. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvktilefilter-private.h"
#include "rgb24_interface.h"
#include "rgb24.spv.h"

#include <string.h>

typedef struct
{
RGB24_PUSH_FIELDS} Rgb24Push;

static const VktShader shader_rgb24 = { "rgb24", rgb24_spv,
  sizeof (rgb24_spv), 2, {VKT_BIND_STORAGE, VKT_BIND_STORAGE},
  sizeof (Rgb24Push), NULL, 0
};

static gboolean
is_storage_buffer (GstVkTileFilter * self, GstMemory * mem)
{
  GstVulkanBufferMemory *bm = (GstVulkanBufferMemory *) mem;

  return gst_is_vulkan_buffer_memory (mem)
      && bm->device == PRIV (self)->device
      && (bm->usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
}

static void
frame_layout (GstBuffer * buf, const GstVideoInfo * info, gsize * offsets,
    gint * strides)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    offsets[i] = meta ? meta->offset[i] : info->offset[i];
    strides[i] = meta ? meta->stride[i] : info->stride[i];
  }
}

static gboolean
layout_word_aligned (const GstVideoInfo * info, gsize base,
    const gsize * offsets, const gint * strides)
{
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++)
    if ((base + offsets[i]) % 4 || strides[i] % 4 || strides[i] <= 0)
      return FALSE;
  return TRUE;
}

static void
set_plane_words (VktFrame * frame, const GstVideoInfo * info, gsize base,
    const gsize * offsets, const gint * strides, gboolean input)
{
  guint v, n = gst_vktile_filter_n_views (info);

  for (v = 0; v < n; v++) {
    VktPlane *p = &frame->planes[v];
    guint m = gst_vktile_filter_view_plane (info, v);
    if (input) {
      p->in_base = (base + offsets[m]) / 4;
      p->in_stride = strides[m] / 4;
    } else {
      p->out_base = (base + offsets[m]) / 4;
      p->out_stride = strides[m] / 4;
    }
  }
}

/* Bytes of one row of plane `plane` that hold pixels: the widest of its
 * components' (an odd-width YUY2 row ends with a whole macropixel, its
 * chroma's last, where its luma's stops two bytes short). */
static gsize
plane_row_bytes (const GstVideoInfo * info, guint plane)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gsize bytes = 0;
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == plane)
      bytes = MAX (bytes, (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c));
  return bytes;
}

static gint
plane_rows (const GstVideoInfo * info, guint plane)
{
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, c) == plane)
      return GST_VIDEO_INFO_COMP_HEIGHT (info, c);
  return 0;
}

/* A frame in images: one image per plane (gstvulkan 1.22's pools) or one
 * multi-planar image (the Vulkan decoders of 1.24 and later); whether each
 * image holds its plane is checked where it is copied. */
static gboolean
check_images (GstBuffer * buf, const GstVideoInfo * info, const gchar * what,
    GError ** error)
{
  guint i, n_mem = gst_buffer_n_memory (buf);

  for (i = 0; i < n_mem; i++)
    if (!gst_is_vulkan_image_memory (gst_buffer_peek_memory (buf, i))) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "the %s buffer mixes Vulkan images with other memory", what);
      return FALSE;
    }
  if (n_mem != 1 && n_mem != GST_VIDEO_INFO_N_PLANES (info)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the %s buffer holds %u images for the %u planes of %s", what, n_mem,
        GST_VIDEO_INFO_N_PLANES (info), GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }
  return TRUE;
}

/* Whether `buf` holds the frame `info` describes, laid out as its
 * GstVideoMeta (else the caps) says: each plane's rows inside the memory
 * that holds the plane's first byte — a GPU copy, an import and a mapped
 * video meta all see only that memory — or, for system memory without a
 * meta (mapped whole), inside the buffer. Nothing outside a buffer is
 * read or written because of what a stream claims. */
gboolean
gst_vktile_filter_check_frame_layout (GstBuffer * buf,
    const GstVideoInfo * info, const gchar * what, GError ** error)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  guint n_planes = GST_VIDEO_INFO_N_PLANES (info);
  gsize offsets[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];
  gsize buf_size = gst_buffer_get_size (buf);
  gboolean whole_buffer_mapped;
  guint i;

  if (gst_buffer_n_memory (buf) == 0) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the %s buffer holds no memory", what);
    return FALSE;
  }
  if (gst_is_vulkan_image_memory (gst_buffer_peek_memory (buf, 0)))
    return check_images (buf, info, what, error);
  whole_buffer_mapped = !meta
      && !gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (buf, 0));

  if (meta && (meta->format != GST_VIDEO_INFO_FORMAT (info)
          || meta->width != (guint) GST_VIDEO_INFO_WIDTH (info)
          || meta->height != (guint) GST_VIDEO_INFO_HEIGHT (info)
          || meta->n_planes != n_planes)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the %s buffer's video meta describes a %ux%u %s frame, the caps "
        "a %dx%d %s frame", what, meta->width, meta->height,
        gst_video_format_to_string (meta->format),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }
  frame_layout (buf, info, offsets, strides);
  for (i = 0; i < n_planes; i++) {
    guint64 row = plane_row_bytes (info, i), rows = plane_rows (info, i);
    guint64 extent, room;
    guint idx, len;
    gsize skip;

    if (strides[i] <= 0 || (guint64) strides[i] < row) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "the %s frame's plane %u has a stride of %d bytes, its rows need "
          "%" G_GUINT64_FORMAT, what, i, strides[i], row);
      return FALSE;
    }
    extent = (guint64) strides[i] * (rows - 1) + row;
    if (whole_buffer_mapped) {
      skip = offsets[i];
      room = buf_size;
    } else if (gst_buffer_find_memory (buf, offsets[i], 1, &idx, &len, &skip)) {
      room = gst_memory_get_sizes (gst_buffer_peek_memory (buf, idx), NULL,
          NULL);
    } else {
      skip = offsets[i];
      room = 0;
    }
    if (skip >= room || extent > room - skip) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "the %s frame's plane %u needs %" G_GUINT64_FORMAT " bytes from "
          "byte %" G_GSIZE_FORMAT " of its memory, which holds %"
          G_GUINT64_FORMAT " (buffer of %" G_GSIZE_FORMAT " bytes)", what, i,
          extent, skip, room, buf_size);
      return FALSE;
    }
  }
  return TRUE;
}

/* Copies regions that put plane `plane` at (src_off, src_stride) of one
 * buffer into (dst_off, dst_stride) of another: one region when the strides
 * agree, else one per row. */
void
gst_vktile_filter_record_plane_copy (VktCompute * compute, VkBuffer src,
    gsize src_off, gint src_stride, VkBuffer dst, gsize dst_off,
    gint dst_stride, const GstVideoInfo * info, guint plane)
{
  gsize row = plane_row_bytes (info, plane);
  gint rows = plane_rows (info, plane), r;

  if (rows <= 0 || row == 0)
    return;
  if (src_stride == dst_stride) {
    VkBufferCopy region = { src_off, dst_off,
      (gsize) src_stride * (rows - 1) + row
    };
    vkt_compute_copy (compute, src, dst, 1, &region);
    return;
  }
  {
    VkBufferCopy *regions = g_new (VkBufferCopy, rows);
    for (r = 0; r < rows; r++)
      regions[r] = (VkBufferCopy) {
      src_off + (gsize) r * src_stride, dst_off + (gsize) r * dst_stride, row};
    vkt_compute_copy (compute, src, dst, rows, regions);
    g_free (regions);
  }
}

/* The share of the copy shader's work-groups a plane of `info` gets: the
 * planes of a frame, dispatched side by side, stay within the grid that
 * lets a copy the other way run beside them. */
static guint
plane_copy_groups (const GstVideoInfo * info, guint plane)
{
  guint64 all = 0, mine = 0;
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    guint64 bytes = (guint64) plane_row_bytes (info, i) * plane_rows (info, i);
    all += bytes;
    if (i == plane)
      mine = bytes;
  }
  return all ? MAX (1, vkt_compute_copy_rows_groups () * mine / all) : 1;
}

/* Plane `plane` of `info` moved across the bus, from (src_off, src_stride)
 * of src, which holds src_size bytes, to (dst_off, dst_stride) of dst: by
 * the copy shader where both sides are in whole words (so that the
 * previous frame's download runs beside it), else by transfer commands. */
static gboolean
record_plane_transfer (VktCompute * compute, VkBuffer src, gsize src_size,
    gsize src_off, gint src_stride, VkBuffer dst, gsize dst_size,
    gsize dst_off, gint dst_stride, const GstVideoInfo * info, guint plane,
    GError ** error)
{
  gsize bytes = plane_row_bytes (info, plane);
  gint rows = plane_rows (info, plane);
  guint unit;

  /* Whole 16-byte vectors where both sides allow them, else words; the
   * rounded-up row must fit each side's stride and buffer. */
  for (unit = 16; unit >= 4 && rows > 0 && src_stride > 0 && dst_stride > 0;
      unit /= 4) {
    gsize row = (bytes + unit - 1) / unit * unit;
    if (src_off % unit == 0 && dst_off % unit == 0 && src_stride % unit == 0
        && dst_stride % unit == 0
        && src_off + (gsize) src_stride * (rows - 1) + row <= src_size
        && dst_off + (gsize) dst_stride * (rows - 1) + row <= dst_size)
      return vkt_compute_copy_rows (compute, src, src_off, src_stride, dst,
          dst_off, dst_stride, row, rows, plane_copy_groups (info, plane),
          error);
  }
  gst_vktile_filter_record_plane_copy (compute, src, src_off, src_stride, dst,
      dst_off, dst_stride, info, plane);
  return TRUE;
}

/* A whole buffer's first `size` bytes moved across the bus, as above. */
static gboolean
record_buffer_transfer (VktCompute * compute, VkBuffer src, gsize src_off,
    VkBuffer dst, gsize size, GError ** error)
{
  VkBufferCopy region = { src_off, 0, size };

  if (src_off % 4 == 0 && size % 4 == 0)
    return vkt_compute_copy_rows (compute, src, src_off, size, dst, 0, size,
        size, 1, vkt_compute_copy_rows_groups (), error);
  vkt_compute_copy (compute, src, dst, 1, &region);
  return TRUE;
}

/* An import of a system memory, kept on that memory: upstream pools hand
 * the same memories round, and pinning pages costs more than using them. */
typedef struct
{
  GstMemory *vk;                /* the imported pages, as a Vulkan buffer */
  GstVulkanDevice *device;
  gconstpointer data;           /* where the memory's bytes were */
  gsize size;
  gsize offset;                 /* of data in vk */
} HostImportCache;

static void
host_import_cache_free (gpointer data)
{
  HostImportCache *cache = data;

  gst_memory_unref (cache->vk);
  g_free (cache);
}

/* Elements on other threads may import the same memory at once (a tee,
 * streams sharing frames): the cache on it is looked up and replaced under
 * this lock, and each caller takes its own reference to the import. */
static GMutex host_import_lock;
GQuark gst_vktile_filter_host_import_quark;         /* class_init */

/* The Vulkan buffer holding `mem`'s bytes (a reference: unref it) and
 * where they start in it. */
static GstMemory *
import_memory (GstVkTileFilter * self, GstMemory * mem, gsize * base,
    gsize * size, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GQuark quark = gst_vktile_filter_host_import_quark;
  HostImportCache *cache;
  GstMemory *vk = NULL;
  GstMapInfo map;

  /* Only the default allocator's bytes stay where a map found them; other
   * allocators may map a temporary copy or unmap the pages again. */
  if (!gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "%s memory is not plain system memory", mem->allocator ?
        mem->allocator->mem_type : "unknown");
    return NULL;
  }
  if (!gst_memory_map (mem, &map, GST_MAP_READ)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "Cannot map the input memory");
    return NULL;
  }
  /* System memory stays where it is once mapped. */
  gst_memory_unmap (mem, &map);
  g_mutex_lock (&host_import_lock);
  cache = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem), quark);
  if (!cache || cache->device != priv->device || cache->data != map.data
      || cache->size != map.size) {
    gsize offset;
    GstMemory *imported = vkt_buffer_import_host (priv->device,
        priv->import_alignment, map.data, map.size, &offset, error);
    if (!imported)
      goto done;
    cache = g_new0 (HostImportCache, 1);
    cache->vk = imported;
    cache->device = priv->device;
    cache->data = map.data;
    cache->size = map.size;
    cache->offset = offset;
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), quark, cache,
        host_import_cache_free);
  }
  vk = gst_memory_ref (cache->vk);
  *base = cache->offset;
  *size = cache->size;
done:
  g_mutex_unlock (&host_import_lock);
  return vk;
}

/* Binds the import of a system-memory frame as the shaders' input where one
 * memory holds every plane on word boundaries (on a discrete GPU, for the
 * shaders that read it well: reads_input_in_runs()). FALSE without an
 * error where the layout does not allow it. */
static gboolean
import_in_place (GstVkTileFilter * self, GstBuffer * inbuf, VktFrame * frame,
    const gsize * offsets, const gint * strides, GError ** error)
{
  const GstVideoInfo *info = &PRIV (self)->in_info;
  gsize base, size, end = 0;
  gboolean fits;
  GstMemory *vk;
  guint i;

  if (gst_buffer_n_memory (inbuf) != 1)
    return FALSE;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    gsize rows = plane_rows (info, i);
    if (strides[i] <= 0)
      return FALSE;
    if (rows > 0)
      end = MAX (end, offsets[i] + (gsize) strides[i] * (rows - 1)
          + plane_row_bytes (info, i));
  }
  vk = import_memory (self, gst_buffer_peek_memory (inbuf, 0), &base, &size,
      error);
  if (!vk)
    return FALSE;
  fits = end <= size && layout_word_aligned (info, base, offsets, strides);
  if (fits) {
    frame->in = gst_vktile_filter_bind (self, vk);
    set_plane_words (frame, info, base, offsets, strides, TRUE);
  }
  gst_memory_unref (vk);
  return fits;
}

/* Copies the planes of a system-memory frame to in_copy on the GPU, from
 * imports of the memories that hold them. */
static gboolean
import_input (GstVkTileFilter * self, GstBuffer * inbuf, const gsize * offsets,
    const gint * strides, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  const GstVideoInfo *info = &priv->in_info;
  VkBuffer staged = ((GstVulkanBufferMemory *) priv->in_copy)->buffer;
  gsize staged_size = gst_memory_get_sizes (priv->in_copy, NULL, NULL);
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    gsize skip, base, size, rows = plane_rows (info, i);
    guint idx, len;
    GstMemory *vk;

    if (!gst_buffer_find_memory (inbuf, offsets[i], 1, &idx, &len, &skip)) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "Input buffer too small for plane %u", i);
      return FALSE;
    }
    vk = import_memory (self, gst_buffer_peek_memory (inbuf, idx), &base,
        &size, error);
    if (!vk)
      return FALSE;
    if (strides[i] <= 0 || (rows > 0 && skip + (gsize) strides[i] * (rows - 1)
            + plane_row_bytes (info, i) > size)) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "Plane %u does not fit in its memory", i);
      gst_memory_unref (vk);
      return FALSE;
    }
    vkt_compute_keep (priv->compute, vk);
    gst_memory_unref (vk);
    /* The import spans the memory's pages: base + size bytes. */
    if (!record_plane_transfer (priv->compute,
            ((GstVulkanBufferMemory *) vk)->buffer, base + size, base + skip,
            strides[i], staged, staged_size, info->offset[i], info->stride[i],
            info, i, error))
      return FALSE;
  }
  return TRUE;
}

/* The CPU copy between a frame (any layout its GstVideoMeta gives) and a
 * host-visible staging buffer laid out as `info` says, in the direction
 * `into_staging`. Mapping the staging buffer waits for the GPU's last use
 * of it. */
gboolean
gst_vktile_filter_copy_frame_staging (const GstVideoInfo * info,
    GstBuffer * buf, GstMemory * staging, gboolean into_staging,
    GError ** error)
{
  GstVideoFrame vframe;
  GstMapInfo map;
  guint i;

  if (!gst_video_frame_map (&vframe, (GstVideoInfo *) info, buf,
          into_staging ? GST_MAP_READ : GST_MAP_WRITE)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "Cannot map the %s frame", into_staging ? "input" : "output");
    return FALSE;
  }
  if (!gst_memory_map (staging, &map, into_staging ? GST_MAP_WRITE :
          GST_MAP_READ)) {
    gst_video_frame_unmap (&vframe);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "Cannot map the staging buffer");
    return FALSE;
  }
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&vframe, i);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, i);
    gsize row = plane_row_bytes (info, i);
    gint r, rows = plane_rows (info, i);
    for (r = 0; r < rows; r++) {
      guint8 *frame_row = data + (gssize) r * stride;
      guint8 *staged_row = map.data + info->offset[i] +
          (gsize) r * info->stride[i];
      if (into_staging)
        memcpy (staged_row, frame_row, row);
      else
        memcpy (frame_row, staged_row, row);
    }
  }
  gst_memory_unmap (staging, &map);
  gst_video_frame_unmap (&vframe);
  return TRUE;
}

/* Records the copies between the planes of a frame in images and a
 * storage buffer laid out as `info` says, in the direction `into_images`.
 * The images must be of this element's device. */
static gboolean
copy_images (GstVkTileFilter * self, GstBuffer * buf, GstMemory * working,
    gboolean into_images, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  const GstVideoInfo *info = into_images ? &priv->out_info : &priv->in_info;
  VkBuffer vkbuf = ((GstVulkanBufferMemory *) working)->buffer;
  gboolean one_image = gst_buffer_n_memory (buf) == 1;
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    GstMemory *image = gst_buffer_peek_memory (buf, one_image ? 0 : i);
    guint image_plane = one_image ? i : 0;
    gboolean ok;

    if (!vkt_image_is_usable (image, priv->device)) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
          "The %s frame is in images of another Vulkan device than this "
          "element's: give the pipeline's Vulkan elements one device",
          into_images ? "output" : "input");
      return FALSE;
    }
    if (into_images)
      ok = vkt_compute_copy_buffer_to_image (priv->compute, vkbuf,
          info->offset[i], info->stride[i], plane_row_bytes (info, i),
          plane_rows (info, i), image, image_plane, error);
    else
      ok = vkt_compute_copy_image_to_buffer (priv->compute, image,
          image_plane, vkbuf, info->offset[i], info->stride[i],
          plane_row_bytes (info, i), plane_rows (info, i), error);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* After the filter: the output, computed in out_for_images, copied into
 * the output buffer's images. */
gboolean
gst_vktile_filter_write_output_images (GstVkTileFilter * self,
    GstBuffer * outbuf, GError ** error)
{
  return copy_images (self, outbuf, PRIV (self)->out_for_images, TRUE, error);
}

/* Makes the input frame available to the shaders as one storage buffer
 * with word-aligned planes, moving it only when it must be moved. */
gboolean
gst_vktile_filter_prepare_input (GstVkTileFilter * self, GstBuffer * inbuf,
    VktFrame * frame, gboolean pair, InputPath * path, guint64 * cpu_ns,
    GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  GstVkTileFilterClass *klass = GST_VKTILE_FILTER_GET_CLASS (self);
  const GstVideoInfo *info = &priv->in_info;
  guint n_planes = GST_VIDEO_INFO_N_PLANES (info);
  guint n_mem = gst_buffer_n_memory (inbuf);
  GstMemory *mem0 = gst_buffer_peek_memory (inbuf, 0);
  gsize offsets[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];
  gboolean all_vulkan = TRUE;
  GError *import_error = NULL;
  gint64 t0;
  guint i;

  frame_layout (inbuf, info, offsets, strides);

  /* Images (gstvulkan's elements, Vulkan decoders): copied on the GPU. */
  if (gst_is_vulkan_image_memory (mem0)) {
    if (!gst_vktile_filter_ensure_buffer (self, &priv->in_copy, info->size,
            FALSE, error)
        || !copy_images (self, inbuf, priv->in_copy, FALSE, error))
      return FALSE;
    frame->in = gst_vktile_filter_bind (self, priv->in_copy);
    set_plane_words (frame, info, 0, info->offset, info->stride, TRUE);
    *path = INPUT_IMAGE;
    return TRUE;
  }

  /* A storage buffer of ours (from our pool, or another vktile element). */
  if (n_mem == 1 && is_storage_buffer (self, mem0)
      && layout_word_aligned (info, mem0->offset, offsets, strides)) {
    if (priv->separate_vram && !vkt_memory_is_device_local (mem0)) {
      gsize size = gst_memory_get_sizes (mem0, NULL, NULL);
      if (!gst_vktile_filter_ensure_buffer (self, &priv->in_copy, size, FALSE,
              error)
          || !record_buffer_transfer (priv->compute,
              ((GstVulkanBufferMemory *) mem0)->buffer, mem0->offset,
              ((GstVulkanBufferMemory *) priv->in_copy)->buffer, size, error))
        return FALSE;
      frame->in = gst_vktile_filter_bind (self, priv->in_copy);
      set_plane_words (frame, info, 0, offsets, strides, TRUE);
      *path = INPUT_GPU_COPY;
    } else {
      frame->in = gst_vktile_filter_bind (self, mem0);
      set_plane_words (frame, info, mem0->offset, offsets, strides, TRUE);
      *path = INPUT_IN_PLACE;
    }
    return TRUE;
  }

  for (i = 0; i < n_mem; i++)
    if (!gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (inbuf, i))
        || ((GstVulkanBufferMemory *) gst_buffer_peek_memory (inbuf,
                i))->device != priv->device)
      all_vulkan = FALSE;

  /* Vulkan buffers without storage usage (vulkanupload): copy on the GPU. */
  if (all_vulkan) {
    VkBuffer staged;
    if (!gst_vktile_filter_ensure_buffer (self, &priv->in_copy, info->size,
            !priv->separate_vram, error))
      return FALSE;
    staged = ((GstVulkanBufferMemory *) priv->in_copy)->buffer;
    for (i = 0; i < n_planes; i++) {
      guint idx, len;
      gsize skip;
      GstMemory *mem;
      if (!gst_buffer_find_memory (inbuf, offsets[i], 1, &idx, &len, &skip)) {
        g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
            "Input buffer too small for plane %u", i);
        return FALSE;
      }
      mem = gst_buffer_peek_memory (inbuf, idx);
      gst_vktile_filter_record_plane_copy (priv->compute,
          ((GstVulkanBufferMemory *) mem)->buffer, mem->offset + skip,
          strides[i], staged, info->offset[i], info->stride[i], info, i);
    }
    frame->in = gst_vktile_filter_bind (self, priv->in_copy);
    set_plane_words (frame, info, 0, info->offset, info->stride, TRUE);
    *path = INPUT_GPU_COPY;
    return TRUE;
  }

  /* Vulkan buffers of another device (an element given a device of its
   * own through a GstContext): only a map reads them here, and
   * device-local memory has none. */
  for (i = 0; i < n_mem; i++) {
    GstMemory *mem = gst_buffer_peek_memory (inbuf, i);
    GstVulkanBufferMemory *vk = (GstVulkanBufferMemory *) mem;
    if (gst_is_vulkan_buffer_memory (mem) && vk->device != priv->device
        && !(vk->vk_mem->properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
      const gchar *theirs = vk->device->physical_device->properties.deviceName;
      const gchar *ours = priv->device->physical_device->properties.deviceName;
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
          "The input frame is in GPU memory of another Vulkan device (%s) "
          "than this element's (%s%s), which it cannot read: give the "
          "pipeline's Vulkan elements one device", theirs, ours,
          g_str_equal (theirs, ours) ? ", the same GPU opened twice" : "");
      return FALSE;
    }
  }

  /* System memory: imported where the device can, and read in place or
   * copied by the GPU into the working layout; else copied by the CPU into
   * a host-visible buffer. */
  t0 = g_get_monotonic_time ();
  /* Read in place by shaders that read it in runs — unless the frames
   * come faster than the GPU takes them, when the upload crosses the bus
   * beside the previous frame's download (`pair`). */
  if (priv->import_alignment && (!priv->separate_vram
          || (!pair && klass->reads_input_in_runs
              && klass->reads_input_in_runs (self)))
      && import_in_place (self, inbuf, frame, offsets, strides, &import_error)) {
    *path = INPUT_IMPORTED_IN_PLACE;
    *cpu_ns += (g_get_monotonic_time () - t0) * 1000;
    return TRUE;
  }
  if (!gst_vktile_filter_ensure_buffer (self, &priv->in_copy, info->size,
          !priv->separate_vram, error)) {
    g_clear_error (&import_error);
    return FALSE;
  }
  if (priv->import_alignment) {
    if (!import_error
        && import_input (self, inbuf, offsets, strides, &import_error)) {
      frame->in = gst_vktile_filter_bind (self, priv->in_copy);
      set_plane_words (frame, info, 0, info->offset, info->stride, TRUE);
      *path = INPUT_IMPORTED;
      *cpu_ns += (g_get_monotonic_time () - t0) * 1000;
      return TRUE;
    }
    /* Regions already recorded only write in_copy, which the CPU path
     * overwrites after them. */
    GST_DEBUG_OBJECT (self, "cannot import the input frame: %s",
        import_error->message);
    g_clear_error (&import_error);
    vkt_compute_barrier (priv->compute);
  }
  if (!gst_vktile_filter_ensure_buffer (self, &priv->in_staging, info->size,
          TRUE, error)
      || !gst_vktile_filter_copy_frame_staging (info, inbuf, priv->in_staging,
          TRUE, error))
    return FALSE;
  *cpu_ns += (g_get_monotonic_time () - t0) * 1000;
  if (priv->separate_vram) {
    if (!record_buffer_transfer (priv->compute,
            gst_vktile_filter_bind (self, priv->in_staging).buffer, 0,
            ((GstVulkanBufferMemory *) priv->in_copy)->buffer, info->size,
            error))
      return FALSE;
    frame->in = gst_vktile_filter_bind (self, priv->in_copy);
  } else {
    frame->in = gst_vktile_filter_bind (self, priv->in_staging);
  }
  set_plane_words (frame, info, 0, info->offset, info->stride, TRUE);
  *path = INPUT_CPU_COPY;
  return TRUE;
}

gboolean
gst_vktile_filter_prepare_output (GstVkTileFilter * self, GstBuffer * outbuf,
    VktFrame * frame, gboolean pair, OutputPath * path,
    GstVkTileDeferredDownload ** download, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  const GstVideoInfo *info = &priv->out_info;
  GstMemory *mem0 = gst_buffer_peek_memory (outbuf, 0);
  gsize offsets[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];
  guint i;

  *download = NULL;
  frame_layout (outbuf, info, offsets, strides);
  if (gst_is_vulkan_image_memory (mem0)) {
    if (!gst_vktile_filter_ensure_buffer (self, &priv->out_for_images,
            info->size, FALSE, error))
      return FALSE;
    frame->out = gst_vktile_filter_bind (self, priv->out_for_images);
    set_plane_words (frame, info, 0, info->offset, info->stride, FALSE);
    *path = OUTPUT_IMAGE;
  } else if (gst_buffer_n_memory (outbuf) == 1
      && is_storage_buffer (self, mem0)
      && layout_word_aligned (info, mem0->offset, offsets, strides)) {
    gboolean across_bus = priv->separate_vram
        && !vkt_memory_is_device_local (mem0);
    if (across_bus && pair) {
      /* Frames come faster than the GPU takes them: computed in device
       * memory, and written across the bus at the start of the next
       * frame's submission, beside its upload (the bus carries both
       * directions at once only within one submission). */
      GstVkTileDeferredDownload *d;
      if (!gst_vktile_filter_ensure_buffer (self, &priv->out_paired,
              mem0->offset + gst_memory_get_sizes (mem0, NULL, NULL), FALSE,
              error))
        return FALSE;
      d = gst_vktile_deferred_download_new ();
      d->computed = gst_memory_ref (priv->out_paired);
      d->dst = gst_memory_ref (mem0);
      d->info = *info;
      for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
        d->plane_offsets[i] = mem0->offset + offsets[i];
        d->strides[i] = strides[i];
      }
      *download = d;
      frame->out = gst_vktile_filter_bind (self, priv->out_paired);
      *path = OUTPUT_PAIRED;
    } else {
      /* Host-visible memory of a discrete GPU too: the shaders' writes
       * cross the bus while they compute, where a separate download would
       * follow them (measured on the H100: 4K recursivefilter 420 -> 527
       * frames/s, every element faster). */
      frame->out = gst_vktile_filter_bind (self, mem0);
      *path = across_bus ? OUTPUT_ACROSS_BUS : OUTPUT_IN_PLACE;
    }
    set_plane_words (frame, info, mem0->offset, offsets, strides, FALSE);
  } else {
    if (!gst_vktile_filter_ensure_buffer (self, &priv->out_staging,
            info->size, TRUE, error))
      return FALSE;
    frame->out = gst_vktile_filter_bind (self, priv->out_staging);
    set_plane_words (frame, info, 0, info->offset, info->stride, FALSE);
    *path = OUTPUT_CPU_COPY;
  }
  for (i = 0; i < G_N_ELEMENTS (frame->planes); i++)
    frame->planes[i].out_across_bus = *path == OUTPUT_ACROSS_BUS;
  return TRUE;
}

gboolean
gst_vktile_filter_record_download (GstVkTileFilter * self,
    GstVkTileDeferredDownload * d, GError ** error)
{
  VktCompute *compute = PRIV (self)->compute;
  VkBuffer src = gst_vktile_filter_bind (self, d->computed).buffer;
  VkBuffer dst = gst_vktile_filter_bind (self, d->dst).buffer;
  gsize src_size = gst_memory_get_sizes (d->computed, NULL, NULL);
  gsize dst_size = d->dst->offset + gst_memory_get_sizes (d->dst, NULL, NULL);
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&d->info); i++)
    if (!record_plane_transfer (compute, src, src_size, d->plane_offsets[i],
            d->strides[i], dst, dst_size, d->plane_offsets[i], d->strides[i],
            &d->info, i, error))
      return FALSE;
  return TRUE;
}

/* ---- 3-byte pixels (RGB, BGR) ---- */

/* One rgb24.comp dispatch over the frame's one plane: widening the rows
 * of `in` (in_base, in_stride: words) into `out` (out_base, out_stride),
 * or narrowing them. */
static gboolean
record_rgb24 (GstVkTileFilter * self, gboolean narrow, VktBufferRef in,
    gint in_base, gint in_stride, VktBufferRef out, gint out_base,
    gint out_stride, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  gint32 spec[RGB24_SPEC_COUNT] = { 0 };
  VktBufferRef refs[2] = { in, out };
  gint width = GST_VIDEO_INFO_WIDTH (&priv->in_info);
  gint height = GST_VIDEO_INFO_HEIGHT (&priv->in_info);
  Rgb24Push push = { in_base, in_stride, out_base, out_stride, width, height };
  VktPipeline *pipe;
  gint items = narrow ? (3 * width + 3) / 4 : width;

  spec[RGB24_SPEC_NARROW] = narrow;
  if (!(pipe = vkt_compute_pipeline (priv->compute, &shader_rgb24, spec,
              RGB24_SPEC_COUNT, error)))
    return FALSE;
  vkt_compute_dispatch (priv->compute, pipe, refs, &push,
      (items + RGB24_GROUP_X - 1) / RGB24_GROUP_X,
      (height + RGB24_GROUP_Y - 1) / RGB24_GROUP_Y);
  return TRUE;
}

gboolean
gst_vktile_filter_widen_input (GstVkTileFilter * self, VktFrame * frame,
    GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  const GstVideoInfo *work = &priv->work_info;
  VktPlane packed = frame->planes[0];
  VktBufferRef packed_ref = frame->in, widened;

  if (!gst_vktile_filter_ensure_buffer (self, &priv->work_in, work->size,
          FALSE, error))
    return FALSE;
  widened = gst_vktile_filter_bind (self, priv->work_in);
  frame->in = widened;
  set_plane_words (frame, work, 0, work->offset, work->stride, TRUE);
  return record_rgb24 (self, FALSE, packed_ref, packed.in_base,
      packed.in_stride, widened, frame->planes[0].in_base,
      frame->planes[0].in_stride, error);
}

gboolean
gst_vktile_filter_widen_output (GstVkTileFilter * self, VktFrame * frame,
    VktBufferRef * out, VktPlane * plane, GError ** error)
{
  GstVkTileFilterPrivate *priv = PRIV (self);
  const GstVideoInfo *work = &priv->work_info;

  if (!gst_vktile_filter_ensure_buffer (self, &priv->work_out, work->size,
          FALSE, error))
    return FALSE;
  *out = frame->out;
  *plane = frame->planes[0];
  frame->out = gst_vktile_filter_bind (self, priv->work_out);
  set_plane_words (frame, work, 0, work->offset, work->stride, FALSE);
  frame->planes[0].out_across_bus = FALSE;
  return TRUE;
}

gboolean
gst_vktile_filter_narrow_output (GstVkTileFilter * self,
    const VktFrame * frame, const VktBufferRef * out, const VktPlane * plane,
    GError ** error)
{
  return record_rgb24 (self, TRUE, frame->out, frame->planes[0].out_base,
      frame->planes[0].out_stride, *out, plane->out_base, plane->out_stride,
      error);
}
