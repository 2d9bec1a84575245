/* vktiir.c: recursivefilter's coefficient and tail-matrix math (see
 * vktiir.h). Everything runs in double precision on the CPU once per
 * setting; the shaders only read the results. */
#include "vktiir.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#define K VKT_IIR_MAX_ORDER

typedef gdouble Mat[K][K];

static void
mat_identity (Mat m)
{
  gint i;

  memset (m, 0, sizeof (Mat));
  for (i = 0; i < K; i++)
    m[i][i] = 1.0;
}

static void
mat_mul (Mat out, Mat a, Mat b)
{
  Mat r;
  gint i, j, l;

  for (i = 0; i < K; i++)
    for (j = 0; j < K; j++) {
      r[i][j] = 0.0;
      for (l = 0; l < K; l++)
        r[i][j] += a[i][l] * b[l][j];
    }
  memcpy (out, r, sizeof (Mat));
}

static void
mat_pow (Mat out, Mat a, guint64 n)
{
  Mat base, acc;

  memcpy (base, a, sizeof (Mat));
  mat_identity (acc);
  while (n) {
    if (n & 1)
      mat_mul (acc, acc, base);
    mat_mul (base, base, base);
    n >>= 1;
  }
  memcpy (out, acc, sizeof (Mat));
}

static gdouble
mat_norm (Mat m)
{
  gdouble s = 0.0;
  gint i, j;

  for (i = 0; i < K; i++)
    for (j = 0; j < K; j++)
      s = MAX (s, fabs (m[i][j]));
  return s;
}

