# tools/ensure-deps.sh: sourced by pipelines/demo.sh and tests/run.sh. Installs
# with apt-get (as root, or through sudo) whatever Debian 12 packages vktile
# needs to build and run and are missing; does nothing when all are there.
VKTILE_PACKAGES=(meson ninja-build pkg-config gcc libgstreamer1.0-dev
  libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  libxkbcommon-dev libxkbcommon-x11-dev libvulkan-dev glslang-tools
  mesa-vulkan-drivers vulkan-tools gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  check)

vktile_ensure_packages() {
  local missing=() p sudo=()
  for p in "${VKTILE_PACKAGES[@]}"; do
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
