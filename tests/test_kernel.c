/* test_kernel.c: unit tests of the plain-C math behind the elements —
 * tiledconv's kernels (presets, validation, rank-1 detection, weight
 * packing), the ROI / tile-class geometry of vkttiles.c,
 * recursivefilter's stages and tail matrices (vktiir.c), gaussblur's
 * weights and tiles (vktgauss.c) and denoise's detail threshold
 * (vktsure.c). */
#include <gst/check/gstcheck.h>
#include <math.h>
#include <string.h>

#include "lib/vktkernel.h"
#include "lib/vkttiles.h"
#include "lib/vktiir.h"
#include "lib/vktgauss.h"
#include "lib/vktsure.h"

#include "suite.h"

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
  /* Finite as doubles, not as floats: refused, not inf on the GPU. */
  {
    gdouble big[9] = { 0, 0, 0, 0, 1e308, 0, 0, 0, 0 };
    gdouble bx[3] = { 0, 1e20, 0 }, by[3] = { 0, 1e20, 0 };
    fail_if (vkt_kernel_from_2d (&k, big, 9));
    big[4] = -1e39;
    fail_if (vkt_kernel_from_2d (&k, big, 9));
    big[4] = 1e38;
    fail_unless (vkt_kernel_from_2d (&k, big, 9));
    fail_if (vkt_kernel_from_separable (&k, bx, 3, by, 3));
    fail_unless (vkt_kernel_from_separable (&k, bx, 3, NULL, 0));
  }
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

/* roi-meta's rectangles: grown by the padding, clipped to the frame,
 * dropped when nothing is left; overlap means sharing a pixel. */
GST_START_TEST (test_rect_pad_clip)
{
  VktRect r, a, b;
  VktRoiParams p;

  fail_unless (vkt_rect_pad_clip (10, 20, 30, 40, 0, 100, 100, &r));
  fail_unless (r.x == 10 && r.y == 20 && r.w == 30 && r.h == 40);
  fail_unless (vkt_rect_pad_clip (10, 20, 30, 40, 5, 100, 100, &r));
  fail_unless (r.x == 5 && r.y == 15 && r.w == 40 && r.h == 50);
  fail_unless (vkt_rect_pad_clip (2, 90, 30, 40, 4, 100, 100, &r));
  fail_unless (r.x == 0 && r.y == 86 && r.w == 36 && r.h == 14);
  fail_if (vkt_rect_pad_clip (120, 10, 5, 5, 10, 100, 100, &r));
  fail_unless (vkt_rect_pad_clip (120, 10, 5, 5, 21, 100, 100, &r));
  fail_unless (r.x == 99 && r.w == 1 && r.y == 0 && r.h == 36);
  fail_if (vkt_rect_pad_clip (10, 10, 0, 5, 3, 100, 100, &r));
  fail_if (vkt_rect_pad_clip (G_MAXINT - 1, G_MAXINT - 1, G_MAXINT, G_MAXINT,
          0, 100, 100, &r));
  fail_unless (vkt_rect_pad_clip (1, 1, G_MAXINT, G_MAXINT, G_MAXINT, 100,
          100, &r));
  fail_unless (r.x == 0 && r.y == 0 && r.w == 100 && r.h == 100);
  /* Far outside: the padding does not bring it in (clamped to G_MAXINT
   * first, it covered the frame). */
  fail_if (vkt_rect_pad_clip (G_MAXUINT, G_MAXUINT, G_MAXUINT, G_MAXUINT,
          G_MAXINT, 100, 100, &r));
  fail_if (vkt_rect_pad_clip (G_MAXUINT, 0, 1, 1, G_MAXINT, 100, 100, &r));

  a = (VktRect) { 0, 0, 10, 10 };
  b = (VktRect) { 10, 0, 10, 10 };
  fail_if (vkt_rects_overlap (&a, &b, 0, 0));
  fail_unless (vkt_rects_overlap (&a, &b, 1, 0));
  b.x = 9;
  fail_unless (vkt_rects_overlap (&a, &b, 0, 0)
      && vkt_rects_overlap (&b, &a, 0, 0));
  b = (VktRect) { 2, 10, 3, 3 };
  fail_if (vkt_rects_overlap (&a, &b, 8, 0));
  fail_unless (vkt_rects_overlap (&a, &b, 0, 1));
  b = (VktRect) { 20, 12, 3, 3 };
  fail_if (vkt_rects_overlap (&a, &b, 10, 2));
  fail_unless (vkt_rects_overlap (&a, &b, 11, 3));

  r = (VktRect) { 3, 4, 5, 6 };
  p = vkt_rect_roi (&r);
  fail_unless (p.x == 3 && p.y == 4 && p.width == 5 && p.height == 6
      && p.source_x == -1 && p.source_y == -1);
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
        g.classes[VKT_TILES_FREE]);
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