/* One sample through a stage: returns y, advances the state. */
static gdouble
stage_step (const VktIirStage * st, gdouble * s, gdouble x)
{
  gdouble next[K] = { 0 };
  gdouble y = st->D * x;
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

void
vkt_iir_stage_none (VktIirStage * stage)
{
  memset (stage, 0, sizeof (*stage));
  stage->form = VKT_IIR_FORM_NONE;
}

void
vkt_iir_stage_direct (VktIirStage * stage, gdouble b0, const gdouble * a,
    guint k)
{
  guint i;

  g_return_if_fail (k >= 1 && k <= K);
  vkt_iir_stage_none (stage);
  stage->form = VKT_IIR_FORM_DIRECT;
  stage->order = k;
  /* s = (y[n-1], ..., y[n-k]): y = b0 x + a . s, then shift y in. */
  stage->D = b0;
  stage->B[0] = b0;
  for (i = 0; i < k; i++) {
    stage->C[i] = a[i];
    stage->A[0][i] = a[i];
    if (i > 0)
      stage->A[i][i - 1] = 1.0;
  }
  /* The shaders run with the coefficients rounded to float; for poles near
   * 1 that moves 1 - sum a, and so the DC gain, by far more than float's
   * precision. b0 is set so that the rounded recursion keeps the gain. */
  {
    gdouble sum = 0.0, sum_f = 0.0;
    for (i = 0; i < k; i++) {
      sum += a[i];
      sum_f += (gfloat) a[i];
      stage->coef[1 + i] = (gfloat) a[i];
    }
    stage->coef[0] = b0;
    if (fabs (1.0 - sum) > 1e-12 && fabs (1.0 - sum_f) > 1e-12)
      stage->coef[0] = b0 * (1.0 - sum_f) / (1.0 - sum);
  }
}

/* The variance of the causal + anticausal pair with poles 1/d_i is
 * sum 2 d_i / (d_i - 1)^2 (van Vliet et al. 1998, eq. 17). */
static gdouble
gaussian_variance (gdouble q)
{
  const double complex d1 = 1.41650 + 1.00829 * I;
  const gdouble d3 = 1.86543;
  double complex e1 = cpow (d1, 1.0 / q);
  gdouble e3 = pow (d3, 1.0 / q);
  double complex v = 2.0 * e1 / ((e1 - 1) * (e1 - 1));

  return 2.0 * creal (v) + 2.0 * e3 / ((e3 - 1) * (e3 - 1));
}

void
vkt_iir_gaussian_poles (gdouble sigma, gdouble * real_pole,
    gdouble * complex_re, gdouble * complex_im)
{
  /* The paper's poles for sigma 2 (docs/SEMANTICS.md says which); d^(1/q) scales
   * them, with q found so that the variance is sigma^2 exactly. */
  const double complex d1 = 1.41650 + 1.00829 * I;
  const gdouble d3 = 1.86543;
  gdouble lo = 1e-3, hi = 1e5, q;
  double complex p1;
  gint it;

  for (it = 0; it < 200; it++) {
    q = 0.5 * (lo + hi);
    if (gaussian_variance (q) < sigma * sigma)
      lo = q;
    else
      hi = q;
  }
  q = 0.5 * (lo + hi);
  p1 = 1.0 / cpow (d1, 1.0 / q);
  *real_pole = 1.0 / pow (d3, 1.0 / q);
  *complex_re = creal (p1);
  *complex_im = cimag (p1);
}

void
vkt_iir_stage_gaussian (VktIirStage * stage, gdouble sigma)
{
  gdouble p, qr, qi, b0, Cm[3], Bm[3] = { 1.0, 1.0, 0.0 };
  double complex q, rq;
  gdouble r3;
  gint i, j;

  vkt_iir_gaussian_poles (sigma, &p, &qr, &qi);
  q = qr + qi * I;
  b0 = (1.0 - p) * creal ((1.0 - q) * (1.0 - conj (q)));
  /* Partial fractions of b0 / ((1 - p z^-1)(1 - q z^-1)(1 - q* z^-1)). */
  r3 = b0 / creal ((1.0 - q / p) * (1.0 - conj (q) / p));
  rq = b0 / ((1.0 - p / q) * (1.0 - conj (q) / q));

  vkt_iir_stage_none (stage);
  stage->form = VKT_IIR_FORM_MODAL3;
  stage->order = 3;
  stage->A[0][0] = p;
  stage->A[1][1] = qr;
  stage->A[1][2] = -qi;
  stage->A[2][1] = qi;
  stage->A[2][2] = qr;
  Cm[0] = r3;
  Cm[1] = 2.0 * creal (rq);
  Cm[2] = -2.0 * cimag (rq);
  /* y = Cm (A s + B x) */
  stage->D = 0.0;
  for (i = 0; i < 3; i++) {
    stage->B[i] = Bm[i];
    stage->D += Cm[i] * Bm[i];
    stage->C[i] = 0.0;
    for (j = 0; j < 3; j++)
      stage->C[i] += Cm[j] * stage->A[j][i];
  }
  /* As for the direct form: with the poles rounded to float, scale the
   * output weights so that the DC gain stays 1. */
  {
    gdouble pf = (gfloat) p;
    double complex qf = (gfloat) qr + (gfloat) qi * I;
    double complex z = 1.0 / (1.0 - qf);
    gdouble gain_f = Cm[0] / (1.0 - pf) + Cm[1] * creal (z) + Cm[2] * cimag (z);
    stage->coef[0] = pf;
    stage->coef[1] = creal (qf);
    stage->coef[2] = cimag (qf);
    for (i = 0; i < 3; i++)
      stage->coef[3 + i] = Cm[i] / gain_f;
  }
}

/* Roots of z^k - a1 z^(k-1) - ... - ak (Durand-Kerner). */
static void
poly_roots (const gdouble * a, gint k, double complex * z)
{
  gint it, i, j;

  for (i = 0; i < k; i++)
    z[i] = cpow (0.4 + 0.9 * I, i);
  for (it = 0; it < 500; it++) {
    for (i = 0; i < k; i++) {
      double complex num = 1.0, den = 1.0;
      /* Horner: z^k - a1 z^(k-1) - ... - ak */
      for (j = 0; j < k; j++)
        num = num * z[i] - a[j];
      for (j = 0; j < k; j++)
        if (j != i)
          den *= z[i] - z[j];
      z[i] -= num / den;
    }
  }
}

/* The largest error of `stage` run in float as the shaders run it, against
 * y[n] = b0 x[n] + a . (y[n-1], ...) in double, on a fixed signal of 16-bit
 * range: a long constant (the steady state), then noise. */
static gdouble
float_error (const VktIirStage * stage, gdouble b0, const gdouble * a, guint k)
{
  const gfloat *c = NULL;
  gfloat cf[16], sf[K] = { 0 };
  gdouble yd[K] = { 0 }, worst = 0.0;
  guint32 lcg = 12345;
  guint n, i;

  for (i = 0; i < 16; i++)
    cf[i] = (gfloat) stage->coef[i];
  c = cf;
  for (n = 0; n < 4000; n++) {
    gfloat x, y;
    gdouble want = 0.0;

    lcg = lcg * 1664525u + 1013904223u;
    x = n < 1000 ? 65535.0f : (gfloat) (lcg >> 16);
    if (stage->form == VKT_IIR_FORM_MODAL) {
      gfloat n0 = c[0] * sf[0] + c[1] * sf[1] + c[8] * x;
      gfloat n1 = c[2] * sf[0] + c[3] * sf[1] + c[9] * x;
      gfloat n2 = c[4] * sf[2] + c[5] * sf[3] + c[10] * x;
      gfloat n3 = c[6] * sf[2] + c[7] * sf[3] + c[11] * x;
      sf[0] = n0;
      sf[1] = n1;
      sf[2] = n2;
      sf[3] = n3;
      y = c[12] * n0 + c[13] * n1 + c[14] * n2 + c[15] * n3;
    } else {
      y = c[0] * x;
      for (i = 0; i < k; i++)
        y += c[1 + i] * sf[i];
      for (i = k - 1; i > 0; i--)
        sf[i] = sf[i - 1];
      sf[0] = y;
    }
    want = b0 * x;
    for (i = 0; i < k; i++)
      want += a[i] * yd[i];
    for (i = k - 1; i > 0; i--)
      yd[i] = yd[i - 1];
    yd[0] = want;
    worst = MAX (worst, fabs (y - want));
  }
  return worst;
}

void
vkt_iir_stage_recursion (VktIirStage * stage, gdouble b0, const gdouble * a,
    guint k)
{
  double complex p[K], r[K], pair[2];
  gdouble real[K], rres[K], M[2][4] = { {0} }, Bv[4] = { 0 }, W[4] = { 0 };
  gint n_real = 0, n_pair = 0, i, j, slot;
  gdouble big = 0.0, gain_f = 0.0;
  double complex pair_r[2];

  if (k < 2) {
    vkt_iir_stage_direct (stage, b0, a, k);
    return;
  }
  poly_roots (a, k, p);
  for (i = 0; i < (gint) k; i++) {
    r[i] = b0;
    for (j = 0; j < (gint) k; j++)
      if (j != i)
        r[i] /= 1.0 - p[j] / p[i];
    big = MAX (big, cabs (r[i]));
  }
  /* Near-repeated poles: the residues cancel each other and the modal form
   * would be worse than the direct one. */
  if (!isfinite (big) || big > 1e3 * (fabs (b0) + 1.0)) {
    vkt_iir_stage_direct (stage, b0, a, k);
    return;
  }
  for (i = 0; i < (gint) k; i++) {
    if (fabs (cimag (p[i])) < 1e-9 * (1.0 + cabs (p[i]))) {
      real[n_real] = creal (p[i]);
      rres[n_real++] = creal (r[i]);
    } else if (cimag (p[i]) > 0) {
      pair[n_pair] = p[i];
      pair_r[n_pair++] = r[i];
    }
  }
  /* Blocks: the complex pairs first (rotation-scalings with B = (1, 0) and
   * weights 2 re r, -2 im r), then the real poles two by two (diagonal). */
  slot = 0;
  for (i = 0; i < n_pair; i++, slot += 2) {
    gdouble qr = (gfloat) creal (pair[i]), qi = (gfloat) cimag (pair[i]);
    gdouble *m = M[slot / 2];
    m[0] = qr;
    m[1] = -qi;
    m[2] = qi;
    m[3] = qr;
    Bv[slot] = 1.0;
    W[slot] = 2.0 * creal (pair_r[i]);
    W[slot + 1] = -2.0 * cimag (pair_r[i]);
  }
  for (i = 0; i < n_real; i++, slot++) {
    M[slot / 2][(slot & 1) ? 3 : 0] = (gfloat) real[i];
    Bv[slot] = 1.0;
    W[slot] = rres[i];
  }

  vkt_iir_stage_none (stage);
  stage->form = VKT_IIR_FORM_MODAL;
  stage->order = K;
  for (i = 0; i < 2; i++) {
    stage->A[2 * i][2 * i] = M[i][0];
    stage->A[2 * i][2 * i + 1] = M[i][1];
    stage->A[2 * i + 1][2 * i] = M[i][2];
    stage->A[2 * i + 1][2 * i + 1] = M[i][3];
  }
  /* Keep the DC gain of the float-rounded poles exact (see _direct). */
  for (i = 0; i < 2; i++) {
    gdouble a00 = 1 - M[i][0], a01 = -M[i][1], a10 = -M[i][2], a11 =
        1 - M[i][3];
    gdouble det = a00 * a11 - a01 * a10;
    gdouble s0 = (a11 * Bv[2 * i] - a01 * Bv[2 * i + 1]) / det;
    gdouble s1 = (-a10 * Bv[2 * i] + a00 * Bv[2 * i + 1]) / det;
    gain_f += W[2 * i] * s0 + W[2 * i + 1] * s1;
  }
  {
    gdouble sum = 0.0, gain;
    for (i = 0; i < (gint) k; i++)
      sum += a[i];
    gain = b0 / (1.0 - sum);
    for (i = 0; i < K; i++)
      W[i] *= gain / gain_f;
  }
  /* y = W (A s + B x) */
  stage->D = 0.0;
  for (i = 0; i < K; i++) {
    stage->B[i] = Bv[i];
    stage->D += W[i] * Bv[i];
    for (j = 0; j < K; j++)
      stage->C[j] += W[i] * stage->A[i][j];
  }
  for (i = 0; i < 4; i++) {
    stage->coef[i] = M[0][i];
    stage->coef[4 + i] = M[1][i];
    stage->coef[8 + i] = Bv[i];
    stage->coef[12 + i] = W[i];
  }
  /* Poles near 1 make the direct form lose digits with each order; poles
   * near each other make the modal form's residues large and cancelling
   * (poles 0.576 and 0.580 lost 2 code values of 16 bits that way). Keep
   * the form that the float run itself shows to be closer. */
  {
    VktIirStage direct;

    vkt_iir_stage_direct (&direct, b0, a, k);
    if (float_error (&direct, b0, a, k) <= float_error (stage, b0, a, k))
      *stage = direct;
  }
}

gboolean
vkt_iir_feedback_is_stable (const gdouble * a, guint k)
{
  /* Schur-Cohn step-down of 1 - a1 z^-1 - ... - ak z^-k: stable iff every
   * reflection coefficient is inside (-1, 1). */
  gdouble c[K + 1], n[K + 1];
  gint m, i;

  if (k < 1 || k > K)
    return FALSE;
  c[0] = 1.0;
  for (i = 0; i < (gint) k; i++) {
    if (!isfinite (a[i]))
      return FALSE;
    c[i + 1] = -a[i];
  }
  for (m = k; m >= 1; m--) {
    gdouble km = c[m];
    if (fabs (km) >= 1.0 - 1e-9)
      return FALSE;
    for (i = 0; i < m; i++)
      n[i] = (c[i] - km * c[m - i]) / (1.0 - km * km);
    memcpy (c, n, sizeof (gdouble) * m);
  }
  return TRUE;
}

gboolean
vkt_iir_stage_steady (const VktIirStage * stage, gdouble * gain,
    gdouble * state)
{
  /* (I - A) s = B by Gaussian elimination with partial pivoting. */
  gdouble m[K][K + 1];
  gint n = stage->order, i, j, r;

  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      m[i][j] = (i == j) - stage->A[i][j];
    m[i][n] = stage->B[i];
  }
  for (i = 0; i < n; i++) {
    gint piv = i;
    for (r = i + 1; r < n; r++)
      if (fabs (m[r][i]) > fabs (m[piv][i]))
        piv = r;
    if (fabs (m[piv][i]) < 1e-14)
      return FALSE;
    for (j = 0; j <= n; j++) {
      gdouble t = m[i][j];
      m[i][j] = m[piv][j];
      m[piv][j] = t;
    }
    for (r = 0; r < n; r++) {
      gdouble f;
      if (r == i)
        continue;
      f = m[r][i] / m[i][i];
      for (j = i; j <= n; j++)
        m[r][j] -= f * m[i][j];
    }
  }
  *gain = stage->D;
  for (i = 0; i < n; i++) {
    state[i] = m[i][n] / m[i][i];
    *gain += stage->C[i] * state[i];
  }
  return TRUE;
}

