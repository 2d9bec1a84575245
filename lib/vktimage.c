/* vktimage.c: copies between gstvulkan's images (memory:VulkanImage) and
 * the storage buffers vktile's shaders work in, recorded into the frame's
 * command buffer. Each copy moves the image to the transfer layout it
 * needs with a barrier built from, and written back to, the image
 * memory's barrier state (GstVulkanImageMemory.barrier): the state
 * gstvulkan's own elements read and update, so that the element before
 * and the element after order their work against ours. Images of one
 * plane of 8-bit components are read by a shader (image_rows.comp)
 * through a view of their own, and written by one (image_store_*.comp)
 * where they have storage usage; the rest by the transfer commands. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vktcompute-private.h"

#include "image_rows_interface.h"
#include "image_rows.spv.h"
#include "image_store_r8.spv.h"
#include "image_store_rg8.spv.h"
#include "image_store_rgba8.spv.h"

typedef struct
{
IMAGE_ROWS_PUSH_FIELDS} ImageRowsPush;

static const VktShader shader_image_rows = { "image_rows", image_rows_spv,
  sizeof (image_rows_spv), 2, {VKT_BIND_SAMPLED_IMAGE, VKT_BIND_STORAGE},
  sizeof (ImageRowsPush), NULL, 0
};

/* image_store.glsl for each image format it writes, by texel bytes. */
#define IMAGE_STORE_SHADER(fmt) { "image_store_" #fmt, \
  image_store_ ## fmt ## _spv, sizeof (image_store_ ## fmt ## _spv), 2, \
  {VKT_BIND_STORAGE, VKT_BIND_STORAGE_IMAGE}, sizeof (ImageRowsPush), NULL, 0 }
static const VktShader shader_image_store[] = {
  IMAGE_STORE_SHADER (r8), IMAGE_STORE_SHADER (rg8),
  IMAGE_STORE_SHADER (rgba8),
};

/* Bytes per texel of plane `plane` of the image formats gstvulkan makes
 * for video (one image per plane in 1.22; one multi-planar image in the
 * Vulkan video decoders of 1.24 and later); 0 for others. */
static guint
texel_bytes (VkFormat format, guint plane)
{
  switch (format) {
    case VK_FORMAT_R8_UNORM:
      return 1;
    case VK_FORMAT_R8G8_UNORM:
    case VK_FORMAT_R16_UNORM:
      return 2;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_UNORM:
      /* gstvulkan 1.22 picks these for RGB of any colorimetry but sRGB;
       * copied by transfer commands only, which leave the bytes alone */
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
    case VK_FORMAT_R16G16_UNORM:
      return 4;
    case VK_FORMAT_R16G16B16A16_UNORM:
      return 8;
    case VK_FORMAT_G8_B8R8_2PLANE_420_UNORM:
    case VK_FORMAT_G8_B8R8_2PLANE_422_UNORM:
      return plane == 0 ? 1 : 2;
    case VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM:
    case VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM:
    case VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM:
      return 1;
    case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16:
    case VK_FORMAT_G16_B16R16_2PLANE_420_UNORM:
      return plane == 0 ? 2 : 4;
    default:
      return 0;
  }
}

static gboolean
multi_planar (VkFormat format)
{
  switch (format) {
    case VK_FORMAT_G8_B8R8_2PLANE_420_UNORM:
    case VK_FORMAT_G8_B8R8_2PLANE_422_UNORM:
    case VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM:
    case VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM:
    case VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM:
    case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16:
    case VK_FORMAT_G16_B16R16_2PLANE_420_UNORM:
      return TRUE;
    default:
      return FALSE;
  }
}

gboolean
vkt_image_is_usable (GstMemory * mem, GstVulkanDevice * device)
{
  return gst_is_vulkan_image_memory (mem)
      && ((GstVulkanImageMemory *) mem)->device == device;
}

/* The copy region of `rows` rows of `row_bytes` bytes of image plane
 * `plane`, `stride` bytes apart at `offset` in the buffer; FALSE with an
 * error when the image cannot hold them or its format is not one the
 * copy knows. */
