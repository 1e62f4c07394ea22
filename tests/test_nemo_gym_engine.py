"""The NeMo Gym engine against a real NeMo Gym install and the simulated policy.

Needs GYM_PIPELINE_NEMO_GYM (the `gym` path scripts/install-nemo-gym.sh prints); skips without it, or when the
install cannot run here. Ray (started by `gym env start`) listens on every interface, which our network rule
forbids, so the real collection runs in a loopback-only network namespace (tests/nemo_gym_driver.py under
`unshare --net --uts --pid`, root only; skips when unshare cannot make one). A real `gym env start` (Ray +
4 servers) takes 15-60 s on a loaded 2-core machine.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
import yaml

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.demo import run_demo
from gym_pipeline.engines import nemo_gym
from gym_pipeline.engines.nemo_gym import NemoGymError, key_map
from gym_pipeline.environments import get_environment
from gym_pipeline.serving.checkpoints import demo_checkpoints

pytestmark = [pytest.mark.integration, pytest.mark.timeout(420)]
DRIVER = Path(__file__).with_name("nemo_gym_driver.py")
UNSHARE = ["unshare", "--net", "--uts", "--pid", "--fork", "--kill-child", "--mount-proc"]
DRIVER_TIMEOUT_S = 240  # the collection takes 20-60 s; unshare is killed after this


def _rows(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()] if path.exists() else []


def _processes_in_netns(netns: str) -> set[int]:
    """Host processes in the network namespace `netns` (`net:[inode]`): none once the namespace's pid 1 is gone."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.readlink(entry / "ns" / "net") == netns:
                found.add(int(entry.name))
        except OSError:
            continue
    return found


def _is_loopback_or_wildcard(local: str) -> bool:
    host = local.rsplit(":", 1)[0].strip("[]").split("%")[0]
    if host in ("*", "0.0.0.0", "::"):
        return True  # every interface of a namespace whose only interface is lo
    address = ipaddress.ip_address(host)
    return address.is_loopback or (address.version == 6 and bool(address.ipv4_mapped)
                                   and address.ipv4_mapped.is_loopback)


@pytest.fixture(scope="module")
def gym_executable() -> Path:
    if not os.environ.get(nemo_gym.ENV_VAR):
        pytest.skip(f"{nemo_gym.ENV_VAR} is unset: run scripts/install-nemo-gym.sh and export what it prints")
    try:
        gym = nemo_gym.resolve_gym_executable()
        nemo_gym.gym_venv_of(gym)
        probe = subprocess.run([str(gym), "env", "start", "--help"], capture_output=True, timeout=120)
    except (NemoGymError, OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"the NeMo Gym install at {os.environ[nemo_gym.ENV_VAR]} does not work here: {error}")
    if probe.returncode != 0:
        pytest.skip(f"`gym env start --help` fails here: {probe.stderr.decode(errors='replace')[-500:]}")
    return gym


