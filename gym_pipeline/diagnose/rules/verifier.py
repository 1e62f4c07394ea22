"""Steps 7-8 of the debug order: the first real verifier exception, and the failing row against the request model."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from gym_pipeline.diagnose.artifacts import FailureGroup
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.exception_hints import code_fix_hint
from gym_pipeline.diagnose.findings import (
    Finding,
    affected,
    debug_rerun,
    input_field_fault,
    keys_of,
    path_of,
    plural,
    resume_command,
    said,
    status_words,
    unique,
)
from gym_pipeline.diagnose.rules.nesting import nested_finding, nested_log_findings
from gym_pipeline.diagnose.rules.routing import all_servers_ready, groups_routed
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.verifier_source import moved_file_hint, undefined_name_hint, verify_lines
from gym_pipeline.diagnose.vocabulary import (
    DATA_SCHEMA,
    FAILURE_KINDS,
    STEP_KINDS,
    THROUGHPUT_RESOURCES,
    TIMEOUT_KINDS,
    VERIFIER_RUNTIME,
)

# ---------------------------------------------------------------------------------------------
# Step 7: the first real verifier exception.


def _kinds(ev: Evidence, names: Iterable[str]) -> list:
    return [ev.artifacts.failure_kinds[k] for k in names if k in ev.artifacts.failure_kinds]


def _treatment(kind: str) -> str:
    known = FAILURE_KINDS.get(kind)
    return f"{known.meaning}; {known.treatment}" if known else "not in Gym's table"


def rule_time_budget_kinds(ev: Evidence) -> list[Finding]:
    kinds = _kinds(ev, TIMEOUT_KINDS)
    if not kinds:
        return []
    lines = [h.evidence() for name in ("task_deadline", "episode_timeout") for h in ev.hits(name)]
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        title="Rows ran out of time: " + ", ".join(f"{k.kind} x{k.count}" for k in kinds),
        evidence=unique([k.first for k in kinds if k.first] + lines, limit=4),
        cause="; ".join(f"{k.kind}: {_treatment(k.kind)}" for k in kinds) + ". harbor:verifier_timeout means test.sh "
              "ran past [verifier].timeout_sec (600 s by default; a step uses its own [steps.verifier].timeout_sec) "
              "without writing a reward; harbor:task_deadline that the episode ran past its task's budget (harness "
              "setup, [agent].timeout_sec, collect hooks, [verifier].timeout_sec and a grace period).",
        fix="Raise the budgets in the dataset, not in the task: `timeout_multiplier` in [gym.defaults] of dataset.toml "
            "scales every agent and verifier timeout_sec; `[gym.tasks.\"<task>\".verifier] timeout_sec = <seconds>` "
            "sets one task's verifier budget; raise the server's `default_episode_timeout_seconds` (6 h) for longer "
            f"tasks. Then rerun: `gym eval run ... --resume` ({resume_command(ev)}).",
        explains=frozenset({"task_deadline", "episode_timeout"}),
    )]


def rule_step_failures(ev: Evidence) -> list[Finding]:
    kinds = _kinds(ev, STEP_KINDS)
    if not kinds:
        return []
    a = ev.artifacts
    no_row = sum(k.in_failures for k in kinds)
    return [Finding(
        category=VERIFIER_RUNTIME,
        title="A multi-step task stopped at a step: " + ", ".join(f"{k.kind} x{k.count}" for k in kinds),
        evidence=unique([k.first for k in kinds if k.first] + a.stopped_after_turn[:2], limit=4),
        cause="; ".join(f"{k.kind}: {_treatment(k.kind)}" for k in kinds)
              + f". {no_row} of them failed at the first step (no agent ran, so no result row: the failures sidecar "
                "holds them); the others stopped a later step, whose turn carries the failure_kind and whose row's "
                "stopped_after_turn names the step unless it was the last. The step's preparation failed in the "
                "sandbox the earlier steps used.",
        fix="Run the oracle on the task: `gym dataset validate <task>`. If it fails at the same step, fix the step's "
            "setup.sh or its [steps.healthcheck]; if only model runs fail, the failed step scores 0 by design.",
    )]


def rule_sidecar_file_gone(ev: Evidence) -> list[Finding]:
    hits = ev.hits("verifier_input_missing")
    if not hits:
        return []
    a = ev.artifacts
    files = sorted({h.group("file", "file2") for h in hits if h.group("file", "file2")})
    missing = a.failure_kinds.get("harbor:missing_reward")
    zeroed = sorted(t for t, n in (missing.tasks.items() if missing else ()) if n == a.rollouts_per_task.get(t))
    inputs = ", ".join(f'"{f}"' for f in files) or '"<file>"'
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"The verifier's input {', '.join(f'/logs/verifier/{f}' for f in files)} is gone when it runs",
        evidence=unique([h.evidence() for h in hits] + ([missing.first] if missing and missing.first else [])),
        cause="Before a shared-mode verifier runs, the server empties /logs/verifier so an agent cannot plant a reward "
              "there; a Compose sidecar's file written there is removed too, and the task scores 0 on every rollout, "
              "the oracle's included, until dataset.toml declares the file."
              + (f" Tasks whose every rollout has harbor:missing_reward: {zeroed[:10]}." if zeroed else ""),
        fix=f"Declare it in dataset.toml: `[gym.tasks.\"<task>\".verifier]` with `inputs = [{inputs}]`; check with the "
            "oracle: `gym dataset validate <task>`; then rerun the task.",
        explains=frozenset({"verifier_input_missing"}),
    )]


def rule_nested_verifier_errors(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "nested_verifier")
    if not groups:
        return []
    return [nested_finding(
        ev, groups, VERIFIER_RUNTIME, "Verifier (resources/environment server)",
        "A Gym server below the agent raised: the resources server's verify, or the environment server around it.",
        "Read that server's first traceback in the `gym env start` log (its lines are prefixed with its name); "
        "if the body shows a field error, compare the row with the verifier's request model.",
    )]


def rule_nested_verifier_log_errors(ev: Evidence) -> list[Finding]:
    return nested_log_findings(ev, "verifier")


def _row_fields(ev: Evidence, group: FailureGroup) -> tuple[EvidenceLine | None, dict[str, Any] | None]:
    """The materialized line and row of a group's first failing key."""
    a = ev.artifacts
    key = group.keys[0] if group.keys else None
    row = a.failing_rows.get(key) if key else None
    line = a.materialized_lines.get(key) if key else None
    if row is None or line is None:
        return None, None
    fields = sorted(k for k in row if not k.startswith("_ng_"))
    return EvidenceLine(file=ev.rel(a.materialized.path), line=line,
                        text=f"task {key[0]} rollout {key[1]}: row fields {fields}"), row


