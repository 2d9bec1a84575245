#!/usr/bin/env python3
"""plot.py: docs/benchmark.png, the README's figure, from vktile-bench's CSV.

This file owns the picture of a benchmark run: it reads the CSV that
`vktile-bench --csv FILE` writes (and, optionally, the CSV of bench/peers.py)
and draws one PNG with up to four sections, each shown only if the CSV has
rows for it:

  - GPU-resident frames: one panel per format and size, a bar per element
    configuration: its GPU time over the shader copy of the same frame
    (x_shader: median of per-round ratios, whiskers p25-p75), lines at the
    shader copy (1) and at vkCmdCopyBuffer, the median time written beside
    the bar. A configuration's A/A repeat is a diamond on its bar.
  - Peers: torch, CuPy and OpenCV times (µs) under the vktile configuration
    they name, with vktile's copy floors of that frame as lines.
  - System memory in and out: frames/s of each element, the
    vulkanupload ! vulkandownload round trip as a grey bar, and the two PCIe
    floors as lines over the rows of their format.
  - Chains: frames/s of chained elements on GPU-resident frames, and the rate
    their summed GPU time alone would allow.

Missing sections, empty cells and failed rows (no median) never stop it: a
failed row keeps its label and shows "failed" with the start of its note.
The layout is computed in inches (not by matplotlib's constrained layout,
which gives every panel of a row the first panel's label margin).
"""

import argparse
import csv
import math
import re
import sys
import textwrap

FORMAT_ORDER = ["GRAY8", "GRAY16_LE", "RGBA", "BGRA", "RGBx", "BGRx", "NV12",
                "I420", "Y444"]
ELEMENT_COLORS = {"tiledconv": "#4C72B0", "gaussblur": "#55A868",
                  "recursivefilter": "#C44E52"}
PEER_COLORS = {"torch": "#EE854A", "cupy": "#8172B3", "opencv-cpu": "#937860"}
OTHER_COLORS = ["#64B5CD", "#DA8BC3", "#8C8C8C", "#CCB974"]
VKTILE_ELEMENTS = ("tiledconv", "gaussblur", "recursivefilter")
ROUNDTRIP = "vulkanupload ! vulkandownload"
AA = " (A/A)"
FAIL_COLOR = "#A00000"

# layout, in inches and points
ROW_IN = 0.19            # one bar row
PANEL_IN = 2.3           # the narrowest panel
GAP_IN = 0.35            # between panels
RIGHT_IN = 0.3
LABEL_PT = 7             # row labels
SMALL_PT = 6.5           # value labels, ticks
LINE_IN = 7 * 1.3 / 72   # one line of a panel title


def log(msg):
    print("plot: " + msg, file=sys.stderr)


def num(text):
    """The cell as a float, or None for empty, '-', nan, inf or words."""
    if text is None:
        return None
    text = text.strip().rstrip("x")
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


class Row:
    """One CSV row: cells by name, numbers through .n()."""

    def __init__(self, cells):
        self.c = {k.strip(): (v or "").strip() for k, v in cells.items()
                  if isinstance(k, str)}

    def s(self, key):
        return self.c.get(key, "")

    def n(self, key):
        return num(self.c.get(key))

    @property
    def size(self):
        w, h = self.n("width"), self.n("height")
        return (int(w), int(h)) if w and h else None

    @property
    def fmt(self):
        return self.s("format")


def read_csv(path):
    """Rows, and the device: a 'device' row's element, or a '# device: NAME'
    comment line."""
    device = None
    lines = []
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                m = re.match(r"#\s*device\s*:\s*(.+)", line)
                if m:
                    device = m.group(1).strip()
                continue
            if line.strip():
                lines.append(line)
    rows = [Row(r) for r in csv.DictReader(lines)]
    for r in rows:
        if r.s("section") == "device" and r.s("element"):
            device = r.s("element")
    return rows, device


def peer_rows_from_peers_csv(path):
    """bench/peers.py's rows, in the shape of vktile-bench's peer section."""
    rows, _ = read_csv(path)
    out = []
    for r in rows:
        c = dict(r.c)
        c.update(section="peer", element=r.s("peer"), configuration=r.s("operation"),
                 x_copy=r.s("x_floor"), x_copy_p25=r.s("x_floor_p25"),
                 x_copy_p75=r.s("x_floor_p75"))
        out.append(Row(c))
    return out


# ---- small helpers -------------------------------------------------------------

def size_text(size):
    return "%dx%d" % size if size else "?"


def size_key(size):
    return (size[0] * size[1], size) if size else (0, (0, 0))