@pytest.fixture(scope="module")
def loopback_namespace() -> list[str]:
    """The `unshare` prefix for a loopback-only namespace; skips where it cannot be made (not root, no unshare)."""
    if not shutil.which("unshare"):
        pytest.skip("util-linux `unshare` not installed: the real Gym must not run on the host's network")
    try:
        probe = subprocess.run([*UNSHARE, "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"`unshare` cannot make a network namespace here: {error}")
    if probe.returncode != 0:
        pytest.skip(f"`unshare` cannot make a network namespace here (root needed): "
                    f"{probe.stderr.decode(errors='replace').strip()}")
    return UNSHARE


def test_key_map_restores_our_rollout_indices():
    ours = [{"_ng_task_index": 0, "_ng_rollout_index": 0}, {"_ng_task_index": 1, "_ng_rollout_index": 2},
            {"_ng_task_index": 1, "_ng_rollout_index": 3}]
    gyms = [{"_ng_task_index": 0, "_ng_rollout_index": 0}, {"_ng_task_index": 1, "_ng_rollout_index": 0},
            {"_ng_task_index": 1, "_ng_rollout_index": 1}]
    assert key_map(ours, gyms) == {(0, 0): (0, 0), (1, 0): (1, 2), (1, 1): (1, 3)}
    with pytest.raises(NemoGymError, match="materialized 2 rows"):
        key_map(ours, gyms[:2])


def test_missing_gym_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv(nemo_gym.ENV_VAR, raising=False)
    with pytest.raises(NemoGymError, match="install-nemo-gym.sh"):
        nemo_gym.resolve_gym_executable(tmp_path / "no-such-gym")


def test_real_gym_collects_our_keys_and_leaves_nothing_running(gym_executable, loopback_namespace, tmp_path):
    environment = get_environment("string_match")
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(environment.dataset_path.read_bytes().splitlines(keepends=True)[:3]))
    run_dir = tmp_path / "runs" / "ckpt" / "string_match"
    run_dir.mkdir(parents=True)
    materialized = run_dir / "rollouts_materialized_inputs.jsonl"
    materialize_file(source, materialized, MaterializationSettings(2, "string_match_simple_agent"))
    # Keep a non-contiguous subset (task 1 only its rollout 1), as a partial re-collection would send:
    # Gym renumbers rollout indices from 0 per task, the engine must map them back.
    rows = [row for row in _rows(materialized) if (row["_ng_task_index"], row["_ng_rollout_index"]) != (1, 0)]
    materialized.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [environment])[0]
    # The collection (policy, Ray, Gym's servers) runs in its own loopback-only namespace; killing unshare
    # (on timeout) kills the namespace's pid 1 and with it every process inside.
    result = _run_in_namespace(loopback_namespace, {
        "materialized": str(materialized), "rollouts": str(run_dir / "rollouts.jsonl"),
        "environment": environment.name, "checkpoint": str(checkpoint), "gym": str(gym_executable), "concurrency": 4,
    }, tmp_path)
    summary = result["summary"]

    # The namespace: only lo, and everything that listened while Gym and Ray were up was on it.
    assert result["interfaces"] == ["lo"]
    listeners = [line.split() for line in result["listeners_while_up"].splitlines()[1:] if line.strip()]
    assert len(listeners) >= 5, result["listeners_while_up"]  # policy, head server, Gym's servers, Ray
    assert any("raylet" in line[-1] or "gcs_server" in line[-1] for line in listeners), result["listeners_while_up"]
    assert all(_is_loopback_or_wildcard(line[4]) for line in listeners), result["listeners_while_up"]

    expected = {(row["_ng_task_index"], row["_ng_rollout_index"]) for row in rows}
    successes = _rows(run_dir / "rollouts.jsonl")
    failures = _rows(run_dir / "rollouts_failures.jsonl")
    got = {(row["_ng_task_index"], row["_ng_rollout_index"]) for row in successes}
    failed_keys = {tuple(key) for key in summary["failed_keys"]}
    assert got | failed_keys == expected, (got, failed_keys)
    assert (1, 1) in got | failed_keys and (1, 0) not in got
    assert summary["total"] == len(rows) and summary["collected"] == len(successes) == len(got)
    assert summary["servers_ready"].split(" / ")[0] == summary["servers_ready"].split(" / ")[1]
    for row in successes:
        assert row["reward"] in (0.0, 1.0)
        assert row["agent_ref"] == {"name": "string_match_simple_agent"}
        assert row["response"]["usage"]["output_tokens"] > 0
    assert summary["failure_rows"] == len(failures)
    assert (run_dir / "logs" / "gym_env_start.log").read_text().count("servers ready") >= 1
    assert "Finished rollout collection" in (run_dir / "logs" / "gym_eval_run.log").read_text()
    # Gym's own files stay apart: our materialized inputs are untouched.
    assert _rows(materialized) == rows
    assert (run_dir / "nemo_gym" / "rollouts_materialized_inputs.jsonl").exists()
    assert summary["eval_exit_code"] == 0
    # Nothing left running: the engine's own teardown found no leftovers (it raises otherwise), and no
    # process (Ray's daemons and workers, Gym's servers, the policy) is left in the namespace.
    assert _processes_in_netns(result["netns"]) == set()


# a team's overrides file kept beside the run, carrying a setting from another use of Gym: (its lines, the reading
# the diagnosis gives, the start of its title)
KEPT_SETTINGS = {
    "load_test": (["++skip_verification=true", "++skip_verification_reward=0.0"], "verification_skipped_by_a_kept_setting",
                  "team_overrides.txt:3 turns Gym's verification off (`skip_verification=true`)"),
    "base_model_eval": (["++policy_model.responses_api_models.vllm_model.use_completions_api=true"], "model_refusals",
                        "team_overrides.txt:3 turns on `use_completions_api`: Gym's vllm_model calls /v1/completions"),
}


