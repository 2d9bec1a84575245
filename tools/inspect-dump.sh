#!/bin/sh
# tools/inspect-dump.sh: what gst-inspect-1.0 tells a user about the plugin
# and each element, as docs/plugins/vktile-inspect.txt keeps it, so that a
# change of a description or a default shows in review (test_pipelines
# compares it with the build's). Lines that name this machine (the
# plugin's file) are left out. Run after a change:
#
#   GST_PLUGIN_PATH=build/plugin tools/inspect-dump.sh > docs/plugins/vktile-inspect.txt
set -e
for what in vktile tiledconv gaussblur recursivefilter denoise pixelate; do
  echo "==== gst-inspect-1.0 $what"
  gst-inspect-1.0 "$what" | grep -v '^  Filename'
done
