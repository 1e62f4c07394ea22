"""Verifiers as versioned inputs: a workspace's own verifier runs in a sweep; editing it marks only its environment's
rollouts stale, naming it; `reverify` re-scores the stored answers with no model server, changing exactly what the new
verifier changes; a verifier that disagrees with itself is reported flaky; bad `verifier:` values are clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import orjson
import pytest

from gym_pipeline.assets.partitions import sweep_partition_key
from gym_pipeline.cli import main
from gym_pipeline.config import ConfigError, load_sweep_config, workspace_config
from gym_pipeline.core.flakiness import read_flakiness
from gym_pipeline.core.formats import ROLLOUT_INDEX, TASK_INDEX
from gym_pipeline.core.manifest import read_manifest
from gym_pipeline.demo import run_demo
from gym_pipeline.engines.builtin import verdict_or_error
from gym_pipeline.engines.rescoring import RescoringError, rescore_run, rescored_row
from gym_pipeline.engines.responses import output_text
from gym_pipeline.environments import VerifierReference, environment_for
from gym_pipeline.environments.workspace_verifiers import load_verifier, verdict_of
from gym_pipeline.observation import observe_sources
from gym_pipeline.status import sweep_status
from gym_pipeline.sweep import REVERIFY_JOB, build_definitions

CHECKPOINT = "step_0100"
SWEEP = """name: verifiers
environments:
  - {name: string_match, dataset: data/string_match.jsonl}
  - {name: last_word, dataset: data/string_match.jsonl, verifier: "last_word_verifier:score"}
num_repeats: 2
"""
VERIFIER = '''from words import last_word


def score(row, response_text):
    """Full credit when the answer's last word is the expected answer, exactly."""
    word = last_word(response_text)
    return {"reward": float(word == row["expected_answer"]), "last_word": word}
'''
WORDS = '''def last_word(text):
    words = text.split()
    return words[-1] if words else ""