@pytest.mark.parametrize("kept", list(KEPT_SETTINGS))
def test_a_team_overrides_file_keeping_another_uses_setting_is_named_by_the_diagnosis(gym_executable, loopback_namespace,
                                                                                     tmp_path, kept):
    """The team's overrides for `gym env start`, kept beside the run, still carry a load test's `skip_verification`
    (every rollout gets the placeholder reward) or a base-model eval's `use_completions_api` (every call 404s on the
    policy, which serves chat completions): the diagnosis names the file's line (config)."""
    from gym_pipeline.diagnose import diagnose

    overrides, reading, title = KEPT_SETTINGS[kept]
    environment = get_environment("string_match")
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(environment.dataset_path.read_bytes().splitlines(keepends=True)[:4]))
    run_dir = tmp_path / "runs" / "ckpt" / "string_match"
    run_dir.mkdir(parents=True)
    (run_dir / "team_overrides.txt").write_text("# settings every eval of the team passes to `gym env start`\n"
                                                f"# (from the {kept.replace('_', ' ')})\n" + "\n".join(overrides) + "\n")
    materialize_file(source, run_dir / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(2, "string_match_simple_agent"))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [environment])[0]
    _run_in_namespace(loopback_namespace, {
        "materialized": str(run_dir / "rollouts_materialized_inputs.jsonl"), "rollouts": str(run_dir / "rollouts.jsonl"),
        "environment": environment.name, "checkpoint": str(checkpoint), "gym": str(gym_executable), "concurrency": 4,
        "overrides": overrides}, tmp_path)

    report = diagnose(run_dir)

    top = report.causes[0]
    assert (top.category, top.id) == ("config", reading), [f.title for f in report.causes]
    assert top.title.startswith(title), top.title


# a preparation script adapted from the team's chat completions tools: it types content parts as that API types them
AS_CONTENT_PARTS = """import json, sys

with open(sys.argv[1]) as rows, open("rollouts_source.jsonl", "w") as out:
    for line in rows:
        row = json.loads(line)
        question = row["responses_create_params"]["input"][-1]["content"][0]["text"]
        row["responses_create_params"]["input"] = [{{"role": "user",
                                                     "content": [{{"type": "{kind}", "text": question}}]}}]
        out.write(json.dumps(row) + "\\n")
"""


@pytest.mark.parametrize("kind", ["text", "input_text"])
def test_content_parts_typed_as_chat_completions_types_them_are_refused_by_gyms_request_model(
        gym_executable, loopback_namespace, tmp_path, kind):
    """The user's prepare_data.py writes each prompt as a content part typed `text` (the chat completions form): Gym's
    Responses request model refuses the rows (422), and the diagnosis names the script's line. Typed `input_text`, the
    same run is healthy."""
    from gym_pipeline.diagnose import diagnose

    environment = get_environment("string_match")
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(environment.dataset_path.read_bytes().splitlines(keepends=True)[:4]))
    run_dir = tmp_path / "runs" / "ckpt" / "string_match"
    run_dir.mkdir(parents=True)
    (run_dir / "prepare_data.py").write_text(AS_CONTENT_PARTS.format(kind=kind))
    subprocess.run([sys.executable, "prepare_data.py", str(source)], cwd=run_dir, check=True)
    materialize_file(run_dir / "rollouts_source.jsonl", run_dir / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(2, "string_match_simple_agent"))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [environment])[0]
    _run_in_namespace(loopback_namespace, {
        "materialized": str(run_dir / "rollouts_materialized_inputs.jsonl"), "rollouts": str(run_dir / "rollouts.jsonl"),
        "environment": environment.name, "checkpoint": str(checkpoint), "gym": str(gym_executable), "concurrency": 4},
        tmp_path)

    report = diagnose(run_dir)

    if kind == "input_text":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "request_schema"), [f.title for f in report.causes]
    assert "content parts are typed `text` (the chat completions form)" in top.cause, top.cause
    assert "In prepare_data.py:8 (`" in top.fix and "which writes them, type the rows' content parts" in top.fix, top.fix


