/* plugin.c: registers the vktile plugin's elements and its timing meta. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gsttiledconv.h"
#include "gstgaussblur.h"
#include "gstrecursivefilter.h"
#include "gstdenoise.h"
#include "gstpixelate.h"
#include "gstvktiletimingmeta-private.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = FALSE;

  gst_vktile_timing_meta_get_info ();
  ok |= GST_ELEMENT_REGISTER (tiledconv, plugin);
  ok |= GST_ELEMENT_REGISTER (gaussblur, plugin);
  ok |= GST_ELEMENT_REGISTER (recursivefilter, plugin);
  ok |= GST_ELEMENT_REGISTER (denoise, plugin);
  ok |= GST_ELEMENT_REGISTER (pixelate, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, vktile,
    "Video filters as Vulkan compute shaders: tiled convolution, Gaussian "
    "blur, recursive filters, live denoising, pixelation", plugin_init, PACKAGE_VERSION, "LGPL",
    "vktile", "https://vktile.invalid")
