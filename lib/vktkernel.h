/* vktkernel.h: tiledconv's kernel math in plain C — presets, validation of
 * user kernels, detection of separable (rank-1) 2D kernels, and the packing
 * of weights the shaders read. */
#ifndef __VKT_KERNEL_H__
#define __VKT_KERNEL_H__

#include <glib.h>

#include "tiledconv_interface.h"

G_BEGIN_DECLS

typedef enum
{
  VKT_PRESET_NONE,
  VKT_PRESET_BOX3,
  VKT_PRESET_BOX5,
  VKT_PRESET_GAUSSIAN3,
  VKT_PRESET_GAUSSIAN5,
  VKT_PRESET_SHARPEN,
  VKT_PRESET_LAPLACIAN,
  VKT_PRESET_SOBEL_X,
  VKT_PRESET_SOBEL_Y,
  VKT_PRESET_EMBOSS,
} VktPreset;

#define VKT_KERNEL_MAX_SIZE (2 * TILEDCONV_MAX_RADIUS + 1)
/* Floats the shaders read, laid out as tiledconv_interface.h's
 * TILEDCONV_U_* say. */
#define VKT_KERNEL_WEIGHTS TILEDCONV_U_FLOATS

typedef struct
{
  guint size;                   /* 3, 5 or 7 */
  gboolean separable;           /* k == outer (ky, kx) */
  gdouble k[VKT_KERNEL_MAX_SIZE * VKT_KERNEL_MAX_SIZE];   /* row-major, size x size */
  gdouble kx[VKT_KERNEL_MAX_SIZE];
  gdouble ky[VKT_KERNEL_MAX_SIZE];
} VktKernel;

void vkt_kernel_from_preset (VktKernel * kernel, VktPreset preset);
gboolean vkt_kernel_from_2d (VktKernel * kernel, const gdouble * values,
    guint n_values);
gboolean vkt_kernel_from_separable (VktKernel * kernel, const gdouble * kx,
    guint n_kx, const gdouble * ky, guint n_ky);
gboolean vkt_kernel_rank1 (const gdouble * k, guint size, gdouble * kx,
    gdouble * ky);
void vkt_kernel_pack (const VktKernel * kernel, gfloat * weights);

G_END_DECLS

#endif