def format_key(fmt):
    return (FORMAT_ORDER.index(fmt) if fmt in FORMAT_ORDER else len(FORMAT_ORDER), fmt)


def us_text(v):
    if v is None:
        return "-"
    if v >= 10000:
        return "%.1f ms" % (v / 1000)
    return ("%.1f µs" if v < 100 else "%.0f µs") % v


def rate_text(v):
    return "-" if v is None else ("%.0f/s" % v if v >= 100 else "%.1f/s" % v)


_other = {}


def element_color(element):
    if element in ELEMENT_COLORS:
        return ELEMENT_COLORS[element]
    if element not in _other:
        _other[element] = OTHER_COLORS[len(_other) % len(OTHER_COLORS)]
    return _other[element]


def short(text, n):
    return text if len(text) <= n else text[:n - 1] + "…"


def short_config(conf, full=False):
    """'preset=box3 algorithm=tiled' -> 'box3 tiled': the values say enough."""
    return conf if full else re.sub(r"\b(preset|algorithm)=", "", conf)


def failed_text(note, n):
    note = re.sub(r"^\s*failed\s*:\s*", "", note or "") or "no value"
    return "failed: " + short(note, n)


def whiskers(v, lo, hi):
    """Whisker lengths below and above v; none where a quartile is missing."""
    if v is None or lo is None or hi is None:
        return (0.0, 0.0)
    return (max(0.0, v - lo), max(0.0, hi - v))


_widths = {}


def label_width_in(fig, text):
    """Width of a value label as Agg draws it, in inches."""
    if text not in _widths:
        t = fig.text(0, 0, text, fontsize=SMALL_PT)
        _widths[text] = t.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
        t.remove()
    return _widths[text]


class Panel:
    """What one panel shows; render() picks its x scale so that every value
    label ends inside the panel, then draws."""

    def __init__(self):
        self.bars = []      # (y, value, p25, p75, colour, height, label, label x)
        self.remarks = []   # (y, text, colour)
        self.points = []    # (x, y, plot keywords)
        self.lines = []     # (x, style, y range or None)

    def bar(self, y, v, lo, hi, color, label, height=0.72, label_x=None):
        self.bars.append((y, v, lo, hi, color, height, label,
                          label_x or max(v, hi or v)))

    def failed(self, y, note, n=48):
        self.remarks.append((y, failed_text(note, n), FAIL_COLOR))

    def remark(self, y, text, color="#666666"):
        self.remarks.append((y, text, color))

    def point(self, x, y, **kw):
        if x and x > 0:
            self.points.append((x, y, kw))

    def line(self, x, style, span=None):
        if x and x > 0:
            self.lines.append((x, style, span))

    def render(self, ax, ratio):
        """Draws into ax; True if the x axis is logarithmic."""
        vals = [b[1] for b in self.bars] + [b[7] for b in self.bars] + \
            [p[0] for p in self.points] + [x for x, _, _ in self.lines]
        vals = [v for v in vals if v and v > 0]
        if not vals:
            ax.set_xlim(0, 1)
            lo, log = 0.0, False
        else:
            log = max(vals) / min(vals) > ratio
            lo = min(vals) / 1.6 if log else 0.0
        width_in = ax.get_position().width * ax.figure.get_figwidth()

        def share(text):
            # the part of the panel a label takes, at most 0.7
            return min(0.7, (label_width_in(ax.figure, text) + 0.05) / width_in)

        if vals and log:
            ax.set_xscale("log")
            span = max(math.log(v / lo) for v in vals) * 1.04
            for b in self.bars:
                span = max(span, math.log(b[7] * 1.12 / lo) / (1 - share(b[6])))
            ax.set_xlim(lo, lo * math.exp(span))
        elif vals:
            hi = max(vals) * 1.05
            for b in self.bars:
                hi = max(hi, b[7] / (1 - share(b[6]) - 0.015))
            ax.set_xlim(0, hi)
        left, right = ax.get_xlim()

        def after(x):
            return x * 1.12 if log else x + 0.015 * (right - left)

        for y, v, p25, p75, color, height, label, lx in self.bars:
            e = whiskers(v, p25, p75)
            ax.barh(y, v - lo, left=lo, height=height, color=color,
                    xerr=[[e[0]], [e[1]]],
                    error_kw=dict(lw=0.7, capsize=1.5, ecolor="#333333"))
            ax.text(after(lx), y, label, va="center", fontsize=SMALL_PT, color="#222222")
        for y, text, color in self.remarks:
            ax.text(after(left) if log else after(0), y, text, va="center",
                    fontsize=SMALL_PT, color=color, style="italic")
        for x, y, kw in self.points:
            ax.plot([x], [y], ls="none", zorder=5, **kw)
        for x, style, span in self.lines:
            if span:
                ax.vlines(x, span[0], span[1], colors="black", linestyles=style,
                          lw=1.0, zorder=4)
            else:
                ax.axvline(x, color="black", lw=0.9, ls=style, zorder=4)
        return log


