"""Quiet data faults that only the rows show: a run can complete, profile and still measure nothing.

Collected while `artifacts` streams the files, one row at a time, in bounded memory:
- one prompt given as two tasks with different expected answers (annotation batches merged): one copy always
  scores 0; a few tasks in another row format (other fields) that all score 0 while the rest score: rows of
  another dataset merged in;
- one task index holding different prompts (datasets concatenated with their own `_ng_task_index`), so
  Gym's per-task statistics and pass@k mix unrelated tasks; tasks with k times the repeats of the others (a
  row repeated in the data: Gym gives it one task index and k times the rollouts);
- a verifier refusing a row's own value (its failure_reason names the field and quotes the row's value):
  the row, not the verifier, is wrong;
- answers scored 0 whose extracted text holds the expected answer and more (`extracted_answer` =
  "Final answer: 1024" against "1024"): the extraction does not fit how the prompts ask for answers;
- answers scored 0 whose response ends with a line holding the expected answer ("Final answer: 273.15") while
  the extracted answer (if the row keeps one) does not: the verifier reads the answer from another place than the
  one the responses give it;
- answers exactly equal to the expected answer scored 0, or rewards outside [0, 1]: the verifier scores wrong;
  answers scored 0 only because the expected answer is wrapped in markup (`$36$`) or followed by a note
  ("42 (6 x 7)"): the data;
- a reward profile whose tasks are not the rollouts' tasks, or whose per-task mean rewards are not the rollouts'
  (a profile left from an earlier run, or from before the rollouts were collected or scored again);
- expected answers that are not one of the row's own option labels (`(B)` where the options are A-D), and
  expected answers lower-cased where the answers keep their case (`au` for `Au`, on case-sensitive rows): the data;
- every rollout masked (`mask_sample`) with no failure: a verifier left masking everything;
- answers unlike the expected one scored full reward (`54` for `18`; the response's last line where the verifier keeps
  no extracted answer): the verifier passes everything;
- one answer to every task, all scored 0 (`unknown` whatever the question): the model is not answering these
  prompts (other weights than the run's, a broken checkpoint or chat template);
- rollouts that answered another prompt than the materialized row of their key (inputs materialized again after the
  rollouts were written, or rollouts of another run copied in): their rewards are for other tasks;
- rows of one environment scored by another's server (`agent_ref` `string_match_simple_agent`,
  `_ng_environment_server` `mcqa_environment_server`): the collection was pointed at the wrong environment;
- answers scored 0 that are the expected answer of the task before or after theirs: the labels were joined to the
  prompts one row off (a header line counted as a label, a row dropped on one side);
- answers scored 0 that are their expected answer in other typography (curly quotes, dashes, full-width or decomposed
  letters, spacing): the labels' when they are the ones not plain, else the verifier compares without normalizing;
- answers of several words scored 0 whose words glued together are their expected answer (`New Delhi` for
  `NewDelhi`): the labels lost the spaces between their words;
- answers scored 0 that are the expected answer of a task farther away: labels moved by several rows, or sorted or
  shuffled apart from the prompts;
- expected answers holding HTML entities (`Ludwig&nbsp;van&nbsp;Beethoven`): labels scraped from a web page, which
  no answer matches;
- answers scored 0 that are one of the answers their expected answer joins (`Paris` for `Paris|City of Paris`):
  accepted answers joined into one label, which no verifier comparing whole strings accepts;
- prompts that open a double quote they never close (`"In which city`): CSV rows cut at a comma inside a quoted field.
"""

from __future__ import annotations

import ast
import math
import operator
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import orjson

from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt

MAX_SHOWN_VALUE = 80  # a quoted row value, in an evidence line
MAX_REASONS_TO_CHECK = 1000  # failure reasons kept until their materialized row is read
MAX_DISTINCT_ANSWERS = 1000  # answers counted; later new ones are not (one answer to all is what is looked for)
MAX_ROWS_TRACKED = 100_000  # rows (or tasks) held per check: answers and prompts until their materialized row, formats
MAX_KEPT = 400  # characters of each such answer kept
REGEX_CHARS = re.compile(r"[.^$*+?()\[\]{}|\\]")
HTML_ENTITY = re.compile(r"&(?:[A-Za-z]{2,8}|#\d{2,5}|#x[0-9A-Fa-f]{2,4});")


@dataclass
class SharedTaskIndex:
    task: int
    first_line: int
    line: int
    first_prompt: str
    prompt: str


@dataclass
class ScoredAnswer:
    """What a scored rollout answered, kept until its expected answer is known."""

    reward: float
    extracted: str | None  # the row's extracted_answer
    last_line: str | None  # the response's last line, for answers scored 0
    where: EvidenceLine  # its rollouts file line: "task 3 rollout 0: reward=0.0"
    key: tuple[int, int] = (-1, -1)  # its (task, rollout)


