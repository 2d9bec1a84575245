/* tests/suite.h: what every Check executable of the tests shares — its
 * tests listed in one table, and its main() (suite.c). It needs only Check
 * and GLib, so that the suites that do not harness an element (test_bench,
 * test_kernel, test_pipelines) use it as well as the element suites. */
#ifndef VKTILE_TESTS_SUITE_H
#define VKTILE_TESTS_SUITE_H

#include <gst/check/gstcheck.h>

G_BEGIN_DECLS

/* A row of a suite's table: a test, the start of the test case that
 * holds the tests below it, or the rows of another file (SUITE_PART). */
typedef struct _SuiteEntry SuiteEntry;
struct _SuiteEntry
{
  TFun fn;                      /* NULL: this row starts a test case */
  const gchar *name;            /* the test's (for GST_CHECKS), or the case's */
  gint loops;                   /* runs with __i__ from 0 to loops - 1 */
  const gchar *tags;            /* a case's tags (CK_INCLUDE_TAGS), or NULL */
  gint timeout;                 /* a case's timeout in s (0: the default) */
  const SuiteEntry *part;       /* SUITE_PART's rows, ended by SUITE_END */
};

/* a plain test runs once, with __i__ 0, as tcase_add_test() has it */
#define SUITE_TEST(fn) { fn, #fn, 1, NULL, 0 }
#define SUITE_LOOP_TEST(fn, n) { fn, #fn, (n), NULL, 0 }
#define SUITE_CASE(name) { NULL, name, 0, NULL, 0 }
/* tests/run.sh runs a tagged case in a process of its own (its PARTS) */
#define SUITE_TAGGED_CASE(name, tags) { NULL, name, 0, tags, 0 }
#define SUITE_CASE_WITH_TIMEOUT(name, seconds) { NULL, name, 0, NULL, seconds }

/* A suite whose tests lie in several files (one a subject): a file exports
 * its rows as a table ended by SUITE_END, and the executable's table takes
 * them in where SUITE_PART stands, in the test case open there (or one the
 * part starts), so that the order of the tests and their case names do not
 * depend on which file holds them. */
#define SUITE_PART(rows) { NULL, NULL, 0, NULL, 0, rows }
#define SUITE_END { NULL, NULL, 0, NULL, 0, NULL }

/* Runs before gst_check_init(): returns -1 to go on with the suite, else
 * the exit status of the process (a child the suite spawned itself). */
typedef int (*SuiteSetup) (int argc, char **argv);

/* Builds the suite `name` from entries[0..n) (the first a case) and runs
 * it: Check's timeout raised for lavapipe (unless CK_DEFAULT_TIMEOUT says
 * otherwise), *base_seed (NULL: the suite draws nothing at random) from
 * VKTILE_SEED or the time and printed, so that a run can be replayed;
 * CK_ENV's verbosity (tests/run.sh asks for every test's line). Returns
 * the exit status. */
int suite_main (int argc, char **argv, const gchar * name,
    const SuiteEntry * entries, guint n_entries, guint32 * base_seed,
    SuiteSetup setup);

/* The main() of a suite: its table, the seed it draws from (or NULL), what
 * runs before gst_check_init() (or NULL). */
#define SUITE_MAIN(name, entries, base_seed, setup)                    \
int                                                                     \
main (int argc, char **argv)                                            \
{                                                                       \
  return suite_main (argc, argv, name, entries, G_N_ELEMENTS (entries), \
      base_seed, setup);                                                \
}

G_END_DECLS

#endif
