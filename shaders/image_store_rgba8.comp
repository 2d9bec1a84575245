#version 450
// image_store_rgba8.comp: image_store.glsl for images of format rgba8.
#extension GL_GOOGLE_include_directive : require
#define IMAGE_FORMAT rgba8
#define TEXEL_BYTES 4
#include "image_store.glsl"
