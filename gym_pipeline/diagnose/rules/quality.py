"""Steps 5-6 of the debug order, for runs that may have completed: data faults only the rows show
(see `row_quality`). A profile of such a run is well formed and wrong."""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.data_preparation import label_source
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding, model_url_of, path_of, plural, profile_command
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.row_quality import (
    ACCOUNTING,
    CURRENCY,
    DECIMAL_COMMA,
    FORMULA,
    HTML_ENTITY,
    ORDINAL,
    PERCENTAGE,
    SCIENTIFIC,
    TEXT_FORMULA,
    RowQuality,
    labels_of_other_tasks,
    labels_one_row_off,
)
from gym_pipeline.diagnose.rules.data_rows import chat_template_in_prompts, prompts_ending_with_an_assistant_turn
from gym_pipeline.diagnose.rules.hand_split_tables import rows_cut_at_quoted_commas
from gym_pipeline.diagnose.rules.prep_losses import questions_lost_or_cut
from gym_pipeline.diagnose.rules.stale_tasks import GENERAL_NUMBER_FORMAT
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile, lines_matching
from gym_pipeline.diagnose.verifier_source import answer_keyed_grade_caches, extraction_reading, verify_lines
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, CONFIG, DATA_SCHEMA, INFRA, MODEL_SERVING, VERIFIER_RUNTIME

UNEXTRACTED_MIN_ROWS = 3
WRONG_SCORED_FULL_SHARE = 0.3  # of the scored rollouts
PROFILE_MISMATCH_MIN_TASKS = 2
ONE_ANSWER_MIN_ROWS = 10
MASKED_MIN_ROWS = 3
ONE_ANSWER_SHARE = 0.8  # of the scored rollouts giving one answer, to tasks expecting at least ...
ONE_ANSWER_MIN_EXPECTED = 3  # ... this many different answers
UNEXTRACTED_SHARE = 0.2  # of the scored rollouts: beyond a few odd answers
OTHER_INPUTS_SHARE = 0.1  # of the rollouts compared with their materialized rows


def rule_shared_task_index(ev: Evidence) -> list[Finding]:
    """Rows of different tasks under one `_ng_task_index`."""
    a = ev.artifacts
    shared = a.quality.shared_task_indices
    if not shared:
        return []
    file = a.rel(a.materialized.path)
    evidence = []
    for example in a.quality.shared_examples[:2]:
        evidence += [EvidenceLine(file=file, line=example.first_line, text=f"task {example.task}: {example.first_prompt!r}"),
                     EvidenceLine(file=file, line=example.line, text=f"task {example.task} again, another prompt: "
                                                                    f"{example.prompt!r}")]
    tasks = ", ".join(str(t) for t in sorted(shared)[:5]) + (", ..." if len(shared) > 5 else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{len(shared)} task {'index' if len(shared) == 1 else 'indices'} ({tasks}) hold different prompts: "
              "rows of different tasks share `_ng_task_index`",
        evidence=evidence,
        cause="Gym keys a task by `_ng_task_index`, and rows that carry one keep it when materialized: datasets "
              "concatenated with their own numbering (each from 0) give one index to two tasks. Per-task statistics, "
              "pass@k and the repeat-level metrics then mix unrelated tasks, and a resume matches rollouts to the "
              "wrong task.",
        fix=f"Give every task its own `_ng_task_index`: remove the field from the source rows so materialization "
            f"numbers them (or renumber the second part after the first), then materialize again "
            f"({path_of(a.materialized)}) and collect on a clean output path.",
    )]


SAME_PROMPT_MIN_TASKS = 4
SAME_PROMPT_SHARE = 0.75  # of the tasks, holding one prompt: the questions never reached the prompts
# a template's placeholder left in a prompt: `{question}`, `{{question}}`, `<QUESTION>`, `$question`, `%(question)s`
_PLACEHOLDER = re.compile(r"\{\{?\s*[A-Za-z_]\w*\s*\}\}?|<[A-Z][A-Z_]{2,}>|\$\{?[a-z_]{3,}\}?\b|%\([a-z_]+\)s")


def one_prompt_for_most_tasks(ev: Evidence) -> tuple[int, int, str] | None:
    """(tasks sharing it, the first line, its text) when most tasks have one and the same prompt."""
    prompts = ev.artifacts.quality.prompt_of_task
    if len(prompts) < SAME_PROMPT_MIN_TASKS:
        return None
    (digest, count), = Counter(digest for digest, _, _ in prompts.values()).most_common(1)
    if count < SAME_PROMPT_SHARE * len(prompts):
        return None
    line, text = min((line, text) for d, line, text in prompts.values() if d == digest)
    return count, line, text


def rule_one_prompt_for_most_tasks(ev: Evidence) -> list[Finding]:
    """Most tasks have one and the same prompt: the rows were built without their question (a template that was not
    filled, the wrong column taken), so the model answers nothing it was asked."""
    shared = one_prompt_for_most_tasks(ev)
    if shared is None:
        return []
    count, line, text = shared
    a = ev.artifacts
    placeholder = _PLACEHOLDER.search(text)
    builder = next(lines_matching(ev.user_files, re.compile(re.escape(placeholder.group(0)))), None) \
        if placeholder else None
    unfilled = (f" It holds the template's placeholder `{placeholder.group(0)}`: the template was never filled (a "
                "Python string without its f prefix or `.format()`, a Jinja template not rendered, a variable empty "
                "in the shell)." if placeholder else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{count} of {len(a.quality.prompt_of_task)} tasks have one and the same prompt"
              + (f", holding the placeholder `{placeholder.group(0)}`" if placeholder else ""),
        evidence=[EvidenceLine(file=a.rel(a.materialized.path), line=line, text=f"the prompt of {count} tasks: {text!r}"),
                  *([EvidenceLine(file=builder[0].name, line=builder[1], text=builder[2].strip())] if builder else [])],
        cause="The tasks differ by their expected answers only: the questions never reached the prompts, so the model "
              "answers something it was not asked and the scores measure nothing." + unfilled,
        fix=f"Fix {builder[0].name if builder else 'the script that builds the rows'} so each prompt holds its own "
            "question (fill the template: "
            "`f\"{question} ...\"` or `template.format(question=...)`), check a few built rows by eye, then materialize "
            f"again and collect; the materialized rows: {path_of(a.materialized)}.",
    )]


_TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".xls", ".ods")
_INT_OF = re.compile(r"\bint\(\s*(?:float\(|round\()?")
CUT_PROMPTS_MIN_TASKS, CUT_PROMPTS_SHARE, CUT_PROMPTS_MIN_LENGTH = 3, 0.25, 30
_ENDS_A_SENTENCE = re.compile(r"[.?!:;)\]}\"'>*`]\s*$")


def _tables(ev: Evidence) -> list[str]:
    """The spreadsheet and table files of the run folder (or one folder down): where labels are often edited."""
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    found = [*ev.run_dir.glob("*"), *ev.run_dir.glob("*/*")]
    return sorted(ev.rel(path) for path in found if path.suffix.lower() in _TABLE_SUFFIXES and path.is_file())[:3]


def rule_labels_truncated_to_integers(ev: Evidence) -> list[Finding]:
    """Answers scored 0 that are decimal numbers whose integer part is the expected answer: the labels lost their
    fractional part (`int(float(x))` in a tidying script, an integer column)."""
    a = ev.artifacts
    quality = a.quality
    if quality.truncated_labels < MISSCORED_MIN_ROWS or quality.truncated_label_example is None:
        return []
    script = next(lines_matching(ev.user_files, _INT_OF, {".py"}), None)
    where = f" {script[0].name}:{script[1]} does it: `{script[2].strip()}`." if script else ""
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.truncated_labels} answers scored 0 are decimals whose integer part is their `expected_answer`: "
              "the labels were cut to integers",
        evidence=[quality.truncated_label_example,
                  *([EvidenceLine(file=script[0].name, line=script[1], text=script[2].strip())] if script else [])],
        cause="The answers are right (`273.15` where the label says `273`, `0.83` where it says `0`): the labels lost "
              "their fractional part when the data was built (`int(float(x))`, an integer column, a number format "
              "without decimals), so every task with a decimal answer scores 0." + where,
        fix=f"Keep the labels as written in the source ({script[0].name if script else 'the script that tidies them'}: "
            "`str(x)`, or `float(x)` where a number is needed, never `int()`), build the data again and check a "
            f"decimal label by eye; then materialize again and collect. The materialized rows: {path_of(a.materialized)}.",
    )]


FIRST_CHARACTER_MIN_LABELS = 3  # distinct one-character labels: one or two are a coincidence (`C` for `Carbon`)
_INDEXED_LABEL = re.compile(r"expected_answer[\"']?\]?\s*[:=][^#\n]*\[0\]")  # `"expected_answer": x[0]`, `row[...] = x[0]`


def rule_labels_cut_to_their_first_character(ev: Evidence) -> list[Finding]:
    """Answers scored 0 whose `expected_answer` is their first character alone (`C` for `Canberra`): the data's
    script took `[0]` of a label that was a string, not the list of accepted answers it expected."""
    a = ev.artifacts
    quality = a.quality
    labels = quality.first_character_labels
    if len(labels) < FIRST_CHARACTER_MIN_LABELS or quality.first_character_example is None:
        return []
    script = next(lines_matching(ev.user_files, _INDEXED_LABEL, {".py"}), None)
    shown = ", ".join(f"`{label}`" for label in sorted(labels)[:5])
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{labels.total()} answers scored 0 begin with their `expected_answer`, which is one character "
              f"({shown}): the labels were cut to their first character",
        evidence=[quality.first_character_example,
                  *([EvidenceLine(file=script[0].name, line=script[1], text=script[2].strip())] if script else [])],
        cause="The answers are right (`Canberra` where the label says `C`): the labels are one character, the first of "
              "the answer. Indexing a string gives its first character, so a script taking the first accepted answer "
              "(`item[\"answers\"][0]`) from an export that writes a single answer as a plain string, not a list of "
              "one, keeps a letter; only one-character answers and tasks with a list keep a real label."
              + (f" {script[0].name}:{script[1]} does it: `{script[2].strip()}`." if script else ""),
        fix=f"Take the whole answer when the field is a string ({script[0].name if script else 'in the data script'}: "
            "`answers = item[\"answers\"]`, then `answers if isinstance(answers, str) else answers[0]`), build the "
            "data again and check a few labels by eye; then materialize again and collect. The materialized rows: "
            f"{path_of(a.materialized)}.",
    )]


def rule_labels_read_as_dates(ev: Evidence) -> list[Finding]:
    """Expected answers that are dates (`4-Mar`) where the answers are fractions (`3/4`) or symbols of a month and a
    number (the gene `SEPT2` as `2-Sep`): a spreadsheet read them."""
    a = ev.artifacts
    quality = a.quality
    if quality.date_labels < MISSCORED_MIN_ROWS or quality.date_label_example is None:
        return []
    tables = _tables(ev)
    pair = re.search(r"expected_answer='(?P<expected>[^']*)' extracted_answer='(?P<extracted>[^']*)'",
                     quality.date_label_example.text)
    example = f"`{pair['extracted']}` written `{pair['expected']}`" if pair else "`3/4` written `4-Mar`"
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.date_labels} answers scored 0 whose `expected_answer` is the date a spreadsheet made of them "
              f"({example}): a spreadsheet turned the labels into dates",
        evidence=[quality.date_label_example],
        cause="The labels went through a spreadsheet (Excel, LibreOffice, Google Sheets), which reads `3/4` as the 4th "
              "of March and writes it back as `4-Mar`, and a symbol of a month and a number (the genes `SEPT2`, "
              "`MARCH1`) as that day of the month (`2-Sep`): no answer can match, so those tasks score 0 "
              f"({example})." + (f" Table files in the run folder: {', '.join(tables)}." if tables else ""),
        fix=f"Fix the labels at their source ({', '.join(tables) if tables else 'the spreadsheet they went through'}; "
            f"{example}): "
            "format the column as text before typing or importing (or prefix the values with `'`), or build the data "
            "from the original file without a spreadsheet; then materialize again and collect. The materialized "
            f"rows: {path_of(a.materialized)}.",
    )]


_ROMAN = re.compile(r"^(?=[MDCLXVI])M{0,3}(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})$")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def _roman_value(numeral: str) -> int:
    values = [_ROMAN_VALUES[letter] for letter in numeral]
    return sum(-value if value < after else value for value, after in zip(values, [*values[1:], 0], strict=True))


def rule_labels_in_roman_numerals(ev: Evidence) -> list[Finding]:
    """Expected answers written in Roman numerals (`XV`) where the answers are the same number in digits (`15`): an
    answer key written the way historians write centuries and regnal numbers."""
    missed = [answer for answer in ev.graded_answers if answer.reward < 1 and _ROMAN.match(answer.expected.strip())
              and answer.extracted.strip().isdigit()
              and int(answer.extracted.strip()) == _roman_value(answer.expected.strip())]
    if len(missed) < MISSCORED_MIN_ROWS:
        return []
    first = missed[0]
    a = ev.artifacts
    tables = _tables(ev)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{len(missed)} answers scored 0 give in digits the number their `expected_answer` writes in Roman "
              f"numerals ({first.extracted.strip()!r} for {first.expected.strip()!r})",
        evidence=[EvidenceLine(file=ev.rel(a.files.rollouts), line=first.line,
                               text=f"reward={first.reward:g} expected_answer={first.expected!r} "
                                    f"extracted_answer={first.extracted!r}")],
        cause="The labels write the numbers in Roman numerals (a history answer key's centuries and regnal numbers), "
              "while the questions ask for a number and the model answers in digits: the right answers never match "
              "their label, and those tasks score 0."
              + (f" Table files in the run folder: {', '.join(tables)}." if tables else ""),
        fix=f"Write the labels (`expected_answer`) as the questions ask for them, in digits, at their source "
            f"({', '.join(tables) if tables else 'the answer key'}: `XV` as `15`; the roman numerals only where the "
            "question asks for them), build the data again, then materialize and collect. The materialized rows: "
            f"{path_of(a.materialized)}.",
    )]


