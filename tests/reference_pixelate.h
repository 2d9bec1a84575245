/* vktile tests — CPU reference of pixelate, written from docs/SEMANTICS.md
 * ("pixelate") only, sharing no code with the plugin. */
#ifndef VKTILE_TESTS_REFERENCE_PIXELATE_H
#define VKTILE_TESTS_REFERENCE_PIXELATE_H

#include "reference.h"

G_BEGIN_DECLS

typedef struct
{
  RefConv common;               /* ROI, source offset and planes */
  guint block_size;
} RefPixelate;

/* The element's defaults: blocks of 16, the whole frame, all planes. */
void ref_pixelate_init (RefPixelate * p);

/* out = pixelate(in); frames as for ref_tiledconv(). */
void ref_pixelate (const GstVideoFrame * in, GstVideoFrame * out,
    const RefPixelate * p);

G_END_DECLS

#endif
