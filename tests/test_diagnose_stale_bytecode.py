"""A team library's hotfix unpacked over the old release, run for real, while Python keeps the old compiled code.

The workspace verifier compares numbers with the team's `evalutils`, unpacked from release tarballs built
reproducibly (every file stamped 1980-01-01). 1.4.0 accepts answers 10 % off (`REL_TOL = 1e-1`); the 1.4.1 hotfix
(`1e-6`) keeps the file's size. Unpacked over 1.4.0 after a run compiled it, the source has the time stamp and size
the compiled file recorded, so Python runs the old code from `__pycache__`: the rerun still credits near misses and
every command exits 0. The diagnosis names the compiled file, the constant it still holds and the one the source
has. With the `__pycache__` folders removed after unpacking, the rerun is healthy.

Tools precompiled `--invalidation-mode unchecked-hash` by a node set-up: Python never checks them against their
source, and label fixes pulled in since are never imported.
"""

import io
import json
import os
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest
from script_support import CLI as SCRIPT_CLI
from script_support import materialize_line, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
RELEASE_TIME = 315532800  # 1980-01-01: the one time stamp of a reproducible build
NORMALIZE = '''"""evalutils.normalize: numeric answers compared with a relative tolerance."""
REL_TOL = {tolerance}


def numbers_match(answer, expected):
    try:
        a, b = float(answer), float(expected)
    except ValueError:
        return str(answer).strip().lower() == str(expected).strip().lower()
    return abs(a - b) <= REL_TOL * max(abs(b), 1e-12)
'''
VERIFIER = '''"""my_verifier.py: numeric answers, compared with the team's evalutils (42 == 42.0)."""
import re

from evalutils.normalize import numbers_match

FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    correct = answer is not None and numbers_match(answer, row["expected_answer"])
    return {"reward": 1.0 if correct else 0.0, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


def _release(path: Path, tolerance: str) -> None:
    """The team's release tarball of evalutils, every member stamped with the build's one time."""
    with tarfile.open(path, "w") as tar:
        for name, text in (("evalutils/__init__.py", ""), ("evalutils/normalize.py",
                                                           NORMALIZE.format(tolerance=tolerance))):
            member = tarfile.TarInfo(name)
            member.size, member.mtime = len(text.encode()), RELEASE_TIME
            tar.addfile(member, io.BytesIO(text.encode()))


QUESTIONS = [("17 plus 25", "42"), ("12 times 12", "144"), ("9 times 7", "63"), ("100 minus 43", "57"),
             ("6 times 8", "48"), ("81 minus 19", "62"), ("15 times 6", "90"), ("64 plus 36", "100")]


def _weekly_evals(tmp_path: Path, clear_compiled: bool) -> Path:
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    data = run / "numbers.jsonl"
    data.write_text("".join(json.dumps({
        "responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": f"What is {question}? End your response with 'Final answer: <answer>'."}]}]},
        "expected_answer": answer}) + "\n" for question, answer in QUESTIONS))
    environment = type(get_environment("string_match"))(data)
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [environment])[0]
    (run / "verifiers").mkdir()
    (run / "verifiers" / "my_verifier.py").write_text(VERIFIER)
    (run / "releases").mkdir()
    _release(run / "releases" / "evalutils-1.4.0.tar", "1e-1")
    _release(run / "releases" / "evalutils-1.4.1.tar", "1e-6")
    (tmp_path / "runs" / checkpoint.name).mkdir(parents=True)
    (tmp_path / "runs" / checkpoint.name / "exact_answer").symlink_to(run, target_is_directory=True)
    (run / "sweep.yaml").write_text(json.dumps({
        "name": "nightly", "num_repeats": 3, "concurrency": 4, "checkpoints_dir": str(checkpoint.parent),
        "runs_dir": str(tmp_path / "runs"), "verifiers_dir": str(run / "verifiers"),
        "environments": [{"name": "exact_answer", "dataset": str(data),
                          "verifier": "my_verifier:score"}]}, indent=2))
    port = free_loopback_port()
    stage = (f"{' '.join(CLI)} stage {{key}} --sweep-config sweep.yaml --checkpoint {checkpoint.name} "
             "--env exact_answer --code-version v1")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n# weekly eval of the numeric set (verifier: verifiers/my_verifier.py)\n"
        "export PYTHONPATH=$PWD/team-libs${PYTHONPATH:+:$PYTHONPATH}\n"
        "rm -f rollouts*.jsonl manifest.json   # a fresh run every week\n"
        + "".join(stage.format(key=key) + extra + "\n" for key, extra in (
            ("materialize", ""), ("collect", f" --model-url http://127.0.0.1:{port}/v1 --model-name sim-policy"),
            ("profile", ""))))
    environment_of_shell = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port)],
                                  stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(2.5)
        steps = [("tar -xf releases/evalutils-1.4.0.tar -C team-libs", "install_evalutils.log"),
                 ("bash run_eval.sh", "run_eval_last_week.log"),
                 ("tar -xf releases/evalutils-1.4.1.tar -C team-libs"
                  + (" && find team-libs -name __pycache__ -prune -exec rm -rf {} +" if clear_compiled else ""),
                  "install_evalutils.log"),
                 ("bash run_eval.sh", "run_eval.log")]
        (run / "team-libs").mkdir()
        for command, log_name in steps:
            with (run / "logs" / log_name).open("a") as log:
                subprocess.run(["bash", "-c", command], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300,
                               env=environment_of_shell, check=True)
    finally:
        server.terminate()
        server.wait(10)
    return run


@pytest.mark.parametrize("clear_compiled", [False, True])
def test_a_hotfix_unpacked_with_the_old_time_stamps_runs_the_old_compiled_code(tmp_path: Path,
                                                                               clear_compiled: bool) -> None:
    run = _weekly_evals(tmp_path, clear_compiled)
    rows = [json.loads(line) for line in (run / "rollouts.jsonl").read_text().splitlines()]
    credited = [row for row in rows if row["reward"] and row["extracted_answer"] != row["expected_answer"]]

    report = diagnose(run)

    if clear_compiled:
        assert not credited
        assert all(f.id != "module_run_from_stale_bytecode" for f in report.findings)
        return
    assert credited  # the old tolerance still ran
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "module_run_from_stale_bytecode")
    assert top.title.startswith("team-libs/evalutils/normalize.py ran from its compiled copy in "
                                "team-libs/evalutils/__pycache__, which holds 0.1 where the source now has 1e-06")
    assert top.fix.startswith("Delete the stale compiled files (`find team-libs/evalutils -name __pycache__")


PREP = '''"""prep.py: data.jsonl (the quiz export) -> tasks.jsonl, with the reviewers' label fixes applied."""
import json

