/* test_kernel.c: unit tests of the plain-C math behind the elements —
 * tiledconv's kernels (presets, validation, rank-1 detection, weight
 * packing) and the ROI / tile-class geometry of vkttiles.c. */
#include <gst/check/gstcheck.h>
#include <math.h>

#include "plugin/vktkernel.h"
#include "plugin/vkttiles.h"
#include "plugin/gstvktiletimingmeta.h"

GST_START_TEST (test_presets)
{
  VktKernel k;
  gdouble sum = 0;
  guint i;

  vkt_kernel_from_preset (&k, VKT_PRESET_GAUSSIAN3);
  fail_unless_equals_int (k.size, 3);
  fail_unless (k.separable);
  fail_unless (fabs (k.k[4] - 0.25) < 1e-12);
  for (i = 0; i < 9; i++)
    sum += k.k[i];
  fail_unless (fabs (sum - 1.0) < 1e-12);

  vkt_kernel_from_preset (&k, VKT_PRESET_GAUSSIAN5);
  fail_unless_equals_int (k.size, 5);
  fail_unless (fabs (k.k[12] - 36.0 / 256) < 1e-12);

  vkt_kernel_from_preset (&k, VKT_PRESET_SHARPEN);
  fail_if (k.separable);
  fail_unless (k.k[4] == 5.0 && k.k[1] == -1.0 && k.k[0] == 0.0);

  /* Sobel is an outer product: [1 2 1]^T x [-1 0 1]. */
  vkt_kernel_from_preset (&k, VKT_PRESET_SOBEL_X);
  fail_unless (k.separable);
  for (i = 0; i < 9; i++)
    fail_unless (fabs (k.ky[i / 3] * k.kx[i % 3] - k.k[i]) < 1e-12);
  vkt_kernel_from_preset (&k, VKT_PRESET_LAPLACIAN);
  fail_if (k.separable);
  vkt_kernel_from_preset (&k, VKT_PRESET_EMBOSS);
  fail_if (k.separable);
}

GST_END_TEST;

GST_START_TEST (test_rank1)
{
  GRand *rand = g_rand_new_with_seed (7);
  guint size, trial, i, j;

  for (size = 3; size <= 7; size += 2)
    for (trial = 0; trial < 50; trial++) {
      gdouble a[7], b[7], k[49], kx[7], ky[7];
      for (i = 0; i < size; i++) {
        a[i] = g_rand_double_range (rand, -2, 2);
        b[i] = g_rand_double_range (rand, -2, 2);
      }
      for (j = 0; j < size; j++)
        for (i = 0; i < size; i++)
          k[j * size + i] = a[j] * b[i];
      fail_unless (vkt_kernel_rank1 (k, size, kx, ky));
      for (j = 0; j < size; j++)
        for (i = 0; i < size; i++)
          fail_unless (fabs (ky[j] * kx[i] - k[j * size + i]) < 1e-9);
      /* One perturbed weight makes it rank 2. */
      k[g_rand_int_range (rand, 0, size * size)] += 0.01;
      fail_if (vkt_kernel_rank1 (k, size, kx, ky));
    }
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_validation)
{
  gdouble v[49] = { 0 }, nan_v[9] = { 0, 0, 0, 0, NAN, 0, 0, 0, 0 };
  gdouble x[5] = { 1, 2, 3, 2, 1 }, y3[3] = { 1, 2, 1 };
  VktKernel k;
  guint n;

  for (n = 0; n <= 49; n++)
    fail_unless_equals_int (vkt_kernel_from_2d (&k, v, n),
        n == 9 || n == 25 || n == 49);
  fail_if (vkt_kernel_from_2d (&k, nan_v, 9));
  fail_if (vkt_kernel_from_separable (&k, x, 5, y3, 3));
  fail_if (vkt_kernel_from_separable (&k, x, 4, NULL, 0));
  fail_if (vkt_kernel_from_separable (&k, NULL, 0, NULL, 0));

  /* Only kernel-x: the vertical factor is the identity tap. */
  fail_unless (vkt_kernel_from_separable (&k, x, 5, NULL, 0));
  fail_unless_equals_int (k.size, 5);
  fail_unless (k.separable);
  fail_unless (k.k[2 * 5 + 0] == 1 && k.k[2 * 5 + 2] == 3);
  fail_unless (k.k[0] == 0 && k.k[4 * 5 + 2] == 0);
}

GST_END_TEST;

GST_START_TEST (test_pack)
{
  gfloat w[VKT_KERNEL_WEIGHTS];
  VktKernel k;
  gdouble v[49];
  guint i;

  for (i = 0; i < 49; i++)
    v[i] = i + 1;
  fail_unless (vkt_kernel_from_2d (&k, v, 49));
  vkt_kernel_pack (&k, w);
  for (i = 0; i < 49; i++)
    fail_unless (w[16 + i] == (gfloat) (i + 1));
  fail_unless (w[15] == 0.0f);
}

GST_END_TEST;