/* ---- vktiir.c ---- */

static gdouble
sim_step (const VktIirStage * st, gdouble * s, gdouble x)
{
  gdouble next[VKT_IIR_MAX_ORDER] = { 0 }, y = st->D * x;
  gint i, j;

  for (i = 0; i < st->order; i++) {
    y += st->C[i] * s[i];
    next[i] = st->B[i] * x;
    for (j = 0; j < st->order; j++)
      next[i] += st->A[i][j] * s[j];
  }
  memcpy (s, next, sizeof (next));
  return y;
}

/* causal then anticausal over x[0..n), both from rest */
static void
sim_pair (const VktIirStage * c, const VktIirStage * a, const gdouble * x,
    gdouble * y, gint n)
{
  gdouble s[VKT_IIR_MAX_ORDER] = { 0 }, u[VKT_IIR_MAX_ORDER] = { 0 };
  gint i;

  for (i = 0; i < n; i++)
    y[i] = c->form != VKT_IIR_FORM_NONE ? sim_step (c, s, x[i]) : x[i];
  if (a->form != VKT_IIR_FORM_NONE)
    for (i = n - 1; i >= 0; i--)
      y[i] = sim_step (a, u, y[i]);
}

GST_START_TEST (test_iir_gaussian)
{
  static const gdouble sigmas[] = { 0.5, 1.0, 2.0, 8.0, 64.0 };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (sigmas); k++) {
    gdouble sigma = sigmas[k];
    gint n = (gint) (60 * sigma) + 200, c0 = n / 2, i;
    gdouble *x = g_new0 (gdouble, n), *y = g_new0 (gdouble, n);
    gdouble sum = 0, mean = 0, var = 0, p, qr, qi;
    VktIirStage st;

    vkt_iir_stage_gaussian (&st, sigma);
    fail_unless_equals_int (st.form, VKT_IIR_FORM_MODAL3);
    vkt_iir_gaussian_poles (sigma, &p, &qr, &qi);
    fail_unless (p > 0 && p < 1 && hypot (qr, qi) < 1);
    x[c0] = 1.0;
    sim_pair (&st, &st, x, y, n);
    for (i = 0; i < n; i++) {
      sum += y[i];
      mean += i * y[i];
    }
    for (i = 0; i < n; i++)
      var += (i - mean) * (i - mean) * y[i];
    fail_unless (fabs (sum - 1.0) < 1e-9, "sigma %g: sum %g", sigma, sum);
    fail_unless (fabs (mean - c0) < 1e-6, "sigma %g: mean %g", sigma, mean);
    fail_unless (fabs (var - sigma * sigma) < 1e-6 * sigma * sigma,
        "sigma %g: variance %g", sigma, var);
    g_free (x);
    g_free (y);
  }
}

GST_END_TEST;