'''
QUIET = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}


@pytest.fixture(scope="module")
def built_workspace(tmp_path_factory):
    home = tmp_path_factory.mktemp("verifiers") / "home"
    (home / "verifiers").mkdir(parents=True)
    (home / "sweep.yaml").write_text(SWEEP)
    (home / "verifiers" / "last_word_verifier.py").write_text(VERIFIER)
    (home / "verifiers" / "words.py").write_text(WORDS)
    run_demo(home, checkpoint_count=1, quiet=True)
    return home


@pytest.fixture
def home(built_workspace, tmp_path):
    copy = tmp_path / "home"
    shutil.copytree(built_workspace, copy)
    return copy


def _rows(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def _inputs_by_key(run_dir: Path) -> dict[tuple[int, int], dict]:
    return {(row[TASK_INDEX], row[ROLLOUT_INDEX]): row for row in _rows(run_dir / "rollouts_materialized_inputs.jsonl")}


def _stale(home: Path) -> dict[tuple[str, str], list[str]]:
    return {(p.checkpoint, p.env): p.stale_causes for p in sweep_status(home) if set(p.assets.values()) != {"FRESH"}}


def test_a_workspace_verifier_scores_a_sweep(built_workspace):
    run_dir = built_workspace / "runs" / CHECKPOINT / "last_word"
    rows = _rows(run_dir / "rollouts.jsonl")
    inputs = _inputs_by_key(run_dir)
    assert len(rows) == len(inputs) > 0
    score = load_verifier(VerifierReference.parse("last_word_verifier:score"), built_workspace / "verifiers")
    for row in rows:
        expected = score(inputs[row[TASK_INDEX], row[ROLLOUT_INDEX]], output_text(row["response"]))
        assert row["reward"] == expected["reward"] and row["last_word"] == expected["last_word"]
        assert list(row)[2:7] == ["reward", "mask_sample", "failure_kind", "failure_reason", "last_word"]  # Gym's order
    assert {row["reward"] for row in rows} == {0.0, 1.0}  # the simulated policy answers it, rightly and wrongly
    assert read_manifest(run_dir)["rollouts"]["verifier"]["name"] == "last_word_verifier:score"
    assert _stale(built_workspace) == {}


def test_editing_a_verifier_marks_only_its_environments_rollouts_stale(home):
    (home / "verifiers" / "words.py").write_text(WORDS + "# a comment changes nothing\n")
    assert _stale(home) == {}
    # a module the verifier imports, not the verifier's own file: still its code
    (home / "verifiers" / "words.py").write_text(WORDS.replace("words[-1] if", "words[-1].lower() if"))
    stale = _stale(home)
    assert set(stale) == {(CHECKPOINT, "last_word")}
    assert stale[CHECKPOINT, "last_word"][0] == (
        "rollouts: verifier[last_word] has a new data version: verifier last_word_verifier:score changed")


def _new_verifier(home: Path) -> None:
    """The verifier fixed: an answer inside `\\boxed{...}.` counts too."""
    (home / "verifiers" / "last_word_verifier.py").write_text(VERIFIER.replace(
        'float(word == row["expected_answer"])', 'float(row["expected_answer"] in word)'))


def test_reverify_changes_exactly_what_the_new_verifier_changes_without_a_model_server(home, capsys, monkeypatch):
    def no_server(*args, **kwargs):
        raise AssertionError("re-scoring must not start a model server")

    monkeypatch.setattr("gym_pipeline.serving.servers.serve_checkpoint", no_server)
    run_dir = home / "runs" / CHECKPOINT / "last_word"
    before_bytes = (run_dir / "rollouts.jsonl").read_bytes()
    before = _rows(run_dir / "rollouts.jsonl")
    old_version = read_manifest(run_dir)["rollouts"]["verifier"]["version"]
    _new_verifier(home)
    score = load_verifier(VerifierReference.parse("last_word_verifier:score"), home / "verifiers")
    inputs = _inputs_by_key(run_dir)
    expected = [score(inputs[row[TASK_INDEX], row[ROLLOUT_INDEX]], output_text(row["response"]))["reward"]
                for row in before]
    changed = [row for row, reward in zip(before, expected, strict=True) if row["reward"] != reward]
    assert changed, "the fix must change some rewards for this test to mean anything"

    capsys.readouterr()
    assert main(["reverify", str(run_dir), "--env", "last_word", "--home", str(home), "--json"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert report == {"rows": len(before), "rescored": len(before), "changed": len(changed),
                      "changed_tasks": sorted({row[TASK_INDEX] for row in changed}), "flaky": []}
    after = _rows(run_dir / "rollouts.jsonl")
    assert [row["reward"] for row in after] == expected
    for old, new in zip(before, after, strict=True):  # order, indices and every other field kept
        assert list(old) == list(new)
        assert {k: v for k, v in old.items() if k not in ("reward",)} == {k: v for k, v in new.items()
                                                                           if k not in ("reward",)}
    assert (run_dir / "rollouts.before_reverify.jsonl").read_bytes() == before_bytes
    manifest = read_manifest(run_dir)
    assert manifest["rollouts"]["verifier"]["version"] == manifest["reverify"]["verifier"]["version"] != old_version


def test_the_profile_after_reverify_matches_one_collected_with_the_new_verifier(home, tmp_path):
    """Re-scored in Dagster (the reverify job, which profiles after), then compared with a sweep collected afresh
    with the fixed verifier: the simulated policy gives the same answers, so the profiles must be equal."""
    fresh = tmp_path / "fresh"
    shutil.copytree(home, fresh)
    _new_verifier(home)
    _new_verifier(fresh)
    key = sweep_partition_key(CHECKPOINT, "last_word")
    config = workspace_config(home)
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        observe_sources(config, instance)  # what the observe_sources sensor does within a minute of the edit
        result = build_definitions(config).resolve_job_def(REVERIFY_JOB).execute_in_process(
            instance=instance, partition_key=key, run_config=QUIET)
        assert result.success
    assert _stale(home) == {}
    shutil.rmtree(fresh / "runs" / CHECKPOINT / "last_word")
    run_demo(fresh, checkpoint_count=1, quiet=True)
    for name in ("rollouts_reward_profiling.jsonl", "rollouts_agent_metrics.json", "rollouts_reward_analysis.json"):
        assert (home / "runs" / CHECKPOINT / "last_word" / name).read_bytes() == \
               (fresh / "runs" / CHECKPOINT / "last_word" / name).read_bytes(), name


RANDOM_VERIFIER = '''import random