@pytest.mark.parametrize("debugging", [True, False], ids=["one_at_a_time", "as_asked"])
def test_a_kept_num_samples_in_parallel_of_one_spends_the_dispatch_budget_and_is_named(gym_executable, loopback_namespace,
                                                                                       tmp_path, debugging):
    """The team's overrides keep `num_samples_in_parallel=1` from debugging beside a CI's `dispatch_budget_s`: Gym runs
    one rollout at a time whatever the concurrency asked, and the budget drains the rest (throughput, named with the
    setting). Without the debugging line, the same budget is enough: healthy."""
    from gym_pipeline.diagnose import diagnose

    environment = get_environment("string_match")
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(environment.dataset_path.read_bytes().splitlines(keepends=True)[:4]))
    run_dir = tmp_path / "runs" / "ckpt" / "string_match"
    run_dir.mkdir(parents=True)
    overrides = ["++dispatch_budget_s=20", *(["++num_samples_in_parallel=1"] if debugging else [])]
    (run_dir / "ci_overrides.txt").write_text("# the CI step's settings for `gym eval run`\n" + "\n".join(overrides) + "\n")
    materialize_file(source, run_dir / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(2, "string_match_simple_agent"))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [environment])[0]
    _run_in_namespace(loopback_namespace, {
        "materialized": str(run_dir / "rollouts_materialized_inputs.jsonl"), "rollouts": str(run_dir / "rollouts.jsonl"),
        "environment": environment.name, "checkpoint": str(checkpoint), "gym": str(gym_executable), "concurrency": 4,
        "overrides": overrides, "latency_ms": 4000}, tmp_path)

    report = diagnose(run_dir)

    if not debugging:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "rows_left_undispatched_by_the_dispatch_budget"), [
        f.title for f in report.causes]
    assert top.title.startswith("Gym ran 1 rollout(s) at a time, not 4: ci_overrides.txt:3 keeps "
                                "`num_samples_in_parallel=1`"), top.title


# settings given to `gym env start` that keep every server from coming up, and their twins that do not: (the
# settings file's lines, the twin's lines, the reading, the start of its title)
START_SETTINGS = {
    "dry_run": (["++dry_run=true"], ["++dry_run=false"], "servers_only_prepared_by_a_kept_dry_run",
                "settings.txt:2 runs `gym env start` as a dry run (`dry_run=true`)"),
    "port_range": (["++port_range_low=30000", "++port_range_high=30002"],
                   ["++port_range_low=30000", "++port_range_high=30099"],
                   "port_range_narrower_than_the_servers_gym_starts", "settings.txt:3 gives Gym 3 port(s)"),
    "config_paths": (["+config_paths=CONFIGS/a.yaml,CONFIGS/b.yaml"], ["+config_paths=[CONFIGS/a.yaml,CONFIGS/b.yaml]"],
                     "known_problems", "Hydra read the override `+config_paths` as a sweep"),
}


@pytest.mark.parametrize("twin", [False, True], ids=["kept", "twin"])
@pytest.mark.parametrize("setting", list(START_SETTINGS))
def test_start_settings_that_keep_gyms_servers_from_coming_up_are_named(gym_executable, loopback_namespace, tmp_path,
                                                                       setting, twin):
    """A settings file given to a real `gym env start` keeps a build step's `dry_run=true` (it prepares the venvs and
    exits), opens a port range narrower than the servers Gym starts (its port search never ends), or joins two
    settings files with a comma and no brackets (Hydra reads a sweep): no server comes up, and the diagnosis names
    the setting (config). Each twin's servers come up, and the reading stays quiet."""
    from gym_pipeline.diagnose import diagnose

    kept, fixed, reading, title = START_SETTINGS[setting]
    run_dir = tmp_path / "run"
    (run_dir / "configs").mkdir(parents=True)
    (run_dir / "configs" / "a.yaml").write_text("policy_model:\n  responses_api_models:\n    vllm_model:\n"
                                                "      endpoint_connection_retries: 10\n")
    (run_dir / "configs" / "b.yaml").write_text("server_spinup_timeout_seconds: 900\n")
    overrides = [line.replace("CONFIGS", str(run_dir / "configs")) for line in (fixed if twin else kept)]
    (run_dir / "settings.txt").write_text("# the node's settings for `gym env start`\n" + "\n".join(overrides) + "\n")
    result = _gym_env_start(loopback_namespace, gym_executable, tmp_path, run_dir, overrides,
                            startup_timeout_s=60 if setting == "port_range" else 180)

    report = diagnose(run_dir)

    if twin:
        assert "ready" in result, result.get("error")
        assert all(f.id != reading for f in report.findings), [f.title for f in report.findings]
        return
    assert "error" in result, result
    top = report.causes[0]
    assert (top.category, top.id) == ("config", reading), [f.title for f in report.causes]
    assert top.title.startswith(title), top.title


