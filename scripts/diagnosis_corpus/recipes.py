"""The framework the held-out sets of the diagnosis corpus are built with: a recipe per case, run for real.

    from recipes import Ctx, RecipeError, case, main   # in a set's script (first_held_out.py, held_out.py)
    ...recipes, each decorated with @case(name, category, fix_words, root_cause, netns=...)...
    if __name__ == "__main__": sys.exit(main("held_out", __file__, __doc__))

A recipe gets a `Ctx`: its run folder (RUN, kept as the case's `run/`), a private work folder (WORK, thrown
away), and helpers that run commands as a user would, their output captured with `cmd 2>&1 | tee RUN/x.log`
(`sh`, `bg`, `stop`), write a user's dataset (`dataset`), a simulated checkpoint (`checkpoint`), start the
simulated policy (`policy`) and the real NeMo Gym 0.7.0 (`gym_overrides`, `gym_env_start`), plus
`launch` (a stage through one of the project's launchers) and `user_resources_server` (a user's own Gym
resources server, copied from one of Gym's). Every command run is recorded for the case's `how`.
The recipes return `how` and raise `RecipeError` when the failure they inject did not happen (the case is
then not written). `main` is the driver: `--out DIR [--only CASE ...]`, `--list`; a recipe marked
`netns=True` runs in a loopback-only network namespace of its own (`unshare`), as tests/nemo_gym_driver.py
does. Nothing here runs the diagnosis.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".venv" / "bin"
PY, GP = BIN / "python", BIN / "gym-pipeline"
GYM = Path(os.environ.get("GYM_PIPELINE_NEMO_GYM", "/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym"))
DATA = ROOT / "gym_pipeline" / "examples" / "data"
UNSHARE = ["unshare", "--net", "--uts", "--pid", "--fork", "--kill-child", "--mount-proc"]
SERVICES_ENV = {
    "DOCKER_HOST": "unix:///var/run/docker.sock",
    "SLURM_CONF": "/tmp/gym-pipeline-services/slurm/slurm.conf",
    "GYM_PIPELINE_NEMO_GYM": str(GYM),
}
CATEGORIES = ("infra", "model_serving", "config", "data_schema", "verifier_runtime", "cache_resume",
              "throughput_resources", "healthy")


class RecipeError(RuntimeError):
    """The recipe did not produce the failure it is meant to produce (the case is not written)."""


@dataclass
class Case:
    name: str
    category: str
    fix_words: list[str]
    root_cause: str
    func: Callable[[Ctx], str]
    netns: bool = False  # runs the real NeMo Gym: inside a loopback-only network namespace


CASES: dict[str, Case] = {}


def case(name: str, category: str, fix_words: list[str], root_cause: str, netns: bool = False):
    assert category in CATEGORIES, category

    def register(func: Callable[[Ctx], str]) -> Callable[[Ctx], str]:
        assert name not in CASES, f"case {name} defined twice"
        CASES[name] = Case(name, category, fix_words, root_cause, func, netns)
        return func

    return register


# --- helpers ------------------------------------------------------------------------------------------


def rows_of(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for(predicate: Callable[[], bool], timeout_s: float, what: str, poll_s: float = 0.25) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise RecipeError(f"timed out after {timeout_s:g} s waiting for {what}")
        time.sleep(poll_s)


def text_of(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


class Ctx:
    """One case being made: its run folder, a private work folder, and the commands run (for `how`)."""

    def __init__(self, run: Path, work: Path):
        self.run, self.work = run, work
        self.commands: list[str] = []
        self.background: list[subprocess.Popen] = []
        self.env = {**os.environ, **SERVICES_ENV, "PYTHONUNBUFFERED": "1", "RAY_USAGE_STATS_ENABLED": "0",
                    "PATH": f"{BIN}{os.pathsep}{GYM.parent}{os.pathsep}{os.environ.get('PATH', '')}"}

    def _shown(self, command: str) -> str:
        return command.replace(str(self.run), "RUN").replace(str(self.work), "WORK").replace(str(BIN) + "/", "")

    def _piped(self, command: str, log: str | Path | None) -> str:
        if log is None:
            return command
        path = self.run / log
        path.parent.mkdir(parents=True, exist_ok=True)
        # tee -i: a Ctrl-C sent to the whole pipeline stops the command, and tee keeps its last words
        return f"{command} 2>&1 | tee -i -a {shlex.quote(str(path))}"

    def sh(self, command: str, log: str | Path | None = None, cwd: Path | None = None, timeout: float | None = None,
           env: dict | None = None) -> int:
        """Run `command` in bash (pipefail), its output appended to RUN/log; returns the exit code."""
        self.commands.append(self._shown(self._piped(command, log)))
        done = subprocess.run(["bash", "-o", "pipefail", "-c", self._piped(command, log)], cwd=cwd or self.work,
                              env=env or self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
                              if log else None, timeout=timeout)
        return done.returncode

    def bg(self, command: str, log: str | Path | None, cwd: Path | None = None, env: dict | None = None
           ) -> subprocess.Popen:
        """Start `command` in the background, in its own session (so Ctrl-C/kill reach the whole pipeline)."""
        self.commands.append(self._shown(self._piped(command, log)) + " &")
        process = subprocess.Popen(["bash", "-o", "pipefail", "-c", self._piped(command, log)], cwd=cwd or self.work,
                                   env=env or self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   start_new_session=True)
        self.background.append(process)
        return process

    def note(self, text: str) -> None:
        self.commands.append(text)

    def stop(self, process: subprocess.Popen, sig: int = signal.SIGINT, grace_s: float = 20.0) -> None:
        """`sig` to the process's whole group (Ctrl-C by default), then SIGKILL after `grace_s`."""
        if process.poll() is None:
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                if sig != signal.SIGKILL:
                    self.note(f"(`{self._shown(process.args[-1])[:60]}...` still running {grace_s:g} s after "
                              f"{signal.Signals(sig).name}: kill -9 on its process group)")
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()

    def close(self) -> None:
        for process in reversed(self.background):
            self.stop(process, signal.SIGTERM, 5.0)

    # -- data, checkpoints, the policy -----------------------------------------------------------------

    def dataset(self, env: str = "string_match", n: int = 4, start: int = 0, name: str = "data.jsonl",
                folder: Path | None = None) -> Path:
        """The first `n` rows (from `start`) of a bundled dataset, as a user's own JSONL file."""
        lines = (DATA / f"{env}.jsonl").read_text().splitlines(keepends=True)[start:start + n]
        path = (folder or self.work) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(lines))
        return path

    def checkpoint(self, env: str, dataset: Path) -> Path:
        """A simulated checkpoint that knows `dataset`'s prompts (what `vllm serve` would serve)."""
        from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment
        from gym_pipeline.serving.checkpoints import demo_checkpoints

        environment = {"string_match": StringMatchEnvironment, "mcqa": McqaEnvironment}[env](dataset)
        return demo_checkpoints(self.work / "checkpoints", 2, [environment])[-1]  # step_0200: the better one

    def policy(self, checkpoint: Path, flags: str = "", log: str = "logs/model_server.log") -> tuple[str, subprocess.Popen]:
        ready = self.work / f"policy-ready-{len(self.background)}"
        process = self.bg(f"{GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} {flags}".strip(),
                          log)
        wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the simulated policy")
        return ready.read_text().strip(), process

    # -- the real NeMo Gym -----------------------------------------------------------------------------

    def gym_overrides(self) -> str:
        """Gym's servers run from the CLI's venv (no per-server venv builds, see README) on a private head port."""
        from gym_pipeline.engines.nemo_gym import gym_venv_of, link_server_venvs
        from gym_pipeline.host import free_loopback_port

        venvs = link_server_venvs(gym_venv_of(GYM), self.work / "server_venvs")
        self.head_port = free_loopback_port()
        ray_tmp = Path(tempfile.mkdtemp(prefix="ho-ray-"))
        self.env["RAY_TMPDIR"] = str(ray_tmp)
        return f"++head_server.port={self.head_port} ++uv_venv_dir={venvs} ++skip_venv_if_present=true"

    def gym_env_start(self, args: str, log: str = "env_start.log", wait: bool = True, timeout_s: float = 240
                      ) -> subprocess.Popen:
        process = self.bg(f"{GYM} env start {args}", log)
        if wait:
            path = self.run / log
            wait_for(lambda: "servers ready" in text_of(path) or process.poll() is not None, timeout_s,
                     "`gym env start`")
            if process.poll() is not None:
                raise RecipeError(f"gym env start exited {process.returncode}:\n{text_of(path)[-2000:]}")
        return process


