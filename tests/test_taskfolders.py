"""Task folders without Docker: Harbor's task.toml and Gym's dataset.toml, the reward contract, the agent's
protocol, the simulated policy playing it, and materialized rows stamped with task digests."""

import json

import pytest
from taskfolder_support import BUNDLED_TASKS, copy_bundled, write_task

from gym_pipeline.core.materialize import MaterializationSettings
from gym_pipeline.serving.checkpoints import create_checkpoint, load_checkpoint
from gym_pipeline.serving.simulated_policy import _Message, correct_probability
from gym_pipeline.serving.terminal_play import terminal_reply
from gym_pipeline.taskfolders import protocol
from gym_pipeline.taskfolders.knowledge import taskset_knowledge
from gym_pipeline.taskfolders.loader import TaskLoadError, load_task, load_taskset
from gym_pipeline.taskfolders.materialize import (
    TasksNotLoadable,
    materialize_taskset,
    refuse_unloadable,
    taskset_report,
)
from gym_pipeline.taskfolders.rewards import read_reward


def test_harbor_defaults_apply_to_an_empty_task_toml(tmp_path):
    task = load_task(write_task(tmp_path, "t", task_toml=""))
    assert task.verifier_timeout_sec == 600 and task.agent_timeout_sec == 600
    environment = task.config.environment
    assert (environment.build_timeout_sec, environment.cpus, environment.memory_mb, environment.allow_internet) == (
        600, 1, 2048, True)


def test_older_size_spellings_and_unknown_keys(tmp_path):
    task = load_task(write_task(tmp_path, "t", task_toml='[environment]\nmemory = "1G"\ngpu_kind = "a100"\n'))
    assert task.config.environment.memory_mb == 1024
    assert any("environment.gpu_kind" in warning for warning in task.warnings)


def test_a_dataset_override_naming_no_task_is_a_warning_with_the_name_meant(tmp_path):
    tasks = copy_bundled(tmp_path / "tasks")
    (tasks / "dataset.toml").write_text('[gym.tasks."create-greting".verifier]\ntimeout_sec = 120.0\n')
    [warning] = load_taskset(tasks).warnings
    assert warning == (f'{tasks / "dataset.toml"}: [gym.tasks."create-greting"] names no task of the taskset: its '
                       'override applies to nothing; did you mean "create-greeting"?')


def test_a_backup_copy_of_a_task_left_in_the_taskset_runs_as_a_task_with_a_warning(tmp_path):
    import shutil

    tasks = copy_bundled(tmp_path / "tasks")
    shutil.copytree(tasks / "create-greeting", tasks / "create-greeting.bak")
    taskset = load_taskset(tasks)
    assert "create-greeting.bak" in [task.task_id for task in taskset.tasks]  # as Harbor runs it
    assert taskset.warnings == [f"{tasks / 'create-greeting.bak'}: looks like a backup copy of the task "
                                "create-greeting, and runs as a task of its own (its episodes count twice in the "
                                "report): move it out of the taskset"]


@pytest.mark.parametrize(("toml", "expected"), [
    ('version = "1.0"\n[verifier]\ntimeout_sec = "soon"\n', "task.toml:3: field 'verifier.timeout_sec'"),
    ('[agent]\ntimeout_sec = -1\n', "task.toml:2: field 'agent.timeout_sec'"),
    ('[environment\ncpus = 1\n', "task.toml:1: not valid TOML"),
])
def test_a_bad_task_toml_names_file_line_and_field(tmp_path, toml, expected):
    with pytest.raises(TaskLoadError, match=expected.replace(".", r"\.").replace("'", "'")):
        load_task(write_task(tmp_path, "t", task_toml=toml))


def test_missing_files_are_named(tmp_path):
    folder = write_task(tmp_path, "t")
    (folder / "tests" / "test.sh").unlink()
    with pytest.raises(TaskLoadError, match=r"tests/test.sh: not found"):
        load_task(folder)


def test_dataset_toml_overrides_then_scales_timeouts(tmp_path):
    write_task(tmp_path, "a", verifier_timeout=10, agent_timeout=30)
    write_task(tmp_path, "b", verifier_timeout=10, agent_timeout=30)
    (tmp_path / "dataset.toml").write_text('[gym.defaults]\ntimeout_multiplier = 2.0\n'
                                           '[gym.tasks."a".verifier]\ntimeout_sec = 50\n')
    taskset = load_taskset(tmp_path)
    a, b = taskset.task("a"), taskset.task("b")
    assert (a.verifier_timeout_sec, a.agent_timeout_sec) == (100, 60)
    assert (b.verifier_timeout_sec, b.agent_timeout_sec) == (20, 60)


def test_the_dataset_settings_are_part_of_a_tasks_digest(tmp_path):
    write_task(tmp_path, "a")
    before = load_taskset(tmp_path).task("a").digest
    (tmp_path / "dataset.toml").write_text('[gym.tasks."a".verifier]\ntimeout_sec = 50\n')
    assert load_taskset(tmp_path).task("a").digest != before


def test_a_bad_dataset_toml_is_refused_with_its_line(tmp_path):
    write_task(tmp_path, "a")
    (tmp_path / "dataset.toml").write_text('[gym.defaults]\ntimeout_multiplier = 0\n')
    with pytest.raises(TaskLoadError, match=r"dataset.toml:2: field 'gym.defaults.timeout_multiplier'"):
        load_taskset(tmp_path)


