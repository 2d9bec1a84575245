/* vktgauss.c: see vktgauss.h. */
#include "vktgauss.h"

#include <math.h>

gint
vkt_gauss_radius (gdouble sigma, guint radius)
{
  gint r = radius ? (gint) radius : (gint) ceil (3.0 * sigma);

  return CLAMP (r, 1, VKT_GAUSS_MAX_RADIUS);
}

void
vkt_gauss_half_kernel (gdouble sigma, gint radius, gdouble * half)
{
  gdouble sum = 0.0;
  gint j;

  /* scipy: exp(-0.5 / sigma^2 * x^2), divided by the sum over -r..r. */
  for (j = 0; j <= radius; j++) {
    half[j] = exp (-0.5 / (sigma * sigma) * (gdouble) j * j);
    sum += j ? 2.0 * half[j] : half[j];
  }
  for (j = 0; j <= radius; j++)
    half[j] /= sum;
}

gdouble
vkt_gauss_noise_gain (gdouble sigma, gint radius)
{
  gdouble half[VKT_GAUSS_MAX_RADIUS + 1], energy = 0.0;
  gint j;

  radius = CLAMP (radius, 0, VKT_GAUSS_MAX_RADIUS);
  vkt_gauss_half_kernel (sigma, radius, half);
  for (j = 0; j <= radius; j++)
    energy += (j ? 2.0 : 1.0) * half[j] * half[j];
  return sqrt (energy);
}

gdouble
vkt_gauss_centre_weight (gdouble sigma, gint radius)
{
  gdouble half[VKT_GAUSS_MAX_RADIUS + 1];

  radius = CLAMP (radius, 0, VKT_GAUSS_MAX_RADIUS);
  vkt_gauss_half_kernel (sigma, radius, half);
  return half[0];
}

static gint
mod_floor (gint a, gint n)
{
  gint m = a % n;
  return m < 0 ? m + n : m;
}

void
vkt_gauss_taps (VktGaussTaps * t, gint radius, gint shift, gint align,
    gint step)
{
  t->front = radius + mod_floor (shift - radius, align);
  t->steps = (t->front + radius + 1 + step - 1) / step;
  t->taps = t->steps * step;
}

gboolean
vkt_gauss_fused_tile (VktGaussTile * tile, const VktGaussTaps * ytaps,
    gint lanes, guint shared_bytes)
{
  gint halo = ytaps->taps;
  gint rows = 32;

  /* Measured on an H100 at sigma 1-4 (docs/BENCHMARKS.md): blocks of 2
   * rows, and tiles about 1.5 vertical halos tall, beat larger blocks and
   * tiles; a small footprint keeps many work-groups per multiprocessor. */
  while (rows < halo + halo / 2)
    rows *= 2;
  while (rows >= 2 && (gsize) (rows + halo) * lanes * sizeof (gfloat) >
      shared_bytes)
    rows /= 2;
  if (rows < 2)
    return FALSE;
  *tile = (VktGaussTile) {
  lanes, rows, 2, halo};
  return TRUE;
}
