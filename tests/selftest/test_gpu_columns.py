"""The matrix's CUDA columns: the committed GPU run (results/gpu/, gzip-compressed outcome files and a run.json
sidecar) becomes one release of its own build with a column per execution on `cuda`, each saying which machine and
run it came from, the execution that run cut short marked partial; and a later run without a GPU does not erase them."""
import gzip
import json
from pathlib import Path

from copysuite.report import matrix, matrix_command, matrix_page
from copysuite.gpu import source
from tests.selftest.test_matrix_page import data
from tests.selftest.test_reports import cell, doc, mismatch

ROOT = Path(__file__).resolve().parents[2]
H100 = ROOT / "results" / "gpu" / "h100-torch2.11.0-cu130-2026-11-26"
COMPILED = ["compile.eager", "compile.aot_eager", "compile.aot_eager.dynamic", "compile.inductor",
            "compile.inductor.dynamic"]


def test_the_committed_h100_run_gives_a_cuda_column_per_execution_with_its_source(tmp_path):
    runs = matrix.load_runs([H100])
    assert [matrix.release(r) for r in runs] == ["2.11.0+cu130"]
    places = [where for _, where in matrix.columns(runs)]
    assert places == ["cuda", *(f"cuda {e}" for e in COMPILED), "cuda export"]
    for where in places:
        [origin] = matrix.sources(runs[0], where)
        assert (origin["machine"], origin["run"]) == ("NVIDIA H100 80GB HBM3, 16 cores", H100.name), where
        assert bool(matrix.partial(runs[0], where)) == (where == "cuda compile.inductor.dynamic"), where
    text = matrix.markdown(runs, "here", "now")   # what `matrix` writes (main reads the files once more)
    page = tmp_path / "m.html"
    page.write_text(matrix_page.page(runs, "here", "now"))
    assert "| 2.11.0+cu130 cuda compile.inductor.dynamic (partial) |" in text.replace(" | ", " |\n| ")
    assert f"| 2.11.0+cu130 | NVIDIA H100 80GB HBM3, 16 cores | {H100.name} |" in text
    assert "NVIDIA H100 80GB HBM3, 16 cores" in page.read_text()
    labels = [c["label"] for c in data(page)["columns"]]
    assert [label for label in labels if "partial" in label] == [
        "2.11.0+cu130<br>cuda compile.inductor.dynamic<br><b>partial</b>"]


def gpu_run(tmp_path, name, created, outcome, devices):
    folder = tmp_path / name
    folder.mkdir()
    cells = [{**cell("clone", "shares_storage", outcome, reason="no CUDA device" if outcome == "skipped" else None,
                     failure=mismatch(True, False) if outcome == "failed" else None),
              "id": "clone-shares_storage-cuda-eager", "device": "cuda"}]
    (folder / f"{name}.json.gz").write_bytes(gzip.compress(json.dumps(
        {**doc("2.11.0+cu130", cells), "created": created, "devices": devices}).encode()))
    return folder


def test_a_later_run_without_the_device_does_not_erase_a_judged_cuda_cell(tmp_path):
    """Runs of one torch build merge cell by cell, the later winning; a CPU machine's later run of the same wheel
    skips every cuda cell ("no CUDA device"), which must not replace what the GPU judged."""
    gpu = gpu_run(tmp_path, "gpu", "2026-11-26T00:00:00+00:00", "failed", {"cpu": "available", "cuda": "available"})
    source.write(gpu, {"format": source.FORMAT, "run": "gpu-run", "machine": "one GPU", "partial": {}})
    gpu_run(tmp_path, "cpu", "2026-11-27T00:00:00+00:00", "skipped", {"cpu": "available", "cuda": "no CUDA device"})
    [run] = matrix.load_runs([tmp_path])
    [judged] = run["cells"]
    assert judged["outcome"] == "failed" and matrix.sources(run, "cuda")[0]["machine"] == "one GPU"


def test_an_outcome_file_without_a_sidecar_is_described_by_its_platform_and_a_bad_sidecar_is_refused(tmp_path):
    folder = gpu_run(tmp_path, "gpu", "2026-11-26T00:00:00+00:00", "passed", {"cuda": "available"})
    [run] = matrix.load_runs([tmp_path])
    assert matrix.sources(run, "cuda")[0]["machine"] == "linux" and matrix.partial(run, "cuda") == ""
    (folder / source.FILE).write_text(json.dumps({"format": source.FORMAT, "run": "r"}))   # no machine
    assert matrix_command.main([str(tmp_path), "--markdown", str(tmp_path / "m.md")]) == 2
