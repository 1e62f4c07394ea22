"""Run scripts that update the eval repository's checkout before reading its data, run for real with git.

- `git stash && git pull`: the user had fixed the labels in the checkout, the stash put the fix away and nothing
  took it back, so the run scored against the committed (wrong) labels. With `git stash pop` after the pull, the
  fix is read and the run is healthy.
- `git fetch` alone after the labelling team committed the fix: no file changes, the run reads the old labels;
  `git pull` brings the fix, and the run is healthy.
- `git pull` in a checkout whose data is a submodule the labelling team moved to its label fix: the pull moves the
  pointer and leaves the files, so the run reads the old labels. With `git submodule update` after it, healthy.
- `git pull` refused over an uncommitted hand edit to the data file: the script goes on with the old labels. Without
  the edit, the pull brings the fix.
"""

import json
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's git identity (stash and commits need one), and local submodules allowed, for every git command of a
    test, the run script's included."""
    settings = {"user.name": "Eval User", "user.email": "eval@example.com", "protocol.file.allow": "always"}
    for number, (key, value) in enumerate(settings.items()):
        monkeypatch.setenv(f"GIT_CONFIG_KEY_{number}", key)
        monkeypatch.setenv(f"GIT_CONFIG_VALUE_{number}", value)
    monkeypatch.setenv("GIT_CONFIG_COUNT", str(len(settings)))


def _checkout_with_a_label_fix(tmp_path: Path) -> Path:
    """A shared eval repository whose committed labels are wrong, and a user's clone with them fixed, uncommitted."""
    rows = get_environment("string_match").dataset_path.read_text().splitlines()[:10]
    shared, checkout = tmp_path / "shared" / "evals", tmp_path / "home" / "evals"
    (shared / "data").mkdir(parents=True)
    (shared / "data" / "tasks.jsonl").write_text(
        "".join(json.dumps({**json.loads(row), "expected_answer": "unreviewed"}) + "\n" for row in rows))
    for command in (["git", "init", "-q", "-b", "main"], ["git", "add", "."], ["git", "commit", "-qm", "weekly data"]):
        subprocess.run(command, cwd=shared, check=True)
    subprocess.run(["git", "clone", "-q", str(shared), str(checkout)], check=True)
    (checkout / "data" / "tasks.jsonl").write_text("\n".join(rows) + "\n")  # the user's fix
    return checkout


@pytest.mark.parametrize("pops", [False, True])
def test_a_label_fix_left_in_git_stash_is_named(tmp_path: Path, pops: bool) -> None:
    checkout = _checkout_with_a_label_fix(tmp_path)
    script = (f"(cd {checkout} && git stash && git pull -q{' && git stash pop -q' if pops else ''})\n"
              f"{CLI} materialize --input {checkout}/data/tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if pops:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "edits_left_in_the_stash")
    assert top.title.endswith("the run read the committed files (tasks.jsonl)")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "logs/run_eval_0.log:1"]
    assert "`git stash && git pull && git stash pop`" in top.fix


def _checkout_with_a_data_submodule(tmp_path: Path) -> Path:
    """An eval repository whose data is a submodule, cloned by the user; then the labelling team fixes the labels in
    the data repository and moves the eval repository's submodule pointer to the fix."""
    rows = get_environment("string_match").dataset_path.read_text().splitlines()[:10]
    data, evals, checkout = tmp_path / "shared" / "evaldata", tmp_path / "shared" / "evals", tmp_path / "home" / "evals"
    data.mkdir(parents=True)
    (data / "tasks.jsonl").write_text(
        "".join(json.dumps({**json.loads(row), "expected_answer": "unreviewed"}) + "\n" for row in rows))
    for command in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-qm", "data"]):
        subprocess.run(["git", *command], cwd=data, check=True)
    evals.mkdir()
    for command in (["init", "-q", "-b", "main"], ["submodule", "add", "-q", str(data), "data"],
                    ["commit", "-qm", "evals with data"]):
        subprocess.run(["git", *command], cwd=evals, check=True)
    subprocess.run(["git", "clone", "-q", "--recurse-submodules", str(evals), str(checkout)], check=True)
    (data / "tasks.jsonl").write_text("\n".join(rows) + "\n")  # the labelling team's fix
    subprocess.run(["git", "commit", "-qam", "fix labels"], cwd=data, check=True)
    for command in (["submodule", "update", "-q", "--remote", "data"], ["commit", "-qam", "data: label fix"]):
        subprocess.run(["git", *command], cwd=evals, check=True)
    return checkout


