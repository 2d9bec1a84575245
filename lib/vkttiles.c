/* vkttiles.c: see vkttiles.h. */
#include "vkttiles.h"

gboolean
vkt_plane_roi (const VktRoiParams * p, gint ws, gint hs, gint pw, gint ph,
    VktPlaneRoi * roi)
{
  /* 64-bit: the properties go up to G_MAXINT. */
  gint64 fw = (gint64) pw << ws, fh = (gint64) ph << hs;
  gint64 rw = p->width ? p->width : fw - p->x;
  gint64 rh = p->height ? p->height : fh - p->y;
  gint64 sx = p->source_x < 0 ? p->x : p->source_x;
  gint64 sy = p->source_y < 0 ? p->y : p->source_y;
  gint64 tx = p->x >> ws, ty = p->y >> hs;
  gint64 tw = ((p->x + rw + (1 << ws) - 1) >> ws) - tx;
  gint64 th = ((p->y + rh + (1 << hs) - 1) >> hs) - ty;
  gint64 px = sx >> ws, py = sy >> hs;
  gint64 w = MIN (tw, MIN (pw - tx, pw - px));
  gint64 h = MIN (th, MIN (ph - ty, ph - py));

  if (w <= 0 || h <= 0) {
    *roi = (VktPlaneRoi) { 0, 0, 0, 0, 0, 0 };
    return FALSE;
  }
  *roi = (VktPlaneRoi) { tx, ty, px, py, w, h };
  return TRUE;
}

gboolean
vkt_rect_pad_clip (guint x, guint y, guint w, guint h, gint padding,
    gint frame_w, gint frame_h, VktRect * out)
{
  /* 64-bit: the metadata goes up to G_MAXUINT, the padding to G_MAXINT;
   * clamping either first would move a region far outside into the
   * frame. */
  gint64 x0 = MAX ((gint64) x - padding, 0);
  gint64 y0 = MAX ((gint64) y - padding, 0);
  gint64 x1 = MIN ((gint64) x + w + padding, frame_w);
  gint64 y1 = MIN ((gint64) y + h + padding, frame_h);

  if (w == 0 || h == 0 || x1 <= x0 || y1 <= y0) {
    *out = (VktRect) { 0, 0, 0, 0 };
    return FALSE;
  }
  *out = (VktRect) { x0, y0, x1 - x0, y1 - y0 };
  return TRUE;
}

gboolean
vkt_rects_overlap (const VktRect * a, const VktRect * b, gint margin_x,
    gint margin_y)
{
  return (gint64) a->x - margin_x < (gint64) b->x + b->w
      && (gint64) b->x < (gint64) a->x + a->w + margin_x
      && (gint64) a->y - margin_y < (gint64) b->y + b->h
      && (gint64) b->y < (gint64) a->y + a->h + margin_y;
}

VktRoiParams
vkt_rect_roi (const VktRect * r)
{
  return (VktRoiParams) { r->x, r->y, r->w, r->h, -1, -1 };
}

static gboolean
tile_reads_inside (const VktPlaneRoi * roi, gint ncomp, gint cpw, gint rx,
    gint ry, gint word0, gint tile_words, gint row0, gint tile_rows)
{
  /* In target coordinates: the source ROI is the target ROI shifted. */
  gint64 c0 = (gint64) word0 * cpw - (gint64) rx * ncomp;
  gint64 c1 = (gint64) (word0 + tile_words) * cpw + (gint64) rx * ncomp;

  return c0 >= (gint64) roi->tx * ncomp && c1 <= (gint64) (roi->tx + roi->w) * ncomp
      && row0 - ry >= roi->ty && row0 + tile_rows + ry <= roi->ty + roi->h;
}

static gboolean
tile_writes_inside (const VktPlaneRoi * roi, gint ncomp, gint cpw,
    gint word0, gint tile_words, gint row0, gint tile_rows)
{
  return (gint64) word0 * cpw >= (gint64) roi->tx * ncomp
      && (gint64) (word0 + tile_words) * cpw <= (gint64) (roi->tx + roi->w) * ncomp
      && row0 + tile_rows <= roi->ty + roi->h;
}

gint
vkt_roi_words (const VktPlaneRoi * roi, gint ncomp, gint cpw, gint * word_x0)
{
  *word_x0 = roi->tx * ncomp / cpw;
  return ((roi->tx + roi->w) * ncomp + cpw - 1) / cpw - *word_x0;
}

void
vkt_tile_grid (VktTileGrid * g, const VktPlaneRoi * roi, gint ncomp,
    gint cpw, gint rx, gint ry, gint tile_words, gint tile_rows)
{
  gint i, j;

  *g = (VktTileGrid) { 0 };
  g->words = vkt_roi_words (roi, ncomp, cpw, &g->word_x0);
  g->tiles_x = (g->words + tile_words - 1) / tile_words;
  g->tiles_y = (roi->h + tile_rows - 1) / tile_rows;
  g->free_x0 = g->free_y0 = G_MAXINT;
  g->free_x1 = g->free_y1 = 0;

  for (j = 0; j < g->tiles_y; j++)
    for (i = 0; i < g->tiles_x; i++) {
      gint word0 = g->word_x0 + i * tile_words;
      gint row0 = roi->ty + j * tile_rows;
      gboolean rd = tile_reads_inside (roi, ncomp, cpw, rx, ry, word0,
          tile_words, row0, tile_rows);
      gboolean wr = tile_writes_inside (roi, ncomp, cpw, word0, tile_words,
          row0, tile_rows);

      if (rd && wr) {
        g->classes[VKT_TILES_FREE]++;
        g->free_x0 = MIN (g->free_x0, i);
        g->free_x1 = MAX (g->free_x1, i + 1);
        g->free_y0 = MIN (g->free_y0, j);
        g->free_y1 = MAX (g->free_y1, j + 1);
      } else if (rd) {
        g->classes[VKT_TILES_WRITE_CHECKED]++;
      } else if (wr) {
        g->classes[VKT_TILES_READ_CHECKED]++;
      } else {
        g->classes[VKT_TILES_CHECKED]++;
      }
    }
  if (g->classes[VKT_TILES_FREE] == 0)
    g->free_x0 = g->free_x1 = g->free_y0 = g->free_y1 = 0;
}

guint
vkt_tile_grid_free_count (const VktTileGrid * g)
{
  return (guint) (g->free_x1 - g->free_x0) * (guint) (g->free_y1 -
      g->free_y0);
}

guint
vkt_tile_grid_border_count (const VktTileGrid * g)
{
  return (guint) g->tiles_x * (guint) g->tiles_y - vkt_tile_grid_free_count (g);
}