/* The modal form is the same filter as the direct form of the poles. */
GST_START_TEST (test_iir_modal_is_direct)
{
  gdouble p, qr, qi, a[3], b0, s[4] = { 0 }, d[4] = { 0 };
  VktIirStage modal, direct;
  GRand *rand = g_rand_new_with_seed (7);
  gint i;

  vkt_iir_stage_gaussian (&modal, 5.0);
  vkt_iir_gaussian_poles (5.0, &p, &qr, &qi);
  /* (1 - p z^-1)(1 - 2 qr z^-1 + |q|^2 z^-2) = 1 - a1 z^-1 - a2 z^-2 - a3 z^-3 */
  a[0] = p + 2 * qr;
  a[1] = -(2 * qr * p + qr * qr + qi * qi);
  a[2] = p * (qr * qr + qi * qi);
  b0 = 1 - a[0] - a[1] - a[2];
  vkt_iir_stage_direct (&direct, b0, a, 3);
  for (i = 0; i < 500; i++) {
    gdouble x = g_rand_double_range (rand, 0, 255);
    gdouble ym = sim_step (&modal, s, x), yd = sim_step (&direct, d, x);
    fail_unless (fabs (ym - yd) < 1e-9, "sample %d: %g vs %g", i, ym, yd);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* A custom recursion in modal form is the same filter as its direct form
 * (up to the float rounding of the poles), and poles near each other stay
 * in direct form: a repeated pair, and 0.576 beside 0.580 (with -0.511),
 * whose modal form put 16-bit output 2 code values off on the GPU. */
GST_START_TEST (test_iir_recursion_forms)
{
  static const gdouble four[] = { 2.9559604087845712, -3.2776431000443811,
    1.6178537417187655, -0.29925858266290206
  }, two_real[] = { 1.1, -0.28 }, repeated[] = { 1.8, -0.81 }, close[] = {
  0.64514, 0.25634, -0.17059};
  const gdouble *sets[] = { four, two_real, repeated, close };
  const guint ks[] = { 4, 2, 2, 3 };
  GRand *rand = g_rand_new_with_seed (5);
  guint c;

  for (c = 0; c < G_N_ELEMENTS (sets); c++) {
    VktIirStage modal, direct;
    gdouble s[4] = { 0 }, d[4] = { 0 }, amp = 0;
    gint i;

    vkt_iir_stage_recursion (&modal, 0.01, sets[c], ks[c]);
    vkt_iir_stage_direct (&direct, 0.01, sets[c], ks[c]);
    fail_unless_equals_int (modal.form, c >= 2 ? VKT_IIR_FORM_DIRECT :
        VKT_IIR_FORM_MODAL);
    for (i = 0; i < 2000; i++) {
      gdouble x = g_rand_double_range (rand, 0, 255);
      gdouble ym = sim_step (&modal, s, x), yd = sim_step (&direct, d, x);
      amp = MAX (amp, fabs (yd));
      fail_unless (fabs (ym - yd) < 1e-5 * (amp + 1), "set %u sample %d: "
          "%g vs %g", c, i, ym, yd);
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* The energy of each filter's impulse response against its closed form:
 * what motion-adaptive temporal smoothing scales its threshold by. */
GST_START_TEST (test_iir_noise_energy)
{
  VktIirStage none, expo, gauss;
  gdouble a = 0.6, both;

  vkt_iir_stage_none (&none);
  fail_unless (fabs (vkt_iir_noise_energy (&none, &none) - 1.0) < 1e-12);
  vkt_iir_stage_direct (&expo, 1.0 - a, &a, 1);
  /* y = (1 - a) a^n: sum = (1 - a)^2 / (1 - a^2). */
  fail_unless (fabs (vkt_iir_noise_energy (&expo, &none) - 0.25) < 1e-9);
  fail_unless (fabs (vkt_iir_noise_energy (&none, &expo) - 0.25) < 1e-9);
  /* Both ways: h[m] = (1 - a)^2 a^|m| / (1 - a^2). */
  both = pow (1 - a, 4) / pow (1 - a * a, 2) * (1 + a * a) / (1 - a * a);
  fail_unless (fabs (vkt_iir_noise_energy (&expo, &expo) - both) < 1e-9,
      "%g != %g", vkt_iir_noise_energy (&expo, &expo), both);
  /* A sampled Gaussian keeps 1 / (2 sqrt(pi) sigma); the recursive one
   * approximates it. */
  vkt_iir_stage_gaussian (&gauss, 4.0);
  fail_unless (fabs (vkt_iir_noise_energy (&gauss, &gauss) /
          (1.0 / (2.0 * sqrt (G_PI) * 4.0)) - 1.0) < 0.05);
  /* Boxes of 5: 1/5, then the triangle 1 2 3 4 5 4 3 2 1 over 25. */
  fail_unless (fabs (vkt_iir_box_noise_energy (2, 1) - 0.2) < 1e-12);
  fail_unless (fabs (vkt_iir_box_noise_energy (2, 2) - 85.0 / 625.0) < 1e-12);
}

GST_END_TEST;

GST_START_TEST (test_iir_stability)
{
  static const gdouble half[] = { 0.5 }, one[] = { 1.0 }, pole9[] = { 1.8,
    -0.81
  }, double1[] = { 2.0, -1.0 }, outside[] = { 0.9, 0.2 }, three[] = { 1.2,
    -0.5, 0.1
  }, neg[] = { -0.99 };
  gdouble gain, state[4];
  VktIirStage st;

  fail_unless (vkt_iir_feedback_is_stable (half, 1));
  fail_unless (vkt_iir_feedback_is_stable (neg, 1));
  fail_if (vkt_iir_feedback_is_stable (one, 1));
  fail_unless (vkt_iir_feedback_is_stable (pole9, 2));
  fail_if (vkt_iir_feedback_is_stable (double1, 2));
  fail_if (vkt_iir_feedback_is_stable (outside, 2));
  fail_unless (vkt_iir_feedback_is_stable (three, 3));
  fail_if (vkt_iir_feedback_is_stable (three, 0));

  vkt_iir_stage_direct (&st, 0.2, three, 3);
  fail_unless (vkt_iir_stage_steady (&st, &gain, state));
  fail_unless (fabs (gain - 0.2 / (1 - 0.8)) < 1e-12);
  fail_unless (fabs (state[0] - gain) < 1e-12 && fabs (state[2] - gain) < 1e-12);
  /* the box's running sum has no steady state */
  vkt_iir_stage_direct (&st, 1.0, one, 1);
  fail_if (vkt_iir_stage_steady (&st, &gain, state));
}

GST_END_TEST;

/* Runs "Compiling High Performance Recursive Filters"'s three steps with the tables, on a line continued by the
 * constants el and er forever, and compares with the pair run over a line
 * padded until both stages have forgotten the padding. */
static void
check_tiled (const VktIirStage * c, const VktIirStage * a, gint elems,
    gint subs, gint n, GRand * rand)
{
  gint L = elems * subs, chunks = (n + L - 1) / L, m = chunks * L;
  gint kc = c->form ? c->order : 0, ka = a->form ? a->order : 0;
  gint pad = 3000, i, j, l;
  gdouble el = g_rand_double_range (rand, 0, 255);
  gdouble er = g_rand_double_range (rand, 0, 255);
  gdouble *x = g_new0 (gdouble, m), *want = g_new0 (gdouble, m + 2 * pad);
  gdouble *xp = g_new0 (gdouble, m + 2 * pad), *got = g_new0 (gdouble, m);
  typedef gdouble State[4];
  State *sc = g_new0 (State, chunks + 1);
  State *ta = g_new0 (State, chunks);
  State *g0 = g_new0 (State, chunks);
  VktIirTables *t = g_new0 (VktIirTables, 1);

  vkt_iir_tables (t, c, a, elems, subs);
  for (i = 0; i < m; i++)
    x[i] = i < n ? g_rand_double_range (rand, 0, 255) : er;
  for (i = 0; i < m + 2 * pad; i++)
    xp[i] = i < pad ? el : i >= pad + m ? er : x[i - pad];
  sim_pair (c, a, xp, want, m + 2 * pad);

  /* step 1: chunks from rest; step 2: tails across chunks */
  for (l = 0; l < kc; l++)
    sc[0][l] = t->left[l] * el;
  for (j = 0; j < chunks; j++) {
    gdouble s[4] = { 0 }, u[4] = { 0 }, y[4096];
    for (i = 0; i < L; i++)
      y[i] = kc ? sim_step (c, s, x[j * L + i]) : x[j * L + i];
    for (i = L - 1; ka && i >= 0; i--)
      sim_step (a, u, y[i]);
    for (l = 0; l < 4; l++) {
      gdouble v = 0;
      for (i = 0; i < kc; i++)
        v += t->Pc[t->levels - 1][l][i] * sc[j][i];
      sc[j + 1][l] = v + s[l];
      g0[j][l] = u[l];
    }
    /* The same tails as weighted sums of the chunk's samples. */
    fail_unless_equals_int (t->tail_len, L <= VKT_IIR_TAIL_MAX_LEN ? L : 0);
    for (l = 0; t->tail_len && l < kc + ka; l++) {
      gdouble v = 0, want_tail = l < kc ? s[l] : u[l - kc];
      for (i = 0; i < L; i++)
        v += t->tail_w[i][l] * x[j * L + i];
      fail_unless (fabs (v - want_tail) < 1e-9 * (1 + fabs (want_tail)),
          "tail %d of chunk %d: %g vs %g", l, j, v, want_tail);
    }
  }
  for (l = 0; l < ka; l++) {
    ta[chunks - 1][l] = t->right[l][kc] * er;
    for (i = 0; i < kc; i++)
      ta[chunks - 1][l] += t->right[l][i] * sc[chunks][i];
  }
  for (j = chunks - 1; j > 0; j--)
    for (l = 0; l < ka; l++) {
      gdouble v = g0[j][l];
      for (i = 0; i < ka; i++)
        v += t->Pa[t->levels - 1][l][i] * ta[j][i];
      for (i = 0; i < kc; i++)
        v += t->cross[l][i] * sc[j][i];
      ta[j - 1][l] = v;
    }
  /* step 3: every chunk again from its true states */
  for (j = 0; j < chunks; j++) {
    gdouble s[4], u[4];
    memcpy (s, sc[j], sizeof (s));
    memcpy (u, ta[j], sizeof (u));
    for (i = 0; i < L; i++)
      got[j * L + i] = kc ? sim_step (c, s, x[j * L + i]) : x[j * L + i];
    for (i = L - 1; ka && i >= 0; i--)
      got[j * L + i] = sim_step (a, u, got[j * L + i]);
  }
  for (i = 0; i < n; i++)
    fail_unless (fabs (got[i] - want[pad + i]) < 1e-6,
        "elems %d subs %d n %d at %d: %g vs %g", elems, subs, n, i, got[i],
        want[pad + i]);
  g_free (x);
  g_free (xp);
  g_free (want);
  g_free (got);
  g_free (sc);
  g_free (ta);
  g_free (g0);
  g_free (t);
}

GST_START_TEST (test_iir_tiles)
{
  static const gdouble three[] = { 1.2, -0.5, 0.1 }, four[] = { 0.5, 0.2,
    -0.1, 0.05
  }, alpha[] = { 0.9 };
  GRand *rand = g_rand_new_with_seed (11);
  VktIirStage g, d3, d4, e, none;

  vkt_iir_stage_gaussian (&g, 3.0);
  vkt_iir_stage_direct (&d3, 0.2, three, 3);
  vkt_iir_stage_direct (&d4, 0.3, four, 4);
  vkt_iir_stage_direct (&e, 0.1, alpha, 1);
  vkt_iir_stage_none (&none);
  check_tiled (&g, &g, 16, 4, 200, rand);
  check_tiled (&g, &g, 16, 1, 37, rand);
  check_tiled (&g, &g, 16, 8, 300, rand);
  check_tiled (&e, &e, 16, 32, 600, rand);
  check_tiled (&d3, &d3, 16, 2, 101, rand);
  check_tiled (&d4, &e, 8, 8, 300, rand);
  check_tiled (&e, &none, 16, 4, 130, rand);
  check_tiled (&none, &d3, 16, 4, 130, rand);
  check_tiled (&none, &e, 4, 16, 17, rand);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_iir_pack)
{
  gfloat out[VKT_IIR_UNIFORM_FLOATS];
  gint i, j, k, l;
  VktIirStage g, none;
  VktIirTables *t = g_new0 (VktIirTables, 1);

  vkt_iir_stage_gaussian (&g, 2.0);
  vkt_iir_stage_none (&none);
  vkt_iir_tables (t, &g, &g, 16, 8);
  fail_unless_equals_int (t->levels, 4);
  vkt_iir_pack (t, &g, &g, 0.25f, 1.5f, out);
  fail_unless (out[0] == (gfloat) g.coef[0] && out[16] == (gfloat) g.coef[0]);
  fail_unless (out[32] == (gfloat) t->left[0]);
  fail_unless (out[36] == 0.25f && out[37] == (gfloat) t->gain);
  fail_unless (out[38] == 1.5f && out[39] == 0.0f);
  /* the detail threshold: set per pass, not by the tables */
  fail_unless (out[40] == 0.0f);
  fail_unless (out[44 + 16 * 2 + 4 * 1 + 2] == (gfloat) t->Pc[2][1][2]);
  fail_unless (out[300 + 16 * 3] == (gfloat) t->Pa[3][0][0]);
  fail_unless (out[44 + 16 * 9 + 4 * 2 + 2] == (gfloat) t->Pc[9][2][2]);
  fail_unless (out[556 + 4 * 2 + 1] == (gfloat) t->cross[2][1]);
  fail_unless (out[572 + 4 * 1 + 2] == (gfloat) t->right[1][2]);
  fail_unless (out[588 + 2] == (gfloat) t->right[2][3]);
  fail_unless (out[592 + 4 * 5 + 1] == (gfloat) t->zir_c[5][1]);
  fail_unless (out[656 + 4 * 15 + 2] == (gfloat) t->zir_a[15][2]);
  /* The zero-input response is C A^n: what the state-space form gives
   * after n steps from e_j with no input. */
  for (j = 0; j < 3; j++) {
    gdouble s[3] = { 0 }, next[3];
    s[j] = 1.0;
    for (k = 0; k < 16; k++) {
      gdouble y = 0.0;
      for (i = 0; i < 3; i++)
        y += g.C[i] * s[i];
      fail_unless (fabs (t->zir_c[k][j] - y) < 1e-12, "zir[%d][%d]", k, j);
      for (i = 0; i < 3; i++) {
        next[i] = 0.0;
        for (l = 0; l < 3; l++)
          next[i] += g.A[i][l] * s[l];
      }
      memcpy (s, next, sizeof (s));
    }
  }
  /* Past the chunk, the transitions go on doubling (the tails pass's
   * chunk levels): P[d + 1] = P[d]^2. */
  for (i = 0; i + 1 < VKT_IIR_MAX_LEVELS; i++)
    for (j = 0; j < 3; j++)
      for (k = 0; k < 3; k++) {
        gdouble sq = 0.0;
        for (l = 0; l < 3; l++)
          sq += t->Pc[i][j][l] * t->Pc[i][l][k];
        fail_unless (fabs (t->Pc[i + 1][j][k] - sq) < 1e-12, "P[%d]", i + 1);
      }
  fail_unless (fabs (t->Pc[VKT_IIR_MAX_LEVELS - 1][0][0]) < 1e-9);
  fail_unless (fabs (t->gain - 1.0) < 1e-9);
  {
    gfloat *w = g_new (gfloat, VKT_IIR_TAIL_FLOATS);

    fail_unless_equals_int (t->tail_len, 128);
    memcpy (w, out, sizeof (out));
    vkt_iir_pack_tail_weights (t, w);
    fail_unless (w[0] == out[0] && w[424 + 2] == out[424 + 2]);
    fail_unless (w[720 + 8 * 3 + 5] == (gfloat) t->tail_w[3][5]);
    fail_unless (w[720 + 8 * 127 + 2] == (gfloat) t->tail_w[127][2]);
    g_free (w);
  }
  g_free (t);
}

GST_END_TEST;

/* scipy.ndimage._filters._gaussian_kernel1d(1.0, 0, 3) as scipy prints
 * it (8 digits), centre first. */
GST_START_TEST (test_gauss_weights)
{
  static const gdouble scipy_s1_r3[4] =
      { 0.39905028, 0.24203623, 0.05400558, 0.00443305 };
  static const gdouble sigmas[] = { 0.3, 1.0, 2.0, 7.5, 64.0, 256.0 };
  gdouble half[VKT_GAUSS_MAX_RADIUS + 1];
  guint i;
  gint j;

  vkt_gauss_half_kernel (1.0, 3, half);
  for (j = 0; j <= 3; j++)
    fail_unless (fabs (half[j] - scipy_s1_r3[j]) < 6e-9, "w[%d] %.10f", j,
        half[j]);

  for (i = 0; i < G_N_ELEMENTS (sigmas); i++) {
    gint r = vkt_gauss_radius (sigmas[i], 0);
    gdouble sum = 0.0;
    vkt_gauss_half_kernel (sigmas[i], r, half);
    for (j = -r; j <= r; j++)
      sum += half[ABS (j)];
    fail_unless (fabs (sum - 1.0) < 1e-12, "sigma %g sums to %.15f",
        sigmas[i], sum);
    for (j = 1; j <= r; j++)
      fail_unless (half[j] < half[j - 1] || half[j] == 0.0);
  }

  fail_unless_equals_int (vkt_gauss_radius (2.0, 0), 6);
  fail_unless_equals_int (vkt_gauss_radius (0.5, 0), 2);
  fail_unless_equals_int (vkt_gauss_radius (0.01, 0), 1);
  fail_unless_equals_int (vkt_gauss_radius (256.0, 0), 768);
  fail_unless_equals_int (vkt_gauss_radius (2.0, 5), 5);
  fail_unless_equals_int (vkt_gauss_radius (2.0, 5000), VKT_GAUSS_MAX_RADIUS);
}

GST_END_TEST;

/* What one axis leaves of white noise: from scipy's weights for sigma 1,
 * radius 3; and for a wide kernel, the continuous Gaussian's
 * 1 / (2 sqrt(pi) sigma) energy. */
GST_START_TEST (test_gauss_noise_gain)
{
  static const gdouble scipy_s1_r3[4] =
      { 0.39905028, 0.24203623, 0.05400558, 0.00443305 };
  gdouble energy = scipy_s1_r3[0] * scipy_s1_r3[0];
  gint j;

  for (j = 1; j <= 3; j++)
    energy += 2.0 * scipy_s1_r3[j] * scipy_s1_r3[j];
  fail_unless (fabs (vkt_gauss_noise_gain (1.0, 3) - sqrt (energy)) < 1e-7,
      "sigma 1: %.9f, want %.9f", vkt_gauss_noise_gain (1.0, 3),
      sqrt (energy));
  fail_unless (fabs (vkt_gauss_noise_gain (8.0, 24) /
          sqrt (1.0 / (2.0 * sqrt (G_PI) * 8.0)) - 1.0) < 0.01);
  fail_unless (vkt_gauss_noise_gain (0.8, 3) < vkt_gauss_noise_gain (0.5, 2));
  fail_unless (fabs (vkt_gauss_centre_weight (1.0, 3) - scipy_s1_r3[0]) < 1e-7,
      "sigma 1: centre %.9f, want %.9f", vkt_gauss_centre_weight (1.0, 3),
      scipy_s1_r3[0]);
}

GST_END_TEST;

/* The tap layout: every window starts on a word, covers the kernel, and
 * wastes less than one step. */
GST_START_TEST (test_gauss_taps)
{
  static const gint aligns[] = { 1, 2, 4 };
  static const gint steps[] = { 1, 2, 4, 8 };
  gint r, shift;
  guint a, st;

  for (r = 1; r <= 70; r++)
    for (shift = -9; shift <= 9; shift++)
      for (a = 0; a < G_N_ELEMENTS (aligns); a++)
        for (st = 0; st < G_N_ELEMENTS (steps); st++) {
          VktGaussTaps t;
          gint align = aligns[a], step = steps[st];

          vkt_gauss_taps (&t, r, shift, align, step);
          fail_unless (t.front >= r && t.front - r < align);
          fail_unless (((shift - t.front) % align + align) % align == 0);
          fail_unless (t.taps == t.steps * step);
          fail_unless (t.taps >= t.front + r + 1);
          fail_unless (t.taps - step < t.front + r + 1);
        }
}

GST_END_TEST;

GST_START_TEST (test_gauss_fused_tile)
{
  static const guint budgets[] = { 16384, 32768, 49152 };
  static const gint lanes[] = { 32, 64 };
  gint taps;
  guint b, l;

  for (taps = 4; taps <= 800; taps += 4)
    for (b = 0; b < G_N_ELEMENTS (budgets); b++)
      for (l = 0; l < G_N_ELEMENTS (lanes); l++) {
        VktGaussTaps y = { taps / 2, taps, taps / 4 };
        VktGaussTile t;
        gsize need_min = (gsize) (2 + taps) * lanes[l] * sizeof (gfloat);

        if (!vkt_gauss_fused_tile (&t, &y, lanes[l], budgets[b])) {
          fail_unless (need_min > budgets[b], "taps %d lanes %d budget %u",
              taps, lanes[l], budgets[b]);
          continue;
        }
        fail_unless_equals_int (t.lanes, lanes[l]);
        fail_unless_equals_int (t.halo_rows, taps);
        fail_unless (t.rows >= 2 && t.rows % t.block == 0);
        fail_unless ((gsize) (t.rows + t.halo_rows) * t.lanes * sizeof (gfloat)
            <= budgets[b]);
      }
}

GST_END_TEST;

/* Sums whose risks (relative to t = 0's) are risk(t) - risk(0) for the
 * candidates, with the derivative terms d[j] weighted by c2, around a base
 * so large that a float of each sum could not tell them apart. */
static void
sure_sums (const gdouble * ts, guint n, gdouble (*risk) (gdouble),
    const guint64 * d, gdouble c2, guint64 * sums)
{
  const guint64 base = G_GUINT64_CONSTANT (1) << 42;
  guint j;

  sums[0] = base;
  for (j = 1; j < n; j++) {
    sums[n - 1 + j] = d[j];
    sums[j] = base + (guint64) (gint64) llround (risk (ts[j]) - risk (0.0)
        - c2 * (gdouble) d[j]);
  }
  sums[2 * n - 1] = 1000;
}

static gdouble
risk_bowl (gdouble t)
{
  return 1e6 * (t - 0.3) * (t - 0.3);
}

static gdouble
risk_falling (gdouble t)
{
  return -1e5 * t;
}

static gdouble
risk_hump (gdouble t)
{
  return -1e5 * (t - 0.3) * (t - 0.3);
}

/* The vertex of the parabola through the least risk and its neighbours,
 * from exact 64-bit differences; the outer candidate with the smaller risk
 * where that parabola opens downwards; the first guess without samples. */
GST_START_TEST (test_sure_choose)
{
  static const gdouble ts[] = { 0.0, 1.0 / 6.0, 0.25, 1.0 / 3.0, 0.5 };
  const guint n = G_N_ELEMENTS (ts);
  guint64 sums[2 * G_N_ELEMENTS (ts)];
  guint64 d[G_N_ELEMENTS (ts)] = { 0, 300, 200, 100, 50 };
  guint64 none[G_N_ELEMENTS (d)] = { 0 };

  /* the bowl's vertex, 0.3, between 1/4 and 1/2 */
  sure_sums (ts, n, risk_bowl, none, 0.0, sums);
  fail_unless (fabs (vkt_sure_choose (ts, n, sums, 0.0, -1.0) - 0.3) < 1e-4);
  /* the same risks made up partly of derivative terms */
  sure_sums (ts, n, risk_bowl, d, 1.5, sums);
  fail_unless (fabs (vkt_sure_choose (ts, n, sums, 1.5, -1.0) - 0.3) < 1e-4);
  /* least at the last candidate: the last three, clamped to it */
  sure_sums (ts, n, risk_falling, none, 0.0, sums);
  fail_unless_equals_float (vkt_sure_choose (ts, n, sums, 0.0, -1.0), 0.5);
  /* a hump, least at t = 0: the parabola through the first three opens
   * downwards, and of its outer two 0 has the smaller risk */
  sure_sums (ts, n, risk_hump, none, 0.0, sums);
  fail_unless_equals_float (vkt_sure_choose (ts, n, sums, 0.0, -1.0), 0.0);
  /* nothing sampled */
  sums[2 * n - 1] = 0;
  fail_unless_equals_float (vkt_sure_choose (ts, n, sums, 0.0, -1.0), -1.0);
}

GST_END_TEST;

static const SuiteEntry kernel_tests[] = {
  SUITE_CASE ("math"),
  SUITE_TEST (test_presets),
  SUITE_TEST (test_rank1),
  SUITE_TEST (test_validation),
  SUITE_TEST (test_pack),
  SUITE_TEST (test_plane_roi),
  SUITE_TEST (test_rect_pad_clip),
  SUITE_TEST (test_tile_grid),
  SUITE_TEST (test_iir_gaussian),
  SUITE_TEST (test_iir_modal_is_direct),
  SUITE_TEST (test_iir_recursion_forms),
  SUITE_TEST (test_iir_stability),
  SUITE_TEST (test_iir_noise_energy),
  SUITE_TEST (test_iir_tiles),
  SUITE_TEST (test_iir_pack),
  SUITE_TEST (test_gauss_weights),
  SUITE_TEST (test_gauss_noise_gain),
  SUITE_TEST (test_gauss_taps),
  SUITE_TEST (test_gauss_fused_tile),
  SUITE_TEST (test_sure_choose),
};

SUITE_MAIN ("vktmath", kernel_tests, NULL, NULL);
