#version 450
// copy.comp: a plain copy of 16-byte vectors by a compute shader. The
// benchmark times it beside vkCmdCopyBuffer as the memory-bandwidth floor a
// filter shader can reach (some drivers run vkCmdCopyBuffer on a copy engine
// that is slower than the shader cores).
layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };
layout(push_constant) uniform CopyPush { uint n; } pc;

void main()
{
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  if (i < pc.n)
    dst[i] = src[i];
}