# per display format: what the sheet did to the labels, and how the column must be formatted instead
_FORMATS = {
    SCIENTIFIC: ("shows a long number in a narrow column in scientific notation, rounded to a few digits",
                 "as text or as a whole number (no `E+` in the file)"),
    PERCENTAGE: ("formats the column as Percentage, which shows 0.25 as 25%",
                 "as plain numbers (General or Number, not Percentage, so no `%` is written)"),
    ACCOUNTING: ("formats the column as Accounting, which shows a negative number in parentheses",
                 "as plain numbers (General or Number, not Accounting, which writes a negative number in parentheses)"),
    CURRENCY: ("formats the column as Currency, which adds the currency sign and the cents",
               "as plain numbers (General or Number, not Currency: no currency sign)"),
    ORDINAL: ("shows the numbers as ordinals (a custom `0\"th\"` format, or a sheet's ordinal style), 3 as 3rd",
              "as plain numbers (General or Number: no ordinal suffix)"),
    FORMULA: ("computes the answers with formulas and was exported showing them ('Show formulas' on, or cells read "
              "without their computed values), so the cells' formula text was written",
              "as values, the formulas' results (turn 'Show formulas' off; openpyxl's `load_workbook(data_only=True)` "
              "reads the values)"),
    TEXT_FORMULA: ("keeps the leading zeros of codes by writing them as text formulas",
                   "as text (a Text-formatted column keeps the leading zeros without a formula), or strip the "
                   "formula's wrapper where the data is built (`=\"007\"` to `007`)"),
    DECIMAL_COMMA: ("was exported in a locale that writes decimals with a comma (German, French: 3,5 for 3.5)",
                    "with a decimal point, not a decimal comma (export it in an English locale)"),
}


def rule_labels_in_a_spreadsheets_display_format(ev: Evidence) -> list[Finding]:
    """Expected answers that are the answers' numbers as a spreadsheet displays them (`3.2E+07` for 31536000, `25%`
    for 0.25, `(8)` for -8, `$120.00` for 120): the label column was exported as the sheet showed it."""
    a = ev.artifacts
    quality = a.quality
    if not quality.formatted_labels:
        return []
    shown_as, count = quality.formatted_labels.most_common(1)[0]
    if count < MISSCORED_MIN_ROWS:
        return []
    example, label, answer = quality.formatted_label_examples[shown_as]
    did, instead = _FORMATS[shown_as]
    tables = _tables(ev)
    source = ", ".join(tables) if tables else "the spreadsheet the labels came from"
    prep = _data_script_and_export(ev) if shown_as == DECIMAL_COMMA else None
    if shown_as == SCIENTIFIC and (written := _written_with_the_general_format(ev, example, label, answer, count)):
        return [written]
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{count} answers scored 0 are numbers whose `expected_answer` writes them in a spreadsheet's "
              f"{shown_as} format ({label!r} for {answer})",
        evidence=[example],
        cause=f"The labels went through a spreadsheet that {did}, and its export wrote the numbers as shown ({label} "
              f"for {answer}): no exact answer equals them, so every such task scores 0."
              + (f" Table files in the run folder: {source}." if tables else ""),
        fix=f"Export the labels again from {source} with the answer column formatted {instead}: `{answer}`, not "
            f"`{label}`; or build the data from the original numbers"
            + (f" (or, in {prep[0].name}, turn the decimal comma into a point as it reads {prep[1]})" if prep else "")
            + ". Check a few labels (`expected_answer`) by eye, then materialize "
            f"again and collect. The materialized rows: {path_of(a.materialized)}.",
    )]


def _written_with_the_general_format(ev: Evidence, example: EvidenceLine, label: str, answer: str,
                                     count: int) -> Finding | None:
    """Labels in exponent notation that a program of the run wrote with the general format (`%g`, `:g`), which keeps
    six significant digits and writes an exponent past them: that line, not a spreadsheet."""
    found = next(((file, number, line.strip()) for file, number, line, _ in
                  lines_matching(ev.user_files, GENERAL_NUMBER_FORMAT, SCRIPT_SUFFIXES | {".py"})
                  if not line.lstrip().startswith("#")), None)
    if found is None:
        return None
    file, number, line = found
    return Finding(
        category=DATA_SCHEMA,
        title=f"{count} answers scored 0 are numbers whose `expected_answer` {file.name}:{number} wrote with the "
              f"general format, `%g` or `:g` ({label!r} for {answer})",
        evidence=[example, EvidenceLine(file=file.name, line=number, text=line)],
        cause=f"{file.name}:{number} writes the labels with the general number format (`%g`, `:g`), which keeps six "
              f"significant digits and writes an exponent past them: {answer} became {label}. No exact answer equals "
              "such a label, so every such task scores 0; every command exits 0.",
        fix=f"In {file.name} (line {number}, `{line}`), write the numbers in full (`str(x)`, `f\"{{x:d}}\"` for whole "
            f"numbers, or `:.15g`) instead of `%g`/`:g`, so that `expected_answer` is `{answer}`, not `{label}`; "
            f"then build the data again, materialize and collect. The materialized rows: "
            f"{path_of(ev.artifacts.materialized)}.",
    )


_UNQUOTED_YES_NO = re.compile(r"^\s*-?\s*[\w-]+\s*:\s*(?:yes|no|on|off|y|n)\s*(?:#.*)?$", re.I)


_UNQUOTED_CLOCK_TIME = re.compile(r"^\s*-?\s*[\w-]+\s*:\s*\d{1,2}:[0-5]\d(?::[0-5]\d)?\s*(?:#.*)?$")


def rule_clock_time_labels_read_as_base_60(ev: Evidence) -> list[Finding]:
    """Expected answers that are whole numbers where the answers are clock times (`870` for 14:30): a YAML sheet gave
    the times unquoted, and a YAML 1.1 loader (PyYAML's `safe_load`) read them as base-60 (sexagesimal) integers."""
    a = ev.artifacts
    quality = a.quality
    if quality.sexagesimal_labels < MISSCORED_MIN_ROWS or quality.sexagesimal_example is None:
        return []
    sheet = next(lines_matching(ev.user_files, _UNQUOTED_CLOCK_TIME, {".yaml", ".yml"}), None)
    named = f"{sheet[0].name}:{sheet[1]} (`{sheet[2].strip()}`)" if sheet else "the YAML the labels come from"
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.sexagesimal_labels} clock-time answers scored 0 against whole-number labels: the times were "
              "read from YAML as base-60 integers (`14:30` -> 870)",
        evidence=[quality.sexagesimal_example,
                  *([EvidenceLine(file=sheet[0].name, line=sheet[1], text=sheet[2].strip())] if sheet else [])],
        cause=f"{named} gives a clock time unquoted, and YAML 1.1 (PyYAML's `safe_load`) reads `14:30` as the "
              "sexagesimal (base-60) integer 14 * 60 + 30 = 870: the script writing the data made that number the "
              "label, which no time given as an answer equals, so every such task scores 0.",
        fix=f"Quote the times in {sheet[0].name if sheet else 'the YAML sheet'} (`q9: \"14:30\"`: unquoted, YAML 1.1 reads them as sexagesimal numbers), or load it with "
            "a YAML 1.2 loader that keeps them as text (ruamel.yaml); then build the data again, materialize again "
            f"and collect. The materialized rows: {path_of(a.materialized)}.",
    )]


def rule_yes_no_labels_read_as_booleans(ev: Evidence) -> list[Finding]:
    """Expected answers `True`/`False` where the answers are yes/no: a YAML sheet gave the answers unquoted, and a YAML
    1.1 loader (PyYAML's `safe_load`) read `yes` and `no` as booleans."""
    a = ev.artifacts
    quality = a.quality
    if quality.boolean_labels < MISSCORED_MIN_ROWS or quality.boolean_label_example is None:
        return []
    sheet = next(lines_matching(ev.user_files, _UNQUOTED_YES_NO, {".yaml", ".yml"}), None)
    named = f"{sheet[0].name}:{sheet[1]} (`{sheet[2].strip()}`)" if sheet else "the YAML the labels come from"
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.boolean_labels} yes/no answers scored 0 against `expected_answer` True/False: the labels were "
              "read from YAML as booleans",
        evidence=[quality.boolean_label_example,
                  *([EvidenceLine(file=sheet[0].name, line=sheet[1], text=sheet[2].strip())] if sheet else [])],
        cause=f"{named} gives the answer unquoted, and YAML 1.1 (PyYAML's `safe_load`) reads yes, no, on and off as "
              "true and false: the script writing the data turned them into `True`/`False`, which no yes/no answer "
              "equals, so every such task scores 0.",
        fix=f"Quote the yes/no answers in {sheet[0].name if sheet else 'the YAML sheet'} (`answer: \"yes\"`), or load "
            "it with a YAML 1.2 loader that keeps them as text (ruamel.yaml); then build the data again, materialize "
            f"again and collect. The materialized rows: {path_of(a.materialized)}.",
    )]


# where an appended instruction starts: a capital after the whitespace that opens the shared end, or after a sentence
_SENTENCE_START = re.compile(r"^\s+(?=[A-Z])|(?<=[.?!:])\s+(?=[A-Z])|\n+")


def _before_the_shared_end(quality: RowQuality, end: str) -> str:
    """A prompt's end without the instruction every prompt ends with (what the preparation appended). The shared
    end is taken from the first sentence it starts: templated questions (`...the letter C in the English alphabet?
    Answer with the number only.`) share the words after their slot too, which are the question's own."""
    shared = quality.prompt_suffix or ""
    start = _SENTENCE_START.search(shared)
    suffix = shared[start.start():] if start else ""
    return end[:-len(suffix)] if suffix and end.endswith(suffix) else end


def prompts_cut_at_one_length(ev: Evidence) -> tuple[int, int, int] | None:
    """(length, prompts of it, tasks) when many prompts are exactly one length and end mid-word: the length and the
    end are the question's, before an instruction every prompt ends with."""
    quality = ev.artifacts.quality
    tasks = sum(quality.prompt_lengths.values())
    if not quality.prompt_lengths:
        return None
    length, count = quality.prompt_lengths.most_common(1)[0]
    _, end = quality.prompt_length_examples[length]
    question_end = _before_the_shared_end(quality, end)
    cut_at = length - (len(end) - len(question_end))
    if cut_at < CUT_PROMPTS_MIN_LENGTH or count < max(CUT_PROMPTS_MIN_TASKS, CUT_PROMPTS_SHARE * tasks) \
            or not question_end.strip() or _ENDS_A_SENTENCE.search(question_end):
        return None
    return cut_at, count, tasks


def prompts_at_fault(ev: Evidence) -> bool:
    """The prompts themselves are broken (one prompt for most tasks, templated twice, cut at one length or at a
    quoted comma, questions cut or dropped by the prep script): what the model answers to them, however odd, is the
    data's fault (step 5)."""
    return (one_prompt_for_most_tasks(ev) is not None or chat_template_in_prompts(ev) is not None
            or prompts_cut_at_one_length(ev) is not None or prompts_ending_with_an_assistant_turn(ev) is not None
            or bool(rows_cut_at_quoted_commas(ev)) or questions_lost_or_cut(ev) is not None)


def rule_prompts_cut_at_one_length(ev: Evidence) -> list[Finding]:
    """Many prompts exactly one length, ending mid-word: a tool cut them (a database column, a spreadsheet cell)."""
    a = ev.artifacts
    cut = prompts_cut_at_one_length(ev)
    if cut is None:
        return []
    length, count, tasks = cut
    line, end = a.quality.prompt_length_examples[a.quality.prompt_lengths.most_common(1)[0][0]]
    question_end = _before_the_shared_end(a.quality, end)
    after = f", before the instruction every prompt ends with ({end[len(question_end):].strip()!r})" if question_end != end else ""
    tables = _tables(ev)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{count} of {tasks} prompts are exactly {length} characters long{after}{',' if after else ''} and end "
              "mid-sentence: they were cut",
        evidence=[EvidenceLine(file=a.rel(a.materialized.path), line=line, text=f"a prompt of {length} characters "
                               f"ending {question_end[-40:]!r}{after}")],
        cause=f"Prompts of one length that stop mid-word were cut by a tool on their way into the data (a database "
              f"column of {length} characters, a spreadsheet cell, an export with a width): the model is asked "
              "half a question, often without the instruction on how to answer, so those tasks score 0."
              + (f" Table files in the run folder: {', '.join(tables)}." if tables else ""),
        fix=f"Export the prompts again without the length limit ({', '.join(tables) if tables else 'the export'}: "
            "widen the column, or export from the original), check that no prompt is exactly that long, then "
            f"materialize again and collect. The materialized rows: {path_of(a.materialized)}.",
    )]


def _appending_writer(ev: Evidence) -> tuple[str, int, str, str] | None:
    """(file, line, text, data file) of a line of the user's scripts that opens the run's data file to append to it
    (`open("string_match.jsonl", "a")`, `>> data.jsonl`): each run adds its rows to the last run's."""
    source = ev.manifest.source
    if not source:
        return None
    name = re.escape(Path(source).name)
    appends = re.compile(rf"\bopen\([^)\n]*{name}[\"']\s*,\s*(?:mode\s*=\s*)?[\"']a\+?[\"']|>>\s*[\"']?\S*{name}\b")
    found = next(lines_matching(ev.user_files, appends), None)
    return (found[0].name, found[1], found[2].strip(), Path(source).name) if found else None


def _appended_rows(ev: Evidence, what: str, evidence: list[EvidenceLine]) -> list[Finding]:
    """The data's repeated or contradicting rows read as what they are: a prep appending to last run's data file."""
    appended = _appending_writer(ev)
    if appended is None:
        return []
    file, number, text, data = appended
    return [Finding(
        category=CACHE_RESUME,
        title=f"{file}:{number} opens {data} to append: {what}, the rows of earlier runs kept beside this one's",
        evidence=[EvidenceLine(file=file, line=number, text=text), *evidence],
        cause=f"`{text}` adds each run's rows to what {data} already holds instead of writing it anew, so the rows "
              "an earlier run wrote (with the labels it had then) stay in the data: questions are asked twice, "
              "and where a label was fixed since, one copy still expects the old answer.",
        fix=f"In {file}:{number}, write {data} anew instead of appending to it (`open(..., \"w\")` once, before the "
            "loop over the sheets, or "
            f"`>` for the first), rebuild it from the sheets, then materialize again and collect on a clean output "
            "path.",
    )]


