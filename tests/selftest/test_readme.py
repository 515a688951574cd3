"""The README's two commands are the ones CI runs: .ci/run must call them verbatim, not a private variant."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_commands():
    readme = (ROOT / "README.md").read_text()
    return re.findall(r"^    (\[ -d \.venv \] \|\| python3 -m venv .+)$", readme, flags=re.M)[:2]


def test_readme_starts_with_the_two_commands():
    main_job, tests = readme_commands()
    assert "-m copysuite run" in main_job and "--outcome-json" in main_job
    assert tests.endswith("python -m pytest -n auto")


def test_ci_runs_the_readme_commands_verbatim():
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    for command in readme_commands():
        assert command in ci_lines, f".ci/run does not run the README command: {command}"


def test_the_readme_spec_example_is_five_lines_that_load(tmp_path):
    """The README's example spec entry is complete: the loader accepts it as it stands, and it is five lines."""
    from copysuite.spec.load import load_specs

    block = re.search(r"^```yaml\n(.*?)^```", (ROOT / "README.md").read_text(), flags=re.S | re.M).group(1)
    (tmp_path / "example.yaml").write_text(block)
    assert [e.id for e in load_specs(tmp_path).entries] == ["my_clone"]
    assert len(block.strip().splitlines()) == 5


def test_the_readme_is_one_short_page():
    assert len((ROOT / "README.md").read_bytes()) < 12 * 1024
