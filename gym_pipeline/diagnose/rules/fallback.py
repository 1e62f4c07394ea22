"""Whatever real error the logs show and no finding explains: a run is never called healthy over it.

Such an error is placed by where it came from and what it is (`origin.place`), not by its
exception's name; a placement that rests only on its words says it is a guess.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from gym_pipeline.core.materialize import first_row_fault
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import excerpt
from gym_pipeline.diagnose.exception_hints import code_fix_hint
from gym_pipeline.diagnose.findings import Finding, input_field_fault
from gym_pipeline.diagnose.launcher import served_and_stopped
from gym_pipeline.diagnose.logs import LogIncident
from gym_pipeline.diagnose.origin import (
    BAD_DATA_ROW,
    HEAD_SERVER,
    INTERPRETER_GONE,
    NAME_NOT_DEFINED,
    READING_ROWS,
    Listener,
    Placement,
    address_of,
    innermost_frame,
    place,
    server_role,
)
from gym_pipeline.diagnose.unrecorded_source import source_candidates
from gym_pipeline.diagnose.user_scripts import (
    UserFile,
    assignment_of,
    environment_assignments,
    lines_matching,
    option_value_source,
    script_hints,
    variable_building,
)
from gym_pipeline.diagnose.vocabulary import (
    CACHE_RESUME,
    CATEGORY_MEANINGS,
    CONFIG,
    DATA_SCHEMA,
    INFRA,
    MODEL_SERVING,
    REQUEST_DEBUG_FLAG,
    THROUGHPUT_RESOURCES,
    VERIFIER_RUNTIME,
)

_FALLBACK_FIX: dict[str, str] = {
    INFRA: "Check the job and machine first: `sacct -j <jobid>` / `ray status`, `df -h`, `ss -ltnp`; fix that before "
    "touching Gym config.",
    MODEL_SERVING: f"Check the endpoint: `curl -s <model-url>/v1/models` and its log; restart the servers with "
    f"`{REQUEST_DEBUG_FLAG}` to see inner request and response bodies.",
    CONFIG: "Reduce to a minimal `gym env start` / `gym eval run` command, add the overrides back one at a time, and "
    "compare with the command's `--help`.",
    DATA_SCHEMA: "Validate the failing row against the resources server's request model; fix the data and re-run on "
    "a clean output path.",
    THROUGHPUT_RESOURCES: "Lower `--concurrency` and compare model, verifier and tool latency.",
    VERIFIER_RUNTIME: "Run the verifier on that row alone (for task folders: `gym dataset validate <target>`), with "
    f"`{REQUEST_DEBUG_FLAG}` when the error comes through nested 500s.",
    CACHE_RESUME: "Re-run on a clean output path without --resume.",
}


# A command or stage that failed because something inside it failed, or because an earlier stage did not write
# what it reads (the materialized inputs, the rollouts): the other error (in its own log) is the cause, this one its
# consequence.
_WRAPPER = re.compile(r"StageFailedError|CalledProcessError|exited \(-?\d+\)|exited with (?:code|status)"
                      r"|returned non-zero exit status|still running after"
                      r"|(?:_materialized_inputs|rollouts)\.jsonl\W+(?:file not found|No such file)"
                      r"|No such file or directory: '[^']*_materialized_inputs\.jsonl'")
_SUGGESTION = re.compile(r"[Dd]id you mean [`'\"]?(?P<name>[\w./:-]+)")
# A None where a program expected text, from a Python the run's own files tell to strip docstrings (PYTHONOPTIMIZE=2
# or more, `python -OO`, a node setting kept from a cluster short of memory): the program read its own `__doc__`.
_NONE_ERROR = re.compile(r"(?:AttributeError|TypeError): [^\n]*'NoneType'")
_STRIPS_DOCSTRINGS = re.compile(r"^\s*(?:export\s+)?PYTHONOPTIMIZE=['\"]?[2-9]|\bpython[\d.]*\s+(?:-\w+\s+)*-\w*OO\b")
DOCSTRINGS_STRIPPED = ("a Python the run's own files tell to strip docstrings, running a program that reads its own "
                       "(`__doc__` is None)")


# The debug step that checks each category: where an unexplained error of it belongs in the report.
STEP_OF_CATEGORY: dict[str, int] = {
    INFRA: 1,
    CONFIG: 1,
    MODEL_SERVING: 2,
    CACHE_RESUME: 5,
    VERIFIER_RUNTIME: 7,
    THROUGHPUT_RESOURCES: 7,
    DATA_SCHEMA: 8,
}


def listeners(ev: Evidence) -> dict[int, Listener]:
    """The ports the run's files name, and who listens there: the model server, Gym's head and servers."""
    found: dict[int, Listener] = {}
    named = [(h.groups.get("url"), f"{h.file}:{h.line}") for h in ev.hits("model_url")]
    named += [(url, f"manifest.json:{line}") for url, line in ev.manifest.model_urls]
    for url, source in named:
        address = address_of(url or "")
        if address:
            found.setdefault(address[1], Listener(MODEL_SERVING, "the model server", source))
    for hit in ev.hits("head_server_listening") + ev.hits("server_listening"):
        address = address_of(hit.groups.get("url") or "")
        server = hit.groups.get("server")
        if address and address[1] not in found:
            role = server_role(server) if server else "head"
            category = MODEL_SERVING if role == "model" else INFRA
            found[address[1]] = Listener(category, f"the Gym server `{server}`" if server else HEAD_SERVER,
                                         f"{hit.file}:{hit.line}")
    return found


_EXCEPTION_HEAD = re.compile(r"^(?:\([\w.-]+\)\s*)?(?:[\w.]+(?:Error|Exception|Exit)\w*:\s*)?")
MIN_QUOTED_CHARS = 20  # a shorter message ("timeout") may be quoted by a finding about another error


def _explained(incident: LogIncident, findings: list[Finding]) -> bool:
    explained = set().union(*(f.explains for f in findings)) if findings else set()
    if incident.signatures & explained:
        return True
    if any(  # a line cited right by it; an effect (servers not ready...) cites what followed, not the error
        line.file == incident.file and line.line is not None and incident.start - 2 <= line.line <= incident.end + 2
        for finding in findings if not finding.effect
        for line in finding.evidence
    ):
        return True
    return _quoted_by(incident, findings)


def _quoted_by(incident: LogIncident, findings: list[Finding]) -> bool:
    """A finding already quotes this error's message (a launcher's record, a failure row's body): the same error."""
    message = " ".join(_EXCEPTION_HEAD.sub("", incident.text).split())[:80]
    if len(message) < MIN_QUOTED_CHARS:
        return False
    return any(message in " ".join(text.split())
               for finding in findings if not finding.effect  # an effect quotes what followed, not the error
               for text in (finding.title, finding.cause, *(line.text for line in finding.evidence)))