static gboolean
plane_region (GstVulkanImageMemory * img, guint plane, VkDeviceSize offset,
    guint stride, guint row_bytes, guint rows, VkBufferImageCopy * region,
    GError ** error)
{
  VkFormat format = img->create_info.format;
  gboolean planar = multi_planar (format);
  guint texel = texel_bytes (format, planar ? plane : 0);
  guint width = img->create_info.extent.width;
  guint height = img->create_info.extent.height;
  guint texels;

  if (texel == 0 || stride % texel || offset % texel) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "Cannot copy plane %u of an image of Vulkan format %d", plane,
        (gint) format);
    return FALSE;
  }
  if (!planar && plane > 0) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "One image of Vulkan format %d cannot hold plane %u of a frame",
        (gint) format, plane);
    return FALSE;
  }
  texels = (row_bytes + texel - 1) / texel;
  /* A multi-planar image's extent is its first plane's: its chroma planes
   * are subsampled as the format says. */
  if (planar && plane > 0) {
    width = format == VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM ? width :
        (width + 1) / 2;
    height = format == VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM
        || format == VK_FORMAT_G8_B8R8_2PLANE_422_UNORM
        || format == VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM ? height :
        (height + 1) / 2;
  }
  /* gstvulkan's image per plane may be a texel narrower than the row
   * GStreamer lays out for an odd width of packed 4:2:2 (the last chroma
   * pair). */
  texels = MIN (texels, width);
  if ((guint64) texels * texel + texel < row_bytes || height < rows) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "An image of %ux%u texels of %u bytes cannot hold plane %u "
        "(%u rows of %u bytes)", width, height, texel, plane, rows,
        row_bytes);
    return FALSE;
  }
  *region = (VkBufferImageCopy) {
    .bufferOffset = offset,
    .bufferRowLength = stride / texel,
    .bufferImageHeight = rows,
    .imageSubresource = {
          .aspectMask = planar ? (VkImageAspectFlags)
          (VK_IMAGE_ASPECT_PLANE_0_BIT << plane) : VK_IMAGE_ASPECT_COLOR_BIT,
          .mipLevel = 0,
          .baseArrayLayer = 0,
          .layerCount = 1,
        },
    .imageOffset = {0, 0, 0},
    .imageExtent = {texels, rows, 1},
  };
  return TRUE;
}

/* Recordings that move images' barrier states are recorded and submitted
 * one at a time, process-wide: each barrier takes the state the last
 * submission left, which two vktile branches after a tee, recording the
 * same input image on two threads, would otherwise read before the other
 * had submitted. */
static GMutex image_state_lock;

typedef struct
{
  GstVulkanImageMemory *img;
  GstVulkanBarrierImageInfo before;
} ImageState;

void
vkt_image_states_release (VktCompute * c, gboolean restore)
{
  guint i;

  if (!c->image_states || c->image_states->len == 0)
    return;
  for (i = c->image_states->len; restore && i > 0; i--) {
    ImageState *st = &g_array_index (c->image_states, ImageState, i - 1);
    st->img->barrier = st->before;
  }
  g_array_set_size (c->image_states, 0);
  g_mutex_unlock (&image_state_lock);
}

/* Moves the image to `layout` for what `access` says at `stage`, after
 * whatever its barrier state says used it last, and records the move in
 * that state for the next user (the state before is kept until the
 * recording is submitted or abandoned). */
