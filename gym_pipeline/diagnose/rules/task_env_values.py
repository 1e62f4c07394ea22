"""Step 3: a task.toml `env` value that refers to a shell variable (`PATH = "/opt/tools/bin:$PATH"`), which TOML and
the task loader take as it is written.

A task author puts the team's tools on the verifier's search path the way a shell profile would. task.toml is no
shell: nothing expands `$PATH`, so the verifier runs with PATH set to the literal entries, finds no command of the
image, and its test never runs (exit 126 or 127, no reward). The task never scores while every command exits 0.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import never_scored, task_config, task_folder_run
from gym_pipeline.diagnose.vocabulary import CONFIG

_VARIABLE = re.compile(r"\$\{?(?P<name>[A-Za-z_]\w*)\}?")


def rule_task_env_value_with_a_shell_variable(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task in never_scored(run):
        config = task_config(ev, run, task)
        if config is None:
            continue
        for section, env in (("verifier", config.verifier.env), ("solution", config.solution.env)):
            for key, value in env.items():
                if (variable := _VARIABLE.search(value)) is None:
                    continue
                toml = locate_named_file(run.task_path(task), ev.run_dir, folder=True) / "task.toml"
                lines = toml.read_text(encoding="utf-8", errors="replace").splitlines() if toml.is_file() else []
                number = next((n for n, line in enumerate(lines, 1) if re.search(rf"\b{re.escape(key)}\s*=", line)), 1)
                where = ev.rel(toml) if toml.is_file() else f"{run.task_path(task)}/task.toml"
                return [Finding(
                    category=CONFIG,
                    title=f"{where} sets [{section}] env {key} = {value!r}: task.toml does not expand "
                          f"`{variable.group(0)}`, and task {task} never scored",
                    evidence=[EvidenceLine(file=where, line=number,
                                           text=lines[number - 1].strip() if lines else f"{key} = {value!r}")],
                    cause=f"task.toml is read as TOML, not by a shell: `{variable.group(0)}` stays the text "
                          f"`{variable.group(0)}`, so the {section} runs with {key} = {value!r}"
                          + (" and finds no command of the image (bash, cat, timeout): its test never runs and "
                             "writes no reward" if key == "PATH" else "")
                          + f". Every episode of {task} scored 0.",
                    fix=f"In {where}, give [{section}] env {key} its whole value without variables"
                        + (" (the image's own search path spelled out: `/opt/eval-tools/bin:/usr/local/sbin:"
                           "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`), or set PATH inside tests/test.sh, where "
                           "the shell expands it" if key == "PATH" else ", or set it inside the test script")
                        + "; then run the task again.",
                )]
    return []
