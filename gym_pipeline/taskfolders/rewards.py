"""Harbor's reward contract: `test.sh` writes `/logs/verifier/reward.txt` (one number) or `reward.json`.

As Harbor's verifier reads them: `reward.txt` first, else `reward.json`, an object of named rewards
(`{"reward": 1.0}` or `{"tests_passed": 3, ...}`). Gym's row holds one `reward`: the `reward` entry, or the only
entry when there is one. A file that is not a finite number is `harbor:invalid_reward`; neither file is
`harbor:missing_reward`. Both are scored as 0.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from gym_pipeline.core import failure_kinds

REWARD_TEXT = "reward.txt"
REWARD_JSON = "reward.json"


@dataclass(frozen=True)
class RewardReading:
    reward: float
    rewards: dict[str, float]  # every named reward reward.json gave (reward.txt: {"reward": value})
    failure_kind: str | None = None
    failure_reason: str | None = None


def _finite(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _invalid(reason: str) -> RewardReading:
    return RewardReading(0.0, {}, failure_kinds.HARBOR_INVALID_REWARD, reason)


def read_reward(verifier_dir: Path) -> RewardReading:
    """The reward in a copy of the container's `/logs/verifier`."""
    text_path, json_path = Path(verifier_dir) / REWARD_TEXT, Path(verifier_dir) / REWARD_JSON
    if text_path.is_file():
        text = text_path.read_text(encoding="utf-8", errors="replace").strip()
        try:
            value = float(text)
        except ValueError:
            return _invalid(f"{REWARD_TEXT} holds {text[:80]!r}, not a number")
        if not math.isfinite(value):
            return _invalid(f"{REWARD_TEXT} holds {text!r}, not a finite number")
        return RewardReading(value, {"reward": value})
    if json_path.is_file():
        try:
            value = json.loads(json_path.read_text(encoding="utf-8", errors="replace"))
        except json.JSONDecodeError as error:
            return _invalid(f"{REWARD_JSON} is not JSON ({error})")
        if not isinstance(value, dict) or not value:
            return _invalid(f"{REWARD_JSON} must be an object of named rewards, got {json.dumps(value)[:80]}")
        rewards = {name: _finite(entry) for name, entry in value.items()}
        bad = [name for name, entry in rewards.items() if entry is None]
        if bad:
            return _invalid(f"{REWARD_JSON}: {bad[0]!r} is {json.dumps(value[bad[0]])[:40]}, not a finite number")
        if "reward" not in rewards and len(rewards) > 1:
            return _invalid(f"{REWARD_JSON} names {sorted(rewards)} and no 'reward' entry to score by")
        chosen = rewards.get("reward", next(iter(rewards.values())))
        return RewardReading(chosen, rewards)  # type: ignore[arg-type]
    return RewardReading(0.0, {}, failure_kinds.HARBOR_MISSING_REWARD,
                         f"test.sh wrote neither {REWARD_TEXT} nor {REWARD_JSON} in /logs/verifier")
