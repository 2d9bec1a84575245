/* tests/recursivefilter_fx.h: the fixture of the recursivefilter suites
 * (test_recursivefilter.c, test_recursivefilter_temporal.c) on the shared
 * one (fixture.h): its Fx, and the element's properties set on the element
 * and mirrored in the reference (recursivefilter_fx.c). */
#ifndef VKTILE_TESTS_RECURSIVEFILTER_FX_H
#define VKTILE_TESTS_RECURSIVEFILTER_FX_H

#include "fixture.h"
#include "reference_iir.h"

G_BEGIN_DECLS

#define ELEMENT "recursivefilter"
#define TOL 1

/* VKTILE_SEED, of the suite that links this */
extern guint32 base_seed;

/* The fixture, the reference's mirror of the element's properties, and
 * its temporal state. */
typedef struct
{
  HarnessFx base;
  RefIir ref;
  RefIirTemporal temporal;
  RefIirTemporal before;        /* the state before the frame last checked */
  guint tile_size;
  RefIir ref_b;                 /* the second of a chain */
} Fx;

extern const FxElement fx_element;

void fx_gaussian (Fx * fx, gdouble sigma);
void fx_exponential (Fx * fx, gdouble alpha, gdouble sigma, RefIirDirection d);
void fx_box (Fx * fx, guint radius, guint iterations);
void fx_custom (Fx * fx, gdouble b0, const gdouble * a, guint k,
    RefIirDirection d);
void fx_random_custom (Fx * fx, guint k, RefIirDirection d);
void fx_set_axes (Fx * fx, RefIirAxes axes);
void fx_set_algorithm (Fx * fx, const gchar * nick, guint tile_size);
void fx_set_border (Fx * fx, RefBorder b, gdouble value);
void fx_set_border_rand (Fx * fx, gboolean constant);
void fx_set_temporal (Fx * fx, gdouble a);
void fx_set_motion_adaptive (Fx * fx, gdouble noise_sigma);
void fx_defaults (Fx * fx);
void ref_iir_apply (const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer ref);
void fx_rotating_filter (Fx * fx, guint k);

G_END_DECLS

#endif
