"""A node settings file the run script sources, run for real by bash, that breaks every Python process it starts.

Its LD_LIBRARY_PATH puts a folder holding a truncated `libm.so.6` (a sync that was interrupted) before the system's:
the loader fails before Python starts. Its PYTHONPLATLIBDIR, kept from an image whose Python kept its modules in
lib64, makes Python look for its standard library where there is none. The errors name neither the file nor the
variable; the finding names the line of the run's own file that sets it. The same file without that setting runs.
A tools folder it puts on PYTHONPATH that holds a `json.py` shadows the standard module for every Python process.
A device cgroup (the site's launcher's) that denies /dev/null stops a preparation step run `> /dev/null`.
Its PYTHONSAFEPATH=1 (a security baseline) hides the module beside a preparation script from its imports.
"""

import os
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


TEAM_JSON = '"""The team\'s helpers for reading our JSON logs."""\n\n\ndef pretty(path):\n    print(open(path).read())\n'


@pytest.mark.parametrize(("tool", "earlier"), [("json.py", ":$PYTHONPATH"), ("team_json.py", ":$PYTHONPATH"),
                                               ("json.py", "${PYTHONPATH:+:$PYTHONPATH}")])
def test_a_tools_folder_on_pythonpath_shadowing_a_standard_module_is_infra(tmp_path: Path, tool: str, earlier: str):
    """eval_env.sh puts the team's tools first on PYTHONPATH (before what it held, however written); one of them is
    json.py: every Python process imports it for `import json` and fails inside a library. Named otherwise, the same
    folder is harmless."""
    run = tmp_path / "run"
    (run / "team_tools").mkdir(parents=True)
    (run / "team_tools" / tool).write_text(TEAM_JSON)
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "eval_env.sh").write_text("# the team's shell settings\nexport TEAM_TOOLS=$PWD/team_tools\n"
                                     f"export PYTHONPATH=$TEAM_TOOLS{earlier}\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nsource ./eval_env.sh\n"
        f"{sys.executable} -m gym_pipeline.cli materialize --input data.jsonl --num-repeats 2 "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    (run / "logs").mkdir()
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, timeout=120)

    report = diagnose(run)

    if tool == "team_json.py":
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "standard_module_shadowed" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "standard_module_shadowed"), [f.title for f in report.causes]
    assert top.title == "team_tools/json.py, on PYTHONPATH (eval_env.sh:3), shadows Python's own `json` module"
    assert top.fix.startswith("Rename team_tools/json.py (e.g. `team_json.py`, and its imports), or take its folder "
                              "off PYTHONPATH in eval_env.sh")


@pytest.mark.parametrize("scratch_mounted", [False, True])
def test_a_tmpdir_on_scratch_this_node_lacks_is_infra_and_names_its_setting(tmp_path: Path, scratch_mounted: bool):
    """node_env.sh points TMPDIR at the node-local scratch; on a node without it `mktemp -d` fails and the script
    (set -e) stops before anything ran. Where the scratch is there, the same script runs."""
    run = tmp_path / "run"
    run.mkdir()
    if scratch_mounted:
        (run / "local_scratch" / "tmp").mkdir(parents=True)
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "node_env.sh").write_text("# node settings of the eval nodes\nexport TMPDIR=$PWD/local_scratch/tmp\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nset -e\ncd \"$(dirname \"$0\")\"\nsource ./node_env.sh\nSTAGE=$(mktemp -d)\n"
        f"{sys.executable} -m gym_pipeline.cli materialize --input data.jsonl --num-repeats 2 "
        "--agent string_match_simple_agent --output $STAGE/inputs.jsonl\n"
        "cp $STAGE/inputs.jsonl rollouts_materialized_inputs.jsonl\n")
    (run / "logs").mkdir()
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, timeout=120)

    report = diagnose(run)

    if scratch_mounted:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all("TMPDIR" not in f.fix for f in report.findings)
        return
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()
    top = report.causes[0]
    assert top.category == "infra" and not top.guess, top.title
    assert "mktemp" in top.title
    assert "node_env.sh:2 `export TMPDIR=$PWD/local_scratch/tmp`" in top.fix and "Point TMPDIR at a folder" in top.fix


