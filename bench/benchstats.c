/* benchstats.c: see benchstats.h. Every value is a time per frame; 0 (or
 * less, or NaN) marks a round where that subject gave no time, and such
 * rounds are left out rather than counted as fast. */
#include "benchstats.h"

#include <math.h>
#include <stdlib.h>

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

static gboolean
usable (gdouble v)
{
  return v > 0 && isfinite (v);
}

/* Quantile q of n sorted values, interpolating linearly between order
 * statistics (numpy's default), so that a handful of rounds still gives a
 * spread that moves smoothly with the data. */
static gdouble
quantile_sorted (const gdouble * v, guint n, gdouble q)
{
  gdouble pos = q * (n - 1);
  guint lo = (guint) floor (pos);
  guint hi = MIN (lo + 1, n - 1);

  return v[lo] + (pos - lo) * (v[hi] - v[lo]);
}

/* The median and quartiles of the usable values, and their mean. The
 * median is the figure: a round delayed by the OS or another tenant does
 * not move it. */
BenchSpread
bench_spread (const gdouble * values, guint n)
{
  BenchSpread s = { 0 };
  gdouble *v = g_new (gdouble, MAX (n, 1));
  guint i, m = 0;

  for (i = 0; i < n; i++)
    if (usable (values[i]))
      v[m++] = values[i];
  if (m) {
    qsort (v, m, sizeof (gdouble), cmp_double);
    s.p25 = quantile_sorted (v, m, 0.25);
    s.median = quantile_sorted (v, m, 0.5);
    s.p75 = quantile_sorted (v, m, 0.75);
    for (i = 0; i < m; i++)
      s.mean += v[i] / m;
    s.n = m;
  }
  g_free (v);
  return s;
}

/* num[r] / den[r] for every round r where both were timed, then their
 * spread: both were timed minutes apart from the other rounds but
 * milliseconds apart from each other, so whatever the machine did between
 * rounds (clocks, heat, another tenant) cancels in each ratio. */
BenchSpread
bench_ratio_spread (const gdouble * num, const gdouble * den, guint rounds)
{
  gdouble *r = g_new (gdouble, MAX (rounds, 1));
  BenchSpread s;
  guint i;

  for (i = 0; i < rounds; i++)
    r[i] = usable (num[i]) && usable (den[i]) ? num[i] / den[i] : 0;
  s = bench_spread (r, rounds);
  g_free (r);
  return s;
}

/* den[r] / num[r]: the same ratio for rates (frames/s), where num and den
 * are times per frame and the faster subject should read as the larger. */
BenchSpread
bench_inverse_ratio_spread (const gdouble * num, const gdouble * den,
    guint rounds)
{
  return bench_ratio_spread (den, num, rounds);
}

/* The subject timed at `position` of round `round`: the order rotates by
 * one each round, so that no subject always runs first after a pause, or
 * always right after the same neighbour. */
guint
bench_round_order (guint round, guint position, guint n_subjects)
{
  g_return_val_if_fail (n_subjects > 0, 0);
  return (round + position) % n_subjects;
}

/* Whether the A/A pair (the same subject timed twice under two names) agrees
 * within the tolerance: its median per-round ratio is within 1 ± tolerance. */
gboolean
bench_repeatable (const BenchSpread * aa, gdouble tolerance)
{
  return aa->n > 0 && fabs (aa->median - 1.0) <= tolerance;
}
