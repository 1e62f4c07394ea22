"""Shared helpers of the diagnosis-corpus recipes (tuning half): real processes, real files, kept run folders.

Every recipe works in its own scratch folder (`/tmp/gp-corpus/tuning/<case>/`), runs the project's real
commands there with paths relative to it (so the kept files name `run/...`, `checkpoints/...`), captures
each command's stdout+stderr into a `*.log` inside the run folder as `cmd 2>&1 | tee RUN/x.log` would, and
at the end copies the run folder into the corpus. Nothing here writes a log line or a JSONL row itself.

Also runnable as a small program (used by the recipes, never by hand):

    python common.py gym-driver REQUEST.json        # a real NeMo Gym collection, inside `unshare --net ...`
    python common.py gym-manual REQUEST.json        # hand-typed `gym env start` / `gym eval run` (same namespace)
    python common.py collect-with-env KIND -- ARGS  # `gym-pipeline collect ARGS` with a broken verifier registered
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
PY = str(VENV_BIN / "python")
GP = str(VENV_BIN / "gym-pipeline")
THIS = str(Path(__file__).resolve())
WORK_ROOT = Path(os.environ.get("GP_CORPUS_WORK", "/tmp/gp-corpus/tuning"))
SERVICES_ENV = {
    "DOCKER_HOST": "unix:///var/run/docker.sock",
    "SLURM_CONF": "/tmp/gym-pipeline-services/slurm/slurm.conf",
    "GYM_PIPELINE_NEMO_GYM": "/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym",
}
UNSHARE = ["unshare", "--net", "--uts", "--pid", "--fork", "--kill-child", "--mount-proc"]
CATEGORIES = ("infra", "model_serving", "config", "data_schema", "verifier_runtime", "cache_resume",
              "throughput_resources", "healthy")
EXAMPLES = ROOT / "gym_pipeline" / "examples" / "data"


def base_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, **SERVICES_ENV, "PYTHONUNBUFFERED": "1", "COLUMNS": "120", "TERM": "dumb"}
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    env.pop("VIRTUAL_ENV", None)
    env.update(extra)
    return env


# --- one case's scratch folder ----------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    work: Path  # scratch folder; commands run here with relative paths
    notes: list[str] = field(default_factory=list)  # the commands run, for case.json's "how"
    run_rel: str = "run"  # the run folder, relative to `work`

    @property
    def run(self) -> Path:
        return self.work / self.run_rel

    def note(self, text: str) -> None:
        self.notes.append(text)

    # -- processes --

    def sh(self, argv: Sequence[str], log: str | None, *, timeout: float | None = None, env: dict | None = None,
           cwd: Path | None = None, note: bool = True, stdin: bytes | None = None) -> int:
        """`argv 2>&1 | tee -a run/<log>`; returns the exit code (124 on timeout, after SIGINT then SIGKILL)."""
        argv = [str(a) for a in argv]
        if note:
            self.note(_show(argv) + (f" 2>&1 | tee -a run/{log}" if log else ""))
        out = self._log_handle(log)
        try:
            process = subprocess.Popen(argv, cwd=cwd or self.work, env=env or base_env(), stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                       start_new_session=True)
            if stdin:
                process.stdin.write(stdin)
                process.stdin.close()
            try:
                return process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                stop_group(process, signal.SIGINT, 10)
                return 124
        finally:
            if out not in (subprocess.DEVNULL,):
                out.close()

    def start(self, argv: Sequence[str], log: str | None, *, env: dict | None = None, note: bool = True,
              cwd: Path | None = None) -> subprocess.Popen:
        argv = [str(a) for a in argv]
        if note:
            self.note(_show(argv) + (f" > run/{log} 2>&1 &" if log else " &"))
        out = self._log_handle(log)
        process = subprocess.Popen(argv, cwd=cwd or self.work, env=env or base_env(), stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        if out is not subprocess.DEVNULL:
            out.close()
        return process

    def _log_handle(self, log: str | None):
        if not log:
            return subprocess.DEVNULL
        path = self.run / log if not Path(log).is_absolute() else Path(log)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open("ab")

    # -- project parts --

    def checkpoint(self, envs: Sequence[str] = ("string_match", "mcqa")) -> str:
        from gym_pipeline.serving.checkpoints import demo_checkpoints

        path = demo_checkpoints(self.work / "checkpoints", 1, list(envs))[0]
        return str(path.relative_to(self.work))

    def dataset(self, env: str, n: int, name: str | None = None, *, rows: list[dict] | None = None) -> str:
        """The first `n` rows of a bundled dataset (or `rows`) as `data/<name>.jsonl`; returns its relative path."""
        path = self.work / "data" / f"{name or env}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        if rows is None:
            lines = (EXAMPLES / f"{env}.jsonl").read_text().splitlines(keepends=True)[:n]
            path.write_text("".join(lines))
        else:
            path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        return str(path.relative_to(self.work))

    def materialize(self, source: str, repeats: int, agent: str, log: str = "materialize.log",
                    output: str = "run/rollouts_materialized_inputs.jsonl") -> int:
        self.run.mkdir(parents=True, exist_ok=True)
        return self.sh([GP, "materialize", "--input", source, "--num-repeats", repeats, "--agent", agent,
                        "--output", output], log)

    @contextlib.contextmanager
    def policy(self, checkpoint: str, *flags: str, log: str = "logs/model_server.log",
               port: int = 0) -> Iterator[tuple[str, subprocess.Popen]]:
        """`gym-pipeline serve-policy` in the background; yields (base URL, process); Ctrl-C (SIGINT) at the end."""
        ready = self.work / f"policy-{time.monotonic_ns()}.url"
        process = self.start([GP, "serve-policy", "--checkpoint", checkpoint, "--port", port,
                              "--ready-file", ready.name, *flags], log)
        try:
            deadline = time.monotonic() + 60
            while not ready.exists():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"serve-policy did not start (exit {process.poll()}); see {log}")
                time.sleep(0.1)
            yield ready.read_text().strip(), process
        finally:
            stop_group(process, signal.SIGINT, 10)

    def collect(self, url: str, env: str, *extra: str, log: str = "collect.log", timeout: float | None = 600,
                inputs: str = "run/rollouts_materialized_inputs.jsonl", output: str = "run/rollouts.jsonl") -> int:
        return self.sh([GP, "collect", "--inputs", inputs, "--output", output, "--model-url", url, "--env", env,
                        *extra], log, timeout=timeout)

    def profile(self, *extra: str, log: str = "profile.log") -> int:
        return self.sh([GP, "profile", "--inputs", "run/rollouts_materialized_inputs.jsonl", "--rollouts",
                        "run/rollouts.jsonl", *extra], log)

    def gym(self, request: dict, log: str = "collect.log", timeout: float = 400) -> int:
        """A real NeMo Gym collection (see `gym_driver`) in a loopback-only namespace, output into run/<log>."""
        request_path = self.work / "gym_request.json"
        request_path.write_text(json.dumps(request, indent=1))
        self.note("gym driver request: " + json.dumps(request))
        return self.sh([*UNSHARE, PY, THIS, "gym-driver", request_path.name], log, timeout=timeout, note=False)

    def gym_manual(self, request: dict, log: str = "session.log", timeout: float = 600) -> int:
        request_path = self.work / "gym_request.json"
        request_path.write_text(json.dumps(request, indent=1))
        self.note("hand-typed NeMo Gym session (its commands are echoed in run/session.log): " + json.dumps(request))
        return self.sh([*UNSHARE, PY, THIS, "gym-manual", request_path.name], log, timeout=timeout, note=False)


def _show(argv: Sequence[str]) -> str:
    shown = []
    for arg in argv:
        arg = arg.replace(str(VENV_BIN) + "/", "").replace(THIS, "scripts/diagnosis_corpus/common.py")
        shown.append(arg if arg and all(c.isalnum() or c in "-_./:=,+@%" for c in arg) else json.dumps(arg))
    return " ".join(shown)


def stop_group(process: subprocess.Popen, sig: int = signal.SIGINT, grace_s: float = 10) -> None:
    if process.poll() is None:
        with contextlib.suppress(OSError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)  # leftovers of the group


def wait_for_lines(path: Path, count: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return True
        time.sleep(0.05)
    return False


def bind_port() -> tuple[socket.socket, int]:
    """A socket listening on a loopback port that never answers (another program holding the port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock, sock.getsockname()[1]


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


# --- keeping a case -----------------------------------------------------------------------------------------


def keep(case: Case, out_dir: Path, expected: str, fix_words: list[str], how: str, root_cause: str,
         set_name: str = "tuning") -> Path:
    """Copy the run folder into `out_dir/<name>/run` and the source datasets into `out_dir/<name>/data` (the
    case folder stands for the user's working folder; scratch paths are made relative to it), write case.json."""
    assert expected in CATEGORIES, expected
    assert (expected == "healthy") == (not fix_words), (expected, fix_words)
    target = out_dir / case.name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    shutil.copytree(case.run, target / "run", symlinks=True,
                    ignore=shutil.ignore_patterns("server_venvs", ".gym_pipeline.lock", "__pycache__"))
    if (case.work / "data").is_dir():  # the source datasets the manifests name (data/...), beside run/
        shutil.copytree(case.work / "data", target / "data")
    for path in sorted(target.rglob("*")):
        if path.is_symlink():
            path.unlink()
        elif path.is_file():
            _neutral_paths(path, case.work)
    steps = "\n".join(f"$ {line}" for line in case.notes)
    steps = steps.replace(str(case.work) + "/", "").replace(str(case.work), ".")
    record = {"name": case.name, "set": set_name, "expected_category": expected, "fix_words": fix_words,
              "how": f"{how}\nCommands (in a scratch folder; paths relative to it):\n{steps}",
              "root_cause": root_cause}
    (target / "case.json").write_text(json.dumps(record, indent=2) + "\n")
    return target


def _neutral_paths(path: Path, work: Path) -> None:
    try:
        data = path.read_bytes()
    except OSError:
        return
    prefix = str(work).encode()
    if prefix not in data:
        return
    data = data.replace(prefix + b"/", b"").replace(prefix, b".")
    path.write_bytes(data)


def diagnose_category(run_dir: Path) -> str:
    result = subprocess.run([GP, "diagnose", str(run_dir), "--json"], capture_output=True, env=base_env(),
                            timeout=300)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return f"(unreadable: exit {result.returncode}: {result.stderr.decode(errors='replace')[-300:]})"
    findings = report.get("findings") or []
    top = findings[0] if findings else {}
    category = report.get("category") or top.get("category")
    return f"{category}" + (f" ({top.get('title')})" if top.get("title") else "")


# --- program mode: the real NeMo Gym collection inside a loopback-only namespace ---------------------------


def gym_driver(request_path: Path) -> int:
    """Inside `unshare --net --uts --pid`: bring lo up, serve the policy, collect with the real NeMo Gym engine.

    The request names: run (run folder), env, checkpoint, policy_flags, model_name (None: the policy's),
    concurrency, overrides (Hydra), resources_server, startup_timeout_s, eval_timeout_s,
    kill_policy_after_s (SIGKILL the policy that long after Gym is ready), materialized (inputs path).
    """
    sys.path.insert(0, str(ROOT / "tests"))
    from nemo_gym_driver import bring_loopback_up, interfaces

    from gym_pipeline.engines.nemo_gym import collect_with_nemo_gym

    request = json.loads(request_path.read_text())
    if interfaces() != ["lo"]:
        sys.exit(f"not in a loopback-only network namespace: {interfaces()}")
    bring_loopback_up()
    socket.sethostname("localhost")
    os.environ.update(request.get("env_vars", {}))
    import tempfile

    tempfile.tempdir = None  # TMPDIR may have just been set
    run = Path(request["run"])
    logs = run / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    blocked = []
    for port in request.get("block_ports", []):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", port))
        sock.listen(1)
        blocked.append(sock)
    ready = Path(f"policy-{os.getpid()}.url").absolute()
    policy_log = (logs / "model_server.log").open("ab")
    policy = subprocess.Popen([GP, "serve-policy", "--checkpoint", request["checkpoint"], "--port", "0",
                               "--ready-file", str(ready), *request.get("policy_flags", [])],
                              stdout=policy_log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        while not ready.exists():
            if policy.poll() is not None:
                print(f"serve-policy exited {policy.returncode}", flush=True)
                return 1
            time.sleep(0.1)
        url = ready.read_text().strip()
        model_name = request.get("model_name") or _served_model(url)
        print(f"policy at {url} serving {model_name}", flush=True)

        def on_ready(line: str) -> None:
            print(f"NeMo Gym servers ready: {line}", flush=True)
            after = request.get("kill_policy_after_s")
            if after is not None:
                import threading

                def kill() -> None:
                    time.sleep(after)
                    print(f"(killing the model server, pid {policy.pid}, with SIGKILL)", flush=True)
                    os.killpg(policy.pid, signal.SIGKILL)

                threading.Thread(target=kill, daemon=True).start()

        try:
            summary = collect_with_nemo_gym(
                Path(request.get("materialized", run / "rollouts_materialized_inputs.jsonl")), run / "rollouts.jsonl",
                request["env"], request.get("model_url") or url, model_name, SERVICES_ENV["GYM_PIPELINE_NEMO_GYM"],
                concurrency=request.get("concurrency", 4), resources_server=request.get("resources_server"),
                extra_overrides=request.get("overrides", []),
                startup_timeout_s=request.get("startup_timeout_s", 240),
                eval_timeout_s=request.get("eval_timeout_s", 300), on_ready=on_ready)
        except Exception:
            import traceback

            traceback.print_exc()
            sys.stdout.flush()
            return 1
        print(f"NeMo Gym collected {summary.collected} of {summary.total} rows ({summary.failed} failed, "
              f"{summary.failure_rows} failure rows); gym eval run exit code {summary.eval_exit_code}", flush=True)
        return 0 if not summary.failed and summary.eval_exit_code == 0 else 1
    finally:
        if policy.poll() is None:
            os.killpg(policy.pid, signal.SIGINT)
            try:
                policy.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(policy.pid, signal.SIGKILL)
        policy_log.close()
        ready.unlink(missing_ok=True)


def gym_manual(request_path: Path) -> int:
    """Inside `unshare --net --uts --pid`: what a user types by hand: `gym env start ... | tee`, then `gym eval run`
    commands against it (scenario `resume_after_edit` or `two_writers`), then Ctrl-C on `gym env start`."""
    sys.path.insert(0, str(ROOT / "tests"))
    from nemo_gym_driver import bring_loopback_up

    from gym_pipeline.engines.nemo_gym import _READY, gym_venv_of, link_server_venvs
    from gym_pipeline.host import free_loopback_port

    request = json.loads(request_path.read_text())
    bring_loopback_up()
    socket.sethostname("localhost")
    import tempfile

    gym = SERVICES_ENV["GYM_PIPELINE_NEMO_GYM"]
    run = Path(request["run"]).absolute()
    logs = run / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    ray_tmp = tempfile.mkdtemp(prefix="gp-ray-")
    env = {**base_env(), "RAY_TMPDIR": ray_tmp, "RAY_USAGE_STATS_ENABLED": "0"}
    env["PATH"] = f"{Path(gym).parent}{os.pathsep}{env['PATH']}"
    venvs = link_server_venvs(gym_venv_of(Path(gym)), Path(tempfile.mkdtemp(prefix="gp-venvs-")))
    overrides = [f"++head_server.port={free_loopback_port()}", f"++uv_venv_dir={venvs}", "++skip_venv_if_present=true"]
    ready_file = Path(f"policy-{os.getpid()}.url").absolute()
    with (logs / "model_server.log").open("ab") as out:
        policy = subprocess.Popen([GP, "serve-policy", "--checkpoint", request["checkpoint"], "--port", "0",
                                   "--ready-file", str(ready_file), *request.get("policy_flags", [])],
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    while not ready_file.exists():
        time.sleep(0.1)
    url = ready_file.read_text().strip()
    env_cmd = [gym, "env", "start", "--resources-server", request["env"], "--model-type", "vllm_model", "--model",
               "sim-policy", "--model-url", url, "--model-api-key", "dummy", *overrides]
    print("$ " + " ".join(env_cmd).replace(gym, "gym") + " 2>&1 | tee run/logs/gym_env_start.log &", flush=True)
    with (logs / "gym_env_start.log").open("ab") as out:
        env_process = subprocess.Popen(env_cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=run,
                                       start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not _READY.search((logs / "gym_env_start.log").read_bytes()):
            if env_process.poll() is not None or time.monotonic() > deadline:
                print("gym env start did not come up", flush=True)
                return 1
            time.sleep(0.5)

        def eval_cmd(*extra: str, repeats: int | None = None) -> list[str]:
            return [gym, "eval", "run", "--no-serve", "--agent", request["agent"], "--input", request["input"],
                    "--output", "run/rollouts.jsonl", "--num-repeats", str(repeats or request.get("repeats", 2)),
                    "--concurrency", str(request.get("concurrency", 2)), "++route_failures_to_sidecar=true",
                    *overrides, *extra]

        def start_eval(log: str, *extra: str, repeats: int | None = None) -> subprocess.Popen:
            command = eval_cmd(*extra, repeats=repeats)
            print("$ " + " ".join(command).replace(gym, "gym") + f" 2>&1 | tee run/logs/{log}", flush=True)
            out = (logs / log).open("ab")
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                       cwd=request_path.parent, start_new_session=True)
            out.close()
            return process

        scenario = request["scenario"]
        if scenario == "resume_after_edit":
            first = start_eval("gym_eval_run.log")
            wait_for_lines(run / "rollouts.jsonl", request.get("kill_after", 4), 240)
            print(f"$ kill -9 -{first.pid}   # the first collection is killed part way", flush=True)
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
            source = request_path.parent / request["input"]
            rows = [json.loads(line) for line in source.read_text().splitlines()]
            for index, answer in request["edits"].items():
                rows[int(index)]["expected_answer"] = answer
            rows += request.get("append", [])
            source.write_text("".join(json.dumps(row) + "\n" for row in rows))
            print(f"# {request['input']} edited: expected_answer of rows {list(request['edits'])} changed, "
                  f"{len(request.get('append', []))} rows appended", flush=True)
            second = start_eval("gym_eval_run_resume.log", "--resume")
            second.wait(timeout=300)
            print(f"gym eval run --resume exited {second.returncode}", flush=True)
        elif scenario == "two_writers":
            first = start_eval("gym_eval_run.log")
            time.sleep(request.get("stagger_s", 3))
            second = start_eval("gym_eval_run_2.log", repeats=request.get("second_repeats"))
            first.wait(timeout=300)
            second.wait(timeout=300)
            print(f"gym eval run exits: {first.returncode}, {second.returncode}", flush=True)
        print("^C   # Ctrl-C on gym env start", flush=True)
        return 0
    finally:
        for process in (env_process, policy):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
        ready_file.unlink(missing_ok=True)
        shutil.rmtree(ray_tmp, ignore_errors=True)


def _served_model(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url.rstrip("/") + "/models", timeout=10) as answer:
        return json.loads(answer.read())["data"][0]["id"]


# --- program mode: a broken verifier registered in the built-in environment machinery ------------------------


def collect_with_env(kind: str, argv: list[str]) -> int:
    """Register a string_match variant named `string_match_<kind>` with a broken verifier, then run the CLI."""
    from gym_pipeline.cli import main
    from gym_pipeline.environments import ENVIRONMENTS
    from gym_pipeline.environments.string_match import StringMatchEnvironment

    class Broken(StringMatchEnvironment):
        name = f"string_match_{kind}"

        def verify(self, row, response_text):
            verdict = super().verify(row, response_text)
            if kind == "raises":  # a verifier bug: it normalizes the extracted answer, which is None when
                # the response has no answer in the expected format
                verdict["normalized_answer"] = verdict["extracted_answer"].strip().lower()
            elif kind == "noreward":  # a refactor dropped the reward from the verify response
                verdict.pop("reward")
                verdict["score"] = 1.0 if verdict.get("extracted_answer") == row.get("expected_answer") else 0.0
            elif kind == "schema":  # the reward as a string, the verdict as a list
                verdict["reward"] = "correct" if verdict["reward"] else "wrong"
            return verdict

    environment = Broken(StringMatchEnvironment().dataset_path)
    ENVIRONMENTS[environment.name] = environment
    return main(argv)


# --- program mode: one stage through a project launcher (local process, Docker container, Slurm job) --------


def launch(settings_json: str, stage: str, run_dir: str, argv: list[str], read_only: list[str]) -> int:
    """`launcher_from_settings(settings).run(StageLaunch(stage, argv, run_dir))`, as a sweep step runs a stage."""
    from pydantic import TypeAdapter

    from gym_pipeline.launchers.base import StageLaunch
    from gym_pipeline.launchers.factory import launcher_from_settings
    from gym_pipeline.launchers.settings import LauncherSettings

    settings = TypeAdapter(LauncherSettings).validate_python(json.loads(settings_json))
    launcher = launcher_from_settings(settings)
    state = launcher.run(StageLaunch(stage, argv, Path(run_dir), read_only_paths=[Path(p) for p in read_only]))
    print(f"stage {stage} on the {settings.kind} launcher ended: exit code {state.exit_code}", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "launch":  # launch SETTINGS STAGE RUN_DIR [--ro PATH]... -- ARGV
        rest = sys.argv[5:]
        split = rest.index("--")
        read_only = [rest[i + 1] for i in range(0, split, 2) if rest[i] == "--ro"]
        sys.exit(launch(sys.argv[2], sys.argv[3], sys.argv[4], rest[split + 1:], read_only))
    command = sys.argv[1]
    if command == "gym-driver":
        sys.exit(gym_driver(Path(sys.argv[2])))
    if command == "gym-manual":
        sys.exit(gym_manual(Path(sys.argv[2])))
    if command == "collect-with-env":
        rest = sys.argv[3:]
        sys.exit(collect_with_env(sys.argv[2], rest[1:] if rest[:1] == ["--"] else rest))
    sys.exit(f"unknown command {command}")
