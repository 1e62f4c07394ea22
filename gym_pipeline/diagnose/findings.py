"""A finding, and the phrases findings share: keys, affected rows, and the next commands to run.

Commands name the run's real paths when the files exist, our `gym-pipeline` commands when the
folder is one of ours (it has a manifest), and Gym's otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from gym_pipeline.diagnose.artifacts import FailureGroup, FileStats, Key
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt, redact
from gym_pipeline.diagnose.vocabulary import PARTIAL_PROFILE_FLAG, REQUEST_DEBUG_FLAG, Category

# A finding's place in the causal report: what went wrong first, what followed from it, and what is
# worth knowing but no fault (a run not profiled yet).
CAUSE, CONSEQUENCE, NOTE = "cause", "consequence", "note"
Role = Literal["cause", "consequence", "note"]


class Finding(BaseModel):
    """One diagnosed problem: what, the lines that show it, why, and the next commands.

    `role` and `caused_by` are set when the rules' findings are linked (`rules.link_causes`): a
    finding a rule marks as an `effect` (partial output, a torn last line, a missing profile, a stage
    that exited non-zero) is a consequence of the report's cause when there is one.
    """

    category: Category
    title: str
    evidence: list[EvidenceLine] = []
    cause: str
    fix: str
    id: str = ""  # the rule that found it (`missing_rollouts`, `missing_rollouts-2` for its second)
    role: Role = CAUSE
    caused_by: str | None = None  # a consequence's cause, by id
    # Not reported: the signatures this finding accounts for (a log error showing one is explained),
    # whether it only restates lines an earlier finding already cites (a known problem's finding),
    # and whether it is what some other problem can cause (then a consequence, not the cause).
    explains: frozenset[str] = Field(default=frozenset(), exclude=True)
    subsumable: bool = Field(default=False, exclude=True)
    effect: bool = Field(default=False, exclude=True)
    # Placed only by the words of an error (a guess): any finding placed on evidence ranks above it.
    guess: bool = Field(default=False, exclude=True)
    # The (task, rollout) keys whose failed attempts this finding reports: when every one of them has a
    # rollout now (recovered on retry), the finding is a note, not a fault.
    failed_keys: frozenset[Key] = Field(default=frozenset(), exclude=True)
    # What the outputs hold is wrong though every command succeeded (another model answered them): a complete
    # run does not make it an earlier attempt's error, even when only logs show it.
    about_the_outputs: bool = Field(default=False, exclude=True)
    # A rule that raised on this folder: a fault of the diagnosis, and a report without it is incomplete.
    diagnosis_fault: bool = Field(default=False, exclude=True)

    @field_validator("title", mode="before")
    @classmethod
    def _short_title(cls, value: str) -> str:
        return excerpt(str(value), 240)

    @field_validator("cause", "fix", mode="before")
    @classmethod
    def _no_secrets(cls, value: str) -> str:
        return redact(str(value))


@dataclass(frozen=True)
class Rule:
    step: int  # the debug step of vocabulary.DEBUG_STEPS this rule checks
    name: str
    check: Callable[[Evidence], list[Finding]]


# ---------------------------------------------------------------------------------------------
# Phrases.


_FIELD_IN_REASON = re.compile(r"field '(?P<f1>[\w.]+)'|KeyError(?::\s*|\()'(?P<f2>[\w.]+)'|missing (?:required )?field "
                              r"'?(?P<f3>[\w.]+)")
_EMPTY = re.compile(r"\bempty\b|\bblank\b", re.I)
_WRONG_TYPE = re.compile(r"expected \w+, got \w+|should be a valid|must be (?:a|an) \w+|wrong type", re.I)


def input_field_fault(ev: Evidence, reason: str) -> tuple[str, str] | None:
    """(field, what is wrong) when a verifier's failure reason names an input field the rows lack or mistype."""
    a = ev.artifacts
    match = _FIELD_IN_REASON.search(reason)
    if not match:
        return None
    name = match["f1"] or match["f2"] or match["f3"]
    top = name.split(".")[0]
    if a.input_fields[top] < a.materialized.valid_rows:
        return name, f"{a.materialized.valid_rows - a.input_fields[top]} of {a.materialized.valid_rows} materialized " \
                     "rows lack it"
    if a.input_fields[top] and _WRONG_TYPE.search(reason):
        return name, "the rows have it, with another type than the verifier reads"
    if a.input_fields_empty[top] and _EMPTY.search(reason):
        return name, f"{a.input_fields_empty[top]} of {a.materialized.valid_rows} materialized rows have it empty"
    return None


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def fmt_keys(keys: Iterable[Key], limit: int = 8) -> str:
    keys = list(keys)
    shown = ", ".join(f"({t}, {r})" for t, r in keys[:limit])
    more = f", ... ({len(keys)} in all)" if len(keys) > limit else ""
    return f"[{shown}{more}]"


def unique(lines: Iterable[EvidenceLine], limit: int = 3) -> list[EvidenceLine]:
    """Evidence lines in order, one per file line (the first quote of it wins), at most `limit`."""
    seen, result = set(), []
    for line in lines:
        where = (line.file, line.line) if line.line else (line.file, line.text)
        if where not in seen:
            seen.add(where)
            result.append(line)
    return result[:limit]


def keys_of(groups: list[FailureGroup]) -> frozenset[Key]:
    return frozenset().union(*(g.all_keys for g in groups))


