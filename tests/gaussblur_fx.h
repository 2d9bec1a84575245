/* tests/gaussblur_fx.h: the fixture of the gaussblur suite (the files
 * test_gaussblur*.c of one executable) on the shared one (fixture.h): its
 * Fx, the algorithms and the frame most tests use, and the element's
 * properties set on the element and mirrored in the reference
 * (gaussblur_fx.c). */
#ifndef VKTILE_TESTS_GAUSSBLUR_FX_H
#define VKTILE_TESTS_GAUSSBLUR_FX_H

#include "fixture.h"
#include "reference_gauss.h"
#include "reference_iir.h"

G_BEGIN_DECLS

#define ELEMENT "gaussblur"
#define TOL 1

/* VKTILE_SEED, of the suite that links this */
extern guint32 base_seed;

/* algorithm=auto is exact (fused or two-pass) up to at least this sigma:
 * the benchmark's targets time "gaussblur sigma <= 4, fused". Above some
 * threshold that the element measures on a GPU and documents it runs the
 * recursive Gaussian, an approximation, with radius 0 and a clamp or
 * constant border. The tests other than test_auto use auto only up to
 * this sigma; test_auto finds the threshold by comparing with
 * algorithm=recursive. */
#define AUTO_EXACT_MAX_SIGMA 4.0

/* The frame most tests use (not a multiple of any tile). The recursive
 * path's pipelines depend on the format and the frame size, and lavapipe
 * compiles each in seconds: one size shared by the tests lets Mesa's shader
 * cache serve the forked tests after the first. */
#define MID_W 61
#define MID_H 37

/* auto, fused, two-pass, recursive */
#define N_ALGORITHMS 4
extern const gchar *const algorithms[N_ALGORITHMS];

/* The fixture and the reference's mirror of the element's properties. */
typedef struct
{
  HarnessFx base;
  RefGauss ref;
  gboolean auto_recursive;      /* auto runs recursive (test_auto) */
  RefGauss ref_b;               /* the second of a chain */
} Fx;

extern const FxElement fx_element;

void fx_sync_algorithm (Fx * fx);
void fx_set_sigma (Fx * fx, gdouble sigma, gdouble sigma_y);
void fx_set_radius (Fx * fx, guint radius);
void fx_set_amount (Fx * fx, gdouble amount);
void fx_blur (Fx * fx, gdouble sigma, gdouble sigma_y, guint radius,
    gdouble amount);
void fx_set_algorithm (Fx * fx, const gchar * nick);
void fx_set_border (Fx * fx, RefBorder b, gdouble value);
void fx_set_border_rand (Fx * fx, RefBorder b);
void ref_gauss_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref);
const gchar *rotating_algorithm (guint k, gboolean recursive_ok);

/* The tests of test_gaussblur_filter.c and test_gaussblur_memory.c, for
 * the table of test_gaussblur.c (SUITE_PART). */
extern const SuiteEntry gaussblur_filter_tests[], gaussblur_memory_tests[];

G_END_DECLS

#endif
