// keep_detail.glsl: the output of the motion-adaptive temporal stage with
// keep-detail (docs/SEMANTICS.md, recursivefilter, "Keep detail"), shared
// by recursivefilter's writer and the denoise shader.
//
// u is the source averaged over the frames with the weights w, m the
// filtered value averaged alike (the motion reference): u - m is the detail
// the spatial filter removed, with the noise the average leaves in it. That
// part is put back where it stands out of that noise: times
// 1 - exp(-((u - m) / D_w)^2), D_w = D ((1 - w) / (1 + w))^0.4. A still
// pixel's average of n frames leaves (1 - w) / (1 + w) of one frame's noise
// variance; the power 0.4 rather than 0.5 leaves room for a pixel that
// moved a few frames ago, whose average holds fewer frames than its w says.
vec4 detail_output(vec4 u, vec4 m, vec4 w, float D)
{
  vec4 r = u - m;
  // (r / D_w)^2 with one logarithm and one exponential per lane
  vec4 q2 = r * r * exp2(-0.8 * log2((1.0 - w) / (1.0 + w))) / (D * D);
  return m + r * (1.0 - exp(-q2));
}