_INVALID_FIELD = re.compile(r"validation errors? for (?P<model>\w+)\W+(?P<field>[\w.]+)\W+(?P<problem>Field required|Input "
                            r"should be [^\[]+?)\s*\[type=(?P<type>\w+)")


def rule_malformed_verify_response(ev: Evidence) -> list[Finding]:
    """The verifier answered, but Gym's verify response model refused the answer (the guide's malformed response)."""
    groups = groups_routed(ev, "verify_response")
    if not groups:
        return []
    lead = groups[0]
    invalid = _INVALID_FIELD.search(" ".join(lead.text.replace("\\n", " ").split()))
    what = (f"`{invalid['field']}`: {invalid['problem'].strip()} in {invalid['model']}" if invalid
            else "a field of the verify response model")
    return [Finding(
        category=VERIFIER_RUNTIME,
        failed_keys=keys_of(groups),
        title=f"The verifier's response is malformed: {what} ({plural(sum(g.count for g in groups), 'failed attempt')})",
        evidence=unique([g.first for g in groups[:3]], limit=3),
        cause=(f"{status_words(lead)}: {said(lead)}. The model answered and the resources server's `verify` ran, but "
               "what it returned does not validate against Gym's verify response model, so no rollout row could be "
               f"written: a verifier bug, not the data or the model. Affected: {affected(ev, groups)}."),
        fix=(f"Make `verify` return {'`' + invalid['field'] + '`' if invalid else 'every required field'} as the "
             f"response model {'`' + invalid['model'] + '` ' if invalid else ''}requires (`reward` is a float; other "
             f"scores go beside it, not instead of it); run it on one row ({debug_rerun(ev, lead)}), then collect "
             f"again: {resume_command(ev)}."),
    )]


