"""Step 2: every repeat of each task got the very same reply: the model was not sampled anew for each repeat.

A run collects each task several times (num_repeats) to measure how often the model solves it, which needs each
repeat to be a sample of its own. A fixed `seed` on every request (a gateway's "reproducible answers") makes the model
write the same reply for every repeat: each task scores all 0 or all 1, pass@k equals pass@1, and the profile measures
one sample several times. Nothing fails. Where the rows themselves ask for `temperature: 0` or a seed, greedy decoding
was chosen: a note.
"""

from __future__ import annotations

import re
from collections import defaultdict

from gym_pipeline.diagnose.answer_texts import AnswerText
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import NOTE, Finding
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.rules.gym_settings import block_setting
from gym_pipeline.diagnose.rules.quality import prompts_at_fault
from gym_pipeline.diagnose.rules.stored_replies import replies_from_an_earlier_run
from gym_pipeline.diagnose.rules.user_proxies import setting_used, shared_replies
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, MODEL_SERVING

MIN_TASKS = 4  # with two repeats or more, for the pattern to be the run's and not chance
SAME_SHARE = 0.9  # of those tasks, whose repeats are all one reply
MIN_REPLY_CHARS = 40  # a short reply ("36") may well come out the same twice; a sampled paragraph does not
_SETS_SEED = re.compile(r"\[\s*[\"']seed[\"']\s*\]\s*=(?!=)|[\"']seed[\"']\s*:\s*(?!None)\w|--seed\b")


def _alike_tasks(texts: list[AnswerText]) -> tuple[int, int, AnswerText | None]:
    """(tasks of several repeats, those whose repeats are one reply, a row of one of them); no such tasks when most
    of them got one and the same reply (a reply that ignores the prompt: another reading's, not sampling's)."""
    by_task: dict[int, list[AnswerText]] = defaultdict(list)
    for answer in texts:
        if answer.task is not None:
            by_task[answer.task].append(answer)
    repeated = [answers for answers in by_task.values() if len(answers) > 1
                and sum(len(a.text) for a in answers) >= MIN_REPLY_CHARS * len(answers)]
    alike = [answers for answers in repeated if len({a.text for a in answers}) == 1]
    if len({answers[0].text for answers in alike}) * 2 < len(alike):
        return len(repeated), 0, None
    return len(repeated), len(alike), alike[0][0] if alike else None


def _request_sampling(ev: Evidence) -> tuple[str, int, str] | None:
    """(field, line, value) of a fixed seed or a zero temperature in the first materialized rows' request."""
    inputs = ev.artifacts.files.materialized
    if not inputs.is_file():
        return None
    for number, row in readable_rows(inputs, 50):
        params = row.get("responses_create_params") or {}
        if isinstance(params, dict) and params.get("seed") is not None:
            return "seed", number, str(params["seed"])
        if isinstance(params, dict) and params.get("temperature") == 0:
            return "temperature", number, "0"
    return None


_GREEDY = re.compile(r"\b(?P<field>temperature)\s*[:=]\s*0(?:\.0*)?\b|\b(?P<seed>seed)\s*[:=]\s*\d")


