"""What YAML reads otherwise than a settings file's author meant, without a word.

- A leading 0 makes an integer octal: YAML 1.1 (PyYAML, and OmegaConf under Hydra) reads `num_repeats: 010` as 8,
  so a value zero-padded to line up with others is silently another number.
- A key given twice in one mapping: PyYAML keeps the last (`num_repeats: 8` at the top, a forgotten `num_repeats: 1`
  at the bottom: the run makes one repeat).
"""

from __future__ import annotations

import re
from collections import deque
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


@dataclass(frozen=True)
class DuplicateKey:
    key: str  # dotted, from the top: `launchers.collect.kind`
    lines: tuple[int, ...]  # where it is given, the last one wins
    kept: str  # the value YAML keeps (the last one's text)

    def describe(self) -> str:
        where = ", ".join(map(str, self.lines))
        return f"`{self.key}` is given {len(self.lines)} times (lines {where}): YAML keeps the last, {self.kept}"


def duplicate_keys(text: str) -> list[DuplicateKey]:
    """The keys given more than once in one mapping of a YAML text ([] when it does not parse)."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return []
    found: list[DuplicateKey] = []
    pending = deque([(root, "")] if root is not None else [])  # in document order: an alias names its anchor's place
    seen_nodes: set[int] = set()  # an alias (`*a`) shares its anchor's node, and may hold itself
    while pending:
        node, path = pending.popleft()
        if id(node) in seen_nodes:
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            pending += [(item, f"{path}.{number}" if path else str(number)) for number, item in enumerate(node.value)]
        if not isinstance(node, yaml.MappingNode):
            continue
        seen: dict[str, list[tuple[int, yaml.Node]]] = {}
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                seen.setdefault(key.value, []).append((key.start_mark.line + 1, value))
            pending.append((value, f"{path}.{key.value}" if path else str(key.value)))
        for key, places in seen.items():
            if len(places) > 1:
                last = places[-1][1]
                kept = f"`{last.value}`" if isinstance(last, yaml.ScalarNode) else "a mapping or list"
                found.append(DuplicateKey(f"{path}.{key}" if path else key, tuple(line for line, _ in places), kept))
    return sorted(found, key=lambda duplicate: duplicate.lines)
