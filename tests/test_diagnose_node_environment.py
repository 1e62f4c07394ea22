"""A node settings file the run script sources, run for real by bash, that breaks every Python process it starts.

Its LD_LIBRARY_PATH puts a folder holding a truncated `libm.so.6` (a sync that was interrupted) before the system's:
the loader fails before Python starts. Its PYTHONPLATLIBDIR, kept from an image whose Python kept its modules in
lib64, makes Python look for its standard library where there is none. The errors name neither the file nor the
variable; the finding names the line of the run's own file that sets it. The same file without that setting runs.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

BROKEN_LIBRARY = "export LD_LIBRARY_PATH=$PWD/opt/mathlibs/lib:$LD_LIBRARY_PATH"
OLD_IMAGE_LAYOUT = "export PYTHONPLATLIBDIR=lib64"


def _run_with_node_settings(tmp_path: Path, setting: str) -> Path:
    run = tmp_path / "run"
    (run / "opt" / "mathlibs" / "lib").mkdir(parents=True)
    (run / "opt" / "mathlibs" / "lib" / "libm.so.6").write_bytes(b"")  # the sync stopped before writing it
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "node_env.sh").write_text(f"# node settings of the eval nodes\n{setting}\nexport OMP_NUM_THREADS=4\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nsource ./node_env.sh\n"
        f"{sys.executable} -m gym_pipeline.cli materialize --input data.jsonl --num-repeats 2 "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    (run / "logs").mkdir()
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, timeout=120)
    return run


@pytest.mark.parametrize(("setting", "variable"), [(BROKEN_LIBRARY, "LD_LIBRARY_PATH"),
                                                   (OLD_IMAGE_LAYOUT, "PYTHONPLATLIBDIR")])
def test_a_sourced_setting_that_stops_python_is_named_with_its_line(tmp_path: Path, setting: str, variable: str):
    run = _run_with_node_settings(tmp_path, setting)
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()  # Python never started

    top = diagnose(run).causes[0]

    assert top.category == "infra", top.title
    assert f"The run's own files set that environment: node_env.sh:2 `export {variable}=" in top.fix


def test_the_same_settings_file_without_it_runs(tmp_path: Path):
    run = _run_with_node_settings(tmp_path, "export TZ=UTC")

    assert (run / "rollouts_materialized_inputs.jsonl").exists()
    assert all("The run's own files set that environment" not in f.fix for f in diagnose(run).findings)