PREP_SCRIPT = '''"""Write the eval split: every task of the source, once.

Usage: python prep.py SOURCE OUTPUT
"""
import argparse
import shutil

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("source")
parser.add_argument("output")
args = parser.parse_args()
shutil.copyfile(args.source, args.output)
'''


@pytest.mark.parametrize("level", ["2", "1"])
def test_a_python_told_to_strip_docstrings_is_named_when_a_program_reads_its_own(tmp_path: Path, level: str):
    """node_env.sh, kept from a cluster short of memory, sets PYTHONOPTIMIZE=2 (`python -OO`): the team's prep script
    builds its usage from `__doc__`, None now, and fails on a NoneType. Level 1 strips only asserts: it runs."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "source.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "prep.py").write_text(PREP_SCRIPT)
    (run / "node_env.sh").write_text(f"# node settings of the eval nodes\nexport PYTHONOPTIMIZE={level}\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nset -e\ncd \"$(dirname \"$0\")\"\nsource ./node_env.sh\n"
        f"{sys.executable} prep.py source.jsonl data.jsonl\n"
        f"{sys.executable} -m gym_pipeline.cli materialize --input data.jsonl --num-repeats 2 "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    (run / "logs").mkdir()
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, timeout=120)

    report = diagnose(run)

    if level == "1":
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all("PYTHONOPTIMIZE" not in f.fix for f in report.findings)
        return
    assert not (run / "data.jsonl").exists()
    top = report.causes[0]
    assert top.category == "infra" and not top.guess, top.title
    assert "strip docstrings" in top.cause
    assert "node_env.sh:2 `export PYTHONOPTIMIZE=2` makes Python strip docstrings" in top.fix


@pytest.mark.parametrize(("tools_first", "broken"), [(True, "interpreter"), (True, "mode"), (False, "interpreter")])
def test_a_tools_folder_first_on_path_whose_launcher_cannot_run_is_named(tmp_path: Path, tools_first: bool,
                                                                         broken: str):
    """node_env.sh puts the admins' shared tools first on PATH; their `gym-pipeline` launcher names a venv that was
    removed, or was synced without its exec bit (PATH then holds no other `gym-pipeline`: bash skips a file it cannot
    execute when another one is on PATH), so every command of the script fails before it starts.
    After the working install, it is never used."""
    run = tmp_path / "run"
    tools = tmp_path / "sw" / "eval-tools" / "bin"
    tools.mkdir(parents=True)
    (tools / "gym-pipeline").write_text(f"#!{tmp_path}/sw/eval-tools/venv/bin/python\nprint('eval tools')\n")
    (tools / "gym-pipeline").chmod(0o644 if broken == "mode" else 0o755)
    installed = Path(sys.executable).parent
    assert (installed / "gym-pipeline").is_file()
    run.mkdir()
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    order = (f"{tools}:/usr/bin:/bin" if broken == "mode" else f"{tools}:{installed}" if tools_first
             else f"{installed}:{tools}")
    path = order if broken == "mode" else f"{order}:$PATH"  # nothing else on PATH that has a gym-pipeline
    (run / "node_env.sh").write_text(f"# node settings: the shared eval tools on PATH\nexport PATH={path}\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nsource ./node_env.sh\n"
        "gym-pipeline materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n")
    (run / "logs").mkdir()
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, timeout=120)

    report = diagnose(run)

    if not tools_first:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all("first on PATH" not in f.fix for f in report.findings)
        return
    top = report.causes[0]
    assert top.category == "infra" and not top.guess, top.title
    assert f"node_env.sh:2 `export PATH={path}` puts {tools} first on PATH" in top.fix
    why = "which is not executable: make it executable (`chmod +x" if broken == "mode" else "whose interpreter is gone"
    assert why in top.fix


DEVICES = Path("/sys/fs/cgroup/devices")


@pytest.mark.skipif(not (DEVICES / "devices.deny").exists() or os.geteuid() != 0,
                    reason="needs root and the cgroup v1 devices controller")
@pytest.mark.parametrize("denied", [True, False])
def test_a_device_cgroup_denying_dev_null_stops_a_quiet_preparation_step(tmp_path: Path, denied: bool) -> None:
    """The site's launcher runs the job in a device cgroup whose allow list lacks /dev/null: `prep > /dev/null`
    cannot open the redirection, the preparation never runs, and the stages find no data. With /dev/null allowed, the
    run is whole."""
    from script_support import run_scripts

    # one name per test process and case: xdist workers give their tmp_paths the same names
    cgroup = DEVICES / f"gym-pipeline-test-{os.getpid()}-{'denied' if denied else 'allowed'}"
    cgroup.mkdir()
    if denied:
        (cgroup / "devices.deny").write_text("c 1:3 rwm\n")
    launcher = tmp_path / "site_launcher.sh"  # the site's job launcher: the job's processes in the device cgroup
    launcher.write_text(f'#!/bin/bash\necho $$ > {cgroup}/cgroup.procs\nexec bash "$@"\n')
    launcher.chmod(0o755)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "prepare_data.py").write_text(
        "import shutil\nprint('converting export.jsonl')\nshutil.copy('data.jsonl', 'tasks.jsonl')\n")
    try:
        run = run_scripts(tmp_path, [
            f"{sys.executable} prepare_data.py > /dev/null   # quiet: the converter is chatty\n"
            f"{sys.executable} -m gym_pipeline.cli materialize --input tasks.jsonl --num-repeats 2 "
            "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n"
            f"{sys.executable} -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
            "rollouts.jsonl --model-url URL --env string_match --concurrency 4\n"], shell=str(launcher))
    finally:
        cgroup.rmdir()

    report = diagnose(run)

    if not denied:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "tasks.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "known_problems")
    assert top.title == "The node refused the run access to /dev/null (Operation not permitted)"
    assert "`c 1:3 rwm` for /dev/null" in top.fix


@pytest.mark.parametrize("baseline", ["export PYTHONSAFEPATH=1", "export PYTHONNOUSERSITE=1"])
def test_safe_path_mode_from_the_node_settings_hides_the_module_beside_a_script(tmp_path: Path, baseline: str):
    """The nodes' security baseline exports PYTHONSAFEPATH=1: Python leaves the script's folder off sys.path, and the
    preparation cannot import the helper module beside it. Another baseline setting leaves the run whole."""
    from script_support import run_scripts

    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "node_env.sh").write_text(f"# node settings (security baseline)\n{baseline}\n")
    (tmp_path / "run" / "label_utils.py").write_text("def clean(label):\n    return label.strip()\n")
    (tmp_path / "run" / "prepare_data.py").write_text(
        "import json\nfrom label_utils import clean\n\nwith open('tasks.jsonl', 'w') as out:\n"
        "    for line in open('data.jsonl'):\n        row = json.loads(line)\n"
        "        row['expected_answer'] = clean(row['expected_answer'])\n        out.write(json.dumps(row) + '\\n')\n")
    run = run_scripts(tmp_path, [
        f"source node_env.sh\npython3 prepare_data.py\n{sys.executable} -m gym_pipeline.cli materialize --input "
        "tasks.jsonl --num-repeats 2 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n"
        f"{sys.executable} -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        "rollouts.jsonl --model-url URL --env string_match --concurrency 4\n"])

    report = diagnose(run)

    if "NOUSERSITE" in baseline:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "script_run_by_a_python_without_its_package")
    assert top.title == ("prepare_data.py cannot import label_utils, the label_utils.py beside it: node_env.sh:2 turns "
                         "on Python's safe-path mode")
    assert "`unset PYTHONSAFEPATH` for this step" in top.fix
