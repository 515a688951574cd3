"""benchmarks/claims.py: the seed articles' claims are judged only from data that can judge them (paired timings;
CUDA data for the GPU claims), and never a claim the articles do not make. Made-up timings and memory rows; the
memory rows repeat the facts of the recorded H100 run (../shared/gpu-runs/h100-torch2.11.0-cu130-2026-11-26/
bench-cuda.json, 2**24 float32 elements)."""
import pytest

from benchmarks import claims

MIB64 = 2 ** 26


def mem_row(op, device, peak, kept=0, exp=24, torch="2.11.0+cu130"):
    return {"bench": "idiom", "op": op, "device": device, "exp": exp, "torch": torch, "mem_peak": peak,
            "mem_kept": kept, "source_bytes": MIB64, "median": 1e-3}


H100 = [mem_row(claims.GPU_FORM, "cuda", MIB64), mem_row(claims.DETACH_FIRST, "cuda", 0)]
CPU_ONLY = [mem_row(op, "cpu", MIB64, MIB64, torch="2.13.0+cpu") for op in claims.NDARRAY_CPU]


def paired(device, ratios: dict, processes=6, exps=(0, 14)) -> dict:
    """A claims_ab document: every label at 1 us times its ratio, the whole process 1x to 2x slower (a drift)."""
    times = {}
    for exp in exps:
        for label in claims.labels(device):
            times[f"{label}@2^{exp}"] = [1e-6 * ratios.get(label, 1.0) * (1 + p / (processes - 1))
                                         * (1 + 0.01 * (p % 2)) for p in range(processes)]
    return {"torch": "x", "device": device, "processes": processes, "exponents": list(exps), "times": times}


def claim(key):
    return next(c for c in claims.CLAIMS if c.key == key)


def test_the_memory_question_is_answered_from_cuda_rows_only():
    text = "\n".join(claims.memory_answer(CPU_ONLY))
    assert "Not judged: no CUDA data" in text and "**yes" not in text and "**no" not in text


def test_the_recorded_h100_run_answers_a_full_extra_gpu_copy():
    text = "\n".join(claims.memory_answer(H100 + CPU_ONLY))
    assert "peaks at 1.00x the tensor's bytes on the GPU (0 MiB kept after the call)" in text
    assert "**yes: a full extra copy of the tensor on the GPU while the call runs**" in text
    assert "raises on a CUDA tensor" in text


def test_a_gpu_form_without_the_extra_copy_is_answered_no():
    rows = [mem_row(claims.GPU_FORM, "cuda", 0), mem_row(claims.DETACH_FIRST, "cuda", 0)]
    assert "**no extra GPU memory**" in "\n".join(claims.memory_answer(rows))


def test_no_claim_is_made_for_the_three_ndarray_routes():
    """000 times them and ranks none: no verdict may be given on them (the report once judged 'equivalent
    choices', a claim the article does not make)."""
    judged = {label for c in claims.CLAIMS for pair in c.pairs for label in pair}
    assert not judged & set(claims.NDARRAY_CPU)
    assert "no claim to judge" in claims.timing_note("cpu")[0]


def test_speed_claims_are_not_judged_from_one_run():
    text = "\n".join(claims.speed_section([], H100 + CPU_ONLY))
    assert text.count("Not judged") == len(claims.CLAIMS) + 1
    assert "**holds" not in text and "does not hold" not in text


@pytest.mark.parametrize("key", ["003-A", "003-B"])
def test_003_is_not_judged_from_cpu_timings(key):
    """On a CPU tensor cpu() returns the tensor itself: equal timings there say nothing about the article's claim."""
    word, table = claims.judge(claim(key), paired("cpu", {}))
    assert word.startswith("not judged: needs CUDA data") and not table


def test_003_is_judged_from_cuda_timings():
    assert claims.judge(claim("003-A"), paired("cuda", {}))[0] == "holds"
    assert claims.judge(claim("003-B"), paired("cuda", {}))[0] == "holds"
    slower = paired("cuda", {claims.DETACH_FIRST: 1.3})
    assert claims.judge(claim("003-A"), slower)[0] == "does not hold"
    assert claims.judge(claim("003-B"), slower)[0] == "does not hold"


