"""Step 6: questions translated into another language, with the labels kept from the English source.

A split in another language is often built from a translators' table of the questions, while each task's
`expected_answer` is copied from the English row: the model answers in the question's language (Wien, Rom, Prag)
and the English label (Vienna, Rome, Prague) rejects every right answer whose name differs between the two. Every
command exits 0; the reward is low, and only the answers that are spelt alike in both languages score. Named when
most prompts are in one language other than English, the tasks' labels are the values of an English file in the
run folder (the source the labels came from), and answers were scored 0.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

# words that tell a question's language apart (articles, question words, the commonest verbs)
_STOPWORDS = {
    "English": {"the", "is", "of", "what", "which", "who", "how", "and", "an", "are", "does", "in"},
    "German": {"der", "die", "das", "ist", "von", "und", "was", "welche", "welcher", "wie", "wer", "ein", "eine", "des"},
    "French": {"le", "les", "est", "quelle", "quel", "et", "une", "des", "du", "qui", "combien"},
    "Spanish": {"el", "los", "las", "es", "cuál", "qué", "una", "del", "quién", "cuántos"},
    "Italian": {"il", "è", "qual", "che", "della", "di", "gli", "chi", "quanti"},
    "Dutch": {"het", "van", "wat", "welke", "hoe", "een", "wie", "zijn"},
}
_WORD = re.compile(r"[^\W\d_]+")
_SHARE = 0.6  # of the prompts, in the one other language
_LABEL_SHARE = 0.5  # of the tasks' labels, found in the English file
_MAX_SOURCE_BYTES = 8 << 20


def language_of(text: str) -> str | None:
    """The language whose distinctive words a text uses most (two at least), or None."""
    words = [word.lower() for word in _WORD.findall(text)]
    counts = {language: sum(word in stop for word in words) for language, stop in _STOPWORDS.items()}
    language, count = max(counts.items(), key=lambda item: item[1])
    return language if count >= 2 and list(counts.values()).count(count) == 1 else None


def rule_labels_kept_from_the_source_language(ev: Evidence) -> list[Finding]:
    quality = ev.artifacts.quality
    prompts = list(quality.prompt_of_task.values())
    if len(prompts) < 3 or not any(answer.reward == 0 for answer in ev.graded_answers):
        return []
    languages = [language_of(text) for _, _, text in prompts]
    language = max(set(languages) - {None, "English"}, key=languages.count, default=None)
    if language is None or languages.count(language) < _SHARE * len(prompts):
        return []
    labels = {answer for _, _, answer in quality.expected_of_prompt.values() if answer.strip()}
    source = _english_source_of(ev, labels)
    if source is None:
        return []
    name, number, line = source
    _, prompt_line, prompt = next(p for p, spoken in zip(prompts, languages, strict=True) if spoken == language)
    materialized = ev.rel(ev.artifacts.materialized.path) if ev.artifacts.materialized.path else "the inputs"
    return [Finding(
        category=DATA_SCHEMA,
        title=f"The questions are in {language}, the labels in English: the tasks' expected_answer values are those of "
              f"{name}, the English source",
        evidence=[EvidenceLine(file=materialized, line=prompt_line, text=prompt),
                  EvidenceLine(file=name, line=number, text=excerpt(line, 160))],
        cause=f"{languages.count(language)} of the {len(prompts)} questions ask in {language} ({materialized}:"
              f"{prompt_line}), while the labels are the English ones of {name} ({name}:{number}): the model answers "
              f"in the question's language, and every right answer whose name is written otherwise in {language} "
              "scores 0. Nothing fails; only the answers spelt alike in both languages score.",
        fix=f"Translate the labels with the questions (the translators' table needs the answers too, or keep a "
            f"{language} `expected_answer` column), or ask for the answer in English in the prompt; write the data "
            "again from the source, then materialize, collect and profile it again.",
    )]


def _english_source_of(ev: Evidence, labels: set[str]) -> tuple[str, int, str] | None:
    """(file, line, text) of an English data file in the run folder that holds most of the labels: where the tasks'
    labels were copied from."""
    if ev.run_dir is None or not labels:
        return None
    own = {p for p in (ev.artifacts.materialized.path, ev.artifacts.files.rollouts) if p}
    for path in sorted([*ev.run_dir.glob("*.jsonl"), *ev.run_dir.glob("*.json"), *ev.run_dir.glob("*.csv")]):
        if path in own or path.stat().st_size > _MAX_SOURCE_BYTES:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found = [label for label in labels if _holds_value(text, label)]
        if len(found) < _LABEL_SHARE * len(labels) or language_of(text[:4000]) != "English":
            continue
        lines = text.splitlines()
        number = next(n for n, line in enumerate(lines, 1) if _holds_value(line, found[0]))
        return Path(ev.rel(path)).as_posix(), number, lines[number - 1].strip()
    return None


def _holds_value(text: str, label: str) -> bool:
    """Whether a JSON or CSV text holds `label` as a whole value (quoted, or between commas)."""
    return bool(re.search(rf"(?:\"|^|,){re.escape(label)}(?:\"|,|$)", text, re.M))
