# tools/ensure-deps.sh: sourced by pipelines/demo.sh and tests/run.sh. Installs
# with apt-get (as root, or through sudo) whatever Debian 12 packages vktile
# needs to build and run and are missing; does nothing when all are there.
VKTILE_PACKAGES=(meson ninja-build pkg-config gcc libgstreamer1.0-dev
  libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  libxkbcommon-dev libxkbcommon-x11-dev libvulkan-dev glslang-tools spirv-tools
  mesa-vulkan-drivers vulkan-tools gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  check python3-gi gir1.2-gstreamer-1.0
  # vulkansink's window in an X server without a screen (test_vulkanimage)
  xvfb x11-apps)

# What the scripts in pipelines/ use beyond that: OpenCV's face detector and
# its cascades (privacy-blur.sh), H.264 encoding and decoding (x264enc in
# -ugly, avdec_h264 in -libav), the PNG decoder and MP4 muxer in -good, and
# matplotlib for benchmark.sh's plot.
VKTILE_PIPELINE_PACKAGES=(gstreamer1.0-opencv opencv-data
  gstreamer1.0-plugins-ugly gstreamer1.0-libav python3-matplotlib)

vktile_ensure_pipeline_packages() {
  vktile_ensure_packages "${VKTILE_PIPELINE_PACKAGES[@]}"
}

# Installs the packages named (default: VKTILE_PACKAGES) that are missing.
vktile_ensure_packages() {
  local missing=() p sudo=() wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=("${VKTILE_PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "missing packages (${missing[*]}) and no sudo" >&2; return 1; }
    sudo=(sudo)
  fi
  echo "installing: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# What every script of pipelines/ does first: installs what is missing
# (also the pipelines' own packages) and builds $1, unless SKIP_BUILD=1;
# then points GStreamer at the plugin built there.
vktile_prepare_scripts() {
  local dir=$1
  if [ "${SKIP_BUILD:-0}" != 1 ]; then
    vktile_ensure_packages && vktile_ensure_pipeline_packages &&
      vktile_build "$dir" || return 1
  fi
  export GST_PLUGIN_PATH=$dir/plugin
  export GST_REGISTRY=${GST_REGISTRY:-$dir/demo-registry.bin}
}

# Configures (once) and compiles the build directory $1.
vktile_build() {
  local dir=$1
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" >/dev/null || { echo "meson setup failed" >&2; return 1; }
  fi
  if ! meson compile -C "$dir" >"$dir/compile.log" 2>&1; then
    tail -n 40 "$dir/compile.log" >&2
    echo "build failed (full log: $dir/compile.log)" >&2
    return 1
  fi
}
