"""A command run from a folder mounted read-only: the user's script changes into the team's shared dataset folder to
give the input by its short name, and the stage, writing beside itself, is refused. Run for real by bash in a private
mount namespace where shared/ is a read-only bind mount; its twin runs the same script with shared/ writable."""

import shutil
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

pytestmark = pytest.mark.skipif(
    shutil.which("unshare") is None or subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode,
    reason="`unshare --mount` cannot make a mount namespace here (root needed)")


@pytest.mark.parametrize("read_only", [True, False])
def test_a_command_run_from_a_read_only_folder(tmp_path: Path, read_only: bool) -> None:
    shared = tmp_path / "run" / "shared"
    shared.mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:6]
    (shared / "tasks.jsonl").write_text("".join(rows))
    # the shell the script runs in: shared/ mounted read-only (bind, then remount), as the team's export is
    mount = f"mount --bind {shared} {shared} && mount -o remount,ro,bind {shared} && " if read_only else ""
    shell = tmp_path / "shell_with_shared_mount"
    shell.write_text(f'#!/bin/bash\nexec unshare --mount bash -c \'{mount}exec bash "$0"\' "$1"\n')
    shell.chmod(0o755)
    script = ("cd shared   # the shared task set, read in place\n"
              f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n")
    run = run_scripts(tmp_path, [script], shell=str(shell))

    report = diagnose(run)

    if not read_only:
        assert (shared / "rollouts_materialized_inputs.jsonl").is_file()
        assert not [f for f in report.findings if f.id == "command_run_from_a_read_only_folder"]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "command_run_from_a_read_only_folder")
    assert top.title == ("run_eval.sh:3 runs its command from shared (run_eval.sh:2), a read-only folder: it could "
                         f"not write {shared} beside itself")
    assert "give the files of shared by their full path" in top.fix