@pytest.mark.parametrize("value", ["none", "reasoning_content"])
def test_an_env_file_setting_a_gym_variable_to_a_value_it_refuses_is_named_with_its_line(gym_executable,
                                                                                       loopback_namespace, tmp_path,
                                                                                       value):
    """harness.env, copied from another team, exports NEMO_GYM_REASONING_FIELD=none: Gym's model proxy refuses the
    value at start (ValueError), and the diagnosis places the error in config by the env file's line. With a value Gym
    accepts, the servers come up."""
    from gym_pipeline.diagnose import diagnose

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "harness.env").write_text("# the harness team's launcher environment\n"
                                         f"export NEMO_GYM_REASONING_FIELD={value}\n")
    result = _gym_env_start(loopback_namespace, gym_executable, tmp_path, run_dir, [], startup_timeout_s=180,
                            environment={"NEMO_GYM_REASONING_FIELD": value})

    report = diagnose(run_dir)

    if value != "none":
        assert "ready" in result, result.get("error")
        return
    top = report.causes[0]
    assert top.category == "config", [f.title for f in report.causes]
    assert "NEMO_GYM_REASONING_FIELD must be one of" in top.title, top.title
    assert "harness.env:2 `export NEMO_GYM_REASONING_FIELD=none` sets NEMO_GYM_REASONING_FIELD to a value the " \
           "program refuses" in top.fix, top.fix


@pytest.mark.parametrize("exported", [False, True], ids=["unset", "exported"])
def test_a_model_name_falling_back_to_a_settings_default_the_server_does_not_serve_is_named(gym_executable,
                                                                                            loopback_namespace,
                                                                                            tmp_path, exported):
    """The serving team's team_model.yaml names the model `${oc.env:SERVED_MODEL_NAME,Qwen/Qwen3-8B}`; their launcher
    exports SERVED_MODEL_NAME, this shell does not: Gym asks the policy for Qwen/Qwen3-8B, which it does not serve
    (config, the settings' line named). Exported as the served name, the collection is healthy."""
    from gym_pipeline.diagnose import diagnose

    environment = get_environment("string_match")
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(environment.dataset_path.read_bytes().splitlines(keepends=True)[:4]))
    run_dir = tmp_path / "runs" / "ckpt" / "string_match"
    run_dir.mkdir(parents=True)
    (run_dir / "team_model.yaml").write_text("# the serving team's model settings (their launcher exports "
                                             "SERVED_MODEL_NAME)\npolicy_model:\n  responses_api_models:\n"
                                             "    vllm_model:\n      model: ${oc.env:SERVED_MODEL_NAME,Qwen/Qwen3-8B}\n")
    materialize_file(source, run_dir / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(2, "string_match_simple_agent"))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [environment])[0]
    _run_in_namespace(loopback_namespace, {
        "materialized": str(run_dir / "rollouts_materialized_inputs.jsonl"), "rollouts": str(run_dir / "rollouts.jsonl"),
        "environment": environment.name, "checkpoint": str(checkpoint), "gym": str(gym_executable), "concurrency": 4,
        "overrides": [f"+config_paths=[{run_dir / 'team_model.yaml'}]"],
        **({"exported": {"SERVED_MODEL_NAME": "sim-policy"}} if exported else {})}, tmp_path)

    report = diagnose(run_dir)

    if exported:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "model_name_fallen_back_to_a_settings_default"), [
        f.title for f in report.causes]
    assert top.title == ("team_model.yaml:5 takes the model name from $SERVED_MODEL_NAME, unset here, and fell back "
                         "to Qwen/Qwen3-8B, which the model server does not serve")