def rule_conflicting_labels(ev: Evidence) -> list[Finding]:
    """The same prompt as two tasks expecting two different answers: the data contradicts itself."""
    a = ev.artifacts
    quality = a.quality
    if not quality.conflicting_prompts or quality.conflicting_example is None:
        return []
    file = a.rel(a.materialized.path)
    count = len(quality.conflicting_prompts)
    shown = [line.model_copy(update={"file": file}) for line in quality.conflicting_example]
    if appended := _appended_rows(ev, f"{plural(count, 'prompt')} with two different labels", shown):
        return [] if _repeated_tasks(quality) else appended  # the repeated tasks' finding already names the append
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{plural(count, 'prompt')} appear as two tasks with different `expected_answer`s",
        evidence=[line.model_copy(update={"file": file}) for line in quality.conflicting_example],
        cause="The data asks the same question twice and expects two different answers (two annotation batches or "
              "dataset versions merged, a label corrected in one copy only): whatever the model answers, one copy "
              "scores 0, so these tasks cap the mean reward and pass@k below what the model earns.",
        fix="Keep one row per prompt with the right `expected_answer` in the source data (find them: `jq -c "
            "'[.responses_create_params.input, .expected_answer]' <data.jsonl> | sort | uniq -c`), then materialize "
            f"again ({path_of(a.materialized)}) and collect on a clean output path.",
    )]


COPIED_MIN_QUESTIONS = 3
COPIED_SHARE = 0.9  # of the tasks, in groups of one size asking one question


def _copies_of_each_question(quality: RowQuality) -> tuple[int, list[int]] | None:
    """(copies, the tasks of one question) when (nearly) every question is asked by the same number k >= 2 of tasks,
    each expecting the same answer: the rows were written k times, one per sample, before Gym's repeats."""
    tasks_of_prompt: dict[int, list[int]] = {}
    for task, (digest, _, _) in quality.prompt_of_task.items():
        tasks_of_prompt.setdefault(digest, []).append(task)
    if not tasks_of_prompt:
        return None
    (copies, questions), = Counter(len(tasks) for tasks in tasks_of_prompt.values()).most_common(1)
    if copies < 2 or questions < COPIED_MIN_QUESTIONS or copies * questions < COPIED_SHARE * len(quality.prompt_of_task):
        return None
    if any(digest in quality.conflicting_prompts for digest in tasks_of_prompt):
        return None
    return copies, sorted(next(tasks for tasks in tasks_of_prompt.values() if len(tasks) == copies))


def rule_questions_written_once_per_sample(ev: Evidence) -> list[Finding]:
    """Every question written k times in the data (one row per sample, with a `sample_id`), collected with few
    repeats: Gym makes each copy a task of its own, so the profile holds k times the tasks, each with 1/k of the
    rollouts its pass@k and variance were meant to have."""
    a = ev.artifacts
    quality = a.quality
    copied = _copies_of_each_question(quality)
    if copied is None or a.materialized.path is None:
        return []
    copies, tasks = copied
    lines = {quality.prompt_of_task[task][1]: task for task in tasks[:2]}
    rows = [row for number, row in readable_rows(a.materialized.path, max(lines)) if number in lines]
    if len(rows) != 2:
        return []
    differing = sorted(name for name in set(rows[0]) | set(rows[1]) if not name.startswith("_ng_")
                       and rows[0].get(name) != rows[1].get(name))
    if not differing or "agent_ref" in differing:  # the same question for two environments is two tasks
        return []
    repeats = max(quality.rows_of_task.values())
    questions, total = len(quality.prompt_of_task) // copies, len(quality.prompt_of_task)
    fields = ", ".join(f"`{name}`" for name in differing)
    writer = next(lines_matching(ev.user_files, re.compile(rf"\b{re.escape(differing[0])}\b")), None)
    file = a.rel(a.materialized.path)
    copies_shown = [EvidenceLine(file=file, line=line, text=f"task {task}: "
                                 + ", ".join(f"{name}={row.get(name)!r}" for name in differing)
                                 + ", the same prompt and expected_answer")
                    for (line, task), row in zip(lines.items(), rows, strict=True)]
    return [Finding(
        category=DATA_SCHEMA,
        title=f"Each of {questions} questions is {copies} tasks: the data writes every row {copies} times (differing "
              f"in {fields}), so the profile counts {total} tasks of {plural(repeats, 'rollout')}",
        evidence=[*copies_shown, *([EvidenceLine(file=writer[0].name, line=writer[1], text=writer[2].strip())] if writer else [])],
        cause=f"Gym takes each input line to be one task and its `--num-repeats` rollouts to be that task's samples. "
              f"Rows written once per sample (a harness that sampled once per row) make each copy a task of its own: "
              f"the profile holds {total} tasks where there are {questions}, each with {plural(repeats, 'rollout')} "
              f"instead of {copies * repeats}, so pass@k, the per-task variance and the task counts are wrong, and "
              "every command exits 0.",
        fix=f"Write each question once ({'fix ' + writer[0].name + ':' + str(writer[1]) + ', ' if writer else ''}drop "
            f"{fields}) and ask Gym for the samples: `--num-repeats {copies * repeats}` (`num_repeats`), then "
            "materialize again and collect on a clean output path.",
    )]


MERGED_MAX_SHARE = 0.34  # of the tasks: a minority format
MERGED_MIN_TASKS = 2
# a field that says which environment's format a row has: (environment, what marks it)
FORMAT_OF_FIELD = {"options": ("mcqa", "options and a letter answer"), "task_input": ("a task folder", "task_input")}


def rule_rows_of_another_format(ev: Evidence) -> list[Finding]:
    """A few tasks whose rows have other fields than the rest, all scored 0 while the rest score: rows of another
    dataset (another environment's format) merged into this one, which this verifier cannot grade."""
    quality = ev.artifacts.quality
    formats: dict[frozenset[str], list[int]] = {}
    for task, fields in quality.fields_of_task.items():
        formats.setdefault(fields, []).append(task)
    if len(formats) < 2:
        return []
    ranked = sorted(formats.items(), key=lambda item: -len(item[1]))
    main_fields, main_tasks = ranked[0]

    def mean(tasks: list[int]) -> float | None:
        scored = sum(quality.scored_of_task.get(t, 0) for t in tasks)
        return sum(quality.reward_sum_of_task.get(t, 0.0) for t in tasks) / scored if scored else None

    main_mean, total = mean(main_tasks), len(quality.fields_of_task)
    for fields, tasks in ranked[1:]:
        extra, lacking = sorted(fields - main_fields), sorted(main_fields - fields)
        if not extra or len(tasks) < MERGED_MIN_TASKS or len(tasks) > MERGED_MAX_SHARE * total:
            continue
        if mean(tasks) != 0 or not main_mean:
            continue
        known = next((FORMAT_OF_FIELD[name] for name in extra if name in FORMAT_OF_FIELD), None)
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{len(tasks)} of {total} tasks are rows of another format (with {', '.join(extra)}"
                  + (f"; without {', '.join(lacking)}" if lacking else "") + "), and all of them score 0",
            evidence=[EvidenceLine(file=ev.rel(ev.artifacts.materialized.path), text=f"tasks {sorted(tasks)[:8]}: "
                                   f"fields {sorted(fields)}; the other {len(main_tasks)} tasks: {sorted(main_fields)}")],
            cause=f"Most rows share one set of fields and score a mean of {main_mean:.2f}; these have other fields "
                  + (f"({known[0]}'s format: {known[1]}) " if known else "")
                  + "and score 0 every time: rows of another dataset merged into this one (two exports "
                    "concatenated), which this environment's verifier cannot grade.",
            fix="Move those rows to the dataset of the environment whose format they have"
                + (f" ({known[0]})" if known else "")
                + " or convert them to this one's fields, then materialize again and collect on a clean output path.",
        )]
    return []


def _repeated_tasks(quality: RowQuality) -> dict[int, int]:
    """{task: times} of the tasks materialized k times as often as the others."""
    counts = quality.rows_of_task
    if len(counts) < 2:
        return {}
    repeats = min(counts.values())
    heavy = {task: count // repeats for task, count in counts.items() if count > repeats and count % repeats == 0}
    # most tasks at the higher count are the run's repeats, and the few below them were cut short (a shard, a split)
    return heavy if len(heavy) * 2 <= len(counts) else {}


def rule_repeated_tasks(ev: Evidence) -> list[Finding]:
    """Tasks materialized k times as often as the others: the same row appears k times in the data."""
    a = ev.artifacts
    counts = a.quality.rows_of_task
    heavy = _repeated_tasks(a.quality)
    if not heavy:
        return []
    repeats = min(counts.values())
    tasks = ", ".join(f"{task} (x{times})" for task, times in sorted(heavy.items())[:5]) + (", ..." if len(heavy) > 5 else "")
    source = ev.manifest.source or "the source data"
    shown = [EvidenceLine(file=a.rel(a.materialized.path), text=f"{len(counts)} tasks: {repeats} rows each, except "
                          f"{tasks}")]
    if appended := _appended_rows(ev, f"{plural(len(heavy), 'task')} appear more than once", shown):
        return appended
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{plural(len(heavy), 'task')} of {len(counts)} appear more than once in the data: {tasks}",
        evidence=shown,
        cause=f"Gym materializes every data row and gives identical rows one task index, so a row repeated in the data "
              f"(a bad merge or concatenation) gets k x {repeats} rollouts: those tasks weigh k times in the mean "
              "reward, and pass@k and the per-task statistics count repeats that are not independent samples.",
        fix=f"Remove the duplicate rows from {source} (`sort data.jsonl | uniq -d` shows them; keep one of each), "
            "then materialize again and collect on a clean output path.",
    )]


def rule_crossed_environments(ev: Evidence) -> list[Finding]:
    """Rows made for one environment's agent, scored by another environment's server."""
    a = ev.artifacts
    crossed = a.quality.crossed_environments
    if not crossed or crossed.total() * 2 < a.rollouts.valid_rows or a.quality.crossed_example is None:
        return []
    (agent, server), count = crossed.most_common(1)[0]
    env, scored_by = agent.removesuffix("_agent").removesuffix("_simple"), server.split("_environment_server")[0]
    return [Finding(
        category=CONFIG,
        title=f"{plural(count, 'rollout')} of `{agent}` rows were scored by `{server}`: the collection ran with "
              f"another environment",
        evidence=[a.quality.crossed_example],
        cause=f"The rows were materialized for `{agent}` (environment `{env}`), but the collection sent them to "
              f"`{server}`: the environment (`--env`, the sweep's environment, or the agent given to `gym eval run`) "
              f"does not match the data, so that environment's verifier reads fields these rows do not have.",
        fix=f"Collect the rows with their own environment (`--env {env}`, or `--agent {agent}` for `gym eval run`), "
            f"or materialize the `{scored_by}` data for `{scored_by}`; then collect again on a clean output path.",
    )]


# a YAML value that YAML 1.1 reads as a boolean: `answer: no`, `- yes`
_YAML_BOOLEAN_WORD = re.compile(r"(?::|^\s*-)\s+(?i:yes|no|on|off|y|n)\s*(?:#.*)?$")


def rule_verifier_refuses_row_values(ev: Evidence) -> list[Finding]:
    """Most failed rows failed because the verifier could not take a value of the row itself."""
    a = ev.artifacts
    refused = a.quality.refused_fields
    if not refused or refused.total() * 2 < a.failed_rollouts:
        return []
    name, count = refused.most_common(1)[0]
    rollouts = path_of(a.rollouts)
    labels = a.quality.expected_not_option_example
    not_labels = (f" The rows' expected answers are not their options' labels ({labels.text}): write each as the "
                  "option's letter (`B`), not its index or text." if name == "expected_answer" and labels else "")
    example = a.quality.refused_examples[name].text
    yaml_words = next(lines_matching(ev.user_files, _YAML_BOOLEAN_WORD, {".yaml", ".yml"}), None) \
        if re.search(r"\bbool\b|='(?:True|False)'", example) else None
    from_yaml = (f" The values are booleans, and {yaml_words[0].name}:{yaml_words[1]} writes one as a bare word "
                 f"(`{yaml_words[2].strip()}`): YAML 1.1 (PyYAML) reads yes/no/on/off/y/n as true/false. Quote them "
                 f"in {yaml_words[0].name} (`answer: \"no\"`), or load it as YAML 1.2 (ruamel.yaml), then convert "
                 "again." if yaml_words else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"The verifier refused the rows' own `{name}` on {plural(count, 'rollout')}",
        evidence=[a.quality.refused_examples[field] for field, _ in refused.most_common(2)],
        cause=f"The verifier's failure reason names the row's field `{name}` and quotes its value: the rows give a value "
              "it cannot grade (the data is wrong, not the verifier), so they come back as failures and leave the "
              "statistics.",
        fix=f"Correct `{name}` in the source data to the form the failure reason asks for, then materialize again and "
            f"collect those tasks. The failed rows: `jq -c 'select(.failure_kind != null) | {{_ng_task_index, "
            f"failure_reason}}' {rollouts}`; their `{name}` is in {path_of(a.materialized)}." + not_labels + from_yaml,
    )]


def rule_unextracted_answers(ev: Evidence) -> list[Finding]:
    """Answers scored 0 although the extracted text holds the expected answer: the extraction keeps too much."""
    a = ev.artifacts
    quality = a.quality
    count, scored = quality.unextracted_answers, quality.scored_rows
    if count < UNEXTRACTED_MIN_ROWS or count < UNEXTRACTED_SHARE * scored or quality.unextracted_example is None:
        return []
    head = f"{count} of {scored} scored answers got reward 0 while their extracted text holds the expected answer"
    common = (" The profile's rewards measure the extraction, not the model.")
    if quality.unextracted_whole * 2 > count:  # most "extracted" answers are the whole response: nothing was extracted
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"{head}: the verifier compares the whole response, not an answer extracted from it",
            evidence=[quality.unextracted_example],
            cause=f"{quality.unextracted_whole} of these extracted answers are the model's whole response, its "
                  "reasoning and all: the verifier compares that text with the expected answer instead of the answer "
                  "the response gives, so every answer wrapped in any text scores 0." + common,
            fix="Make the verifier extract the answer before comparing it, where the prompts ask for it (\\boxed{}, "
                "'Final answer: ...', the last line; the rows' `extraction_mode` says which), check it on one of these "
                f"rows without a model, then score the stored responses again: `gym-pipeline reverify {ev.run_dir} "
                "--env <env>`.",
        )]
    if quality.extraction_settings:
        (setting, value), rows = quality.extraction_settings.most_common(1)[0]  # of the materialized rows
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{head}: the rows' `{setting}` ({value!r}) extracts more than the answer",
            evidence=[quality.unextracted_example],
            cause=f"The verifier compares the expected answer with what the rows' `{setting}` ({value!r}, on {rows} "
                  f"materialized rows) cuts out of the response, and that keeps text around the answer the prompts ask for."
                  + common,
            fix=f"Set `{setting}` in the source rows to how each prompt asks for its answer (\\boxed{{}}, "
                "'Final answer: ...', the last line), then materialize again and collect (or score the stored "
                "responses again).",
        )]
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{head}: the verifier's extraction keeps more than the answer",
        evidence=[quality.unextracted_example],
        cause="The verifier compares the expected answer with an extracted text that still holds words around it, so "
              "correct answers score 0." + common,
        fix="Make the verifier extract the answer in the form the prompts ask for (\\boxed{}, 'Final answer: ...', "
            "'Answer: X'), or ask for the form it extracts; then score the stored responses again.",
    )]


