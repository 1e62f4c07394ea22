"""Run scripts meeting a shell or a tool of another dialect than they were written for, run for real.

- A bash script (an array for the collection's options) started as `sh run_eval.sh`: /bin/sh is dash, which stops at
  the array, and nothing is collected. Started with bash, the same script runs whole.
- `sed -i '' ...` (macOS sed) switching settings.env to a new dataset: GNU sed reads the expression as a file, the
  settings keep the old dataset, and the eval runs on it. GNU's `sed -i ...` switches it.
"""

import shutil
from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

ARRAY_SCRIPT = (MATERIALIZE + "COLLECT_OPTS=(--env string_match --concurrency 4)\n"
                f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                '"${COLLECT_OPTS[@]}"\n')


@pytest.mark.skipif(Path(shutil.which("sh") or "").resolve().name != "dash", reason="/bin/sh is not dash here")
@pytest.mark.parametrize("shell", ["sh", "bash"])
def test_a_bash_script_started_with_sh_stops_at_its_first_bash_line(tmp_path: Path, shell: str) -> None:
    run = run_scripts(tmp_path, [ARRAY_SCRIPT], shell=shell)

    report = diagnose(run)

    if shell == "bash":
        assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "bash_script_run_by_sh")
    assert [line.where for line in top.evidence] == ["logs/run_eval_0.log:2", "run_eval.sh:1", "run_eval.sh:3"]
    assert "`bash run_eval.sh`" in top.fix
    assert any(finding.role == "consequence" for finding in report.findings)


@pytest.mark.parametrize("in_place", ["-i ''", "-i"])
def test_bsd_sed_in_place_syntax_leaves_the_settings_file_unchanged(tmp_path: Path, in_place: str) -> None:
    """settings.env names a dataset file: a copy of the data whose labels are all wrong (last week's) and the
    right one; the script switches it with sed, then reads it."""
    script = ("python3 -c \"import json,sys\nfor l in open('data.jsonl'):\n r=json.loads(l); "
              "r['expected_answer']='wrong'; print(json.dumps(r))\" > old.jsonl\n"
              "cp data.jsonl new.jsonl\nprintf 'DATASET=old.jsonl\\n' > settings.env\n"
              f"sed {in_place} 's|^DATASET=.*|DATASET=new.jsonl|' settings.env\nsource settings.env\n"
              + MATERIALIZE.replace("data.jsonl", "$DATASET")
              + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if in_place == "-i":
        assert (run / "settings.env").read_text() == "DATASET=new.jsonl\n"
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert (run / "settings.env").read_text() == "DATASET=old.jsonl\n"
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "bsd_sed_in_place_on_gnu_sed")
    assert top.evidence[0].where == "run_eval.sh:7" and top.evidence[1].where == "logs/run_eval_0.log:1"
    assert "sed -i 's|^DATASET=.*|DATASET=new.jsonl|' settings.env" in top.fix
