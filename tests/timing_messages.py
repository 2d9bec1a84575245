#!/usr/bin/env python3
# An application in Python (PyGObject) reads each frame's GPU time from a
# running pipeline: the vktile-timing element messages of post-messages.
# Run by test_pipelines (test_python_timing); exits 0 when every frame's
# message came, in order, with a GPU time.
import sys

import gi
gi.require_version('Gst', '1.0')
from gi.repository import Gst

FRAMES = 6
Gst.init(None)
pipe = Gst.parse_launch(
    'videotestsrc num-buffers=%d ! video/x-raw,format=NV12,width=96,height=64 '
    '! gaussblur sigma=3 post-messages=true name=blur ! fakesink' % FRAMES)
bus = pipe.get_bus()
pipe.set_state(Gst.State.PLAYING)
frames = []
while True:
    msg = bus.timed_pop_filtered(
        120 * Gst.SECOND,
        Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if msg is None:
        sys.exit('timed out after %d messages' % len(frames))
    if msg.type == Gst.MessageType.ERROR:
        sys.exit('error: %s' % msg.parse_error()[0].message)
    if msg.type == Gst.MessageType.EOS:
        break
    s = msg.get_structure()
    if s.get_name() == 'vktile-timing' and msg.src.get_name() == 'blur':
        frames.append((s.get_value('frame-index'), s.get_value('gpu-ns'),
                       s.get_value('timestamp')))
pipe.set_state(Gst.State.NULL)
for index, gpu_ns, timestamp in frames:
    print('frame %d at %d ns: gpu %d ns' % (index, timestamp, gpu_ns))
if [f[0] for f in frames] != list(range(FRAMES)):
    sys.exit('frame indices %s, want 0..%d' % ([f[0] for f in frames],
                                               FRAMES - 1))
if not all(f[1] > 0 for f in frames):
    sys.exit('a frame without GPU time')
