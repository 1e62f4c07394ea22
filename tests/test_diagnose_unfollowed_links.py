"""A run that links its data into a scratch folder mounted `nosymfollow` (a node's security baseline), run for real in
a private mount namespace: the kernel follows no symlink there (`Too many levels of symbolic links`), so the run cannot
read its data though the file is fine. The diagnosis names the mount (infra). On a mount that follows links, healthy."""

import os
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, WAIT_FOR_PORT, materialize_line

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints


@pytest.mark.skipif(os.geteuid() != 0, reason="mounts a tmpfs in a private mount namespace (unshare needs root)")
@pytest.mark.parametrize("options", ["nosymfollow", "defaults"])
def test_a_data_link_on_a_nosymfollow_mount_cannot_be_opened(tmp_path: Path, options: str) -> None:
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    shared = tmp_path / "shared" / "datasets" / "tasks.jsonl"
    shared.parent.mkdir(parents=True)
    shared.write_text("".join(get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:6]))
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "scratch").mkdir()
    port = free_loopback_port()
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n# weekly eval: the tasks from the team's shared datasets folder (a link: no stale copies)\n"
        f"ln -sfn {shared} scratch/tasks.jsonl\nwc -l scratch/tasks.jsonl\n"
        + materialize_line(2, data="scratch/tasks.jsonl")
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n")
    node = (f"mount -t tmpfs -o {options} tmpfs scratch\n"
            f"{CLI} serve-policy --checkpoint {checkpoint} --port {port} > logs/model_server.log 2>&1 &\n"
            + WAIT_FOR_PORT.format(port=port) + "bash run_eval.sh > logs/run_eval.log 2>&1\nkill %1\nwait\n"
            "cp -P scratch/tasks.jsonl link_kept && umount scratch && mv link_kept scratch/tasks.jsonl\n")
    subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", node], cwd=run, timeout=300,
                   check=True)

    report = diagnose(run)

    if options == "defaults":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Too many levels of symbolic links" in (run / "logs" / "run_eval.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "link_not_followed_on_a_nosymfollow_mount"), [
        f.title for f in report.causes]
    assert top.title == ("scratch/tasks.jsonl is a symlink (to tasks.jsonl in datasets/) that the file system refuses to "
                         "follow (`Too many levels of symbolic links` without a circle): it is mounted `nosymfollow`")
    assert top.fix.startswith(f"Copy the file instead of linking it (`cp {shared} scratch/tasks.jsonl`)")
