#version 450
// gauss_fused.comp: gaussblur in one dispatch per plane — the fused tile of
// gauss_fused.glsl, written packed, with the unsharp mask when asked.
#extension GL_GOOGLE_include_directive : require
#include "gauss_fused.glsl"

void write_blur(int c0, int row, vec4 blur, bool checked)
{
  store_vec4(c0, row, blur, checked);
}

void main()
{
  fused_main();
}