def rule_verifier_failures(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "verifier_500")
    if not groups:
        return []
    lead = groups[0]
    ready = all_servers_ready(ev)
    row_line, _ = _row_fields(ev, lead)
    return [Finding(
        category=VERIFIER_RUNTIME,
        failed_keys=keys_of(groups),
        title=f"The verifier failed: {plural(sum(g.count for g in groups), 'failed attempt')} of {lead.failure_class} "
        f"(HTTP {lead.http_status or '?'})",
        evidence=unique([g.first for g in groups[:3]] + ([row_line] if row_line else []) + ([ready.evidence()] if ready else []),
                        limit=5),
        cause=(
            f"{status_words(lead)}: {said(lead)}. The model answered, then the environment or resources server raised "
            "while verifying"
            + (f", with all servers ready ({ready.groups['ready']} / {ready.groups['total']}), so not infra"
               if ready else "")
            + f". Affected: {affected(ev, groups)}."
        ),
        fix=(
            "Inspect the request body schema before infra: compare the failing row's fields (above) with the resources "
            "server's verify request model. Read the server's first traceback in the `gym env start` log (not "
            f"shutdown noise), or {debug_rerun(ev, lead)}. Then resume: {resume_command(ev)}."
        ),
    )]


LABEL_FIELD = "expected_answer"  # where NeMo Gym's rows keep the label their verifier compares with


def _label_read_by_another_name(ev: Evidence, name: str) -> tuple[str, int, str] | None:
    """(file, line, text) of the line of the run's own verifier that reads `name` from a row, when no row has `name`
    and every row has its label in `expected_answer`: the verifier, not the data, is of another format."""
    a = ev.artifacts
    rows = a.materialized.valid_rows
    if ev.run_dir is None or name == LABEL_FIELD or not rows or a.input_fields[name] or a.input_fields[LABEL_FIELD] < rows:
        return None
    reads = re.compile(rf"\[\s*[\"']{re.escape(name)}[\"']\s*\]|\.get\(\s*[\"']{re.escape(name)}[\"']")
    return next(iter(verify_lines(ev.verifier_sources, ev.run_dir, reads)), None)


def rule_failure_kinds(ev: Evidence) -> list[Finding]:
    """Reward missing or invalid: every other failure_kind, read with its scored/masked/retried meaning.

    When the verifier's reason names an input field the rows lack or mistype, the data is at fault
    (data/schema); otherwise the verifier, and the fields empty only in the failed rows say where."""
    a = ev.artifacts
    kinds = sorted((k for name, k in a.failure_kinds.items() if name not in TIMEOUT_KINDS + STEP_KINDS),
                   key=lambda k: -k.count)
    if not kinds:
        return []
    total = sum(k.count for k in kinds)
    parts = [f"{k.kind} x{k.count} ({_treatment(k.kind)}; {k.masked} of {k.count} masked in this run)" for k in kinds]
    reasons = " ".join(k.first.text for k in kinds if k.first is not None)
    field_fault = input_field_fault(ev, reasons) if a.materialized.exists else None
    read_reasons = ("Read each row's reason: `jq -c 'select(.failure_kind != null) | {_ng_task_index, "
                    f"_ng_rollout_index, failure_kind, failure_reason}}' {path_of(a.rollouts)} | head`.")
    title = (f"{total} of {a.rollouts.valid_rows} rollouts carry a failure_kind: "
             + ", ".join(f"{k.kind} x{k.count}" for k in kinds))
    if field_fault is not None and (reading := _label_read_by_another_name(ev, field_fault[0])) is not None:
        name = field_fault[0]
        file, number, line = reading
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The verifier reads the label as `{name}`, and the rows give it as `{LABEL_FIELD}`: {title}",
            evidence=[EvidenceLine(file=file, line=number, text=line),
                      *(k.first for k in kinds[:3] if k.first is not None)],
            cause=f"{file} line {number} (`{excerpt(line, 100)}`) reads `{name}` from each row, a field no row has: "
                  f"the rows carry their label in `{LABEL_FIELD}`, the field NeMo Gym's rows and verifiers use, so the "
                  "verifier was written for rows of another format (an older harness's) and fails on every one. "
                  + "; ".join(parts) + ".",
            fix=f"Read `{LABEL_FIELD}` in {file} line {number} instead of `{name}`; then collect again on a clean "
                f"output path (or re-score the rows) and profile. {read_reasons}",
        )]
    if field_fault is not None:
        name, what = field_fault
        return [Finding(
            category=DATA_SCHEMA,
            title=f"The rows do not have the `{name}` the verifier reads: {title}",
            evidence=[k.first for k in kinds[:4] if k.first is not None],
            cause=f"The verifier's reason names the input field `{name}`, and {what}: the data does not match what "
                  "the verifier expects (seed 000, data/schema). " + "; ".join(parts) + ".",
            fix=f"Fix `{name}` in the source data ({path_of(a.materialized)} shows every row as collected): give every "
                f"row the `{name}` the verifier reads, with its type; then re-materialize and collect on a clean output "
                f"path (--resume keeps the old rows). {read_reasons}",
        )]
    # fields empty only in the failed rows say where the verifier fails, when the rows do not say why themselves
    empty = [] if any(k.reasons for k in kinds) else a.null_only_when_failed()
    contrast = (f" In every one of these rows {', '.join(f'`{f}`' for f in empty[:3])} "
                f"{'is' if len(empty) == 1 else 'are'} empty, and set in the others: the verifier fails on "
                "responses without it." if empty else "")
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=title,
        evidence=[k.first for k in kinds[:4] if k.first is not None],
        cause=(
            "The verifier gave these rows no normal reward. " + "; ".join(parts)
            + ". Scored kinds count as 0 in the mean, masked ones leave the quality statistics but count for "
            "completion, retried ones are collected again." + contrast
        ),
        fix=(
            _most_said(ev, kinds)
            + (f"Make the verifier handle a response without {', '.join(f'`{f}`' for f in empty[:3])} (score it 0 "
               "instead of raising). " if empty else "")
            + f"{read_reasons} For task-folder runs open the task's "
            "test-stdout.txt (the run summary names its verifier log folder) and check the verifier without a model: "
            "`gym dataset validate <target>` (see Reward files for the contract)."
        ),
    )]


