/* vktsure.c: see vktsure.h. The risks differ by little compared with their
 * size, so they are taken relative to t = 0's as exact 64-bit differences
 * of the sums before anything is rounded. */
#include "vktsure.h"

gdouble
vkt_sure_choose (const gdouble * ts, guint n, const guint64 * sums,
    gdouble c2, gdouble none)
{
  gdouble risk[16], d01, d12, a, t0, t1, t2;
  guint j, best = 0, i;

  g_return_val_if_fail (n >= 3 && n <= G_N_ELEMENTS (risk), none);
  if (sums[2 * n - 1] == 0)
    return none;
  risk[0] = 0.0;
  for (j = 1; j < n; j++) {
    gint64 kept = (gint64) (sums[j] - sums[0]);

    risk[j] = (gdouble) kept + c2 * (gdouble) sums[n - 1 + j];
    if (risk[j] < risk[best])
      best = j;
  }
  i = CLAMP (best, 1, n - 2);
  t0 = ts[i - 1];
  t1 = ts[i];
  t2 = ts[i + 1];
  d01 = (risk[i] - risk[i - 1]) / (t1 - t0);
  d12 = (risk[i + 1] - risk[i]) / (t2 - t1);
  a = (d12 - d01) / (t2 - t0);
  if (a <= 0.0)
    return risk[i - 1] <= risk[i + 1] ? t0 : t2;
  return CLAMP ((t0 + t1 - d01 / a) / 2.0, ts[0], ts[n - 1]);
}
