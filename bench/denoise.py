#!/usr/bin/python3
"""denoise.py: the live-denoising quality benchmark (docs/DENOISE.md).

This file owns the measurement of how well vktile's temporal denoising
works, as opposed to how fast: it makes noisy video clips from real photos
(scikit-image's sample pictures) whose clean frames are known, runs each
denoiser on them through gst-launch-1.0 (vktile's elements) and ffmpeg
(hqdn3d, atadenoise, nlmeans: the denoisers FFmpeg users reach for, at the
settings a small grid search finds best on one clip for the noise level,
--tune), and scores every output frame against its clean frame with PSNR
and SSIM on luma.

The clips are I420, 8-bit, with Gaussian noise of a chosen sigma (code
values) added to every plane, rounded and clamped like a sensor's output:

  pan           a camera panning across a photo, then holding still
  fast-pan      a faster pan, then still
  still         a still scene
  moving-object a photo moving across a still background
  brightness    a still scene whose exposure ramps down and up
  cut           one still scene, then another (a scene change)
  zoom          a camera zooming in on a photo
  shake         a hand-held camera: a still photo jittering by pixels
  texture-object a photo moving across grass
  grass, gravel still textured scenes (foliage, gravel)
  low-light     a dark pan whose noise grows with the signal, as a
                sensor's does (variance b + a I: sigma/2 in the black,
                sigma at mid-grey)

--estimates reads what denoise estimates of the noise (noise-estimate) on
the still clips, against the noise added; --cpu-time times the FFmpeg
filters at the tuned settings on 1080p frames (CPU time per frame).

"Moving" frames are those whose clean frame differs from the previous
clean frame; "still" frames the others, the first frame excluded.

Writes under --out: results.csv (one row per clip, method, frame), a
summary table in Markdown, plots, and before/after crops. Needs the Debian
packages python3-numpy python3-skimage python3-matplotlib, ffmpeg (optional:
its rows are left out without it) and a built vktile (GST_PLUGIN_PATH).
"""

import argparse
import csv
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import skimage.data
import skimage.io
from skimage.metrics import structural_similarity

W, H = 320, 240


# ---- clips ----------------------------------------------------------------

def rgb_to_i420(rgb):
    """BT.601 limited range, chroma the mean of each 2x2 block."""
    r, g, b = [rgb[..., i].astype(np.float64) for i in range(3)]
    y = 16 + 0.256788 * r + 0.504129 * g + 0.097906 * b
    u = 128 - 0.148223 * r - 0.290993 * g + 0.439216 * b
    v = 128 + 0.439216 * r - 0.367788 * g - 0.071427 * b

    def sub(p):
        return (p[0::2, 0::2] + p[1::2, 0::2] + p[0::2, 1::2] + p[1::2, 1::2]) / 4
    return [y, sub(u), sub(v)]


def i420_to_rgb(planes):
    y, u, v = [p.astype(np.float64) for p in planes]
    u = u.repeat(2, 0).repeat(2, 1) - 128
    v = v.repeat(2, 0).repeat(2, 1) - 128
    y = (y - 16) * 1.164384
    rgb = np.stack([y + 1.596027 * v, y - 0.391762 * u - 0.812968 * v,
                    y + 2.017232 * u], axis=-1)
    return np.clip(np.rint(rgb), 0, 255).astype(np.uint8)


def photo(name):
    img = getattr(skimage.data, name)()
    if img.ndim == 2:
        img = np.stack([img] * 3, axis=-1)
    return img[..., :3].astype(np.float64)


def crop(img, x, y):
    """A WxH window at a sub-pixel position (bilinear), like a camera pan."""
    x0, y0 = int(math.floor(x)), int(math.floor(y))
    fx, fy = x - x0, y - y0
    a = img[y0:y0 + H + 1, x0:x0 + W + 1]
    top = a[:H, :W] * (1 - fx) + a[:H, 1:W + 1] * fx
    bot = a[1:H + 1, :W] * (1 - fx) + a[1:H + 1, 1:W + 1] * fx
    return top * (1 - fy) + bot * fy


def zoom_crop(img, cx, cy, scale):
    """A WxH window centred on (cx, cy), magnified by `scale` (bilinear)."""
    ys = cy + (np.arange(H) - H / 2) / scale
    xs = cx + (np.arange(W) - W / 2) / scale
    y0 = np.clip(np.floor(ys).astype(int), 0, img.shape[0] - 2)
    x0 = np.clip(np.floor(xs).astype(int), 0, img.shape[1] - 2)
    fy = (ys - y0)[:, None, None]
    fx = (xs - x0)[None, :, None]
    a, b = img[y0][:, x0], img[y0][:, x0 + 1]
    c, d = img[y0 + 1][:, x0], img[y0 + 1][:, x0 + 1]
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy


