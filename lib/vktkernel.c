/* vktkernel.c: see vktkernel.h. */
#include "vktkernel.h"

#include <math.h>
#include <string.h>

/* The largest kernel's parts must not overlap in the weights uniform, which
 * std140 reads as whole vec4s. */
_Static_assert (TILEDCONV_U_KY - TILEDCONV_U_KX >= VKT_KERNEL_MAX_SIZE
    && TILEDCONV_U_K - TILEDCONV_U_KY >= VKT_KERNEL_MAX_SIZE
    && TILEDCONV_U_K + VKT_KERNEL_MAX_SIZE * VKT_KERNEL_MAX_SIZE <=
    TILEDCONV_U_FLOATS && TILEDCONV_U_FLOATS % 4 == 0, "weights layout");

static void
set_outer (VktKernel * kern, guint size, const gdouble * kx, const gdouble * ky)
{
  guint i, j;

  memset (kern, 0, sizeof (*kern));
  kern->size = size;
  kern->separable = TRUE;
  for (i = 0; i < size; i++) {
    kern->kx[i] = kx[i];
    kern->ky[i] = ky[i];
  }
  for (j = 0; j < size; j++)
    for (i = 0; i < size; i++)
      kern->k[j * size + i] = ky[j] * kx[i];
}

void
vkt_kernel_from_preset (VktKernel * kern, VktPreset preset)
{
  static const gdouble box3[3] = { 1 / 3.0, 1 / 3.0, 1 / 3.0 };
  static const gdouble box5[5] = { 0.2, 0.2, 0.2, 0.2, 0.2 };
  static const gdouble gauss3[3] = { 0.25, 0.5, 0.25 };
  static const gdouble gauss5[5] =
      { 1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0 };
  static const gdouble sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const gdouble laplacian[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
  static const gdouble sobel_x[9] = { -1, 0, 1, -2, 0, 2, -1, 0, 1 };
  static const gdouble sobel_y[9] = { -1, -2, -1, 0, 0, 0, 1, 2, 1 };
  static const gdouble emboss[9] = { -2, -1, 0, -1, 1, 1, 0, 1, 2 };

  switch (preset) {
    case VKT_PRESET_BOX3:
      set_outer (kern, 3, box3, box3);
      break;
    case VKT_PRESET_BOX5:
      set_outer (kern, 5, box5, box5);
      break;
    case VKT_PRESET_NONE:
    case VKT_PRESET_GAUSSIAN3:
      set_outer (kern, 3, gauss3, gauss3);
      break;
    case VKT_PRESET_GAUSSIAN5:
      set_outer (kern, 5, gauss5, gauss5);
      break;
    case VKT_PRESET_SHARPEN:
      vkt_kernel_from_2d (kern, sharpen, 9);
      break;
    case VKT_PRESET_LAPLACIAN:
      vkt_kernel_from_2d (kern, laplacian, 9);
      break;
    case VKT_PRESET_SOBEL_X:
      vkt_kernel_from_2d (kern, sobel_x, 9);
      break;
    case VKT_PRESET_SOBEL_Y:
      vkt_kernel_from_2d (kern, sobel_y, 9);
      break;
    case VKT_PRESET_EMBOSS:
      vkt_kernel_from_2d (kern, emboss, 9);
      break;
  }
}

/* K is rank 1 when K = outer (ky, kx). Taking the row and column through
 * the largest element gives the factors; the check is relative to it so
 * that rounding in user-supplied factors does not hide separability. */
gboolean
vkt_kernel_rank1 (const gdouble * k, guint size, gdouble * kx, gdouble * ky)
{
  guint n = size * size, i, j, p = 0, q = 0;
  gdouble m = 0.0;

  for (i = 0; i < n; i++)
    if (fabs (k[i]) > fabs (m)) {
      m = k[i];
      p = i / size;
      q = i % size;
    }
  if (m == 0.0) {
    for (i = 0; i < size; i++)
      kx[i] = ky[i] = 0.0;
    return TRUE;
  }
  for (i = 0; i < size; i++) {
    kx[i] = k[p * size + i];
    ky[i] = k[i * size + q] / m;
  }
  for (j = 0; j < size; j++)
    for (i = 0; i < size; i++)
      if (fabs (ky[j] * kx[i] - k[j * size + i]) > 1e-9 * fabs (m))
        return FALSE;
  return TRUE;
}

/* A tap the GPU can hold: finite in float, not only in double (1e308 would
 * reach the shader as inf and every output as 0 or NaN). */
static gboolean
tap_fits (gdouble v)
{
  return isfinite (v) && fabs (v) <= G_MAXFLOAT;
}

gboolean
vkt_kernel_from_2d (VktKernel * kern, const gdouble * values, guint n)
{
  guint size = n == 9 ? 3 : n == 25 ? 5 : n == 49 ? 7 : 0;
  guint i;

  if (!size)
    return FALSE;
  for (i = 0; i < n; i++)
    if (!tap_fits (values[i]))
      return FALSE;
  memset (kern, 0, sizeof (*kern));
  kern->size = size;
  memcpy (kern->k, values, n * sizeof (gdouble));
  kern->separable = vkt_kernel_rank1 (kern->k, size, kern->kx, kern->ky);
  return TRUE;
}

gboolean
vkt_kernel_from_separable (VktKernel * kern, const gdouble * kx, guint nx,
    const gdouble * ky, guint ny)
{
  gdouble identity[VKT_KERNEL_MAX_SIZE] = { 0 };
  guint size = nx ? nx : ny;
  guint i;

  if ((size != 3 && size != 5 && size != 7) || (nx && ny && nx != ny))
    return FALSE;
  for (i = 0; i < nx; i++)
    if (!tap_fits (kx[i]))
      return FALSE;
  for (i = 0; i < ny; i++)
    if (!tap_fits (ky[i]))
      return FALSE;
  identity[size / 2] = 1.0;
  set_outer (kern, size, nx ? kx : identity, ny ? ky : identity);
  /* The 2D taps too (the non-separable algorithms use them). */
  for (i = 0; i < size * size; i++)
    if (!tap_fits (kern->k[i]))
      return FALSE;
  return TRUE;
}

void
vkt_kernel_pack (const VktKernel * kern, gfloat * w)
{
  guint i, n = kern->size * kern->size;

  memset (w, 0, VKT_KERNEL_WEIGHTS * sizeof (gfloat));
  for (i = 0; i < kern->size; i++) {
    w[TILEDCONV_U_KX + i] = kern->kx[i];
    w[TILEDCONV_U_KY + i] = kern->ky[i];
  }
  for (i = 0; i < n; i++)
    w[TILEDCONV_U_K + i] = kern->k[i];
}
