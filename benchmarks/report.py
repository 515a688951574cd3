"""Turn pytest-benchmark JSON (benchmarks, --benchmark-json) into scaling charts and a claims report.

    .venv/bin/python -m benchmarks.report results/bench/benchmarks.json [more.json ...] --out results/bench

Writes OUT/charts/*.png (median time against size, log-log, one line per idiom or op) and OUT/report.md: per torch
version and device, the speed claims of seed articles 000 and 003 with the numbers, the peak-memory table and the
bandwidth of every copying op relative to a plain memory copy timed in the same run.
"""
from __future__ import annotations

import argparse
import json
import math
import re
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

SAME = 1.10       # "about the same": slowest median / fastest median <= 1.10
FASTER = 1.05     # "faster": the other median is more than 5% higher
ARTICLE_GRID = range(15)  # 000 times 2**0 ... 2**14
BANDWIDTH_MIN_EXP = 20

NDARRAY = ["detach().numpy().copy()", "clone().detach().numpy()", "detach().clone().numpy()"]
SLOW_PAIR = ["new_tensor()", "clone().detach()"]
FAST_TRIO = ["empty_like().copy_()", "torch.tensor()", "detach().clone()"]
ORDER = ["detach().cpu().numpy()", "cpu().detach().numpy()", "cpu().data.numpy()"]


# ---- loading ---------------------------------------------------------------------------------------------------------
def load(paths) -> list[dict]:
    """Every benchmark as a flat record: torch version, device, kind, op, dtype, exp, median (s), extra_info."""
    rows = []
    for path in paths:
        doc = json.loads(Path(path).read_text())
        torch_version = doc["machine_info"].get("torch_version", "unknown")
        threads = doc["machine_info"].get("torch_num_threads")
        for b in doc["benchmarks"]:
            info = b.get("extra_info", {})
            rows.append({**info, "torch": info.get("torch_version", torch_version), "name": b["name"],
                         "group": b["group"], "exp": int(round(math.log2(info["numel"]))),
                         "median": b["stats"]["median"], "min": b["stats"]["min"], "source": str(path),
                         "threads": threads})
    return rows


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_bytes(n: float) -> str:
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if abs(n) >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{int(n)} B"


def medians(rows, labels) -> dict[int, dict[str, float]]:
    """{exp: {label: median}} for the sizes at which every label was timed."""
    by_exp = defaultdict(dict)
    for r in rows:
        if r["op"] in labels:
            by_exp[r["exp"]][r["op"]] = r["median"]
    return {e: v for e, v in sorted(by_exp.items()) if all(label in v for label in labels)}