def _gym_env_start(prefix: list[str], gym: Path, tmp_path: Path, run_dir: Path, overrides: list[str], *,
                   startup_timeout_s: float, environment: dict[str, str] | None = None, hosts: str | None = None,
                   held_port: int | None = None, link_venvs: bool = True, resources_server: str = "string_match",
                   search_dirs: tuple[Path, ...] = ()) -> dict:
    """A real `gym env start` of string_match (the simulated policy behind it) in the loopback-only namespace, with
    `overrides`, `environment`, the node's /etc/hosts `hosts` and another program listening on `held_port`, its log
    kept as RUN/env_start.log; the driver's result ("ready" or "error"). Without `link_venvs`, the servers' venvs
    are where `overrides` say (`++uv_venv_dir`), not linked to the CLI's own. `search_dirs` hold the user's own
    servers (Gym's `--search-dir`), `resources_server` one of them."""
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [get_environment("string_match")])[0]
    start = {"resources_server": resources_server, "checkpoint": str(checkpoint), "log": str(run_dir / "env_start.log"),
             "overrides": overrides, "startup_timeout_s": startup_timeout_s, "environment": environment or {},
             "link_venvs": link_venvs, "search_dirs": [str(folder) for folder in search_dirs]}
    return _run_in_namespace(prefix, {"gym": str(gym), "env_start": start | ({"hosts": hosts} if hosts else {})
                                      | ({"held_port": held_port} if held_port else {})}, tmp_path)


@pytest.mark.parametrize("port", [8000, None], ids=["pinned", "free"])
def test_a_gym_server_config_pinning_a_port_another_program_holds_is_named(gym_executable, loopback_namespace,
                                                                         tmp_path, port):
    """A debugging setup's YAML gives the string_match server `port: 8000`, where another program of the node (vLLM's
    default port) listens: the server cannot bind it, and `gym env start` shuts down (config, the YAML's line named).
    Without the port line, Gym picks a free port and the servers come up."""
    from gym_pipeline.diagnose import diagnose

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "debug_ports.yaml").write_text(
        "string_match:\n  resources_servers:\n    string_match:\n"
        + ("      # fixed port so the debug script can reach the verifier\n      port: 8000\n" if port else
           "      domain: knowledge\n"))
    result = _gym_env_start(loopback_namespace, gym_executable, tmp_path, run_dir,
                            [f"+config_paths=[{run_dir / 'debug_ports.yaml'}]"], startup_timeout_s=180, held_port=8000)
    log = (run_dir / "env_start.log").read_text()
    assert ("address already in use" in log) == bool(port), log[-2000:]

    report = diagnose(run_dir)

    if not port:
        assert result.get("ready"), result
        assert all(f.id != "gym_server_config_pins_a_taken_port" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "gym_server_config_pins_a_taken_port"), [f.title for f in report.causes]
    assert top.evidence[1].where == "debug_ports.yaml:5"
    assert top.fix.startswith("Remove `port: 8000` from debug_ports.yaml (line 5)")


@pytest.mark.parametrize("venvs", ["swept", "kept"])
def test_a_server_venv_gone_from_its_folder_on_a_node_without_uv_is_named(gym_executable, loopback_namespace,
                                                                          tmp_path, venvs):
    """The servers' prebuilt venvs are looked for in a folder the node's tmp cleaner emptied (`++uv_venv_dir`): Gym
    sets out to build them, and the node has no uv (infra, the server's venv path named). With the venvs where Gym
    looks, the servers come up."""
    from gym_pipeline.diagnose import diagnose

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    swept = tmp_path / "swept_venvs"
    swept.mkdir()
    overrides = [f"++uv_venv_dir={swept}", "++skip_venv_if_present=true"] if venvs == "swept" else []
    result = _gym_env_start(loopback_namespace, gym_executable, tmp_path, run_dir, overrides, startup_timeout_s=180,
                            environment={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},  # a node without uv
                            link_venvs=venvs == "kept")
    log = (run_dir / "env_start.log").read_text()
    assert ("uv: command not found" in log) == (venvs == "swept"), log[-2000:]

    report = diagnose(run_dir)

    if venvs == "kept":
        assert result.get("ready"), result
        assert all(f.id != "pipeline_command_not_on_path" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "pipeline_command_not_on_path"), [f.title for f in report.causes]
    assert top.title.startswith("`gym env start` had to build ")  # the venv of whichever server set out first
    assert top.title.endswith("was not there), and the node has no uv")
    assert f"Restore the prebuilt venv at {swept}/" in top.fix


