/* vktgausspass.c: the passes of a sampled-Gaussian blur over one plane (see
 * vktgausspass.h): push constants, specialization, tile choice and
 * dispatches of the fused tile and of the two passes. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vktgausspass.h"
#include "gauss_interface.h"

#include <string.h>

#include "gauss_fused.spv.h"
#include "gauss_hpass.spv.h"
#include "gauss_vpass.spv.h"

typedef VktGaussPush GaussPush;

_Static_assert (sizeof (GaussPush) <= VKT_MAX_PUSH_BYTES, "push constants");
_Static_assert (GAUSS_SPEC_COUNT <= VKT_MAX_SPEC, "specialization constants");

#define SHADER(stem, n) { #stem, stem##_spv, sizeof (stem##_spv), n, \
    { VKT_BIND_STORAGE, VKT_BIND_STORAGE, VKT_BIND_UNIFORM, VKT_BIND_STORAGE }, \
    sizeof (GaussPush) }

static const VktShader shader_fused = SHADER (gauss_fused, 3);
static const VktShader shader_hpass = SHADER (gauss_hpass, 4);
static const VktShader shader_vpass = SHADER (gauss_vpass, 4);

/* What a fused tile may ask for at most (see vkt_gauss_fused_tile()). */
#define MAX_SHARED_BYTES 49152
/* Radii up to these are compiled into the shaders (one pipeline per
 * radius, loops unrolled); larger ones loop over push constants. Measured
 * on the H100: unrolled, the fused shader ran 1.6-1.9x faster at radius 24
 * than looping; the two-pass vertical shader ran slower beyond 12. */
#define FUSED_FIXED_MAX_RADIUS VKT_GAUSS_FUSED_FIXED_MAX_RADIUS
#define PASS_FIXED_MAX_RADIUS 12

void
vkt_gauss_blur_init (VktGaussBlur * b, VktCompute * compute, gdouble sigma_x,
    gdouble sigma_y, guint radius, gfloat amount)
{
  gfloat weights[VKT_GAUSS_UNIFORM_FLOATS] = { 0 };
  gdouble half[VKT_GAUSS_MAX_RADIUS + 1];
  guint axis;
  gint i;

  memset (b, 0, sizeof (*b));
  b->sigma[0] = sigma_x;
  b->sigma[1] = sigma_y;
  b->amount = amount;
  b->shared_bytes = MIN (MAX_SHARED_BYTES,
      vkt_compute_max_shared_bytes (compute));
  for (axis = 0; axis < 2; axis++) {
    b->radius[axis] = vkt_gauss_radius (b->sigma[axis], radius);
    vkt_gauss_half_kernel (b->sigma[axis], b->radius[axis], half);
    for (i = 0; i <= b->radius[axis]; i++)
      weights[(axis ? GAUSS_U_Y : GAUSS_U_X) + i] = (gfloat) half[i];
  }
  b->weights = vkt_compute_uniform (compute, weights, sizeof (weights));
}

/* Lanes of a fused tile's row: 16 pixels of one word, else 32 lanes. */
static gint
tile_lanes (gint ncomp, gint cpw)
{
  return cpw == ncomp ? 64 : 32;
}

/* Every plane's tile fits: the widest rows are those of RGBA-like planes,
 * and a plane of fewer lanes per row needs less. */
gboolean
vkt_gauss_fused_possible (const VktGaussBlur * b)
{
  VktGaussTaps ytaps;
  VktGaussTile tile;

  vkt_gauss_taps (&ytaps, b->radius[1], 0, 1, GAUSS_VSTEP);
  return vkt_gauss_fused_tile (&tile, &ytaps, tile_lanes (4, 4),
      b->shared_bytes);
}

/* Words of a horizontal block: 8 lanes, 16 for one pixel per word. */
static gint
block_words (const VktPlane * p)
{
  return (p->cpw == p->ncomp ? 16 : 8) / p->cpw;
}