def score(row, response_text):
    return float(random.random() < 0.5)
'''


def test_a_verifier_with_random_rewards_is_reported_flaky(home, capsys):
    (home / "verifiers" / "last_word_verifier.py").write_text(RANDOM_VERIFIER)
    run_dir = home / "runs" / CHECKPOINT / "last_word"
    rows = len(_rows(run_dir / "rollouts.jsonl"))
    capsys.readouterr()
    assert main(["reverify", str(run_dir), "--env", "last_word", "--home", str(home), "--repeat", "6", "--json"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert len(report["flaky"]) > rows // 2  # each row keeps one reward six times with chance 1/32
    assert all(len(row["rewards"]) == 6 and len(set(row["rewards"])) == 2 for row in report["flaky"])
    flakiness = read_flakiness(run_dir / "rollouts.jsonl")
    assert flakiness is not None and len(flakiness.flaky) == len(report["flaky"]) and flakiness.repeats == 6

    assert main(["profile", "--inputs", str(run_dir / "rollouts_materialized_inputs.jsonl"),
                 "--rollouts", str(run_dir / "rollouts.jsonl")]) == 0
    analysis = orjson.loads((run_dir / "rollouts_reward_analysis.json").read_bytes())["verifier_flakiness"]
    assert analysis["flaky_rollouts"] == len(report["flaky"]) and analysis["repeats"] == 6
    assert {task[TASK_INDEX] for task in analysis["flaky_tasks"]} == {row[TASK_INDEX] for row in report["flaky"]}
    assert all(0 < task["flaky_share"] <= 1 for task in analysis["flaky_tasks"])

    capsys.readouterr()
    assert main(["diagnose", str(run_dir), "--json"]) == 1
    diagnosis = orjson.loads(capsys.readouterr().out)
    flaky = next(f for f in diagnosis["findings"] if f["id"] == "flaky_verifier")
    assert diagnosis["category"] == flaky["category"] == "verifier_runtime" and flaky["role"] == "cause"
    assert str(report["flaky"][0][TASK_INDEX]) in flaky["title"] + flaky["cause"]


def test_a_steady_verifier_repeated_is_not_flaky(home, capsys):
    run_dir = home / "runs" / CHECKPOINT / "last_word"
    capsys.readouterr()
    assert main(["reverify", str(run_dir), "--env", "last_word", "--home", str(home), "--repeat", "3", "--json"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert report["flaky"] == [] and report["changed"] == 0
    assert read_flakiness(run_dir / "rollouts.jsonl").flaky == []


def test_a_bundled_environment_is_re_scored_too(home, capsys):
    run_dir = home / "runs" / CHECKPOINT / "string_match"
    before = (run_dir / "rollouts.jsonl").read_bytes()
    assert main(["reverify", str(run_dir), "--env", "string_match", "--home", str(home), "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out)["changed"] == 0
    assert (run_dir / "rollouts.jsonl").read_bytes() == before  # same verifier, same bytes


def test_a_task_folder_run_cannot_be_re_scored(tmp_path, capsys):
    (tmp_path / "rollouts_materialized_inputs.jsonl").write_text(
        '{"task_id": "t1", "task_input": {}, "_ng_environment_server": "harbor", "_ng_task_index": 0, '
        '"_ng_rollout_index": 0}\n')
    (tmp_path / "rollouts.jsonl").write_text('{"reward": 1.0, "_ng_task_index": 0, "_ng_rollout_index": 0}\n')
    with pytest.raises(RescoringError, match="sandbox"):
        rescore_run(tmp_path, environment_for("string_match"), {"name": "x", "version": "y"})
    assert main(["reverify", str(tmp_path), "--env", "string_match", "--home", str(tmp_path / "ws")]) == 2
    assert "task-folder" in capsys.readouterr().err


def test_a_verifier_that_raises_gives_gyms_masked_verifier_error():
    environment = environment_for("string_match")
    verdict = verdict_or_error(environment, {"responses_create_params": {"input": "q"}}, "text")
    assert verdict["failure_kind"] == "verifier_error" and verdict["mask_sample"] is True


@pytest.mark.parametrize(("returned", "verdict"), [
    (1, {"reward": 1.0, "mask_sample": False, "failure_kind": None, "failure_reason": None}),
    ({"extra": 3, "reward": 0.5, "mask_sample": True},
     {"reward": 0.5, "mask_sample": True, "failure_kind": None, "failure_reason": None, "extra": 3}),
])
def test_a_verifiers_value_becomes_gyms_fields_in_gyms_order(returned, verdict):
    assert list(verdict_of(returned).items()) == list(verdict.items())


@pytest.mark.parametrize("returned", ["1.0", None, {"mask_sample": True}, float("nan"), {"reward": 1, "x": object()}])
def test_a_verifiers_unusable_value_is_an_error(returned):
    with pytest.raises(TypeError):
        verdict_of(returned)


def test_rescored_fields_replace_the_old_ones_where_they_stand():
    row = {"response": {}, "reward": 0.0, "mask_sample": False, "failure_kind": None, "failure_reason": None,
           "old_own": 1, TASK_INDEX: 0}
    new = rescored_row(row, {"reward": 1.0, "mask_sample": False, "failure_kind": None, "failure_reason": None,
                             "new_own": 2})
    assert list(new) == ["response", "reward", "mask_sample", "failure_kind", "failure_reason", "new_own", "old_own",
                         TASK_INDEX]
    assert new["reward"] == 1.0 and new["old_own"] == 1


@pytest.mark.parametrize(("verifier", "error"), [
    ("no_colon", r"sweep\.yaml: field 'environments\.0\.verifier'.*is not MODULE:FUNCTION"),
    ("a:b:c", "is not MODULE:FUNCTION"),
    ("missing_module:score", r"sweep\.yaml:4: field 'environments\.0\.verifier': module 'missing_module' not found in "),
    ("good:absent", r"sweep\.yaml:4: .*module 'good' \(.*good\.py\) has no function 'absent'"),
    ("good:NOT_A_FUNCTION", r"good:NOT_A_FUNCTION \(.*\) is a int, not a function"),
    ("broken:score", r"module 'broken' failed to import: ZeroDivisionError"),
    ("needs_missing:score", r"module 'needs_missing' imports 'not_installed_anywhere', which is not found"),
])
def test_bad_verifier_values_are_clear_errors(tmp_path, verifier, error):
    (tmp_path / "verifiers").mkdir()
    (tmp_path / "verifiers" / "good.py").write_text("NOT_A_FUNCTION = 3\n\ndef score(row, text):\n    return 1.0\n")
    (tmp_path / "verifiers" / "broken.py").write_text("1 / 0\n")
    (tmp_path / "verifiers" / "needs_missing.py").write_text("import not_installed_anywhere\n")
    (tmp_path / "sweep.yaml").write_text(
        f"name: bad\nenvironments:\n  - name: mine\n    verifier: {verifier!r}\n    dataset: d.jsonl\n")
    with pytest.raises(ConfigError, match=error):
        load_sweep_config(tmp_path / "sweep.yaml")


def test_an_installed_module_is_a_verifier_too(tmp_path):
    (tmp_path / "sweep.yaml").write_text("environments:\n  - {name: mine, dataset: d.jsonl, "
                                         "verifier: 'gym_pipeline.environments.mcqa:extract_letter'}\n")
    config = load_sweep_config(tmp_path / "sweep.yaml")
    assert config.runnable_environment("mine").reference.module == "gym_pipeline.environments.mcqa"


def test_own_verifiers_are_refused_by_the_nemo_gym_engine(tmp_path):
    (tmp_path / "sweep.yaml").write_text("engine: nemo_gym\nenvironments:\n  - {name: mine, dataset: d.jsonl, "
                                         "verifier: 'gym_pipeline.environments.mcqa:extract_letter'}\n")
    with pytest.raises(ConfigError, match="nemo_gym engine runs Gym's own resources servers"):
        load_sweep_config(tmp_path / "sweep.yaml")


def test_the_flaky_verifier_example_is_diagnosed_with_its_tasks():
    from gym_pipeline.diagnose import diagnose

    report = diagnose(Path(__file__).parent / "data" / "diagnose" / "flaky_verifier_run")
    assert report.category == "verifier_runtime"
    [finding] = [f for f in report.findings if f.id == "flaky_verifier"]
    assert finding.role == "cause" and "in 4 tasks (0, 1, 2, 3)" in finding.title
    assert finding.evidence[0].file == "rollouts_verifier_flakiness.json" and "coin_judge:judge" in finding.evidence[0].text


def test_a_bad_rollouts_line_is_named_by_its_line_in_the_file(home):
    from gym_pipeline.core.formats import JsonlFormatError

    run_dir = home / "runs" / CHECKPOINT / "string_match"
    lines = (run_dir / "rollouts.jsonl").read_bytes().splitlines(keepends=True)
    (run_dir / "rollouts.jsonl").write_bytes(b"".join(lines[:5] + [b"{not json\n"] + lines[5:]))
    before = (run_dir / "rollouts.jsonl").read_bytes()
    with pytest.raises(JsonlFormatError, match=r"rollouts\.jsonl:6: not valid JSON"):
        rescore_run(run_dir, environment_for("string_match"), {"name": "string_match", "version": "-"}, workers=2)
    assert (run_dir / "rollouts.jsonl").read_bytes() == before  # nothing written
    assert not (run_dir / "rollouts.before_reverify.jsonl").exists()


def test_a_nemo_gym_run_and_a_gym_folder_are_re_scored_through_gyms_resources_server(home, monkeypatch):
    from gym_pipeline import stages
    from gym_pipeline.core.manifest import annotate_stage

    calls = []
    monkeypatch.setattr(stages, "rescore_run_with_gym", lambda *args: calls.append(args) or "summary")
    run_dir = home / "runs" / CHECKPOINT / "string_match"
    config = workspace_config(home)
    assert stages.rescore_run_dir(config, run_dir, "string_match", through_gym=True) == "summary"  # a hand-run folder
    annotate_stage(run_dir, "rollouts", {"engine": "nemo_gym"})  # a run the nemo_gym engine collected
    assert stages.rescore_run_dir(config, run_dir, "string_match", repeats=3) == "summary"
    (_, env, settings, repeats, _), = calls[1:]
    assert (env, repeats) == ("string_match", 3)
    assert settings == stages.gym_rescoring_settings(config) and settings.concurrency == config.concurrency


STUB_VERIFIER = '''def score(row, response_text):
    return 1.0  # TODO: compare with row["expected_answer"]
'''


def test_a_placeholder_verifier_passing_every_answer_is_diagnosed_from_the_answers_it_passed(home, capsys):
    (home / "verifiers" / "last_word_verifier.py").write_text(STUB_VERIFIER)
    run_dir = home / "runs" / CHECKPOINT / "last_word"
    assert main(["reverify", str(run_dir), "--env", "last_word", "--home", str(home)]) == 0
    assert main(["profile", "--inputs", str(run_dir / "rollouts_materialized_inputs.jsonl"),
                 "--rollouts", str(run_dir / "rollouts.jsonl")]) == 0
    capsys.readouterr()
    assert main(["diagnose", str(run_dir), "--json"]) == 1
    diagnosis = orjson.loads(capsys.readouterr().out)
    top = diagnosis["findings"][0]
    assert diagnosis["category"] == "verifier_runtime" and top["id"] == "wrong_answers_scored_full"
    assert "the response's last line" in top["evidence"][0]["text"]
