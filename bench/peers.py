#!/usr/bin/env python3
"""peers.py: the peers of vktile timed on the same GPU (torch, CuPy, OpenCV).

This file owns the peer measurements that vktile-bench sets beside its own
GPU-resident rows: for each frame size, operations equivalent to a vktile
configuration (depthwise box convolutions and separable Gaussians in torch,
cupyx.scipy.ndimage.gaussian_filter, OpenCV's CPU GaussianBlur) are timed
against a copy of the same frame bytes in the same representation, and the
results go to one CSV whose rows name the vktile configuration they match.

Method (the GPU is shared and its clocks drift 2-3x within minutes, so
absolute times alone mean little):
  - Interleaved rounds. Every GPU operation of a size and the GPU floors are
    timed once per round, in an order rotated by one each round; warm-up
    rounds first. The ratio op / floor is taken within each round and the
    median and quartiles of those ratios are reported.
  - One GPU call = device-wide synchronize, a heater (a 64 MiB copy: evicts
    the 50 MB L2 and keeps the clocks up), a spin kernel (the "cover"), then
    CUDA events around the call. The cover keeps the GPU busy while Python
    enqueues the call, so the events time the GPU work and not the
    interpreter's launch gaps, as vktile's Vulkan timestamps time
    pre-recorded command buffers. A call whose start event had already
    passed when the enqueueing ended is counted in the row's note, and the
    cover is doubled for the next call.
    The cover is reset after the warm-up rounds, whose calls are late by
    nature (cuDNN autotuning, CuPy compiling its kernels).
  - Distinct random frames (--frames, 4) are rotated, so that no call reads
    an input left in a cache by the call before (and no call runs on zeros).
  - torch has no uint8 convolution: it runs in float16, in whichever of
    NCHW, channels_last and planes-as-batch layouts a short trial finds
    fastest for each operation; the note says which, with the trial's times.
  - Each operation's output for frame 0 is compared, on two corners (the
    borders), with the exact float64 result: the note gives the largest
    difference (1 is rounding; OpenCV's fixed-point 8-bit kernels give 3).
  - The CPU operation (OpenCV) and its floor (np.copyto) are timed in rounds
    of their own after the GPU rounds of the size: interleaving them with
    the GPU calls would leave the GPU idle for tens of ms before the next GPU
    call and let its clocks fall, while it would do nothing for the CPU
    timings.

Runs where torch, CuPy or OpenCV (or a CUDA device, or numpy) is missing:
what is missing is skipped with a note row in the CSV and a line on stderr.
"""

import argparse
import csv
import math
import os
import sys
import time

HEADER = [
    "peer", "operation", "format", "width", "height", "rounds",
    "median_us", "p25_us", "p75_us", "floor", "floor_median_us",
    "x_floor", "x_floor_p25", "x_floor_p75", "vktile_configuration", "note",
]

# (kind, size or sigma, vktile configuration), shared by the peers
BOX3 = ("box", 3, "tiledconv preset=box3 algorithm=tiled")
BOX5 = ("box", 5, "tiledconv preset=box5 algorithm=tiled")
GAUSS2 = ("gauss", 2.0, "gaussblur sigma=2 algorithm=auto")
GAUSS16 = ("gauss", 16.0, "gaussblur sigma=16 algorithm=auto")

PEERS = ("torch", "cupy", "opencv-cpu")


def log(msg):
    print("peers: " + msg, file=sys.stderr, flush=True)


def clean(text):
    # vktile-bench reads this CSV with a plain splitter: no commas, no quotes
    return " ".join(str(text).replace(",", ";").replace('"', "'").split())


def first_line(exc):
    text = str(exc).strip().splitlines()
    return "%s: %s" % (type(exc).__name__, text[0] if text else "")


def percentile(values, q):
    """Linear interpolation between order statistics (numpy's default)."""
    v = sorted(values)
    if not v:
        return None
    pos = (len(v) - 1) * q
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def gauss_radius(sigma):
    # vktile's vkt_gauss_radius: ceil(3 sigma)
    return int(math.ceil(3.0 * sigma))


