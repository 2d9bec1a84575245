/* vktile_interface.h: how a push-constant block is written once for both
 * sides. Included by the C files in plugin/ and by the shaders (GLSL for
 * Vulkan defines VULKAN): a family's header lists its block's fields with
 * VKT_I32 / VKT_U32 / VKT_F32 and each side expands the list into its own
 * declaration, so the two cannot disagree. It also holds the
 * specialization ids every shader shares (vktile.glsl). */
#ifndef VKTILE_INTERFACE_H
#define VKTILE_INTERFACE_H

#ifdef VULKAN
#define VKT_I32(name) int name;
#define VKT_U32(name) uint name;
#define VKT_F32(name) float name;
#else
#include <glib.h>
#define VKT_I32(name) gint32 name;
#define VKT_U32(name) guint32 name;
#define VKT_F32(name) gfloat name;
#endif

/* The format's lanes, specialized in every pipeline (vktile.glsl). */
#define VKT_SPEC_BPC 0          /* bytes per component: 1 or 2 */
#define VKT_SPEC_NCOMP 1        /* component slots per pixel: 1, 2, 4 */
#define VKT_SPEC_CPW 2          /* lanes per 32-bit word: 4 / BPC */
#define VKT_SPEC_LOG2_NCOMP 3
#define VKT_SPEC_MAX_CODE 4     /* the format's largest code value: 255, 1023,
                                 * 65535 (0: by BPC) */
#define VKT_SPEC_FIRST_FAMILY 5 /* a family's own ids start here */

/* A bit of every family's chan_mask push constant (bits 0-3: the pixel
 * slots filtered): lanes that a word's store does not filter keep what
 * the output holds instead of the input's — the frame's regions of
 * interest are filtered one after another over a copy of the frame, and a
 * word may hold lanes of an earlier region. */
#define VKT_KEEP_OUTPUT 0x80000000u

/* The smallest push-constant space Vulkan guarantees. */
#define VKT_MAX_PUSH_BYTES 128

#endif
