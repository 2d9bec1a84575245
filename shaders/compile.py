#!/usr/bin/env python3
# Compiles one compute shader into a C header holding its SPIR-V as
# `const uint32_t NAME[]`, as glslangValidator --vn does; given spirv-opt,
# also the same SPIR-V optimized by it (spirv-opt -O) as NAME_opt[] (see
# meson.build for which shaders and lib/vktcompute.c for which drivers).
#
# usage: compile.py GLSLANG SPIRV_OPT|- INCLUDE_DIR NAME DEPFILE OUTPUT INPUT
import os
import struct
import subprocess
import sys

glslang, spirv_opt, include_dir, name, depfile, output, source = sys.argv[1:]
spv = output + '.spv'
subprocess.run([glslang, '-V', '--target-env', 'vulkan1.1', '--quiet',
                '-I' + include_dir, '--depfile', depfile, '-o', spv, source],
               check=True)
arrays = [(name, spv)]
if spirv_opt != '-':
    subprocess.run([spirv_opt, '-O', '--target-env=vulkan1.1', spv,
                    '-o', spv + '.opt'], check=True)
    arrays.append((name + '_opt', spv + '.opt'))
with open(output, 'w') as f:
    f.write('#pragma once\n#include <stdint.h>\n')
    for array, path in arrays:
        data = open(path, 'rb').read()
        os.remove(path)
        words = struct.unpack('<%dI' % (len(data) // 4), data)
        rows = (','.join('0x%08x' % w for w in words[i:i + 8])
                for i in range(0, len(words), 8))
        f.write('const uint32_t %s[] = {\n\t%s\n};\n'
                % (array, ',\n\t'.join(rows)))
# The depfile names what glslang wrote; ninja expects the header.
deps = open(depfile).read().split(':', 1)[1]
with open(depfile, 'w') as f:
    f.write(output + ':' + deps)