# The pipeline stage a log is named for: an error of an earlier stage (serving, materializing) comes before one of a
# later stage (collecting, profiling), which often only met what the earlier one left undone.
_STAGE_OF_LOG = (
    (re.compile(r"serv|policy|env_start|vllm|model", re.I), 0),
    (re.compile(r"materiali|prepare|download", re.I), 1),
    (re.compile(r"profil|aggregat|report|compar", re.I), 3),
)
PROFILE_STAGE = 3
_UNNAMED_STAGE = 2  # collecting, or a log whose name does not say


# a program a script ran by its name that could not start: its interpreter gone, or not executable
_PROGRAM_NOT_RUN = re.compile(rf"{INTERPRETER_GONE}|line \d+: (?P<program2>/\S+): (?P<denied>Permission denied)")


def _folder_put_on_path(ev: Evidence, folder: str) -> tuple[UserFile, int, str] | None:
    """(file, line number, line) of the user's line that puts `folder` on PATH."""
    named = re.compile(rf"{re.escape(folder)}/?(?::|[\"']|\s|$)")
    return next(((file, number, line) for file, number, line in environment_assignments(ev.user_files, "PATH")
                 if named.search(line)), None)


def stage_of_log(file: str) -> int:
    name = file.rsplit("/", 1)[-1]
    return next((stage for pattern, stage in _STAGE_OF_LOG if pattern.search(name)), _UNNAMED_STAGE)