def _most_said(ev: Evidence, kinds: list) -> str:
    """The reason the verifier gave most often, quoted: what the fix starts from (with the misspelt name's line and
    the name it meant, when the verifier's source is beside the run)."""
    reasons = sum((k.reasons for k in kinds), Counter())
    if not reasons:
        return ""
    reason, count = reasons.most_common(1)[0]
    hint = undefined_name_hint(ev.run_dir, reason)
    moved = None if hint else moved_file_hint(ev.run_dir, reason)
    rescore = f"then re-score the stored answers: `gym-pipeline reverify {ev.run_dir} --env <env>`"
    code = code_fix_hint(reason) if not (hint or moved) else ""
    return (f"Start from what the verifier said {'most often ' if len(reasons) > 1 else ''}({count} "
            f"{'row' if count == 1 else 'rows'}): `{reason}`; "
            + (f"{hint}(a typo in the verifier: fix it, {rescore}). " if hint else
               f"{moved}({rescore}). " if moved else f"{code} Then {rescore}. " if code else
               "make it score such a response (0) instead of failing. "))


def rule_timeouts(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "timeout")
    if not groups:
        return []
    lead = groups[0]
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        failed_keys=keys_of(groups),
        title=f"{sum(g.count for g in groups)} attempts timed out ({lead.failure_class})",
        evidence=[g.first for g in groups[:3]],
        cause=(
            f"{status_words(lead)}: {said(lead)}. More requests in flight than the model, judge or tools serve in "
            f"time, or very long generations. Affected: {affected(ev, groups)}."
        ),
        fix=(
            "Lower `--concurrency` of `gym eval run` and compare model, verifier and tool latency (the eval log's "
            f"per-task latency line); then resume: {resume_command(ev)}."
        ),
    )]


def rule_verifier_timeouts(ev: Evidence) -> list[Finding]:
    """The verifier's own call (an LLM judge, a sandbox, a tool) timed out or was refused with 429: its capacity under
    the run's load, not a verifier bug."""
    groups = groups_routed(ev, "verifier_timeout")
    if not groups:
        return []
    lead = groups[0]
    refused = [h.evidence() for h in ev.hits("server_call_rate_limited")][:1]
    concurrency = next((int(h.groups["concurrency"]) for h in ev.hits("gym_concurrency")), None)
    current = f" (the run sent {concurrency} at once)" if concurrency else ""
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        failed_keys=keys_of(groups),
        title=f"The verifier {'was refused (429) by' if refused else 'timed out waiting on'} what it calls: "
              f"{plural(sum(g.count for g in groups), 'failed attempt')} "
              f"({lead.nested.headline if lead.nested else said(lead)})",
        evidence=[g.first for g in groups[:2]] + refused,
        cause=f"{status_words(lead)}: below the agent, the resources server's verify "
              + ("was refused with 429 Too Many Requests by the service it calls" if refused else
                 "gave up waiting (a TimeoutError)")
              + f", not an exception of its own logic: the judge, sandbox or tool it calls serves fewer requests at once "
              f"than the run sends{current}, so they queue past the verifier's time budget (seed 000: judge "
              f"bottleneck, tool/sandbox latency). Affected: {affected(ev, groups)}.",
        fix="Lower the run's `--concurrency` to what the judge or sandbox serves in time, or give it more capacity "
            "(replicas, a larger batch) or the verifier a longer timeout; compare the judge's or sandbox's own "
            f"latency under load. Then resume: {resume_command(ev)}.",
    )]


