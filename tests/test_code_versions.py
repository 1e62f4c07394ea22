"""Code versions follow the code a stage runs: a change to one module marks exactly the stages that run it."""

from __future__ import annotations

import pytest

from gym_pipeline import code_versions, stages
from gym_pipeline.assets import build_assets
from gym_pipeline.code_versions import code_version_of, modules_of
from gym_pipeline.core import compare
from gym_pipeline.demo import create_workspace

# What each asset's stage runs, as the assets declare it.
STAGES = {
    "materialized_inputs": stages.materialize_partition,
    "rollouts": stages.collect_partition,
    "reward_profile": stages.profile_partition,
    "diagnostic_report": stages.diagnose_partition,
    "checkpoint_comparison": compare,
}

# One module changed at a time -> the stages whose version must change (and no other).
EXPECTED_CHANGES = {
    # how a standard deviation or a confidence interval is computed: the profile only
    "gym_pipeline.core.profile_stats": {"reward_profile"},
    # the collector's retries, request translation and a verifier: the rollouts only
    "gym_pipeline.engines.retry": {"rollouts"},
    "gym_pipeline.engines.responses": {"rollouts"},
    "gym_pipeline.environments.string_match": {"rollouts"},
    # Gym's repeat expansion: the inputs, and what checks them before a collection or a diagnosis
    "gym_pipeline.core.materialize": {"materialized_inputs", "rollouts", "diagnostic_report"},
    # the comparison's statistics, which the profile's pass@k analysis shares
    "gym_pipeline.core.compare": {"checkpoint_comparison", "reward_profile"},
    # a rule of the diagnosis
    "gym_pipeline.diagnose.origin": {"diagnostic_report"},
    # wiring: where and how stages are launched, scheduled and configured, never what they compute
    "gym_pipeline.assets.rollouts": set(),
    "gym_pipeline.launchers.local": set(),
    "gym_pipeline.config": set(),
    "gym_pipeline.sensors": set(),
}


def clear_caches() -> None:
    for cached in (code_versions._source, code_versions._imports_of, code_versions._module_code):
        cached.cache_clear()


def versions() -> dict[str, str]:
    clear_caches()
    return {name: code_version_of(root) for name, root in STAGES.items()}


@pytest.fixture
def edited(monkeypatch):
    """Replace one module's source (as the code versions read it) with an edit of it."""
    original = code_versions._source.__wrapped__

    def edit(module: str, change) -> None:
        monkeypatch.setattr(code_versions, "_source", code_versions.cache(
            lambda name: change(original(name)) if name == module else original(name)))

    yield edit
    # what was computed from the edited source must not outlive the test (the assets of a later test read it)
    monkeypatch.undo()
    clear_caches()


@pytest.mark.parametrize("module", sorted(EXPECTED_CHANGES))
def test_a_code_change_marks_exactly_the_stages_that_run_it(module, edited):
    before = versions()
    edited(module, lambda source: source + "\nCODE_CHANGED_FOR_THE_TEST = 1\n")
    after = versions()
    assert {name for name in STAGES if before[name] != after[name]} == EXPECTED_CHANGES[module]


@pytest.mark.parametrize("change", [
    lambda source: "# a new comment\n" + source.replace("\n\n\n", "\n\n\n# and another\n\n\n", 1),
    lambda source: source.replace('"""', '"""Docstrings say more now. ', 1),
    lambda source: source.replace("    ", "        "),  # re-indented: the same code
], ids=["comments", "docstring", "formatting"])
def test_comments_docstrings_and_formatting_change_nothing(change, edited):
    before = versions()
    edited("gym_pipeline.core.profile_stats", change)
    assert versions() == before


def test_a_stage_covers_the_modules_where_its_numbers_are_computed():
    assert {"gym_pipeline.core.profile_stats", "gym_pipeline.core.reward_analysis"} <= set(
        modules_of(stages.profile_partition))
    assert {"gym_pipeline.engines.retry", "gym_pipeline.engines.responses", "gym_pipeline.environments.mcqa"} <= set(
        modules_of(stages.collect_partition))
    assert not any(name.startswith(("gym_pipeline.assets", "gym_pipeline.launchers"))
                   for root in STAGES.values() for name in modules_of(root))


def test_the_assets_carry_these_versions(tmp_path):
    config = create_workspace(tmp_path, 1)
    by_name = {a.key.to_user_string(): a for a in build_assets(config) if hasattr(a, "code_versions_by_key")}
    expected = versions()
    for name, version in expected.items():
        [code] = by_name[name].code_versions_by_key.values()
        assert code == version, name
