/* tests/tiledconv_fx.h: the fixture of the tiledconv suite (the files
 * test_tiledconv*.c of one executable) on the shared one (fixture.h): its
 * Fx, the algorithms, random kernels, and the element's properties set on
 * the element and mirrored in the reference (tiledconv_fx.c). */
#ifndef VKTILE_TESTS_TILEDCONV_FX_H
#define VKTILE_TESTS_TILEDCONV_FX_H

#include "reference.h"
/* the reference is a RefConv, the base-class settings themselves */
#define FX_COMMON(fx) (&(fx)->ref)
#include "fixture.h"

G_BEGIN_DECLS

/* VKTILE_SEED, of the suite that links this */
extern guint32 base_seed;

/* tiled, naive, two-pass, shared */
#define N_ALGORITHMS 4
extern const gchar *const algorithms[N_ALGORITHMS];

typedef enum
{
  KERNEL_2D,                    /* random, non-separable, via `kernel` */
  KERNEL_SEPARABLE,             /* random, via `kernel-x` and `kernel-y` */
  KERNEL_RANK1,                 /* random outer product, via `kernel` */
  KERNEL_KINDS
} KernelKind;

/* The fixture and the reference's mirror of the element's properties. */
typedef struct
{
  HarnessFx base;
  RefConv ref;
  RefConv ref_b;                /* the second of a chain */
} Fx;

extern const FxElement fx_element;

void ref_tiledconv_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref);
void random_taps (GRand * r, gdouble * t, guint n);
void fx_set_kernel (Fx * fx, const gdouble * k, guint n);
void fx_set_separable (Fx * fx, const gdouble * kx, const gdouble * ky,
    guint n);
void fx_random_kernel (Fx * fx, KernelKind kind, guint n);
void fx_set_preset (Fx * fx, const gchar * nick);
void fx_set_border (Fx * fx, RefBorder b, gdouble value);
void fx_set_algorithm (Fx * fx, const gchar * nick);
void fx_set_gain (Fx * fx, gdouble scale, gdouble bias, gboolean absolute);

/* The tests of test_tiledconv_filter.c and test_tiledconv_memory.c, for
 * the table of test_tiledconv.c (SUITE_PART). */
extern const SuiteEntry tiledconv_filter_tests[], tiledconv_memory_tests[];

G_END_DECLS

#endif
