#!/usr/bin/env python3
"""compare.py: do two runs of vktile-bench agree? Reads the CSVs that
`vktile-bench --csv` wrote and compares every ratio they share (x copy,
x shader, x ref, x round trip, x PCIe, the A/A ratios; frames/s of the chains
over their GPU bound), row by row, and prints the rows that differ by more
than the tolerance. Exit status 1 when any does, or when an A/A check of
either run is off by more than its own tolerance. Times in µs are not
compared: the GPU's speed drifts between runs, the ratios are what must
hold."""
import argparse
import csv
import sys

RATIOS = ["x_copy", "x_shader", "x_ref", "x_roundtrip", "x_pcie"]


def load(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["section"], r["element"], r["configuration"], r["format"],
                   r["width"], r["height"])
            rows[key] = r
    return rows


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--tolerance", type=float, default=0.10,
                    help="largest relative difference of a ratio (default 0.10)")
    ap.add_argument("--aa-tolerance", type=float, default=0.05,
                    help="largest A/A deviation from 1 (default 0.05)")
    args = ap.parse_args()
    a, b = load(args.first), load(args.second)
    compared, bad, worst = 0, [], (0.0, None)
    for key in sorted(set(a) & set(b)):
        ra, rb = a[key], b[key]
        columns = list(RATIOS)
        if key[0] == "chain":
            # frames/s over the GPU bound: fps * gpu_us / 1e6
            for r in (ra, rb):
                fps, gpu = number(r["fps"]), number(r["gpu_us"])
                r["x_bound"] = fps * gpu / 1e6 if fps and gpu else None
            columns.append("x_bound")
        for col in columns:
            x, y = number(ra.get(col)), number(rb.get(col))
            if x is None or y is None or x <= 0 or y <= 0:
                continue
            compared += 1
            diff = abs(y / x - 1)
            label = "%s %s %s %sx%s %s" % (key[1], key[2], key[3], key[4],
                                           key[5], col)
            if diff > worst[0]:
                worst = (diff, label)
            if diff > args.tolerance:
                bad.append((diff, label, x, y))
    aa_bad = []
    for name, rows in ((args.first, a), (args.second, b)):
        for key, r in rows.items():
            if key[0] == "aa":
                x = number(r["x_ref"])
                if x is None or abs(x - 1) > args.aa_tolerance:
                    aa_bad.append("%s: A/A %s %s %sx%s = %s" % (
                        name, key[2], key[3], key[4], key[5], r["x_ref"]))
    for diff, label, x, y in sorted(bad, reverse=True):
        print("differs by %4.1f %%: %s: %.3f vs %.3f" % (100 * diff, label, x, y))
    for line in aa_bad:
        print("not repeatable:", line)
    print("%d ratios compared; largest difference %.1f %% (%s); %d over %.0f %%; "
          "%d A/A checks off" % (compared, 100 * worst[0], worst[1], len(bad),
                                 100 * args.tolerance, len(aa_bad)))
    return 1 if bad or aa_bad or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