def gauss_weights(sigma):
    """scipy's sampled Gaussian, normalised over -r..r (as vktgauss.c)."""
    r = gauss_radius(sigma)
    w = [math.exp(-0.5 * j * j / (sigma * sigma)) for j in range(-r, r + 1)]
    s = sum(w)
    return [x / s for x in w]


def sigma_text(sigma):
    return ("%g" % sigma)


class Skip(Exception):
    """A peer or an operation that cannot run here; the message says why."""


class Item:
    """One timed thing of a size: an operation or a floor."""

    def __init__(self, peer, name, fn, timer, nframes, floor=None,
                 vktile="", note=None):
        self.peer = peer
        self.name = name          # operation, or the floor's description
        self.fn = fn              # fn(frame_index): one call, nothing returned
        self.timer = timer        # timer.time(fn, i) -> (us, late)
        self.nframes = nframes
        self.floor = floor        # the floor Item, for an operation
        self.vktile = vktile
        self.note = list(note or [])
        self.times = {}           # measured round -> us
        self.late = 0
        self.error = None
        self.check = None         # () -> uint8 HxWx4 numpy output of frame 0


def run_rounds(items, warmup, rounds, first_round=0):
    """Times every item once per round, rotating the order each round."""
    n = len(items)
    for r in range(first_round, first_round + warmup + rounds):
        if warmup and r == first_round + warmup:
            for timer in {id(it.timer): it.timer for it in items}.values():
                if hasattr(timer, "reset_cover"):
                    timer.reset_cover()
        k0 = r % n
        order = items[k0:] + items[:k0]
        for k, it in enumerate(order):
            if it.error is not None:
                continue
            try:
                us, late = it.timer.time(it.fn, (r * n + k) % it.nframes)
            except Exception as exc:  # an op that fails drops out, the rest go on
                it.error = first_line(exc)
                log("%s %s failed: %s" % (it.peer, it.name, it.error))
                continue
            if r >= first_round + warmup:
                it.times[r] = us
                it.late += late
    return first_round + warmup + rounds


# ---- timers -----------------------------------------------------------------

class CpuTimer:
    def time(self, fn, i):
        t0 = time.perf_counter_ns()
        fn(i)
        return (time.perf_counter_ns() - t0) / 1000.0, 0


class CudaTimer:
    """Heater, cover and events around one call; subclasses bind a library."""

    HEATER_BYTES = 64 << 20
    COVER_MAX_US = 5000.0   # a call still late behind 5 ms of spin waits on the host

    def __init__(self, cover_us):
        self.cover_us = cover_us
        self.cycles_per_us = None
        self.cycles = 0

    def calibrate(self):
        """Cycles per µs of the spin kernel, at the clocks the heater gives."""
        if self.cover_us <= 0:
            return
        best = 0.0
        n = 200000
        for _ in range(3):
            self.sync()
            self.heat()
            start, end = self.events()
            self.record(start)
            self.spin(n)
            self.record(end)
            ms = self.elapsed_ms(start, end)
            if ms > 0:
                best = max(best, n / (ms * 1000.0))
        self.cycles_per_us = best or 2000.0
        self.reset_cover()

    def reset_cover(self):
        # warm-up calls are late by nature (cuDNN autotuning, CuPy compiling):
        # the cover they grew is not needed afterwards
        if self.cycles_per_us:
            self.cycles = int(self.cover_us * self.cycles_per_us)

    def describe(self):
        if not self.cycles:
            return "no cover kernel (launch gaps are timed)"
        return "cover %.0f us at calibration clocks" % (self.cycles / self.cycles_per_us)

    def time(self, fn, i):
        self.sync()
        self.heat()
        if self.cycles:
            self.spin(self.cycles)
        start, end = self.events()
        self.record(start)
        fn(i)
        self.record(end)
        # start already passed: the GPU waited for Python inside the timed span
        late = 1 if (self.cycles and self.done(start)) else 0
        if late and self.cycles_per_us:
            self.cycles = int(min(self.cycles * 2,
                                  self.COVER_MAX_US * self.cycles_per_us))
        return self.elapsed_ms(start, end) * 1000.0, late