SUMMED_TERMS_MAX = 2.0  # rewards up to this (or below 0) are a score with terms added, not a score on another scale


_LAST_LINE_SETTING = re.compile(r"last|final|answer_line|end", re.IGNORECASE)


def rule_last_line_answers_scored_zero(ev: Evidence) -> list[Finding]:
    """Responses ending with the expected answer, scored 0 by a verifier that keeps no extracted answer: it reads
    the answer from another place than the one the responses (and the prompts) put it."""
    quality = ev.artifacts.quality
    count, scored = quality.last_line_answers_scored_zero, quality.scored_rows
    if count < UNEXTRACTED_MIN_ROWS or count < UNEXTRACTED_SHARE * scored or quality.last_line_example is None:
        return []
    if bounded := _word_bounded_label(ev):  # the verifier's own line says which answers it cannot match
        return [_labels_matched_as_patterns(quality, bounded, count)]
    head = f"{count} of {scored} scored rollouts got reward 0 while their response's last line holds the expected answer"
    # the setting of the rows that were missed, when their materialized rows say; else the rows' most common one
    settings = quality.last_line_failed_settings or quality.extraction_settings
    setting = settings.most_common(1)[0] if settings else None
    # the rows tell the verifier where to look, and they say elsewhere: a setting that names the last line or the
    # final answer is right, and so is one whose form the missed answers were given in (\boxed{} for `boxed`); a
    # verifier that still misses the answer is the verifier's fault
    followed = bool(quality.last_line_failed_settings) and \
        quality.last_line_followed_setting * 2 > len(quality.last_line_failed)
    if setting is not None and not _LAST_LINE_SETTING.search(setting[0][1]) and not followed:
        (setting, value), rows = setting
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{head}: the rows' `{setting}` ({value!r}) looks elsewhere",
            evidence=[quality.last_line_example],
            cause=f"The verifier extracts the answer the way the rows' `{setting}` ({value!r}, on {rows} materialized "
                  "rows) says, and the responses give it where their prompts ask ('Final answer: ...' on the last "
                  "line): the setting does not fit the prompts, so correct answers score 0.",
            fix=f"Set `{setting}` in the source rows to how each prompt asks for its answer (or change the prompts), "
                "then materialize again and collect, or score the stored responses again.",
        )]
    if quality.last_line_failed_settings and not followed:
        return []  # the answers missed are not in the form their rows ask for ('I think it is X.'): the model's misses
    if (stale := _code_changed_since_scoring(ev, head)) is not None:
        return [stale]
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=head,
        evidence=[quality.last_line_example],
        cause="The responses give the expected answer on their last line, where the prompts ask for it ('Final "
              "answer: ...'), and the verifier scored them 0: it takes the answer from somewhere else (the first "
              "line, the whole text, another pattern), so correct answers score 0 and the profile measures the "
              "verifier, not the model.",
        fix="Make the verifier read the answer where the responses give it (the last line, after 'Final answer:'; "
            "where the rows carry an `extraction_mode`, the mode each row names, not one fixed pattern; "
            "a pattern applied with `re.match`, anchored at the start of the response, must use `re.search`), "
            "check it on one of these rows without a model (print the answer it extracted beside the expected one: "
            "a character lost or kept shows there), then score the stored responses again, no model needed: "
            f"`gym-pipeline reverify {ev.run_dir} --env <env>` (add `--gym` for a run of NeMo Gym's own resources "
            f"server), and profile: {profile_command(ev)}.",
    )]


def _code_changed_since_scoring(ev: Evidence, head: str) -> Finding | None:
    """Answers scored 0 that the verifier's code, as the run folder holds it now, reads right: the server that scored
    them ran other code (started before the last edit of its file, which a running server never reads again)."""
    quality = ev.artifacts.quality
    if quality.last_line_pair is None or quality.last_line_example is None:
        return None
    expected, last_line = quality.last_line_pair
    reading = extraction_reading(ev.verifier_sources, ev.run_dir, last_line)
    if reading is None or reading[3].strip() != expected.strip():
        return None
    file, number, line, extracted = reading
    return Finding(
        category=CACHE_RESUME,
        title=f"{head}, and the verifier's code as it is now reads them right: the run was scored by code from before "
              f"its last edit",
        evidence=[quality.last_line_example, EvidenceLine(file=file, line=number, text=line)],
        cause=f"{file}:{number} (`{excerpt(line, 100)}`) takes {extracted!r} from the last line "
              f"{excerpt(last_line, 60)!r}, the expected answer, yet the run scored it 0: the server that scored the "
              "run was not running this code. A resources server loads its code once, when it starts (`gym env "
              "start`), so an edit made while it runs (a verifier fixed between two evals) reaches no rollout until "
              "the server starts again.",
        fix=f"Restart the servers so they load {Path(file).name} as it is now: stop the running `gym env start` "
            "(Ctrl-C, or `kill` its process group) and start it again; then score the stored responses again, no model "
            f"needed (`gym-pipeline reverify {ev.run_dir} --env <env>`, `--gym` for a Gym resources server), or run "
            "`gym eval run` again into a fresh folder, and profile.",
    )


MISSCORED_MIN_ROWS = 2


def _reward_constant(ev: Evidence, value: float) -> tuple[str, int, str, str] | None:
    """(file, line, text, name) of a module-level constant of the verifier set to `value` (`WRONG_ANSWER_REWARD =
    -1.0`): where a reward outside [0, 1] comes from."""
    constant = re.compile(rf"^(?P<name>[A-Z][A-Z0-9_]*)\s*(?::\s*float\s*)?=\s*{re.escape(f'{value:g}')}(?:\.0*)?\s*(?:#.*)?$")
    return next(((shown, number, line.strip(), match["name"]) for shown, number, line in ev.verifier_lines
                 if (match := constant.match(line))), None)


def rule_rewards_out_of_range(ev: Evidence) -> list[Finding]:
    """Rewards beyond [0, 1]: the verifier's scale is not the one profiles, pass@k and comparisons assume."""
    quality = ev.artifacts.quality
    if not quality.out_of_range or quality.out_of_range_example is None:
        return []
    low, high = quality.reward_range
    shown = [quality.out_of_range_example]
    assumed = ("Gym's profile, pass@k (which counts a reward of 1 as solved) and any comparison with other runs assume "
               "rewards in [0, 1], so every statistic of this run is on the wrong scale.")
    then = "; then score the stored responses again or collect again, and profile."
    if low < 0 or high <= SUMMED_TERMS_MAX:
        # a little past 1, or below 0: terms added to the correctness score (a bonus, a penalty), not another scale
        cause = (f"The verifier's reward runs from {low:g} to {high:g}: it adds terms to the correctness score (a "
                 "format or length bonus, a penalty subtracted), so a well-formatted wrong answer can score as much "
                 "as a correct one and the reward no longer says whether the task was solved. " + assumed)
        fix = ("Keep the bonus (a format bonus, a length bonus) or penalty out of `reward`: return the correctness "
               "score in [0, 1] as `reward` and the other terms as fields of their own (or weight the terms so they "
               "sum to at most 1)" + then)
        if penalty := _reward_constant(ev, low):
            file, number, text, name = penalty
            shown.append(EvidenceLine(file=file, line=number, text=text))
            cause += (f" {file}:{number} `{text}` is that value: `verify` gives it for a wrong answer (a penalty kept "
                      "from an RL recipe's reward shaping).")
            fix = (f"In {file}:{number}, set `{name} = 0.0`, the reward of a wrong answer on the eval's scale (keep "
                   f"the penalty in the training recipe's own verify)" + then)
    else:
        cause = "The verifier returns rewards on another scale (a percentage, a raw score): " + assumed
        fix = ("Make the verifier's `verify` return its `reward` in [0, 1] (divide a percentage by 100, normalize a "
               "score by its maximum)" + then)
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{quality.out_of_range} of {quality.scored_rows} rewards lie outside [0, 1] (from {low:g} to {high:g})",
        evidence=shown,
        cause=cause,
        fix=fix,
    )]


_WORD_BOUNDARY = re.compile(r"\\b[\"']?\s*\+\s*re\.escape\(|\\b\{|re\.escape\([^)]*\)\s*\+\s*r?[\"']\\\\?b")


def _word_bounded_label(ev: Evidence) -> tuple[str, int, str] | None:
    """(file, line, text) of a line of the verifier that wraps the escaped label in word boundaries."""
    return next(iter(verify_lines(ev.verifier_sources, ev.run_dir, _WORD_BOUNDARY)), None) if ev.run_dir else None


def _labels_matched_as_patterns(quality, bounded: tuple[str, int, str] | None, zero: int | None = None) -> Finding:
    """Answers equal to labels holding regular-expression characters scored 0, plain ones 1: the verifier matches the
    label as a pattern; or answers equal to their label scored 0 where `bounded`, a line of the verifier, wraps the
    label in word boundaries (`\\b`), which never match after a symbol (`C++`, `C#`)."""
    if bounded is not None:
        file, number, text = bounded
        return Finding(
            category=VERIFIER_RUNTIME,
            title=f"{zero or quality.matching_scored_zero} answers equal to their label got 0: {file}:{number} "
                  "wraps the label in word boundaries (`\\b`), which never match after a symbol",
            evidence=[quality.matching_example or quality.last_line_example, EvidenceLine(file=file, line=number,
                                                                                          text=text)],
            cause=f"`\\b` is a word boundary: it matches between a word character and a non-word one. {file}:{number} "
                  f"(`{text}`) puts one after the escaped label, so a label that ends in a symbol (`C++`, `C#`, `F#`) "
                  "needs a word character right after it, and the answer that is exactly the label never matches "
                  "(re.search finds nothing); plain labels score.",
            fix=f"In {file} (line {number}), compare the answer with the label as text (`answer.strip().lower() == "
                "label.lower()`, so that `C++` matches `C++`), or, for `re.search`, bound the label by whitespace or "
                "the string's ends instead of a word boundary (`\\b`): `(?<!\\S)` + re.escape(label) + `(?!\\S)` in "
                "verify; then score the stored responses again and profile.",
        )
    return Finding(
        category=VERIFIER_RUNTIME,
        title=f"{quality.matching_scored_zero} answers equal to labels holding regular-expression characters got "
              f"0, while {quality.matching_scored_one} equal to plain labels got 1: the verifier matches labels "
              "as patterns",
        evidence=[quality.matching_example],
        cause="Every answer scored 0 although equal to its label has a label with characters that mean something "
              "in a regular expression (`+`, `*`, `(`, `$`, `.`), and every plain one scored: the verifier uses "
              "`expected_answer` as a pattern (`re.fullmatch(expected_answer, answer)`), so `C++` or `(3, 4)` "
              "never match themselves and `*` raises `re.error` (those rollouts fail).",
        fix="Compare the label as text in the verifier (`answer == expected_answer`), or escape it when labels "
            "may be patterns (`re.fullmatch(re.escape(expected_answer), answer)`, keeping real patterns in a "
            "field of their own); then score the stored responses again and profile.",
    )


def _grades_cached_by_answer(quality, file: str, number: int, text: str, cache: str, key: str) -> Finding:
    """Right answers scored 0 by a verifier that keeps each answer's first grade in a module-level dict keyed by the
    answer alone: an answer right for one row and wrong for another gets whichever grade it got first."""
    return Finding(
        category=VERIFIER_RUNTIME,
        title=f"{file}:{number} caches grades in `{cache}` keyed by `{key}`, the answer alone: "
              f"{quality.matching_scored_zero} answers equal to their expected answer got the 0 another row gave them",
        evidence=[EvidenceLine(file=file, line=number, text=text), quality.matching_example],
        cause=f"The verifier keeps each answer's first grade in the module-level `{cache}` and returns it for every "
              "later row with the same answer, whatever that row's expected answer: an answer wrong for one question "
              "and right for another (a city that is one country's largest and another's capital) keeps the grade of "
              "whichever row came first, so right answers score 0 (and wrong ones 1), and the rewards depend on the "
              "order the rows were graded in.",
        fix=f"In {file}, key the cache by the row's `expected_answer` as well as the answer (a tuple `(answer, "
            f"expected_answer)`, with any option that changes the grade), or drop `{cache}`: grading one string is "
            "cheap; then restart the servers, score the stored responses again and profile.",
    )


def _scoring_changed(quality) -> bool:
    """Every matching answer scored 0 comes before every one scored 1 in the file: two verifiers wrote it."""
    zero, one = quality.last_matching_zero, quality.first_matching_one
    return (quality.matching_scored_one >= MISSCORED_MIN_ROWS and zero is not None and one is not None
            and zero.file == one.file and (zero.line or 0) < (one.line or 0))


def _inverted(quality) -> bool:
    """Right answers all scored 0 and wrong ones scored 1: the reward says the opposite of correctness."""
    return (quality.matching_scored_zero >= MISSCORED_MIN_ROWS and quality.matching_scored_one == 0
            and quality.wrong_scored_full >= MISSCORED_MIN_ROWS and quality.wrong_scored_full_example is not None)


