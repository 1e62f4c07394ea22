"""Step 5: rows built from an earlier version of the export beside the run: labels fixed since are not in them.

A user fixes labels in the export (a CSV of questions and answers) and runs the eval again; a step in between (a
prep cache keyed on something the fix did not change, a copy kept because it exists, an older file picked) hands
the run rows built from the export before the fix. Every command exits 0. The export in the run folder holds the
fix and the rows the run evaluated do not: for a few of its questions the expected answer is another value than
the export's (not a format of it: a converter that rewrites every label is another reading).
"""

from __future__ import annotations

import re
import unicodedata

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.export_questions import AskedExport, asked_exports, export_line
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.source_columns import ANSWER_COLUMN
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

MIN_QUESTIONS = 3  # of the export found whole in the prompts
MAX_SHARE_CHANGED = 0.5  # of them with another label: more is a column or a format, not a fix
_CACHE = re.compile(r"\bcache", re.I)
_COMMIT_KEY = re.compile(r"\brev-parse\b")


def _skeleton(label: str) -> str:
    """A label's ASCII letters and digits, lower-cased: what stays when a converter drops spaces, punctuation or
    accents (those are formats of the export's label, read elsewhere, not another label)."""
    ascii_only = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", ascii_only.lower())


def _changed_labels(asked: AskedExport, column: int) -> tuple[int, list[tuple[str, str, str]]]:
    """(questions compared, [(question, the export's label, the rows' label)] of those that differ in substance)."""
    compared, changed = 0, []
    for row in asked.rows:
        question = asked.question(row)
        prompt = asked.prompt_of(question) if question in asked.joined else None
        if prompt is None or asked.answers[prompt] is None:
            continue
        compared += 1
        now, used = _skeleton(row[column]), _skeleton(str(asked.answers[prompt]))
        if now != used and now not in used and used not in now:
            changed.append((question, row[column].strip(), str(asked.answers[prompt]).strip()))
    return compared, changed


def rule_labels_fixed_in_the_export_missing_from_the_rows(ev: Evidence) -> list[Finding]:
    for asked in asked_exports(ev):
        column = next((i for i, name in enumerate(asked.header) if ANSWER_COLUMN.match(name.strip())), None)
        if column is None:
            continue
        compared, changed = _changed_labels(asked, column)
        if compared < MIN_QUESTIONS or not changed or len(changed) > MAX_SHARE_CHANGED * compared:
            continue
        question, now, used = changed[0]
        export = ev.rel(asked.export)
        cache = next((found for found in lines_matching(ev.user_files, _CACHE, SCRIPT_SUFFIXES)
                      if not found[2].lstrip().startswith("#")), None)
        key = cache and next((found for found in lines_matching([cache[0]], _COMMIT_KEY, SCRIPT_SUFFIXES)), None)
        step = ""
        if cache:
            step = (f" {cache[0].name}:{cache[1]} (`{excerpt(cache[2].strip(), 120)}`) hands back prepared rows from a "
                    "cache")
            step += (f", keyed on the commit ({cache[0].name}:{key[1]}: `{excerpt(key[2].strip(), 100)}`): a fix of "
                     "the export that is not committed (uncommitted edits) keeps the key, so the cache hit returns the "
                     "rows built before the fix." if key else ", whose key the fix did not change.")
        return [Finding(
            category=CACHE_RESUME,
            title=f"{len(changed)} of {compared} questions of {export} carry another label in the rows the run "
                  f"evaluated: the rows were built from an earlier version of the export (first: {now!r} in the "
                  f"export, {used!r} in the rows)",
            evidence=[EvidenceLine(file=export, line=export_line(asked.export, question), text=excerpt(
                      f"{question} -> {now}", 200)),
                      *([EvidenceLine(file=cache[0].name, line=cache[1], text=cache[2].strip())] if cache else []),
                      *([EvidenceLine(file=key[0].name, line=key[1], text=key[2].strip())] if key else [])],
            cause=f"The export beside the run asks {question!r} with the label {now!r}; the row the run evaluated "
                  f"expects {used!r}. The other labels agree, so this is no format or column of the export: the rows "
                  f"are older than the export's fix.{step} Answers right by the export were graded against the old "
                  "labels; every command exits 0.",
            fix=(f"Key the cache in {cache[0].name} on the export's content (its sha256sum) rather than "
                 + ("the commit (an uncommitted fix keeps the commit's key), or commit the fix before the run" if key else "what the fix left unchanged")
                 + ", or clear it; " if cache else
                 "Find the step that handed the run rows older than the export (a cache, a copy kept because it "
                 "exists, an older file picked) and make it rebuild; ")
                + f"build the rows again from {export}, materialize again, collect on a clean output path and profile.",
        )]
    return []