def rule_repeats_sampled_alike(ev: Evidence) -> list[Finding]:
    if prompts_at_fault(ev):
        return []  # the same reply to broken prompts is the data's fault (step 5)
    texts = ev.answer_texts
    repeated, alike, example = _alike_tasks(texts)
    if repeated < MIN_TASKS or alike < SAME_SHARE * repeated or example is None:
        return []
    rollouts = ev.rel(ev.artifacts.files.rollouts)
    shown = EvidenceLine(file=rollouts, line=example.line,
                         text=f"task {example.task}: every repeat replied {excerpt(example.text, 80)!r}")
    title = f"Every repeat of {alike} of {repeated} tasks got the very same reply: the repeats are one sample"
    consequence = ("each task scores all 0 or all 1, pass@k equals pass@1, and the profile measures one sample "
                   "several times.")
    for file, number, line, _ in lines_matching(ev.user_files, _SETS_SEED):
        if line.lstrip().startswith("#"):
            continue
        setting = setting_used(file, [line])
        return [Finding(
            category=MODEL_SERVING,
            title=f"{title}: {file.name}:{number} sets the same `seed` on every request",
            evidence=[shown, *([EvidenceLine(file=file.name, line=setting[1], text=setting[2])] if setting else []),
                      EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"{file.name} line {number} (`{excerpt(line.strip(), 100)}`) gives every completion request the same "
                  "sampling seed, so the model draws the same reply for every repeat of a task: " + consequence,
            fix=f"Stop {file.name} from setting `seed` on the run's requests (line {number}"
                + (f", {setting[0]}" if setting else "") + "; keep a fixed seed for demos only, or pass on the seed the "
                "request carries), so each repeat is a sample of its own; then collect again on a clean output path "
                "and profile.",
        )]
    forced = block_setting(ev, "sampling_overrides", _GREEDY)
    if forced is not None:  # Gym's model server overriding every request's sampling: a setting kept from another eval
        file, number, line, greedy = forced
        field = greedy["field"] or greedy["seed"]
        return [Finding(
            category=CONFIG,
            title=f"{title}: {file.name}:{number} has Gym's model server override every request's `{field}` "
                  "(`sampling_overrides`)",
            evidence=[shown, EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"`sampling_overrides` in {file.name} (line {number}: `{line.strip()}`) replaces the `{field}` of "
                  "every request Gym's vllm_model sends, whatever the rows ask (deterministic decoding, as a "
                  "regression eval wants), so the model gives every repeat of a task the same reply: " + consequence,
            fix=f"Remove `{field}` from `sampling_overrides` in {file.name} for evals that sample several repeats "
                "(keep it in the regression eval's own settings, with one repeat); then collect again on a clean "
                "output path and profile.",
        )]
    fixed = _request_sampling(ev)
    if fixed is not None:
        # asked for in the rows: greedy (or seeded) decoding on purpose, a note on what the repeats then measure
        field, number, value = fixed
        return [Finding(
            category=CONFIG,
            role=NOTE,
            title=f"{title}: the rows ask for `{field}: {value}`",
            evidence=[shown, EvidenceLine(file=ev.rel(ev.artifacts.files.materialized), line=number,
                                          text=f"responses_create_params.{field} = {value}")],
            cause=f"The materialized rows' request parameters set `{field}` to {value}, so the model gives every "
                  "repeat of a task the same reply: " + consequence,
            fix=f"Nothing to fix if one deterministic answer per task was meant: collect one repeat. To measure how "
                f"often the model solves each task, remove `{field}` from responses_create_params in the source data "
                "(sample with a temperature above 0 and no fixed seed), materialize again, then collect and profile.",
        )]
    shared = shared_replies(ev)
    if shared is not None:
        proxy, table, looked_up = shared
        name = table.text.split("=", 1)[0].strip()
        return [Finding(
            category=MODEL_SERVING,
            # replies an earlier run left in the table's file: that cache is the cause, the repeats' one reply its effect
            effect=replies_from_an_earlier_run(ev) is not None,
            title=f"{title}: {proxy} gives identical requests one reply ({name})",
            evidence=[shown, table, looked_up],
            cause=f"{proxy} keeps requests and their replies in {name} ({table.where}) and looks each request up "
                  f"there ({looked_up.where}): identical requests are coalesced into one call to the model server, or "
                  "answered from an earlier reply. The repeats of a task are identical requests, sent together, so "
                  "they all got the one reply: " + consequence,
            fix=f"Forward every completion request to the model server in {proxy}: do not coalesce or cache them "
                f"through {name} (keep it for the chat UI's requests, or key it by something each request has of its "
                "own); then collect again on a clean output path and profile.",
        )]
    return [Finding(
        category=MODEL_SERVING,
        title=title,
        evidence=[shown],
        cause="The model server gives every repeat of a task the same reply, as if it decoded greedily or with one "
              "seed whatever the request says: " + consequence,
        fix="Check how the model server samples (a default `temperature: 0` or a fixed `seed` in its generation "
            "settings, or a gateway or cache in front of it answering repeats from the first reply); sample each "
            "repeat anew, then collect again on a clean output path and profile.",
    )]
