"""Security: names that become paths are validated, secrets never reach a file, a log or the UI, servers
listen on loopback, and no subprocess goes through a shell."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import dagster as dg
import orjson
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from gym_pipeline import cli_args
from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.cli import build_parser, main
from gym_pipeline.config import ConfigError, ModelServerConfig, check_safe_name, load_sweep_config
from gym_pipeline.core.manifest import read_manifest, record_stage
from gym_pipeline.core.redaction import redact, redact_value
from gym_pipeline.demo import QUIET_RUN_CONFIG, prepare_dagster_home, ui_command
from gym_pipeline.discovery import discover_checkpoints
from gym_pipeline.environments import get_environment
from gym_pipeline.serving import simulated_policy
from gym_pipeline.serving.servers import endpoint_identity
from gym_pipeline.sweep import EVAL_SWEEP_JOB, build_definitions, workspace_config

PACKAGE = Path(__file__).resolve().parents[1] / "gym_pipeline"
PASSWORD = "pw-SECRET-7d1c9e"
API_KEY = "sk-SECRETKEY-0123456789abcdef"
KEY_VAR = "GYM_PIPELINE_TEST_API_KEY"
SECRETS = (PASSWORD, API_KEY)

UNSAFE_NAMES = ["..", "../etc", "a/b", "/abs", "a\\b", ".hidden", "", "a..b", "x" * 200, "step 1", "ckpt:1", "-rf"]


# --------------------------------------------------------------------------------------------------
# Names that become paths


@pytest.mark.parametrize("name", UNSAFE_NAMES)
def test_unsafe_names_never_become_paths(tmp_path, name):
    config = workspace_config(tmp_path)
    for build in (lambda: config.run_dir(name, "mcqa"), lambda: config.run_dir("step_1", name),
                  lambda: config.checkpoint_dir(name), lambda: config.comparison_dir(name)):
        with pytest.raises(ValueError, match="must start with a letter or digit"):
            build()


@given(st.text(max_size=20) | st.sampled_from(["..", "a/../b", "/", "~", "a\x00b", "\\", "C:x"]))
def test_a_safe_name_stays_one_folder_below_its_root(name):
    root = Path("/runs")
    try:
        safe = check_safe_name(name)
    except ValueError:
        return
    assert (root / safe).parent == root and (root / safe).resolve().parent == root.resolve()
    assert not Path(safe).is_absolute() and ".." not in safe and "/" not in safe and "\\" not in safe


def test_sweep_config_refuses_unsafe_names_and_paths(tmp_path):
    path = tmp_path / "sweep.yaml"
    for environment in ({"name": "../x", "dataset": "d.jsonl"}, {"name": "ok", "dataset": "d\x00.jsonl"}):
        path.write_text(yaml.safe_dump({"environments": [environment]}))
        with pytest.raises(ConfigError, match=r"field 'environments\.0\.(name|dataset)'"):
            load_sweep_config(path)
    path.write_text(yaml.safe_dump({"name": "a/b", "environments": [{"name": "mcqa", "dataset": "d"}]}))
    with pytest.raises(ConfigError, match="field 'name'"):
        load_sweep_config(path)


def test_discovery_skips_checkpoint_folders_with_unsafe_names(tmp_path, caplog):
    config = workspace_config(tmp_path)
    for name in ("step_0100", "step 0200", "ckpt:3", ".partial"):
        (config.checkpoints_dir / name).mkdir(parents=True)
        (config.checkpoints_dir / name / "config.json").write_text("{}")
    assert discover_checkpoints(config) == ["step_0100"]
    assert "step 0200" in caplog.text and "ckpt:3" in caplog.text


def test_a_registry_line_with_an_unsafe_name_is_named(tmp_path):
    registry = tmp_path / "registry.txt"
    registry.write_text("ckpt-a\n/etc/passwd\n")
    config = workspace_config(tmp_path).model_copy(update={"checkpoint_registry": registry})
    with pytest.raises(ValueError, match="registry.txt:2"):
        discover_checkpoints(config)


def test_an_endpoint_url_is_never_built_from_an_unsafe_checkpoint_name():
    settings = ModelServerConfig(kind="endpoint", url_template="http://127.0.0.1:9/{checkpoint}/v1")
    with pytest.raises(ValueError, match="checkpoint name"):
        endpoint_identity(settings, "../../admin")


@pytest.mark.parametrize("name", ["../x", "a/b", ".hidden", ""])
def test_cli_refuses_an_unsafe_environment_name(tmp_path, capsys, name):
    with pytest.raises(SystemExit) as exit_:
        main(["collect", "--inputs", str(tmp_path / "i.jsonl"), "--output", str(tmp_path / "r.jsonl"),
              "--model-url", "http://127.0.0.1:9/v1", "--env", name])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --env" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------------------------------
# Secrets: redaction rules


@pytest.mark.parametrize(("text", "secret"), [
    (f"GET http://user:{PASSWORD}@127.0.0.1:8000/v1/models", PASSWORD),
    (f"https://{API_KEY}@example.com/v1", API_KEY),
    (f"Authorization: Bearer {API_KEY}", API_KEY),
    (f"api_key={API_KEY}", API_KEY),
    (f"OPENAI_API_KEY={API_KEY} gym eval run", API_KEY),
    (f"password={PASSWORD} user=me", PASSWORD),
    (f'{{"password": "{PASSWORD}"}}', PASSWORD),
    (f"connection to {API_KEY[:3]}... failed: key {API_KEY}", API_KEY),
])
def test_redact_hides_each_form_of_secret(text, secret):
    assert secret not in redact(text)
    assert "***" in redact(text)


def test_redact_value_hides_secrets_in_records_and_keeps_the_rest():
    record = {
        "model_url": f"http://user:{PASSWORD}@127.0.0.1:8000/v1",
        "settings": {"api_key": "short", "api_key_env": KEY_VAR, "max_tokens": 64, "hf_token": "abc"},
        "headers": [{"Authorization": "Basic dXNlcjpwYXNz"}],
        "digest": "sha256:0123", "rows": 3,
    }
    redacted = redact_value(record)
    assert redacted["model_url"] == "http://user:***@127.0.0.1:8000/v1"
    assert redacted["settings"] == {"api_key": "***", "api_key_env": KEY_VAR, "max_tokens": 64, "hf_token": "***"}
    assert redacted["headers"] == [{"Authorization": "***"}]
    assert (redacted["digest"], redacted["rows"]) == ("sha256:0123", 3)


def test_manifest_records_are_redacted(tmp_path):
    record_stage(tmp_path, "rollouts", {"model_url": f"http://me:{PASSWORD}@host/v1", "note": f"api_key={API_KEY}"})
    text = (tmp_path / "manifest.json").read_text()
    assert PASSWORD not in text and API_KEY not in text
    assert read_manifest(tmp_path)["rollouts"]["model_url"] == "http://me:***@host/v1"


def test_config_refuses_two_kinds_of_credentials(tmp_path):
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump({
        "environments": [{"name": "mcqa", "dataset": "d.jsonl"}],
        "model_server": {"kind": "endpoint", "url_template": f"http://u:{PASSWORD}@h/v1", "api_key_env": KEY_VAR},
    }))
    with pytest.raises(ConfigError) as caught:
        load_sweep_config(path)
    assert "use one of them" in str(caught.value) and PASSWORD not in str(caught.value)


# --------------------------------------------------------------------------------------------------
# Secrets: after real runs


def _with_credentials(url: str) -> str:
    return url.replace("http://", f"http://user:{PASSWORD}@", 1)


def _leaks(folder: Path, *texts: str, skip: tuple[str, ...] = ()) -> list[str]:
    """Where a secret shows up: files below `folder` (but `skip`) and the given texts."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name not in skip:
            data = path.read_bytes()
            found += [f"{path.relative_to(folder)}: {secret}" for secret in SECRETS if secret.encode() in data]
    found += [f"output: {secret}" for text in texts for secret in SECRETS if secret in text]
    return found