@dataclass
class RowQuality:
    prompt_of_task: dict[int, tuple[int, int, str]] = field(default_factory=dict)  # task -> (digest, line, text)
    rows_of_task: Counter[int] = field(default_factory=Counter)  # materialized rows per task
    shared_task_indices: set[int] = field(default_factory=set)
    # each task's row format (its field names), for rows of another dataset's format merged in
    fields_of_task: dict[int, frozenset[str]] = field(default_factory=dict)
    # a prompt's first task and expected answer, and prompts asked again as another task expecting another answer
    expected_of_prompt: dict[int, tuple[int, int, str]] = field(default_factory=dict)  # digest -> (task, line, answer)
    conflicting_prompts: set[int] = field(default_factory=set)
    conflicting_example: tuple[EvidenceLine, EvidenceLine] | None = None
    shared_examples: list[SharedTaskIndex] = field(default_factory=list)
    refused_fields: Counter[str] = field(default_factory=Counter)  # field -> rows whose verifier refused its value
    refused_examples: dict[str, EvidenceLine] = field(default_factory=dict)
    scored_rows: int = 0  # rollouts with a reward and no failure_kind
    unextracted_answers: int = 0  # ... scored 0 while the extracted text holds the expected answer
    unextracted_example: EvidenceLine | None = None
    last_line_answers_scored_zero: int = 0  # ... the extracted answer does not hold it, the response's last line does
    last_line_example: EvidenceLine | None = None
    last_line_pair: tuple[str, str] | None = None  # (expected answer, last line) of that example
    # scored rollouts without an expected_answer of their own (a workspace verifier's rows keep only what it
    # returns): checked against the materialized row of their key
    answers_to_check: dict[tuple[int, int], ScoredAnswer] = field(default_factory=dict)
    # (field, value) of the materialized rows' extraction settings (`extraction_mode`...), where they have any
    extraction_settings: Counter[tuple[str, str]] = field(default_factory=Counter)
    matching_scored_zero: int = 0  # rollouts whose extracted answer is exactly the expected one, scored 0
    matching_example: EvidenceLine | None = None
    matching_scored_one: int = 0
    # ... of those, answers holding characters that mean something in a regular expression (`C++`, `(3, 4)`, `$120`)
    matching_zero_regex_chars: int = 0
    matching_one_regex_chars: int = 0
    # file lines: the last matching answer scored 0 and the first scored 1 (a clean split: the scoring changed)
    last_matching_zero: EvidenceLine | None = None
    first_matching_one: EvidenceLine | None = None
    expected_not_option: int = 0  # materialized rows whose expected_answer is none of their options' labels
    expected_not_option_example: EvidenceLine | None = None
    case_lost: int = 0  # rollouts scored 0 whose answer is the expected answer with the case the label lost
    case_lost_example: EvidenceLine | None = None
    masked_without_failure: int = 0  # rollouts the verifier masked while reporting no failure
    masked_example: EvidenceLine | None = None
    rollouts_seen: int = 0
    wrong_scored_full: int = 0  # rollouts whose extracted answer shares nothing with the expected one, scored 1
    wrong_scored_full_example: EvidenceLine | None = None
    wrapped_expected: int = 0  # ... scored 0: the expected answer has markup ($36$) or a note the answer lacks
    wrapped_example: EvidenceLine | None = None
    invisible_expected: int = 0  # ... scored 0: the expected answer holds invisible characters (U+200B) the answer lacks
    labels_with_marker: int = 0  # ... scored 0: the label is an answer line (`Final answer: X`) whose X was given
    labels_with_marker_example: EvidenceLine | None = None
    number_written_otherwise: int = 0  # ... scored 0: the same number, written otherwise (`42.0` expected, `42` given)
    number_example: EvidenceLine | None = None
    non_ascii_replaced: int = 0  # ... scored 0: the label is the answer with its non-ASCII letters as `?` (San Jos?)
    non_ascii_replaced_example: EvidenceLine | None = None
    # ... scored 0: the label is a whole number past 2^53 rounded through a double (`...847000` for `...846976`): how often
    # each (label, answer) pair was seen, so the answer most rollouts gave can be shown
    rounded_integer_labels: Counter[tuple[str, str]] = field(default_factory=Counter)
    rounded_integer_examples: dict[tuple[str, str], EvidenceLine] = field(default_factory=dict)
    float_noise_labels: int = 0  # ... scored 0: the label is the answer with binary float noise (`0.30000000000000004`)
    float_noise_example: EvidenceLine | None = None
    doubled_backslash_labels: int = 0  # ... scored 0: the label is the answer with each backslash doubled (`\\\\pi`)
    doubled_backslash_example: EvidenceLine | None = None
    numbers_in_words: int = 0  # ... of which the answer writes the number in words (`eight` given, `8` expected)
    invisible_example: EvidenceLine | None = None
    invisible_chars: Counter[str] = field(default_factory=Counter)  # ... and which characters they were
    # ... scored 0: the same answer in other typography (curly quotes, dashes, full-width or decomposed letters, spacing),
    # on the expected answer's side or the answer's
    typographic_expected: int = 0
    typographic_expected_example: EvidenceLine | None = None
    typographic_answers: int = 0
    typographic_answers_example: EvidenceLine | None = None
    typographic_chars: Counter[str] = field(default_factory=Counter)  # the characters plain typography changes
    # ... scored 0: the answer's words glued together are the expected answer (`NewDelhi` expected, `New Delhi` given)
    despaced_labels: int = 0  # ... scored 0: the label is the answer's words joined without spaces (or by `_`, `-`)
    despaced_label_example: EvidenceLine | None = None
    despaced_joiner: str = ""  # what joins the label's words in the first example: "", "_" or "-"
    # answers given in a marked form (`\boxed{}`, `Final answer:`) that are not the expected answer, scored full reward
    credited_other: int = 0
    credited_other_example: EvidenceLine | None = None
    # ... scored 0: the answer a decimal number, the expected answer its integer part (`273` for `273.15`)
    truncated_labels: int = 0
    truncated_label_example: EvidenceLine | None = None
    # ... scored 0: the expected answer one character, the first of the answer (`C` for `Canberra`): a string indexed
    # where a list was meant (`item["answers"][0]` on an export that writes a single answer as a plain string)
    first_character_labels: Counter[str] = field(default_factory=Counter)
    first_character_example: EvidenceLine | None = None
    # ... scored 0: the expected answer a spreadsheet's date (`4-Mar`) where the answer is a fraction (`3/4`)
    date_labels: int = 0
    date_label_example: EvidenceLine | None = None
    # ... scored 0: the expected answer is the answer in a spreadsheet's display format (`3.2E+07` for 31536000,
    # `25%` for 0.25, `(8)` for -8, `$120.00` for 120), counted per format, with the first example of each
    formatted_labels: Counter[str] = field(default_factory=Counter)
    formatted_label_examples: dict[str, tuple[EvidenceLine, str, str]] = field(default_factory=dict)  # (line, label, answer)
    # ... scored 0: the expected answer a boolean's text (`True`) where the answer is yes/no: a YAML 1.1 loader read an
    # unquoted `yes` as true
    boolean_labels: int = 0
    boolean_label_example: EvidenceLine | None = None
    sexagesimal_labels: int = 0  # ... scored 0: the label is a clock time YAML 1.1 read as base 60 (`870` for 14:30)
    sexagesimal_example: EvidenceLine | None = None
    # ... scored 0: the answer is one of the alternatives the expected answer joins (`Paris` for `Paris|City of Paris`)
    joined_labels: int = 0
    joined_label_example: EvidenceLine | None = None
    joined_separator: str = ""
    # each task's last prompt message length, and the first line of a task with it
    prompt_lengths: Counter[int] = field(default_factory=Counter)
    prompt_length_examples: dict[int, tuple[int, str]] = field(default_factory=dict)  # length -> (line, its end)
    # the end every task's prompt shares (an instruction the preparation appends), from a word's start; None before
    # the first prompt
    prompt_suffix: str | None = None
    # tasks whose prompt opens a double quote it never closes (`"In which city`): a quoted CSV field cut at its comma
    unclosed_quote_tasks: set[int] = field(default_factory=set)
    unclosed_quote_example: tuple[int, str] | None = None  # (materialized line, the prompt's start)
    last_line_failed: dict[tuple[int, int], str] = field(default_factory=dict)  # ... those last-line answers' lines
    last_line_failed_settings: Counter[tuple[str, str]] = field(default_factory=Counter)  # ... their rows' extraction
    last_line_followed_setting: int = 0  # ... of them, answers given in the form their row's extraction setting names
    unextracted_whole: int = 0  # ... of the unextracted answers, those that are the whole (multi-line) response
    cut_answers: int = 0  # ... scored 0: the extracted answer is the expected one with characters cut off its ends
    label_cut_answers: int = 0  # ... scored 0, cut off at its ends, the response's own answer included
    cut_example: EvidenceLine | None = None
    out_of_range: int = 0  # rewards outside [0, 1]
    reward_range: tuple[float, float] = (0.0, 1.0)
    out_of_range_example: EvidenceLine | None = None
    # extracted answers of the scored rollouts (bounded), the expected answers seen, and how many scored 0
    answers: Counter[str] = field(default_factory=Counter)
    expected_answers: set[str] = field(default_factory=set)
    zero_rewards: int = 0
    answer_examples: dict[str, EvidenceLine] = field(default_factory=dict)  # the first row of each frequent answer
    # (the rows' agent, the environment server that scored them) whose environment names differ
    crossed_environments: Counter[tuple[str, str]] = field(default_factory=Counter)
    crossed_example: EvidenceLine | None = None
    # profile rows whose task (its `sample` prompt) is not the materialized task of that index
    profiled_other_tasks: int = 0
    profiled_tasks: int = 0
    profiled_other_example: EvidenceLine | None = None
    # each task's reward sum and rollouts (unmasked, unfailed), tasks with any other row, and the profile's tasks whose
    # mean reward is not the rollouts'
    reward_sum_of_task: dict[int, float] = field(default_factory=dict)
    scored_of_task: Counter[int] = field(default_factory=Counter)
    unscored_tasks: set[int] = field(default_factory=set)
    profiled_other_rewards: int = 0
    profiled_other_rewards_example: EvidenceLine | None = None
    # failure reasons of rollouts whose row holds no field they name: checked against the materialized row
    reasons_to_check: dict[tuple[int, int], tuple[str, EvidenceLine]] = field(default_factory=dict)
    # each rollout's prompt (a digest of its messages' text) and line, against the materialized row of its key
    rollouts_file: str = ""
    rollout_prompts: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    prompts_compared: int = 0
    other_prompt_rollouts: int = 0
    other_prompt_example: EvidenceLine | None = None
    # each task's expected answer (the first seen), and answers scored 0 that matched none of the readings above
    expected_of_task: dict[int, str] = field(default_factory=dict)
    unexplained_zeros: list[tuple[int, str, EvidenceLine]] = field(default_factory=list)  # (task, answer, line)
    entity_example: EvidenceLine | None = None  # the first rollout whose expected answer holds an HTML entity
    # each whole response text (bounded) scored 0: the tasks it was given to, and its first row
    replies_scored_zero: dict[str, set[int]] = field(default_factory=dict)
    reply_examples: dict[str, EvidenceLine] = field(default_factory=dict)
    # ... and each extracted answer scored 0: the tasks it was given to, and its first row
    answers_scored_zero: dict[str, set[int]] = field(default_factory=dict)
    zero_answer_examples: dict[str, EvidenceLine] = field(default_factory=dict)
    # ... with no text at all, while the usage counts output tokens: the text went elsewhere on its way to the run
    empty_replies: int = 0
    empty_reply_example: EvidenceLine | None = None


