"""Step 5: tasks whose labels are older than the source table beside them: a cache of the data preparation.

A prep step that converts the labelling team's sheet (questions.csv, quiz.jsonl) into tasks often keeps its result
to save time: a shelve or a folder keyed by the sheet's path, a fingerprint of its first kilobyte, a task store that
`INSERT OR IGNORE`s questions it already holds. The sheet is fixed (a label corrected, questions added), the key does
not change, and the tasks keep last week's labels: the model's right answers to the fixed questions score 0, and
every command exits 0. Named when the run folder holds a source table that the run's scripts read, whose rows give
some of the tasks' questions another label (a few only: a prep that transforms every label is a data fault, not a
cache); an older copy of the sheet kept beside it is no source.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.row_quality import message_texts
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, DATA_SCHEMA

_MAX_TASKS = 5000
_MAX_SOURCE_BYTES = 16 << 20
_MIN_QUESTION = 12  # characters of a source value taken for a question
_MAX_LABEL = 60
_COMMIT_KEY = re.compile(r"\brev-parse\b")  # a cache keyed on the checkout's commit
# what keeps a prep step's earlier result: a cache, a fingerprint of part of the file, a store that ignores rows it has
_KEEPS = re.compile(r"\bshelve\b|\bcache\b|INSERT\s+OR\s+IGNORE|ON\s+CONFLICT\s+DO\s+NOTHING|\bhead\s+-c\s*\d+[^\n]*"
                    r"(?:md5|sha\w*)sum|\bpickle\b|\blru_cache\b", re.I)


def _task_rows(ev: Evidence) -> list[tuple[int, str, str]]:
    """(line, question text, label) of the materialized tasks, once per task."""
    path = ev.artifacts.materialized.path
    if path is None:
        return []
    seen, tasks = set(), []
    for number, row in readable_rows(path, _MAX_TASKS):
        params, label = row.get("responses_create_params"), row.get("expected_answer")
        if not isinstance(params, dict) or not isinstance(label, str) or row.get("_ng_task_index") in seen:
            continue
        seen.add(row.get("_ng_task_index"))
        text = " ".join(message_texts(params.get("input")))
        if text:
            tasks.append((number, text, label))
    return tasks


def _source_rows(path: Path) -> list[tuple[int, dict[str, list[str]]]] | None:
    """(line, field -> its text values: one, or a list's) of each row of a CSV, TSV or JSONL table; None when it is
    no such table."""
    try:
        if path.stat().st_size > _MAX_SOURCE_BYTES:
            return None
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return None
    if path.suffix == ".jsonl":
        rows = []
        for number, line in enumerate(text.splitlines(), 1):
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(row, dict) and "responses_create_params" not in row:  # a sheet, not tasks
                rows.append((number, {k: [str(x) for x in (v if isinstance(v, list) else [v])
                                          if isinstance(x, str | int | float)] for k, v in row.items()}))
        return rows
    if path.suffix in (".csv", ".tsv"):
        reader = csv.DictReader(io.StringIO(text), delimiter="\t" if path.suffix == ".tsv" else ",")
        return [(reader.line_num, {k: [v] for k, v in row.items() if isinstance(k, str) and isinstance(v, str)})
                for row in reader]
    return None


_LABEL_FIELD = re.compile(r"answer|label|target|gold|solution|expected", re.I)


def _labels_of(row: dict[str, list[str]], questions: list[str]) -> list[str]:
    """The row's labels: its answer-like fields' values, else its short values that are neither the question nor an
    id."""
    named = [value for name, values in row.items() if _LABEL_FIELD.search(name) for value in values if value.strip()]
    return named or [value for name, values in row.items() if not re.search(r"(?:^|_)id$", name, re.I)
                     for value in values if value not in questions and 0 < len(value) <= _MAX_LABEL]


def _same(a: str, b: str) -> bool:
    """Alike but for case, accents (or the accented letters dropped), spaces and punctuation: what a prep's
    normalising does, not another label."""
    def norm(text: str) -> str:
        return re.sub(r"[\W_]+", "", _unaccented(text)).casefold()
    if any(strip(a) == b or strip(b) == a for strip in _STRIPS.values()):
        return True
    return norm(a) == norm(b) or (bool(norm(a)) and bool(norm(b)) and (norm(a) in norm(b) or norm(b) in norm(a)))


def _read_by_the_prep(ev: Evidence, name: str) -> bool:
    """Whether a script of the run reads the table `name`, or copies in the very sheet its prep reads (`cp
    $REPO/labels.csv labels.csv`): not a copy onto another name (an older sheet kept beside the current one is no
    source of the tasks)."""
    named = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
    same_name_copy = re.compile(rf"^\s*(?:cp|rsync|install)\b[^\n#]*/{re.escape(name)}\s+\S*\b{re.escape(name)}\s*(?:#|$)")
    return any(not line.lstrip().startswith("#")
               and (not re.match(r"^\s*(?:cp|mv|ln|rsync|install)\b", line) or same_name_copy.match(line))
               for _, _, line, _ in lines_matching(ev.user_files, named, SCRIPT_SUFFIXES | {".py"}))


@dataclass
class _Compared:
    """The tasks against one source table the run's scripts read."""

    path: Path
    matched: int = 0  # the table's questions the tasks ask
    missing: int = 0  # ... and those they do not
    relabelled: list = field(default_factory=list)  # ((task line, question, label), table line, its label)
    agreeing: set[int] = field(default_factory=set)  # the task lines this table labels as the tasks do
    rewritten: list = field(default_factory=list)  # ... whose task label is the table's, stripped: ((...), line, label, how)


def _compared(ev: Evidence) -> list[_Compared]:
    if ev.run_dir is None or not ev.run_dir.is_dir() or not (tasks := _task_rows(ev)):
        return []
    found = []
    for path in sorted(p for suffix in ("*.csv", "*.tsv", "*.jsonl") for p in ev.run_dir.glob(suffix)
                       if _read_by_the_prep(ev, p.name)):
        compared = _Compared(path)
        for number, row in _source_rows(path) or []:
            questions = [v for values in row.values() for v in values if len(v) >= _MIN_QUESTION]
            task = next((t for t in tasks for q in questions if q in t[1]), None)
            if task is None:
                compared.missing += bool(questions)
                continue
            compared.matched += 1
            labels = _labels_of(row, questions)
            # a label the prep rewrote the same way as every other is not an older one
            if (stripped := next(((label, how) for label in labels for how, strip in _STRIPS.items()
                                  if label != task[2] and strip(label) == task[2]), None)) is not None:
                compared.rewritten.append((task, number, *stripped))
            elif labels and not any(_same(task[2], label) for label in labels):
                compared.relabelled.append((task, number, labels[0]))
            if task[2] in labels:
                compared.agreeing.add(task[0])
        if compared.matched:
            found.append(compared)
    return found


def rule_tasks_older_than_their_source(ev: Evidence) -> list[Finding]:
    tables = _compared(ev)
    for compared in tables:
        # a task another table labels as the tasks do was corrected by it (a reviewers' fixes file merged in)
        corrected = {line for other in tables if other is not compared for line in other.agreeing}
        relabelled = [entry for entry in compared.relabelled if entry[0][0] not in corrected]
        if relabelled and len(relabelled) * 2 <= compared.matched:
            return [_finding(ev, compared.path, relabelled, compared.matched, compared.missing)]
    agreeing = [compared for compared in tables if not compared.relabelled]
    for compared in tables:
        if agreeing and compared.relabelled and len(compared.relabelled) == compared.matched \
                and (merge := _first_kept_by(ev, compared.path.name)) is not None:
            return [_corrections_lost(ev, compared, agreeing[0].path, merge)]
    return []


# a de-duplication that keeps the first row of each key: `sort -u`, `uniq`, pandas' default drop_duplicates()
_KEEPS_FIRST = re.compile(r"\bsort\b[^\n|]*\s(?:-\w*u\w*|--unique)\b|\buniq\b|drop_duplicates\((?![^)]*keep\s*=\s*[\"']last)")


def _first_kept_by(ev: Evidence, name: str) -> tuple[UserFile, int, str] | None:
    """The line of the script reading the corrections table `name` that merges rows keeping the first of each key."""
    naming = [file for file in ev.user_files if name in file.text]
    return next(((file, number, line.strip()) for file, number, line, _ in lines_matching(naming, _KEEPS_FIRST)
                 if not line.lstrip().startswith("#")), None)


def _corrections_lost(ev: Evidence, compared: _Compared, older: Path, merge: tuple[UserFile, int, str]) -> Finding:
    (task_line, question, label), number, fixed = compared.relabelled[0]
    corrections, file = ev.rel(compared.path), merge[0].name
    return Finding(
        category=CACHE_RESUME,
        title=f"None of the {plural(len(compared.relabelled), 'correction')} of {corrections} reached the tasks "
              f"(`{excerpt(question, 50)}`: {fixed!r} in {corrections}, {label!r} in the tasks, as in "
              f"{ev.rel(older)}): {file}:{merge[1]} keeps the first row of each question",
        evidence=[EvidenceLine(file=ev.rel(ev.artifacts.materialized.path), line=task_line,
                               text=f"expected_answer: {label}"),
                  EvidenceLine(file=corrections, line=number, text=f"label: {fixed}"),
                  EvidenceLine(file=file, line=merge[1], text=merge[2])],
        cause=f"The tasks carry the labels of {ev.rel(older)} for every question {corrections} corrects: the merge "
              f"`{merge[2]}` keeps, of the rows with the same question, the first it meets (`sort -u`, `uniq` and "
              "`drop_duplicates()` all keep the first), which is the old row, read before the corrections. The "
              "model's right answers to the corrected questions score 0 against the old labels; every command exits "
              "0.",
        fix=f"In {file} line {merge[1]} (`{merge[2]}`), make the corrections win: put {corrections} before the old "
            f"labels (`cat {corrections} ... | sort -s -t, -k1,1 -u`: a stable sort -u keeps the first), or keep the "
            "last row of each question (`drop_duplicates(keep=\"last\")`); then prepare the tasks, materialize, "
            "collect and profile again.",
    )


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _ascii_only(text: str) -> str:
    return text.encode("ascii", "ignore").decode()


def _rounded(text: str) -> str:
    """A decimal label rounded to a whole number as Python's `round` does (2.5 -> 2); any other text as it is."""
    try:
        return str(round(float(text))) if re.fullmatch(r"-?\d+\.\d+", text.strip()) else text
    except ValueError:
        return text


# a program writing a number with the general format: `"%g" % x`, `f"{x:g}"`, `format(x, ".6g")`
GENERAL_NUMBER_FORMAT = re.compile(r"[\"']%\.?\d*g[\"']|\{[^{}\n]*:\.?\d*g\}|format\([^)]*[\"']\.?\d*g[\"']")


def _general_format(text: str) -> str:
    """A number as `"%g" % float(text)` writes it, when that loses digits (an exponent, or a value rounded to six
    significant digits); other text, and numbers it only respells (`007` as `7`), as they are."""
    if not re.fullmatch(r"-?\d+(?:\.\d+)?", text.strip()):
        return text
    written = format(float(text), "g")
    return written if "e" in written or float(written) != float(text) else text


_STRIPS = {  # what a prep may strip from (or add to) every label, told by what is left
    "full digits": _general_format,
    "regex escapes": re.escape,
    "accents": _unaccented,
    "accented letters": _ascii_only,
    "fraction": _rounded,
    "punctuation": lambda text: re.sub(r"[^\w\s]", "", text).strip(),
}
# the line of a prep that strips it: a transliteration to ASCII; a removal of every punctuation character
_STRIPPED_BY = {
    "accents": re.compile(r"\biconv\b[^\n]*(?:TRANSLIT|ascii)|\bunidecode\b|encode\(\s*[\"']ascii[\"']\s*,\s*[\"']ignore|"
                          r"\bNFKD\b", re.I),
    "accented letters": re.compile(r"encode\(\s*[\"']ascii[\"']\s*,\s*(?:errors\s*=\s*)?[\"']ignore"),
    "fraction": re.compile(r"\bround\(|\bint\(\s*float\("),
    "full digits": GENERAL_NUMBER_FORMAT,
    "regex escapes": re.compile(r"\bre\.escape\("),
    "punctuation": re.compile(r"string\.punctuation|\[\^\\w\\s\]|\[\[:punct:\]\]|tr\s+-d\s+['\"]?\[:punct:\]"),
}
_KEEP_IT = {
    "regex escapes": ("drop `re.escape` (kept from a grader that matched labels as regular expressions: it puts a "
                      "backslash before every space, dot and sign, and this verifier compares plain text)",
                      "write the labels as plain text"),
    "full digits": ("format numbers without `%g` (it keeps six significant digits and writes an exponent past them: "
                    "299792458 becomes 2.99792e+08); for one spelling per number, drop only a trailing `.0` (`str(int(x)) "
                    "if float(x).is_integer() else x`)", "keep every digit of the labels as the sheet writes them"),
    "fraction": ("round only what is a whole number (`8.0` -> `8`: `str(int(x)) if float(x).is_integer() else x`), "
                 "not every number (`round(float(answer))` also rounds real decimals)",
                 "keep decimal labels as the sheet writes them"),
    "accented letters": ("drop the conversion to ASCII that ignores what it cannot encode (`.encode(\"ascii\", "
                         "\"ignore\")` removes every accented letter, not its accent)",
                         "keep the sheet UTF-8 end to end so that expected_answer keeps its letters"),
    "accents": ("drop the transliteration", "keep the sheet UTF-8 end to end so that expected_answer keeps its accents"),
    "punctuation": ("drop the removal of punctuation (the `translate` or `re.sub` every label goes through)",
                    "strip only what surrounds a label (`.strip(' .\\'\"')`), never the characters inside it (a "
                    "decimal point, a slash), so that expected_answer keeps them"),
}


# what a rewrite that adds to every label did to them: in a title, and in a cause
_CHANGE = {"regex escapes": "gained regex escapes (backslashes)"}
_ONLY_WITH_ITS_LINE = frozenset({"regex escapes"})  # rewrites told apart from others only by the line doing them
_ADDED = {"regex escapes": "with regex escapes (backslashes) added"}


def rule_labels_rewritten_by_the_prep(ev: Evidence) -> list[Finding]:
    """The tasks' labels are the source table's with something stripped from every one (accents by `iconv -t
    ascii//TRANSLIT`, punctuation by `str.translate`), and answers that write a label as the table does scored 0."""
    for compared in _compared(ev):
        for how in _STRIPS:
            rewritten = [entry for entry in compared.rewritten if entry[3] == how]
            written_as = {label for _, _, label, _ in rewritten}
            scored_zero = [answer for answer in ev.graded_answers if answer.reward == 0
                           and any(label.casefold() in answer.extracted.casefold() for label in written_as)]
            if how in _ONLY_WITH_ITS_LINE and not any(lines_matching(ev.user_files, _STRIPPED_BY[how])):
                continue  # a backslash doubled by other means (an escape written twice) looks the same
            if rewritten and scored_zero:
                return [_rewritten_finding(ev, compared, rewritten, how, len(scored_zero))]
    return []


def _rewritten_finding(ev: Evidence, compared: _Compared, rewritten: list, how: str, scored_zero: int) -> Finding:
    (task_line, _, label), number, written, _ = rewritten[0]
    source, materialized = ev.rel(compared.path), ev.rel(ev.artifacts.materialized.path)
    strips = next(((file, line_number, line.strip()) for file, line_number, line, _ in
                   lines_matching(ev.user_files, _STRIPPED_BY[how], SCRIPT_SUFFIXES | {".py"})
                   if not line.lstrip().startswith("#")), None)
    drop, keep = _KEEP_IT[how]
    return Finding(
        category=DATA_SCHEMA,
        title=f"The tasks' labels {_CHANGE.get(how, f'lost their {how}')}: {written!r} in {source} is {label!r} in the tasks, and "
              f"{plural(scored_zero, 'answer')} writing it as {source} does scored 0",
        evidence=[EvidenceLine(file=materialized, line=task_line, text=f"expected_answer: {label}"),
                  EvidenceLine(file=source, line=number, text=f"label: {written}"),
                  *([EvidenceLine(file=strips[0].name, line=strips[1], text=strips[2])] if strips else [])],
        cause=f"{plural(len(rewritten), 'label')} of {source} reached the tasks {_ADDED.get(how, f'without their {how}')}"
              + (f" ({strips[0].name}:{strips[1]} `{strips[2]}`)" if strips else "")
              + ": the model writes the answers as they are written, and the verifier compares them with the rewritten "
              "expected_answer, so right answers score 0. Every command exits 0.",
        fix=(f"In {strips[0].name} (line {strips[1]}), {drop} (`{strips[2]}`, applied to every label): {keep}"
             if strips else f"Keep the labels as the sheet writes them: {keep}")
            + f" ('{written}' became '{label}'); prepare the tasks again, then materialize, collect and profile.",
    )


def _finding(ev: Evidence, path: Path, relabelled: list, matched: int, missing: int) -> Finding:
    (task_line, question, label), number, fixed = relabelled[0]
    source, materialized = ev.rel(path), ev.rel(ev.artifacts.materialized.path)
    keeping = [(file, line_number, line) for file, line_number, line, _ in
               lines_matching(ev.user_files, _KEEPS, SCRIPT_SUFFIXES | {".py"})
               if not line.lstrip().startswith(("#", '"', "'")) and not re.match(r"^[A-Z][a-z]+ [a-z]", line.strip())]
    keeper = keeping[0] if keeping else None  # a line of code, not of the script's description
    store = next((m[1] for m in re.finditer(r"[\"'\s(](\.[\w-]*cache[\w./-]*|[\w.-]+\.(?:db|sqlite3?))\b",
                                            keeper[0].text)), None) if keeper else None
    added = f", and {plural(missing, 'question')} of it {'is' if missing == 1 else 'are'} in no task" if missing else ""
    return Finding(
        category=CACHE_RESUME,
        title=f"{source} labels {plural(len(relabelled), 'question')} of the tasks otherwise than the tasks do "
              f"(`{excerpt(question, 50)}`: {fixed!r} in {source}, {label!r} in the tasks){added}: the tasks are "
              "older than their source",
        evidence=[EvidenceLine(file=materialized, line=task_line, text=f"expected_answer: {label}"),
                  EvidenceLine(file=source, line=number, text=f"label: {fixed}"),
                  *([EvidenceLine(file=keeper[0].name, line=keeper[1], text=keeper[2].strip())] if keeper else [])],
        cause=f"Of the {matched} questions of {source} that the tasks ask, {len(relabelled)} carry another label in "
              f"the tasks{added}: the tasks were made from an earlier version of {source}, and the preparation kept "
              "its earlier result"
              + (f" ({keeper[0].name}:{keeper[1]} `{keeper[2].strip()}`)" if keeper else "")
              + " instead of converting the fixed sheet. The model's right answers to those questions score 0 against "
              "the old labels; every command exits 0.",
        fix=(f"The preparation keeps its earlier result ({keeper[0].name}:{keeper[1]} `{keeper[2].strip()}`"
             + (f", in {store}" if store else "") + "): "
             + ("replace the rows it already holds instead of ignoring them (`INSERT OR REPLACE`, or `ON CONFLICT "
                "... DO UPDATE`)" if re.search(r"IGNORE|DO\s+NOTHING", keeper[2], re.I) else
                f"make its cache key the whole content of {source} (a hash of the full file: a key of its name, "
                + ("of the commit (an uncommitted fix keeps the commit's key, `git rev-parse HEAD`), " if
                   any(_COMMIT_KEY.search(line) for line in keeper[0].text.splitlines()) else "")
                + "or a fingerprint of part of it, misses the fixed rows), or clear the cache"
                + (f" (`rm -rf {store}`)" if store else ""))
             if keeper else f"Build the tasks again from the current {source}")
            + "; then prepare the tasks, materialize, collect and profile again.",
    )
