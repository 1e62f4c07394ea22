"""A model URL that carries the inline comment of the settings line it was read from.

`model_url = http://127.0.0.1:8000/v1    ; step_0200 candidate` in an INI file: Python's configparser strips a comment
only on a line of its own unless `inline_comment_prefixes` is set, so the value is the URL, the spaces and the comment.
The stage asks `<url>    ; step_0200 candidate/models` of the server, which answers 404 (or the client refuses the
URL), and nothing is collected. Named from the settings line whose comment the failing URL carries.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

# a URL the stage used with a comment glued to it: `model endpoint http://h:1/v1    ; note/models answered HTTP 404`
_URL_WITH_COMMENT = re.compile(r"(?P<url>https?://[^\s'\"]+)(?P<gap>\s+)(?P<comment>[;#][^\n]*?)/models\b")
_CONFIGPARSER_FILES = (".ini", ".cfg", ".conf")


def rule_model_url_carries_an_inline_comment(ev: Evidence) -> list[Finding]:
    said = ev.first_in_log_heads(_URL_WITH_COMMENT)
    if said is None:
        return []
    line, match = said
    url, comment = match["url"], match["comment"].strip()
    setting = re.compile(rf"^\s*(?P<key>[\w.-]+)\s*[=:]\s*{re.escape(url)}\s+{re.escape(comment[:20])}")
    found = next(lines_matching(ev.user_files, setting), None)
    if found is None:
        return []
    file, number, text, key = found[0], found[1], found[2].strip(), found[3]["key"]
    read_by_configparser = file.name.endswith(_CONFIGPARSER_FILES)
    return [Finding(
        category=CONFIG,
        title=f"{file.name}:{number} gives `{key}` an inline comment (`{comment[:40]}`), which stayed in the value: "
              "the stage called the URL with the comment glued to it",
        evidence=[EvidenceLine(file=file.name, line=number, text=text), line],
        cause=f"`{text}` puts a comment after the value on the same line, and the program reading {file.name} kept it "
              + ("(Python's configparser strips comments only on lines of their own unless `inline_comment_prefixes` "
                 "is set)" if read_by_configparser else "(its reader strips comments only on lines of their own)")
              + f": `{key}` is `{url}` followed by spaces and `{comment[:40]}`. The stage asked the server for "
              "that URL's `/models`, which it does not have, and collected nothing.",
        fix=f"In {file.name}:{number}, put the comment on a line of its own (`{key} = {url}`)"
            + (", or read the file with `configparser.ConfigParser(inline_comment_prefixes=(';', '#'))`"
               if read_by_configparser else "")
            + "; then run the stage again.",
        explains=frozenset({"model_endpoint_down"}),
    )]
