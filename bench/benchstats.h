/* benchstats.h: the statistics of vktile-bench's interleaved rounds — which
 * subject runs where in a round, quartiles, and ratios taken round by round.
 * Plain C without GStreamer or Vulkan, unit-tested in tests/test_bench.c. */
#ifndef __VKT_BENCH_STATS_H__
#define __VKT_BENCH_STATS_H__

#include <glib.h>

G_BEGIN_DECLS

/* The middle of a set of values and its interquartile range; n = 0 when no
 * value was usable (then the others are 0). The mean too: where the
 * rounds are a stream's successive frames and its frames differ in kind
 * (one in four doing more), the mean is what the stream pays and the
 * median falls between the kinds. */
typedef struct
{
  gdouble p25, median, p75;
  guint n;
  gdouble mean;
} BenchSpread;

BenchSpread bench_spread (const gdouble * values, guint n);
BenchSpread bench_ratio_spread (const gdouble * num, const gdouble * den,
    guint rounds);
BenchSpread bench_inverse_ratio_spread (const gdouble * num,
    const gdouble * den, guint rounds);
guint bench_round_order (guint round, guint position, guint n_subjects);
gboolean bench_repeatable (const BenchSpread * aa, gdouble tolerance);

G_END_DECLS

#endif