def rule_other_failures(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "other")
    if not groups:
        return []
    classes = sorted({g.failure_class for g in groups})
    lead = groups[0]
    return [Finding(
        category=VERIFIER_RUNTIME,
        failed_keys=keys_of(groups),
        title=f"{plural(sum(g.count for g in groups), 'failed attempt')} of class {', '.join(classes)}",
        evidence=[g.first for g in groups[:3]],
        cause=f"{status_words(lead)}: {said(lead)}. Affected: {affected(ev, groups)}.",
        fix=(
            "Read `_ng_failure_message` and `_ng_failure_response_body` of the first row; if the layer is unclear, "
            f"{debug_rerun(ev, lead)}. Then resume: {resume_command(ev)}."
        ),
    )]


# ---------------------------------------------------------------------------------------------
# Step 8: the failing row's schema against the request model.


def _has_path(row: dict[str, Any], path: str) -> bool:
    value: Any = row
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return False
    return True


# content part types of the chat completions API, which the Responses API's message input does not take
_CHAT_PART_TYPES = frozenset({"text", "image_url", "input_audio", "file"})


def _chat_content_parts(row: dict) -> list[str]:
    """The chat-completions content part types among the row's `responses_create_params.input` messages."""
    request = row.get("responses_create_params")
    messages = request.get("input") if isinstance(request, dict) else None
    found = {part.get("type") for message in (messages if isinstance(messages, list) else ())
             if isinstance(message, dict) and isinstance(message.get("content"), list)
             for part in message["content"] if isinstance(part, dict)}
    return sorted(found & _CHAT_PART_TYPES)


# a data script's line writing a chat completions content part: `{"type": "text", "text": text}`
_WRITES_CHAT_PART = re.compile(r"""["']type["']\s*:\s*["'](?:text|image_url)["']""")


def rule_request_schema(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "schema")
    if not groups:
        return []
    lead = groups[0]
    body = lead.error_body
    detail = (lead.nested.headline if lead.nested else None) or (body.said if body else None) or excerpt(
        lead.message or "", 160)
    row_line, row = _row_fields(ev, lead)
    fields = body.fields if body else ()
    wants = body.wants if body else ()
    lacking = [f for f in fields if row is not None and not _has_path(row, f)]
    check = ""
    if row is not None and fields:
        check = (f" The failing row lacks {', '.join(f'`{f}`' for f in lacking)}: the data does not have what the "
                 "request model requires." if lacking else
                 f" The row has {', '.join(f'`{f}`' for f in fields)}, so its type or value is what the model refuses.")
    where = f"{row_line.file}:{row_line.line}" if row_line else "the failing row"
    wanted = (f"The request model wants {'; '.join(wants)}: give every row " + " and ".join(f"`{f}`" for f in fields)
              + " as it says, " if wants else "Fix the data, ")
    if row is not None and (chat_parts := _chat_content_parts(row)):
        # a union's first branch (`input.str`) leads the body, and the literal the message parts need is cut off
        check += (f" The row's message content parts are typed {', '.join(f'`{t}`' for t in chat_parts)} (the chat "
                  "completions form); the Responses API input Gym sends wants `input_text` (and `input_image`, "
                  "`input_file`).")
        writer = next(lines_matching(ev.user_files, _WRITES_CHAT_PART, {".py"}), None)
        wanted = ((f"In {writer[0].name}:{writer[1]} (`{excerpt(writer[2].strip(), 120)}`), which writes them, t"
                   if writer else "T")
                  + "ype the rows' content parts as the Responses API does (`{\"type\": \"input_text\", \"text\": "
                  "...}` for `{\"type\": \"text\", ...}`; `input_image` for `image_url`), ")
    return [Finding(
        category=DATA_SCHEMA,
        failed_keys=keys_of(groups),
        title=f"The request body does not match the server's request model (HTTP 422): {detail}",
        evidence=unique([g.first for g in groups[:3]] + ([row_line] if row_line else []), limit=4),
        cause=(
            "422 is FastAPI's request validation error: a field the resources server's request model needs is "
            "missing or has the wrong type in the row, or stale materialized inputs still carry an old schema."
            + check + f" Affected: {affected(ev, groups)}."
        ),
        fix=(
            f"Compare {where} with the resources server's verify request model (`sed -n '{row_line.line if row_line else 1}p' "
            f"{path_of(ev.artifacts.materialized)} | jq 'keys'`; the body names the field: {detail}). {wanted}"
            "then re-materialize on a clean output path (--resume keeps the stale rows)."
        ),
    )]


