"""Turn pytest-benchmark JSON (benchmarks, --benchmark-json) into scaling charts and a claims report.

    .venv/bin/python -m benchmarks.report results/bench/benchmarks.json [more.json ...] --out results/bench

Writes OUT/charts/*.png (median time against size, log-log, one line per idiom or op) and OUT/report.md: the seed
articles' speed claims judged from paired timings (--claims-ab, from `python -m benchmarks.claims_ab`), article 000's
memory question answered from a CUDA run (--cuda-json, or CUDA rows among the inputs), and per torch version and
device one run's medians of the idioms (shown, not judged), the peak-memory table and the bandwidth of every copying
op relative to a plain memory copy timed in the same run (benchmarks/claims.py says what judges what).
"""
from __future__ import annotations

import argparse
import json
import math
import re
from collections import defaultdict
from pathlib import Path

import matplotlib

from benchmarks import claims

matplotlib.use("Agg")
import matplotlib.pyplot as plt

BANDWIDTH_MIN_EXP = 20


# ---- loading ---------------------------------------------------------------------------------------------------------
def load(paths) -> list[dict]:
    """Every benchmark as a flat row: torch version, device, kind, op, dtype, exp, median (s), extra_info."""
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
                name = f"{slug(torch_v)}-{device}-{dtype}-{slug(Path(spec_file).stem)}.png"
                paths.append(chart(grp + memcpy, f"{spec_file} ({dtype}) - torch {torch_v}, {device}",
                                   out / "charts" / name))
    return paths


def split(rows, *keys) -> dict[tuple, list]:
    out = defaultdict(list)
    for r in rows:
        out[tuple(r.get(k) for k in keys)].append(r)
    return dict(sorted(out.items(), key=lambda kv: tuple(str(x) for x in kv[0])))


# ---- one run's medians ----------------------------------------------------------------------------------------------
def timing_table(meds: dict, labels: list[str]) -> list[str]:
    lines = ["| n | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for exp, v in meds.items():
        best = min(v[label] for label in labels)
        lines.append(f"| 2**{exp} | " + " | ".join(
            f"{fmt_time(v[label])} ({v[label] / best:.2f}x)" for label in labels) + " |")
    return lines


def idiom_medians(rows, device: str) -> list[str]:
    """One run's medians of the article idioms, per group: shown, never judged (benchmarks.claims)."""
    out = [f"- {note}" for note in claims.timing_note(device)] + [""]
    for (group,), grp in split([r for r in rows if r["bench"] == "idiom"], "idiom_group").items():
        labels = sorted({r["op"] for r in grp})
        out += [f"#### {group}", ""] + timing_table(medians(grp, labels), labels) + [""]
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


def report(rows, charts, out: Path, ab_docs=()) -> Path:
    lines = ["# Copy benchmarks: the articles' speed claims, memory and bandwidth", "",
             "Generated by benchmarks.report from pytest-benchmark JSON (times are medians per call) and paired "
             "timings of the articles' idioms.", ""]
    lines += claims.speed_section(list(ab_docs), rows) + claims.memory_answer(rows)
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
        lines += ["### The article idioms: one run's medians", ""] + idiom_medians(sel, device)
        lines += ["### Peak memory per idiom", ""] + memory_table(sel) + [""]
        lines += [f"### Bandwidth of copying ops at 2**{BANDWIDTH_MIN_EXP} elements and more, relative to a plain "
                  "memory copy (numpy.copyto between preallocated buffers of the same bytes, same run)", "",
                  "bytes moved = bytes read + bytes written. The baseline copies between buffers it allocated once; "
                  "a torch copy also allocates its result and touches fresh pages, which is part of what a user "
                  "pays. A ratio above 1 means torch used more than one thread (or the data stayed in cache).",
                  ""] + bandwidth_table(sel) + [""]
        mine = [c for c in charts if c.name.startswith(f"{slug(torch_v)}-{device}-")]
        lines += ["### Charts", ""] + [f"- [{c.name}](charts/{c.name})" for c in mine] + [""]
    out.mkdir(parents=True, exist_ok=True)
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="*", help="pytest-benchmark JSON files (--benchmark-json)")
    parser.add_argument("--out", default="results/bench", help="output directory (default results/bench)")
    parser.add_argument("--cuda-json", action="append", default=[], metavar="PATH",
                        help="a CUDA run's pytest-benchmark JSON (e.g. from a GPU machine): answers 000's memory "
                             "question; its rows join the report")
    parser.add_argument("--claims-ab", action="append", default=[], metavar="PATH",
                        help="paired timings from `python -m benchmarks.claims_ab` (one per device): judge the "
                             "speed claims")
    args = parser.parse_args(argv)
    if not (args.json or args.cuda_json):
        parser.error("give a benchmark JSON (positional or --cuda-json)")
    out = Path(args.out)
    rows = load(args.json)
    for path in args.cuda_json:
        cuda = [r for r in load([path]) if r.get("device") == "cuda"]
        if not cuda:
            parser.error(f"--cuda-json {path}: no CUDA benchmark in it")
        rows += cuda
    charts = write_charts(rows, out)
    path = report(rows, charts, out, [json.loads(Path(p).read_text()) for p in args.claims_ab])
    print(f"wrote {path} and {len(charts)} charts in {out / 'charts'}")


if __name__ == "__main__":
    main()