def _prompt(row: dict[str, Any]) -> Any:
    """What makes a task that task: the request's input messages, or a taskset row's task."""
    params = row.get("responses_create_params")
    if isinstance(params, dict) and "input" in params:
        return params["input"]
    return row.get("task_input", row.get("task_id"))


PROMPT_END_KEPT = 300  # characters of a prompt's end kept as its length's example: past an appended instruction


def _common_suffix(suffix: str | None, text: str) -> str:
    """The end `text` shares with `suffix` (all of `text` at first), cut to start at a space: whole words only."""
    if suffix is None:
        suffix = text[-PROMPT_END_KEPT:]
    size = 0
    for ours, theirs in zip(reversed(suffix), reversed(text), strict=False):
        if ours != theirs:
            break
        size += 1
    shared = suffix[len(suffix) - size:] if size else ""
    space = shared.find(" ")
    return shared[space:] if space >= 0 else ""


def _prompt_text(prompt: Any) -> str:
    text = prompt if isinstance(prompt, str) else orjson.dumps(prompt).decode()
    found = re.search(r'"(?:text|content)":"((?:[^"\\]|\\.)*)"', text)  # the message text, where there is one
    return excerpt(found.group(1) if found else text, 60)


def message_texts(prompt: Any) -> tuple[str, ...]:
    """The text of a prompt's messages, in order: what the model was asked, whatever fields a writer added around
    it (Gym writes its rollouts' messages with `type` and null fields the materialized rows lack)."""
    if isinstance(prompt, str):
        return (prompt,)
    if isinstance(prompt, list):
        return tuple(text for part in prompt for text in message_texts(part))
    if isinstance(prompt, dict):
        return tuple(text for name in ("text", "content") if name in prompt for text in message_texts(prompt[name]))
    return ()


def _note_rollout_prompt(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], line: int) -> None:
    params = row.get("responses_create_params")
    if isinstance(params, dict) and "input" in params and len(quality.rollout_prompts) < MAX_ROWS_TRACKED:
        quality.rollout_prompts[key] = (hash(message_texts(params["input"])), line)


def _compare_rollout_prompt(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], line: int) -> None:
    """The prompt a rollout answered against its materialized row's: collected on other inputs when they differ."""
    answered = quality.rollout_prompts.pop(key, None)
    params = row.get("responses_create_params")
    if answered is None or not isinstance(params, dict) or "input" not in params:
        return
    quality.prompts_compared += 1
    if hash(message_texts(params["input"])) != answered[0]:
        quality.other_prompt_rollouts += 1
        quality.other_prompt_example = quality.other_prompt_example or EvidenceLine(
            file=quality.rollouts_file, line=answered[1], text=f"task {key[0]} rollout {key[1]} answered another prompt than line "
                                              f"{line} of the materialized inputs, which asks "
                                              f"{_prompt_text(params['input'])!r}")


def note_materialized_row(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], line: int,
                          max_examples: int) -> None:
    quality.extraction_settings.update((name, value) for name, value in row.items()
                                       if "extract" in name and isinstance(value, str))
    pending = quality.reasons_to_check.pop(key, None)
    if pending is not None:
        _note_refused_value(quality, row, *pending)
    answer = quality.answers_to_check.pop(key, None)
    if answer is not None and isinstance(row.get("expected_answer"), str):
        _note_scored_answer(quality, row["expected_answer"].strip(), answer)
    if key in quality.last_line_failed:  # where this row told the verifier to look, when it missed
        settings = [(name, value) for name, value in row.items() if "extract" in name and isinstance(value, str)]
        quality.last_line_failed_settings.update(settings)
        quality.last_line_followed_setting += any(_gives_answer_as(value, quality.last_line_failed[key])
                                                  for _, value in settings)
    _compare_rollout_prompt(quality, row, key, line)
    _note_options(quality, row, key, line)
    task = key[0]
    quality.rows_of_task[task] += 1
    if quality.rows_of_task[task] == 1 and (texts := message_texts(_prompt(row))):
        length = len(texts[-1])
        quality.prompt_lengths[length] += 1
        quality.prompt_length_examples.setdefault(length, (line, texts[-1][-PROMPT_END_KEPT:]))
        quality.prompt_suffix = _common_suffix(quality.prompt_suffix, texts[-1])
        _note_unclosed_quote(quality, texts[-1], task, line)
    if task not in quality.fields_of_task and len(quality.fields_of_task) < MAX_ROWS_TRACKED:
        quality.fields_of_task[task] = frozenset(name for name in row if not name.startswith("_ng_"))
    prompt = _prompt(row)
    if prompt is None:
        return
    digest = hash(orjson.dumps(prompt, option=orjson.OPT_SORT_KEYS))
    _note_expected_of_prompt(quality, row, task, line, digest, prompt)
    seen = quality.prompt_of_task.get(task)
    if seen is None:  # the first row of a task: its text kept short, for the evidence
        quality.prompt_of_task[task] = (digest, line, _prompt_text(prompt))
    elif seen[0] != digest and task not in quality.shared_task_indices:
        quality.shared_task_indices.add(task)
        if len(quality.shared_examples) < max_examples:
            quality.shared_examples.append(SharedTaskIndex(task, seen[1], line, seen[2], _prompt_text(prompt)))


def _note_unclosed_quote(quality: RowQuality, text: str, task: int, line: int) -> None:
    """A prompt that starts with a double quote and holds an odd number of them: the opening half of a quoted CSV
    field (`"In which city, in France, ..."`) that a prep script split at the comma inside it."""
    if text.startswith('"') and text.count('"') % 2 == 1 and len(quality.unclosed_quote_tasks) < MAX_ROWS_TRACKED:
        quality.unclosed_quote_tasks.add(task)
        quality.unclosed_quote_example = quality.unclosed_quote_example or (line, text[:MAX_SHOWN_VALUE])


def _note_expected_of_prompt(quality: RowQuality, row: dict[str, Any], task: int, line: int, digest: int,
                             prompt: Any) -> None:
    """One prompt given as two tasks with two expected answers (annotation batches merged): one copy of each always
    scores 0, whatever the model answers."""
    expected = row.get("expected_answer")
    if not isinstance(expected, str | int | float) or isinstance(expected, bool):
        return
    if row.get("options") is not None:  # the same question over other (shuffled) options is another task
        digest = hash((digest, orjson.dumps(row["options"], option=orjson.OPT_SORT_KEYS)))
    first = quality.expected_of_prompt.get(digest)
    if first is None:
        if len(quality.expected_of_prompt) < MAX_ROWS_TRACKED:
            quality.expected_of_prompt[digest] = (task, line, str(expected).strip())
        return
    if first[0] != task and first[2] != str(expected).strip() and digest not in quality.conflicting_prompts:
        quality.conflicting_prompts.add(digest)
        quality.conflicting_example = quality.conflicting_example or (
            EvidenceLine(file="", line=first[1], text=f"task {first[0]}: {_prompt_text(prompt)!r} expects "
                                                      f"{first[2]!r}"),
            EvidenceLine(file="", line=line, text=f"task {task}: the same prompt expects {str(expected).strip()!r}"))


def _option_labels(options: Any) -> set[str] | None:
    """The labels of a row's `options` (`[{"A": "Greece"}, ...]` or `{"A": ...}`), None when it has none."""
    if isinstance(options, dict):
        return {str(label) for label in options}
    if isinstance(options, list) and options and all(isinstance(o, dict) and len(o) == 1 for o in options):
        return {str(label) for option in options for label in option}
    return None


