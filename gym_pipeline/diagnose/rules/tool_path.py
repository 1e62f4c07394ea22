"""Commands a script calls by name that its shell does not find, though they work at the user's prompt.

- The pipeline's own commands, where the shell has another PATH than the user's. A user calls `gym-pipeline` or `gym` by name from a shell with the project's virtual environment activated; a job
or script started in another shell does not have it. A login shell (`#!/bin/bash -l`, the template of many clusters)
reads /etc/profile, which sets PATH afresh; `sudo` and `env -i` start from a clean environment; `--export=NONE` gives a
Slurm job none of the submitting shell's. Every command then fails with `command not found`, and the script goes on
to its end: nothing was materialized, collected or profiled, and nothing else says why.
- PATH itself assigned by the script as a variable of its own (`PATH=data.jsonl`): the shell's command search path is
  gone, and every later command but the shell's builtins is `command not found` (a config cause: the script's own
  line, not the machine). A node settings file that sets PATH to a fixed list of the machine's folders (no `$PATH`)
  drops the environment's folders the same way: the machine's environment, infra.
- A name the script defines with `alias` (as in the user's .bashrc): bash expands aliases only in interactive
  shells, so in a script every call of it is `command not found`.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.user_scripts import EXPORT_OPTION, SCRIPT_SUFFIXES, UserFile, exported_names, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, INFRA

# the commands a run of the pipeline or of NeMo Gym needs, installed in its virtual environment
_PIPELINE_COMMANDS = re.compile(r"^(?:gym-pipeline|gym|ng_\w+|nemo-gym|uv|dagster|dagster-webserver)$")
# what gives a script's shell another PATH than the one it was started from
_CLEAN_SHELL = re.compile(r"^#!\S*(?:bash|sh)\s+(?:-\w*l\w*|--login)\b|\bbash\s+(?:-\w*l\w*|--login)\s|\bsudo\s|\benv\s+-i\b")


# `PATH=data.jsonl`: the search path replaced by a value that does not keep it (no `$PATH` in it)
PATH_REPLACED = re.compile(r"^\s*(?:export\s+)?PATH=(?![^#\n]*\$\{?PATH\b)")


def _folders_only(line: str) -> bool:
    """`PATH=/usr/local/cuda/bin:/usr/bin`: a search path of its own (a node settings file's fixed list), not a value
    of the script's that took PATH's name."""
    value = line.split("=", 1)[1].split("#", 1)[0].strip().strip("\"'")
    return bool(value) and all(part.startswith("/") for part in value.split(":"))


def _search_path_reset(name: str, number: int, line: str, missing: list[LogHit]) -> Finding:
    assignment = line.split("#")[0].strip()
    commands = sorted({hit.groups["command"] for hit in missing})
    return Finding(
        category=INFRA,
        title=f"{name}:{number} sets PATH to a fixed list of folders (`{assignment}`): "
              f"{', '.join(f'`{command}`' for command in commands)} no longer found",
        evidence=[EvidenceLine(file=name, line=number, text=line), *(hit.evidence() for hit in missing[:2])],
        cause=f"`{assignment}` replaces the search path the script had (with the project's virtual environment on it) "
              "by the machine's folders alone: from that line on the environment's commands are not found, and "
              "every one fails with `command not found` while the script goes on to its end.",
        fix=f"In {name}, extend PATH instead of replacing it: put the folders it needs first and keep the rest "
            f"(`export PATH={assignment.split('=', 1)[1].strip(chr(34) + chr(39))}:$PATH`), or source {name} before "
            "activating the environment; `command -v gym-pipeline` must find it after; then run again.",
        explains=frozenset({"command_not_found"}),
    )


def _path_replaced(name: str, number: int, line: str, missing: list[LogHit]) -> Finding:
    if _folders_only(line):
        return _search_path_reset(name, number, line, missing)
    return Finding(
        category=CONFIG,
        title=f"{name}:{number} assigns PATH (`{line.split('#')[0].strip()}`): every command after it is not found",
        evidence=[EvidenceLine(file=name, line=number, text=line), *(hit.evidence() for hit in missing[:2])],
        cause=f"PATH is the shell's list of folders to look for commands in; `{line.split('#')[0].strip()}` replaced "
              "it with a value of the script's own, so from that line on no program is found and every command "
              "fails with `command not found` while the script goes on to its end.",
        fix=f"In {name}, give that value another name (`DATA=...`, then `$DATA`) instead of `{line.split('#')[0].strip()}`"
            "; never assign PATH except to extend it (`PATH=/some/bin:$PATH`); then run the script again.",
        explains=frozenset({"command_not_found"}),
    )


def _server_venv_built_without_uv(ev: Evidence, missing: list[LogHit]) -> Finding | None:
    """`(string_match) ... uv: command not found` under `gym env start`: the server's venv was not where Gym looks for
    it, so Gym set out to build it, and building takes uv, which this node does not have."""
    building = next((hit for hit in missing if hit.groups.get("server") and hit.groups["command"] == "uv"), None)
    if building is None:
        return None
    server = building.groups["server"]
    started = next((hit for hit in ev.hits("gym_server_starting") if hit.groups["server"] == server), None)
    venv = started.groups["venv"] if started else f"the venv of {server}"
    return Finding(
        category=INFRA,
        title=f"`gym env start` had to build {server}'s venv ({venv} was not there), and the node has no uv",
        evidence=[*([started.evidence()] if started else []), building.evidence()],
        cause=f"Gym starts each server from its venv; {venv} was missing (or incomplete), so `gym env start` set out "
              "to build it with `uv venv` and `uv pip install`, and uv is not on this node's PATH: the server never "
              "started, and Gym stopped the others. A venv prebuilt for the node that has gone (a tmp cleaner's "
              "sweep of `++uv_venv_dir`, a scratch folder emptied between jobs) looks just like this.",
        fix=f"Restore the prebuilt venv at {venv} (rebuild it where uv and the package index are at hand), and keep "
            "`++uv_venv_dir` on a folder the node's tmp cleaner does not sweep; or install uv on the node (on its "
            "PATH) so Gym can build it. `ls " + venv + "/bin/python` must find it; then start the servers again.",
        explains=frozenset({"command_not_found"}),
    )


def _export_without_path(limited: tuple[UserFile, int, str, re.Match[str]], commands: list[str],
                         missing: list[LogHit]) -> Finding:
    file, number, line, match = limited
    export = match["list"]
    return Finding(
        category=CONFIG,
        title=f"{file.name}:{number} submits the job with `--export={export}`, which leaves out the submitting shell's "
              f"PATH: {', '.join(commands)}: command not found, {plural(len(missing), 'time')}",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *(hit.evidence() for hit in missing[:2])],
        cause=f"Without ALL in it, `--export={export}` gives the job only the variables it names (and Slurm's own), "
              "not the environment sbatch was called from: the PATH with the project's virtual environment activated "
              f"stays behind, so in the job every call of {', '.join(f'`{c}`' for c in commands)} by name failed before "
              "doing anything, and the script went on to its end with nothing made.",
        fix=f"In {file.name}, keep the environment and add to it: `--export=ALL,{export}` instead of "
            f"`--export={export}`, so the job has the submitting shell's PATH (or activate the venv inside the job script, or call `$VENV/bin/{commands[0]}` by its "
            "full path); then submit again.",
        explains=frozenset({"command_not_found"}),
    )


def rule_pipeline_command_not_on_path(ev: Evidence) -> list[Finding]:
    missing = [hit for hit in ev.hits("command_not_found") if _PIPELINE_COMMANDS.match(hit.groups["command"])]
    if not missing:
        return []
    if (unbuilt := _server_venv_built_without_uv(ev, missing)) is not None:
        return [unbuilt]
    commands = sorted({hit.groups["command"] for hit in missing})
    overwritten = next(lines_matching(ev.user_files, PATH_REPLACED, SCRIPT_SUFFIXES), None)
    if overwritten is not None:
        return [_path_replaced(overwritten[0].name, overwritten[1], overwritten[2].strip(), missing)]
    # a job's environment limited to the variables named: `#SBATCH --export=NONE`, `sbatch --export=MODEL_URL=...`
    limited = next((found for found in lines_matching(ev.user_files, EXPORT_OPTION)
                    if exported_names(found[3]["list"]) is not None), None)
    if limited is not None:
        return [_export_without_path(limited, commands, missing)]
    shell = next(lines_matching(ev.user_files, _CLEAN_SHELL, SCRIPT_SUFFIXES), None)
    evidence = [hit.evidence() for hit in missing[:3]]
    if shell is not None:
        file, number, line, _ = shell
        evidence.append(EvidenceLine(file=file.name, line=number, text=line.strip()))
        why = (f"{file.name}:{number} (`{line.strip()}`) runs it in a shell with another PATH: "
               + ("a login shell reads /etc/profile and the profile scripts, which set PATH afresh, without the "
                  "virtual environment activated where the job was started" if "-l" in line or "--login" in line else
                  "that shell does not inherit the environment it was started from"))
        login = "-l" in line or "--login" in line
        change = (f" or start {file.name} without a login shell (`#!/bin/bash` instead of `{line.strip()}`, so the "
                  "login profile does not reset PATH)" if login else f" or pass the environment on where "
                  f"{file.name}:{number} starts the new shell")
    else:
        why = "the shell that ran it does not have the environment's bin folder on its PATH"
        change = ""
    return [Finding(
        category=INFRA,
        title=f"{', '.join(commands)}: command not found, {plural(len(missing), 'time')}: the shell that ran the run's "
              "commands does not have the pipeline's environment on its PATH",
        evidence=evidence,
        cause=f"{why}. Every call of {', '.join(f'`{c}`' for c in commands)} by name failed before doing anything, and "
              "the script went on to its end, so nothing was made and no other error says why.",
        fix=f"Call the commands by their full path (`$VENV/bin/{commands[0]}`), or activate the environment inside "
            f"the script (`source /path/to/.venv/bin/activate`, after any #SBATCH lines){change}; `which "
            f"{commands[0]}` at the top of the script shows what its PATH finds. Then run again.",
        explains=frozenset({"command_not_found"}),
    )]


def rule_alias_called_in_a_script(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("command_not_found"):
        name = hit.groups["command"]
        defined = next(lines_matching(ev.user_files, re.compile(rf"^\s*alias\s+{re.escape(name)}="), SCRIPT_SUFFIXES),
                       None)
        if defined is None or "expand_aliases" in defined[0].text:
            continue
        file, number, line, _ = defined
        calls = [h for h in ev.hits("command_not_found") if h.groups["command"] == name]
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} defines `{name}` as an alias, which bash does not expand in a script: "
                  f"{name}: command not found, {plural(len(calls), 'time')}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *(h.evidence() for h in calls[:2])],
            cause=f"Aliases are expanded only in interactive shells; {file.name} runs non-interactively, so "
                  f"`{line.strip()}` defines a name that no later line of it can call, and every `{name} ...` failed "
                  "before doing anything while the script went on to its end.",
            fix=f"In {file.name}, replace the alias with a variable (`{name.upper()}=...`, then `\"${name.upper()}\" "
                f"...`) or a function (`{name}() {{ /path/to/command \"$@\"; }}`), or call the command by its full "
                "path; then run the script again.",
            explains=frozenset({"command_not_found"}),
        )]
    return []