_REFUSED_OPTION = re.compile(r"argument (--[\w-]+)")
_TOO_LONG_NAME = re.compile(r"File name too long: '(?P<name>[^']+)")


def _long_name_built_by(ev: Evidence, text: str) -> str | None:
    """A sentence naming the script line and variable that built the too-long file name an error quotes."""
    quoted = _TOO_LONG_NAME.search(text)
    built = variable_building(ev.user_files, quoted["name"]) if quoted else None
    if built is None:
        return None
    file, number, line, variable = built
    assigned = assignment_of(ev.user_files, variable)
    return (f"{file.name}:{number} builds the name from ${variable} (`{excerpt(line, 120)}`)"
            + (f", which {assigned[0].name}:{assigned[1]} sets (`{excerpt(assigned[2], 120)}`)" if assigned else "")
            + f": a file name may hold 255 bytes; keep ${variable} short (an id or a hash of what it describes: "
            f"`{variable}=$(echo ... | sha1sum | cut -c1-12)`) and write the long description into a file beside it.")


_NETWORK_ERROR = re.compile(r"URLError|gaierror|Temporary failure in name resolution|Name or service not known"
                            r"|Network is unreachable|Connection refused|ConnectionError")


# a task test's verdict, printed on a line of its own (`PASS`, `FAIL: 2 of 3`, `reward: 1`)
_VERDICT_LINE = re.compile(r"^\s*(?:PASS(?:ED)?|FAIL(?:ED)?|OK|reward\s*[:=]\s*[\d.]+)\b", re.I)


# `ls` of a file the test looks for: a listing of what the agent left, which fails on what is not there
_LISTING_MISSES = re.compile(r"^ls: cannot access ")


def _error_after_a_verdict(ev: Evidence, file: str, line: int, text: str) -> bool:
    """An error in a task episode's test output whose test wrote its reward, and either printed its verdict before
    the error (an optional check after the scoring: a lint of a file most tasks lack), met a network error (a
    best-effort metrics push from a sandbox without network), or listed with `ls` a file the agent did not leave and
    went on to its verdict: none of them kept the test from its verdict."""
    path = ev.run_dir / file
    if path.name != "test-stdout.txt":
        return False
    try:
        float((path.parent / "reward.txt").read_text(encoding="utf-8").strip())
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, ValueError):
        return False
    before, after = lines[:max(0, line - 1)], lines[line:]
    return (bool(_NETWORK_ERROR.search(text)) or any(_VERDICT_LINE.match(earlier) for earlier in before)
            or bool(_LISTING_MISSES.match(text.strip()) and any(_VERDICT_LINE.match(later) for later in after)))


def collection_complete(ev: Evidence) -> bool:
    """Every materialized key has exactly one rollout and no row carries a failure: the outputs are whole."""
    a = ev.artifacts
    return (a.materialized.valid_rows > 0 and not a.missing_keys and not a.extra_rollout_keys
            and not a.duplicate_rollout_keys and not a.failure_kinds and not a.rollouts.malformed_count)


_INSTALLED_CODE = re.compile(r"site-packages|/lib/python3\.\d+/")
_TRACEBACK_CONTINUES = ("Traceback", "During handling", "The above exception", "File ")


def _log_lines(ev: Evidence, file: str) -> list[str]:
    """The lines of the head of the run's log `file`, each without the `(server) ` prefix Gym puts on it."""
    head = next((head for log, head in ev.log_heads if ev.rel(log) == file), "")
    return [re.sub(r"^\([\w.-]+\) ", "", line).strip() for line in head.splitlines()]