static void
transition (VktCompute * c, GstVulkanImageMemory * img, VkImageLayout layout,
    VkAccessFlags access, VkPipelineStageFlags stage)
{
  VkPipelineStageFlags src;
  VkImageMemoryBarrier barrier;
  ImageState st = { img, img->barrier };
  guint i;
  gboolean seen = FALSE;

  if (!c->image_states)
    c->image_states = g_array_new (FALSE, FALSE, sizeof (ImageState));
  if (c->image_states->len == 0)
    g_mutex_lock (&image_state_lock);
  for (i = 0; i < c->image_states->len; i++)
    seen |= g_array_index (c->image_states, ImageState, i).img == img;
  if (!seen)
    g_array_append_val (c->image_states, st);

  src = img->barrier.parent.pipeline_stages;
  barrier = (VkImageMemoryBarrier) {
    .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
    .srcAccessMask = img->barrier.parent.access_flags,
    .dstAccessMask = access,
    .oldLayout = img->barrier.image_layout,
    .newLayout = layout,
    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
    .image = img->image,
    .subresourceRange = img->barrier.subresource_range,
  };
  if (barrier.subresourceRange.aspectMask == 0)
    barrier.subresourceRange = (VkImageSubresourceRange) {
    VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier (c->cur->cmd, src ? src :
      VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, stage, 0, 0, NULL, 0, NULL, 1,
      &barrier);
  img->barrier.parent.pipeline_stages = stage;
  img->barrier.parent.access_flags = access;
  img->barrier.image_layout = layout;
}

static gboolean
is_plain_view (GstVulkanImageView * view, gpointer unused)
{
  const VkComponentMapping *m = &view->create_info.components;

  return view->create_info.format == view->image->create_info.format
      && view->create_info.subresourceRange.aspectMask ==
      VK_IMAGE_ASPECT_COLOR_BIT
      && (m->r == VK_COMPONENT_SWIZZLE_IDENTITY || m->r == VK_COMPONENT_SWIZZLE_R)
      && (m->g == VK_COMPONENT_SWIZZLE_IDENTITY || m->g == VK_COMPONENT_SWIZZLE_G)
      && (m->b == VK_COMPONENT_SWIZZLE_IDENTITY || m->b == VK_COMPONENT_SWIZZLE_B)
      && (m->a == VK_COMPONENT_SWIZZLE_IDENTITY || m->a == VK_COMPONENT_SWIZZLE_A);
}

/* A view of the whole image with its own format and no swizzle, shared
 * with the image memory's other users as gstvulkan shares views, and kept
 * until the fence of the submission being recorded. */
static VkImageView
plain_view (VktCompute * c, GstVulkanImageMemory * img)
{
  VkImageViewCreateInfo info = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
    .image = img->image,
    .viewType = VK_IMAGE_VIEW_TYPE_2D,
    .format = img->create_info.format,
    .components = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
          VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY},
    .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
  };
  GstVulkanImageView *view = gst_vulkan_image_memory_find_view (img,
      is_plain_view, NULL);
  VkImageView handle;

  if (!view && (view = gst_vulkan_image_view_new (img, &info)))
    gst_vulkan_image_memory_add_view (img, view);
  if (!view)
    return VK_NULL_HANDLE;
  handle = view->view;
  vkt_compute_keep (c, view);
  gst_vulkan_image_view_unref (view);
  return handle;
}

/* One dispatch of image_rows.comp or image_store_*.comp over `rows` rows
 * of the plane, `stride` bytes apart at `offset` in the buffer: the
 * image's own view bound at `view_binding`, the image moved to `layout`
 * for `access` by the compute stage, `per_row` invocations a row. */
