"""Users' shell scripts run for real by bash against the simulated policy, slowed down so that a `timeout` or a kill
lands part way through a collection."""

import json
import socket
import subprocess
import sys
from pathlib import Path

from launcher_support import wait_for

from gym_pipeline.environments import Environment, get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

SERVERS_START_WAIT_S = 150


def listening(port: int) -> bool:
    """Whether a server accepts connections on the loopback `port`."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


CLI = " ".join([sys.executable, "-m", "gym_pipeline.cli"])


def materialize_line(repeats: int, data: str = "data.jsonl") -> str:
    """A script's line materializing the string_match rows of `data` `repeats` times each."""
    return (f"{CLI} materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n")


MATERIALIZE = materialize_line(3)
# A script's wait for its server to accept connections (bash's /dev/tcp, as users write it): format with `port`.
WAIT_FOR_PORT = "for i in $(seq 60); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 1; done\n"


def string_match_run(tmp_path: Path, rows: int) -> tuple[Path, Path]:
    """(a run folder with logs/ and the first `rows` rows of the bundled string_match data as data.jsonl, the demo
    checkpoint the simulated policy answers them with): for the tests whose script starts its own model server."""
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    bundled = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(bundled[:rows]))
    return run, checkpoint


def run_eval_script(run: Path, env: dict[str, str] | None = None) -> None:
    """`bash run_eval.sh > logs/run_eval.log 2>&1` in the run folder, as the user ran it."""
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300, env=env)


def run_scripts(tmp_path: Path, scripts: list[str], checkpoint_of_script: list[int] | None = None,
                shell: str = "bash", rows: list[dict] | None = None, env: str = "string_match",
                files: dict[str, str] | None = None) -> Path:
    """A run folder where each script (the latest kept as run_eval.sh) ran against a slow policy, logs kept. With
    `checkpoint_of_script`, a policy serves each demo checkpoint (logs/model_server.log, model_server_1.log, ...)
    and each script's URL and CKPT are its checkpoint's server and folder name. `shell` starts the scripts, whatever
    their `#!/bin/bash` line says (`sh run_eval.sh`). data.jsonl holds `rows` (rows of `env` the policy knows), or
    else the first 10 rows of the bundled string_match data. `files`: the user's other files (name: text)."""
    served = checkpoint_of_script or [0] * len(scripts)
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    environment: Environment | str = "string_match"
    if rows is None:
        bundled = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
        (run / "data.jsonl").write_text("".join(bundled[:10]))
    else:
        (run / "data.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
        environment = type(get_environment(env))(run / "data.jsonl")
    for name, text in (files or {}).items():
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_text(text)
    checkpoints = demo_checkpoints(tmp_path / "checkpoints", max(served) + 1, [environment])
    ports, servers = [free_loopback_port() for _ in checkpoints], []
    for index, (checkpoint, port) in enumerate(zip(checkpoints, ports, strict=True)):
        with (run / "logs" / f"model_server{f'_{index}' if index else ''}.log").open("w") as log:
            servers.append(subprocess.Popen([*CLI.split(), "serve-policy", "--checkpoint", str(checkpoint), "--port",
                                             str(port), "--latency-ms", "250"], stdout=log, stderr=subprocess.STDOUT))
    try:  # every server listening before the first script runs (a loaded machine starts Python slowly)
        assert wait_for(lambda: all(listening(port) for port in ports), SERVERS_START_WAIT_S)
        for number, (script, index) in enumerate(zip(scripts, served, strict=True)):
            (run / "run_eval.sh").write_text("#!/bin/bash\n" + script.replace("URL", f"http://127.0.0.1:{ports[index]}/v1")
                                             .replace("CKPT", checkpoints[index].name))
            with (run / "logs" / f"run_eval_{number}.log").open("w") as log:
                subprocess.run([shell, "run_eval.sh"], cwd=run, stdin=subprocess.DEVNULL, stdout=log,  # cron's: no terminal
                               stderr=subprocess.STDOUT, timeout=180)
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)
    return run
