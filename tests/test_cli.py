"""The stage commands on their own, chained the way a NeMo Gym user runs them by hand."""

import shutil
import socket
import subprocess
import sys

import orjson
import pytest

from gym_pipeline.cli import main
from gym_pipeline.environments import get_environment


def _materialize(run_dir):
    inputs = run_dir / "rollouts_materialized_inputs.jsonl"
    assert main(["materialize", "--input", str(get_environment("mcqa").dataset_path), "--num-repeats", "2",
                 "--agent", "mcqa_simple_agent", "--output", str(inputs)]) == 0
    return inputs


def test_materialize_collect_profile_diagnose(policy_endpoint, tmp_path, capsys):
    inputs = _materialize(tmp_path)
    rollouts = tmp_path / "rollouts.jsonl"
    assert main(["collect", "--inputs", str(inputs), "--output", str(rollouts), "--model-url", policy_endpoint.url,
                 "--env", "mcqa", "--concurrency", "8"]) == 0
    assert len(rollouts.read_bytes().splitlines()) == len(inputs.read_bytes().splitlines())
    assert main(["profile", "--inputs", str(inputs), "--rollouts", str(rollouts)]) == 0
    profile_rows = (tmp_path / "rollouts_reward_profiling.jsonl").read_bytes().splitlines()
    assert len(profile_rows) == len(get_environment("mcqa").dataset_path.read_bytes().splitlines())
    capsys.readouterr()
    assert main(["diagnose", str(tmp_path), "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out)["category"] == "healthy"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_failed_collection_is_diagnosed_as_model_serving(tmp_path, capsys):
    inputs = _materialize(tmp_path)
    code = main(["collect", "--inputs", str(inputs), "--output", str(tmp_path / "rollouts.jsonl"),
                 "--model-url", f"http://127.0.0.1:{_closed_port()}/v1", "--model", "m", "--env", "mcqa"])
    assert code == 1
    capsys.readouterr()
    assert main(["diagnose", str(tmp_path), "--json"]) == 1
    report = orjson.loads(capsys.readouterr().out)
    assert report["category"] == "model_serving"
    first = report["findings"][0]
    assert set(first) == {"id", "role", "caused_by", "category", "title", "evidence", "cause", "fix"}
    assert first["role"] == "cause" and first["caused_by"] is None
    assert any(item["file"].endswith("rollouts_failures.jsonl") for item in first["evidence"])


def test_unknown_environment_is_a_clear_error(tmp_path, capsys):
    inputs = _materialize(tmp_path)
    code = main(["collect", "--inputs", str(inputs), "--output", str(tmp_path / "r.jsonl"),
                 "--model-url", "http://127.0.0.1:9/v1", "--env", "no_such_env"])
    assert code == 2
    err = capsys.readouterr().err
    assert "no_such_env" in err and "string_match" in err and "Traceback" not in err


def test_strict_profile_lists_missing_keys(fixtures_dir, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(fixtures_dir / "partial_run_with_failures", run)
    code = main(["profile", "--inputs", str(run / "rollouts_materialized_inputs.jsonl"),
                 "--rollouts", str(run / "rollouts.jsonl"), "--output-dir", str(tmp_path / "out")])
    assert code == 2
    assert "[(2, 0), (2, 1), (2, 2), (2, 3)]" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_missing_input_file_is_named(tmp_path, capsys):
    missing = tmp_path / "nope.jsonl"
    assert main(["materialize", "--input", str(missing), "--num-repeats", "1", "--agent", "a",
                 "--output", str(tmp_path / "o.jsonl")]) == 2
    assert str(missing) in capsys.readouterr().err


def test_reporting_an_error_loads_neither_dagster_nor_matplotlib(tmp_path):
    """A stage's error is reported without importing the Dagster assets (and matplotlib with them): in a read-only
    container, matplotlib's import fails for want of a writable folder and would bury the error being reported."""
    code = ("import sys\nfrom gym_pipeline.cli import main\n"
            f"code = main(['serve-policy', '--checkpoint', {str(tmp_path / 'step_0100')!r}, '--port', '0'])\n"
            "print(code, 'dagster' in sys.modules, 'matplotlib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["2", "False", "False"], done.stdout + done.stderr


def test_a_checkpoint_without_its_step_is_named_with_file_and_field(tmp_path, capsys):
    checkpoint = tmp_path / "step_0100"
    checkpoint.mkdir()
    (checkpoint / "config.json").write_text("{}")
    assert main(["serve-policy", "--checkpoint", str(checkpoint), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "config.json" in err and "'step'" in err and "Traceback" not in err


def test_collecting_over_the_inputs_file_is_refused_and_the_inputs_are_kept(tmp_path, capsys):
    inputs = _materialize(tmp_path)
    before = inputs.read_bytes()
    assert main(["collect", "--inputs", str(inputs), "--output", str(inputs), "--model-url", "http://127.0.0.1:9/v1",
                 "--env", "mcqa"]) == 2
    assert "would overwrite the inputs it collects on" in " ".join(capsys.readouterr().err.split())
    assert inputs.read_bytes() == before


def test_a_resume_says_it_did_not_retry_what_an_earlier_run_gave_up_on(tmp_path, capsys, policy_endpoint):
    inputs = _materialize(tmp_path)
    rollouts = tmp_path / "rollouts.jsonl"
    down = ["collect", "--inputs", str(inputs), "--output", str(rollouts), "--model-url",
            f"http://127.0.0.1:{_closed_port()}/v1", "--model", "m", "--env", "mcqa"]
    assert main(down) == 1  # the server was not up: every rollout given up after its attempts
    capsys.readouterr()
    up = ["collect", "--inputs", str(inputs), "--output", str(rollouts), "--model-url", policy_endpoint.url,
          "--env", "mcqa", "--resume"]
    assert main(up) == 1
    err = " ".join(capsys.readouterr().err.split())
    rows = len(inputs.read_bytes().splitlines())
    assert f"0 collected, 0 already done, {rows} failed" in err
    assert f"{rows} of the failed were given up by an earlier run" in err and "without --resume" in err


def test_an_output_through_a_dangling_symlink_is_refused_and_nothing_is_created(tmp_path, capsys):
    # a scratch link whose filesystem is not mounted: writing through it would create the target's folders
    target = tmp_path / "scratch" / "runs"
    (tmp_path / "run").symlink_to(target)
    with pytest.raises(SystemExit):
        main(["materialize", "--input", str(tmp_path / "data.jsonl"), "--num-repeats", "1", "--agent", "a",
              "--output", str(tmp_path / "run" / "inputs.jsonl")])
    assert "which does not exist" in capsys.readouterr().err
    assert not (tmp_path / "scratch").exists()


def test_profiling_the_failures_sidecar_as_rollouts_says_which_file_to_give(tmp_path, capsys):
    inputs = _materialize(tmp_path)
    rollouts = tmp_path / "rollouts.jsonl"
    # a server that is not up: every rollout fails its attempts, a sidecar row for each
    assert main(["collect", "--inputs", str(inputs), "--output", str(rollouts), "--model-url",
                 f"http://127.0.0.1:{_closed_port()}/v1", "--model", "m", "--env", "mcqa"]) == 1
    capsys.readouterr()
    sidecar = tmp_path / "rollouts_failures.jsonl"
    assert main(["profile", "--inputs", str(inputs), "--rollouts", str(sidecar)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "this is the failures sidecar" in err and f"give --rollouts {rollouts}" in err


def test_an_option_that_takes_one_value_given_twice_is_refused(capsys):
    from gym_pipeline.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["materialize", "--input", "a.jsonl", "--input", "b.jsonl", "--num-repeats", "1", "--agent", "a",
              "--output", "out.jsonl"])

    assert exited.value.code == 2
    assert "--input given twice" in capsys.readouterr().err


def test_the_commands_run_under_python_minus_oo(tmp_path):
    """A node setting of PYTHONOPTIMIZE=2 strips docstrings; the parser must not be built from them."""
    import os
    import subprocess
    import sys

    environment = {**os.environ, "PYTHONOPTIMIZE": "2"}
    for command in (["--help"], ["tasks", "validate", "--help"]):
        done = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", *command], env=environment,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("usage: gym-pipeline")