def affected(ev: Evidence, groups: list[FailureGroup]) -> str:
    a = ev.artifacts
    attempts = sum(g.count for g in groups)
    all_keys = set().union(*(g.all_keys for g in groups))
    still_missing = len(all_keys & set(a.missing_keys))
    text = f"{plural(attempts, 'failed attempt')} in {ev.rel(a.failures.path)}, keys {fmt_keys(sorted(all_keys))}"
    if a.rollouts.exists:
        text += f"; {still_missing} of these {len(all_keys)} keys still have no rollout"
        if len(all_keys) - still_missing:
            text += f" ({len(all_keys) - still_missing} recovered on retry)"
    return text


def status_words(group: FailureGroup) -> str:
    status = f"HTTP {group.http_status}" if group.http_status is not None else "no HTTP status"
    stage = f", stage {group.stage}" if group.stage else ""
    return f"{group.failure_class}, {status}" + (f", {group.failure_type}" if group.failure_type else "") + stage


def said(group: FailureGroup) -> str:
    """What the failure says: its message, and the body's own error when it has one."""
    text = excerpt(group.message or "", 160)
    if group.body and group.body.said:
        text += f"; body: {excerpt(group.body.said, 200)}"
    return text


# ---------------------------------------------------------------------------------------------
# Commands.


def path_of(stats: FileStats) -> str:
    """A path for a command: the real one when the file exists, else Gym's name for it."""
    path = stats.path or Path(stats.role)
    return str(path) if stats.exists else path.name


def agent_of(ev: Evidence) -> str:
    agents = ev.artifacts.agents
    return agents.most_common(1)[0][0] if agents else "<agent>"


def model_server_log(ev: Evidence) -> str:
    """How a fix names the model server's log: the file itself when the run folder has it."""
    log = next((f for f in ev.logs.files if re.search(r"model_server|vllm", f, re.I)), None)
    return f"the model server's log ({log})" if log else "the model server's log"


def served_models(ev: Evidence) -> list[str]:
    """The model names the model server says it serves (its startup line or a /v1/models listing)."""
    return sorted({h.group("model", "model2") for h in ev.hits("served_model") if h.group("model", "model2")})


def model_url_of(ev: Evidence) -> str:
    """The model endpoint the run used, as its manifest or logs name it (`<model-url>` when none does)."""
    recorded = [url for url, _ in ev.manifest.model_urls] + [h.groups["url"] for h in ev.hits("model_url")]
    return recorded[0].rstrip("/") if recorded else "<model-url>"


def models_url(ev: Evidence) -> str:
    """Where the endpoint lists the models it serves (`<base>/v1/models`; Gym probes `<base_url>/models`)."""
    url = model_url_of(ev)
    return f"{url}/models" if url.endswith("/v1") else f"{url}/v1/models"


def ours(ev: Evidence) -> bool:
    """A run folder of this pipeline (it keeps a manifest), where our commands apply."""
    return ev.manifest.present


def profile_command(ev: Evidence, partial: bool = False) -> str:
    inputs, rollouts = path_of(ev.artifacts.materialized), path_of(ev.artifacts.rollouts)
    if ours(ev):
        return f"`gym-pipeline profile --inputs {inputs} --rollouts {rollouts}{' --allow-partial' if partial else ''}`"
    return f"`gym eval profile --inputs {inputs} --rollouts {rollouts}{' ' + PARTIAL_PROFILE_FLAG if partial else ''}`"


def resume_command(ev: Evidence) -> str:
    inputs, rollouts = path_of(ev.artifacts.materialized), path_of(ev.artifacts.rollouts)
    caveat = " (it runs only the keys without a rollout: resume only with unchanged data, repeats, agent and config)"
    if ours(ev):
        command = f"gym-pipeline collect --inputs {inputs} --output {rollouts} --model-url {model_url_of(ev)} --env <env> --resume"
    else:
        command = f"gym eval run --no-serve --agent {agent_of(ev)} --input <data.jsonl> --output {rollouts} --resume"
    return f"`{command}`{caveat}"


def diagnose_command(ev: Evidence, probe: bool = False) -> str:
    return f"`gym-pipeline diagnose {ev.run_dir}{' --probe' if probe else ''}`"


def debug_rerun(ev: Evidence, group: FailureGroup) -> str:
    """Commands that re-run the smallest failing case with Gym's request-boundary debug output."""
    a = ev.artifacts
    key = group.keys[0] if group.keys else None
    line = a.materialized_lines.get(key) if key else None
    agent = group.agents.most_common(1)[0][0] if group.agents else agent_of(ev)
    if key and line and a.materialized.exists:
        row = f"`sed -n '{line}p' {path_of(a.materialized)} > /tmp/gym_debug_row.jsonl` (task {key[0]}, rollout {key[1]}), then "
        data = "/tmp/gym_debug_row.jsonl"
    else:
        row, data = "", "<one failing row>.jsonl"
    return (
        f"restart the servers with request-boundary debug output, `gym env start ... {REQUEST_DEBUG_FLAG}`; re-run "
        f"the smallest failing case: {row}`gym eval run --no-serve --agent {agent} --input {data} --output "
        f"/tmp/gym_debug/rollouts.jsonl {REQUEST_DEBUG_FLAG}`; and search that output for "
        "`Request info:|Response content:|Request kwargs:|Hit an exception in`"
    )