def _note_options(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], line: int) -> None:
    labels, expected = _option_labels(row.get("options")), row.get("expected_answer")
    # an option's index (`2`) or text given for its label is as wrong as `(B)`
    if labels and isinstance(expected, (str, int)) and not isinstance(expected, bool) \
            and str(expected).strip() not in labels:
        quality.expected_not_option += 1
        quality.expected_not_option_example = quality.expected_not_option_example or EvidenceLine(
            file="", line=line, text=f"task {key[0]} rollout {key[1]}: expected_answer={expected!r}, options "
                                     f"{sorted(labels)}")


def note_profile_row(quality: RowQuality, row: dict[str, Any], file: str, line: int) -> None:
    """A reward profile row's sample against the materialized task of the same index (read before the profile)."""
    task, sample = row.get("_ng_task_index"), row.get("sample")
    known = quality.prompt_of_task.get(task) if isinstance(task, int) else None
    prompt = _prompt(sample) if isinstance(sample, dict) else None
    if known is None or prompt is None:
        return
    quality.profiled_tasks += 1
    _note_profiled_reward(quality, task, row, file, line)
    if hash(orjson.dumps(prompt, option=orjson.OPT_SORT_KEYS)) != known[0]:
        quality.profiled_other_tasks += 1
        quality.profiled_other_example = quality.profiled_other_example or EvidenceLine(
            file=file, line=line, text=f"task {task}: the profile's sample asks {_prompt_text(prompt)!r}; the "
                                       f"materialized task {task} asks {known[2]!r}")


def _note_profiled_reward(quality: RowQuality, task: int, row: dict[str, Any], file: str, line: int) -> None:
    """The profile's mean reward of a task against the mean of the task's rollouts, where every rollout was scored."""
    mean, count = row.get("mean/reward"), quality.scored_of_task.get(task, 0)
    if not isinstance(mean, (int, float)) or not count or task in quality.unscored_tasks \
            or row.get("num_rollouts") != count:
        return
    actual = quality.reward_sum_of_task[task] / count
    if abs(actual - mean) > 1e-6:
        quality.profiled_other_rewards += 1
        quality.profiled_other_rewards_example = quality.profiled_other_rewards_example or EvidenceLine(
            file=file, line=line, text=f"task {task}: the profile's mean/reward={mean:g}; its {count} rollouts "
                                       f"now average {actual:g}")


def _quoted(value: str, text: str, flags: int = 0) -> bool:
    """`value` as a whole word or phrase of `text`; one character is too short to tell."""
    return len(value) >= 2 and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, flags) is not None


_AGENT_SUFFIX = re.compile(r"_(?:simple_)?agent$")
_SERVER_SUFFIX = re.compile(r"_(?:environment|resources)_server$")


def _note_environment(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], file: str, line: int) -> None:
    """Gym names an environment's agent `<env>_simple_agent` and its server `<env>_environment_server`."""
    agent = (row.get("agent_ref") or {}).get("name") if isinstance(row.get("agent_ref"), dict) else None
    server = row.get("_ng_environment_server")
    if not isinstance(agent, str) or not isinstance(server, str):
        return
    if not _AGENT_SUFFIX.search(agent) or not _SERVER_SUFFIX.search(server):
        return
    env, scored_by = _AGENT_SUFFIX.sub("", agent), _SERVER_SUFFIX.sub("", server)
    if not env.startswith(scored_by) and not scored_by.startswith(env):  # `string_match_raises`: a variant of it
        quality.crossed_environments[(agent, server)] += 1
        if quality.crossed_example is None:
            quality.crossed_example = EvidenceLine(file=file, line=line, text=f"task {key[0]} rollout {key[1]}: "
                                                   f"agent_ref.name={agent} _ng_environment_server={server}")


def note_rollout_row(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], file: str, line: int) -> None:
    quality.rollouts_seen += 1
    quality.rollouts_file = file
    _note_environment(quality, row, key, file, line)
    _note_rollout_prompt(quality, row, key, line)
    reason = row.get("failure_reason")
    if row.get("failure_kind") is not None:
        quality.unscored_tasks.add(key[0])
        if isinstance(reason, str) and reason.strip():
            first_line = reason.strip().splitlines()[0]
            where = EvidenceLine(file=file, line=line, text=f"task {key[0]} rollout {key[1]}: "
                                                            f"failure_reason={excerpt(first_line)!r}")
            if not _note_refused_value(quality, row, first_line, where) and \
                    len(quality.reasons_to_check) < MAX_REASONS_TO_CHECK:
                quality.reasons_to_check[key] = (first_line, where)
        return
    reward = row.get("reward")
    if row.get("mask_sample"):
        quality.masked_without_failure += 1
        quality.masked_example = quality.masked_example or EvidenceLine(
            file=file, line=line, text=f"task {key[0]} rollout {key[1]}: reward={reward} mask_sample=True "
                                       "failure_kind=None")
    if not isinstance(reward, (int, float)) or isinstance(reward, bool) or row.get("mask_sample"):
        quality.unscored_tasks.add(key[0])
        return
    quality.reward_sum_of_task[key[0]] = quality.reward_sum_of_task.get(key[0], 0.0) + reward
    quality.scored_of_task[key[0]] += 1
    quality.scored_rows += 1
    where = f"task {key[0]} rollout {key[1]}: reward={reward}"
    if not 0 <= reward <= 1:
        quality.out_of_range += 1
        quality.reward_range = (min(quality.reward_range[0], reward), max(quality.reward_range[1], reward))
        quality.out_of_range_example = quality.out_of_range_example or EvidenceLine(file=file, line=line, text=where)
    quality.zero_rewards += reward == 0
    if reward == 0:
        _note_reply_scored_zero(quality, row, key[0], EvidenceLine(file=file, line=line, text=where))
    extracted = row.get("extracted_answer")
    extracted = extracted.strip() if isinstance(extracted, str) else None
    answer = ScoredAnswer(reward, extracted, _last_response_line(row) if reward == 0 or extracted is None else None,
                          EvidenceLine(file=file, line=line, text=where), key)
    expected = row.get("expected_answer")
    if isinstance(expected, str):
        if len(quality.expected_of_task) < MAX_ROWS_TRACKED:
            quality.expected_of_task.setdefault(key[0], expected.strip()[:MAX_KEPT])
        if quality.entity_example is None and "&" in expected and HTML_ENTITY.search(expected):
            quality.entity_example = EvidenceLine(file=file, line=line, text=f"task {key[0]} rollout {key[1]}: "
                                                  f"expected_answer={excerpt(expected, MAX_SHOWN_VALUE)!r}")
        _note_scored_answer(quality, expected.strip(), answer)
    elif expected is None and len(quality.answers_to_check) < MAX_ROWS_TRACKED:
        # kept short: a whole response taken for the answer must not hold the run's text in memory
        quality.answers_to_check[key] = replace(answer, extracted=answer.extracted and answer.extracted[:MAX_KEPT],
                                                last_line=answer.last_line and answer.last_line[:MAX_KEPT])



def _case_lost(expected: str, extracted: str) -> bool:
    """The answer is the expected answer with the case the label lost: `Au` for `au`, and a name whose capitals
    carry meaning (`NaCl`, `pH`, `mRNA`) for a label re-cased as a whole (`Nacl`, `PH`, `mrna`)."""
    if expected == extracted or expected.lower() != extracted.lower():
        return False
    if expected == expected.lower():
        return True
    return extracted not in {extracted.lower(), extracted.upper(), extracted.capitalize(), extracted.title()}


def _first_character_of(expected: str, extracted: str) -> bool:
    """`C` expected where `Canberra` was answered: the label is the answer's first character alone."""
    label, given = expected.strip(), extracted.strip()
    return len(label) == 1 and label.isalnum() and len(given) >= 3 and given[0].lower() == label.lower()


