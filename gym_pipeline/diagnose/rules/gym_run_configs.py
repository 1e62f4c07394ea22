"""Step 5: a Gym resume given other settings than the materialized inputs it reused were made with.

`gym eval run ... ++resume_from_cache=true` reads the materialized inputs file an earlier attempt wrote and runs the
rows it lacks as they are: their `agent_ref` and repeat count are the earlier attempt's. A rerun after fixing the
agent (`--agent mcqa_simple_agent` where the first attempt had the string_match one) or the repeats sends every row
where the old settings say, and Gym prints nothing of it: every command exits 0. Gym keeps each command's settings
in `outputs/<date>/<time>/.hydra/config.yaml` of the folder it ran in; named when the last `eval run` there resumed
with an agent the inputs never route to, or with another repeat count than the inputs hold.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

MAX_CONFIGS = 200  # Hydra's folders of one run folder: one per command
MAX_ROWS = 100_000  # of the materialized inputs: enough to know their agents and repeats
_CONFIG_BYTES = 1 << 16


def _last_resumed_run(run_dir: Path) -> tuple[Path, dict[str, Any]] | None:
    """The newest Hydra config of a `gym eval run` in the folder, when it resumed: (its file, its settings)."""
    configs = sorted(run_dir.glob("outputs/*/*/.hydra/config.yaml"))[-MAX_CONFIGS:]
    for path in reversed(configs):
        try:
            with path.open("rb") as file:
                settings = yaml.safe_load(file.read(_CONFIG_BYTES))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(settings, dict) and settings.get("agent_name") and settings.get("input_jsonl_fpath"):
            return (path, settings) if settings.get("resume_from_cache") is True else None
    return None


def _agents_and_repeats(materialized: Path) -> tuple[Counter[str], int | None]:
    """How many rows route to each agent, and the repeats of the first task (None: no task index)."""
    agents: Counter[str] = Counter()
    repeats: Counter[Any] = Counter()
    for _, row in readable_rows(materialized, MAX_ROWS):
        reference = row.get("agent_ref")
        if isinstance(reference, dict) and isinstance(reference.get("name"), str):
            agents[reference["name"]] += 1
        repeats[row.get("_ng_task_index")] += 1
    first = next(iter(repeats), None)
    return agents, (repeats[first] if first is not None else None)


def rule_resume_with_other_settings_than_its_inputs(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.artifacts.files.materialized.is_file():
        return []
    resumed = _last_resumed_run(ev.run_dir)
    if resumed is None:
        return []
    config, settings = resumed
    agents, repeats = _agents_and_repeats(ev.artifacts.files.materialized)
    inputs = ev.rel(ev.artifacts.files.materialized)
    asked_agent, asked_repeats = settings["agent_name"], settings.get("num_repeats")
    differences = []
    if agents and asked_agent not in agents:
        routed = ", ".join(name for name, _ in agents.most_common(2))
        differences.append((f"--agent {asked_agent}", f"agent_ref {routed}",
                            f"every row went to {routed} again, not to {asked_agent}"))
    if isinstance(asked_repeats, int) and repeats is not None and repeats != asked_repeats:
        differences.append((f"--num-repeats {asked_repeats}", f"{repeats} repeats per task",
                            f"the run kept {repeats} repeats per task, not {asked_repeats}"))
    if not differences:
        return []
    asked = " and ".join(given for given, _, _ in differences)
    kept = " and ".join(held for _, held, _ in differences)
    return [Finding(
        category=CACHE_RESUME,
        title=f"Gym resumed with {asked}, but the materialized inputs it reused ({inputs}) hold {kept}: the new "
              "settings never reached the rows",
        evidence=[EvidenceLine(file=ev.rel(config), line=None,
                               text=f"agent_name: {asked_agent}, num_repeats: {asked_repeats}, resume_from_cache: true"),
                  EvidenceLine(file=inputs, line=1, text=kept)],
        cause="`++resume_from_cache=true` reuses the materialized inputs an earlier attempt wrote, rows and routing "
              f"as they are; it does not apply a new --agent or --num-repeats to them. So {'; '.join(d[2] for d in differences)}, "
              "and every command exited 0.",
        fix=f"Start the run afresh: delete {inputs} (its rows keep their agent_ref and repeats) and the rollouts beside it (or give a new --output folder) and run "
            f"`gym eval run ... {asked}` again without `--resume` (`++resume_from_cache=true`); resume only to finish an "
            "interrupted run with unchanged settings.",
    )]
