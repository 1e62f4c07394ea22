"""A preparation step whose multiprocessing pool cannot allocate in /dev/shm, filled by a crashed job's leftover
segment. Run for real by bash in a private mount namespace where /dev/shm is a 1 MB tmpfs the leftover fills; its
twin has the same tmpfs with room."""

import shutil
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

pytestmark = pytest.mark.skipif(
    shutil.which("unshare") is None or subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode,
    reason="`unshare --mount` cannot make a mount namespace here (root needed)")


@pytest.mark.parametrize("leftover_kb", [1024, 0])
def test_a_pool_that_cannot_allocate_in_a_full_dev_shm(tmp_path: Path, leftover_kb: int) -> None:
    shell = tmp_path / "shell_with_small_shm"
    fill = f"dd if=/dev/zero of=/dev/shm/torch_4242_leftover bs=1k count={leftover_kb} 2>/dev/null; " if leftover_kb \
        else ""
    shell.write_text("#!/bin/bash\nexec unshare --mount bash -c 'mount -t tmpfs -o size=1m tmpfs /dev/shm && "
                     f"{fill}exec bash \"$0\"' \"$1\"\n")
    shell.chmod(0o755)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "prepare_data.py").write_text(
        "import multiprocessing, sys\n\n\ndef tidy(line):\n    return line\n\n\nif __name__ == '__main__':\n"
        "    with multiprocessing.Pool(2) as pool:\n        sys.stdout.writelines(pool.map(tidy, open('data.jsonl')))\n")
    script = ("python3 prepare_data.py > tasks.jsonl\n"
              f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n")
    run = run_scripts(tmp_path, [script], shell=str(shell))

    report = diagnose(run)

    if not leftover_kb:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert not [f for f in report.findings if f.id == "shared_memory_full"]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "shared_memory_full")
    assert "`rm /dev/shm/torch_*`" in top.fix