GST_START_TEST (test_plane_roi)
{
  VktRoiParams p = { 0, 0, 0, 0, -1, -1 };
  VktPlaneRoi r;

  /* Whole frame. */
  fail_unless (vkt_plane_roi (&p, 0, 0, 33, 17, &r));
  fail_unless (r.tx == 0 && r.ty == 0 && r.sx == 0 && r.sy == 0 && r.w == 33
      && r.h == 17);

  /* Odd luma ROI on a subsampled plane: the chroma ROI covers every chroma
   * sample the luma ROI touches. */
  p = (VktRoiParams) { 3, 5, 4, 4, -1, -1 };
  fail_unless (vkt_plane_roi (&p, 1, 1, 17, 9, &r));
  fail_unless (r.tx == 1 && r.ty == 2 && r.w == 3 && r.h == 3);

  /* Source elsewhere; clipped by whichever ROI reaches the edge first. */
  p = (VktRoiParams) { 10, 0, 20, 5, 25, 2 };
  fail_unless (vkt_plane_roi (&p, 0, 0, 33, 17, &r));
  fail_unless (r.tx == 10 && r.sx == 25 && r.w == 8 && r.sy == 2 && r.h == 5);

  /* Outside the frame: nothing to filter. */
  p = (VktRoiParams) { 40, 0, 0, 0, -1, -1 };
  fail_if (vkt_plane_roi (&p, 0, 0, 33, 17, &r));
  p = (VktRoiParams) { 0, 0, 0, 0, 0, 17 };
  fail_if (vkt_plane_roi (&p, 0, 0, 33, 17, &r));

  /* Huge sizes do not overflow. */
  p = (VktRoiParams) { G_MAXINT - 1, 0, G_MAXINT, 0, -1, -1 };
  fail_if (vkt_plane_roi (&p, 1, 0, 33, 17, &r));
  p = (VktRoiParams) { 1, 1, G_MAXINT, G_MAXINT, -1, -1 };
  fail_unless (vkt_plane_roi (&p, 0, 0, 33, 17, &r));
  fail_unless (r.w == 32 && r.h == 16);
}

GST_END_TEST;

/* The tile classes against their definition, tile by tile. */
GST_START_TEST (test_tile_grid)
{
  GRand *rand = g_rand_new_with_seed (11);
  guint trial;

  for (trial = 0; trial < 300; trial++) {
    gint ncomp = 1 << g_rand_int_range (rand, 0, 3);
    gint cpw = g_rand_boolean (rand) ? 4 : 2;
    gint r = g_rand_int_range (rand, 1, 4);
    gint pw = g_rand_int_range (rand, 1, 600), ph = g_rand_int_range (rand, 1,
        300);
    VktPlaneRoi roi;
    VktTileGrid g;
    guint total = 0, c;
    gint i, j;

    roi.tx = g_rand_int_range (rand, 0, pw);
    roi.ty = g_rand_int_range (rand, 0, ph);
    roi.w = g_rand_int_range (rand, 1, pw - roi.tx + 1);
    roi.h = g_rand_int_range (rand, 1, ph - roi.ty + 1);
    roi.sx = roi.tx;
    roi.sy = roi.ty;
    vkt_tile_grid (&g, &roi, ncomp, cpw, r, r, 32, 32);

    fail_unless (g.word_x0 * cpw <= roi.tx * ncomp);
    fail_unless ((g.word_x0 + g.words) * cpw >= (roi.tx + roi.w) * ncomp);
    fail_unless ((g.word_x0 + g.words - 1) * cpw < (roi.tx + roi.w) * ncomp);
    for (c = 0; c < 4; c++)
      total += g.classes[c];
    fail_unless_equals_int (total, g.tiles_x * g.tiles_y);
    fail_unless_equals_int (vkt_tile_grid_free_count (&g),
        g.classes[GST_VKTILE_TILES_FREE]);
    fail_unless_equals_int (vkt_tile_grid_free_count (&g) +
        vkt_tile_grid_border_count (&g), g.tiles_x * g.tiles_y);

    for (j = 0; j < g.tiles_y; j++)
      for (i = 0; i < g.tiles_x; i++) {
        gint c0 = (g.word_x0 + 32 * i) * cpw, c1 = c0 + 32 * cpw;
        gint y0 = roi.ty + 32 * j;
        gboolean reads_inside = c0 - r * ncomp >= roi.tx * ncomp
            && c1 + r * ncomp <= (roi.tx + roi.w) * ncomp
            && y0 - r >= roi.ty && y0 + 32 + r <= roi.ty + roi.h;
        gboolean in_rect = i >= g.free_x0 && i < g.free_x1 && j >= g.free_y0
            && j < g.free_y1;
        fail_unless_equals_int (reads_inside, in_rect);
      }
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
kernel_suite (void)
{
  Suite *s = suite_create ("vktmath");
  TCase *tc = tcase_create ("math");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_presets);
  tcase_add_test (tc, test_rank1);
  tcase_add_test (tc, test_validation);
  tcase_add_test (tc, test_pack);
  tcase_add_test (tc, test_plane_roi);
  tcase_add_test (tc, test_tile_grid);
  return s;
}

GST_CHECK_MAIN (kernel);