class TorchTimer(CudaTimer):
    def __init__(self, torch, dev, cover_us):
        super().__init__(cover_us)
        self.torch = torch
        self.hot_src = torch.ones(self.HEATER_BYTES, dtype=torch.uint8, device=dev)
        self.hot_dst = torch.empty_like(self.hot_src)
        if cover_us > 0 and not hasattr(torch.cuda, "_sleep"):
            log("torch.cuda._sleep missing: no cover, launch gaps are timed")
            self.cover_us = 0
        self.calibrate()

    def sync(self):
        self.torch.cuda.synchronize()

    def heat(self):
        self.hot_dst.copy_(self.hot_src)

    def spin(self, cycles):
        self.torch.cuda._sleep(int(cycles))

    def events(self):
        e = self.torch.cuda.Event
        return e(enable_timing=True), e(enable_timing=True)

    def record(self, ev):
        ev.record()

    def done(self, ev):
        return ev.query()

    def elapsed_ms(self, start, end):
        end.synchronize()
        return start.elapsed_time(end)


SPIN_SRC = r"""
extern "C" __global__ void vkt_spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}
"""


class CupyTimer(CudaTimer):
    def __init__(self, cp, np, cover_us):
        super().__init__(cover_us)
        self.cp = cp
        self.np = np
        self.hot_src = cp.ones(self.HEATER_BYTES, dtype=cp.uint8)
        self.hot_dst = cp.empty_like(self.hot_src)
        self.kernel = None
        if cover_us > 0:
            try:
                self.kernel = cp.RawKernel(SPIN_SRC, "vkt_spin")
                self.spin(10)
            except Exception as exc:
                log("cupy spin kernel unavailable (%s): no cover" % first_line(exc))
                self.kernel = None
                self.cover_us = 0
        self.calibrate()

    def sync(self):
        self.cp.cuda.Device().synchronize()

    def heat(self):
        self.cp.copyto(self.hot_dst, self.hot_src)

    def spin(self, cycles):
        self.kernel((1,), (1,), (self.np.int64(cycles),))

    def events(self):
        return self.cp.cuda.Event(), self.cp.cuda.Event()

    def record(self, ev):
        ev.record()

    def done(self, ev):
        return ev.done

    def elapsed_ms(self, start, end):
        end.synchronize()
        return self.cp.cuda.get_elapsed_time(start, end)


# ---- the libraries ------------------------------------------------------------

class Env:
    """What this machine has; each peer's reason for skipping if it has not."""

    def __init__(self, args):
        self.args = args
        self.np = None
        self.torch = None
        self.cp = None
        self.ndi = None
        self.cv2 = None
        self.skip = {}
        self.info = {}
        try:
            import numpy
            self.np = numpy
        except ImportError as exc:
            log("numpy not importable (%s): cupy and opencv-cpu need it" % exc)
        want = set(args.peers)
        if "torch" in want:
            self._torch()
        if "cupy" in want:
            self._cupy()
        if "opencv-cpu" in want:
            self._cv2()
        for peer, why in self.skip.items():
            log("skipping %s: %s" % (peer, why))

    def _torch(self):
        try:
            import torch
            import torch.nn.functional  # noqa: F401  (imported for conv2d, pad)
        except Exception as exc:
            self.skip["torch"] = "torch not importable (%s)" % first_line(exc)
            return
        if not torch.cuda.is_available():
            self.skip["torch"] = "torch %s has no CUDA device" % torch.__version__
            return
        dev = torch.device("cuda", self.args.cuda_device)
        torch.cuda.set_device(dev)
        self.torch = torch
        self.torch_dev = dev
        self.info["torch"] = "torch %s CUDA %s cuDNN %s on %s" % (
            torch.__version__, torch.version.cuda,
            torch.backends.cudnn.version(), torch.cuda.get_device_name(dev))

    def _cupy(self):
        if self.np is None:
            self.skip["cupy"] = "numpy not importable"
            return
        try:
            import cupy
            import cupyx.scipy.ndimage as ndi
            if cupy.cuda.runtime.getDeviceCount() < 1:
                raise Skip("no CUDA device")
            cupy.cuda.Device(self.args.cuda_device).use()
            props = cupy.cuda.runtime.getDeviceProperties(self.args.cuda_device)
            name = props.get("name", b"?")
            name = name.decode() if isinstance(name, bytes) else str(name)
        except Exception as exc:
            self.skip["cupy"] = "cupy not usable (%s)" % first_line(exc)
            return
        self.cp = cupy
        self.ndi = ndi
        self.info["cupy"] = "cupy %s CUDA runtime %s on %s" % (
            cupy.__version__, cupy.cuda.runtime.runtimeGetVersion(), name)

    def _cv2(self):
        if self.np is None:
            self.skip["opencv-cpu"] = "numpy not importable"
            return
        try:
            import cv2
        except Exception as exc:
            self.skip["opencv-cpu"] = "cv2 not importable (%s)" % first_line(exc)
            return
        self.cv2 = cv2
        self.info["opencv-cpu"] = "OpenCV %s %d threads (cv2.getNumThreads) %s CPUs" % (
            cv2.__version__, cv2.getNumThreads(), os.cpu_count())