/* Samples after which any state of the stage has decayed below 1e-17 of
 * itself (a power of two, at most 2^26). */
static guint64
decay_length (const VktIirStage * st)
{
  Mat m;
  guint64 n = 1;

  if (st->form == VKT_IIR_FORM_NONE)
    return 1;
  memcpy (m, st->A, sizeof (Mat));
  while (mat_norm (m) > 1e-17 && n < (1u << 26)) {
    mat_mul (m, m, m);
    n *= 2;
  }
  return n;
}

/* Long lines are cut here: a response that slow (a pole within 1e-5 of 1)
 * has lost e^-10 of itself by then, and its energy is what matters. */
#define NOISE_MAX_HALF (1u << 20)

static gdouble
pass_through (const VktIirStage * st, gdouble * s, gdouble x)
{
  return st->form == VKT_IIR_FORM_NONE ? x : stage_step (st, s, x);
}

gdouble
vkt_iir_noise_energy (const VktIirStage * causal,
    const VktIirStage * anticausal)
{
  guint64 half = MIN (MAX (decay_length (causal), decay_length (anticausal)),
      NOISE_MAX_HALF);
  guint64 len = 2 * half + 1, n;
  gdouble *y = g_new0 (gdouble, len);
  gdouble s[K] = { 0 }, energy = 0.0;

  /* An impulse at `half`: the causal response runs right of it, the
   * anticausal one spreads that to the left. */
  for (n = half; n < len; n++)
    y[n] = pass_through (causal, s, n == half ? 1.0 : 0.0);
  memset (s, 0, sizeof (s));
  for (n = len; n-- > 0;) {
    gdouble v = pass_through (anticausal, s, y[n]);
    energy += v * v;
  }
  g_free (y);
  return energy;
}