def test_unloadable_tasks_are_listed_and_refused_unless_skipped(tmp_path):
    write_task(tmp_path, "good")
    write_task(tmp_path, "bad", task_toml="[verifier\n")
    taskset = load_taskset(tmp_path)
    assert [task.task_id for task in taskset.tasks] == ["good"] and "not valid TOML" in taskset.skipped["bad"]
    skipped = tmp_path / "run" / "skipped.json"
    skipped.parent.mkdir()
    with pytest.raises(TasksNotLoadable, match=r"1 task\(s\) could not load \(see .*skipped.json\). Use skip_unloadable"):
        refuse_unloadable(taskset, skipped, skip_unloadable=False)
    assert "bad" in json.loads(skipped.read_text())
    refuse_unloadable(taskset, skipped, skip_unloadable=True)


@pytest.mark.parametrize(("files", "reward", "kind"), [
    ({"reward.txt": "0.5\n"}, 0.5, None),
    ({"reward.json": '{"reward": 1, "tests": 3}'}, 1.0, None),
    ({"reward.json": '{"passed": 0.25}'}, 0.25, None),
    ({"reward.txt": "nan"}, 0.0, "harbor:invalid_reward"),
    ({"reward.json": '{"reward": "yes"}'}, 0.0, "harbor:invalid_reward"),
    ({"reward.json": "[1]"}, 0.0, "harbor:invalid_reward"),
    ({"test-stdout.txt": "boom"}, 0.0, "harbor:missing_reward"),
])
def test_the_reward_contract(tmp_path, files, reward, kind):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    reading = read_reward(tmp_path)
    assert (reading.reward, reading.failure_kind) == (reward, kind)


def test_the_protocol_reads_one_command_or_done():
    assert protocol.command_of("Let me see.\n```bash\nls -la\n```\n") == "ls -la"
    assert protocol.command_of("TASK_COMPLETE") is None and protocol.is_done("All good.\nTASK_COMPLETE")
    assert "[... 10 more characters cut]" in protocol.observation(0, "x" * (protocol.MAX_OUTPUT_CHARS + 10), False)


def test_rows_carry_gyms_indices_and_each_tasks_digest(tmp_path):
    taskset = load_taskset(copy_bundled(tmp_path / "tasks"))
    rows = materialize_taskset(taskset, MaterializationSettings(num_repeats=2, agent="harbor_terminal_agent"))
    assert len(rows) == 2 * len(taskset.tasks) >= 16
    assert [(row["_ng_task_index"], row["_ng_rollout_index"]) for row in rows[:3]] == [(0, 0), (0, 1), (1, 0)]
    assert rows[0]["task_digest"] == taskset.tasks[0].digest
    assert rows[0]["responses_create_params"]["input"][0]["content"] == taskset.tasks[0].instruction


def test_an_edited_task_folder_is_named_by_the_stale_report(tmp_path):
    tasks = copy_bundled(tmp_path / "tasks")
    settings = MaterializationSettings(num_repeats=1, agent="harbor_terminal_agent")
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text("".join(json.dumps(row) + "\n" for row in materialize_taskset(load_taskset(tasks), settings)))
    assert not taskset_report(inputs, tasks, settings, None, "rebuild").stale
    (tasks / "top-word" / "tests" / "test.sh").write_text("#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n")
    report = taskset_report(inputs, tasks, settings, None, "rebuild")
    assert report.stale and report.tasks.changed == 1
    assert report.reasons == [f"task top-word: Task folder {tasks / 'top-word'} changed since materialization; "
                              "re-materialize the taskset"]


def test_the_simulated_policy_plays_the_terminal_agent_better_as_skill_rises(tmp_path):
    knowledge = taskset_knowledge(BUNDLED_TASKS)
    assert len(knowledge) >= 8
    entry = knowledge[0]
    solved = []
    for step, skill in ((1, 0.3), (2, 0.85)):
        checkpoint = load_checkpoint(create_checkpoint(tmp_path / f"c{step}", step, skill, knowledge, seed=7))
        messages = [_Message(role="system", content=protocol.SYSTEM_PROMPT), _Message(role="user", content=entry["prompt"])]
        commands = []
        for draw in range(200):
            reply = terminal_reply(checkpoint, messages, lambda p, purpose, d=draw: (hash((d, purpose)) % 1000) / 1000 < p,
                                   lambda n, purpose: 0, correct_probability)
            commands.append(protocol.command_of(reply))
        solved.append(commands.count(entry["answer"]))
        done = terminal_reply(checkpoint, [*messages, _Message(role="assistant", content=reply)], None, None, None)
        assert protocol.is_done(done)
    assert solved[0] < solved[1]


def test_task_folder_settings_apply_to_task_folders_only(tmp_path):
    from gym_pipeline.config import EnvironmentConfig

    environment = EnvironmentConfig(name="t", tasks=tmp_path, sandbox_concurrency=3, episode_grace_sec=0)
    assert (environment.sandbox_concurrency, environment.episode_grace_sec) == (3, 0)
    assert EnvironmentConfig(name="t", tasks=tmp_path).episode_grace_sec == 60
    with pytest.raises(ValueError, match="episode_grace_sec, sandbox_concurrency applies to task folders"):
        EnvironmentConfig(name="t", dataset=tmp_path / "d.jsonl", sandbox_concurrency=2, episode_grace_sec=5)
    with pytest.raises(ValueError, match="episode_grace_sec"):
        EnvironmentConfig(name="t", tasks=tmp_path, episode_grace_sec=-1)


def test_episodes_run_one_per_core_at_most_the_sweeps_concurrency():
    import os

    from gym_pipeline.taskfolders.collect import default_sandbox_concurrency

    assert default_sandbox_concurrency(16) == min(16, os.cpu_count())
    assert default_sandbox_concurrency(1) == 1