def random_frames(env, w, h):
    """args.frames distinct uint8 HxWx4 frames (numpy), or None without numpy."""
    if env.np is None:
        return None
    rng = env.np.random.default_rng(env.args.seed)
    return [rng.integers(0, 256, size=(h, w, 4), dtype=env.np.uint8)
            for _ in range(env.args.frames)]


# ---- torch --------------------------------------------------------------------

TORCH_LAYOUTS = ("NCHW", "channels_last", "planes as batch")


def torch_items(env, frames_np, w, h):
    torch = env.torch
    F = torch.nn.functional
    dev = env.torch_dev
    args = env.args
    torch.backends.cudnn.benchmark = True  # cuDNN picks its fastest algorithm per shape
    timer = TorchTimer(torch, dev, args.cover_us)

    if frames_np is not None:
        u8 = [torch.from_numpy(f).to(dev) for f in frames_np]
    else:
        g = torch.Generator(device=dev)
        g.manual_seed(args.seed)
        u8 = [torch.randint(0, 256, (h, w, 4), dtype=torch.uint8, device=dev,
                            generator=g) for _ in range(args.frames)]
    nchw = [f.permute(2, 0, 1).unsqueeze(0).to(torch.float16).contiguous()
            for f in u8]
    del u8
    inputs = {
        "NCHW": nchw,
        "channels_last": [x.contiguous(memory_format=torch.channels_last)
                          for x in nchw],
        "planes as batch": [x.view(4, 1, h, w) for x in nchw],
    }
    layout_text = {
        "NCHW": "float16 NCHW [1 4 H W] groups=4",
        "channels_last": "float16 channels_last [1 4 H W] groups=4",
        "planes as batch": "float16 planes as batch [4 1 H W] groups=1",
    }

    def weights(layout, shape_hw, values):
        c = 1 if layout == "planes as batch" else 4
        t = torch.tensor(values, dtype=torch.float32, device=dev)
        t = t.reshape(1, 1, *shape_hw).repeat(c, 1, 1, 1).to(torch.float16)
        if layout == "channels_last":
            t = t.contiguous(memory_format=torch.channels_last)
        return t, c

    def make(op, layout):
        """The call for op in layout: fn(i) filters frame i, returns the output."""
        kind, p, _ = op
        xs = inputs[layout]
        if kind == "box":
            wt, c = weights(layout, (p, p), [1.0 / (p * p)] * (p * p))
            pad = p // 2

            def fn(i):
                return F.conv2d(xs[i], wt, padding=pad, groups=c)
        else:
            g = gauss_weights(p)
            r = gauss_radius(p)
            wx, c = weights(layout, (1, len(g)), g)
            wy, _ = weights(layout, (len(g), 1), g)

            def fn(i):
                # replicate = vktile's default border (clamp); one pad serves both passes
                xp = F.pad(xs[i], (r, r, r, r), mode="replicate")
                return F.conv2d(F.conv2d(xp, wx, groups=c), wy, groups=c)
        return fn

    floor_dst = torch.empty_like(nchw[0])
    floor = Item("torch", "torch copy_ of the float16 tensor",
                 lambda i: floor_dst.copy_(nchw[i]), timer, args.frames)

    ops = [(BOX3, "depthwise 3x3 box"), (BOX5, "depthwise 5x5 box"),
           (GAUSS2, "separable Gaussian sigma 2"),
           (GAUSS16, "separable Gaussian sigma 16")]
    items = []
    for op, name in ops:
        # the layout trial: a few interleaved calls per layout; the fastest wins
        cands = []
        for layout in TORCH_LAYOUTS:
            try:
                fn = make(op, layout)
            except Exception as exc:
                log("torch %s %s: %s" % (name, layout, first_line(exc)))
                continue
            cands.append(Item("torch", layout, fn, timer, args.frames))
        run_rounds(cands, 2, args.trial)
        trial = []
        best = None
        for c in cands:
            med = percentile(list(c.times.values()), 0.5)
            trial.append("%s %s" % (c.name, "failed" if med is None else "%.1f us" % med))
            if med is not None and (best is None or med < best[0]):
                best = (med, c)
        if best is None:
            it = Item("torch", name, None, timer, args.frames, floor, op[2])
            it.error = "every layout failed (%s)" % "; ".join(
                c.error or "?" for c in cands)
            items.append(it)
            continue
        chosen = best[1]
        kind = op[0]
        note = [layout_text[chosen.name],
                "layout chosen by a trial of %d calls each: %s" % (
                    args.trial, " / ".join(trial)),
                "input and output float16 (no uint8 conversion timed)"]
        if kind == "box":
            note.append("zero padding inside conv2d (vktile: clamp; differs "
                        "in the outer %d pixel(s) only)" % (op[1] // 2))
        else:
            note.append("radius %d; F.pad replicate (vktile's clamp) then "
                        "two conv2d" % gauss_radius(op[1]))
        note += ["cudnn.benchmark on", env.info["torch"]]
        it = Item("torch", name, chosen.fn, timer, args.frames, floor, op[2], note)

        def check(fn=chosen.fn):
            y = fn(0).reshape(1, 4, h, w)[0].float().round().clamp(0, 255)
            return y.to(torch.uint8).permute(1, 2, 0).contiguous().cpu().numpy()

        if env.np is not None:
            it.check = check
        it.op = op
        items.append(it)
        del cands
    return items, floor


# ---- cupy ----------------------------------------------------------------------

def cupy_items(env, frames_np, w, h):
    cp, ndi, args = env.cp, env.ndi, env.args
    timer = CupyTimer(cp, env.np, args.cover_us)
    frames = [cp.asarray(f) for f in frames_np]
    floor_dst = cp.empty_like(frames[0])
    floor = Item("cupy", "cupy.copyto of the uint8 array",
                 lambda i: cp.copyto(floor_dst, frames[i]), timer, args.frames)
    items = []
    for op in (GAUSS2, GAUSS16):
        s = op[1]
        dst = cp.empty_like(frames[0])

        # truncate 3: radius int(3 s + 0.5) = vktile's ceil(3 s) for these sigmas;
        # mode nearest = vktile's clamp; sigma 0 on the channel axis skips it
        def fn(i, s=s, dst=dst):
            ndi.gaussian_filter(frames[i], (s, s, 0), output=dst,
                                mode="nearest", truncate=3.0)

        def check(s=s):
            out = cp.empty_like(frames[0])
            ndi.gaussian_filter(frames[0], (s, s, 0), output=out,
                                mode="nearest", truncate=3.0)
            return cp.asnumpy(out)

        note = ["uint8 HxWx4 in and out; sigma (%s %s 0) truncate=3 (radius %d) "
                "mode=nearest (vktile's clamp); output= preallocated" % (
                    sigma_text(s), sigma_text(s), gauss_radius(s)),
                env.info["cupy"]]
        it = Item("cupy", "gaussian_filter sigma %s" % sigma_text(s), fn,
                  timer, args.frames, floor, op[2], note)
        it.check = check
        it.op = op
        items.append(it)
    return items, floor


# ---- OpenCV (CPU) ----------------------------------------------------------------

def cv2_items(env, frames_np, w, h):
    cv2, np, args = env.cv2, env.np, env.args
    timer = CpuTimer()
    floor_dst = np.empty_like(frames_np[0])
    floor = Item("opencv-cpu", "np.copyto of the uint8 frame (one thread)",
                 lambda i: np.copyto(floor_dst, frames_np[i]), timer, args.frames)
    items = []
    for op in (GAUSS2, GAUSS16):
        s = op[1]
        dst = np.empty_like(frames_np[0])

        def fn(i, s=s, dst=dst):
            cv2.GaussianBlur(frames_np[i], (0, 0), s, dst=dst, sigmaY=s,
                             borderType=cv2.BORDER_REPLICATE)

        def check(s=s):
            return cv2.GaussianBlur(frames_np[0], (0, 0), s, sigmaY=s,
                                    borderType=cv2.BORDER_REPLICATE)

        note = ["uint8 HxWx4; ksize (0 0) (OpenCV's radius for 8-bit: 3 sigma = %d) "
                "BORDER_REPLICATE (vktile's clamp)" % gauss_radius(s),
                env.info["opencv-cpu"]]
        it = Item("opencv-cpu", "GaussianBlur sigma %s" % sigma_text(s), fn,
                  timer, args.frames, floor, op[2], note)
        it.check = check
        it.op = op
        items.append(it)
    return items, floor


# ---- a size ----------------------------------------------------------------------

def time_size(env, w, h, rows):
    args = env.args
    frames_np = random_frames(env, w, h)
    timed, gpu_floors = [], []

    def build(peer, fn, frames_ok=True):
        if peer not in args.peers or peer in env.skip:
            return None
        if not frames_ok:
            rows.append(skip_row(peer, w, h, "numpy not importable"))
            return None
        try:
            return fn(env, frames_np, w, h)
        except Exception as exc:
            why = "setup failed: %s" % first_line(exc)
            log("%s %dx%d %s" % (peer, w, h, why))
            rows.append(skip_row(peer, w, h, why))
            return None

    t0 = time.monotonic()
    for peer, fn in (("torch", torch_items), ("cupy", cupy_items)):
        got = build(peer, fn, peer == "torch" or frames_np is not None)
        if got:
            timed += got[0]
            gpu_floors.append(got[1])
    if timed:
        log("%dx%d: %d GPU rounds of %d operations and %d floors" % (
            w, h, args.warmup + args.rounds, len(timed), len(gpu_floors)))
        live = [it for it in timed if it.fn is not None] + gpu_floors
        run_rounds(live, args.warmup, args.rounds)
        log("%dx%d: GPU rounds done in %.1f s" % (w, h, time.monotonic() - t0))

    cpu = build("opencv-cpu", cv2_items, frames_np is not None)
    if cpu:
        ops, floor = cpu
        items = ops + [floor]
        t1 = time.monotonic()
        nxt = run_rounds(items, min(args.warmup, 2), 0)
        per_round = (time.monotonic() - t1) / max(1, min(args.warmup, 2))
        n = args.rounds
        if per_round * n > args.cpu_budget:
            n = max(5, int(args.cpu_budget / per_round))
        log("%dx%d: %d CPU rounds (%.0f ms each)" % (w, h, n, per_round * 1e3))
        run_rounds(items, 0, n, nxt)
        if n < args.rounds:
            for it in ops:
                it.note.insert(1, "%d rounds instead of %d to stay within "
                               "--cpu-budget %g s" % (n, args.rounds, args.cpu_budget))
        for it in ops:
            it.note.insert(1, "timed in rounds of its own after the GPU rounds")
        timed += ops

    if args.check and frames_np is not None:
        check_outputs(env, frames_np[0], [it for it in timed if it.check])
    for it in timed:
        rows.append(result_row(it, w, h))


def free_gpu_memory(env):
    # called once a size's items are gone: 4K float16 frames are 66 MB each
    if env.torch is not None:
        env.torch.cuda.empty_cache()
    if env.cp is not None:
        env.cp.get_default_memory_pool().free_all_blocks()


def exact_crops(np, op, frame, size=256):
    """The exact (float64) result of op on two corners of frame, rounded.

    Corners, because they hold the borders; crops, because the exact filter
    of a whole 4K frame takes seconds. Returns [(rows, cols, uint8 result)].
    """
    kind, p, _ = op
    h, w = frame.shape[:2]
    if kind == "box":
        r, wt, mode = p // 2, [1.0 / p] * p, "constant"   # torch's conv2d pads with 0
    else:
        r, wt, mode = gauss_radius(p), gauss_weights(p), "edge"  # vktile's clamp
    n = min(size, h - r, w - r)
    if n < 1:
        return []
    out = []
    for corner in ("top-left", "bottom-right"):
        if corner == "top-left":
            rows, cols = slice(0, n), slice(0, n)
            c = frame[:n + r, :n + r].astype(np.float64)
            c = np.pad(c, ((r, 0), (r, 0), (0, 0)), mode=mode)
        else:
            rows, cols = slice(h - n, h), slice(w - n, w)
            c = frame[h - n - r:, w - n - r:].astype(np.float64)
            c = np.pad(c, ((0, r), (0, r), (0, 0)), mode=mode)
        k = len(wt)
        hx = sum(wt[j] * c[:, j:j + n] for j in range(k))
        hy = sum(wt[j] * hx[j:j + n] for j in range(k))
        out.append((rows, cols, np.clip(np.rint(hy), 0, 255).astype(np.uint8)))
    return out


def check_outputs(env, frame, items):
    """Max |difference| of each op's output (frame 0) to the exact result."""
    np = env.np
    refs = {}
    for it in items:
        if it.error is not None:
            continue
        try:
            if it.op not in refs:
                refs[it.op] = exact_crops(np, it.op, frame)
            got = it.check()
            d = max([int(np.abs(got[rows, cols].astype(np.int16) - ref.astype(np.int16)).max())
                     for rows, cols, ref in refs[it.op]] or [-1])
        except Exception as exc:
            it.note.append("check failed: %s" % first_line(exc))
            continue
        if d < 0:
            continue
        it.note.append("max |difference| to the exact float64 result (two corners "
                       "of frame 0): %d" % d)
        if d > 3:
            log("%s %s %dx%d differs from the exact result by up to %d: not the "
                "same operation?" % (it.peer, it.name, frame.shape[1], frame.shape[0], d))


def result_row(it, w, h):
    row = dict.fromkeys(HEADER, "")
    row.update(peer=it.peer, operation=it.name, format="RGBA", width=w, height=h,
               vktile_configuration=it.vktile)
    note = list(it.note)
    times = it.times
    fl = it.floor
    if fl is not None:
        row["floor"] = fl.name
        note += fl.note
    if it.error is not None:
        note.insert(0, "failed: %s" % it.error)
    if hasattr(it.timer, "describe"):
        note.append(it.timer.describe())
    if it.late:
        note.append("GPU reached the start event before the call was enqueued "
                    "in %d of %d rounds (launch gaps timed there)" % (it.late, len(times)))
    if times:
        us = list(times.values())
        row.update(rounds=len(us), median_us=fmt(percentile(us, 0.5)),
                   p25_us=fmt(percentile(us, 0.25)), p75_us=fmt(percentile(us, 0.75)))
    if fl is not None and fl.error is not None:
        note.append("floor failed: %s" % fl.error)
    if times and fl is not None and fl.times:
        common = [r for r in times if r in fl.times]
        if common:
            ratios = [times[r] / fl.times[r] for r in common if fl.times[r] > 0]
            row.update(floor_median_us=fmt(percentile([fl.times[r] for r in common], 0.5)),
                       x_floor=fmt(percentile(ratios, 0.5), 3),
                       x_floor_p25=fmt(percentile(ratios, 0.25), 3),
                       x_floor_p75=fmt(percentile(ratios, 0.75), 3))
    row["note"] = clean("; ".join(note))
    return row


def skip_row(peer, w, h, why):
    row = dict.fromkeys(HEADER, "")
    row.update(peer=peer, format="RGBA", width=w if w else "", height=h if h else "",
               note=clean("skipped: " + why))
    return row


def fmt(x, digits=2):
    return "" if x is None else "%.*f" % (digits, x)


def print_table(rows):
    cols = [("peer", 10), ("operation", 28), ("size", 9), ("median us [p25 p75]", 26),
            ("floor us", 9), ("x floor [p25 p75]", 20), ("vktile configuration", 0)]
    print("  ".join(name.ljust(width) for name, width in cols).rstrip())
    for r in rows:
        size = "%sx%s" % (r["width"], r["height"]) if r["width"] else "-"
        med = "%s [%s %s]" % (r["median_us"], r["p25_us"], r["p75_us"]) \
            if r["median_us"] else "-"
        xf = "%s [%s %s]" % (r["x_floor"], r["x_floor_p25"], r["x_floor_p75"]) \
            if r["x_floor"] else "-"
        vals = [r["peer"], r["operation"] or "-", size, med,
                r["floor_median_us"] or "-", xf, r["vktile_configuration"] or "-"]
        print("  ".join(v.ljust(width) for v, (_, width) in zip(vals, cols)).rstrip())
        if r["note"]:
            print("    note: " + r["note"])


def parse_sizes(text):
    sizes = []
    for part in text.split(","):
        try:
            w, h = part.strip().lower().split("x")
            sizes.append((int(w), int(h)))
        except ValueError:
            raise argparse.ArgumentTypeError("not WxH: %r" % part)
    return sizes


def parse_peers(text):
    peers = [p.strip() for p in text.split(",") if p.strip()]
    for p in peers:
        if p not in PEERS:
            raise argparse.ArgumentTypeError("unknown peer %r (known: %s)"
                                             % (p, ", ".join(PEERS)))
    return peers


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    def _get_help_string(self, action):
        # "(default: True)" on a switch says nothing
        if action.nargs == 0:
            return action.help
        return super()._get_help_string(action)


def main():
    ap = argparse.ArgumentParser(
        description="Time vktile's peers (torch depthwise and separable convolutions, "
        "CuPy gaussian_filter, OpenCV CPU GaussianBlur) on RGBA frames, each "
        "against a copy of the same bytes timed in the same interleaved rounds, "
        "and write a CSV whose rows name the equivalent vktile configuration. "
        "Peers that are not importable, or have no CUDA device, get a note row.",
        epilog="Columns: " + ", ".join(HEADER) + ". x_floor is the median of the "
        "per-round ratios op time / floor time; p25/p75 are quartiles "
        "(linear interpolation).",
        formatter_class=HelpFormatter)
    ap.add_argument("--csv", default="peers.csv", metavar="FILE",
                    help="CSV file to write")
    ap.add_argument("--sizes", type=parse_sizes, default="1920x1080,3840x2160",
                    metavar="WxH,...", help="frame sizes (RGBA)")
    ap.add_argument("--peers", type=parse_peers, default=",".join(PEERS),
                    metavar="LIST", help="peers to time, comma-separated")
    ap.add_argument("--rounds", type=int, metavar="N", default=50,
                    help="measured rounds per size")
    ap.add_argument("--warmup", type=int, metavar="N", default=5,
                    help="warm-up rounds per size (cuDNN autotuning and CuPy's "
                    "kernel compilation happen here)")
    ap.add_argument("--frames", type=int, metavar="N", default=4,
                    help="distinct random input frames rotated through")
    ap.add_argument("--trial", type=int, metavar="N", default=5,
                    help="calls per layout in torch's layout trial")
    ap.add_argument("--cover-us", type=float, metavar="US", default=200.0,
                    help="spin kernel before each timed GPU call, so that the "
                    "call is enqueued before the GPU reaches it (0: none)")
    ap.add_argument("--cpu-budget", type=float, default=12.0, metavar="SECONDS",
                    help="at most this long for the CPU rounds of one size "
                    "(fewer rounds, at least 5, if the CPU op is slow)")
    ap.add_argument("--cuda-device", type=int, metavar="INDEX", default=0, help="CUDA device index")
    ap.add_argument("--seed", type=int, metavar="N", default=1, help="seed of the random frames")
    ap.add_argument("--no-check", dest="check", action="store_false",
                    help="skip comparing each op's output on two corners of a frame "
                    "with the exact (float64) result")
    args = ap.parse_args()
    if args.rounds < 1 or args.frames < 1 or args.warmup < 0 or args.trial < 1:
        ap.error("--rounds, --frames and --trial must be >= 1, --warmup >= 0")

    t0 = time.monotonic()
    env = Env(args)
    rows = []
    for peer in args.peers:
        if peer in env.skip:
            rows.append(skip_row(peer, None, None, env.skip[peer]))
    for w, h in args.sizes:
        time_size(env, w, h, rows)
        free_gpu_memory(env)

    with open(args.csv, "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=HEADER, lineterminator="\n")
        out.writeheader()
        for r in rows:
            out.writerow(r)
    print_table(rows)
    log("wrote %s (%d rows) in %.1f s" % (args.csv, len(rows), time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