def _note_scored_answer(quality: RowQuality, expected: str, answer: ScoredAnswer) -> None:
    """A scored answer against its expected answer: the quiet scoring and data faults of the module docstring."""
    reward, extracted, where = answer.reward, answer.extracted, answer.where
    if reward == 0 and extracted and answer.last_line and _cut_from_response(answer.last_line, extracted):
        quality.cut_answers += 1
        quality.label_cut_answers += 1
        quality.cut_example = quality.cut_example or where.model_copy(update={
            "text": f"{where.text} extracted_answer={excerpt(extracted, MAX_SHOWN_VALUE)!r}, the response's last line "
                    f"{excerpt(answer.last_line, MAX_SHOWN_VALUE)!r}"})
        return
    if reward == 0 and extracted and (line := _ANSWER_LINE.match(expected)) is not None \
            and _comparable(line["answer"]) == _comparable(extracted):  # the label is a whole answer line: `Final answer: X`
        quality.labels_with_marker += 1
        quality.labels_with_marker_example = quality.labels_with_marker_example or where.model_copy(update={
            "text": f"{where.text} expected_answer={excerpt(expected, MAX_SHOWN_VALUE)!r} "
                    f"extracted_answer={excerpt(extracted, MAX_SHOWN_VALUE)!r}"})
        return
    if answer.last_line is not None and reward == 0:
        _note_last_line_answer(quality, expected, answer.last_line, extracted, where, answer.key)
    if extracted is None:  # a verifier keeping no extracted answer: the response's last line is the answer given
        shown = where.model_copy(update={"text": f"{where.text} expected_answer={expected!r}, the response's last "
                                                 f"line {excerpt(answer.last_line or '', MAX_SHOWN_VALUE)!r}"})
        if reward >= 1 and answer.last_line and _unrelated(expected, answer.last_line):
            quality.wrong_scored_full += 1
            quality.wrong_scored_full_example = quality.wrong_scored_full_example or shown
        elif reward >= 1 and answer.last_line and (given := _marked_answer(answer.last_line)) is not None \
                and _comparable(given) != _comparable(expected) and not _same_number(expected, given):
            quality.credited_other += 1
            quality.credited_other_example = quality.credited_other_example or shown
        return
    here = where.model_copy(update={
        "text": f"{where.text} expected_answer={expected!r} extracted_answer={excerpt(extracted, MAX_SHOWN_VALUE)!r}"})
    _note_answer(quality, expected, extracted, here)
    if extracted == expected:
        special = bool(REGEX_CHARS.search(expected))
        if reward == 0:  # the very answer expected, scored as wrong
            quality.matching_scored_zero += 1
            quality.matching_zero_regex_chars += special
            quality.matching_example = quality.matching_example or here
            if quality.last_matching_zero is None or (here.line or 0) > (quality.last_matching_zero.line or 0):
                quality.last_matching_zero = here
        else:
            quality.matching_scored_one += 1
            quality.matching_one_regex_chars += special
            if quality.first_matching_one is None or (here.line or 0) < (quality.first_matching_one.line or 0):
                quality.first_matching_one = here
        return
    if reward >= 1:
        if _unrelated(expected, extracted):
            quality.wrong_scored_full += 1
            quality.wrong_scored_full_example = quality.wrong_scored_full_example or here
        elif _comparable(extracted) != _comparable(expected) and not _same_number(expected, extracted):
            # a part of the label (`Pari` for `Paris`) or more than it, credited
            quality.credited_other += 1
            quality.credited_other_example = quality.credited_other_example or here
        return
    if reward != 0:
        return
    if _case_lost(expected, extracted):
        quality.case_lost += 1
        quality.case_lost_example = quality.case_lost_example or here
        return
    if _INVISIBLE.search(expected) and _INVISIBLE.sub("", expected).strip() == extracted.strip():
        quality.invisible_chars.update(_INVISIBLE.findall(expected))
        quality.invisible_expected += 1
        quality.invisible_example = quality.invisible_example or here
        return
    if _plain(expected) == _plain(extracted):
        quality.typographic_chars.update(c for c in expected + extracted if _plain(f"x{c}x") != f"x{c}x")
        if expected != _plain(expected) and extracted == _plain(extracted):  # the label is the one written otherwise
            quality.typographic_expected += 1
            quality.typographic_expected_example = quality.typographic_expected_example or here
        else:
            quality.typographic_answers += 1
            quality.typographic_answers_example = quality.typographic_answers_example or here
        return
    if (joiner := _words_joined_by(expected, extracted)) is not None:
        quality.despaced_labels += 1
        if quality.despaced_label_example is None:
            quality.despaced_label_example, quality.despaced_joiner = here, joiner
        return
    if _DECIMAL.fullmatch(extracted.strip()) and expected.strip().lstrip("-").isdigit() \
            and int(float(extracted)) == int(expected):
        quality.truncated_labels += 1
        quality.truncated_label_example = quality.truncated_label_example or here
        return
    if _SPREADSHEET_DATE.fullmatch(expected.strip()) and (_FRACTION.fullmatch(extracted.strip())
                                                          or _symbol_read_as_a_date(expected, extracted)):
        quality.date_labels += 1
        quality.date_label_example = quality.date_label_example or here
        return
    if _read_as_base_60(expected, extracted):
        quality.sexagesimal_labels += 1
        quality.sexagesimal_example = quality.sexagesimal_example or here
        return
    if _boolean_for_yes_no(expected, extracted):
        quality.boolean_labels += 1
        quality.boolean_label_example = quality.boolean_label_example or here
        return
    if (shown_as := spreadsheet_format(expected, extracted)) is not None:
        quality.formatted_labels[shown_as] += 1
        quality.formatted_label_examples.setdefault(shown_as, (here, expected.strip(), extracted.strip()))
        return
    if (separator := _joined_alternative(expected, extracted)) is not None:
        quality.joined_labels += 1
        quality.joined_label_example = quality.joined_label_example or here
        quality.joined_separator = quality.joined_separator or separator
        return
    if "?" in expected and extracted.isascii() is False and _ascii_replaced(extracted) == expected:
        quality.non_ascii_replaced += 1
        quality.non_ascii_replaced_example = quality.non_ascii_replaced_example or here
        return
    if "\\\\" in expected and expected.replace("\\\\", "\\") == extracted.strip():
        quality.doubled_backslash_labels += 1
        quality.doubled_backslash_example = quality.doubled_backslash_example or here
        return
    if _rounded_through_a_double(expected, extracted):
        quality.rounded_integer_labels[(expected.strip(), extracted.strip())] += 1
        quality.rounded_integer_examples.setdefault((expected.strip(), extracted.strip()), here)
        return
    if _float_noise(expected, extracted):
        quality.float_noise_labels += 1
        quality.float_noise_example = quality.float_noise_example or here
        return
    if _same_number(expected, extracted):
        quality.number_written_otherwise += 1
        quality.numbers_in_words += extracted.strip().lower() in _NUMBER_WORDS
        quality.number_example = quality.number_example or here
        return
    if _first_character_of(expected, extracted):
        quality.first_character_labels[expected.strip()] += 1
        quality.first_character_example = quality.first_character_example or here
        return
    if _cut_short(expected, extracted):  # short of its label: whoever cut it (a model's miss, a body cut in transit)
        quality.label_cut_answers += 1
    if _cut_short(expected, extracted) and not _answered_as(answer.last_line, extracted):
        quality.cut_answers += 1
        quality.cut_example = quality.cut_example or here
        return
    if _quoted(expected, extracted):  # the answer, and more around it
        quality.unextracted_answers += 1
        quality.unextracted_whole += "\n" in extracted  # the whole response: nothing was extracted
        quality.unextracted_example = quality.unextracted_example or here
    elif _unwrapped(expected) == _unwrapped(extracted) != expected or _annotated(expected, extracted) \
            or ((stop := _FULL_STOP.match(expected.strip())) and stop[1] == extracted.strip()):
        # the expected answer in markup the answers lack, or with a note after it ("42 (6 x 7)")
        quality.wrapped_expected += 1
        quality.wrapped_example = quality.wrapped_example or here
    elif len(quality.unexplained_zeros) < MAX_REASONS_TO_CHECK:
        quality.unexplained_zeros.append((answer.key[0], extracted[:MAX_KEPT], here))


