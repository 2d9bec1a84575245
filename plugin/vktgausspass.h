/* vktgausspass.h: the passes of a sampled-Gaussian blur over one plane,
 * shared by the elements that blur with gaussblur's weights (gaussblur, and
 * denoise's spatial stage): the fused tile ("Fusing Convolution Kernels
 * through Tiling", one dispatch, the last write chosen by the shader that
 * includes shaders/gauss_fused.glsl) and the two passes through an
 * intermediate buffer ("Blurring at the Speed of Light"). It fills
 * gauss_interface.h's push constants and specialization and uploads the
 * weights; the element chooses between the passes. The math is vktgauss.c. */
#ifndef __VKT_GAUSS_PASS_H__
#define __VKT_GAUSS_PASS_H__

#include "gstvktilefilter.h"
#include "vktgauss.h"

G_BEGIN_DECLS

/* The push constants of every shader of gauss_interface.h. */
typedef struct
{
GAUSS_PUSH_FIELDS} VktGaussPush;

/* The blur of a frame: the same for every plane (subsampled chroma planes
 * use the kernel in their own pixels). */
typedef struct
{
  gdouble sigma[2];             /* along x, along y */
  gint radius[2];
  gfloat amount;                /* unsharp mask: in + amount (in - blur); 0: blur */
  guint shared_bytes;           /* what a fused tile may use */
  gint32 shader_spec;           /* fused: GAUSS_SPEC_SHADER of the shader */
  VktBufferRef weights;         /* binding 2 of every pass */
} VktGaussBlur;

/* Radii from the sigmas (`radius` when set, else ceil(3 sigma) per axis),
 * the shared memory of the device, and the weights uploaded for the
 * recording in progress. */
void vkt_gauss_blur_init (VktGaussBlur * b, VktCompute * compute,
    gdouble sigma_x, gdouble sigma_y, guint radius, gfloat amount);

/* Whether a fused tile fits the radii on every plane. */
gboolean vkt_gauss_fused_possible (const VktGaussBlur * b);

/* Radii up to this are compiled into the fused shader. */
#define VKT_GAUSS_FUSED_FIXED_MAX_RADIUS 24

/* One dispatch of `shader` (NULL: gaussblur's gauss_fused.comp; another
 * must include shaders/gauss_fused.glsl) over plane p. refs: its bindings,
 * 0 and 1 the packed planes, 2 filled here with the weights. The frame's
 * border and tile counts are read and updated. */
gboolean vkt_gauss_record_fused (const VktGaussBlur * b, VktCompute * compute,
    const VktShader * shader, VktBufferRef * refs, const VktPlane * p,
    VktFrame * frame, GError ** error);
/* The work-groups of that dispatch, 0 where no tile fits. */
guint vkt_gauss_fused_groups (const VktGaussBlur * b, const VktPlane * p,
    const VktFrame * frame);

/* Floats of the intermediate buffer of the two passes over plane p. */
gsize vkt_gauss_two_pass_floats (const VktPlane * p);

/* The two passes over plane p: refs 0 and 1 the packed planes, 3 the
 * intermediate buffer (vkt_gauss_two_pass_floats()). */
gboolean vkt_gauss_record_two_pass (const VktGaussBlur * b,
    VktCompute * compute, VktBufferRef * refs, const VktPlane * p,
    const VktFrame * frame, GError ** error);

G_END_DECLS

#endif