def _materialize(run: Path) -> Path:
    inputs = run / "rollouts_materialized_inputs.jsonl"
    assert main(["materialize", "--input", str(get_environment("mcqa").dataset_path), "--num-repeats", "1",
                 "--agent", "mcqa_simple_agent", "--output", str(inputs)]) == 0
    return inputs


def test_an_api_key_variable_that_is_not_set_is_refused_before_anything_is_collected(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(KEY_VAR, raising=False)
    run = tmp_path / "run"
    inputs = _materialize(run)
    assert main(["collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"), "--model-url",
                 "http://127.0.0.1:9/v1", "--env", "mcqa", "--api-key-env", KEY_VAR]) == 2
    assert f"--api-key-env names the environment variable {KEY_VAR}, which is not set" in capsys.readouterr().err
    assert not (run / "rollouts.jsonl").exists()


@pytest.mark.parametrize("credentials", ["url", "api_key_env"])
def test_a_cli_run_writes_no_secret_anywhere(policy_endpoint, tmp_path, capsys, monkeypatch, credentials):
    monkeypatch.setenv(KEY_VAR, API_KEY)
    run = tmp_path / "run"
    inputs = _materialize(run)
    url = _with_credentials(policy_endpoint.url) if credentials == "url" else policy_endpoint.url
    key = ["--api-key-env", KEY_VAR] if credentials == "api_key_env" else []
    assert main(["collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"), "--model-url", url,
                 "--env", "mcqa", *key]) == 0
    # A log of the run quoting the secrets, as a launcher might write it: the diagnosis must not repeat them.
    (run / "logs").mkdir()
    (run / "logs" / "eval.log").write_text(
        f"gym eval run ++policy_base_url={url} ++policy_api_key={API_KEY}\nOPENAI_API_KEY={API_KEY}\n"
        f"ERROR: 401 Unauthorized: Authorization: Bearer {API_KEY}\n")
    assert main(["profile", "--inputs", str(inputs), "--rollouts", str(run / "rollouts.jsonl")]) == 0
    before = capsys.readouterr()
    main(["diagnose", str(run), "--json", "--probe", "--model-url", _with_credentials(policy_endpoint.url)])
    out = capsys.readouterr()
    assert orjson.loads(out.out)["summary"]["probes"], "the probe of the URL with credentials is in the report"
    assert not _leaks(run, before.out, before.err, out.out, out.err, skip=("eval.log",))


