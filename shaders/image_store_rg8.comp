#version 450
// image_store_rg8.comp: image_store.glsl for images of format rg8.
#extension GL_GOOGLE_include_directive : require
#define IMAGE_FORMAT rg8
#define TEXEL_BYTES 2
#include "image_store.glsl"