gdouble
vkt_iir_box_noise_energy (guint radius, guint iterations)
{
  guint width = 2 * radius + 1, len = 1, it, i, j;
  gdouble *k = g_new0 (gdouble, iterations * 2 * radius + 1);
  gdouble *tmp = g_new0 (gdouble, iterations * 2 * radius + 1);
  gdouble energy = 0.0;

  k[0] = 1.0;
  for (it = 0; it < iterations; it++) {
    memset (tmp, 0, (len + width - 1) * sizeof (gdouble));
    for (i = 0; i < len; i++)
      for (j = 0; j < width; j++)
        tmp[i + j] += k[i] / width;
    len += width - 1;
    memcpy (k, tmp, len * sizeof (gdouble));
  }
  for (i = 0; i < len; i++)
    energy += k[i] * k[i];
  g_free (tmp);
  g_free (k);
  return energy;
}

/* The tails of a chunk of `len` holding a unit impulse at m, for every m,
 * in O(len): the causal state it leaves is A^(len-1-m) B. Its causal
 * output, D at m and C A^(n-m-1) B at n > m, reaches the anticausal state
 * leaving the chunk to the left through F_n = A'^n B' per sample at n, so
 * that tail is F_m D + R_m B with R_m = sum_(n>m) F_n C A^(n-m-1), which
 * runs backwards as R_m = F_(m+1) C + R_(m+1) A. Without a causal stage the
 * anticausal one sees the impulse itself (D = 1, C = 0). */