def test_collector_errors_name_no_secret(tmp_path, capsys, monkeypatch):
    """A collection against a server that is not there: the error line and the failure rows hide the password."""
    monkeypatch.setenv(KEY_VAR, API_KEY)
    run = tmp_path / "run"
    inputs = _materialize(run)
    dead = f"http://user:{PASSWORD}@127.0.0.1:9/v1"
    assert main(["collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                 "--model-url", dead, "--env", "mcqa"]) == 2  # no model given: discovering it fails
    assert main(["collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                 "--model-url", dead, "--model", "m", "--env", "mcqa"]) == 1
    assert (run / "rollouts_failures.jsonl").stat().st_size > 0
    main(["diagnose", str(run), "--json"])
    out = capsys.readouterr()
    assert "error:" in out.err
    assert not _leaks(run, out.out, out.err)


def _secret_sweep(home: Path, model_server: dict) -> None:
    dataset = get_environment("mcqa").dataset_path
    (home / "registry.txt").write_text("served-step\n")
    (home / "sweep.yaml").write_text(yaml.safe_dump({
        "name": "secrets", "environments": [{"name": "mcqa", "dataset": str(dataset)}],
        "checkpoint_registry": "registry.txt", "num_repeats": 1, "model_server": model_server,
    }))


@pytest.mark.parametrize("credentials", ["url", "api_key_env"])
def test_a_dagster_sweep_writes_no_secret_anywhere(policy_endpoint, tmp_path, monkeypatch, credentials):
    """Secrets in the sweep config (a model URL with a password) or in the environment (an API key): after a
    whole partition runs through Dagster, no run file, manifest, diagnosis, asset metadata or event log holds them."""
    monkeypatch.setenv(KEY_VAR, API_KEY)
    home = tmp_path / "home"
    home.mkdir()
    if credentials == "url":
        _secret_sweep(home, {"kind": "endpoint", "url_template": _with_credentials(policy_endpoint.url)})
    else:
        _secret_sweep(home, {"kind": "endpoint", "url_template": policy_endpoint.url, "api_key_env": KEY_VAR})
    config = workspace_config(home)
    defs = build_definitions(config)
    with dg.DagsterInstance.from_config(str(prepare_dagster_home(home))) as instance:
        instance.add_dynamic_partitions(CHECKPOINTS.name, ["served-step"])
        result = defs.resolve_job_def(EVAL_SWEEP_JOB).execute_in_process(
            instance=instance, partition_key=sweep_partition_key("served-step", "mcqa"), run_config=QUIET_RUN_CONFIG)
        assert result.success
        metadata = [
            str(record.asset_materialization.metadata)
            for key in ("materialized_inputs", "rollouts", "reward_profile", "diagnostic_report")
            for record in instance.fetch_materializations(dg.AssetKey(key), limit=10).records
        ]
        events = [str(entry.user_message) + str(entry.dagster_event) for entry in instance.all_logs(result.run_id)]
    run_dir = config.run_dir("served-step", "mcqa")
    assert (run_dir / "diagnosis.json").exists() and read_manifest(run_dir)["rollouts"]["status"] == "complete"
    assert not _leaks(run_dir, *metadata, *events)


# --------------------------------------------------------------------------------------------------
# Servers listen on loopback unless configured otherwise


def test_servers_bind_loopback_by_default(policy_endpoint):
    assert inspect.signature(simulated_policy.run_server).parameters["host"].default == "127.0.0.1"
    serve = build_parser().parse_args(["serve-policy", "--checkpoint", "ckpt"])
    assert serve.host == "127.0.0.1"
    assert policy_endpoint.url.startswith("http://127.0.0.1:")  # the URL the server reports for where it listens
    command = ui_command(3000)
    assert command[command.index("-h") + 1] == "127.0.0.1"


def test_ui_port_is_validated():
    assert cli_args.port("3000") == 3000
    for bad in ("0", "65536", "-1", "http"):
        with pytest.raises(Exception, match="must be an integer from 1 to 65535"):
            cli_args.port(bad)


# --------------------------------------------------------------------------------------------------
# No shell


_SHELL_CALLS = {("os", "system"), ("os", "popen"), ("subprocess", "getoutput"), ("subprocess", "getstatusoutput"),
                ("asyncio", "create_subprocess_shell")}


def _shell_uses(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
            if (function.value.id, function.attr) in _SHELL_CALLS:
                found.append((node.lineno, f"{function.value.id}.{function.attr}"))
        for keyword in node.keywords:
            if keyword.arg == "shell" and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is False):
                found.append((node.lineno, "shell=..."))
    return found


def test_no_subprocess_goes_through_a_shell():
    """A regression guard: every command is an argument list, so user data can never be read by a shell."""
    offenders = [f"{path.relative_to(PACKAGE.parent)}:{line}: {what}"
                 for path in sorted(PACKAGE.rglob("*.py"))
                 for line, what in _shell_uses(ast.parse(path.read_text(), filename=str(path)))]
    assert offenders == []


def test_the_shell_scan_finds_what_it_looks_for():
    sample = "import os, subprocess\nsubprocess.run(cmd, shell=True)\nos.system(cmd)\nsubprocess.run(cmd, shell=flag)\n"
    assert [what for _, what in _shell_uses(ast.parse(sample))] == ["shell=...", "os.system", "shell=..."]
