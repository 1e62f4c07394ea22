"""How much a verifier disagrees with itself on the same answers.

`gym-pipeline reverify --repeat N` verifies every stored response N times and writes
`<stem>_verifier_flakiness.json` beside the rollouts: the rows whose N rewards differ, and how many rows of each
task were checked. The record names the digest of the rollouts file it describes; the profile, the diagnosis and
the checkpoint comparison read it only while that file is unchanged (a later collection or re-scoring makes it
describe other rows).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson

from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import ROLLOUT_INDEX, TASK_INDEX, sibling_path, write_json_atomic

FLAKINESS_SUFFIX = "_verifier_flakiness.json"


@dataclass
class Flakiness:
    repeats: int
    verifier: dict[str, Any]  # name and version of the verifier that was repeated
    rollouts_digest: str  # the rollouts file it describes
    rollouts_checked: int
    task_rollouts: dict[int, int]  # rows checked per task
    flaky: list[dict[str, Any]]  # {_ng_task_index, _ng_rollout_index, rewards}: rows whose rewards differ

    @property
    def flaky_per_task(self) -> Counter[int]:
        return Counter(row[TASK_INDEX] for row in self.flaky)

    def task_shares(self) -> dict[int, float]:
        """Share of each task's checked rows whose rewards differ (tasks with none left out)."""
        return {task: count / self.task_rollouts[task] for task, count in sorted(self.flaky_per_task.items())}

    def reward_spread(self) -> dict[int, float]:
        """Per task, the sum over its flaky rows of (highest - lowest reward): how far flakiness alone can move
        the task's total reward."""
        spread: Counter[int] = Counter()
        for row in self.flaky:
            spread[row[TASK_INDEX]] += max(row["rewards"]) - min(row["rewards"])
        return dict(spread)

    def summary(self) -> dict[str, Any]:
        """What the reward analysis reports: the share of flaky rows overall and per task."""
        return {
            "repeats": self.repeats,
            "verifier": self.verifier,
            "rollouts_checked": self.rollouts_checked,
            "flaky_rollouts": len(self.flaky),
            "flaky_share": len(self.flaky) / self.rollouts_checked if self.rollouts_checked else None,
            "flaky_tasks": [{TASK_INDEX: task, "flaky_rollouts": self.flaky_per_task[task],
                             "rollouts": self.task_rollouts[task], "flaky_share": share}
                            for task, share in self.task_shares().items()],
        }

    def as_dict(self) -> dict[str, Any]:
        value = asdict(self)
        value["task_rollouts"] = {str(task): count for task, count in sorted(self.task_rollouts.items())}
        return value


def flakiness_path(rollouts_path: Path) -> Path:
    return sibling_path(Path(rollouts_path), FLAKINESS_SUFFIX)


def write_flakiness(rollouts_path: Path, flakiness: Flakiness) -> Path:
    path = flakiness_path(rollouts_path)
    write_json_atomic(path, flakiness.as_dict(), indent=True)
    return path


def read_flakiness(rollouts_path: Path) -> Flakiness | None:
    """The flakiness record of these very rollouts, or None (none measured, or the rollouts changed since)."""
    path = flakiness_path(rollouts_path)
    if not path.is_file() or not Path(rollouts_path).is_file():
        return None
    try:
        value = orjson.loads(path.read_bytes())
        if value["rollouts_digest"] != file_digest(rollouts_path):
            return None
        return Flakiness(
            repeats=int(value["repeats"]), verifier=dict(value["verifier"]), rollouts_digest=value["rollouts_digest"],
            rollouts_checked=int(value["rollouts_checked"]),
            task_rollouts={int(task): int(count) for task, count in value["task_rollouts"].items()},
            flaky=[{TASK_INDEX: int(row[TASK_INDEX]), ROLLOUT_INDEX: int(row[ROLLOUT_INDEX]),
                    "rewards": [float(reward) for reward in row["rewards"]]} for row in value["flaky"]],
        )
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path}: not a verifier flakiness record ({error})") from None
