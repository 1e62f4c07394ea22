"""Run one real NeMo Gym collection (or `backfill`, `reverify`, or `gym env start` alone) inside a loopback-only network namespace (for
test_nemo_gym_engine.py and test_nemo_gym_reverify.py).

    unshare --net --uts --pid --fork --kill-child --mount-proc python tests/nemo_gym_driver.py REQUEST RESULT

Inside the fresh namespace only `lo` exists: the driver brings it up, names the (private) host `localhost`,
starts the simulated policy on 127.0.0.1, collects with `collect_with_nemo_gym`, and writes RESULT (the
summary, this namespace's id, its interfaces and `ss -ltunp` taken while Gym's servers and Ray were up).
Whatever Ray binds is then reachable on loopback only, and every process dies with the namespace's pid 1
(this driver). The hostname matters: with no route out, Ray picks its node IP by resolving the hostname
("falling back to hostname resolution"); a name resolving to a non-loopback address leaves the GCS
unreachable and `gym env start` hangs. `localhost` resolves to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import io
import os
import shutil
import socket
import struct
import subprocess
import sys
from pathlib import Path

import orjson

_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1


def bring_loopback_up() -> None:
    """`ip link set lo up`, or the same through the SIOCSIFFLAGS ioctl when iproute2 is missing."""
    if shutil.which("ip"):
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        return
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


def interfaces() -> list[str]:
    return sorted(name for _, name in socket.if_nameindex())


def listeners() -> str:
    if not shutil.which("ss"):
        return "(ss not installed)"
    return subprocess.run(["ss", "-ltunp"], capture_output=True, text=True, check=False).stdout


def main(request_path: Path, result_path: Path) -> int:
    from gym_pipeline.config import ModelServerConfig
    from gym_pipeline.engines.nemo_gym import collect_with_nemo_gym
    from gym_pipeline.environments import get_environment
    from gym_pipeline.serving.servers import serve_checkpoint

    request = orjson.loads(request_path.read_bytes())
    if interfaces() != ["lo"]:  # never on the host's network: Ray would listen on every interface there
        sys.exit(f"not in a loopback-only network namespace (interfaces: {interfaces()}); run under unshare --net")
    bring_loopback_up()
    socket.sethostname("localhost")  # a private UTS namespace (unshare --uts): Ray's node IP is then 127.0.0.1
    result: dict = {"netns": os.readlink("/proc/self/ns/net"), "interfaces": interfaces(),
                    "hostname": socket.gethostname()}
    if "backfill" in request:  # a whole sweep step through Dagster, as `gym-pipeline backfill` runs it
        from gym_pipeline.cli import main as cli

        result["exit_code"] = cli(["backfill", *request["backfill"]])
        result_path.write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
        return 0
    if "reverify" in request:  # `gym-pipeline reverify ...` with no model server anywhere in the namespace
        from gym_pipeline.cli import main as cli

        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            result["exit_code"] = cli(["reverify", *request["reverify"]])
        result["stdout"] = printed.getvalue()
        result_path.write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
        return 0
    if "env_start" in request:  # `gym env start` alone, with the settings given: did its servers come up?
        return _env_start_only(request, result, result_path)
    os.environ.update(request.get("exported", {}))  # what the user's shell exported
    rollouts = Path(request["rollouts"])
    checkpoint = Path(request["checkpoint"])
    server = ModelServerConfig(latency_ms=request.get("latency_ms", 0))  # a slow policy, where a test asks for one
    with serve_checkpoint(server, checkpoint.name, checkpoint, rollouts.parent) as endpoint:
        result["policy_url"] = endpoint.url

        def on_ready(ready: str) -> None:
            result["listeners_while_up"] = listeners()

        summary = collect_with_nemo_gym(Path(request["materialized"]), rollouts,
                                        get_environment(request["environment"]), endpoint.url,
                                        endpoint.model_name, request["gym"], concurrency=request["concurrency"],
                                        extra_overrides=request.get("overrides", ()), on_ready=on_ready)
    result["summary"] = dataclasses.asdict(summary)
    result_path.write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    return 0


def _env_start_only(request: dict, result: dict, result_path: Path) -> int:
    from gym_pipeline.config import ModelServerConfig
    from gym_pipeline.engines.nemo_gym import NemoGymError, gym_env_started
    from gym_pipeline.host import free_loopback_port
    from gym_pipeline.serving.servers import serve_checkpoint

    start = request["env_start"]
    os.environ.update(start.get("environment", {}))  # what the user's env file exported
    if "hosts" in start:  # the node's /etc/hosts, seen only in this namespace's private mounts
        hosts = Path(start["log"]).parent.parent / "node_hosts"  # beside the run folder, not in it
        hosts.write_text(start["hosts"])
        subprocess.run(["mount", "--bind", str(hosts), "/etc/hosts"], check=True)
    checkpoint, log = Path(start["checkpoint"]), Path(start["log"])
    staging = log.parent / "staging"
    staging.mkdir(parents=True, exist_ok=True)
    # another program of the node listening on a port (as vLLM does on 8000), for as long as the servers run
    held = socket.create_server(("127.0.0.1", start["held_port"])) if "held_port" in start else contextlib.nullcontext()
    with held, serve_checkpoint(ModelServerConfig(), checkpoint.name, checkpoint, staging) as endpoint:
        try:
            with gym_env_started(Path(request["gym"]), start["resources_server"], endpoint.url, endpoint.model_name,
                                 staging, log, free_loopback_port(), extra_overrides=start["overrides"],
                                 startup_timeout_s=start["startup_timeout_s"],
                                 link_venvs=start.get("link_venvs", True),
                                 search_dirs=[Path(folder) for folder in start.get("search_dirs", [])]) as servers:
                result["ready"] = servers.ready
                if "script" in start and servers.ready:  # the user's eval script, against the servers it started
                    _user_script(start["script"], log.parent, servers)
        except NemoGymError as error:
            result["error"] = str(error)
    result_path.write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    return 0


def _user_script(script: str, run_dir: Path, servers) -> None:
    """`script` run by bash in the run folder, its output kept as logs/run_eval.log; `gym` is on its PATH, and
    $GYM_OVERRIDES holds the overrides that reach the servers `gym env start` runs (head port, server venvs)."""
    (run_dir / "run_eval.sh").write_text(f"#!/bin/bash\n{script}")
    (run_dir / "logs").mkdir(exist_ok=True)
    environment = {**servers.env, "GYM_OVERRIDES": " ".join(servers.arguments)}
    with (run_dir / "logs" / "run_eval.log").open("wb") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run_dir, env=environment, stdout=log, stderr=subprocess.STDOUT,
                       timeout=600)


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
