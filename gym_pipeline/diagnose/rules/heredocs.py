"""Step 1: a settings file written by a script through a quoted here-document, so its `$VARIABLES` stay text.

`cat > settings.env <<'EOF'` (the delimiter quoted, or escaped: `<<"EOF"`, `<<\\EOF`) turns expansion off in the
document: `MODEL_URL=$URL` is written as it stands, and whatever sources the file later gets the word `$URL`, or an
empty value, instead of the address. Named when the written file holds the unexpanded `$` words.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.vocabulary import CONFIG

_QUOTED_HEREDOC = re.compile(r">\s*(?P<target>[\w./-]+)\s*<<-?\s*(?:'(?P<a>\w+)'|\"(?P<b>\w+)\"|\\(?P<c>\w+))"
                             r"|<<-?\s*(?:'(?P<d>\w+)'|\"(?P<e>\w+)\"|\\(?P<f>\w+))\s*>\s*(?P<target2>[\w./-]+)")
_EXPANSION = re.compile(r"\$\{?[A-Za-z_]\w*\}?|\$\(")


def rule_settings_written_by_a_quoted_heredoc(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (match := _QUOTED_HEREDOC.search(line)) is None:
                continue
            delimiter = next(match[group] for group in "abcdef" if match[group])
            target = match["target"] or match["target2"]
            body = []
            for text in lines[number:]:
                if text.strip() == delimiter:
                    break
                body.append(text)
            kept = [text for text in body if _EXPANSION.search(text)]
            written = ev.run_dir / Path(file.name).parent / target
            try:
                now = written.read_text(encoding="utf-8", errors="replace") if written.is_file() else ""
            except OSError:
                now = ""
            unexpanded = next((text for text in kept if text.strip() in now.splitlines()), None)
            if unexpanded is None:
                continue
            word = _EXPANSION.search(unexpanded).group(0)
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} writes {target} with a quoted here-document (<<'{delimiter}'): "
                      f"`{unexpanded.strip()}` was written as text, {word} never expanded",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(written), line=now.splitlines().index(unexpanded.strip()) + 1,
                                       text=unexpanded.strip())],
                cause=f"Quoting the delimiter of a here-document (`<<'{delimiter}'`) turns off expansion inside it, "
                      f"so {target} holds `{unexpanded.strip()}` word for word; what reads {target} later (a job that "
                      f"sources it) gets `{word}` or an empty value instead of the setting.",
                fix=f"In {file.name}:{number}, leave the delimiter unquoted (`<<{delimiter}`) so the shell expands "
                    f"{word} when it writes {target} (escape the `$` of anything meant literally: `\\$`); then write "
                    f"{target} again and run again.",
            )]
    return []