def make_clips(frames):
    """name -> list of clean RGB frames (float, 0..255)."""
    half = frames // 2
    astronaut, coffee, chelsea = photo("astronaut"), photo("coffee"), photo("chelsea")
    rocket, grass, gravel = photo("rocket"), photo("grass"), photo("gravel")
    clips = {}
    # 1.5 px right and 0.75 px down per frame, then still.
    clips["pan"] = [crop(astronaut, 40 + 1.5 * min(t, half), 60 + 0.75 * min(t, half))
                    for t in range(frames)]
    clips["fast-pan"] = [crop(coffee, 20 + 5 * min(t, half), 80) for t in range(frames)]
    clips["still"] = [crop(chelsea, 60, 30)] * frames
    face = astronaut[30:130, 170:270]

    def crossing(bg):
        """The astronaut's face crossing `bg` at 4 px per frame."""
        out = []
        for t in range(frames):
            f = bg.copy()
            x = 10 + 4 * t
            w = min(100, W - x)
            if w > 0:
                f[70:170, x:x + w] = face[:, :w]
            out.append(f)
        return out

    clips["moving-object"] = crossing(crop(rocket, 100, 60))
    # Auto-exposure: gain 1 -> 0.55 -> 1 over the clip.
    base = crop(astronaut, 80, 60)
    clips["brightness"] = [base * (1 - 0.45 * math.sin(math.pi * t / (frames - 1)))
                           for t in range(frames)]
    clips["cut"] = [crop(coffee, 100, 100)] * half + [crop(astronaut, 150, 200)] * (frames - half)
    clips["zoom"] = [zoom_crop(astronaut, 250, 200, 1.0 + 0.02 * t) for t in range(frames)]
    jitter = np.random.default_rng(7).uniform(-2.0, 2.0, (frames, 2))
    clips["shake"] = [crop(chelsea, 60 + jitter[t, 0], 30 + jitter[t, 1])
                      for t in range(frames)]
    clips["texture-object"] = crossing(crop(grass, 100, 100))
    clips["grass"] = [crop(grass, 150, 150)] * frames
    clips["gravel"] = [crop(gravel, 150, 150)] * frames
    clips["low-light"] = [crop(astronaut, 40 + 1.5 * min(t, half), 60) * 0.3
                          for t in range(frames)]
    return clips


# Clips whose noise grows with the signal.
SIGNAL_DEPENDENT = {"low-light"}
# Clips that never move: where the estimate of the noise is read.
STILL = ("still", "grass", "gravel")


def noisy_i420(clean_rgb, sigma, rng, signal_dependent=False):
    out = []
    for p in rgb_to_i420(clean_rgb):
        q = np.rint(p)
        # variance b + a I: (sigma / 2)^2 at 0, sigma^2 at 128
        sd = (np.sqrt(sigma ** 2 / 4 + 0.75 * sigma ** 2 * q / 128.0)
              if signal_dependent else sigma)
        q = q + rng.normal(0.0, 1.0, p.shape) * sd
        out.append(np.clip(np.rint(q), 0, 255).astype(np.uint8))
    return out


def clean_i420(clean_rgb):
    return [np.clip(np.rint(p), 0, 255).astype(np.uint8) for p in rgb_to_i420(clean_rgb)]


def write_yuv(path, frames):
    with open(path, "wb") as f:
        for planes in frames:
            for p in planes:
                f.write(np.ascontiguousarray(p).tobytes())


def read_yuv(path, n):
    data = np.fromfile(path, np.uint8)
    size = W * H * 3 // 2
    if data.size != n * size:
        raise RuntimeError(f"{path}: {data.size} bytes, expected {n} frames of {size}")
    frames = []
    for i in range(n):
        f = data[i * size:(i + 1) * size]
        y = f[:W * H].reshape(H, W)
        u = f[W * H:W * H + W * H // 4].reshape(H // 2, W // 2)
        v = f[W * H + W * H // 4:].reshape(H // 2, W // 2)
        frames.append([y, u, v])
    return frames


# ---- denoisers ------------------------------------------------------------

def run_vktile(src, dst, element):
    cmd = (f"gst-launch-1.0 -q filesrc location={src} ! rawvideoparse format=i420 "
           f"width={W} height={H} framerate=30/1 ! {element} ! "
           f"video/x-raw,format=I420 ! filesink location={dst}")
    subprocess.run(cmd, shell=True, check=True)


def run_ffmpeg(src, dst, vf):
    # atadenoise hangs at the end of a clip shorter than its window
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo",
                    "-pix_fmt", "yuv420p", "-s", f"{W}x{H}", "-r", "30", "-i", src,
                    "-vf", vf, "-f", "rawvideo", "-pix_fmt", "yuv420p", dst], check=True,
                   timeout=300)


