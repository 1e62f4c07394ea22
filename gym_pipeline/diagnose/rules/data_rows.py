"""What data rows hold that no reader complains about.

- A field given twice: a script that edits JSONL rows with text tools (`sed 's/^{/{"expected_answer": "x", /'`)
  adds a key in front of the one already there: the row is valid JSON, every reader keeps the last value (Python's
  json, orjson, pandas, Gym), and the correction never reaches the run.
- Prompts rendered with a model's chat template (`<|im_start|>user ...`) by a data script copied from a training
  pipeline: the server templates the messages again.
- Labels that are UTF-8 text read as Latin-1 (`BogotÃ¡`): a data script kept the encoding of an older export.
- Prompts whose last turn is the assistant's: a few-shot script that gives turns their roles by position (`user` on
  even turns) and counts an instruction line as the first turn makes every question an assistant turn, the question
  asked last too; the model answers the last user turn (an example's answer), not the question.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import data_files_in
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.unrecorded_source import DATA_FOLDERS
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

MAX_LINES = 20_000  # of one data file


def keys_given_twice(line: str, *, nested: bool = False) -> list[tuple[str, list[object]]]:
    """(key, its values in order) of each top-level key a JSON object (a line, or a whole file) gives more than once;
    with `nested`, of the keys of every object inside it too."""
    pairs: list[list[tuple[str, object]]] = []

    def keep(items: list[tuple[str, object]]) -> dict:
        pairs.append(items)
        return dict(items)

    try:
        json.loads(line, object_pairs_hook=keep)
    except ValueError:
        return []
    twice = []
    for items in pairs if nested else pairs[-1:]:  # the outermost object is built last
        values: dict[str, list[object]] = {}
        for key, value in items:
            values.setdefault(key, []).append(value)
        twice += [(key, given) for key, given in values.items() if len(given) > 1]
    return twice


def rule_data_rows_give_a_field_twice(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    folders = [ev.run_dir, *(ev.run_dir / name for name in DATA_FOLDERS if (ev.run_dir / name).is_dir())]
    for path in (p for folder in folders for p in data_files_in(folder, ev.artifacts.files)):
        found = _first_row_with_a_key_twice(path)
        if found is None:
            continue
        number, key, given, rows = found
        writers = [file.name for file in ev.user_files if key in file.text and path.name in file.text]
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{ev.rel(path)} gives `{key}` twice in {rows} row{'s' if rows > 1 else ''}: readers keep the last "
                  f"value ({excerpt(repr(given[-1]), 40)}), not {excerpt(repr(given[0]), 40)}",
            evidence=[EvidenceLine(file=ev.rel(path), line=number, text=f"`{key}`: " + " then ".join(
                excerpt(repr(value), 40) for value in given))],
            cause=f"A row with the key `{key}` twice is valid JSON, and every reader (Python's json, orjson, pandas, "
                  "Gym) keeps the last value without a word: a correction written in front of the old value (a text "
                  "edit such as `sed 's/^{/{\"key\": ...,/'`) never reaches the run."
                  + (f" {', '.join(writers)} edits `{key}` in {path.name}." if writers else ""),
            fix=f"Edit the rows as JSON, not as text ({', '.join(writers) or 'the script that edits them'}: "
                f"`jq -c '.{key} = ...'`, or Python's json: load, set, dump), check that no row gives a key twice, then "
                "materialize again and collect.",
        )]
    return []


def _first_row_with_a_key_twice(path: Path) -> tuple[int, str, list[object], int] | None:
    """(line, key, its values, rows with a key twice) of the first row of a data file giving a key twice."""
    first, rows = None, 0
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(itertools.islice(handle, MAX_LINES), start=1):
                twice = keys_given_twice(line) if line.count('":') > 1 else []
                if twice:
                    rows += 1
                    first = first or (number, *twice[0])
    except OSError:
        return None
    return (*first, rows) if first else None


# A model's chat template written into the rows' message text: the server applies its template to chat messages
# itself, so the model sees a second conversation inside the user's message.
_CHAT_TEMPLATE = re.compile(r"<\|im_start\|>|<\|start_header_id\|>|<\|begin_of_text\|>|\[INST\]|<start_of_turn>"
                            r"|<\|user\|>|<\|assistant\|>")
MAX_ROWS_CHECKED = 200
TEMPLATED_SHARE = 0.5  # of the rows checked


def chat_template_in_prompts(ev: Evidence) -> tuple[int, int, int, str] | None:
    """(rows templated, rows checked, first such line, its marker) when most of the first materialized rows hold a
    chat template in their text; None otherwise."""
    materialized = ev.artifacts.files.materialized
    if not materialized.is_file():
        return None
    checked = templated = 0
    example: tuple[int, str] | None = None
    with materialized.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(itertools.islice(handle, MAX_ROWS_CHECKED), start=1):
            checked += 1
            if found := _CHAT_TEMPLATE.search(line):
                templated += 1
                example = example or (number, found.group(0))
    if example is None or templated < TEMPLATED_SHARE * checked:
        return None
    return templated, checked, *example


def rule_prompts_with_a_chat_template(ev: Evidence) -> list[Finding]:
    found = chat_template_in_prompts(ev)
    if found is None:
        return []
    templated, checked, number, marker = found
    materialized = ev.artifacts.files.materialized
    writer = next(iter(lines_matching(ev.user_files, re.compile(re.escape(marker)), {".py", ".sh", ""})), None)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{templated} of {checked} rows hold a chat template in their message text ({marker}): the prompts "
              "were rendered for training, not written as chat messages",
        evidence=[EvidenceLine(file=ev.rel(materialized), line=number, text=f"the message text holds {marker}"),
                  *([EvidenceLine(file=writer[0].name, line=writer[1], text=excerpt(writer[2].strip(), 160))]
                    if writer else [])],
        cause=f"The rows' `input` messages already hold the model's chat format ({marker} ... turns), and the model "
              "server applies its chat template to the messages itself: the model reads a conversation inside the "
              "user's message and answers it as text, so the answers are not the ones the eval means."
              + (f" {writer[0].name}:{writer[1]} writes the template into the prompts." if writer else ""),
        fix=(f"In {writer[0].name}, " if writer else "In the data preparation, ")
            + f"keep the question as a plain user message (no {marker} markers; the server's chat template adds them), "
            "then materialize again and collect.",
    )]


def prompts_ending_with_an_assistant_turn(ev: Evidence) -> tuple[int, int, int] | None:
    """(rows whose input ends with an assistant turn, rows checked, the first such line) when most of the first
    materialized rows do; None otherwise."""
    checked = ending = 0
    first = None
    for number, row in readable_rows(ev.artifacts.files.materialized, MAX_ROWS_CHECKED):
        params = row.get("responses_create_params")
        turns = params.get("input") if isinstance(params, dict) else None
        if not isinstance(turns, list) or not turns:
            continue
        checked += 1
        if isinstance(turns[-1], dict) and turns[-1].get("role") == "assistant":
            ending += 1
            first = first or number
    if first is None or ending < TEMPLATED_SHARE * checked:
        return None
    return ending, checked, first


_ROLE_BY_POSITION = re.compile(r"%\s*2\b.*[\"'](?:user|assistant)[\"']|[\"'](?:user|assistant)[\"'].*%\s*2\b")


def rule_prompts_ending_with_an_assistant_turn(ev: Evidence) -> list[Finding]:
    found = prompts_ending_with_an_assistant_turn(ev)
    if found is None:
        return []
    ending, checked, number = found
    materialized = ev.artifacts.files.materialized
    writer = next(iter(lines_matching(ev.user_files, _ROLE_BY_POSITION, {".py"})), None)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{ending} of {checked} prompts end with an assistant turn: the question is not the last user message",
        evidence=[EvidenceLine(file=ev.rel(materialized), line=number,
                               text="responses_create_params.input ends with a message of role 'assistant'"),
                  *([EvidenceLine(file=writer[0].name, line=writer[1], text=excerpt(writer[2].strip(), 160))]
                    if writer else [])],
        cause="A chat model answers the last user turn of the conversation it is given. These prompts end with an "
              "assistant turn, so the question is put as if the model had said it, and the model answers the user "
              "turn before it (in a few-shot prompt, an example's answer): the replies do not answer the task."
              + (f" {writer[0].name}:{writer[1]} gives the turns their role by position, so one extra turn at the "
                 "start (an instruction line) swaps every role after it." if writer else ""),
        fix=(f"In {writer[0].name}:{writer[1]}, " if writer else "In the data preparation, ")
            + "give each turn its role by what it is, not by its position: the instruction and each example question "
              "a `user` turn (or the instruction a `system` turn), each worked answer an `assistant` turn, and the "
              "question asked last a `user` turn; then materialize again and collect.",
    )]


_WRONG_ENCODING = re.compile(r"encoding\s*=\s*[\"'](?P<encoding>latin-?1|iso-?8859-?1|cp1252|windows-1252)[\"']", re.I)
MIN_MISDECODED = 2  # labels, for a pattern and not one odd name


def _repaired(text: str) -> str | None:
    """`text` as it reads when its characters are taken back to the bytes a Latin-1 (or Windows-1252) decoder made
    of UTF-8 (`BogotÃ¡` -> `Bogotá`); None when it is not such text."""
    if text.isascii():
        return None
    for encoding in ("latin-1", "cp1252"):
        try:
            repaired = text.encode(encoding).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        if repaired != text:
            return repaired
    return None


def rule_labels_decoded_with_the_wrong_encoding(ev: Evidence) -> list[Finding]:
    """Labels that are UTF-8 text read as Latin-1 (`BogotÃ¡`): a data script opened a UTF-8 export with the encoding
    of an older one, and no correct answer equals them."""
    materialized = ev.artifacts.files.materialized
    found: list[tuple[int, str, str]] = []
    for number, row in readable_rows(materialized, MAX_ROWS_CHECKED):
        label = row.get("expected_answer")
        if isinstance(label, str) and (repaired := _repaired(label)) is not None:
            found.append((number, label, repaired))
    labels = {label for _, label, _ in found}
    if len(labels) < MIN_MISDECODED:
        return []
    number, label, repaired = found[0]
    opener = next(iter(lines_matching(ev.user_files, _WRONG_ENCODING, {".py"})), None)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{len(labels)} labels are UTF-8 text decoded as Latin-1 ({label!r} is {repaired!r}): no correct answer "
              "equals them",
        evidence=[EvidenceLine(file=ev.rel(materialized), line=number,
                               text=f"expected_answer={label!r}, which is {repaired!r} read with the wrong encoding"),
                  *([EvidenceLine(file=opener[0].name, line=opener[1], text=excerpt(opener[2].strip(), 160))]
                    if opener else [])],
        cause="Each accented letter of these labels is two characters (`á` became `Ã¡`): the text was written as "
              "UTF-8 and read back as Latin-1 (or Windows-1252) on its way into the data, so the model's correct "
              "answers, in plain UTF-8, never equal them and those tasks score 0."
              + (f" {opener[0].name}:{opener[1]} opens the file with encoding={opener[3]['encoding']!r}." if opener else ""),
        fix=(f"In {opener[0].name}:{opener[1]}, open the file with encoding='utf-8' (the export is UTF-8 now), "
             if opener else "Read the labels' source file as UTF-8 (encoding='utf-8') in the data preparation, ")
            + "then prepare the rows, materialize again and collect (or score the stored responses again).",
    )]
