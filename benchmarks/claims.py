"""The seed articles' claims about speed and memory, judged for the benchmark report (benchmarks.report).

Speed is judged from paired timings only (`python -m benchmarks.claims_ab`): in each of several fresh processes the
idioms a claim compares are timed in turn, round by round, so that the host's drift and the process's own speed move
them alike; a ratio is the geometric mean over the processes with the speed gate's Student's t interval
(benchmarks.ab.verdict). One run's medians are shown beside it, never judged: a whole process
can run far slower or faster than the next (docs/benchmarks.md, "Run-to-run agreement").
Article 003's claims are about a tensor on the GPU (on the CPU cpu() returns the tensor itself, so no copy and no
graph edge exist there): they are judged from CUDA timings only. Article 000's memory question is about GPU memory:
it is answered from a CUDA run's peak memory only. Imports neither torch nor matplotlib.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks.ab import verdict

SAME = 1.10       # "about the same": every ratio's interval inside [1 / SAME, SAME]
FASTER = 1.05     # "faster": the slower idiom more than 5% slower, its whole interval above FASTER
CONFIDENCE = 0.95

SLOW_PAIR = ("new_tensor()", "clone().detach()")
FAST_TRIO = ("empty_like().copy_()", "torch.tensor()", "detach().clone()")
DETACH_FIRST, CPU_FIRST = "detach().cpu().numpy()", "cpu().detach().numpy()"
NDARRAY_CPU = ("detach().numpy().copy()", "clone().detach().numpy()", "detach().clone().numpy()")
LITERAL, GPU_FORM = "detach().clone().numpy()", "detach().clone().cpu().numpy()"


@dataclass(frozen=True)
class Claim:
    key: str
    text: str
    pairs: tuple      # (a, b): the ratio time(a) / time(b) of the same process
    test: str         # "faster": every ratio above FASTER; "same": within SAME; "not_slower": none above FASTER
    devices: tuple    # whose timings can judge it
    why_devices: str = ""


CLAIMS = (
    Claim("000-A", "empty_like().copy_(), torch.tensor() and detach().clone() are clearly faster than new_tensor() "
          "and clone().detach()", tuple((s, f) for s in SLOW_PAIR for f in FAST_TRIO), "faster", ("cpu", "cuda")),
    Claim("000-B", "those three take almost the same time: any of them will do",
          ((FAST_TRIO[1], FAST_TRIO[0]), (FAST_TRIO[2], FAST_TRIO[0]), (FAST_TRIO[1], FAST_TRIO[2])), "same",
          ("cpu", "cuda")),
    Claim("003-A", "use detach().cpu().numpy(): cpu() before detach() first records a graph edge for the copy "
          "(detach-first is not slower)", ((DETACH_FIRST, CPU_FIRST),), "not_slower", ("cuda",),
          "on the CPU cpu() returns the tensor itself: no copy, no edge"),
    Claim("003-B", "in practice the order makes hardly any difference", ((DETACH_FIRST, CPU_FIRST),), "same",
          ("cuda",), "on the CPU cpu() returns the tensor itself: no copy, no edge"),
)


def labels(device: str) -> list[str]:
    """The idioms benchmarks/claims_ab.py times on `device`: those of every claim that device can judge."""
    return sorted({label for c in CLAIMS if device in c.devices for pair in c.pairs for label in pair})


# ---- speed -----------------------------------------------------------------------------------------------------------
def size_verdict(claim: Claim, doc: dict, exp: int) -> tuple[str, list]:
    """'holds', 'does not hold' or 'undecided' at one size, with the ratio verdicts it rests on (None: not timed)."""
    found = []
    for a, b in claim.pairs:
        ta, tb = doc["times"].get(f"{a}@2^{exp}"), doc["times"].get(f"{b}@2^{exp}")
        if ta is None or tb is None:
            return "not timed", []
        found.append(verdict(f"{a} / {b}", np.log(np.asarray(ta) / np.asarray(tb)), FASTER, CONFIDENCE))
    if claim.test == "faster":
        holds, fails = all(v.low > FASTER for v in found), any(v.high < FASTER for v in found)
    elif claim.test == "not_slower":
        holds, fails = all(v.high <= FASTER for v in found), any(v.low > FASTER for v in found)
    else:
        holds = all(1 / SAME <= v.low and v.high <= SAME for v in found)
        fails = any(v.low > SAME or v.high < 1 / SAME for v in found)
    return ("holds" if holds else "does not hold" if fails else "undecided"), found


def judge(claim: Claim, doc: dict) -> tuple[str, list[str]]:
    """(the verdict over the sizes of one paired run, a table of its ratios)."""
    if doc["device"] not in claim.devices:
        return f"not judged: needs {' or '.join(d.upper() for d in claim.devices)} data ({claim.why_devices})", []
    by_size = {exp: size_verdict(claim, doc, exp) for exp in doc["exponents"]}
    timed = {e: v for e, v in by_size.items() if v[0] != "not timed"}
    if not timed:
        return "not judged: its idioms were not timed in this run", []
    counts = {w: sum(v[0] == w for v in timed.values()) for w in ("holds", "does not hold", "undecided")}
    n = len(timed)
    whole = [w for w, k in counts.items() if k == n]
    overall = whole[0] if whole else ", ".join(f"{w} at {k} of {n} sizes" for w, k in counts.items() if k)
    table = ["| n | ratio (interval) | verdict |", "|---|---|---|"]
    for exp, (word, found) in timed.items():
        table.append(f"| 2**{exp} | " + "; ".join(f"{v.op} {v.ratio:.2f} ({v.low:.2f}-{v.high:.2f})" for v in found)
                     + f" | {word} |")
    return overall, table


def one_run_ratios(claim: Claim, rows) -> list[str]:
    """Where no paired timings judge a claim on a device it needs: the range of one run's median ratios there,
    labelled as such (a whole process can be far off, so this is no verdict)."""
    out = []
    for device in claim.devices:
        for torch_v in sorted({r["torch"] for r in rows if r.get("device") == device and r["bench"] == "idiom"}):
            med = {(r["op"], r["exp"]): r["median"] for r in rows
                   if r.get("device") == device and r["torch"] == torch_v and r["bench"] == "idiom"}
            for a, b in claim.pairs:
                ratios = [med[(a, e)] / med[(b, e)] for (op, e) in med if op == a and (b, e) in med]
                if ratios:
                    out.append(f"- one {device} run of torch {torch_v}, not paired (no verdict): {a} / {b} "
                               f"{min(ratios):.2f}-{max(ratios):.2f} over {len(ratios)} sizes.")
    return out


def speed_section(ab_docs: list[dict], rows=()) -> list[str]:
    out = ["## The articles' speed claims, judged from paired timings", "",
           f"Each ratio is time(first) / time(second) in the same process, the geometric mean over the processes "
           f"with a {CONFIDENCE:.0%} Student's t interval (the speed gate's). Faster: the whole interval above "
           f"{FASTER:.2f}; about the same: the whole interval within {1 / SAME:.2f}-{SAME:.2f}; otherwise undecided.",
           ""]
    if not ab_docs:
        out += ["**Not judged: no paired timings.** One run's medians (below, per release and device) cannot "
                "judge a speed claim: a whole process can be far off. Run `python -m benchmarks.claims_ab "
                "--out claims-ab.json` (and with `--device cuda` on a GPU) and pass `--claims-ab claims-ab.json`.", ""]
    for claim in CLAIMS:
        if not any(doc["device"] in claim.devices for doc in ab_docs):
            needs = " or ".join(d.upper() for d in claim.devices)
            out += [f"{claim.key}: {claim.text}. **Not judged: needs {needs} data** (paired timings: "
                    f"`python -m benchmarks.claims_ab --device {claim.devices[0]}`"
                    + (f"; {claim.why_devices}" if claim.why_devices else "") + ")."]
            out += one_run_ratios(claim, rows) + [""]
    for doc in ab_docs:
        out += [f"### torch {doc['torch']}, {doc['device']} ({doc['processes']} processes, sizes "
                + ", ".join(f"2**{e}" for e in doc["exponents"]) + ")", ""]
        for claim in (c for c in CLAIMS if doc["device"] in c.devices):
            word, table = judge(claim, doc)
            out += [f"{claim.key}: {claim.text}. **{word}.**", ""] + table + ([""] if table else [])
    return out


def timing_note(device: str) -> list[str]:
    """What one run's tables of one device may and may not say."""
    notes = ["000 times detach().numpy().copy(), clone().detach().numpy() and detach().clone().numpy() and ranks "
             "none of them: no claim to judge, the medians are shown for reference."]
    if device != "cuda":
        notes.append("003's orderings on a CPU tensor: cpu() returns the tensor itself, so these medians say nothing "
                     "about the article's claims (judged from CUDA data only).")
    return notes