def _handled_and_logged(ev: Evidence, incident: LogIncident) -> bool:
    """A traceback the user's own code printed and went on from (`logger.exception("... comparing as text")`, an
    optional import it does without), in a run whose collection is whole: every frame is the user's code (an
    exception that escaped a request also has the web framework's frames) and the line before it is the code's own
    message."""
    if incident.kind != "traceback" or not incident.frames or not collection_complete(ev) \
            or any(_INSTALLED_CODE.search(frame) for frame in incident.frames):
        return False
    lines = _log_lines(ev, incident.file)
    if not 1 <= incident.start <= len(lines):
        return False
    # the message is the incident's first line (`ERROR ... comparing as text`), or the line before its traceback
    message = lines[incident.start - 1] if not lines[incident.start - 1].startswith("Traceback") else (
        lines[incident.start - 2] if incident.start >= 2 else "")
    return bool(message) and not message.startswith(_TRACEBACK_CONTINUES)


_ASCII_CODEC = re.compile(r"'ascii' codec can't encode")
_ENCODES_TO_ASCII = re.compile(r"\.encode\(\s*[\"'](?:ascii|us-ascii)[\"']\s*\)")
_IN_A_VERIFIER = re.compile(r"\bin (?:verify|score|_?check\w*|compute_reward)\b|resources_servers|verifiers?/")


def _raising_code(ev: Evidence, incident: LogIncident) -> str | None:
    """The source line a traceback shows under its innermost frame (the code that raised)."""
    lines = _log_lines(ev, incident.file)
    frames = [n for n in range(incident.start - 1, min(incident.end, len(lines))) if lines[n].startswith("File ")]
    return lines[frames[-1] + 1] if frames and frames[-1] + 1 < len(lines) else None