static void
tail_weights (VktIirTables * t, const VktIirStage * causal,
    const VktIirStage * anticausal, gint len)
{
  gboolean has_c = causal->form != VKT_IIR_FORM_NONE;
  gint kc = has_c ? causal->order : 0;
  gint ka = anticausal->form != VKT_IIR_FORM_NONE ? anticausal->order : 0;
  gdouble d = has_c ? causal->D : 1.0;
  gdouble f[VKT_IIR_TAIL_MAX_LEN][K] = { {0} }, wc[K] = { 0 };
  Mat r = { {0} };
  gint m, i, j, l;

  for (i = 0; i < ka; i++)
    f[0][i] = anticausal->B[i];
  for (m = 1; m < len; m++)
    for (i = 0; i < ka; i++)
      for (j = 0; j < ka; j++)
        f[m][i] += anticausal->A[i][j] * f[m - 1][j];
  for (i = 0; i < kc; i++)
    wc[i] = causal->B[i];

  t->tail_len = len;
  for (m = len - 1; m >= 0; m--) {
    if (m < len - 1) {
      gdouble next_wc[K] = { 0 };
      Mat next_r;

      for (i = 0; i < kc; i++)
        for (j = 0; j < kc; j++)
          next_wc[i] += causal->A[i][j] * wc[j];
      memcpy (wc, next_wc, sizeof (wc));
      for (i = 0; i < ka; i++)
        for (j = 0; j < kc; j++) {
          next_r[i][j] = f[m + 1][i] * causal->C[j];
          for (l = 0; l < kc; l++)
            next_r[i][j] += r[i][l] * causal->A[l][j];
        }
      memcpy (r, next_r, sizeof (Mat));
    }
    for (i = 0; i < kc; i++)
      t->tail_w[m][i] = wc[i];
    for (i = 0; i < ka; i++) {
      gdouble u = f[m][i] * d;
      for (j = 0; j < kc; j++)
        u += r[i][j] * causal->B[j];
      t->tail_w[m][kc + i] = u;
    }
  }
}

