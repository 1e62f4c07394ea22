"""A run script that updates the eval repository's checkout with `git stash && git pull`, run for real with git:
the user had fixed the labels in the checkout, the stash put the fix away and nothing took it back, so the run
scored against the committed (wrong) labels. With `git stash pop` after the pull, the fix is read and the run is
healthy."""

import json
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


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
def test_a_label_fix_left_in_git_stash_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pops: bool) -> None:
    for variable in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(variable, "Eval User")
    for variable in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(variable, "eval@example.com")
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