# The FFmpeg filters' settings searched on one clip per noise level (--tune).
FFMPEG_GRIDS = {
    "hqdn3d": [f"hqdn3d={ls}:{ls * 0.75:g}:{lt}:{lt * 0.75:g}"
               for ls in (3, 6, 10, 16, 24) for lt in (3, 6, 10, 16, 24)],
    "atadenoise": [f"atadenoise=0a={a}:1a={a}:2a={a}:0b={b}:1b={b}:2b={b}:s={n}"
                   for a in (0.05, 0.1, 0.2, 0.3) for b in (0.5, 2, 5) for n in (5, 9)],
    "nlmeans": [f"nlmeans=s={st}:p=7:r={r}" for st in (3, 5, 8, 12, 18) for r in (9, 15)],
}


def tune_ffmpeg(clean, noisy, out):
    """The best setting of each FFmpeg filter on one clip: mean luma PSNR."""
    src = os.path.join(out, "tune-noisy.yuv")
    dst = os.path.join(out, "tune-out.yuv")
    write_yuv(src, noisy)
    best = {}
    for name, grid in FFMPEG_GRIDS.items():
        scores = []
        for vf in grid:
            run_ffmpeg(src, dst, vf)
            frames = read_yuv(dst, len(noisy))
            scores.append((mean([psnr(c[0], d[0]) for c, d in zip(clean[1:], frames[1:])]), vf))
        best[name] = max(scores)[1]
        print(f"tune {name}: {best[name]} ({max(scores)[0]:.2f} dB)", file=sys.stderr)
    return best


def ffmpeg_cpu_ms(vf, sigma, rng, out, frames=20):
    """CPU time per 1080p I420 frame of an FFmpeg filter (utime + stime)."""
    w, h = 1920, 1080
    src = os.path.join(out, "cpu-1080p.yuv")
    if not os.path.exists(src):
        base = np.kron(photo("astronaut")[:270, :480], np.ones((4, 4, 1)))
        with open(src, "wb") as f:
            for _ in range(frames):
                for p in rgb_to_i420(base):
                    q = np.clip(np.rint(p + rng.normal(0.0, sigma, p.shape)), 0, 255)
                    f.write(q.astype(np.uint8).tobytes())
    r = subprocess.run(["ffmpeg", "-hide_banner", "-benchmark", "-f", "rawvideo",
                        "-pix_fmt", "yuv420p", "-s", f"{w}x{h}", "-i", src, "-vf", vf,
                        "-f", "null", "-"], capture_output=True, text=True, check=True)
    for line in r.stderr.splitlines():
        if line.startswith("bench: utime="):
            parts = dict(kv.split("=") for kv in line[len("bench: "):].split())
            return (float(parts["utime"].rstrip("s")) + float(parts["stime"].rstrip("s"))) \
                * 1000.0 / frames
    return float("nan")


def read_estimate(src, n):
    """What denoise estimates of the noise after n frames of src, per plane."""
    import ctypes
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    pipe = Gst.parse_launch(
        f"filesrc location={src} ! rawvideoparse format=i420 width={W} height={H} "
        f"framerate=30/1 ! denoise name=d ! fakesink")
    pipe.set_state(Gst.State.PLAYING)
    pipe.get_bus().timed_pop_filtered(Gst.CLOCK_TIME_NONE,
                                      Gst.MessageType.EOS | Gst.MessageType.ERROR)
    # PyGObject without GStreamer's overrides cannot hold a GstValueArray:
    # read the property through the C API and its string form.
    gobject = ctypes.CDLL("libgobject-2.0.so.0")
    gst = ctypes.CDLL("libgstreamer-1.0.so.0")
    ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
    ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    gst.gst_value_array_get_type.restype = ctypes.c_size_t
    gst.gst_value_serialize.restype = ctypes.c_void_p
    gobject.g_value_init.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    gobject.g_object_get_property.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                              ctypes.c_void_p]
    gst.gst_value_serialize.argtypes = [ctypes.c_void_p]
    value = ctypes.create_string_buffer(64)
    gobject.g_value_init(value, gst.gst_value_array_get_type())
    el = pipe.get_by_name("d")
    ptr = ctypes.pythonapi.PyCapsule_GetPointer(el.__gpointer__, None)
    gobject.g_object_get_property(ptr, b"noise-estimate", value)
    text = ctypes.string_at(gst.gst_value_serialize(value)).decode()
    pipe.set_state(Gst.State.NULL)
    return [float(x.split(")")[-1]) for x in text.strip("<> ").split(",") if x.strip()]


