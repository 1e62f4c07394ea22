"""The pipeline's commands called by name from a script whose shell has another PATH, run for real by bash.

A login shell (`#!/bin/bash -l`) reads /etc/profile, which sets PATH afresh: the virtual environment the user
activated is gone, and every `gym-pipeline` the script calls is `command not found`. The same script without `-l`
inherits the PATH and runs.

A script that names its data file PATH replaces the search path: config, its own line. A node settings file it
sources that sets PATH to the machine's folders alone drops the environment's: infra, and the fix extends PATH.

An alias defined in a script (as in the user's .bashrc) is never expanded there: every call is `command not found`.
A function of the same name works.
"""

import os
import subprocess
import sys
from pathlib import Path

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

SCRIPT = ("cd \"$(dirname \"$0\")\"\n"
          "gym-pipeline materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
          "--output rollouts_materialized_inputs.jsonl\n"
          'echo "materialized: $(wc -l < rollouts_materialized_inputs.jsonl 2>/dev/null || echo none)"\n')


def _run_by_name(tmp_path: Path, shebang: str) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    script = run / "eval.sh"
    script.write_text(f"{shebang}\n{SCRIPT}")
    script.chmod(0o755)
    venv_bin = str(Path(sys.executable).parent)  # the activated environment: gym-pipeline is found by name
    environment = {**os.environ, "PATH": f"{venv_bin}:{os.environ['PATH']}"}
    with (run / "eval.log").open("w") as log:
        subprocess.run([str(script)], env=environment, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    return run


def test_a_login_shell_script_loses_the_activated_environment(tmp_path: Path) -> None:
    run = _run_by_name(tmp_path, "#!/bin/bash -l")
    assert "gym-pipeline: command not found" in (run / "eval.log").read_text()  # the login profile reset PATH

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("infra", "pipeline_command_not_on_path")
    assert [line.where for line in top.evidence] == ["eval.log:1", "eval.sh:1"]
    assert "without a login shell (`#!/bin/bash` instead of `#!/bin/bash -l`" in top.fix


def test_the_same_script_in_a_plain_shell_finds_the_commands(tmp_path: Path) -> None:
    run = _run_by_name(tmp_path, "#!/bin/bash")
    assert "command not found" not in (run / "eval.log").read_text()

    assert all(f.id != "pipeline_command_not_on_path" for f in diagnose(run).findings)


def _with_shortcut(tmp_path: Path, definition: str) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "eval.sh").write_text(f"#!/bin/bash\n{definition}\ncd \"$(dirname \"$0\")\"\n"
                                 "gp materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
                                 "--output rollouts_materialized_inputs.jsonl\n")
    with (run / "eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "eval.sh")], stdout=log, stderr=subprocess.STDOUT, timeout=120)
    return run


def test_an_alias_defined_in_a_script_is_never_expanded(tmp_path: Path) -> None:
    run = _with_shortcut(tmp_path, f"alias gp='{sys.executable} -m gym_pipeline.cli'")
    assert "gp: command not found" in (run / "eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "alias_called_in_a_script")
    assert [line.where for line in top.evidence] == ["eval.sh:2", "eval.log:1"]
    assert "replace the alias with a variable" in top.fix


def test_a_function_of_the_same_name_runs(tmp_path: Path) -> None:
    run = _with_shortcut(tmp_path, f'gp() {{ {sys.executable} -m gym_pipeline.cli "$@"; }}')
    assert (run / "rollouts_materialized_inputs.jsonl").is_file()

    assert all(f.id != "alias_called_in_a_script" for f in diagnose(run).findings)


def test_a_script_assigning_path_loses_every_command_after_it(tmp_path: Path) -> None:
    run = _run_by_name(tmp_path, "#!/bin/bash\nPATH=data.jsonl  # this week's data")
    assert "gym-pipeline: command not found" in (run / "eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "pipeline_command_not_on_path")
    assert top.evidence[0].where == "eval.sh:2"
    assert "give that value another name (`DATA=...`" in top.fix


def test_a_script_extending_path_is_no_finding(tmp_path: Path) -> None:
    run = _run_by_name(tmp_path, "#!/bin/bash\nPATH=/opt/tools/bin:$PATH")

    assert all(f.id != "pipeline_command_not_on_path" for f in diagnose(run).findings)


def test_a_sourced_node_settings_file_setting_path_to_the_machines_folders_loses_the_environment(tmp_path: Path) -> None:
    (tmp_path / "node_env.sh").write_text("# node settings (cluster wiki): CUDA tools first\n"
                                          "export PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin\n")
    run = _run_by_name(tmp_path, f"#!/bin/bash\nsource {tmp_path / 'node_env.sh'}")
    (run / "node_env.sh").write_text((tmp_path / "node_env.sh").read_text())  # kept with the run, as users do
    assert "gym-pipeline: command not found" in (run / "eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("infra", "pipeline_command_not_on_path")
    assert top.evidence[0].where == "node_env.sh:2"
    assert "In node_env.sh, extend PATH instead of replacing it" in top.fix
    assert "`export PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin:$PATH`" in top.fix


def test_a_sourced_node_settings_file_extending_path_is_no_finding(tmp_path: Path) -> None:
    (tmp_path / "node_env.sh").write_text("export PATH=/usr/local/cuda/bin:$PATH\n")
    run = _run_by_name(tmp_path, f"#!/bin/bash\nsource {tmp_path / 'node_env.sh'}")
    (run / "node_env.sh").write_text((tmp_path / "node_env.sh").read_text())

    assert all(f.id != "pipeline_command_not_on_path" for f in diagnose(run).findings)