# ---- charts ----------------------------------------------------------------------------------------------------------
def chart(rows, title: str, path: Path):
    lines = defaultdict(list)
    for r in sorted(rows, key=lambda r: r["numel"]):
        lines[r["op"]].append((r["numel"], r["median"]))
    fig, ax = plt.subplots(figsize=(9, 5.5))
    colors = plt.get_cmap("tab10" if len(lines) <= 10 else "tab20").colors
    for k, (label, points) in enumerate(sorted(lines.items())):
        xs, ys = zip(*points)
        style = {"color": colors[k % len(colors)], "linestyle": ("-", "--", ":")[k // len(colors) % 3]}
        if label.startswith("memcpy"):
            style = {"color": "black", "linewidth": 2.5, "linestyle": "--"}
        ax.plot(xs, ys, marker="o", markersize=3, label=label, **style)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of elements")
    ax.set_ylabel("median time per call [s]")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6 if len(lines) > 12 else 8, ncol=2 if len(lines) > 12 else 1, loc="upper left",
              bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")


def write_charts(rows, out: Path) -> list[Path]:
    paths = []
    for (torch_v, device), sel in split(rows, "torch", "device").items():
        idioms = [r for r in sel if r["bench"] == "idiom"]
        for group, grp in split(idioms, "idiom_group").items():
            paths.append(chart(grp, f"{group[0]} (float32) - torch {torch_v}, {device}",
                               out / "charts" / f"{slug(torch_v)}-{device}-{slug(group[0])}.png"))
        spec = [r for r in sel if r["bench"] in ("spec", "memcpy")]
        for (dtype,), by_dtype in split(spec, "dtype").items():
            memcpy = [r for r in by_dtype if r["bench"] == "memcpy"]
            for (spec_file,), grp in split([r for r in by_dtype if r["bench"] == "spec"], "spec_file").items():
                paths.append(chart(grp + memcpy, f"{spec_file} ({dtype}) - torch {torch_v}, {device}",
                                   out / "charts" / f"{slug(torch_v)}-{device}-{dtype}-{slug(Path(spec_file).stem)}.png"))
    return paths


def split(rows, *keys) -> dict[tuple, list]:
    out = defaultdict(list)
    for r in rows:
        out[tuple(r.get(k) for k in keys)].append(r)
    return dict(sorted(out.items(), key=lambda kv: tuple(str(x) for x in kv[0])))


# ---- claims ----------------------------------------------------------------------------------------------------------
def verdict(held: int, total: int) -> str:
    if total == 0:
        return "not measured"
    return "holds" if held == total else ("does not hold" if held == 0 else f"holds at {held} of {total} sizes")


def timing_table(meds: dict, labels: list[str]) -> list[str]:
    lines = ["| n | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for exp, v in meds.items():
        best = min(v[label] for label in labels)
        lines.append(f"| 2**{exp} | " + " | ".join(
            f"{fmt_time(v[label])} ({v[label] / best:.2f}x)" for label in labels) + " |")
    return lines


def claims(rows) -> list[str]:
    out = []
    in_grid = [r for r in rows if r["exp"] in ARTICLE_GRID]

    meds = medians(in_grid, NDARRAY)
    same = sum(max(v.values()) / min(v.values()) <= SAME for v in meds.values())
    fastest = defaultdict(int)
    for v in meds.values():
        fastest[min(v, key=v.get)] += 1
    out += ["### 000: three routes to an independent ndarray",
            "The article times detach().numpy().copy(), clone().detach().numpy() and detach().clone().numpy() "
            "with perfplot over 2**0 ... 2**14 and offers them as equivalent choices; its text ranks none of them "
            "(the chart is not in our copy). Judged here: the three cost about the same "
            f"(slowest/fastest median <= {SAME:.2f}).",
            f"**Verdict: {verdict(same, len(meds))}.** Fastest route by size: "
            + ", ".join(f"{k} {n}x" for k, n in sorted(fastest.items(), key=lambda kv: -kv[1])) + ".", ""]
    out += timing_table(meds, NDARRAY) + [""]

    meds = medians(in_grid, SLOW_PAIR + FAST_TRIO)
    faster = sum(max(v[k] for k in FAST_TRIO) * FASTER < min(v[k] for k in SLOW_PAIR) for v in meds.values())
    trio_same = sum(max(v[k] for k in FAST_TRIO) / min(v[k] for k in FAST_TRIO) <= SAME for v in meds.values())
    out += ["### 000: five ways to copy a tensor",
            "Claim A: empty_like().copy_(), torch.tensor() and detach().clone() are clearly faster than "
            "new_tensor() and clone().detach() (judged: the slowest of the three is more than "
            f"{(FASTER - 1) * 100:.0f}% faster than the faster of the two, at each size).",
            f"**Verdict A: {verdict(faster, len(meds))}.**",
            "Claim B: those three take almost the same time, any of them will do "
            f"(judged: slowest/fastest median <= {SAME:.2f} at each size).",
            f"**Verdict B: {verdict(trio_same, len(meds))}.**", ""]
    out += timing_table(meds, SLOW_PAIR + FAST_TRIO) + [""]

    meds = medians(rows, ORDER)
    not_slower = sum(v[ORDER[0]] <= v[ORDER[1]] * FASTER for v in meds.values())
    close = sum(max(v[ORDER[0]], v[ORDER[1]]) / min(v[ORDER[0]], v[ORDER[1]]) <= SAME for v in meds.values())
    out += ["### 003: detach().cpu().numpy() against cpu().detach().numpy() (source requires grad)",
            "Claim A: use detach().cpu().numpy(), since cpu() before detach() first records a graph edge "
            f"(judged: detach-first is not more than {(FASTER - 1) * 100:.0f}% slower than cpu-first, at each size).",
            f"**Verdict A: {verdict(not_slower, len(meds))}.**",
            f"Claim B: in practice the order makes hardly any difference (judged: within {SAME:.2f}x at each size).",
            f"**Verdict B: {verdict(close, len(meds))}.** cpu().data.numpy() is shown for comparison.", ""]
    out += timing_table(meds, ORDER) + [""]
    return out


def memory_table(rows) -> list[str]:
    idioms = [r for r in rows if r["bench"] == "idiom" and "mem_peak" in r]
    if not idioms:
        return ["No memory measurements in this run."]
    top = max(r["exp"] for r in idioms)
    exps = sorted({e for e in (14, top) if any(r["exp"] == e for r in idioms)})
    lines = ["| idiom | n | peak allocated during the call | kept by the result | peak / source bytes | method |",
             "|---|---|---|---|---|---|"]
    for r in sorted((r for r in idioms if r["exp"] in exps), key=lambda r: (r["idiom_group"], r["exp"])):
        lines.append(f"| {r['op']} | 2**{r['exp']} | {fmt_bytes(r['mem_peak'])} | {fmt_bytes(r['mem_kept'])} | "
                     f"{r['mem_peak'] / r['source_bytes']:.2f} | {r['mem_method']} |")
    by_op = {r["op"]: r for r in idioms if r["exp"] == top}
    if all(k in by_op for k in NDARRAY):
        ratios = {k: by_op[k]["mem_peak"] / by_op[k]["source_bytes"] for k in NDARRAY}
        extra = ratios["detach().clone().numpy()"] > 1.05 * min(ratios.values())
        lines += ["", "000 asks whether detach().clone().numpy() costs extra memory. At 2**%d elements its peak is "
                  "%.2fx the source's bytes, against %.2fx for detach().numpy().copy() and %.2fx for "
                  "clone().detach().numpy(): **%s**." % (
                      top, ratios["detach().clone().numpy()"], ratios["detach().numpy().copy()"],
                      ratios["clone().detach().numpy()"],
                      "it does cost more" if extra else "no extra memory beyond the one copy every independent "
                                                        "ndarray needs")]
    return lines


def bandwidth_table(rows) -> list[str]:
    base = {(r["dtype"], r["exp"]): r for r in rows if r["bench"] == "memcpy"}
    lines = ["| op | dtype | n | bytes moved | median | GB/s | memcpy GB/s | ratio to memcpy |",
             "|---|---|---|---|---|---|---|---|"]
    found = []
    for r in rows:
        b = base.get((r.get("dtype"), r["exp"]))
        if r["bench"] == "spec" and r.get("result_kind") == "copy" and r["exp"] >= BANDWIDTH_MIN_EXP and b:
            bw, bw_base = r["bytes_moved"] / r["median"], b["bytes_moved"] / b["median"]
            found.append((bw / bw_base, r, bw, bw_base))
    for ratio, r, bw, bw_base in sorted(found, key=lambda t: (t[1]["exp"], t[1]["dtype"], -t[0])):
        lines.append(f"| {r['op']} | {r['dtype']} | 2**{r['exp']} | {fmt_bytes(r['bytes_moved'])} | "
                     f"{fmt_time(r['median'])} | {bw / 1e9:.2f} | {bw_base / 1e9:.2f} | {ratio:.2f} |")
    return lines if found else ["No copying op was timed at 2**%d elements or more." % BANDWIDTH_MIN_EXP]


def report(rows, charts, out: Path) -> Path:
    lines = ["# Copy benchmarks: the articles' speed claims, memory and bandwidth", "",
             "Generated by benchmarks.report from pytest-benchmark JSON; times are medians per call. "
             f"'About the same' means slowest/fastest <= {SAME:.2f}; 'faster' means more than "
             f"{(FASTER - 1) * 100:.0f}% faster.", ""]
    for (torch_v, device), sel in split(rows, "torch", "device").items():
        loads = [r["load_avg_1min"] for r in sel if "load_avg_1min" in r]
        slowdown = {r.get("injected_slowdown", 1.0) for r in sel}
        threads = sorted({str(r["threads"]) for r in sel})
        processes = sorted({str(r.get("processes", 1)) for r in sel})
        lines += [f"## torch {torch_v}, {device}", "",
                  f"{len(sel)} benchmarks, rounds pooled over {'/'.join(processes)} process(es); torch intra-op "
                  f"threads {', '.join(threads)}; highest 1-minute load average of a process "
                  f"during the run {min(loads):.2f} ... {max(loads):.2f}"
                  + (f"; **injected slowdown {sorted(slowdown)} (gate self-test, not a measurement)**"
                     if slowdown != {1.0} else "") + ".", ""]
        lines += claims(sel)
        lines += ["### Peak memory per idiom (000's question)", ""] + memory_table(sel) + [""]
        lines += [f"### Bandwidth of copying ops at 2**{BANDWIDTH_MIN_EXP} elements and more, relative to a plain "
                  "memory copy (numpy.copyto between preallocated buffers of the same bytes, same run)", "",
                  "bytes moved = bytes read + bytes written. The baseline copies between buffers it allocated once; "
                  "a torch copy also allocates its result and touches fresh pages, which is part of what a user "
                  "pays. A ratio above 1 means torch used more than one thread (or the data stayed in cache).",
                  ""] + bandwidth_table(sel) + [""]
        mine = [c for c in charts if c.name.startswith(f"{slug(torch_v)}-{device}-")]
        lines += ["### Charts", ""] + [f"- [{c.name}](charts/{c.name})" for c in mine] + [""]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="pytest-benchmark JSON files (--benchmark-json)")
    parser.add_argument("--out", default="results/bench", help="output directory (default results/bench)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    rows = load(args.json)
    charts = write_charts(rows, out)
    path = report(rows, charts, out)
    print(f"wrote {path} and {len(charts)} charts in {out / 'charts'}")


if __name__ == "__main__":
    main()