# ---- scores ---------------------------------------------------------------

def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 99.0 if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


def ssim(a, b):
    # Wang et al.'s parameters: 11x11 Gaussian window of sigma 1.5.
    return structural_similarity(a, b, data_range=255, gaussian_weights=True,
                                 sigma=1.5, use_sample_covariance=False)


def moving_flags(clean):
    flags = [False]
    for a, b in zip(clean, clean[1:]):
        flags.append(bool(np.any(a[0] != b[0])))
    return flags


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="out/denoise")
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--sigma", type=float, default=10.0,
                    help="noise standard deviation in 8-bit code values")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clips", default="", help="comma-separated subset")
    ap.add_argument("-m", "--method", action="append", default=[],
                    help="LABEL=ELEMENT (vktile) or LABEL=ffmpeg:FILTER; "
                         "replaces the default list")
    ap.add_argument("--tune", default="pan",
                    help="the clip the FFmpeg filters' settings are searched on "
                         "(empty: their defaults)")
    ap.add_argument("--estimates", action="store_true",
                    help="also read denoise's noise estimate on the still clips")
    ap.add_argument("--cpu-time", action="store_true",
                    help="also time the FFmpeg filters on 1080p frames")
    args = ap.parse_args()

    have_ffmpeg = shutil.which("ffmpeg") is not None
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    clips = make_clips(args.frames)
    ffmpeg_vf = {name: name for name in FFMPEG_GRIDS}
    if have_ffmpeg and args.tune and not args.method:
        rgb = clips[args.tune]
        ffmpeg_vf = tune_ffmpeg([clean_i420(f) for f in rgb],
                                [noisy_i420(f, args.sigma, np.random.default_rng(99))
                                 for f in rgb], args.out)
    methods = args.method or [
        "Gaussian blur=gaussblur sigma=0.8",
        "denoise=denoise",
        f"denoise, noise given=denoise noise-sigma={args.sigma:g}",
        "recursivefilter recipe=recursivefilter sigma=0.8 temporal-alpha=0.8 "
        "temporal-mode=motion-adaptive",
    ] + [f"{name}=ffmpeg:{vf}" for name, vf in ffmpeg_vf.items()]
    methods = [m.split("=", 1) for m in methods]
    if args.clips:
        clips = {k: clips[k] for k in args.clips.split(",")}

    rows = []
    estimates = {}
    for name, rgb in clips.items():
        clean = [clean_i420(f) for f in rgb]
        noisy = [noisy_i420(f, args.sigma, rng, name in SIGNAL_DEPENDENT) for f in rgb]
        moving = moving_flags(clean)
        src = os.path.join(args.out, f"{name}-noisy.yuv")
        write_yuv(src, noisy)
        outputs = {"input": noisy}
        for label, how in methods:
            dst = os.path.join(args.out, f"{name}-{label.replace(' ', '-')}.yuv")
            if how.startswith("ffmpeg:"):
                if not have_ffmpeg:
                    continue
                run_ffmpeg(src, dst, how[len("ffmpeg:"):])
            else:
                run_vktile(src, dst, how)
            outputs[label] = read_yuv(dst, args.frames)
        for label, frames in outputs.items():
            for t, (c, d) in enumerate(zip(clean, frames)):
                rows.append({"clip": name, "method": label, "frame": t,
                             "moving": int(moving[t]),
                             "psnr_y": psnr(c[0], d[0]),
                             "psnr_uv": psnr(np.concatenate([c[1], c[2]]),
                                             np.concatenate([d[1], d[2]])),
                             "ssim_y": ssim(c[0], d[0])})
        save_crops(args.out, name, clean, outputs)
        if args.estimates and name in STILL:
            estimates[name] = read_estimate(src, args.frames)
        print(f"{name}: done", file=sys.stderr)

    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    table = summary(rows, ["input"] + [m[0] for m in methods], args)
    if have_ffmpeg:
        table += "\nFFmpeg settings: " + "; ".join(
            f"`{how[len('ffmpeg:'):]}`" for _, how in methods if how.startswith("ffmpeg:")) + "\n"
    if estimates:
        table += ("\n| still clip | noise added | noise-estimate (Y, U, V) |\n"
                  "| --- | ---: | --- |\n")
        for name, est in estimates.items():
            table += (f"| {name} | {args.sigma:g} | "
                      + ", ".join(f"{e:.2f}" for e in est) + " |\n")
    if args.cpu_time and have_ffmpeg:
        table += "\n| FFmpeg filter (tuned) | CPU ms per 1080p frame |\n| --- | ---: |\n"
        for label, how in methods:
            if how.startswith("ffmpeg:"):
                ms = ffmpeg_cpu_ms(how[len("ffmpeg:"):], args.sigma,
                                   np.random.default_rng(5), args.out)
                table += f"| {label} `{how[len('ffmpeg:'):]}` | {ms:.1f} |\n"
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(table)
    print(table)
    plot(rows, args.out)
    if "moving-object" in clips:
        crops_figure(args.out, "moving-object",
                     [l for l in ("clean", "input", "Gaussian blur", "denoise", "hqdn3d",
                                  "nlmeans") if l in ("clean", "input") or
                      any(m[0] == l for m in methods)])


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def summary(rows, labels, args):
    clips = list(dict.fromkeys(r["clip"] for r in rows))
    labels = [l for l in labels if any(r["method"] == l for r in rows)]
    out = [f"Noise sigma {args.sigma:g} (8-bit codes), {W}x{H} I420, {args.frames} frames, "
           f"seed {args.seed}. Luma PSNR (dB) / SSIM, mean over the frames after the first.\n",
           "| clip | frames | " + " | ".join(labels) + " |",
           "| --- | --- |" + " ---: |" * len(labels)]
    for clip in clips:
        for part, sel in (("all", lambda r: r["frame"] > 0),
                          ("moving", lambda r: r["moving"] == 1),
                          ("still", lambda r: r["frame"] > 0 and r["moving"] == 0)):
            cells = []
            for l in labels:
                rs = [r for r in rows if r["clip"] == clip and r["method"] == l and sel(r)]
                if not rs:
                    cells.append("")
                    continue
                cells.append(f"{mean([r['psnr_y'] for r in rs]):.2f} / "
                             f"{mean([r['ssim_y'] for r in rs]):.3f}")
            if any(cells):
                out.append(f"| {clip} | {part} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def save_crops(out, name, clean, outputs):
    t = len(clean) * 3 // 4
    for label, frames in list(outputs.items()) + [("clean", clean)]:
        rgb = i420_to_rgb(frames[t])
        skimage.io.imsave(os.path.join(out, f"{name}-{label.replace(' ', '-')}.png"),
                          rgb, check_contrast=False)


def crops_figure(out, clip, labels, box=(60, 150, 170, 250)):
    """The README's picture: one crop of `clip` (y0, y1, x0, x1 of its frame
    three quarters in) per label, side by side, as crops.png."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    y0, y1, x0, x1 = box
    fig, axes = plt.subplots(1, len(labels), figsize=(2.1 * len(labels), 2.5))
    for ax, label in zip(axes, labels):
        img = skimage.io.imread(os.path.join(out, f"{clip}-{label.replace(' ', '-')}.png"))
        ax.imshow(img[y0:y1, x0:x1], interpolation="nearest")
        ax.set_title(label, fontsize=9)
        ax.axis("off")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(os.path.join(out, "crops.png"), dpi=110)


def plot(rows, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    clips = list(dict.fromkeys(r["clip"] for r in rows))
    labels = list(dict.fromkeys(r["method"] for r in rows))
    cols = 3
    fig, axes = plt.subplots(math.ceil(len(clips) / cols), cols,
                             figsize=(4.2 * cols, 3.0 * math.ceil(len(clips) / cols)),
                             squeeze=False)
    for ax, clip in zip(axes.flat, clips):
        for l in labels:
            rs = [r for r in rows if r["clip"] == clip and r["method"] == l]
            ax.plot([r["frame"] for r in rs], [r["psnr_y"] for r in rs], label=l,
                    lw=1.2, ls="--" if l in ("input", "hqdn3d", "atadenoise", "nlmeans")
                    else "-")
        ax.set_title(clip, fontsize=10)
        ax.set_xlabel("frame", fontsize=8)
        ax.set_ylabel("luma PSNR (dB)", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(clips):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "denoise.png"), dpi=110)


if __name__ == "__main__":
    main()