/* The outputs of a block entered with each unit state and no input. */
static void
zero_input_response (gdouble zir[IIR_BLOCK][K], const VktIirStage * stage,
    gint order)
{
  gint n, j;

  for (j = 0; j < order; j++) {
    gdouble s[K] = { 0 };
    s[j] = 1.0;
    for (n = 0; n < IIR_BLOCK; n++)
      zir[n][j] = stage_step (stage, s, 0.0);
  }
}

void
vkt_iir_tables (VktIirTables * t, const VktIirStage * causal,
    const VktIirStage * anticausal, gint elems, gint subs)
{
  gboolean has_c = causal->form != VKT_IIR_FORM_NONE;
  gboolean has_a = anticausal->form != VKT_IIR_FORM_NONE;
  gdouble gain_c = 1.0, gain_a = 1.0, steady_a[K] = { 0 };
  gint kc = has_c ? causal->order : 0;
  gint ka = has_a ? anticausal->order : 0;
  gint d, i, j;
  Mat base;

  memset (t, 0, sizeof (*t));
  t->levels = 1;
  while ((1 << (t->levels - 1)) < subs)
    t->levels++;
  g_return_if_fail (t->levels <= VKT_IIR_MAX_LEVELS);

  if (has_c) {
    mat_pow (base, (gdouble (*)[K]) causal->A, elems);
    for (d = 0; d < VKT_IIR_MAX_LEVELS; d++) {
      memcpy (t->Pc[d], base, sizeof (Mat));
      mat_mul (base, base, base);
    }
    if (!vkt_iir_stage_steady (causal, &gain_c, t->left))
      gain_c = 1.0;             /* the running sum: the shader starts it */
  }
  if (has_a) {
    mat_pow (base, (gdouble (*)[K]) anticausal->A, elems);
    for (d = 0; d < VKT_IIR_MAX_LEVELS; d++) {
      memcpy (t->Pa[d], base, sizeof (Mat));
      mat_mul (base, base, base);
    }
    vkt_iir_stage_steady (anticausal, &gain_a, steady_a);
  }
  t->gain = gain_c * gain_a;
  zero_input_response (t->zir_c, causal, kc);
  zero_input_response (t->zir_a, anticausal, ka);

  if (has_a) {
    gint chunk = elems * subs;
    guint64 len = 2 * MAX (decay_length (causal), decay_length (anticausal));
    gdouble *yc = g_new (gdouble, MAX ((guint64) chunk, len));
    gint64 n;

    /* Cross term: causal state e_j entering a chunk of zeros. */
    for (j = 0; j < kc; j++) {
      gdouble s[K] = { 0 }, u[K] = { 0 };
      s[j] = 1.0;
      for (n = 0; n < chunk; n++)
        yc[n] = stage_step (causal, s, 0.0);
      for (n = chunk - 1; n >= 0; n--)
        stage_step (anticausal, u, yc[n]);
      for (i = 0; i < ka; i++)
        t->cross[i][j] = u[i];
    }
    /* Right edge: the causal pass runs on into the extension from state
     * e_j (or from rest with the input E = 1); the anticausal pass comes
     * back from so far out that both have forgotten where they started. */
    for (j = 0; j <= kc; j++) {
      gdouble s[K] = { 0 }, u[K];
      gdouble e = j == kc ? 1.0 : 0.0;
      if (j < kc)
        s[j] = 1.0;
      for (n = 0; n < (gint64) len; n++)
        yc[n] = has_c ? stage_step (causal, s, e) : e;
      for (i = 0; i < K; i++)
        u[i] = steady_a[i] * gain_c * e;
      for (n = len - 1; n >= 0; n--)
        stage_step (anticausal, u, yc[n]);
      for (i = 0; i < ka; i++)
        t->right[i][j] = u[i];
    }
    g_free (yc);
  }

  if ((has_c || has_a) && elems * subs <= VKT_IIR_TAIL_MAX_LEN)
    tail_weights (t, causal, anticausal, elems * subs);
}