def in_loopback_namespace() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from nemo_gym_driver import bring_loopback_up, interfaces

    if interfaces() != ["lo"]:
        raise SystemExit(f"not in a loopback-only network namespace: {interfaces()}")
    bring_loopback_up()
    socket.sethostname("localhost")  # Ray's node IP must resolve to 127.0.0.1 (see tests/nemo_gym_driver.py)


def gym_model_args(url: str, model: str = "sim-policy", resources_server: str = "string_match") -> str:
    return (f"--resources-server {resources_server} --model-type vllm_model --model {model} --model-url {url} "
            "--model-api-key dummy")


def launch(launcher, stage: str, argv: list[str], run: Path, resources=None) -> str:
    """Run a stage through one of the project's launchers; returns how it ended (never raises on failure)."""
    from gym_pipeline.launchers.base import LauncherError, StageLaunch

    try:
        state = launcher.run(StageLaunch(stage, argv, run, resources=resources, cwd=run))
        return f"ended with exit code {state.exit_code}"
    except LauncherError as error:
        return error.headline if hasattr(error, "headline") else str(error)


def user_resources_server(ctx: Ctx, name: str, source: str = "string_match",
                          edit_app: Callable[[str], str] | None = None, requirements: str = "fastapi\n") -> Path:
    """A user's own resources server `name`: Gym's `source` server copied under WORK/my_gym (a --search-dir),
    its config renamed, its app.py passed through `edit_app`; it runs from Gym's venv like the others.
    Returns the search dir."""
    site = next((GYM.parent.parent / "lib").glob("python3*/site-packages"))
    search = ctx.work / "my_gym"
    server = search / "resources_servers" / name
    shutil.copytree(site / "resources_servers" / source, server,
                    ignore=shutil.ignore_patterns("__pycache__", "tests", ".venv"))
    if edit_app is not None:
        (server / "app.py").write_text(edit_app((server / "app.py").read_text()))
    (server / "requirements.txt").write_text("-e nemo-gym[dev] @ ../../\n" + requirements)
    config = (server / "configs" / f"{source}.yaml").read_text().replace(source, name)
    (server / "configs" / f"{source}.yaml").unlink()
    (server / "configs" / f"{name}.yaml").write_text(config)
    link = ctx.work / "server_venvs" / "resources_servers" / name / ".venv"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(GYM.parent.parent, target_is_directory=True)
    return search


