#version 450
// image_store_r8.comp: image_store.glsl for images of format r8.
#extension GL_GOOGLE_include_directive : require
#define IMAGE_FORMAT r8
#define TEXEL_BYTES 1
#include "image_store.glsl"