def labels_one_row_off(quality: RowQuality) -> tuple[int, set[int], int, list[EvidenceLine]]:
    """(shift, tasks, other): the tasks with an answer scored 0 that is the expected answer of the task `shift` (-1 or
    +1) away, for the shift with more of them, and how many tasks the other shift finds (chance alone finds as
    many either way); with the first examples."""
    found: dict[int, tuple[set[int], list[EvidenceLine]]] = {}
    for shift in (-1, 1):
        tasks, examples = set(), []
        for task, answer, where in quality.unexplained_zeros:
            if quality.expected_of_task.get(task + shift) == answer != quality.expected_of_task.get(task):
                tasks.add(task)
                examples.append(where.model_copy(update={"text": f"{where.text}: task {task + shift}'s expected "
                                                                 "answer"}))
        found[shift] = (tasks, examples[:2])
    shift = max(found, key=lambda s: len(found[s][0]))
    return shift, found[shift][0], len(found[-shift][0]), found[shift][1]


def labels_of_other_tasks(quality: RowQuality) -> tuple[set[int], Counter[int], list[EvidenceLine]]:
    """(tasks, shifts, examples): the tasks with an answer scored 0 that is the expected answer of another task (and
    not of its own), how far away that task is, counted per distance, and the first examples."""
    tasks_of_label: dict[str, list[int]] = {}
    for task, expected in quality.expected_of_task.items():
        tasks_of_label.setdefault(expected, []).append(task)
    tasks, shifts, examples = set(), Counter(), []
    for task, answer, where in quality.unexplained_zeros:
        others = [other for other in tasks_of_label.get(answer, []) if other != task]
        if not others or task in tasks or answer == quality.expected_of_task.get(task):
            continue
        nearest = min(others, key=lambda other: abs(other - task))
        tasks.add(task)
        shifts[nearest - task] += 1
        if len(examples) < 2:
            examples.append(where.model_copy(update={"text": f"{where.text}: task {nearest}'s expected answer"}))
    return tasks, shifts, examples


def _response_text(row: dict[str, Any]) -> str | None:
    """The response's last output text (Responses API `output` messages)."""
    output = row.get("response", {}).get("output") if isinstance(row.get("response"), dict) else None
    texts = [part.get("text") for item in output or () if isinstance(item, dict) and item.get("type") == "message"
             for part in item.get("content") or () if isinstance(part, dict) and isinstance(part.get("text"), str)]
    return texts[-1] if texts else None


def _last_response_line(row: dict[str, Any]) -> str | None:
    """The last non-empty line of the response's last output text."""
    lines = [text for text in (_response_text(row) or "").splitlines() if text.strip()]
    return lines[-1].strip() if lines else None


def _note_reply_scored_zero(quality: RowQuality, row: dict[str, Any], task: int, where: EvidenceLine) -> None:
    response = row.get("response")
    if isinstance(response, dict) and response.get("status") == "incomplete":
        return  # cut at the token limit: the same opening of many answers
    text = (_response_text(row) or "").strip()
    usage = response.get("usage") if isinstance(response, dict) else None
    produced = usage.get("output_tokens") if isinstance(usage, dict) else None
    if not text and isinstance(produced, int) and produced > 0:
        quality.empty_replies += 1
        quality.empty_reply_example = quality.empty_reply_example or where.model_copy(update={
            "text": f"{where.text}: the reply's text is empty, usage.output_tokens={produced}"})
    extracted = row.get("extracted_answer")
    if isinstance(extracted, str) and extracted.strip() and (
            extracted[:MAX_KEPT] in quality.answers_scored_zero or len(quality.answers_scored_zero) < MAX_DISTINCT_ANSWERS):
        quality.answers_scored_zero.setdefault(extracted[:MAX_KEPT], set()).add(task)
        quality.zero_answer_examples.setdefault(extracted[:MAX_KEPT], where)
    if not text or (text[:MAX_KEPT] not in quality.replies_scored_zero and len(quality.replies_scored_zero) >= MAX_DISTINCT_ANSWERS):
        return
    quality.replies_scored_zero.setdefault(text[:MAX_KEPT], set()).add(task)
    quality.reply_examples.setdefault(text[:MAX_KEPT], where)


def _note_last_line_answer(quality: RowQuality, expected: str, last_line: str, extracted: str | None,
                           where: EvidenceLine, answer_key: tuple[int, int]) -> None:
    """An answer scored 0 that the response gives on its last line, and the extraction (if kept) missed."""
    if not _quoted(expected, last_line) or (extracted is not None and _quoted(expected, extracted)):
        return
    if extracted is not None and _unwrapped(expected) == _unwrapped(extracted):  # the answer found; the label wraps it
        return
    quality.last_line_answers_scored_zero += 1
    if len(quality.last_line_failed) < MAX_ROWS_TRACKED:
        quality.last_line_failed[answer_key] = last_line[:MAX_KEPT]
    kept = "" if extracted is None else f", extracted_answer={excerpt(extracted, MAX_SHOWN_VALUE)!r}"
    quality.last_line_pair = quality.last_line_pair or (expected, last_line)
    quality.last_line_example = quality.last_line_example or where.model_copy(update={
        "text": f"{where.text} expected_answer={expected!r}{kept}, the response's last line "
                f"{excerpt(last_line, MAX_SHOWN_VALUE)!r}"})


def _unrelated(expected: str, extracted: str) -> bool:
    """Two answers no lenient comparison could call the same: neither holds the other, and not one number."""
    a, b = _unwrapped(expected).lower(), _unwrapped(extracted).lower()
    if not a or not b or a in b or b in a:
        return False
    try:
        return float(a.replace(",", "")) != float(b.replace(",", ""))
    except ValueError:
        return True


def _note_answer(quality: RowQuality, expected: str, extracted: str, where: EvidenceLine) -> None:
    if len(quality.expected_answers) < MAX_DISTINCT_ANSWERS:
        quality.expected_answers.add(expected)
    if not extracted or (extracted not in quality.answers and len(quality.answers) >= MAX_DISTINCT_ANSWERS):
        return
    quality.answers[extracted] += 1
    if extracted not in quality.answer_examples and len(quality.answer_examples) < 3:
        quality.answer_examples[extracted] = where


_MARKUP = (re.compile(r"^\$+(.*?)\$+$", re.S), re.compile(r"^\\\((.*)\\\)$", re.S),
           re.compile(r"^\\(?:boxed|text|mathrm|textbf)\{(.*)\}$", re.S), re.compile(r"^[\"'`](.*)[\"'`]$", re.S),
           re.compile(r"^'([^']+)$"),  # a spreadsheet's text marker: `'007` is the cell 007 kept as text
           re.compile(r"^(\*\*|__|\*)(?P<text>.+)\1$", re.S),  # Markdown emphasis: a table's `**Oslo**`
           re.compile(r"^\[\s*[\"'](.*)[\"']\s*\]$", re.S))  # a one-item list written as text: `['Lisbon']`
# a label that keeps a sentence's full stop from an answer key (`Paris.`), its answer without it
_FULL_STOP = re.compile(r"^([^.\s](?:[^.]*[^.\s])?)\.$")


MAX_CUT_CHARS = 4  # characters an extraction that strips a set of characters (`str.strip("Final answer:")`) eats


def _cut_short(expected: str, extracted: str) -> bool:
    """`extracted` is `expected` with a few characters cut from its start or end, mid-word: "Amundsen" -> "Amund"."""
    a, b = expected.lower(), extracted.lower()
    if len(b) < 2 or a == b or b not in a or len(a) - len(b) > MAX_CUT_CHARS:
        return False
    start = a.index(b)
    end = start + len(b)
    return (start > 0 and a[start - 1].isalnum() and b[0].isalnum()) or (end < len(a) and a[end].isalnum()
                                                                           and b[-1].isalnum())


_ANSWER_LABEL = re.compile(r"\b(?:final )?answer\s*(?:is\s*)?:", re.IGNORECASE)