def unexplained_log_errors(ev: Evidence, findings: list[Finding]) -> list[Finding]:
    """The first real error of each log that no finding explains, earlier stages' logs first: never call a run
    healthy over it."""
    result = []
    seen_files: set[str] = set()
    _, served_logs = served_and_stopped(ev.launchers)
    ports = listeners(ev)
    for incident in ev.logs.incidents:
        stopped_on_purpose = incident.file in served_logs and "slurm_cancelled" in incident.signatures
        if incident.after_shutdown or stopped_on_purpose or incident.file in seen_files or _explained(incident, findings) \
                or _error_after_a_verdict(ev, incident.file, incident.line, incident.full_text) \
                or _handled_and_logged(ev, incident):
            continue
        seen_files.add(incident.file)
        noise = sum(1 for i in ev.logs.incidents if i.file == incident.file and i.after_shutdown)
        others = ev.logs.incident_counts[incident.file] - noise - 1
        first = incident
        incident, placement = _first_placed(first, ev.logs.incidents, findings, ports)
        vaguer = "" if incident is first else f"; the error at line {first.line} before it does not say what failed"
        field_fault = input_field_fault(ev, incident.full_text) if placement.category == VERIFIER_RUNTIME else None
        if field_fault is not None:  # the verifier raised on a field the rows lack or mistype: the data's fault
            placement = Placement(DATA_SCHEMA, f"{placement.basis}, on the input field `{field_fault[0]}`, and "
                                               f"{field_fault[1]}",
                                  fix=f"Give every row the `{field_fault[0]}` the verifier reads, with its type, then "
                                      "materialize again and collect on a clean output path.")
        if placement.category == DATA_SCHEMA and READING_ROWS in placement.basis and (
                fault := _source_row_fault(ev)):
            placement = replace(placement, fix=f"Our check of the data, as materializing reads it, finds {fault}: give "
                                               "every row that field as the error says, then run again on a clean "
                                               "output path.")
        elif placement.basis == BAD_DATA_ROW and (fault := _source_row_fault(ev)):
            placement = replace(placement, fix=f"{placement.fix} Our check of the data finds {fault}.")
        if placement.basis == NAME_NOT_DEFINED and (started := _servers_started(ev)):
            placement = replace(placement, fix=f"{placement.fix} {started}")
        if placement.guess and _NONE_ERROR.search(incident.full_text) and (
                stripping := next(lines_matching(ev.user_files, _STRIPS_DOCSTRINGS), None)):
            file, number, line, _ = stripping
            placement = Placement(INFRA, DOCSTRINGS_STRIPPED, fix=(
                f"{file.name}:{number} `{line.strip()}` makes Python strip docstrings (like `python -OO`): take it "
                "out (or set PYTHONOPTIMIZE=0, or run without `-OO`) where the job's environment is set; then run "
                "again."))
        elif (program := _PROGRAM_NOT_RUN.search(incident.text)) and (on_path := _folder_put_on_path(
                ev, str((path := Path(program["program"] or program["program2"])).parent))):
            file, number, line = on_path
            why, mend = (("which is not executable", f"make it executable (`chmod +x {path}`, and fix what copied it "
                          "without its mode) or take the folder off PATH there") if program["denied"] else
                         ("whose interpreter is gone", "take the folder off PATH there"))
            placement = replace(placement, fix=(
                f"{file.name}:{number} `{line}` puts {path.parent} first on PATH, so the script's `{path.name}` is that "
                f"folder's, {why}: {mend} (or put it after the install that works). {placement.fix}"))
        elif (refused := _variable_value_refused(ev, incident.text)) is not None:
            var, file, number, line = refused
            placement = Placement(CONFIG, f"refusing the value of `{var}`, which {file.name}:{number} sets", fix=(
                f"{file.name}:{number} `{line}` sets {var} to a value the program refuses: give it one the error "
                f"lists, or remove the line (the program's default applies); then start again."))
        elif placement.category == INFRA and (assigned := environment_assignments(ev.user_files, placement.fix)):
            where = "; ".join(f"{file.name}:{number} `{line}`" for file, number, line in assigned[:2])
            placement = replace(placement, fix=f"The run's own files set that environment: {where}. {placement.fix}")
        if placement.basis.startswith("ENAMETOOLONG") and (built := _long_name_built_by(ev, incident.full_text)):
            placement = replace(placement, fix=f"{built} {placement.fix}")
        if placement.category == CONFIG and (option := _REFUSED_OPTION.search(incident.text)) \
                and (source := option_value_source(ev.user_files, option[1])):
            placement = replace(placement, fix=f"{source} {placement.fix}")
        if placement.category == CONFIG and (hints := script_hints(ev.user_files)):
            placement = replace(placement, fix=f"{hints} {placement.fix or ''}".strip())
        raised_at = innermost_frame(incident)
        if placement.category == INFRA and _ASCII_CODEC.search(incident.text) and (
                code := _raising_code(ev, incident)) and _ENCODES_TO_ASCII.search(code):
            placement = Placement(VERIFIER_RUNTIME if _IN_A_VERIFIER.search(raised_at or "") else DATA_SCHEMA,
                                  f"the code itself encodes the text to ASCII (`{code}`), and it holds a character "
                                  "beyond ASCII: not the process's encoding",
                                  fix=f"Where {raised_at} encodes to ASCII (`{code}`), keep the text as it is, or "
                                      "encode with `errors=\"replace\"` (or to UTF-8) if a key must be bytes; then "
                                      "run again.")
        category = placement.category
        span = f"{incident.start}-{incident.end}" if incident.end > incident.start else str(incident.start)
        what = "traceback" if incident.kind == "traceback" else "error line"
        suggestion = _SUGGESTION.search(incident.full_text)
        hint = code_fix_hint(incident.full_text) if placement.basis != DOCSTRINGS_STRIPPED else ""
        if not hint and incident.kind == "error" and placement.guess and _ended_the_stage(ev, incident):
            hint = ("The process printed this and ended without a traceback: code that calls `sys.exit()` on a bad "
                    "input (a verifier taken from a command-line tool) ends the whole collection; raise an exception "
                    "or return reward 0 instead.")
        result.append(Finding(
            category=category,
            title=f"{'First unexplained' if incident is first else 'Unexplained'} error in {incident.file}: "
                  f"{incident.text}",
            evidence=[incident.evidence()],
            cause=(
                f"The first {'real ' if incident is first else ''}{what} of this log"
                + ("" if incident is first else " that says what it is")
                + f" ({incident.file}:{span}; shutdown noise skipped{vaguer})"
                + (f", raised at {raised_at}" if raised_at else "")
                + f", matches no known problem. Placed in {category} ({CATEGORY_MEANINGS[category]}) "
                + ("as a guess: " if placement.guess else "by ")
                + f"{placement.basis}."
                + (f" Its chain of causes: {' <- '.join(excerpt(c, 160) for c in incident.chain)}." if incident.chain
                   else "")
                + (f" {others} more error(s) follow in the same log." if others > 0 else "")
            ),
            fix=f"Read {incident.file}:{span}" + (f" (raised at {raised_at})" if raised_at else "")
                + f"; it says: {excerpt(incident.text, 300)}."
                + (f" It suggests `{suggestion['name']}`." if suggestion else "")
                + (f" {hint}" if hint else "")
                + f" {placement.fix or _FALLBACK_FIX[category]}",
            effect=bool(_WRAPPER.search(incident.text)),
            guess=placement.guess,
        ))
    return sorted(result, key=lambda finding: stage_of_log(finding.evidence[0].file))


