"""Step 2 (read after the cache readings of step 5): rollouts from a model server the run did not start.

The run's script starts this week's model server (its log in the run folder says the checkpoint it loaded), then
finds the address to collect from some other way than from that server: the first process `pgrep` lists, a job found
by name with `squeue | head`, a URL file a server left running since last week keeps writing. The address is an
older server's, whose log is in the run folder too: every request is answered, every command exits 0, and the
rollouts are the older checkpoint's. Read after the readings that name how the address was taken (one ready file for
two servers, a URL written into a script, a build tool keeping rollouts), which say more.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import recorded_model_url, rollouts_of_an_older_server
from gym_pipeline.diagnose.user_scripts import MODEL_SERVER_COMMAND, SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_MODEL_URL_FROM_VARIABLE = re.compile(r"--model-url[= ]\"?\$\{?(?P<name>[A-Za-z_]\w*)\}?")
_PID_KEPT = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)=\$!\s*(?:#|$)")


def _serving_scripts(ev: Evidence) -> set[str]:
    """The names of the user's scripts that start a model server (`serve.sh`)."""
    return {PurePath(file.name).name for file in ev.user_files if MODEL_SERVER_COMMAND.search(file.text)}


def _started_by_the_scripts(ev: Evidence, log: str, step: int) -> EvidenceLine | None:
    """The user's script line starting a model server (itself, or through a script that does) whose output goes to
    `log` (by its file name), or, for a server whose log the scheduler names (`#SBATCH --output`), that is given its
    checkpoint, step `step` (`sbatch serve.sbatch .../step_0200`)."""
    name = re.escape(PurePath(log).name)
    scripts = _serving_scripts(ev)
    starts = re.compile(MODEL_SERVER_COMMAND.pattern + (rf"|\b(?:{'|'.join(map(re.escape, scripts))})\b" if scripts else ""))
    started = [EvidenceLine(file=file.name, line=number, text=line.strip())
               for file, number, line, _ in lines_matching(ev.user_files, starts, SCRIPT_SUFFIXES)]
    return next((line for line in started if re.search(rf"(?:>|\btee\b[^|]*)\s*\S*\b{name}\b", line.text)),
                next((line for line in started if re.search(rf"\bstep_?0*{step}\b", line.text)), None))


def _batch_job_log(ev: Evidence, log: str) -> bool:
    """Whether `log` is a batch job's output (the scheduler's lines in it)."""
    return any(ev.rel(path) == log and "slurmstepd" in head for path, head in ev.log_heads)


def _address_taken(ev: Evidence) -> list[EvidenceLine]:
    """The script lines the collection's `--model-url $URL` comes from: its assignment and those of the variables
    that assignment reads, up to three (`URL=...$PORT...`, `PORT=$(... $PID ...)`, `PID=$(pgrep ... | head -1)`)."""
    for file, _, _, match in lines_matching(ev.user_files, _MODEL_URL_FROM_VARIABLE, SCRIPT_SUFFIXES):
        lines, wanted, seen = file.text.splitlines(), [match["name"]], []
        while wanted and len(seen) < 3:
            name = wanted.pop(0)
            found = next(((number, line) for number, line in enumerate(lines, 1)
                          if re.match(rf"\s*(?:export\s+)?{name}=", line)), None)
            if found is None:
                continue
            seen.append(EvidenceLine(file=file.name, line=found[0], text=found[1].strip()))
            wanted += re.findall(r"\$\{?([A-Za-z_]\w*)", found[1].split("=", 1)[1])
        if seen:
            return sorted(seen, key=lambda line: line.line)
    return []


def _pid_of_the_server(ev: Evidence, started: EvidenceLine) -> str | None:
    """The variable keeping the started server's pid (`SERVER_PID=$!` on the line after it)."""
    file = next((file for file in ev.user_files if file.name == started.file), None)
    lines = file.text.splitlines() if file else []
    following = lines[started.line] if started.line is not None and started.line < len(lines) else ""
    return match["name"] if (match := _PID_KEPT.match(following)) else None


def rule_rollouts_from_a_server_the_run_did_not_start(ev: Evidence) -> list[Finding]:
    if (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    (used_step, used_line), (_, newest_step, newest_line) = servers
    started = _started_by_the_scripts(ev, newest_line.file, newest_step)
    if started is None or _started_by_the_scripts(ev, used_line.file, used_step) is not None:
        return []  # the scripts started both (a baseline and a candidate on purpose), or neither: not this reading
    address = recorded_model_url(ev)
    taken = _address_taken(ev)
    pid = _pid_of_the_server(ev, started)
    return [Finding(
        category=MODEL_SERVING,
        title=f"The rollouts came from the step {used_step} server ({used_line.file}), not the step {newest_step} "
              f"server {started.file} started ({newest_line.file})",
        evidence=[started, newest_line, used_line, *taken[-1:]],
        cause=f"{started.where} starts the step {newest_step} server, but the collection asked {address}, the address "
              f"of another server: {used_line.file} says it serves step {used_step} there (a server left running "
              "from an earlier run, found by a lookup that takes the first match: a process listing, a job name, a "
              f"URL file it still writes). The step {newest_step} server got no request; every command exits 0, "
              f"and the rollouts, profile and comparisons are step {used_step}'s.",
        fix=f"Take the model URL from the server {started.file} starts (its own ready line or a --ready-file of "
            f"its own, or the port of its pid{f', ${pid}' if pid else ''}), not from a lookup that can find another "
            "server"
            + (f" ({'; '.join(f'line {line.line} `{line.text}`' for line in taken)})" if taken else "")
            + ("; keep the job id `sbatch --parsable` prints rather than looking the job up by name with `squeue`"
               if any("squeue" in line.text for line in taken) else "")
            + "; stop servers left from earlier runs "
            f"(the step {used_step} one at {address}{', with `scancel`' if _batch_job_log(ev, used_line.file) else ''}); check `/v1/models` names the checkpoint meant before "
            "collecting, then collect again on a clean output path and profile.",
    )]