def test_000_a_holds_when_the_pair_is_surely_slower_in_every_process_despite_the_drift():
    doc = paired("cpu", dict.fromkeys(claims.SLOW_PAIR, 1.3))
    assert claims.judge(claim("000-A"), doc)[0] == "holds"
    assert claims.judge(claim("000-B"), doc)[0] == "holds"


def test_000_a_does_not_hold_when_one_of_the_three_is_as_slow_as_the_pair():
    doc = paired("cpu", {**dict.fromkeys(claims.SLOW_PAIR, 1.3), "torch.tensor()": 1.3})
    assert claims.judge(claim("000-A"), doc)[0] == "does not hold"
    assert claims.judge(claim("000-B"), doc)[0] == "does not hold"


def test_the_ratios_are_paired_within_a_process():
    """The same timings with the processes of one idiom in another order: the drift no longer cancels, the
    intervals widen and nothing is decided (a judge that pooled each idiom's processes apart would not see it)."""
    doc = paired("cpu", dict.fromkeys(claims.SLOW_PAIR, 1.3))
    doc["times"] = {k: (v[::-1] if k.startswith(claims.SLOW_PAIR) else v) for k, v in doc["times"].items()}
    assert claims.judge(claim("000-A"), doc)[0] == "undecided"


def test_the_paired_worker_times_every_idiom_once_per_round_in_turn():
    pytest.importorskip("torch")
    from benchmarks.claims_ab import interleaved

    log = []
    calls = {k: (lambda k=k: log.append(k)) for k in "abc"}
    best = interleaved(calls, rounds=4, round_seconds=0.0)
    assert set(best) == set("abc") and all(t >= 0 for t in best.values())
    rounds = [log[3 + 3 * r: 6 + 3 * r] for r in range(4)]   # after one calibration call each
    assert all(sorted(r) == list("abc") for r in rounds) and len({tuple(r) for r in rounds}) > 1


def bench_json(path, device, torch_version, peaks: dict):
    """A pytest-benchmark document of article idioms at 2**24 with these peak memories (op -> bytes)."""
    import json

    benchmarks = [{"name": f"{op}-{device}", "group": f"g {device}", "stats": {"median": 1e-3, "min": 1e-3},
                   "extra_info": {"bench": "idiom", "op": op, "idiom_group": "000 ndarray copy", "device": device,
                                  "numel": 2 ** 24, "torch_version": torch_version, "load_avg_1min": 1.0,
                                  "mem_peak": peak, "mem_kept": 0, "source_bytes": MIB64, "mem_method": "m",
                                  "dtype": "float32"}}
                  for op, peak in peaks.items()]
    path.write_text(json.dumps({"machine_info": {"torch_version": torch_version}, "benchmarks": benchmarks}))
    return str(path)


def test_the_report_answers_the_memory_question_from_cuda_json_only(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (requirements-bench.txt)")
    from benchmarks import report

    monkeypatch.setattr(report, "write_charts", lambda rows, out: [])   # the charts are not what is judged here
    cpu = bench_json(tmp_path / "cpu.json", "cpu", "2.13.0+cpu", dict.fromkeys(claims.NDARRAY_CPU, MIB64))
    report.main([cpu, "--out", str(tmp_path / "a")])
    text = (tmp_path / "a" / "report.md").read_text()
    assert "Not judged: no CUDA data" in text and "Verdict" not in text and "equivalent" not in text
    cuda = bench_json(tmp_path / "cuda.json", "cuda", "2.11.0+cu130", {claims.GPU_FORM: MIB64, claims.DETACH_FIRST: 0})
    report.main([cpu, "--cuda-json", cuda, "--out", str(tmp_path / "b")])
    assert "**yes: a full extra copy of the tensor on the GPU" in (tmp_path / "b" / "report.md").read_text()
    with pytest.raises(SystemExit):
        report.main(["--cuda-json", cpu, "--out", str(tmp_path / "c")])   # no CUDA benchmark in it