class Floors:
    """The floor section by format, size and configuration."""

    def __init__(self, rows):
        self.d = {}
        for r in rows:
            if r.s("section") == "floor":
                self.d.setdefault((r.fmt, r.size, r.s("configuration")), r)

    def us(self, fmt, size, name):
        r = self.d.get((fmt, size, name))
        return r.n("median_us") if r else None

    def fps(self, fmt, size, name):
        r = self.d.get((fmt, size, name))
        if r is None:
            return None
        f = r.n("fps")
        if f is None and r.n("median_us"):
            f = 1e6 / r.n("median_us")
        return f


def line_handle(style, label, color="black"):
    import matplotlib.lines as mlines
    return mlines.Line2D([], [], color=color, ls=style, lw=1.0, label=label)


# ---- sections ------------------------------------------------------------------
# A section says what its rows are (labels: text, colour, bold; y positions),
# how many panels it has and how many lines their titles take; draw_panel fills
# one panel. The layout (place_section) is shared.


class Section:
    title = ""
    title_lines = 1
    footnote = ""
    npanels = 0
    panel_in = PANEL_IN      # the narrowest panel that keeps its labels legible

    def ylabels(self):
        return []          # [(text, color, bold)]

    def yticks(self):
        return list(range(len(self.ylabels())))

    def rows_height(self):
        """The height of the bars' area, in rows."""
        return len(self.ylabels())

    def handles(self):
        return []

    def separators(self):
        return []          # y of the lines between groups of rows