def rule_matching_answers_scored_zero(ev: Evidence) -> list[Finding]:
    """Answers exactly equal to the expected answer, scored 0: the verifier's comparison is wrong."""
    quality = ev.artifacts.quality
    if quality.matching_scored_zero < MISSCORED_MIN_ROWS or quality.matching_example is None:
        return []
    # the labels' kind, not the file's order, tells the scored-0 answers apart: checked before a change of verifier
    bounded = _word_bounded_label(ev)
    if bounded is not None or (quality.matching_zero_regex_chars == quality.matching_scored_zero
                               and quality.matching_scored_one and not quality.matching_one_regex_chars):
        return [_labels_matched_as_patterns(quality, bounded)]
    if ev.run_dir and (caches := answer_keyed_grade_caches(ev.verifier_sources, ev.run_dir)):
        return [_grades_cached_by_answer(quality, *caches[0])]
    if _scoring_changed(quality):
        return [Finding(
            category=CACHE_RESUME,
            title=f"Two verifiers scored this run: matching answers got 0 up to line {quality.last_matching_zero.line} "
                  f"and 1 from line {quality.first_matching_one.line} on",
            evidence=[quality.last_matching_zero, quality.first_matching_one],
            cause=f"{quality.matching_scored_zero} answers equal to their expected answer were scored 0, all of them "
                  "written before the first such answer scored 1: the verifier was fixed (or changed) during the run "
                  "and the collection continued (`--resume` keeps every row already written), so the rows before "
                  "the change keep the old verifier's rewards and the profile mixes the two.",
            fix="Score every row with one verifier: collect again on a clean output path without --resume (or score "
                "the stored responses again with the fixed verifier), then profile; after a verifier change, never "
                "--resume into the old rows.",
        )]
    if _inverted(quality):
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The verifier's reward is inverted: {quality.matching_scored_zero} answers equal to their expected "
                  f"answer got 0, and {quality.wrong_scored_full} answers unlike it got 1",
            evidence=[quality.matching_example, quality.wrong_scored_full_example],
            cause="Every right answer was scored 0 and wrong ones were scored 1: the verifier returns the opposite of "
                  "correctness (a mismatch or loss, `1 - score`, a `!=` for `==`), so a better model scores lower and "
                  "every comparison across checkpoints reads backwards.",
            fix="Make `verify` return reward 1 for a match and 0 for a miss (return the score, not the mismatch or "
                "loss, which is inverted); check it on one right and one wrong row without a model, then score the "
                "stored responses again and profile.",
        )]
    if (placeholder := _answer_taken_for_a_placeholder(ev, quality.matching_example)) is not None:
        return [placeholder]
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{quality.matching_scored_zero} answers exactly equal to their expected answer got reward 0",
        evidence=[quality.matching_example],
        cause="The extracted answer is the expected answer, character for character, and the verifier still scored "
              "it 0: its comparison or its reward is wrong (inverted, compared with another field, or a reward "
              "computed but not returned), so the run's rewards do not measure the model.",
        fix="Fix the verifier's `verify`: return reward 1 when the extracted answer matches the row's "
            "`expected_answer`, comparing values of one type with `==` (never `is`, which compares objects; a number "
            "parsed from the answer never equals the row's string: convert both alike), normalizing both sides alike "
            "(`.strip().lower()` on both, or on neither), and keep no state between calls (no label or answer "
            "cached in a global or on the class: every row brings its own); check it on one of these rows without a "
            "model, then score the stored responses again and profile.",
    )]


# a verifier's set of answers it refuses as placeholders: `{"na", "none", "null", "unknown"}`
_PLACEHOLDER_SET = re.compile(r"(?P<name>\w+)\s*=\s*[\[{(](?P<items>\s*[\"'][\w/ -]*[\"']\s*(?:,\s*[\"'][\w/ -]*[\"']\s*)+)"
                              r",?\s*[\]})]")
_PLACEHOLDER_WORDS = {"na", "n/a", "none", "null", "unknown", "tbd", "nan"}


def _answer_taken_for_a_placeholder(ev: Evidence, example: EvidenceLine | None) -> Finding | None:
    """A right answer the verifier refuses because, reduced the way it reduces answers, it reads as one of its
    placeholders (`Na`, sodium, read as `na` meant for `N/A`)."""
    expected = re.search(r"expected_answer='(?P<answer>[^']*)'", example.text) if example else None
    if expected is None:
        return None
    for shown, number, line in ev.verifier_lines:
        found = _PLACEHOLDER_SET.search(line)
        items = {item.strip().strip("\"'").lower() for item in found["items"].split(",")} if found else set()
        reduced = re.sub(r"[^a-z]", "", expected["answer"].lower())
        if len(items & _PLACEHOLDER_WORDS) < 2 or reduced not in items:
            continue
        return Finding(
            category=VERIFIER_RUNTIME,
            title=f"Right answers like {expected['answer']!r} scored 0: {shown}:{number} refuses them as "
                  f"the placeholder {reduced!r} ({found['name']})",
            evidence=[example, EvidenceLine(file=shown, line=number, text=line.strip())],
            cause=f"The verifier refuses answers that are placeholders ({found['name']}: "
                  f"{', '.join(sorted(items))}), compared after reducing the answer to its lower-case letters: "
                  f"{expected['answer']!r} reduces to {reduced!r}, which is in the set (meant for a placeholder "
                  "such as N/A), so a real answer scores 0 wherever it is the label.",
            fix=f"In {shown}:{number}, compare the answer as given with the placeholders (`N/A`, "
                f"`none`: `answer.strip().lower() in {{...}}` without dropping its other characters), or drop "
                f"{reduced!r} from {found['name']} when a label can be {expected['answer']!r}; then score the "
                "stored responses again and profile.",
        )
    return None


def rule_every_rollout_masked(ev: Evidence) -> list[Finding]:
    """The verifier masked every rollout while reporting no failure: nothing is left to score."""
    quality = ev.artifacts.quality
    if quality.masked_without_failure < MASKED_MIN_ROWS or quality.masked_without_failure < quality.rollouts_seen \
            or quality.masked_example is None:
        return []
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"The verifier masked all {quality.masked_without_failure} rollouts (mask_sample=True) with no failure",
        evidence=[quality.masked_example],
        cause="A masked rollout leaves the quality statistics (Gym's profile keeps it in the completion count only); "
              "the verifier set `mask_sample` on every answer, right or wrong, without a failure_kind, so the run "
              "has no score at all: a verifier left in a dry-run or debug mode, or a mask computed from the wrong "
              "field.",
        fix="Make `verify` return `mask_sample=False` for answers it scored (mask only what it could not judge, with a "
            "failure_kind saying why); check it on one row without a model, then re-score the stored answers and "
            "profile.",
    )]


def rule_expected_answers_not_options(ev: Evidence) -> list[Finding]:
    """Expected answers that are none of the row's option labels: no answer the model can give is ever right."""
    a = ev.artifacts
    quality = a.quality
    if quality.expected_not_option < MISSCORED_MIN_ROWS or quality.expected_not_option_example is None:
        return []
    example = quality.expected_not_option_example.model_copy(update={"file": a.rel(a.materialized.path)})
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.expected_not_option} rows expect an answer that is none of their options' labels",
        evidence=[example],
        cause="The verifier compares the model's chosen option label with `expected_answer`; an expected answer "
              "written another way than the labels (`(B)`, `B)`, the option's text) never matches, so every answer "
              "scores 0 and the run measures nothing.",
        fix="Write each row's `expected_answer` as one of its option labels, exactly: the option's letter (`B`), "
            "not its index, text or `(B)`, in the source data; then materialize again and collect on a clean output "
            "path.",
    )]


def rule_labels_holding_the_answer_marker(ev: Evidence) -> list[Finding]:
    """Answers scored 0 whose label is a whole answer line (`Final answer: Canberra`) around the very answer given:
    the labels were taken from graded outputs (a reference model's last line), not from the answers."""
    quality = ev.artifacts.quality
    if quality.labels_with_marker < MISSCORED_MIN_ROWS or quality.labels_with_marker_example is None:
        return []
    source = next(((file, number, line.strip(), match["column"]) for file, number, line, match
                   in lines_matching(ev.user_files, _LABEL_FROM_COLUMN) if not line.lstrip().startswith("#")), None)
    read_from = _data_given_to(ev, source[0].name) if source else None
    of_file = f" of {read_from}" if read_from else ""
    taken = (f" {source[0].name}:{source[1]} takes the label from the `{source[3]}` column{of_file}." if source else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.labels_with_marker} answers scored 0 are their label's answer: the labels hold whole answer "
              "lines (`Final answer: ...`), not answers" + (f" ({source[0].name}:{source[1]})" if source else ""),
        evidence=[quality.labels_with_marker_example,
                  *([EvidenceLine(file=source[0].name, line=source[1], text=excerpt(source[2]))] if source else [])],
        cause="Each row's `expected_answer` is an answer line as a model writes it (`Final answer: Canberra`), and the "
              "verifier compares the answer it extracts (`Canberra`) with all of it, so right answers score 0: the "
              "labels were taken from graded outputs (a reference model's final line) rather than from the answers."
              + taken,
        fix=(f"In {source[0].name}:{source[1]}, take the answer out of `{source[3]}`{of_file} (the text after "
             "`Final answer:`), "
             "or take the label from the column that holds the bare answer; " if source else
             "Write each `expected_answer` as the bare answer (drop the `Final answer:` prefix) in the source data; ")
            + f"then prepare the data, materialize again and collect (the materialized rows: "
            f"{path_of(ev.artifacts.materialized)}).",
    )]


def _data_given_to(ev: Evidence, script: str) -> str | None:
    """The data file a run script hands to the user's preparation script (`python3 prep_data.py graded.jsonl ...`)."""
    called = re.compile(rf"\b{re.escape(Path(script).name)}\s+[\"']?(?P<data>[^\s\"']+\.(?:jsonl|json|csv|tsv))\b")
    return next((match["data"] for _, _, _, match in lines_matching(ev.user_files, called)), None)


# `"expected_answer": item["reference_output"]`, `row["expected_answer"] = record["output"]`
_LABEL_FROM_COLUMN = re.compile(r"[\"']expected_answer[\"']\]?\s*[:=]\s*\w+\[[\"'](?P<column>\w+)[\"']\]")


def rule_labels_with_non_ascii_replaced(ev: Evidence) -> list[Finding]:
    """Answers scored 0 whose label is the answer with its accented letters written as `?` (San Jos? for San José):
    the labels went through an ASCII output with errors replaced, most often a Python whose stdout encoding the
    environment set (`PYTHONIOENCODING=ascii:replace`, a C locale)."""
    quality = ev.artifacts.quality
    if quality.non_ascii_replaced < MISSCORED_MIN_ROWS or quality.non_ascii_replaced_example is None:
        return []
    setting = next(((file, number, line.strip()) for file, number, line, _ in
                    lines_matching(ev.user_files, _ASCII_OUTPUT) if not line.lstrip().startswith("#")), None)
    evidence = [quality.non_ascii_replaced_example,
                *([EvidenceLine(file=setting[0].name, line=setting[1], text=setting[2])] if setting else [])]
    title = (f"{quality.non_ascii_replaced} answers scored 0 are their label with its accented letters, which the "
             "labels have as `?`")
    if setting is None:
        return [Finding(
            category=DATA_SCHEMA, title=title, evidence=evidence,
            cause="Each of these labels is the answer with every non-ASCII letter replaced by `?` (`San Jos?`): "
                  "the data went through an ASCII encoder that replaces what it cannot write, so right answers "
                  "score 0.",
            fix="Write the data as UTF-8 where it is made (`open(..., encoding='utf-8')`, `PYTHONIOENCODING=utf-8` "
                "for a script that prints it, a UTF-8 locale), then write it again, materialize and collect.",
        )]
    return [Finding(
        category=INFRA,
        title=f"{title}: {setting[0].name}:{setting[1]} sets the environment's output encoding to ASCII",
        evidence=evidence,
        cause=f"{setting[0].name}:{setting[1]} (`{setting[2]}`) makes every Python started from that environment "
              "write its output in ASCII, replacing what it cannot write with `?`: the preparation script that "
              "prints the rows wrote `San Jos?` for San José, so right answers score 0. The data and the script are "
              "right; the node's environment is not.",
        fix=f"`unset PYTHONIOENCODING` (or set it to utf-8) before preparing the data, or remove `{setting[2]}` from "
            f"{setting[0].name} for the eval's scripts (keep it only for the jobs that need it); write files with "
            "`open(..., encoding='utf-8')` rather than through stdout; then prepare the data again, materialize and "
            "collect.",
    )]


# an environment that makes Python's output ASCII: `export PYTHONIOENCODING=ascii:replace`, `LC_ALL=C` with no UTF-8
_ASCII_OUTPUT = re.compile(r"\bPYTHONIOENCODING=[\"']?(?:ascii|us-ascii|646)\b", re.IGNORECASE)


def rule_labels_with_float_noise(ev: Evidence) -> list[Finding]:
    """Answers scored 0 whose label is the same number with binary floating-point noise (`0.30000000000000004`): the
    labels were computed in floating point and written with `str()`."""
    quality = ev.artifacts.quality
    if quality.float_noise_labels < MISSCORED_MIN_ROWS or quality.float_noise_example is None:
        return []
    writer = next(((file, number, line.strip()) for file, number, line, _ in
                   lines_matching(ev.user_files, _LABEL_WRITTEN_WITH_STR, {".py"})), None)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.float_noise_labels} answers scored 0 are their label's number without its floating-point "
              "noise (`0.30000000000000004` for 0.3)" + (f": {writer[0].name}:{writer[1]} writes them" if writer else ""),
        evidence=[quality.float_noise_example,
                  *([EvidenceLine(file=writer[0].name, line=writer[1], text=excerpt(writer[2]))] if writer else [])],
        cause="The labels were computed in binary floating point and written as Python prints a float "
              "(`str(0.1 + 0.2)` is `0.30000000000000004`): the model's exact decimal answer never equals them, and "
              "the verifier, comparing text, scores right answers 0.",
        fix=(f"In {writer[0].name}:{writer[1]}, " if writer else "Where the labels are made, ")
            + "compute them exactly (`decimal.Decimal` from the numbers' text) or round them to the problem's decimals "
              "before writing (`round(value, 2)`, `f\"{value:g}\"`), never `str(float)`; then write the data again, "
              f"materialize and collect (the materialized rows: {path_of(ev.artifacts.materialized)}).",
    )]


