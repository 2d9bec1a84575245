#version 450
// iir_temporal.comp: recursivefilter with no spatial axis — each output word
// of the target ROI is its source pixels, smoothed across frames
// (temporal-alpha, temporal-mode) or copied. One invocation per word and no scratch: the
// frame moves through once, and the state once in and once out.
#extension GL_GOOGLE_include_directive : require
#include "iir_common.glsl"

layout(local_size_x = IIR_TEMPORAL_GROUP_X, local_size_y = IIR_TEMPORAL_GROUP_Y) in;

// The state a word's lanes at a time, where they are CPW consecutive
// floats on a vector boundary.
layout(std430, set = 0, binding = 4) buffer WordState4 { vec4 st4[]; };
layout(std430, set = 0, binding = 4) buffer WordState2 { vec2 st2[]; };

void main()
{
  int gx = int(gl_GlobalInvocationID.x);
  int y = int(gl_GlobalInvocationID.y);
  int lane0 = pc.dst_x * NCOMP, lane1 = (pc.dst_x + pc.width) * NCOMP;
  int wx = lane0 / CPW + gx;
  if (y >= pc.height || wx * CPW >= lane1)
    return;
  // The ROI's rows are whole words and the state rows whole vectors (every
  // frame, the usual full-frame case): move the state as vectors. Where the
  // last frame kept detail, the recursion continues from its motion
  // reference instead (temporal()).
  bool whole = lane0 % CPW == 0 && lane1 % CPW == 0 && pc.state_base % CPW == 0
      && detail.y == 0.0;
  vec4 vals = vec4(0.0);
  if (TEMPORAL && whole) {
    [[unroll]] for (int l = 0; l < CPW; l++) {
      int k = wx * CPW + l - lane0;
      vals[l] = source_lane(k >> LOG2_NCOMP, k & (NCOMP - 1), y);
    }
    int i = (pc.state_base + y * pc.width * NCOMP + wx * CPW - lane0) / CPW;
    if (pc.temporal_alpha > 0.0) {
      vec4 prev = CPW == 4 ? st4[i] : vec4(st2[i], 0.0, 0.0);
      vals = mix(vals, prev, temporal_weights(vals, prev));
    }
    // Unfiltered components are smoothed too, harmlessly: they are never
    // written out.
    if (CPW == 4)
      st4[i] = vals;
    else
      st2[i] = vals.xy;
  } else {
    [[unroll]] for (int l = 0; l < CPW; l++) {
      int k = wx * CPW + l - lane0;
      int c = k & (NCOMP - 1);
      if (k >= 0 && k < pc.width * NCOMP && lane_filtered(c))
        vals[l] = temporal(source_lane(k >> LOG2_NCOMP, c, y), k >> LOG2_NCOMP, c, y);
    }
  }
  store_lanes(wx, pc.dst_y + y, vals, true, FULL_MASK, pc.chan_mask,
              plane_io(),
              ivec4(lane0, lane1, pc.dst_y, pc.dst_y + pc.height));
}