@pytest.mark.parametrize("updates_submodule", [False, True])
def test_a_pull_that_moves_a_data_submodules_pointer_but_not_its_files_is_named(
        tmp_path: Path, updates_submodule: bool) -> None:
    checkout = _checkout_with_a_data_submodule(tmp_path)
    update = " && git submodule update --init" if updates_submodule else ""
    script = (f"(cd {checkout} && git pull{update} && git status --short)\n"
              f"{CLI} materialize --input {checkout}/data/tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if updates_submodule:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "submodule_left_behind_by_a_pull")
    assert top.title.endswith("left its files at the old commit: the run read the old tasks.jsonl")
    assert top.evidence[0].where == "run_eval.sh:2" and top.evidence[1].text == "Fetching submodule data"
    assert "`git pull && git submodule update --init --recursive`" in top.fix


@pytest.mark.parametrize("update", ["git fetch", "git pull -q"])
def test_a_checkout_updated_with_git_fetch_alone_keeps_the_old_labels(tmp_path: Path, update: str) -> None:
    """The labelling team commits the label fix to the shared repository; the run script `updates` the user's clone
    with `git fetch`, which changes no file, and the run scores the old labels. `git pull` brings the fix."""
    checkout = _checkout_with_a_label_fix(tmp_path)
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=checkout, check=True)  # the user's clone, unedited
    shared = tmp_path / "shared" / "evals"
    rows = get_environment("string_match").dataset_path.read_text().splitlines()[:10]
    (shared / "data" / "tasks.jsonl").write_text("\n".join(rows) + "\n")  # the labelling team's fix
    subprocess.run(["git", "commit", "-qam", "fix labels"], cwd=shared, check=True)
    script = (f"(cd {checkout} && {update})\n"
              f"{CLI} materialize --input {checkout}/data/tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if update.startswith("git pull"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "fetch_never_merged")
    assert top.title.endswith("and the run read the old tasks.jsonl")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "logs/run_eval_0.log:2"]
    assert "`git pull` instead of `git fetch`" in top.fix


@pytest.mark.parametrize("hand_edited", [True, False])
def test_a_pull_git_refuses_over_an_uncommitted_edit_leaves_the_old_labels(tmp_path: Path, hand_edited: bool) -> None:
    """The CI machine's clone holds an uncommitted hand edit to the data file (one label patched); the labelling team
    commits the whole fix upstream, and the run script's `git pull` is refused over the edit ("Your local changes
    ... would be overwritten"). The script goes on and scores the old labels (cache/resume: the refusal and the pull
    line). Without the edit, the pull brings the fix and the run is healthy."""
    checkout = _checkout_with_a_label_fix(tmp_path)
    rows = get_environment("string_match").dataset_path.read_text().splitlines()[:10]
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=checkout, check=True)
    if hand_edited:  # one label patched by hand on the machine, never committed
        data = checkout / "data" / "tasks.jsonl"
        data.write_text(data.read_text().replace('"unreviewed"', json.dumps(json.loads(rows[0])["expected_answer"]), 1))
    shared = tmp_path / "shared" / "evals"
    (shared / "data" / "tasks.jsonl").write_text("\n".join(rows) + "\n")  # the labelling team's fix
    subprocess.run(["git", "commit", "-qam", "fix labels"], cwd=shared, check=True)
    script = (f"(cd {checkout} && git pull --ff-only origin main)\n"
              f"{CLI} materialize --input {checkout}/data/tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if not hand_edited:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Aborting" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "pull_refused_by_local_changes"), [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:2 updates the checkout with `git pull`, which git refused over an "
                                "uncommitted change to data/tasks.jsonl")
    assert "`git diff data/tasks.jsonl`" in top.fix