@pytest.mark.parametrize("imports", ["rapidfuzz", "difflib"])
def test_a_users_server_whose_requirements_gained_a_package_its_reused_venv_lacks_is_named(gym_executable,
                                                                                          loopback_namespace,
                                                                                          tmp_path, imports):
    """The user's own resources server (Gym's string_match, copied as fuzzy_match) now imports rapidfuzz, added to its
    requirements.txt; its venv, prebuilt and reused as it is (`++skip_venv_if_present=true`), predates it: the
    server dies at import and the servers never get ready (cache/resume, the requirement named). Importing what the
    venv has (difflib), the servers come up."""
    from gym_pipeline.diagnose import diagnose

    run_dir = tmp_path / "run"
    server = run_dir / "my_gym" / "resources_servers" / "fuzzy_match"
    site = next((nemo_gym.gym_venv_of(gym_executable) / "lib").glob("python3*/site-packages"))
    shutil.copytree(site / "resources_servers" / "string_match", server,
                    ignore=shutil.ignore_patterns("__pycache__", "tests", ".venv"))
    (server / "app.py").write_text(f"import {imports}  # this week: near-miss spellings get partial credit\n"
                                   + (server / "app.py").read_text())
    (server / "requirements.txt").write_text("-e nemo-gym[dev] @ ../../\nfastapi\nrapidfuzz\n")
    configs = server / "configs"
    (configs / "fuzzy_match.yaml").write_text((configs / "string_match.yaml").read_text().replace("string_match",
                                                                                                  "fuzzy_match"))
    (configs / "string_match.yaml").unlink()
    result = _gym_env_start(loopback_namespace, gym_executable, tmp_path, run_dir, [], startup_timeout_s=180,
                            resources_server="fuzzy_match", search_dirs=(run_dir / "my_gym",))
    log = (run_dir / "env_start.log").read_text()

    report = diagnose(run_dir)

    if imports == "difflib":
        assert result.get("ready"), log[-2000:]
        assert all(f.id != "server_venv_older_than_its_requirements" for f in report.findings)
        return
    assert "No module named 'rapidfuzz'" in log, log[-2000:]
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "server_venv_older_than_its_requirements"), [
        f.title for f in report.causes]
    assert top.evidence[1].where == "my_gym/resources_servers/fuzzy_match/requirements.txt:3"
    assert "`++skip_venv_if_present=true`" in top.fix


@pytest.mark.parametrize("hosts", ["::1 localhost ip6-localhost\n", "127.0.0.1 localhost\n::1 ip6-localhost\n"],
                         ids=["ipv6_only", "ipv4_localhost"])
def test_a_hosts_file_mapping_localhost_to_the_ipv6_loopback_only_is_named(gym_executable, loopback_namespace,
                                                                           tmp_path, hosts):
    """The node's /etc/hosts, rendered from an IPv6-only template, maps localhost to ::1 only: Ray's node address
    resolves there, its GCS never answers, and `gym env start` never gets ready (infra, /etc/hosts named). With
    `127.0.0.1 localhost`, the servers come up."""
    from gym_pipeline.diagnose import diagnose

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    result = _gym_env_start(loopback_namespace, gym_executable, tmp_path, run_dir, [],
                            startup_timeout_s=90 if hosts.startswith("::1") else 180, hosts=hosts)

    if not hosts.startswith("::1"):
        assert "ready" in result, result.get("error")
        return
    assert "error" in result, result
    top = diagnose(run_dir).causes[0]
    assert top.category == "infra", top.title
    assert top.title.endswith("its node name resolved to the IPv6 loopback"), top.title
    assert "`127.0.0.1 localhost` line" in top.fix


@pytest.mark.parametrize("piped", [True, False])
def test_an_eval_piped_into_head_ends_when_head_stops_reading(gym_executable, loopback_namespace, tmp_path, piped):
    """The weekly script keeps the console short: `gym eval run ... 2>&1 | head -n 25`. Once head has its lines it
    exits, and Gym's next line of progress meets the closed pipe: the eval ends part way and the profile refuses the
    missing rows. Written to a file and shown with head afterwards, the eval is whole."""
    from gym_pipeline.diagnose import diagnose

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:10]
    (run_dir / "tasks.jsonl").write_text("".join(rows))
    shown = "2>&1 | head -n 25" if piped else "> logs/eval.log 2>&1; head -n 25 logs/eval.log"
    script = ("# only the first lines of the eval's output on the console\n"
              "gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output "
              f"results/rollouts.jsonl --num-repeats 3 --concurrency 2 ++route_failures_to_sidecar=true $GYM_OVERRIDES "
              f"{shown}\ngym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts "
              "results/rollouts.jsonl $GYM_OVERRIDES\n")
    start = {"resources_server": "string_match", "log": str(run_dir / "env_start.log"), "overrides": [],
             "startup_timeout_s": 300, "script": script,
             "checkpoint": str(demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0])}
    result = _run_in_namespace(loopback_namespace, {"gym": str(gym_executable), "env_start": start}, tmp_path)
    assert "ready" in result, result.get("error")

    report = diagnose(run_dir)

    if not piped:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "collection_piped_into_head"), top.title
    assert top.title.startswith("run_eval.sh:3 pipes the collection into `head -n 25`, which stopped reading")
    assert "`... > logs/eval.log 2>&1; head -n 25 logs/eval.log`" in top.fix