# --- helpers shared by the sets' recipes ---------------------------------------------------------------

AGENTS = {"string_match": "string_match_simple_agent", "mcqa": "mcqa_simple_agent"}


def materialize(ctx: Ctx, data: Path, repeats: int, env: str, folder: Path | None = None,
                log: str = "logs/materialize.log") -> Path:
    output = (folder or ctx.run) / "rollouts_materialized_inputs.jsonl"
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats {repeats} --agent {AGENTS[env]} --output {output}",
                  log)
    if code != 0:
        raise RecipeError(f"materialize exited {code}:\n{text_of(ctx.run / log)[-1500:]}")
    return output


def collect_argv(run: Path, url: str, env: str, concurrency: int, *extra: str) -> list[str]:
    return [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", env, "--concurrency", str(concurrency), *extra]


def profile_argv(run: Path, *extra: str) -> list[str]:
    return [str(GP), "profile", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--rollouts",
            f"{run}/rollouts.jsonl", *extra]


def launched(ctx: Ctx, launcher, label: str, stage: str, argv: list[str]) -> str:
    """`argv` as stage `stage` through one of the project's launchers, noted for `how`; how it ended."""
    ctx.note(f"{label}.run(StageLaunch({stage!r}, {ctx._shown(shlex.join(argv))}))")
    return launch(launcher, stage, argv, ctx.run)


def launcher_state(ctx: Ctx, stage: str) -> dict:
    path = ctx.run / "logs" / f"launcher_{stage}.json"
    return json.loads(path.read_text()) if path.exists() else {}


def gym_eval(ctx: Ctx, overrides: str, args: str, log: str = "eval_run.log", background: bool = False):
    """`gym eval run --no-serve ARGS ++route_failures_to_sidecar=true` against the running `gym env start`."""
    command = f"{GYM} eval run --no-serve {args} ++route_failures_to_sidecar=true {overrides}"
    return ctx.bg(command, log) if background else ctx.sh(command, log, timeout=600)


def finished(ctx: Ctx, count: int, total: int, log: str = "eval_run.log"):
    return lambda: f"Finished {count} / {total}" in text_of(ctx.run / log)


def rewrite_rows(path: Path, edit) -> int:
    """Apply `edit(index, row)` (returns True when it changed the row) to every row of a JSONL file."""
    rows = rows_of(path)
    changed = sum(bool(edit(index, row)) for index, row in enumerate(rows))
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return changed


def unique_keys(path: Path) -> set[tuple[int, int]]:
    return {(row["_ng_task_index"], row["_ng_rollout_index"]) for row in rows_of(path)}


def replace_verify(app: str, new_verify: str) -> str:
    """`app` (Gym's string_match server) with its verify method replaced by `new_verify`."""
    start = app.index("    async def verify(self, body: StringMatchVerifyRequest)")
    end = app.index('if __name__ == "__main__":', start)
    return app[:start] + new_verify.strip("\n") + "\n\n\n" + app[end:]


# =====================================================================================================
# the driver


def make_case(spec: Case, out: Path, set_name: str) -> float:
    began = time.monotonic()
    folder = out / spec.name
    shutil.rmtree(folder, ignore_errors=True)
    run = folder / "run"
    run.mkdir(parents=True)
    work = Path(tempfile.mkdtemp(prefix=f"ho-{spec.name[:20]}-"))
    ctx = Ctx(run, work)
    try:
        if spec.netns:
            in_loopback_namespace()
        how = spec.func(ctx)
    finally:
        ctx.close()
        subprocess.run(["umount", str(run / "results")], capture_output=True, check=False)
    how += " Commands: " + " ; ".join(ctx.commands)
    record = {"name": spec.name, "set": set_name, "expected_category": spec.category, "fix_words": spec.fix_words,
              "how": how, "root_cause": spec.root_cause}
    (folder / "case.json").write_text(json.dumps(record, indent=2) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    return time.monotonic() - began


def main(set_name: str, script: str, description: str | None) -> int:
    """The driver of one set: `script` (the set's file) is run again inside a namespace for a netns recipe."""
    parser = argparse.ArgumentParser(description=(description or set_name).strip().split("\n")[0])
    parser.add_argument("--out", type=Path, help="the set's folder, e.g. tests/data/diagnosis_corpus/held_out")
    parser.add_argument("--only", nargs="*", default=None, help="case names (default: all)")
    parser.add_argument("--in-netns", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # gym_pipeline, as checked out here
    for key, value in SERVICES_ENV.items():  # the launchers read them from our environment
        os.environ.setdefault(key, value)
    if args.list:
        for spec in CASES.values():
            print(f"{spec.name:50} {spec.category}")
        return 0
    if args.out is None:
        parser.error("--out is required (except with --list)")
    names = args.only or list(CASES)
    unknown = [name for name in names if name not in CASES]
    if unknown:
        parser.error(f"unknown case(s): {unknown}")
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.in_netns:  # one case, already inside its namespace
        spec = CASES[names[0]]
        make_case(spec, out, set_name)
        return 0
    failed = []
    total_began = time.monotonic()
    for name in names:
        spec = CASES[name]
        began = time.monotonic()
        print(f"== {name} ({spec.category})", flush=True)
        try:
            if spec.netns:
                argv = [*UNSHARE, str(PY), str(Path(script).resolve()), "--out", str(out), "--only", name, "--in-netns"]
                done = subprocess.run(argv, cwd=ROOT, env={**os.environ, **SERVICES_ENV}, timeout=900)
                if done.returncode != 0:
                    raise RecipeError(f"exit {done.returncode} in the namespace")
            else:
                make_case(spec, out, set_name)
            print(f"   made in {time.monotonic() - began:.0f} s", flush=True)
        except Exception as error:  # keep going: report every case that could not be made
            failed.append(name)
            print(f"   FAILED: {type(error).__name__}: {error}", flush=True)
            shutil.rmtree(out / name, ignore_errors=True)
    print(f"{len(names) - len(failed)} of {len(names)} cases made in {time.monotonic() - total_began:.0f} s"
          + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0

