/* tests/suite.c: the main() of every Check executable of the tests
 * (suite.h): one table of tests made into a Suite, the seed, the run. */
#include <stdlib.h>

#include "suite.h"

/* Adds the rows of entries to s, in the case *tc (a row that starts a
 * case opens a new one): n_entries of them, or up to SUITE_END. */
static void
suite_add_entries (Suite * s, TCase ** tc, const SuiteEntry * entries,
    guint n_entries)
{
  guint i;

  for (i = 0; i < n_entries; i++) {
    const SuiteEntry *e = &entries[i];

    if (e->part) {
      suite_add_entries (s, tc, e->part, G_MAXUINT);
      continue;
    }
    if (e->fn == NULL && e->name == NULL)
      break;                    /* SUITE_END */
    if (e->fn == NULL) {
      *tc = tcase_create (e->name);
      if (e->tags)
        tcase_set_tags (*tc, e->tags);
      if (e->timeout)
        tcase_set_timeout (*tc, e->timeout);
      suite_add_tcase (s, *tc);
      continue;
    }
    g_assert (*tc != NULL);
    /* what tcase_add_test() and tcase_add_loop_test() expand to, with the
     * name GST_CHECKS matches */
    _tcase_add_test (*tc, e->fn, e->name, 0, 0, 0, e->loops);
  }
}

static Suite *
suite_from_entries (const gchar * name, const SuiteEntry * entries,
    guint n_entries)
{
  Suite *s = suite_create (name);
  TCase *tc = NULL;

  suite_add_entries (s, &tc, entries, n_entries);
  return s;
}

int
suite_main (int argc, char **argv, const gchar * name,
    const SuiteEntry * entries, guint n_entries, guint32 * base_seed,
    SuiteSetup setup)
{
  SRunner *sr;
  int nf;

  if (setup) {
    int status = setup (argc, argv);

    if (status >= 0)
      return status;
  }
  /* lavapipe compiles pipelines slowly: Check's 4 s default is too short */
  if (!g_getenv ("CK_DEFAULT_TIMEOUT"))
    g_setenv ("CK_DEFAULT_TIMEOUT", "300", TRUE);
  if (base_seed) {
    const gchar *seed_env = g_getenv ("VKTILE_SEED");

    *base_seed = seed_env ? (guint32) strtoul (seed_env, NULL, 0)
        : (guint32) (g_get_real_time () / 1000);
    g_print ("VKTILE_SEED=%u\n", *base_seed);
  }

  gst_check_init (&argc, &argv);
  sr = srunner_create (suite_from_entries (name, entries, n_entries));
  /* CK_ENV: CK_VERBOSITY=verbose (tests/run.sh) lists every test */
  srunner_run_all (sr, CK_ENV);
  nf = srunner_ntests_failed (sr);
  srunner_free (sr);
  return nf == 0 ? 0 : 1;
}
