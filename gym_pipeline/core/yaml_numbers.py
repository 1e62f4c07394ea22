"""Integers that YAML reads otherwise than they are written: a leading 0 makes one octal (`num_repeats: 010` is 8).

YAML 1.1 (PyYAML, and OmegaConf under Hydra) reads `0` followed by digits 0-7 as an octal number, so a value
zero-padded to line up with others is silently another number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

# `key: 010` (or `- key: 010`), with an optional comment: the only form checked, enough for settings files
_PADDED = re.compile(r"^\s*(?:-\s+)?(?P<key>[\w.-]+):\s+(?P<written>[-+]?0[0-7_]+)\s*(?:#.*)?$")


@dataclass(frozen=True)
class OctalNumber:
    line: int
    key: str
    written: str
    read: int  # what YAML makes of it

    @property
    def meant(self) -> int:
        return int(self.written.replace("_", ""), 10)

    def describe(self) -> str:
        return (f"`{self.key}: {self.written}` reads as {self.read}, not {self.meant}: YAML reads an integer with a "
                "leading 0 as octal")


def octal_numbers(text: str) -> list[OctalNumber]:
    """The `key: 0NN` lines of a YAML text whose number YAML reads as another one."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        padded = _PADDED.match(line)
        if padded is None:
            continue
        read = yaml.safe_load(padded["written"])
        candidate = OctalNumber(number, padded["key"], padded["written"], read) if isinstance(read, int) else None
        if candidate is not None and candidate.read != candidate.meant:
            found.append(candidate)
    return found
