"""Step 2: a collection without `--model` that took the first model the endpoint lists, not the one the run is of.

An OpenAI-compatible server can serve several names at one address: vLLM with `--enable-lora` lists the base model
first and each adapter (`--lora-modules NAME=PATH`) after it. `gym-pipeline collect` given no `--model` uses the first
name listed, so an eval of the adapter quietly measures the base model, and every command exits 0. Named when the
collection's model (the manifest's, or what the collection's warning says it took) differs from another name the
endpoint serves, and the run's own scripts or logs are of that other name.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES
from gym_pipeline.diagnose.vocabulary import CONFIG

# What the collection says when the endpoint lists more than one model (engines/builtin.py).
_TOOK_THE_FIRST = re.compile(r"lists \d+ models \((?P<names>[^)\n]*)\): collecting with the first, (?P<first>\S+);")
# What a server says it serves besides its base model: vLLM's adapters (command line or start line), served names.
_SERVED_NAMES = re.compile(r"--lora-modules[= ](?P<modules>(?:\s*[\w.:/-]+=\S+)+)"
                           r"|LoRAModulePath\(name='(?P<module>[^']+)'"
                           r"|LoRA adapters?:\s*(?P<adapters>[\w.:/-]+(?:,\s*[\w.:/-]+)*)", re.I)
_COLLECT = re.compile(r"\bgym[-_]pipeline(?:\.cli)?\s+collect\b")
_MODEL_OPTION = re.compile(r"\s--model[= ]")


def _served_names(ev: Evidence) -> tuple[list[str], EvidenceLine | None]:
    """The names the model endpoint serves, and the line saying so."""
    texts = [(ev.rel(log), text) for log, text in ev.log_heads] + [(f.name, f.text) for f in ev.user_files]
    for file, text in texts:
        if match := _TOOK_THE_FIRST.search(text):
            return [n.strip() for n in match["names"].split(",")], line_of_match(file, text, match)
    for file, text in texts:
        if match := _SERVED_NAMES.search(text):
            if match["modules"]:
                names = [module.split("=", 1)[0] for module in match["modules"].split()]
            else:
                names = [n.strip() for n in (match["module"] or match["adapters"]).split(",")]
            return names, line_of_match(file, text, match)
    return [], None


def rule_collection_took_the_first_listed_model(ev: Evidence) -> list[Finding]:
    collected_with = ev.manifest.collection_model
    collects = [(file, number, line) for file in ev.user_files if file.suffix in SCRIPT_SUFFIXES
                for number, line in enumerate(file.text.splitlines(), start=1) if _COLLECT.search(line)]
    if collected_with is None or not collects or any(_MODEL_OPTION.search(line) for _, _, line in collects):
        return []
    names, served_line = _served_names(ev)
    others = [name for name in names if name != collected_with]
    model_logs = {ev.rel(log) for log, _ in ev.log_heads if "model" in log.name or "server" in log.name}
    told = [(f.name, f.text) for f in ev.user_files] + [(ev.rel(log), text) for log, text in ev.log_heads
                                                        if ev.rel(log) not in model_logs]
    meant = next(((name, file, text, match) for name in others for file, text in told
                  if (match := re.search(rf"(?<![\w.=/-]){re.escape(name)}(?![\w.=/-])", text))
                  and not _SERVED_NAMES.search(text[text.rfind("\n", 0, match.start()) + 1:match.end()])), None)
    if meant is None or served_line is None:
        return []
    name, file, text, match = meant
    served = names if collected_with in names else [collected_with, *names]
    script, number, line = collects[0]
    return [Finding(
        category=CONFIG,
        title=f"The collection ran {collected_with}, the first model the endpoint lists, while the run is of {name}: "
              f"{script.name}:{number} gives no --model",
        evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()), served_line,
                  line_of_match(file, text, match)],
        cause=f"The model server serves {', '.join(served)} at one address (a base model and its adapters, or several "
              f"served names); `gym-pipeline collect` given no --model uses the first the endpoint lists, "
              f"{collected_with}, so every rollout was answered by it and the reward is {collected_with}'s, not "
              f"{name}'s. Every command exited 0.",
        fix=f"In {script.name}, pass the model meant: `gym-pipeline collect ... --model {name}` (check the names with "
            "`curl <model url>/models`), then collect again into a fresh output.",
    )]