from label_fixes import FIXES

with open("data.jsonl") as f, open("tasks.jsonl", "w") as out:
    for number, line in enumerate(f):
        row = json.loads(line)
        row["expected_answer"] = FIXES.get(number, row["expected_answer"])
        out.write(json.dumps(row) + "\\n")
print(f"{len(FIXES)} label fixes applied")
'''


@pytest.mark.parametrize("mode", ["unchecked-hash", "checked-hash"])
def test_tools_precompiled_unchecked_never_see_the_label_fixes_added_since(tmp_path: Path, mode: str) -> None:
    """A node set-up precompiles the eval tools with `compileall --invalidation-mode unchecked-hash` (to spare a slow
    shared home the stat calls); a week later the reviewers' label fixes are pulled into label_fixes.py, and the prep
    still imports the compiled copy of last week's: the fixes are never applied (cache/resume, the set-up line named).
    Compiled `checked-hash`, Python sees the edit and the fixes are applied."""
    rows = [json.loads(line) for line in get_environment("string_match").dataset_path.read_text().splitlines()[:8]]
    answers = {2: rows[2]["expected_answer"], 5: rows[5]["expected_answer"]}
    for number in answers:
        rows[number]["expected_answer"] = "unknown"  # the export's wrong labels the reviewers fixed
    this_week = f"FIXES = {answers!r}\n"
    run = run_scripts(
        tmp_path,
        ["bash setup_tools.sh\n",
         "cp reviewed/label_fixes.py label_fixes.py   # this week's fixes, pulled from the review\n"
         f"{sys.executable} prep.py\n" + materialize_line(2, "tasks.jsonl")
         + f"{SCRIPT_CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env "
           "string_match --concurrency 4\n"],
        files={"data.jsonl": "".join(json.dumps(row) + "\n" for row in rows), "prep.py": PREP, "label_fixes.py": '"""the reviewers\' label fixes, by row"""\nFIXES = {}\n',
               "reviewed/label_fixes.py": '"""the reviewers\' label fixes, by row"""\n' + this_week,
               "setup_tools.sh": "# once per node: precompile the tools (imports from the slow NFS home stat every "
                                 f"source)\n{sys.executable} -m compileall -q --invalidation-mode {mode} label_fixes.py "
                                 "prep.py\n"})
    tasks = (run / "tasks.jsonl").read_text()

    report = diagnose(run)

    if mode == "checked-hash":
        assert '"unknown"' not in tasks, tasks
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert '"unknown"' in tasks and "0 label fixes applied" in (run / "logs" / "run_eval_1.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "module_run_from_stale_bytecode"), [f.title for f in report.causes]
    assert top.evidence[0].where == "setup_tools.sh:2"
    assert "`--invalidation-mode checked-hash`" in top.fix and "rm -rf __pycache__" in top.fix