def _gives_answer_as(setting: str, last_line: str) -> bool:
    """The response's last line gives its answer in the form an extraction setting names (`boxed`: \\boxed{};
    `final_answer`: 'Final answer: ...'; `last_line`: any)."""
    mode = setting.lower()
    if "box" in mode:
        return "\\boxed{" in last_line
    if "final" in mode or "answer" in mode:
        return bool(_ANSWER_LABEL.search(last_line))
    return "last" in mode or "line" in mode


def _cut_from_response(last_line: str, extracted: str) -> bool:
    """The extracted answer is what the response's last line gives (after a `Label:`, without a final period) with
    a few characters cut off mid-word: the extraction ate into the answer."""
    given = last_line.strip().rstrip(".")
    return any(_cut_short(text.strip(), extracted.strip()) for text in (given, given.rsplit(":", 1)[-1]))


def _answered_as(last_line: str | None, extracted: str) -> bool:
    """The response's last line gives `extracted` as its whole answer: a model's own near miss (`Pari` for `Paris`),
    not an answer the extraction cut."""
    if not last_line:
        return False
    given = last_line.strip()
    return _comparable(extracted) in {_comparable(text) for text in (given, given.rsplit(":", 1)[-1],
                                                                      _marked_answer(given) or "")}


def _joined_alternative(expected: str, extracted: str) -> str | None:
    """The separator (`|`, `;`) when `expected` joins several answers and `extracted` is one of them."""
    for separator in ("|", ";"):
        parts = [part.strip() for part in expected.split(separator)]
        if len(parts) > 1 and all(parts) and _comparable(extracted) in {_comparable(part) for part in parts}:
            return separator
    return None


def _ascii_replaced(text: str) -> str:
    """`text` as an ASCII encoder with errors="replace" writes it: each non-ASCII character a `?`."""
    return text.encode("ascii", errors="replace").decode("ascii")


_WHOLE_NUMBER = re.compile(r"-?\d+")
_BIG_INTEGER = re.compile(r"-?\d{16,}")  # past what a double holds exactly (2^53 has 16 digits)
_FLOAT_NOISE = re.compile(r"^-?\d+\.\d*?(?:0{6,}|9{6,})\d{1,3}$")  # `0.30000000000000004`, `3.3000000000000003`


def _float_noise(expected: str, extracted: str) -> bool:
    """The label is the answer as binary floating point printed it: `str(0.1 + 0.2)` for 0.3."""
    if not _FLOAT_NOISE.match(expected.strip()):
        return False
    try:
        return abs(float(expected) - float(extracted.strip())) < 1e-9 * max(1.0, abs(float(expected)))
    except ValueError:
        return False


def _rounded_through_a_double(expected: str, extracted: str) -> bool:
    """Two whole numbers past 2^53 that one 64-bit float holds: the label went through a double (a JSON number read
    by JavaScript, a float column) and kept only its first 16 or 17 digits (`1152921504606847000`)."""
    first, second = expected.strip(), extracted.strip()
    if not (_BIG_INTEGER.fullmatch(first) and _BIG_INTEGER.fullmatch(second)) or int(first) == int(second):
        return False
    # the label is exactly how a double prints (its shortest digits, then zeros), the answer is not: a model's answer
    # one off a label (`...905` for 2^62) shares a double with it too, but the label is then not the printed one
    printed = int(Decimal(repr(float(first))))
    return printed == int(first) and printed != int(second) and float(first) == float(second)


def _same_number(expected: str, extracted: str) -> bool:
    """Two spellings of one number (`42.0` and `42`, `1,000` and `1000`, `eight` and `8`): a label exported through
    a float column, or turned from words into digits."""
    whole = [text.strip().replace(",", "") for text in (expected, extracted)]
    if all(_WHOLE_NUMBER.fullmatch(text) for text in whole):  # exactly, past what a float tells apart (2^62 + 1)
        return int(whole[0]) == int(whole[1])
    first, second = _number_value(expected), _number_value(extracted)
    return first is not None and first == second


_NUMBER_WORDS = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}


def _number_value(text: str) -> float | None:
    """The number `text` writes: in digits, as a fraction (`7/2`, as `str()` of a Python Fraction writes it), or in
    words."""
    text = text.strip()
    if fraction := _QUOTIENT.fullmatch(text):
        return int(fraction["numerator"]) / int(fraction["denominator"]) if int(fraction["denominator"]) else None
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return _NUMBER_WORDS.get(text.lower())


_QUOTIENT = re.compile(r"(?P<numerator>-?\d+)/(?P<denominator>\d+)")


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SCIENTIFIC = re.compile(r"-?\d(?:\.(?P<decimals>\d+))?[eE][+-]?\d+")
_PERCENTAGE = re.compile(r"(?P<number>-?\d+(?:\.\d+)?)\s*%")
_ACCOUNTING_NEGATIVE = re.compile(r"\((?P<number>\d+(?:\.\d+)?)\)")
_CURRENCY = re.compile(r"(?:[$€£¥]\s?(?P<before>-?\d+(?:\.\d+)?)|(?P<after>-?\d+(?:\.\d+)?)\s?[€£])")
SCIENTIFIC, PERCENTAGE, ACCOUNTING, CURRENCY = "scientific notation", "percentage", "accounting", "currency"
FORMULA, DECIMAL_COMMA, TEXT_FORMULA, ORDINAL = "formula", "decimal comma", "text formula", "ordinal"
_ORDINAL = re.compile(r"(?P<number>\d+)(?:st|nd|rd|th)\.?", re.I)  # `3rd`, `10th`: a column shown as ordinals
# a number with a decimal comma (`3,5`, `0,125`): three digits after a comma of a number above 0 are thousands (`1,250`)
_DECIMAL_COMMA = re.compile(r"-?(?:0,\d+|\d+,(?:\d{1,2}|\d{4,}))")
# a cell's formula as text: `=6*7`, `=SUM(B2:B4)`, `=B2*2`
_TEXT_FORMULA = re.compile(r'=\s*"(?P<text>[^"]*)"')  # a spreadsheet's way to keep `007` from becoming 7
_FORMULA = re.compile(r"=\s*(?P<formula>[\w\s.+\-*/^(),:$]+)")
_CELL_OR_FUNCTION = re.compile(r"\b(?:[A-Z]{1,3}\$?\d+|[A-Z]{2,}\()")
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
               ast.Pow: operator.pow}


def _arithmetic_value(formula: str) -> float | None:
    """The value of a formula of numbers and + - * / ^ (`6*7`), else None (cells, functions, anything else)."""
    try:
        tree = ast.parse(formula.replace("^", "**"), mode="eval").body
    except SyntaxError:
        return None

    def value(node: ast.expr) -> float | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = value(node.operand)
            return None if inner is None else -inner
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            left, right = value(node.left), value(node.right)
            if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 64):
                return None
            try:
                return _ARITHMETIC[type(node.op)](left, right)
            except ZeroDivisionError:
                return None
        return None

    return value(tree)


_YES_NO = {"yes": "true", "y": "true", "on": "true", "no": "false", "n": "false", "off": "false"}


_CLOCK_TIME = re.compile(r"(?P<first>\d{1,2}):(?P<second>[0-5]\d)(?::(?P<third>[0-5]\d))?")


def _symbol_read_as_a_date(expected: str, extracted: str) -> bool:
    """A symbol made of a month and a number (the genes `SEPT2`, `MARCH1`, `DEC1`) that a spreadsheet read as that
    day of the month and wrote back as a date (`2-Sep`)."""
    symbol = re.fullmatch(r"(?P<month>[A-Za-z]{3,9})-?(?P<day>\d{1,2})", extracted.strip())
    date = re.fullmatch(rf"(?P<day>\d{{1,2}})-(?P<month>{_MONTHS})", expected.strip(), re.I)
    return bool(symbol and date) and symbol["month"][:3].lower() == date["month"].lower() \
        and int(symbol["day"]) == int(date["day"])


