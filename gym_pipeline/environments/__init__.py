"""The bundled example environments, by name, and environments whose verifier the sweep config names."""

from __future__ import annotations

from difflib import get_close_matches
from pathlib import Path

from gym_pipeline.environments.base import Environment, VerifierInputError
from gym_pipeline.environments.custom import CustomVerifierEnvironment
from gym_pipeline.environments.mcqa import McqaEnvironment
from gym_pipeline.environments.string_match import StringMatchEnvironment
from gym_pipeline.environments.workspace_verifiers import VerifierNotFoundError, VerifierReference

ENVIRONMENTS: dict[str, Environment] = {
    environment.name: environment for environment in (StringMatchEnvironment(), McqaEnvironment())
}


class UnknownEnvironmentError(ValueError):
    pass


def get_environment(name: str) -> Environment:
    try:
        return ENVIRONMENTS[name]
    except KeyError:
        close = get_close_matches(name.lower(), sorted(ENVIRONMENTS), n=1)
        suggestion = f"; did you mean {close[0]!r}? (names are case-sensitive)" if close else ""
        raise UnknownEnvironmentError(
            f"unknown environment {name!r} (known: {', '.join(sorted(ENVIRONMENTS))}){suggestion}"
        ) from None


def environment_for(name: str, dataset: Path | None = None, verifier: str | None = None,
                    verifiers_dir: Path | None = None) -> Environment:
    """The bundled environment `name`, or, with `verifier` ("MODULE:FUNCTION"), one scored by that function."""
    if verifier is None:
        return get_environment(name)
    return CustomVerifierEnvironment(name, dataset, VerifierReference.parse(verifier), verifiers_dir)


__all__ = [
    "ENVIRONMENTS",
    "CustomVerifierEnvironment",
    "Environment",
    "McqaEnvironment",
    "StringMatchEnvironment",
    "UnknownEnvironmentError",
    "VerifierInputError",
    "VerifierNotFoundError",
    "VerifierReference",
    "environment_for",
    "get_environment",
]