def _run_in_namespace(prefix: list[str], request: dict, tmp_path: Path) -> dict:
    """The driver in the loopback-only namespace; its result, or a failure with the end of its log."""
    request_path, result_path, driver_log = tmp_path / "request.json", tmp_path / "result.json", tmp_path / "driver.log"
    request_path.write_bytes(orjson.dumps(request))
    with driver_log.open("wb") as log:
        driver = subprocess.Popen([*prefix, sys.executable, str(DRIVER), str(request_path), str(result_path)],
                                  stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                  cwd=Path(__file__).parent.parent, start_new_session=True)
        try:
            driver.wait(timeout=DRIVER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if driver.poll() is None:
                driver.kill()
                driver.wait()
    tail = "\n".join(driver_log.read_text(errors="replace").splitlines()[-40:])
    assert driver.returncode == 0, f"driver exited {driver.returncode}:\n{tail}"
    return orjson.loads(result_path.read_bytes())


def test_a_sweep_configured_for_nemo_gym_collects_through_it(gym_executable, loopback_namespace, tmp_path):
    home = tmp_path / "home"
    run_demo(home, checkpoint_count=1, quiet=True)  # inputs, and rollouts of the built-in engine
    config = yaml.safe_load((home / "sweep.yaml").read_text())
    config |= {"engine": "nemo_gym", "nemo_gym": {"executable": str(gym_executable)}}
    (home / "sweep.yaml").write_text(yaml.safe_dump(config))

    result = _run_in_namespace(loopback_namespace, {"backfill": ["--home", str(home), "--env", "string_match"]},
                               tmp_path)

    assert result["exit_code"] == 0 and result["interfaces"] == ["lo"]
    assert _processes_in_netns(result["netns"]) == set()  # Gym, Ray and the policy ended with the namespace
    run_dir = home / "runs" / "step_0100" / "string_match"
    manifest = orjson.loads((run_dir / "manifest.json").read_bytes())
    assert manifest["rollouts"]["engine"] == "nemo_gym" and manifest["rollouts"]["status"] == "complete"
    keys = {(row["_ng_task_index"], row["_ng_rollout_index"]) for row in _rows(run_dir / "rollouts.jsonl")}
    assert keys == {(row["_ng_task_index"], row["_ng_rollout_index"])
                    for row in _rows(run_dir / "rollouts_materialized_inputs.jsonl")}
    assert (run_dir / "logs" / "gym_env_start.log").exists() and (run_dir / "logs" / "gym_eval_run.log").exists()
    assert orjson.loads((run_dir / "diagnosis.json").read_bytes())["category"] == "healthy"

    # The reverify job re-scores the partition through Gym's own /verify, no model server: Gym's rewards again.
    rewards = {(row["_ng_task_index"], row["_ng_rollout_index"]): row["reward"]
               for row in _rows(run_dir / "rollouts.jsonl")}
    result = _run_in_namespace(loopback_namespace, {"backfill": ["--home", str(home), "--env", "string_match",
                                                                 "--job", "reverify"]}, tmp_path)
    assert result["exit_code"] == 0 and _processes_in_netns(result["netns"]) == set()
    manifest = orjson.loads((run_dir / "manifest.json").read_bytes())
    assert manifest["reverify"]["verifier"]["name"] == "string_match (NeMo Gym resources server)"
    assert manifest["reverify"]["output"]["changed"] == 0
    assert rewards == {(row["_ng_task_index"], row["_ng_rollout_index"]): row["reward"]
                       for row in _rows(run_dir / "rollouts.jsonl")}
