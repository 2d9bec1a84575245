/* vkttiles.h: the geometry every element shares, in plain C — where the
 * source and target ROIs of a plane lie (docs/SEMANTICS.md), and how a grid
 * of output tiles splits into the border classes of "Tiled Convolution". */
#ifndef __VKT_TILES_H__
#define __VKT_TILES_H__

#include <glib.h>

G_BEGIN_DECLS

/* The ROI properties as the user set them, in luma pixels. */
typedef struct
{
  gint x, y;                    /* target top-left */
  gint width, height;           /* 0: to the frame's edge */
  gint source_x, source_y;      /* -1: same as the target */
} VktRoiParams;

/* A rectangle of the frame in luma pixels: a region that ROI metadata
 * names (roi-meta). */
typedef struct
{
  gint x, y, w, h;
} VktRect;

/* The rectangle x, y, w x h of a region of interest meta (unsigned, any
 * value) grown by `padding` pixels on every side, then clipped to the
 * frame of frame_w x frame_h, in *out; FALSE when nothing of it is left. */
gboolean vkt_rect_pad_clip (guint x, guint y, guint w, guint h, gint padding,
    gint frame_w, gint frame_h, VktRect * out);

/* Whether a, grown by margin_x columns and margin_y rows on every side,
 * shares a pixel with b. */
gboolean vkt_rects_overlap (const VktRect * a, const VktRect * b,
    gint margin_x, gint margin_y);

/* The ROI properties that filter exactly r from itself. */
VktRoiParams vkt_rect_roi (const VktRect * r);

/* One plane's ROIs, clipped: target (tx, ty), source (sx, sy), size w x h. */
typedef struct
{
  gint tx, ty, sx, sy, w, h;
} VktPlaneRoi;

gboolean vkt_plane_roi (const VktRoiParams * params, gint width_sub,
    gint height_sub, gint plane_width, gint plane_height, VktPlaneRoi * roi);

/* The words of a row that hold the target ROI's lanes: [*word_x0,
 * *word_x0 + the returned count). */
gint vkt_roi_words (const VktPlaneRoi * roi, gint ncomp, gint lanes_per_word,
    gint * word_x0);

/* Output tiles of tile_words x tile_rows words laid over the target ROI's
 * words. A tile is free when every source component it needs lies inside
 * the source ROI (then, the ROIs being the same size, every word it writes
 * lies inside the target ROI too). Free tiles form the rectangle
 * [free_x0, free_x1) x [free_y0, free_y1) of the grid. */
/* A tile's border class ("Tiled Convolution"): whether its reads stay
 * inside the source ROI and its writes inside the target ROI. The plugin's
 * timing meta publishes the counts in this order (GstVkTileTileClass). */
typedef enum
{
  VKT_TILES_FREE,               /* free on read and on write */
  VKT_TILES_WRITE_CHECKED,      /* free on read only */
  VKT_TILES_READ_CHECKED,       /* free on write only */
  VKT_TILES_CHECKED,            /* neither */
  VKT_TILE_CLASSES
} VktTileClass;

typedef struct
{
  gint word_x0, words;          /* output words [word_x0, word_x0 + words) of each row */
  gint tiles_x, tiles_y;
  gint free_x0, free_x1, free_y0, free_y1;
  guint classes[VKT_TILE_CLASSES];
} VktTileGrid;

void vkt_tile_grid (VktTileGrid * grid, const VktPlaneRoi * roi, gint ncomp,
    gint lanes_per_word, gint radius_x, gint radius_y, gint tile_words,
    gint tile_rows);

guint vkt_tile_grid_free_count (const VktTileGrid * grid);
guint vkt_tile_grid_border_count (const VktTileGrid * grid);

G_END_DECLS

#endif