def rule_labels_with_doubled_backslashes(ev: Evidence) -> list[Finding]:
    """Answers scored 0 whose label is the answer with each backslash doubled (`\\\\frac{1}{2}` for `\\frac{1}{2}`):
    a preparation escaped the backslashes itself before a JSON writer escaped them again."""
    quality = ev.artifacts.quality
    if quality.doubled_backslash_labels < MISSCORED_MIN_ROWS or quality.doubled_backslash_example is None:
        return []
    writer = next(((file, number, line.strip()) for file, number, line, _ in
                   lines_matching(ev.user_files, _BACKSLASHES_DOUBLED, {".py"})), None)
    where = f"{writer[0].name}:{writer[1]}" if writer else None
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.doubled_backslash_labels} answers scored 0 are their label with single backslashes: the labels "
              "hold every backslash twice" + (f" ({where} doubles them)" if writer else ""),
        evidence=[quality.doubled_backslash_example,
                  *([EvidenceLine(file=writer[0].name, line=writer[1], text=excerpt(writer[2]))] if writer else [])],
        cause="The labels read `\\\\frac{1}{2}` where the answer (and the answer key) has `\\frac{1}{2}`: a backslash was "
              "escaped by hand \"for JSON\" and then again by the JSON writer (`json.dumps` escapes every backslash "
              "itself), so the stored label has two. Every LaTeX answer scored 0; plain answers scored normally.",
        fix=(f"In {where}, drop the replace: `json.dumps` escapes each backslash itself, so the label needs none "
             "doubled by hand" if writer else "Where the labels are written, stop doubling each backslash by hand: "
             "`json.dumps` escapes it itself")
            + "; then write the data again (check one label: `python -c 'import json,sys; print(json.loads(next(sys.stdin))"
              "[\"expected_answer\"])' < <data>` shows one backslash), materialize and collect.",
    )]


# a preparation doubling the backslashes of a text by hand: `answer.replace("\\", "\\\\")`
_BACKSLASHES_DOUBLED = re.compile(r"""replace\(\s*(["'])\\\\\1\s*,\s*(["'])\\\\\\\\\2\s*\)""")


# a label written with `str()` of a computed value: `"expected_answer": str(OPS[op](a, b))`
_LABEL_WRITTEN_WITH_STR = re.compile(r"[\"']expected_answer[\"']\s*[:=]\s*(?:str|repr)\(")


# a preparation script changing the case of the labels: `.capitalize()`, `.title()`, `.lower()`, `tr A-Z a-z`
_RECASED = re.compile(r"(?=.*\b(?:expected_answer|label|answer)s?\b).*(?P<call>\.(?:capitalize|title|lower|upper|casefold)"
                      r"\(\)|\btr\s+['\"]?(?:\[:upper:\]|\[:lower:\]|A-Z|a-z))")


def rule_expected_answers_case_lost(ev: Evidence) -> list[Finding]:
    """Answers scored 0 only because the expected answer lost its case (`au` for `Au`, `Nacl` for `NaCl`) on
    case-sensitive rows; the line of the user's preparation script that re-cased the labels, when one did."""
    quality = ev.artifacts.quality
    if quality.case_lost < MISSCORED_MIN_ROWS or quality.case_lost_example is None:
        return []
    recased = next(((file, number, line.strip(), match["call"]) for file, number, line, match
                    in lines_matching(ev.user_files, _RECASED) if not line.lstrip().startswith("#")), None)
    where = (f" {recased[0].name}:{recased[1]} does it (`{recased[2]}`)." if recased else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.case_lost} answers scored 0 only for their case: the expected answers lost theirs"
              + (f" ({recased[0].name}:{recased[1]})" if recased else ""),
        evidence=[quality.case_lost_example, *([EvidenceLine(file=recased[0].name, line=recased[1], text=recased[2])]
                                               if recased else [])],
        cause="The answer is the expected answer with its capitals (`Au` for `au`, `NaCl` for `Nacl`), and the rows "
              "are compared case by case: the data's expected answers lost their case (a clean-up that lower-cased "
              "or capitalized the labels), so correct answers score 0." + where,
        fix=(f"Stop re-casing the labels in {recased[0].name}:{recased[1]} (drop its `{recased[3]}`: trim them, "
             "keep their case), or restore" if recased else "Restore")
            + " the case of `expected_answer` in the source data (chemical symbols, units, names), or set the "
            "rows' `case_sensitive: false` where case does not matter; then prepare the data, materialize again and "
            "collect on a clean output path (or re-score the stored answers).",
    )]


def _passes_everything(quality: RowQuality) -> bool:
    """Enough answers unlike their expected answer scored full to say the verifier does not compare at all."""
    # a lenient verifier (equivalent forms: `1/2` for `0.5`) passes a few such answers; a stub passes most
    share = quality.wrong_scored_full / max(quality.scored_rows, 1)
    return quality.wrong_scored_full >= MISSCORED_MIN_ROWS and share >= WRONG_SCORED_FULL_SHARE \
        and quality.wrong_scored_full_example is not None and not _inverted(quality)


def rule_wrong_answers_scored_full(ev: Evidence) -> list[Finding]:
    """Answers that have nothing of the expected answer, scored full reward: the verifier passes everything."""
    quality = ev.artifacts.quality
    if not _passes_everything(quality):
        return []
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{quality.wrong_scored_full} answers unlike their expected answer got full reward",
        evidence=[quality.wrong_scored_full_example],
        cause="The extracted answer neither holds the expected answer nor is the same number, and the verifier scored "
              "it 1: it does not compare at all (a placeholder `verify` returning a constant reward, a judge whose "
              "call is stubbed out, a comparison against the answer itself), so the run's rewards do not measure the "
              "model.",
        fix="Fix the verifier's `verify` so the reward comes from comparing the answer with `expected_answer` (a "
            "placeholder returning `reward=1.0` must not ship); check it on one of these rows without a model, then "
            "score the stored responses again and profile.",
    )]


CREDITED_OTHER_MIN_ROWS, CREDITED_OTHER_SHARE = 3, 0.1  # of the rollouts scored full


def rule_other_answers_credited(ev: Evidence) -> list[Finding]:
    """Answers marked as the answer (`\\boxed{Mercuryy}`) that are not their expected answer, scored full reward: the
    verifier credits answers that merely contain the label, or share a character with it."""
    quality = ev.artifacts.quality
    full = quality.scored_rows - quality.zero_rewards
    if quality.credited_other < max(CREDITED_OTHER_MIN_ROWS, CREDITED_OTHER_SHARE * full) \
            or quality.credited_other_example is None or _passes_everything(quality):
        return []
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{quality.credited_other} of {full} answers scored full are not their expected answer (the answer "
              "each response marks as its own differs)",
        evidence=[quality.credited_other_example],
        cause="The verifier credits answers that are not the label: one that contains it (`Mercuryy`, `Hydrogens`), "
              "one the label contains (`Pari` for `Paris`: a test `answer in expected_answer`), or one that shares "
              "some of its characters (a loop over a string label as if it were a list of accepted answers). The "
              "rewards are higher than what the model earned, and nothing fails.",
        fix="Make the verifier's `verify` compare the whole answer with the label (`==` after normalizing case and "
            "spacing, not `in`; a "
            "list of accepted answers only where the row gives a list), check it on these rows without a model, then "
            f"score the stored responses again: `gym-pipeline reverify {ev.run_dir} --env <env>`.",
    )]


def rule_wrapped_expected_answers(ev: Evidence) -> list[Finding]:
    """Answers scored 0 only because the data's expected answer carries markup the answers do not."""
    a = ev.artifacts
    quality = a.quality
    if quality.wrapped_expected < MISSCORED_MIN_ROWS or quality.wrapped_example is None:
        return []
    prep = _data_script_and_export(ev)
    stringified = _LIST_AS_TEXT.search(quality.wrapped_example.text) and next(
        lines_matching(ev.user_files, _STRINGIFIES, {".py"}), None)
    cited = _CITATION_KEPT.search(quality.wrapped_example.text)
    qualified = _QUALIFIER_KEPT.search(quality.wrapped_example.text)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.wrapped_expected} answers scored 0 differ from their `expected_answer` only by what surrounds "
              "it",
        evidence=[quality.wrapped_example],
        cause="The rows' `expected_answer` holds more than the answer: LaTeX, quotes or Markdown emphasis around it "
              "(`$36$`, `\\boxed{36}`, `**Oslo**`), a spreadsheet's leading apostrophe (`'6`, a cell kept as text), a "
              "sentence's full stop copied from an answer key (`Paris.`), or a note after it "
              "(`42 (6 x 7)`), while the verifier extracts the bare answer from the response: a correct answer never "
              "equals it." + (f" {prep[0].name} builds the rows from {prep[1]}." if prep else ""),
        fix=(f"{stringified[0].name}:{stringified[1]} (`{stringified[2].strip()}`) turns a list of answers into its "
             "Python text with str(): take the item (`answers[0]`), or keep every accepted answer in a list field "
             "the verifier reads. " if stringified else "")
            + (f"The labels keep the citation markers of the page they were copied from (`{cited['label']}`: "
               f"`{cited['marker']}` is a footnote reference, not part of the answer): remove every such marker "
               "(`re.sub(r\"\\[(?:\\d+|[a-z])\\]\", \"\", label)`). " if cited else "")
            + (f"The labels keep a title's parenthetical qualifier (`{qualified['label']}`: `{qualified['qualifier']}` "
               "tells a wiki article or catalogue entry apart from others of its name; the answer is "
               f"`{qualified['answer']}`): drop it (`re.sub(r\" \\([^)]*\\)$\", \"\", label)`), or accept both. "
               if qualified else "")
            + (f"In {prep[0].name}, strip the markup when reading {prep[1]}. " if prep else "")
            + "Keep only the answer in `expected_answer` in the source data"
            + (f" ({Path(ev.manifest.source).name})" if ev.manifest.source else "")
            + " (`$36$` -> `36`, `**Oslo**` -> `Oslo`, `'6` -> `6`, `Paris.` -> `Paris`, no full stop; `42 (6 x 7)` -> "
            "`42`, notes in a field of their own), then materialize again and collect (or score the stored "
            f"responses again); the materialized rows: {path_of(a.materialized)}.",
    )]


# a label ending in a title's disambiguating qualifier: `expected_answer='Georgia (country)'`, `Mercury (planet)`
_QUALIFIER_KEPT = re.compile(r"expected_answer=(?P<q>[\"'])(?P<label>(?P<answer>[^\"'(]*?) (?P<qualifier>\([a-z][^\"'()]*\)))"
                             r"(?P=q)")
# a label ending in a wiki table's citation marker: `expected_answer='Canberra[3]'`, `Nairobi[a]`
_CITATION_KEPT = re.compile(r"expected_answer=(?P<q>[\"'])(?P<label>[^\"']*?(?P<marker>\[(?:\d{1,3}|[a-z]|note \d+)\]))(?P=q)")
# the expected answer a list written as text (`expected_answer='['Lisbon']'`), and a data script's str() that does it
_LIST_AS_TEXT = re.compile(r"expected_answer=[\"']\[\s*[\"']")
_STRINGIFIES = re.compile(r"\bstr\(\s*\w+(?:\.get\(|\[)")
_READS_EXPORT = re.compile(r"\b(?P<export>[\w.-]+\.(?:csv|tsv|xlsx|xls|txt|md))\b")
_SHEETS = {".csv", ".tsv", ".xlsx", ".xls"}


def _data_script_and_export(ev: Evidence) -> tuple[UserFile, str] | None:
    """A user's data script and the export it reads: a file of the run folder it names (the answers' file first), or
    the folder's only spreadsheet export when the script reads CSV without naming it."""
    exports = sorted(p.name for p in ev.run_dir.iterdir() if p.suffix in _SHEETS | {".txt", ".md"}) \
        if ev.run_dir is not None and ev.run_dir.is_dir() else []
    sheets = [name for name in exports if Path(name).suffix in _SHEETS]
    for file in ev.user_files:
        if file.suffix != ".py" or not exports:
            continue
        named = sorted({m["export"] for m in _READS_EXPORT.finditer(file.text) if m["export"] in exports},
                       key=lambda name: "answer" not in name)
        if named or ("csv" in file.text and len(sheets) == 1):
            return file, (named or sheets)[0]
    return None


_NAMES_JSON = re.compile(r"\b(?P<export>[\w.-]+\.json)\b")
_JQ = re.compile(r"(?:^|[|;&(\s])jq\s")


def rule_integer_labels_rounded_through_a_double(ev: Evidence) -> list[Finding]:
    """Answers scored 0 whose whole-number label past 2^53 is the answer rounded through a 64-bit float
    (`1152921504606847000` for 2^60): the labels went through a JSON number read by JavaScript, or a float column."""
    a = ev.artifacts
    quality = a.quality
    count = sum(quality.rounded_integer_labels.values())
    if count < MISSCORED_MIN_ROWS:
        return []
    (label, answer), _ = quality.rounded_integer_labels.most_common(1)[0]
    reads = next((hit for hit in lines_matching(ev.user_files, _NAMES_JSON)
                  if ev.run_dir and (ev.run_dir / hit[3]["export"]).is_file()), None)
    source = f"{reads[3]['export']} (read by {reads[0].name}:{reads[1]})" if reads else \
        "the tool the labels were exported from"
    through_jq = reads is not None and _JQ.search(reads[2]) is not None
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{count} answers scored 0 are whole numbers past 2^53 whose `expected_answer` lost its last digits "
              f"({label!r} for {answer})",
        evidence=[quality.rounded_integer_examples[(label, answer)]],
        cause="The labels went through a 64-bit float: a JSON number exported by a JavaScript tool, a float column "
              "of pandas or a spreadsheet. A double holds whole numbers exactly only up to 2^53 "
              f"(9007199254740992), so longer ones keep their first 16 or 17 digits ({answer} became {label}); the "
              "verifier compares text, and the right answer never equals the rounded label."
              + (f" {reads[0].name}:{reads[1]} passes them through `jq` (`{excerpt(reads[2].strip(), 100)}`), which "
                 "before version 1.7 reads every JSON number as a double." if through_jq else ""),
        fix=f"Export the answers from {source} as a string (`\"{answer}\"`, not the JSON number {label}), and keep "
            "them as text in the data (`str()` of a number read as a string; pandas `dtype=str`"
            + ("; or read the export with Python's `json`, which keeps whole numbers exact, instead of jq 1.6" if through_jq
               else "") + "); then build the data "
            "again, materialize and collect (or score the stored responses again). The materialized rows: "
            f"{path_of(a.materialized)}.",
    )]


# labels computed as exact quotients: `Fraction(a, b)`
_FRACTION_MADE = re.compile(r"\bFraction\(")
# a table column made text after pandas read it: `str(row.answer_number)`, `str(row["answer_number"])`
_COLUMN_MADE_TEXT = re.compile(r"\bstr\(\s*\w+(?:\.(?P<attribute>\w+)|\[[\"'](?P<key>\w+)[\"']\])\s*\)")