void
vkt_iir_pack (const VktIirTables * t, const VktIirStage * causal,
    const VktIirStage * anticausal, gfloat scale, gfloat unsharp, gfloat * out)
{
  gint kc = causal->form != VKT_IIR_FORM_NONE ? causal->order : 0;
  gint d, i, j, n;

  memset (out, 0, sizeof (gfloat) * VKT_IIR_UNIFORM_FLOATS);
  for (i = 0; i < 16; i++) {
    out[IIR_U_COEF_C + i] = causal->coef[i];
    out[IIR_U_COEF_A + i] = anticausal->coef[i];
  }
  for (i = 0; i < K; i++)
    out[IIR_U_LEFT + i] = t->left[i];
  out[IIR_U_MISC] = scale;
  out[IIR_U_MISC + 1] = t->gain;
  out[IIR_U_MISC + 2] = unsharp;
  for (d = 0; d < VKT_IIR_MAX_LEVELS; d++)
    for (i = 0; i < K; i++)
      for (j = 0; j < K; j++) {
        out[IIR_U_PC + d * 16 + i * 4 + j] = t->Pc[d][i][j];
        out[IIR_U_PA + d * 16 + i * 4 + j] = t->Pa[d][i][j];
      }
  for (i = 0; i < K; i++)
    for (j = 0; j < K; j++)
      out[IIR_U_CROSS + i * 4 + j] = t->cross[i][j];
  for (i = 0; i < K; i++) {
    for (j = 0; j < kc; j++)
      out[IIR_U_RIGHT + i * 4 + j] = t->right[i][j];
    out[IIR_U_RIGHT_E + i] = t->right[i][kc];
  }
  for (n = 0; n < IIR_BLOCK; n++)
    for (j = 0; j < K; j++) {
      out[IIR_U_ZIR_C + 4 * n + j] = t->zir_c[n][j];
      out[IIR_U_ZIR_A + 4 * n + j] = t->zir_a[n][j];
    }
}

void
vkt_iir_pack_tail_weights (const VktIirTables * t, gfloat * out)
{
  gint n, i;

  memset (out + IIR_U_TAIL_W, 0,
      sizeof (gfloat) * (VKT_IIR_TAIL_FLOATS - IIR_U_TAIL_W));
  for (n = 0; n < t->tail_len; n++)
    for (i = 0; i < 2 * K; i++)
      out[IIR_U_TAIL_W + 2 * K * n + i] = t->tail_w[n][i];
}