static void
fill_push (GaussPush * push, const VktGaussBlur * b, const VktPlane * p,
    const VktFrame * frame, VktGaussTaps * xtaps, VktGaussTaps * ytaps)
{
  gint ppw = p->cpw / p->ncomp, s = block_words (p);
  gint shift = p->roi.sx - p->roi.tx;

  vkt_gauss_taps (xtaps, b->radius[0], shift, ppw, s * ppw);
  vkt_gauss_taps (ytaps, b->radius[1], 0, 1, GAUSS_VSTEP);

  memset (push, 0, sizeof (*push));
  GST_VKTILE_PUSH_PLANE (push, p);
  push->grid_words = vkt_roi_words (&p->roi, p->ncomp, p->cpw,
      &push->word_x0);
  push->border = frame->border;
  push->border_value = frame->border_value * p->max_code;
  push->amount = b->amount;
  push->rx = b->radius[0];
  push->ry = b->radius[1];
  push->hfront = xtaps->front;
  push->hsteps = xtaps->steps;
  /* (shift - front) is a whole number of words by the choice of front. */
  push->hword_delta = (shift - xtaps->front) * p->ncomp / p->cpw;
  push->vsteps = ytaps->steps;
}

static void
fill_spec (gint32 * spec, const VktGaussBlur * b, const VktPlane * p,
    const GaussPush * push, gint fixed_max)
{
  if (push->rx <= fixed_max) {
    spec[GAUSS_SPEC_FIXED_RX] = push->rx;
    spec[GAUSS_SPEC_FIXED_HFRONT] = push->hfront;
    spec[GAUSS_SPEC_FIXED_HSTEPS] = push->hsteps;
  }
  if (push->ry <= fixed_max) {
    spec[GAUSS_SPEC_FIXED_RY] = push->ry;
    spec[GAUSS_SPEC_FIXED_VSTEPS] = push->vsteps;
  }
  gst_vktile_plane_spec (p, spec);
  spec[GAUSS_SPEC_FULL_MASK] = p->chan_mask == (1u << p->ncomp) - 1;
  spec[GAUSS_SPEC_S] = block_words (p);
  spec[GAUSS_SPEC_UNSHARP] = b->amount != 0.0f;
}

/* The push constants, tile and grid of the fused tile over plane p. */
static gboolean
fused_layout (const VktGaussBlur * b, const VktPlane * p,
    const VktFrame * frame, GaussPush * push, VktGaussTile * tile,
    VktTileGrid * grid, GError ** error)
{
  VktGaussTaps xtaps, ytaps;

  fill_push (push, b, p, frame, &xtaps, &ytaps);
  if (!vkt_gauss_fused_tile (tile, &ytaps, tile_lanes (p->ncomp, p->cpw),
          b->shared_bytes)) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_FAILED,
        "No fused tile fits radius %d", b->radius[1]);
    return FALSE;
  }
  vkt_tile_grid (grid, &p->roi, p->ncomp, p->cpw,
      MAX (xtaps.front, xtaps.taps - xtaps.front),
      MAX (ytaps.front, ytaps.taps - ytaps.front), tile->lanes / p->cpw,
      tile->rows);
  return TRUE;
}

guint
vkt_gauss_fused_groups (const VktGaussBlur * b, const VktPlane * p,
    const VktFrame * frame)
{
  GaussPush push;
  VktGaussTile tile;
  VktTileGrid grid;

  if (!fused_layout (b, p, frame, &push, &tile, &grid, NULL))
    return 0;
  return grid.tiles_x * grid.tiles_y;
}