def rule_numbers_written_otherwise_in_expected_answers(ev: Evidence) -> list[Finding]:
    """Answers scored 0 only because the data writes the expected number otherwise (`42.0` for 42)."""
    a = ev.artifacts
    quality = a.quality
    if quality.number_written_otherwise < MISSCORED_MIN_ROWS or quality.number_example is None:
        return []
    reader = next(iter(lines_matching(ev.user_files, _TABLE_READ_WITH_INFERRED_TYPES, {".py"})), None)
    read_with = (f" {reader[0].name}:{reader[1]} reads the table with `{reader[3].group(0).rstrip('(')}` and no "
                 "`dtype`: pandas infers the column's type, so `007` becomes 7 and a column with a gap turns 42 into "
                 "42.0." if reader else "")
    column = next(iter(lines_matching([reader[0]], _COLUMN_MADE_TEXT)), None) if reader else None
    if column is not None:
        name = column[3]["attribute"] or column[3]["key"]
        read_with += (f" {reader[0].name}:{column[1]} turns the column `{name}` into text (`{column[3].group(0)}`) "
                      "after pandas read it as float64 (a numeric column with a blank cell), so every whole number "
                      "in it reads `6.0`.")
    fraction = next(iter(lines_matching(ev.user_files, _FRACTION_MADE, {".py"})), None) \
        if "/" in quality.number_example.text else None
    if fraction is not None:
        reader = (fraction[0], fraction[1], fraction[2], fraction[3])
        read_with = (f" {fraction[0].name}:{fraction[1]} computes the labels as `Fraction`s, and `str()` of a "
                     "Fraction writes a quotient that is not whole as `7/2`, while the answers give it as a decimal "
                     "(`3.5`).")
    in_words = quality.numbers_in_words * 2 > quality.number_written_otherwise
    words = next(iter(lines_matching(ev.user_files, _NUMBER_WORDS_TABLE)), None) if in_words else None
    if words is not None:
        return [_number_words_turned_into_digits(ev, words)]
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.number_written_otherwise} answers scored 0 give the number their `expected_answer` holds, "
              "written otherwise",
        evidence=[quality.number_example,
                  *([EvidenceLine(file=reader[0].name, line=reader[1], text=reader[2].strip())] if reader else [])],
        cause=("The rows' `expected_answer` writes its numbers otherwise than the answers do: the verifier compares "
               "text, so a correct answer never equals it." if fraction else
               "The rows' `expected_answer` writes its numbers otherwise than the answers do (`42.0` for 42, `1,000` "
               "for 1000, `7` for 007), most often because the data went through a table whose column was read as "
               "numbers (pandas, a spreadsheet export): the verifier compares text, so a correct answer never equals "
               "it.") + read_with,
        fix=(f"In {fraction[0].name} (line {fraction[1]}), write each label as the decimal the question asks for "
             "(`str(float(quotient))`, or `format(quotient.numerator / quotient.denominator, 'g')`), not `str()` of the "
             "`Fraction` (`7/2`); " if fraction else
             f"In {reader[0].name}, read the table's columns as text (`{reader[3].group(0)}..., dtype=str)`"
             + (f", or at least `dtype={{'{column[3]['attribute'] or column[3]['key']}': str}}`" if column else "")
             + "), so the labels keep how the source writes them (not `42.0` for 42, as a float column gives them); "
             if reader else
             "Write `expected_answer` as the answers give it in the source data (`42.0` -> `42`: export the column as "
             "text or integers, `df['expected_answer'].astype('Int64').astype(str)`); ")
            + "then materialize again and collect (or score the stored responses again); the materialized rows: "
            f"{path_of(a.materialized)}.",
    )]


def _number_words_turned_into_digits(ev: Evidence, words: tuple[UserFile, int, str, re.Match[str]]) -> Finding:
    quality = ev.artifacts.quality
    file, number, line, match = words
    table = match["name"] or "a table of number words"
    return Finding(
        category=DATA_SCHEMA,
        title=f"{quality.numbers_in_words} answers scored 0 give their `expected_answer`'s number in words: "
              f"{file.name}:{number} turned the labels' words into digits ({table})",
        evidence=[quality.number_example, EvidenceLine(file=file.name, line=number, text=excerpt(line.strip()))],
        cause=f"The answers write the number in words, as the label did before {file.name} rewrote it: "
              f"{file.name}:{number} maps number words to digits ({table}), so the rows expect `8` where the answer "
              "is `eight`, and the verifier, comparing text, scores right answers 0.",
        fix=f"In {file.name}, keep the labels as the questions ask for them (do not apply {table} to "
            "`expected_answer`; make the digits for a dashboard in a column of their own), or have the verifier "
            "accept both spellings; then prepare the data, materialize again and collect (or score the stored "
            f"responses again); the materialized rows: {path_of(ev.artifacts.materialized)}.",
    )


# a table that maps number words to digits: `NUMBER_WORDS = {"one": "1", "two": "2", ...}`
_NUMBER_WORDS_TABLE = re.compile(r"^\s*(?:(?P<name>[A-Za-z_]\w*)\s*=\s*\{)?[^#\n]*[\"'](?:one|two|three|four|five|six|"
                                 r"seven|eight|nine|ten)[\"']\s*:\s*[\"']?\d")


# pandas reading a table with its types inferred (no `dtype=`): a label column of digits becomes numbers
_TABLE_READ_WITH_INFERRED_TYPES = re.compile(r"\b(?:pd|pandas)\.read_(?:csv|excel|table|json)\((?![^)\n]*\bdtype\s*=)")


SHIFTED_MIN_TASKS = 3
DISTINCT_LABELS_SHARE = 0.8  # of the tasks: with few labels (A-D, yes/no) a neighbour's label is often the answer
_HEADER_WORDS = frozenset({"expected_answer", "answer", "answers", "label", "labels", "target", "gold", "solution"})


def rule_labels_one_row_off(ev: Evidence) -> list[Finding]:
    """Answers scored 0 that are the expected answer of the neighbouring task: the labels sit one row off."""
    a = ev.artifacts
    quality = a.quality
    shift, tasks, other_way, examples = labels_one_row_off(quality)
    labels = quality.expected_of_task.values()
    rewarded = quality.scored_rows - quality.zero_rewards
    if len(tasks) < SHIFTED_MIN_TASKS or len(tasks) < 3 * other_way or rewarded >= len(tasks) \
            or len(set(labels)) < DISTINCT_LABELS_SHARE * len(labels):
        return []
    headers = sorted({f"task {task}: {answer!r}" for task, answer in quality.expected_of_task.items()
                      if answer.lower() in _HEADER_WORDS})
    header = (f" An expected answer is a column name ({', '.join(headers[:2])}): a header line was read as a label, "
              "which pushed every later label one row down." if headers else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"In {len(tasks)} tasks, answers scored 0 are the expected answer of the task "
              f"{'before' if shift < 0 else 'after'} theirs: the labels are one row off the prompts",
        evidence=examples,
        cause="Each of these answers is the label of the neighbouring task, so the answers are right and the labels "
              "are not theirs: the data was built by pairing prompts and labels by position (a join of two files, a "
              "table export), and one side has a row more or less (a header line, a dropped or blank row)." + header,
        fix="Rebuild the source data so each prompt gets its own `expected_answer`: join prompts and labels by an id, "
            "not by position, or drop the extra line (a CSV header: read it with `csv.DictReader`, or `tail -n +2`); "
            "check a few rows by eye, then materialize again and collect (or score the stored responses again); the "
            f"materialized rows: {path_of(a.materialized)}.",
    )]


# of the tasks whose answer is another task's label: most at one distance (and far more than at any other: wrong
# answers that happen to be some task's label scatter), the labels moved by it
SHIFT_SHARE, SHIFT_OVER_NEXT = 0.5, 3


# a data script that reorders one list (`sorted(set(...))`, `random.shuffle(x)`) and pairs lists by position (`zip`)
_REORDERS = re.compile(r"\bsorted\(|\bset\(|\.sort\(|\bshuffle\(|\bsample\(")


def _reorders_one_side(ev: Evidence) -> tuple[UserFile, int, str, re.Match[str]] | None:
    """The line of a user's Python data script that reorders a list the script later pairs by position."""
    return next((found for found in lines_matching(ev.user_files, _REORDERS, {".py"})
                 if "zip(" in found[0].text), None)


def rule_labels_of_other_tasks(ev: Evidence) -> list[Finding]:
    """Answers scored 0 that are the expected answer of another task, farther than the next one: the labels were
    sorted or shuffled apart from the prompts (or moved by several rows)."""
    a = ev.artifacts
    quality = a.quality
    _, neighbours, _, _ = labels_one_row_off(quality)
    tasks, shifts, examples = labels_of_other_tasks(quality)
    labels = quality.expected_of_task.values()
    rewarded_tasks = sum(1 for total in quality.reward_sum_of_task.values() if total > 0)
    if len(tasks) < SHIFTED_MIN_TASKS or len(tasks) <= rewarded_tasks or len(neighbours) * 2 >= len(tasks) \
            or len(set(labels)) < DISTINCT_LABELS_SHARE * len(labels) \
            or quality.matching_scored_zero >= len(tasks):  # more answers equal their own label: the scoring's fault
        return []
    (shift, at_shift), *others = shifts.most_common(2)
    moved = at_shift >= SHIFT_SHARE * len(tasks) and at_shift >= SHIFT_OVER_NEXT * sum(n for _, n in others)
    how = (f"most labels sit {abs(shift)} rows {'before' if shift < 0 else 'after'} their prompt" if moved else
           "the labels were reordered apart from the prompts (sorted or shuffled on one side)")
    reorders = _reorders_one_side(ev)
    where = (f" {reorders[0].name}:{reorders[1]} reorders one side before pairing (`{reorders[2].strip()}`), then "
             "zips it with the other by position." if reorders else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"In {len(tasks)} tasks, answers scored 0 are the expected answer of another task: the labels are not "
              f"paired with their prompts ({how})",
        evidence=[*examples, *([EvidenceLine(file=reorders[0].name, line=reorders[1], text=reorders[2].strip())]
                               if reorders else [])],
        cause="Each of these answers is another task's label, so the answers are right and the labels are not theirs: "
              f"the data was built by pairing prompts and labels by position, and {how}.{where} Only "
              f"{rewarded_tasks} tasks scored at all.",
        fix=(f"In {reorders[0].name}, do not reorder one side before `zip` (line {reorders[1]}: "
             f"`{reorders[2].strip()}`): de-duplicate or sort the (prompt, label) pairs together. " if reorders else "")
            + "Rebuild the source data so each prompt gets its own `expected_answer`: join prompts and labels by an id, "
            "not by position, and sort or shuffle whole rows, never one column; check a few rows by eye, then "
            f"materialize again and collect (or score the stored responses again); the materialized rows: "
            f"{path_of(a.materialized)}.",
    )]


def _decoded(entity: str) -> str:
    if entity == "&nbsp;":  # unescaped, a no-break space: no answer writes that either
        return "&nbsp; becomes a space (`.replace('\\xa0', ' ')` after `html.unescape`)"
    return f"{entity} becomes {html.unescape(entity)!r}"


def rule_html_entities_in_expected_answers(ev: Evidence) -> list[Finding]:
    """Expected answers holding HTML entities (`&nbsp;`), scored 0 in every rollout: labels scraped from a web page."""
    a = ev.artifacts
    quality = a.quality
    tasks = sorted(task for task, expected in quality.expected_of_task.items() if HTML_ENTITY.search(expected))
    if quality.entity_example is None or len(tasks) < MISSCORED_MIN_ROWS \
            or any(quality.reward_sum_of_task.get(task, 0) > 0 for task in tasks):
        return []
    example = quality.expected_of_task[tasks[0]]
    entities = sorted(set(HTML_ENTITY.findall(" ".join(quality.expected_of_task[task] for task in tasks[:50]))))
    label, exports = label_source(ev.user_files) or (None, [])
    where = "" if label is None else (f" {label.named()} takes the label as it is"
                                      + (f" from {', '.join(exports)}." if exports else "."))
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{len(tasks)} tasks' `expected_answer` hold HTML entities ({example!r}), and none of their rollouts "
              "scored",
        evidence=[quality.entity_example,
                  *([EvidenceLine(file=label.file.name, line=label.number, text=label.text.strip())] if label else [])],
        cause=f"The labels were taken from a web page or an HTML export without decoding it: `{example}` is "
              f"`{html.unescape(example)}` written as HTML.{where} No answer writes {' or '.join(entities[:3])}, so "
              f"correct answers on these tasks ({', '.join(map(str, tasks[:8]))}) score 0.",
        fix=(f"In {label.file.name} line {label.number}, decode the label it takes"
             + (f" from {', '.join(exports)}" if exports else "")
             + f": `html.unescape(...)` around what `{label.text.strip()}` takes, so {_decoded(entities[0])}; "
             if label else
             f"Decode the labels in the source data (`html.unescape(label).replace('\\xa0', ' ')` for each "
             f"`expected_answer`: {_decoded(entities[0])}); ")
            + "then materialize again and collect (or score the stored responses again); the "
            f"materialized rows: {path_of(a.materialized)}.",
    )]


def rule_invisible_characters_in_expected_answers(ev: Evidence) -> list[Finding]:
    """Answers scored 0 only because the data's expected answer holds characters that print as nothing."""
    a = ev.artifacts
    quality = a.quality
    if quality.invisible_expected < MISSCORED_MIN_ROWS or quality.invisible_example is None:
        return []
    label, exports = label_source(ev.user_files) or (None, [])
    named = ", ".join(f"{unicodedata.name(c, 'unnamed').lower()} U+{ord(c):04X}"
                      for c, _ in quality.invisible_chars.most_common(3))
    located = locate_named_file(ev.manifest.source, ev.run_dir) if ev.manifest.source else None
    source = ev.rel(located) if located else None
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.invisible_expected} answers scored 0 equal their `expected_answer` but for characters that "
              f"print as nothing ({named})",
        evidence=[quality.invisible_example],
        cause=f"The rows' `expected_answer` holds invisible characters ({named}), most often copied in from a web "
              "page (soft hyphens are a page's break hints) or a spreadsheet: the answer looks the same and never "
              "compares equal, so correct answers score 0.",
        fix=(f"In {label.file.name} line {label.number}, strip them from the label it takes"
             + (f" from {', '.join(exports)}" if exports else "")
             + ": `re.sub('[\\u200b\\u200c\\u200d\\u2060\\ufeff\\xad]', '', label)` around what "
             f"`{label.text.strip()}` takes; " if label else
             f"Remove the invisible characters ({named}) from `expected_answer` in {source or 'the source data'} "
             "(`grep -nP '[\\x{200b}\\x{200c}\\x{200d}\\x{2060}\\x{feff}\\x{ad}\\x{a0}]' "
             f"{source or '<data.jsonl>'}` finds the rows); ")
            + "then materialize again and collect (or score the stored responses again); the materialized rows: "
            f"{path_of(a.materialized)}.",
    )]