def _read_as_base_60(expected: str, extracted: str) -> bool:
    """`expected` is the whole number YAML 1.1 reads the clock time `extracted` as (`14:30` -> 870, base 60)."""
    time = _CLOCK_TIME.fullmatch(extracted.strip().rstrip("."))
    if time is None or not expected.strip().isdigit():
        return False
    parts = [int(part) for part in time.groups() if part is not None]
    value = 0
    for part in parts:
        value = value * 60 + part
    return value == int(expected.strip())


def _boolean_for_yes_no(expected: str, extracted: str) -> bool:
    """`expected` is a boolean's text (`True`) and `extracted` the yes/no word YAML 1.1 reads as it (`yes`)."""
    return _YES_NO.get(extracted.strip().strip(".").lower()) == expected.strip().lower()


def spreadsheet_format(expected: str, extracted: str) -> str | None:
    """The display format of a spreadsheet (`scientific notation`, `percentage`, `accounting`, `currency`, `formula`)
    in which `expected` writes the number `extracted` gives (`3.2E+07` for 31536000: rounded in a narrow column; `25%`
    for 0.25; `(8)` for -8; `$120.00` for 120; `3rd` for 3, an ordinal format; `=6*7` for 42, the formulas shown): a label column exported as the
    sheet shows it; `3,5` for 3.5, the decimal comma of a locale's export; `="007"` for 007, a code kept as text by a
    formula)."""
    if (wrapped := _TEXT_FORMULA.fullmatch(expected.strip())) is not None:  # `="007"`: a code kept as text
        return TEXT_FORMULA if wrapped["text"] == extracted.strip() else None
    answer_text = extracted.strip().replace(",", "")
    if not _NUMBER.fullmatch(answer_text):
        return None
    answer, label = float(answer_text), expected.strip().replace(",", "")
    if _DECIMAL_COMMA.fullmatch(expected.strip()):  # a locale's export: 3,5 for 3.5
        return DECIMAL_COMMA if float(expected.strip().replace(",", ".")) == answer else None
    if (scientific := _SCIENTIFIC.fullmatch(label)) is not None:
        rounded = float(f"{answer:.{len(scientific['decimals'] or '')}e}")
        return SCIENTIFIC if answer != float(label) and rounded == float(label) else None
    if (percent := _PERCENTAGE.fullmatch(label)) is not None:
        return PERCENTAGE if math.isclose(float(percent["number"]) / 100, answer, rel_tol=1e-9) else None
    if (negative := _ACCOUNTING_NEGATIVE.fullmatch(label)) is not None:
        return ACCOUNTING if answer < 0 and -float(negative["number"]) == answer else None
    if (money := _CURRENCY.fullmatch(label)) is not None:
        return CURRENCY if float(money["before"] or money["after"]) == answer else None
    if (ordinal := _ORDINAL.fullmatch(label)) is not None:
        return ORDINAL if int(ordinal["number"]) == answer else None
    if (formula := _FORMULA.fullmatch(expected.strip())) is not None:  # the formula's text, not its value
        computed = _arithmetic_value(formula["formula"])
        return FORMULA if (math.isclose(computed, answer, rel_tol=1e-9) if computed is not None
                           else bool(_CELL_OR_FUNCTION.search(formula["formula"]))) else None
    return None


def _annotated(expected: str, extracted: str) -> bool:
    """`expected` is the extracted answer followed by a note: "42 (6 x 7)", "Paris - the capital" (not the whole part of
    a number with a decimal comma: `3` of "3,5")."""
    return bool(extracted) and not _DECIMAL_COMMA.fullmatch(expected.strip()) and expected.startswith(extracted) and expected[len(extracted):len(extracted) + 1] in (
        " ", "(", "[", ",", ";", ":", "\t")


# Characters that print as nothing (zero-width spaces and joiners, a byte order mark, soft hyphens), or as a
# space that is not one: copied in from web pages and spreadsheets, they make two equal-looking strings differ.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad\u00a0]")


# Typographic spellings of ASCII quotes, dashes and spaces (a word processor's, a PDF's): answers that look the same
# and never compare equal. NFKC besides folds full-width forms, ligatures and decomposed accents.
_TYPOGRAPHIC = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    # Cyrillic and Greek letters drawn like Latin ones (an answer key ported from another language's benchmark)
    **dict(zip("АВЕКМНОРСТХаеорсухіјѕΑΒΕΖΗΙΚΜΝΟΡΤΥΧο", "ABEKMHOPCTXaeopcyxijsABEZHIKMNOPTYXo", strict=True)),
})


def _words_joined_by(expected: str, extracted: str) -> str | None:
    """What joins the words of `extracted` in `expected` instead of spaces: nothing (`NewDelhi`), an underscore or
    a hyphen (a slug: `New_Delhi`, `new-delhi`); None when `expected` is not the answer's words so joined."""
    words, label = extracted.split(), expected.strip().casefold()
    if len(words) < 2 or any(c.isspace() for c in label):
        return None
    return next((joiner for joiner in ("", "_", "-") if joiner.join(words).casefold() == label
                 and (joiner == "" or joiner not in extracted)), None)


def _plain(text: str) -> str:
    """`text` in plain typography: NFKC, ASCII quotes and dashes, single spaces, no spaces at its ends."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHIC).split())


_DECIMAL = re.compile(r"-?\d+\.\d+")
_FRACTION = re.compile(r"-?\d+\s*/\s*\d+")
_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
# how a spreadsheet shows a date it read from `3/4`: `4-Mar`, `Mar-04`, `2024-03-04`, `03/04/2024`
_SPREADSHEET_DATE = re.compile(rf"\d{{1,2}}-(?:{_MONTHS})|(?:{_MONTHS})-\d{{1,4}}|\d{{4}}-\d\d-\d\d|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}")


# a label that is a whole answer line, as a model writes it: `Final answer: Canberra` (markup such as `\boxed{}` is
# told apart elsewhere: a wrapped label)
_ANSWER_LINE = re.compile(r"^\s*(?:final answer|the answer is)\s*:?\s*(?P<answer>\S.*)$", re.I)
_MARKED_ANSWER = re.compile(r"\\boxed\{(?P<boxed>[^{}]*)\}|(?:final answer|the answer is)\s*:?\s*(?P<labelled>.+)$", re.I)


def _marked_answer(last_line: str) -> str | None:
    """The answer a response's last line marks as its answer (`\\boxed{x}`, `Final answer: x`), else None."""
    match = _MARKED_ANSWER.search(last_line)
    return (match["boxed"] if match["boxed"] is not None else match["labelled"]).strip() if match else None


def _comparable(answer: str) -> str:
    """An answer as a lenient comparison sees it: plain typography, no case, no final period or surrounding quotes."""
    return _plain(_unwrapped(answer)).casefold().rstrip(".").strip("\"'` ")


def _unwrapped(answer: str) -> str:
    """An answer without the LaTeX or quotes around it: `$36$`, `\\boxed{36}`, `"36"` -> `36`."""
    while True:
        for markup in _MARKUP:
            if match := markup.match(answer):
                answer = (match.groupdict().get("text") or match.group(1)).strip()
                break
        else:
            return answer


def _note_refused_value(quality: RowQuality, row: dict[str, Any], reason: str, where: EvidenceLine) -> bool:
    """A failure reason naming one of the row's own fields and quoting that field's value, or saying the field is
    wrong in so many words (`field 'options': ...`)."""
    for name, value in row.items():
        if name.startswith("_ng_") or name in ("failure_reason", "failure_kind", "reward", "mask_sample"):
            continue
        named = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", reason)
        blamed = re.search(rf"\bfield\s+['\"`]?{re.escape(name)}\b", reason, re.IGNORECASE)
        # the value quoted in any case: verifiers normalize it ("FRANCE" for France)
        quoted = isinstance(value, str) and _quoted(value.strip(), reason, re.IGNORECASE)
        if named and (blamed or quoted):
            quality.refused_fields[name] += 1
            quality.refused_examples.setdefault(name, where.model_copy(update={
                "text": f"{where.text}; the row's {name}={excerpt(str(value), MAX_SHOWN_VALUE)!r}"}))
            return True
    return False