class GpuSection(Section):
    title = ("Element on GPU-resident frames: GPU time over the shader copy of the "
             "same frame (median of per-round ratios, whiskers p25-p75); beside each "
             "bar its median time")
    title_lines = 3

    def __init__(self, rows, floors, args):
        self.floors = floors
        self.args = args
        inc = re.compile(args.match) if args.match else None
        exc = re.compile(args.exclude) if args.exclude else None
        self.cells = {}      # (fmt, size, element, config) -> Row
        self.drawn = set()   # line styles drawn, for the legend
        self.aa = {}         # (fmt, size, element, base config) -> Row
        configs = []         # (element, config), CSV order
        for r in rows:
            if r.s("section") != "gpu" or not r.size:
                continue
            if (args.formats and r.fmt not in args.formats) or \
                    (args.sizes and r.size not in args.sizes):
                continue
            el, conf = r.s("element"), r.s("configuration")
            whole = "%s %s" % (el, conf)
            if (inc and not inc.search(whole)) or (exc and exc.search(whole)):
                continue
            if conf.endswith(AA):
                self.aa.setdefault((r.fmt, r.size, el, conf[:-len(AA)]), r)
                continue
            if (el, conf) not in configs:
                configs.append((el, conf))
            self.cells.setdefault((r.fmt, r.size, el, conf), r)
        # grouped by element, the CSV's order otherwise
        first, order = {}, {}
        for i, c in enumerate(configs):
            first.setdefault(c[0], i)
            order[c] = i
        self.configs = sorted(configs, key=lambda c: (first[c[0]], order[c]))
        self.panels = sorted({(k[0], k[1]) for k in self.cells},
                             key=lambda p: (size_key(p[1]), format_key(p[0])))
        self.npanels = len(self.panels)
        if any(k[:2] == p for k in self.aa for p in self.panels):
            self.title_lines = 4
        keys = {self.metric(p)[0] for p in self.panels}
        if keys == {"x_copy"}:
            self.title = self.title.replace("the shader copy", "vkCmdCopyBuffer")
        elif keys == {"median_us"}:
            self.title = ("Element on GPU-resident frames: GPU time (median, whiskers "
                          "p25-p75), with the copy floors of the same frame")

    def ylabels(self):
        return [(short(short_config(c, self.args.full_labels), self.args.label_chars),
                 element_color(el), False) for el, c in self.configs]

    def separators(self):
        return [y - 0.5 for y in range(1, len(self.configs))
                if self.configs[y][0] != self.configs[y - 1][0]]

    def metric(self, panel):
        """(value key, axis label, lines [(x, style)]) of a panel."""
        fmt, size = panel
        rs = [r for k, r in self.cells.items() if k[:2] == panel]
        copy = self.floors.us(fmt, size, "vkCmdCopyBuffer")
        shader = self.floors.us(fmt, size, "shader copy")
        if copy and shader:
            q = copy / shader
        else:
            # the floors' ratio from the rows that carry both ratios
            qs = sorted(r.n("x_shader") / r.n("x_copy") for r in rs
                        if r.n("x_shader") and r.n("x_copy"))
            q = qs[len(qs) // 2] if qs else None
        want = self.args.metric
        if want == "x_shader" and not any(r.n("x_shader") for r in rs):
            want = "x_copy"
        if want == "x_copy" and not any(r.n("x_copy") for r in rs):
            want = "us"
        if want == "x_shader":
            return "x_shader", "time / shader copy", [(1.0, "-")] + ([(q, "--")] if q else [])
        if want == "x_copy":
            return "x_copy", "time / vkCmdCopyBuffer", [(1.0, "--")] + (
                [(1.0 / q, "-")] if q else [])
        return "median_us", "GPU time (µs)", [(v, st) for v, st in
                                               ((shader, "-"), (copy, "--")) if v]

    def draw_panel(self, ax, i):
        fmt, size = self.panels[i]
        key, xlabel, lines = self.metric(self.panels[i])
        qk = ("p25_us", "p75_us") if key == "median_us" else (key + "_p25", key + "_p75")
        cells = [(y, el, self.cells.get((fmt, size, el, conf)),
                  self.aa.get((fmt, size, el, conf)))
                 for y, (el, conf) in enumerate(self.configs)]
        pn = Panel()
        aa_text = None
        for y, el, r, a in cells:
            if r is None:
                continue
            v = r.n(key)
            if not v or v <= 0:
                pn.failed(y, r.s("note"))
                continue
            pn.bar(y, v, r.n(qk[0]), r.n(qk[1]), element_color(el),
                   us_text(r.n("median_us")))
            if a is not None and a.n(key):
                pn.point(a.n(key), y, marker="D", ms=4, mfc="white", mec="black", mew=0.8)
                aa_text = aa_text or "A/A repeat %.2fx (◇)" % (a.n(key) / v)
        for x, style in lines:
            pn.line(x, style)
            self.drawn.add(style)
        log = pn.render(ax, ratio=4.0)
        title = ["%s %s" % (fmt, size_text(size))]
        for name in ("shader copy", "vkCmdCopyBuffer"):
            if self.floors.us(fmt, size, name):
                title.append("%s %s" % (name, us_text(self.floors.us(fmt, size, name))))
        if aa_text:
            title.append(aa_text)
        title = "\n".join(title)
        ax.set_title(title, fontsize=7)
        ax.set_xlabel(xlabel + (" (log)" if log else ""), fontsize=7)

    def handles(self):
        import matplotlib.patches as mpatches
        import matplotlib.lines as mlines
        h = [mpatches.Patch(color=element_color(el), label=el)
             for el in dict.fromkeys(el for el, _ in self.configs)]
        if "-" in self.drawn:
            h.append(line_handle("-", "shader copy (the bandwidth floor)"))
        if "--" in self.drawn:
            h.append(line_handle("--", "vkCmdCopyBuffer (the copy floor)"))
        if self.aa:
            h.append(mlines.Line2D([], [], marker="D", ms=4, mfc="white", mec="black",
                                   ls="none", label="A/A: the configuration repeated"))
        return h


def vktile_config_of(r):
    """The vktile configuration (element first) that a peer row names."""
    for key in ("vktile_configuration", "ref_algorithm"):
        v = r.s(key)
        if v.split(" ")[0] in VKTILE_ELEMENTS:
            return v
    m = re.search(r"vktile: *((?:%s)[^;]*)" % "|".join(VKTILE_ELEMENTS), r.s("note"))
    if m:
        return m.group(1).strip()
    # else from the operation's name, as peers.py names them
    op = r.s("configuration")
    m = re.search(r"\b([35])x\1 box", op)
    if m:
        return "tiledconv preset=box%s algorithm=tiled" % m.group(1)
    m = re.search(r"sigma ([0-9.]+)", op)
    if m:
        return "gaussblur sigma=%s algorithm=auto" % m.group(1)
    return "?"


class PeerSection(Section):
    panel_in = 4.2
    title = ("Peers on the same GPU (OpenCV on the CPU), RGBA: time per frame under the "
             "vktile configuration each matches; beside the bar: times vktile, and "
             "times its own copy")

    def __init__(self, rows, floors, args):
        self.floors = floors
        self.args = args
        skipped, self.rows = [], []
        for r in rows:
            if r.s("section") != "peer":
                continue
            name = ("%s %s" % (r.s("element"), r.s("configuration"))).strip()
            if r.n("median_us") is None:
                skipped.append("%s: %s" % (name, short(r.s("note") or "no time", 80)))
                continue
            if not r.size:
                # vktile-bench leaves the size empty when it ran no such vktile row
                skipped.append("%s: %s, no vktile row of its size in this run"
                               % (name, us_text(r.n("median_us"))))
                continue
            if not args.sizes or r.size in args.sizes:
                self.rows.append(r)
        if skipped:
            self.footnote = "not shown: " + "; ".join(dict.fromkeys(skipped))
            if not self.rows:
                log("no peer row has a time: " + self.footnote)
        self.vk = {}
        for r in rows:
            if r.s("section") == "gpu" and r.fmt == "RGBA" and r.size:
                self.vk.setdefault(("%s %s" % (r.s("element"), r.s("configuration")),
                                    r.size), r)
        self.sizes = sorted({r.size for r in self.rows}, key=size_key)
        self.npanels = len(self.sizes)
        # a row per vktile configuration, then one per peer operation naming it
        self.labels = []
        for conf in dict.fromkeys(vktile_config_of(r) for r in self.rows):
            self.labels.append(("vktile", conf, "", ""))
            for r in self.rows:
                lab = ("peer", conf, r.s("element"), r.s("configuration"))
                if vktile_config_of(r) == conf and lab not in self.labels:
                    self.labels.append(lab)

    def ylabels(self):
        out = []
        for kind, conf, peer, op in self.labels:
            if kind == "vktile":
                out.append(("vktile " + short_config(conf, self.args.full_labels),
                            element_color(conf.split(" ")[0]), True))
            else:
                out.append(("%s: %s" % (peer, op), PEER_COLORS.get(peer, "#555555"),
                            False))
        return [(short(t, self.args.label_chars + 8), c, b) for t, c, b in out]

    def separators(self):
        return [y - 0.5 for y, l in enumerate(self.labels) if y and l[0] == "vktile"]

    def draw_panel(self, ax, i):
        size = self.sizes[i]
        shader = self.floors.us("RGBA", size, "shader copy")
        copy = self.floors.us("RGBA", size, "vkCmdCopyBuffer")
        bars = []    # (y, row or None, colour, text after the time)
        for y, (kind, conf, peer, op) in enumerate(self.labels):
            vk = self.vk.get((conf, size))
            if kind == "vktile":
                bars.append((y, vk, element_color(conf.split(" ")[0]), ""))
                continue
            r = next((r for r in self.rows if r.size == size and
                      r.s("element") == peer and r.s("configuration") == op), None)
            if r is None:
                continue
            t = []
            if vk is not None and vk.n("median_us"):
                t.append("%.1fx vktile" % (r.n("median_us") / vk.n("median_us")))
            if r.n("x_copy"):
                t.append("%.1fx its copy" % r.n("x_copy"))
            bars.append((y, r, PEER_COLORS.get(peer, "#777777"), " · ".join(t)))
        pn = Panel()
        for y, r, color, extra in bars:
            if r is None:
                pn.remark(y, "no RGBA %s row of this configuration" % size_text(size))
                continue
            v = r.n("median_us")
            if not v or v <= 0:
                pn.failed(y, r.s("note"))
                continue
            pn.bar(y, v, r.n("p25_us"), r.n("p75_us"), color,
                   us_text(v) + (" · " + extra if extra else ""))
        pn.line(shader, "-")
        pn.line(copy, "--")
        log = pn.render(ax, ratio=4.0)
        ax.set_title("RGBA %s" % size_text(size), fontsize=7)
        ax.set_xlabel("time per frame (µs%s)" % (", log" if log else ""), fontsize=7)

    def handles(self):
        return [line_handle("-", "vktile's shader copy of the frame"),
                line_handle("--", "vktile's vkCmdCopyBuffer of the frame")]


class SysmemSection(Section):
    panel_in = 3.6
    title = ("System memory in and out, wall clock: frames/s (median, whiskers p25-p75) "
             "of each element, the upload-download round trip and the PCIe floors of "
             "its format")
    FLOORS = (("PCIe upload then download", ":"),
              ("PCIe upload and download overlapped", "-."))

    def __init__(self, rows, floors, args):
        self.floors = floors
        self.args = args
        self.cells = {}
        labels = []   # (fmt, element, config)
        for r in rows:
            if r.s("section") != "sysmem" or not r.size:
                continue
            if (args.sizes and r.size not in args.sizes) or \
                    (args.formats and r.fmt not in args.formats):
                continue
            lab = (r.fmt, r.s("element"), r.s("configuration"))
            if lab not in labels:
                labels.append(lab)
            self.cells.setdefault((r.size,) + lab, r)
        # by format; the round trip closes its format's group
        order = {l: i for i, l in enumerate(labels)}
        self.labels = sorted(labels, key=lambda l: (format_key(l[0]), l[1] == ROUNDTRIP,
                                                    order[l]))
        self.sizes = sorted({k[0] for k in self.cells}, key=size_key)
        self.npanels = len(self.sizes)

    def ylabels(self):
        out = []
        for fmt, el, conf in self.labels:
            if el == ROUNDTRIP:
                out.append(("%s  round trip (upload ! download)" % fmt, "#555555", False))
            else:
                text = "%s  %s %s" % (fmt, el, short_config(conf, self.args.full_labels))
                out.append((short(text.rstrip(), self.args.label_chars + 12),
                            element_color(el), False))
        return out

    def separators(self):
        return [y - 0.5 for y in range(1, len(self.labels))
                if self.labels[y][0] != self.labels[y - 1][0]]

    def draw_panel(self, ax, i):
        size = self.sizes[i]
        fmts = list(dict.fromkeys(l[0] for l in self.labels))
        pn = Panel()
        for y, lab in enumerate(self.labels):
            r = self.cells.get((size,) + lab)
            if r is None:
                continue
            v = r.n("fps")
            if not v or v <= 0:
                pn.failed(y, r.s("note"))
                continue
            rt = lab[1] == ROUNDTRIP
            t = [rate_text(v)]
            if not rt and r.n("x_roundtrip") is not None:
                t.append("%.2fx round trip" % r.n("x_roundtrip"))
            if not rt and r.n("x_pcie") is not None:
                t.append("%.2fx PCIe" % r.n("x_pcie"))
            pn.bar(y, v, r.n("fps_p25"), r.n("fps_p75"),
                   "#AAAAAA" if rt else element_color(lab[1]), " · ".join(t))
        for f in fmts:
            ys = [y for y, l in enumerate(self.labels) if l[0] == f]
            for name, style in self.FLOORS:
                pn.line(self.floors.fps(f, size, name), style,
                        (min(ys) - 0.45, max(ys) + 0.45))
        log = pn.render(ax, ratio=8.0)
        ax.set_title(size_text(size), fontsize=7)
        ax.set_xlabel("frames/s%s" % (" (log)" if log else ""), fontsize=7)

    def handles(self):
        return [line_handle(style, name + " (its format)") for name, style in self.FLOORS]


class ChainSection(Section):
    title = ("Chains on GPU-resident frames: frames/s (wall clock), and the rate the "
             "summed GPU time of the elements alone would allow")
    npanels = 1
    panel_in = 6.0

    def __init__(self, rows, args):
        self.args = args
        self.rows = [r for r in rows if r.s("section") == "chain"
                     and (not args.sizes or r.size in args.sizes)
                     and (not args.formats or r.fmt in args.formats)]
        self.texts = []
        for r in self.rows:
            lines = textwrap.wrap(r.s("configuration") or r.s("element") or "?",
                                  args.label_chars + 24) or ["?"]
            lines.append("%s %s" % (r.fmt, size_text(r.size)))
            self.texts.append("\n".join(lines))
        # a row is as tall as its label
        self.heights = [max(1.0, 0.72 * (t.count("\n") + 1)) for t in self.texts]
        self.ys, y = [], 0.0
        for hgt in self.heights:
            self.ys.append(y + hgt / 2 - 0.5)
            y += hgt
        self.npanels = 1 if self.rows else 0

    def ylabels(self):
        return [(t, "#222222", False) for t in self.texts]

    def yticks(self):
        return self.ys

    def rows_height(self):
        return sum(self.heights)

    def separators(self):
        return [self.ys[i] + self.heights[i] / 2 for i in range(len(self.ys) - 1)]

    def draw_panel(self, ax, i):
        pn = Panel()
        for y, r in zip(self.ys, self.rows):
            v, g = r.n("fps"), r.n("gpu_us")
            if not v or v <= 0:
                pn.failed(y, r.s("note"), 60)
                continue
            t = [rate_text(v)]
            right = max(v, r.n("fps_p75") or v)
            if g:
                pn.point(1e6 / g, y, marker="|", ms=11, mew=2, color="#C44E52")
                t.append("GPU time %s (%s)" % (us_text(g), rate_text(1e6 / g)))
                right = max(right, 1e6 / g)
            pn.bar(y, v, r.n("fps_p25"), r.n("fps_p75"), "#4C72B0", " · ".join(t),
                   height=0.6, label_x=right)
        pn.line(self.args.chain_target, "--")
        log = pn.render(ax, ratio=8.0)
        ax.set_xlabel("frames/s%s" % (" (log)" if log else ""), fontsize=7)

    def handles(self):
        import matplotlib.lines as mlines
        h = [mlines.Line2D([], [], marker="|", ms=9, mew=2, color="#C44E52", ls="none",
                           label="1 / summed GPU time of the elements")]
        if self.args.chain_target:
            h.append(line_handle("--", "target %g frames/s (4K RGBA)"
                                 % self.args.chain_target))
        return h


# ---- layout ---------------------------------------------------------------------

def text_width_in(fig, labels, fontsize):
    """Widest of the labels (text, colour, bold), in inches, as Agg draws them."""
    r = fig.canvas.get_renderer()
    w = 0.0
    for text, _, bold in labels:
        t = fig.text(0, 0, text, fontsize=fontsize, fontweight="bold" if bold else "normal")
        w = max(w, t.get_window_extent(r).width / fig.dpi)
        t.remove()
    return w


def wrapped_title(s, width):
    # about 0.6 em per character of the bold 8.5 pt title
    return textwrap.wrap(s.title, max(40, int((width - 0.3) * 72 / (8.5 * 0.6))))


def section_height(s, width):
    h = 0.12 + 0.18 * len(wrapped_title(s, width)) + 0.3  # title, legend
    h += LINE_IN * s.title_lines + 0.08                 # panel titles
    h += ROW_IN * s.rows_height() + 0.45                # bars, ticks and x label
    h += (0.25 if s.footnote else 0) + 0.25             # footnote, gap
    return h


def place_section(fig, s, top, left, width, height):
    """Draws section s with its top `top` inches below the figure's top."""
    W, H = width, height

    def fy(y):
        return 1 - y / H

    lines = wrapped_title(s, W)
    fig.text(0.12 / W, fy(top + 0.05), "\n".join(lines), fontsize=8.5,
             fontweight="bold", va="top", ha="left", linespacing=1.25)
    top += 0.18 * (len(lines) - 1)
    y0 = top + 0.6 + LINE_IN * s.title_lines + 0.08
    ah = ROW_IN * s.rows_height()
    n = s.npanels
    pw = (W - left - RIGHT_IN - GAP_IN * (n - 1)) / n
    axes = []
    for i in range(n):
        rect = [(left + i * (pw + GAP_IN)) / W, fy(y0 + ah), pw / W, ah / H]
        axes.append(fig.add_axes(rect, sharey=axes[0] if axes else None))
    labels = s.ylabels()
    ticks = s.yticks()
    for i, ax in enumerate(axes):
        s.draw_panel(ax, i)
        ax.grid(axis="x", which="major", lw=0.3, color="#BBBBBB")
        ax.set_axisbelow(True)
        ax.tick_params(axis="x", labelsize=SMALL_PT)
        ax.tick_params(axis="y", length=0, labelleft=(i == 0))
        for y in s.separators():
            ax.axhline(y, color="#888888", lw=0.5)
    ax0 = axes[0]
    ax0.set_yticks(ticks)
    ax0.set_yticklabels([t for t, _, _ in labels], fontsize=LABEL_PT)
    for t, (_, color, bold) in zip(ax0.get_yticklabels(), labels):
        t.set_color(color)
        if bold:
            t.set_fontweight("bold")
    ax0.set_ylim(s.rows_height() - 0.5, -0.5)
    # after the panels: a section may leave out what none of them drew
    handles = s.handles()
    if handles:
        fig.legend(handles=handles, loc="center left", ncol=len(handles),
                   bbox_to_anchor=(0.12 / W, fy(top + 0.45)), fontsize=SMALL_PT + 0.5,
                   frameon=False, borderaxespad=0, handlelength=2.2, columnspacing=1.5)
    if s.footnote:
        fig.text(0.12 / W, fy(y0 + ah + 0.5), short(s.footnote, 260), fontsize=SMALL_PT,
                 color="#555555", va="top", ha="left")


def parse_list(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def parse_sizes(text):
    out = []
    for t in parse_list(text):
        try:
            w, h = t.lower().split("x")
            out.append((int(w), int(h)))
        except ValueError:
            raise argparse.ArgumentTypeError("not WxH: %r" % t)
    return out


def main():
    ap = argparse.ArgumentParser(
        description="Draw docs/benchmark.png from the CSV of vktile-bench --csv: "
        "element GPU times against the copy floors, peers, system-memory "
        "frames/s against the round trip and the PCIe floors, and chains. "
        "Sections without rows are left out.",
        epilog="The title is --title, else 'vktile on DEVICE' when the CSV has a "
        "row of section 'device' (DEVICE in its element cell) or a comment line "
        "'# device: DEVICE', else 'vktile on the GPU'. For the "
        "README, fewer panels read better, e.g. --formats RGBA,NV12 or "
        "--sizes 3840x2160.",
        formatter_class=HelpFormatter)
    ap.add_argument("csv", metavar="CSV", help="vktile-bench's CSV")
    ap.add_argument("--out", default="docs/benchmark.png", metavar="PNG",
                    help="PNG to write")
    ap.add_argument("--peers", metavar="CSV",
                    help="bench/peers.py's CSV, used instead of the peer rows of the "
                    "benchmark's CSV")
    ap.add_argument("--title", help="figure title")
    ap.add_argument("--formats", type=parse_list, metavar="LIST",
                    help="only these formats, comma-separated (default: all)")
    ap.add_argument("--sizes", type=parse_sizes, metavar="WxH,...",
                    help="only these sizes (default: all)")
    ap.add_argument("--match", metavar="REGEX",
                    help="GPU section: only configurations whose 'element "
                    "configuration' matches (default: all)")
    ap.add_argument("--exclude", metavar="REGEX",
                    help="GPU section: leave out the configurations that match")
    ap.add_argument("--metric", choices=("x_shader", "x_copy", "us"), default="x_shader",
                    help="GPU section: ratio to the shader copy, to vkCmdCopyBuffer, or "
                    "the time in µs (falls back where the CSV lacks it)")
    ap.add_argument("--chain-target", type=float, default=1000.0, metavar="FPS",
                    help="dashed line on the chain panel (0: none)")
    ap.add_argument("--label-chars", type=int, default=40, metavar="N",
                    help="row labels longer than this are cut")
    ap.add_argument("--full-labels", action="store_true",
                    help="keep 'preset=' and 'algorithm=' in the row labels")
    ap.add_argument("--width", type=float, default=0, metavar="INCHES",
                    help="figure width (0: from the number of panels)")
    ap.add_argument("--dpi", type=int, default=110, help="PNG resolution")
    args = ap.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        log("matplotlib is needed (%s); on Debian: apt-get install python3-matplotlib"
            % exc)
        return 2
    try:
        rows, device = read_csv(args.csv)
        if args.peers:
            rows = [r for r in rows if r.s("section") != "peer"] + \
                peer_rows_from_peers_csv(args.peers)
    except (OSError, csv.Error) as exc:
        log("cannot read: %s" % exc)
        return 1
    try:
        for rx in (args.match, args.exclude):
            if rx:
                re.compile(rx)
    except re.error as exc:
        log("bad regular expression: %s" % exc)
        return 1

    floors = Floors(rows)
    sections = [GpuSection(rows, floors, args), PeerSection(rows, floors, args),
                SysmemSection(rows, floors, args), ChainSection(rows, args)]
    sections = [s for s in sections if s.npanels > 0 and s.rows_height() > 0]
    title = args.title or ("vktile on %s" % device if device else "vktile on the GPU")

    fig = plt.figure(figsize=(10, 10), dpi=args.dpi)
    lefts = [text_width_in(fig, s.ylabels(), LABEL_PT) + 0.22 for s in sections]
    width = args.width or max([10.0] + [l + s.npanels * s.panel_in + GAP_IN * (s.npanels - 1)
                                        + RIGHT_IN for s, l in zip(sections, lefts)])
    height = 0.55 + sum(section_height(s, width) for s in sections) if sections else 2.0
    fig.set_size_inches(width, height)
    fig.text(0.5, 1 - 0.12 / height, title, fontsize=12, fontweight="bold",
             ha="center", va="top")
    top = 0.5
    for s, left in zip(sections, lefts):
        place_section(fig, s, top, left, width, height)
        top += section_height(s, width)
    if not sections:
        log("no gpu, peer, sysmem or chain rows in %s" % args.csv)
        fig.text(0.5, 0.4, "no benchmark rows in %s" % args.csv, ha="center")
    try:
        fig.savefig(args.out, dpi=args.dpi, facecolor="white")
    except OSError as exc:
        log("cannot write %s: %s" % (args.out, exc))
        return 1
    log("wrote %s (%s)" % (args.out, ", ".join(type(s).__name__[:-7].lower()
                                             for s in sections) or "empty"))
    return 0


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    def _get_help_string(self, action):
        # "(default: None)" and "(default: False)" say nothing
        if action.nargs == 0 or action.default is None:
            return action.help
        return super()._get_help_string(action)


if __name__ == "__main__":
    sys.exit(main())