# an error refusing the value of an environment variable it names (`NEMO_GYM_REASONING_FIELD must be one of (...)`)
_VARIABLE_VALUE_REFUSED = re.compile(r"\b(?P<var>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b[^\n]{0,40}?"
                                     r"(?:must be|is not a valid|invalid value|not one of|expected one of)")


def _variable_value_refused(ev: Evidence, text: str) -> tuple[str, UserFile, int, str] | None:
    """(variable, file, line, text) when `text` refuses the value of an environment variable that one of the run's
    own files sets (a team's env file): the setting, not the program that read it, is what to change."""
    if (refused := _VARIABLE_VALUE_REFUSED.search(text)) is None:
        return None
    if (assigned := assignment_of(ev.user_files, refused["var"])) is None:
        return None
    return refused["var"], *assigned


MAX_ROWS_CHECKED = 1000  # of a source data file, for the first row Gym cannot use


def _source_row_fault(ev: Evidence) -> str | None:
    """`file:line: field 'x': ...` for the first row of the run's source data that Gym cannot use."""
    for source, _ in source_candidates(ev.run_dir, ev.artifacts.files, ev.logs):
        try:
            fault = first_row_fault(source, MAX_ROWS_CHECKED)
        except OSError:
            continue
        if fault is not None:
            return f"{ev.rel(source)}:{fault.line}: " + (f"field '{fault.field}': " if fault.field else "") + fault.message
    return None


def _servers_started(ev: Evidence) -> str:
    """The Gym servers the run's logs show starting, its agents named apart: what a name must be one of."""
    started = sorted({hit.groups["server"] for name in ("gym_server_starting", "server_listening")
                      for hit in ev.hits(name)})
    if not started:
        return ""
    agents = [server for server in started if server_role(server) == "agent"]
    return (f"The servers this run started: {', '.join(started)}"
            + (f"; its agents: {', '.join(agents)} (route the rows to one: `gym eval run --agent {agents[0]}`, "
               f"`+agent_name={agents[0]}`)." if agents else "."))


MAX_ERRORS_WEIGHED = 8  # of one log, for one that says what it is


def _first_placed(first: LogIncident, incidents: list[LogIncident], findings: list[Finding],
                  ports: dict[int, Listener]) -> tuple[LogIncident, Placement]:
    """The log's first unexplained error, or a later one (of the same run of the process) that its words or origin
    place where the first is only a guess: a component failing vaguely ("Failed to start the dashboard, return code
    -6") before the error that says why (`BlockingIOError: [Errno 11] Resource temporarily unavailable`)."""
    placement = place(first, ports)
    if not placement.guess:
        return first, placement
    later = [i for i in incidents if i.file == first.file and i.start > first.start and not i.after_shutdown
             and not _explained(i, findings)][:MAX_ERRORS_WEIGHED]
    for incident in later:
        if not (found := place(incident, ports)).guess:
            return incident, found
    return first, placement


def _ended_the_stage(ev: Evidence, incident: LogIncident) -> bool:
    """The stage logging to this file ended with a non-zero exit (its launcher record says so)."""
    return any(record.state is not None and record.state.log == incident.file
               and record.state.exit_code not in (None, 0) for record in ev.launchers)