gboolean
vkt_gauss_record_fused (const VktGaussBlur * b, VktCompute * compute,
    const VktShader * shader, VktBufferRef * refs, const VktPlane * p,
    VktFrame * frame, GError ** error)
{
  VktGaussTile tile;
  VktTileGrid grid;
  gint32 spec[GAUSS_SPEC_COUNT] = { 0 };
  GaussPush push;
  VktPipeline *pipe;
  guint i;

  if (!fused_layout (b, p, frame, &push, &tile, &grid, error))
    return FALSE;
  fill_spec (spec, b, p, &push, FUSED_FIXED_MAX_RADIUS);
  push.tiles_x = grid.tiles_x;
  push.tiles_y = grid.tiles_y;
  push.free_x0 = grid.free_x0;
  push.free_x1 = grid.free_x1;
  push.free_y0 = grid.free_y0;
  push.free_y1 = grid.free_y1;
  push.tile_rows = tile.rows;

  spec[GAUSS_SPEC_K] = tile.block;
  spec[GAUSS_SPEC_TW] = tile.lanes;
  spec[GAUSS_SPEC_SHADER] = b->shader_spec;
  /* Shared memory just large enough leaves room for more work-groups per
   * multiprocessor. A compiled-in radius has its own pipeline anyway; other
   * radii share pipelines of a few power-of-two sizes. */
  spec[GAUSS_SPEC_SH_ROWS] = tile.rows + tile.halo_rows;
  if (!spec[GAUSS_SPEC_FIXED_RY]) {
    gint rows = 64;
    while (rows < spec[GAUSS_SPEC_SH_ROWS])
      rows *= 2;
    spec[GAUSS_SPEC_SH_ROWS] = MIN (rows,
        (gint) (b->shared_bytes / (tile.lanes * sizeof (gfloat))));
  }
  if (!(pipe = vkt_compute_pipeline (compute, shader ? shader : &shader_fused,
              spec, GAUSS_SPEC_COUNT, error)))
    return FALSE;
  refs[2] = b->weights;
  vkt_compute_dispatch (compute, pipe, refs, &push, grid.tiles_x,
      grid.tiles_y);
  for (i = 0; i < G_N_ELEMENTS (frame->tile_classes); i++)
    frame->tile_classes[i] += grid.classes[i];
  return TRUE;
}

/* Floats per row of the two-pass intermediate: whole blocks of lanes. */
static gint
tmp_stride (const VktPlane * p)
{
  gint s = block_words (p), word_x0;
  gint words = vkt_roi_words (&p->roi, p->ncomp, p->cpw, &word_x0);

  return (words + s - 1) / s * s * p->cpw;
}

gsize
vkt_gauss_two_pass_floats (const VktPlane * p)
{
  return (gsize) tmp_stride (p) * p->roi.h;
}

gboolean
vkt_gauss_record_two_pass (const VktGaussBlur * b, VktCompute * compute,
    VktBufferRef * refs, const VktPlane * p, const VktFrame * frame,
    GError ** error)
{
  VktGaussTaps xtaps, ytaps;
  gint32 spec[GAUSS_SPEC_COUNT] = { 0 };
  GaussPush push;
  VktPipeline *pipe;
  guint blocks, cols, row_blocks;

  fill_push (&push, b, p, frame, &xtaps, &ytaps);
  fill_spec (spec, b, p, &push, PASS_FIXED_MAX_RADIUS);
  spec[GAUSS_SPEC_K] = GAUSS_PASS_ROWS;
  push.tmp_stride = tmp_stride (p);
  blocks = (push.grid_words + spec[GAUSS_SPEC_S] - 1) / spec[GAUSS_SPEC_S];
  cols = (push.grid_words * p->cpw + 3) / 4;
  row_blocks = (p->roi.h + GAUSS_PASS_ROWS - 1) / GAUSS_PASS_ROWS;
  refs[2] = b->weights;

  if (!(pipe = vkt_compute_pipeline (compute, &shader_hpass, spec,
              GAUSS_SPEC_COUNT, error)))
    return FALSE;
  vkt_compute_dispatch (compute, pipe, refs, &push,
      (blocks + GAUSS_PASS_GROUP_X - 1) / GAUSS_PASS_GROUP_X,
      (p->roi.h + GAUSS_PASS_GROUP_Y - 1) / GAUSS_PASS_GROUP_Y);
  vkt_compute_barrier (compute);
  if (!(pipe = vkt_compute_pipeline (compute, &shader_vpass, spec,
              GAUSS_SPEC_COUNT, error)))
    return FALSE;
  vkt_compute_dispatch (compute, pipe, refs, &push,
      (cols + GAUSS_PASS_GROUP_X - 1) / GAUSS_PASS_GROUP_X,
      (row_blocks + GAUSS_PASS_GROUP_Y - 1) / GAUSS_PASS_GROUP_Y);
  return TRUE;
}
