"""Step 2: replies whose text is empty although the model produced output tokens.

The model wrote an answer (the usage counts its tokens), and the run got a reply with no text: something between the
model and the run took the text out. Most often a reasoning split: a gateway (or the server's `--reasoning-parser`)
that moves everything before `</think>` into `reasoning_content`, applied to a model that never writes `</think>`, so
the whole reply becomes "reasoning" and `content` is left empty. Every rollout scores 0 and nothing fails.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

EMPTY_MIN_ROWS, EMPTY_SHARE = 3, 0.5  # of the scored rollouts
# a user's code or serving command that moves a reply's text into its reasoning
_REASONING_SPLIT = re.compile(r"\[\s*[\"']reasoning_content[\"']\s*\]\s*=|\breasoning_content\s*=")
_REASONING_PARSER = re.compile(r"--reasoning-parser\b")  # vLLM's, in a serving script
_THINK_TAG = re.compile(r"</think>")


def _code_matching(files: list[UserFile], pattern: re.Pattern[str]):
    """The lines of `files` where `pattern` matches, comments left out."""
    return (found for found in lines_matching(files, pattern) if not found[2].lstrip().startswith("#"))


def rule_replies_emptied_on_the_way(ev: Evidence) -> list[Finding]:
    quality = ev.artifacts.quality
    if quality.empty_replies < max(EMPTY_MIN_ROWS, EMPTY_SHARE * quality.scored_rows) \
            or quality.empty_reply_example is None:
        return []
    split = next(_code_matching(ev.user_files, _REASONING_SPLIT), None) or next(_code_matching(
        [file for file in ev.user_files if file.suffix in SCRIPT_SUFFIXES], _REASONING_PARSER), None)
    tag = next(_code_matching([split[0]], _THINK_TAG), None) if split else None
    named = [EvidenceLine(file=file.name, line=number, text=line.strip()) for file, number, line, _ in
             (found for found in (tag, split) if found)]
    where = split[0].name if split else None
    return [Finding(
        category=MODEL_SERVING,
        title=f"{quality.empty_replies} of {quality.scored_rows} replies have no text although the model produced "
              "output tokens" + (f": {where} moves the text into reasoning_content" if where else ""),
        evidence=[quality.empty_reply_example, *named[:2]],
        cause="The usage of these replies counts the tokens the model wrote, and their text is empty: something "
              "between the model and the run took it out. "
              + (f"{where} splits every reply into reasoning_content and content at `</think>`"
                 + (f" ({where}:{tag[1]})" if tag else "")
                 + ", as for a reasoning model; this model never writes `</think>`, so the whole reply went into "
                 "reasoning_content and content was left empty." if where else
                 "A reasoning split (a gateway's, or the server's `--reasoning-parser`) that takes everything before "
                 "`</think>` for reasoning does this to a model that never writes the tag.")
              + " No answer reached the verifier, so every such rollout scored 0. Nothing fails.",
        fix=(f"Turn the reasoning split off in {where} for this model (fill reasoning_content only when the reply "
             "holds `</think>`, and leave content as it is otherwise), or send the run straight to the model server"
             if where else "Find what takes the text out (send one prompt to the model server and to the run's model "
             "URL and compare the replies); drop the reasoning parser for a model without `</think>`")
            + "; then collect again on a clean output path and profile.",
    )]