static gboolean
dispatch_image_shader (VktCompute * c, GstVulkanImageMemory * img,
    VktPipeline * pipe, VktBufferRef * refs, guint view_binding,
    VkDeviceSize offset, guint stride, guint row_bytes, guint rows,
    guint width, guint per_row, VkImageLayout layout, VkAccessFlags access)
{
  ImageRowsPush push = { offset / 4, stride / 4, (row_bytes + 3) / 4, width,
    rows
  };

  if (!(refs[view_binding].view = plain_view (c, img)))
    return FALSE;
  transition (c, img, layout, access,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  vkt_compute_dispatch (c, pipe, refs, &push,
      (per_row + IMAGE_ROWS_GROUP_X - 1) / IMAGE_ROWS_GROUP_X,
      (rows + IMAGE_ROWS_GROUP_Y - 1) / IMAGE_ROWS_GROUP_Y);
  return TRUE;
}

/* Image plane to buffer rows by image_rows.comp, for images of one plane
 * of 8-bit components that shaders may sample. FALSE with no error: the
 * transfer commands are to copy it; FALSE with an error: nothing can. */
static gboolean
read_by_shader (VktCompute * c, GstVulkanImageMemory * img,
    VkDeviceSize offset, guint stride, guint row_bytes, guint rows,
    VkBuffer dst, GError ** error)
{
  VkFormat format = img->create_info.format;
  guint texel = texel_bytes (format, 0);
  gint32 spec[IMAGE_ROWS_SPEC_COUNT] = { 0 };
  VktBufferRef refs[2] = { {VK_NULL_HANDLE, 0, 0, VK_NULL_HANDLE},
  {dst, 0, 0, VK_NULL_HANDLE}
  };
  VktPipeline *pipe;

  if (!(img->create_info.usage & VK_IMAGE_USAGE_SAMPLED_BIT) || offset % 4
      || stride % 4
      || (format != VK_FORMAT_R8_UNORM && format != VK_FORMAT_R8G8_UNORM
          && format != VK_FORMAT_R8G8B8A8_UNORM
          && format != VK_FORMAT_B8G8R8A8_UNORM))
    return FALSE;
  spec[IMAGE_ROWS_SPEC_TEXEL_BYTES] = texel;
  spec[IMAGE_ROWS_SPEC_BGRA] = format == VK_FORMAT_B8G8R8A8_UNORM;
  if (!(pipe = vkt_compute_pipeline (c, &shader_image_rows, spec,
              IMAGE_ROWS_SPEC_COUNT, error)))
    return FALSE;
  return dispatch_image_shader (c, img, pipe, refs, 0, offset, stride,
      row_bytes, rows, img->create_info.extent.width, (row_bytes + 3) / 4,
      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_SHADER_READ_BIT);
}

/* Buffer rows to an image plane by image_store_*.comp, for images of
 * one plane of R8, R8G8 or R8G8B8A8 with storage usage. FALSE with no
 * error: the transfer commands are to copy it. */
static gboolean
write_by_shader (VktCompute * c, VkBuffer src, VkDeviceSize offset,
    guint stride, guint row_bytes, guint rows, GstVulkanImageMemory * img,
    GError ** error)
{
  VkFormat format = img->create_info.format;
  guint texel = texel_bytes (format, 0), which, width;
  VktBufferRef refs[2] = { {src, 0, 0, VK_NULL_HANDLE},
  {VK_NULL_HANDLE, 0, 0, VK_NULL_HANDLE}
  };
  VktPipeline *pipe;

  if (!(img->create_info.usage & VK_IMAGE_USAGE_STORAGE_BIT) || offset % 4
      || stride % 4 || (format != VK_FORMAT_R8_UNORM
          && format != VK_FORMAT_R8G8_UNORM
          && format != VK_FORMAT_R8G8B8A8_UNORM))
    return FALSE;
  which = texel == 1 ? 0 : texel == 2 ? 1 : 2;
  if (!(pipe = vkt_compute_pipeline (c, &shader_image_store[which], NULL, 0,
              error)))
    return FALSE;
  width = MIN (img->create_info.extent.width, (row_bytes + texel - 1) / texel);
  return dispatch_image_shader (c, img, pipe, refs, 1, offset, stride,
      row_bytes, rows, width, width, VK_IMAGE_LAYOUT_GENERAL,
      VK_ACCESS_SHADER_WRITE_BIT);
}

/* Either direction between a buffer's rows and an image plane: by a
 * shader where one can, else by the transfer command. */
static gboolean
copy_plane (VktCompute * c, GstVulkanImageMemory * img, guint plane,
    VkBuffer buf, VkDeviceSize offset, guint stride, guint row_bytes,
    guint rows, gboolean into_image, GError ** error)
{
  VkBufferImageCopy region;
  gboolean by_shader;

  g_return_val_if_fail (c->cur != NULL, FALSE);
  if (!plane_region (img, plane, offset, stride, row_bytes, rows, &region,
          error))
    return FALSE;
  by_shader = into_image ?
      write_by_shader (c, buf, offset, stride, row_bytes, rows, img, error) :
      read_by_shader (c, img, offset, stride, row_bytes, rows, buf, error);
  if (by_shader || (error && *error))
    return by_shader;
  if (into_image) {
    transition (c, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyBufferToImage (c->cur->cmd, buf, img->image,
        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  } else {
    transition (c, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyImageToBuffer (c->cur->cmd, img->image,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf, 1, &region);
  }
  return TRUE;
}

gboolean
vkt_compute_copy_image_to_buffer (VktCompute * c, GstMemory * image,
    guint plane, VkBuffer dst, VkDeviceSize offset, guint stride,
    guint row_bytes, guint rows, GError ** error)
{
  return copy_plane (c, (GstVulkanImageMemory *) image, plane, dst, offset,
      stride, row_bytes, rows, FALSE, error);
}

gboolean
vkt_compute_copy_buffer_to_image (VktCompute * c, VkBuffer src,
    VkDeviceSize offset, guint stride, guint row_bytes, guint rows,
    GstMemory * image, guint plane, GError ** error)
{
  return copy_plane (c, (GstVulkanImageMemory *) image, plane, src, offset,
      stride, row_bytes, rows, TRUE, error);
}