def rule_expected_answers_in_other_typography(ev: Evidence) -> list[Finding]:
    """Answers scored 0 that are their expected answer in plain typography, where the expected answer is not:
    labels written with a word processor's quotes and dashes, full-width or decomposed letters, doubled spaces."""
    a = ev.artifacts
    quality = a.quality
    if quality.typographic_expected < MISSCORED_MIN_ROWS or quality.typographic_expected_example is None:
        return []
    prep = _data_script_and_export(ev)
    scripts = sorted({unicodedata.name(c, "").split()[0] for c in quality.typographic_chars}
                     & {"CYRILLIC", "GREEK"})
    lookalikes = (f" The labels hold {' and '.join(name.capitalize() for name in scripts)} letters drawn like Latin "
                  "ones (an answer key ported from another language's benchmark): replace them in `expected_answer` "
                  "with the Latin letters (`grep -nP '[\\x{0370}-\\x{04FF}]'` finds the rows)." if scripts else "")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.typographic_expected} answers scored 0 are their `expected_answer` in plain typography: the "
              f"expected answers are written with other characters ({_characters(quality.typographic_chars)})",
        evidence=[quality.typographic_expected_example],
        cause="The labels were written or exported by a tool that changes typography (a word processor's `’` and "
              "`–`, a PDF's full-width digits, decomposed accents, doubled spaces): they look like the answers and "
              "never compare equal, so correct answers score 0.",
        fix=(f"In {prep[0].name}, normalize the labels it reads from {prep[1]}: " if prep else
             "Normalize `expected_answer` in the source data: ")
            + "`unicodedata.normalize(\"NFKC\", label)`, then replace `‘’“”` with ASCII quotes and `‐–—−` with `-`, and "
            "collapse spaces." + lookalikes + " Then materialize again and collect (or score the stored responses "
            f"again); the materialized rows: {path_of(a.materialized)}.",
    )]


# a clean-up that removes every space: `"".join(x.split())`, `x.replace(" ", "")`, `re.sub(r"\s+", "", x)`
_REMOVES_EVERY_SPACE = re.compile(r"""(?:''|"")\.join\(\s*[\w.\[\]"']+\.split\(\)\s*\)"""
                                  r"""|\.replace\(\s*(['"]) \1\s*,\s*(['"])\2\s*\)|re\.sub\(\s*r?(['"])\\s\+?\3\s*,\s*(['"])\4""")


def rule_expected_answers_without_spaces(ev: Evidence) -> list[Finding]:
    """Answers of several words scored 0 whose words glued together are their expected answer: labels cleaned by
    removing every space (`"".join(label.split())`), not only the stray ones; or joined by `_` or `-`: the labels
    were taken from a slug (an identifier or URL form of the answer: `New_Delhi`)."""
    a = ev.artifacts
    quality = a.quality
    if quality.despaced_labels < MISSCORED_MIN_ROWS or quality.despaced_label_example is None:
        return []
    if quality.despaced_joiner:
        return [_slug_labels(ev, quality.despaced_labels, quality.despaced_label_example, quality.despaced_joiner)]
    glue = next(iter(lines_matching(ev.user_files, _REMOVES_EVERY_SPACE, {".py"})), None)
    label, exports = label_source(ev.user_files) or (None, [])
    where = (glue[0].name, glue[1], glue[2].strip()) if glue else (
        (label.file.name, label.number, label.text.strip()) if label else None)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.despaced_labels} answers of several words scored 0 are their `expected_answer` with spaces "
              "between its words: the labels lost their spaces"
              + (f" ({where[0]}:{where[1]} removes every space)" if glue else ""),
        evidence=[quality.despaced_label_example,
                  *([EvidenceLine(file=where[0], line=where[1], text=where[2])] if where else [])],
        cause="The expected answers of several words have their words glued together (`NewDelhi`), most often by a "
              "clean-up meant for stray spaces that removes all of them (`''.join(label.split())`, `replace(' ', "
              "'')`): no answer writes them so, and correct answers to those tasks score 0 while one-word ones "
              "score.",
        fix=(f"In {where[0]} line {where[1]}, keep one space between the words of the `expected_answer` it makes"
             + (f" from {', '.join(exports)}" if exports else "")
             + ": `' '.join(label.split())` (or `.strip()`) collapses stray spaces without gluing words; "
             if where else "Restore the spaces between words in `expected_answer` in the source data (clean stray "
                           "spaces with `' '.join(label.split())`, not by removing them all); ")
            + "then materialize again and collect (or score the stored responses again); the materialized rows: "
            f"{path_of(a.materialized)}.",
    )]


_JOINER_NAMES = {"_": "underscores", "-": "hyphens"}


def _slug_labels(ev: Evidence, count: int, example: EvidenceLine, joiner: str) -> Finding:
    """Labels whose words are joined by `_` or `-`: a slug column (for URLs, file names, identifiers) taken for the
    answers, or a clean-up that replaced spaces."""
    joined = _JOINER_NAMES[joiner]
    replaces = re.compile(rf"""\.replace\(\s*(['"]) \1\s*,\s*(['"]){re.escape(joiner)}\2\s*\)|\bslug""", re.I)
    named = next(iter(lines_matching(ev.user_files, replaces, {".py", ".sh", ".sql", ".yaml", ".yml"})), None)
    return Finding(
        category=DATA_SCHEMA,
        title=f"{count} answers of several words scored 0 are their `expected_answer` with {joined} between the words "
              "instead of spaces: the labels are slugs, not the answers"
              + (f" ({named[0].name}:{named[1]})" if named else ""),
        evidence=[example, *([EvidenceLine(file=named[0].name, line=named[1], text=named[2].strip())] if named else [])],
        cause=f"The expected answers of several words are written with {joined} for spaces, the form a slug column "
              "keeps for URLs, file names and identifiers (or a clean-up that replaced the spaces): no answer writes "
              "them so, and correct answers to those tasks score 0 while one-word ones score.",
        fix=(f"In {named[0].name} line {named[1]}, take" if named else "Take")
            + f" `expected_answer` from the answer itself, not from its slug (a column kept for URLs and identifiers); "
            f"where only the slug exists, put the spaces back (replace the {joined[:-1]} `{joiner}` by a space). Then "
            f"materialize again and collect (or score the stored responses again); the materialized rows: "
            f"{path_of(ev.artifacts.materialized)}.",
    )


def _characters(counts: Counter[str]) -> str:
    """The characters plain typography would change, most frequent first, each with its Unicode name."""
    named = [f"{c!r} {unicodedata.name(c, f'U+{ord(c):04X}')}" for c, _ in counts.most_common(3)]
    return ", ".join(named) or "spacing, or accents written as two code points"


def rule_answers_in_other_typography_scored_0(ev: Evidence) -> list[Finding]:
    """Answers scored 0 that differ from their expected answer only in typography the answers use: a verifier
    comparing strings without normalizing them."""
    quality = ev.artifacts.quality
    if quality.typographic_answers < MISSCORED_MIN_ROWS or quality.typographic_answers_example is None:
        return []
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{quality.typographic_answers} answers scored 0 differ from their `expected_answer` only in "
              f"typography ({_characters(quality.typographic_chars)}): the verifier compares them without normalizing",
        evidence=[quality.typographic_answers_example],
        cause="The model wrote the expected answer with other characters for the same text (`’` for `'`, `–` for "
              "`-`, a full-width digit, an accent as two code points, two spaces), and the verifier compares the "
              "strings as they are: right answers score 0.",
        fix="In the verifier, compare normalized text: `unicodedata.normalize(\"NFKC\", s)`, ASCII quotes and dashes, "
            "single spaces, on both the answer and `expected_answer`; check it on one of these rows without a model, "
            f"then score the stored responses again: `gym-pipeline reverify {ev.run_dir} --env <env>`.",
    )]


def rule_answers_cut_by_the_extraction(ev: Evidence) -> list[Finding]:
    """Answers scored 0 that are the expected answer with a few characters cut from their ends: the verifier's
    extraction strips characters (`str.strip` with a string strips any of its characters, not the prefix)."""
    quality = ev.artifacts.quality
    count, scored = quality.cut_answers, quality.scored_rows
    if count < UNEXTRACTED_MIN_ROWS or count < UNEXTRACTED_SHARE * scored or quality.cut_example is None:
        return []
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{count} of {scored} answers scored 0 were extracted with characters cut off their ends (the "
              "response's answer, or the expected one): the verifier's extraction cuts into the answer",
        evidence=[quality.cut_example],
        cause="The extracted answers are what the responses answered (or the expected answers) short of a few "
              "letters at their start or end (`Amundsen` -> `Amund`): the verifier removes characters, not a prefix. `str.strip(\"Final answer:\")` (and "
              "`lstrip`, `rstrip`) removes any of the characters it is given from both ends, so answers ending in one "
              "of them lose it. The model answered right; the verifier scored it 0.",
        fix="In the verifier, remove the prefix itself: `text.removeprefix(\"Final answer:\").strip()` (or a regex "
            "such as `re.search(r\"Final answer:\\s*(.+)\", text)`) instead of `strip` with a string, and cut nothing else "
            "off the answer (no `[:-1]` for a period that may not be there); check it on one of these rows without a "
            f"model (print the extracted answer beside the expected one), then score the stored responses again: `gym-pipeline reverify {ev.run_dir} "
            "--env <env>`.",
    )]


def rule_rollouts_of_other_inputs(ev: Evidence) -> list[Finding]:
    """Rollouts that answered other prompts than the materialized rows of their keys: the two files are of two
    materializations (inputs made again after the rollouts, or rollouts copied from another run)."""
    a = ev.artifacts
    quality = a.quality
    count, compared = quality.other_prompt_rollouts, quality.prompts_compared
    if count < MISSCORED_MIN_ROWS or count < OTHER_INPUTS_SHARE * compared or quality.other_prompt_example is None:
        return []
    return [Finding(
        category=CACHE_RESUME,
        title=f"{count} of {compared} rollouts answered another prompt than the materialized row of their key",
        evidence=[quality.other_prompt_example],
        cause="The rollouts were collected on other inputs than the materialized rows beside them: the inputs were "
              "materialized again (edited or other data, other repeats) after the rollouts were written, or rollouts "
              "of another run were copied or appended here. Gym's resume and profile pair rows by (task, rollout) "
              "index only, so these rewards are counted for tasks they did not answer.",
        fix=f"Collect again on a clean output path with the current inputs ({path_of(a.materialized)}): move "
            f"{path_of(a.rollouts)} aside (a `--resume` keeps its rows), or restore the materialized inputs they "
            f"were collected on; then profile: {profile_command(ev)}.",
    )]


def rule_profile_of_other_tasks(ev: Evidence) -> list[Finding]:
    """A reward profile describing other tasks than the run's inputs: left from an earlier run in the folder."""
    quality = ev.artifacts.quality
    if not quality.profiled_other_tasks or quality.profiled_other_example is None:
        return []
    return [Finding(
        category=CACHE_RESUME,
        title=f"The reward profile describes other tasks: {quality.profiled_other_tasks} of {quality.profiled_tasks} "
              "profiled task indices hold another prompt than the materialized inputs",
        evidence=[quality.profiled_other_example],
        cause="The profile was written for an earlier run in this folder (Gym leaves the old profile files in place "
              "when a new run writes its rollouts), so its rewards, pass@k and per-task numbers are last run's.",
        fix=f"Profile the rollouts that are there now: {profile_command(ev)}; profile after every run written into "
            "the folder (or give each run its own output folder).",
    )]


def rule_profile_of_other_rewards(ev: Evidence) -> list[Finding]:
    """A reward profile whose per-task mean rewards are not those of the rollouts in the folder: made before they
    were collected again, resumed or scored again."""
    quality = ev.artifacts.quality
    if quality.profiled_other_tasks or quality.profiled_other_rewards < PROFILE_MISMATCH_MIN_TASKS \
            or quality.profiled_other_rewards_example is None:
        return []
    return [Finding(
        category=CACHE_RESUME,
        title=f"The reward profile is not of these rollouts: {quality.profiled_other_rewards} of "
              f"{quality.profiled_tasks} tasks have another mean reward in the profile than in the rollouts",
        evidence=[quality.profiled_other_rewards_example],
        cause="The profile was written before the rollouts it sits beside: they were collected again, resumed or "
              "scored again (`reverify`) afterwards, and the profile was not made again, so its rewards, pass@k and "
              "per-task numbers describe rollouts that are no longer there.",
        fix=f"Profile the rollouts that are there now: {profile_command(ev)}; profile again after every collection, "
            "resume or re-scoring (the sweep's `reward_profile` asset does it on its own).",
    )]


def rule_one_answer_to_every_task(ev: Evidence) -> list[Finding]:
    """The model gives the same answer to tasks that expect different ones, and every rollout scores 0: the weights
    served are not answering these prompts."""
    quality = ev.artifacts.quality
    if quality.scored_rows < ONE_ANSWER_MIN_ROWS or quality.zero_rewards < quality.scored_rows or not quality.answers:
        return []
    if prompts_at_fault(ev):
        return []  # one answer to one prompt, or to broken prompts: the data's fault (step 5)
    answer, count = quality.answers.most_common(1)[0]
    if count < ONE_ANSWER_SHARE * quality.scored_rows or len(quality.expected_answers) < ONE_ANSWER_MIN_EXPECTED:
        return []
    served = ev.hits("served_weights")
    return [Finding(
        category=MODEL_SERVING,
        title=f"The model answers {answer!r} to {count} of {quality.scored_rows} rollouts, whatever the task: every "
              "rollout scored 0",
        evidence=[quality.answer_examples[answer], *(hit.evidence() for hit in served[:1])],
        cause=f"Tasks expecting {len(quality.expected_answers)} different answers all got {answer!r}: the model is not "
              "answering these prompts at all. The usual cause is the weights served: another checkpoint or model "
              "than the run's (a path off by one folder, a server left running), a broken checkpoint, or a chat "
              "template that hides the question.",
        fix="Check which checkpoint the model server loaded (its log's checkpoint or `--model` path, `curl -s "
            f"{model_url_of(ev)}/models`) and serve this run's checkpoint; send one prompt by hand to see it answer; "
            "then collect again on a clean output path and profile.",
    )]