# ---- memory ----------------------------------------------------------------------------------------------------------
def memory_answer(rows) -> list[str]:
    """000 asks whether x.detach().clone().numpy() costs extra GPU memory: answered from CUDA rows only."""
    out = ["## 000's memory question: does detach().clone().numpy() cost extra GPU memory?", "",
           f"The literal `x.detach().clone().numpy()` raises on a CUDA tensor (numpy() takes CPU tensors only: spec "
           f"`numpy:non_cpu`); its GPU form is `{GPU_FORM}`, set against `{DETACH_FIRST}`.", ""]
    cuda = [r for r in rows if r.get("bench") == "idiom" and r.get("device") == "cuda" and "mem_peak" in r]
    if not cuda:
        return out + ["**Not judged: no CUDA data** (the question is about GPU memory; a CPU run's peaks cannot "
                      "answer it: pass a CUDA run's benchmark JSON with --cuda-json).", ""]
    for torch_v in sorted({r["torch"] for r in cuda}):
        by = {(r["op"], r["exp"]): r for r in cuda if r["torch"] == torch_v}
        exps = [e for (op, e) in by if op == GPU_FORM and (DETACH_FIRST, e) in by]
        if not exps:
            out += [f"torch {torch_v}, cuda: **not judged**: {GPU_FORM} and {DETACH_FIRST} were not both measured.", ""]
            continue
        top = max(exps)
        clone, direct = by[(GPU_FORM, top)], by[(DETACH_FIRST, top)]
        extra = clone["mem_peak"] / clone["source_bytes"] - direct["mem_peak"] / direct["source_bytes"]
        answer = ("yes: a full extra copy of the tensor on the GPU while the call runs" if extra >= 0.95 else
                  "no extra GPU memory" if extra <= 0.05 else f"{extra:.2f}x the tensor's bytes more")
        out += [f"torch {torch_v}, cuda, 2**{top} float32 elements ({_mib(clone['source_bytes'])}): {GPU_FORM} peaks "
                f"at {clone['mem_peak'] / clone['source_bytes']:.2f}x the tensor's bytes on the GPU "
                f"({_mib(clone['mem_kept'])} kept after the call), {DETACH_FIRST} at "
                f"{direct['mem_peak'] / direct['source_bytes']:.2f}x ({_mib(direct['mem_kept'])} kept): **{answer}**.",
                ""]
    return out


def _mib(n: float) -> str:
    return f"{n / 2 ** 20:.3g} MiB"
