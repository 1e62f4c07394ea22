"""The bundled example environments, by name."""

from __future__ import annotations

from gym_pipeline.environments.base import Environment, VerifierInputError
from gym_pipeline.environments.mcqa import McqaEnvironment
from gym_pipeline.environments.string_match import StringMatchEnvironment

ENVIRONMENTS: dict[str, Environment] = {
    environment.name: environment for environment in (StringMatchEnvironment(), McqaEnvironment())
}


class UnknownEnvironmentError(ValueError):
    pass


def get_environment(name: str) -> Environment:
    try:
        return ENVIRONMENTS[name]
    except KeyError:
        raise UnknownEnvironmentError(
            f"unknown environment {name!r} (known: {', '.join(sorted(ENVIRONMENTS))})"
        ) from None


__all__ = [
    "ENVIRONMENTS",
    "Environment",
    "McqaEnvironment",
    "StringMatchEnvironment",
    "UnknownEnvironmentError",
    "VerifierInputError",
    "get_environment",
]
