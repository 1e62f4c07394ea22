"""Step 1: a setting written into the wrong TOML table.

In TOML every key after a `[table]` header belongs to that table, up to the next header. A key appended at the end
of a settings file (`model_url = ...` added below `[notify]`) lands in the last table, not in the one the user's
script reads it from (`settings["eval"].get("model_url", default)`): the script takes its default, and nothing says
the line was skipped.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG

# `cfg = settings["eval"]`, `cfg = tomllib.load(f)["eval"]`: a name bound to one table of the parsed file
_TABLE_BOUND = re.compile(r"(?P<name>\w+)\s*=\s*(?:\w+|\w+(?:\.\w+)*\([^()\n]*\))\[\s*[\"'](?P<table>[\w-]+)[\"']\s*\]")


def _tables(file: UserFile) -> dict[str, dict]:
    try:
        parsed = tomllib.loads(file.text)
    except tomllib.TOMLDecodeError:
        return {}
    return {name: value for name, value in parsed.items() if isinstance(value, dict)}


def _keys_read(code: str) -> Iterator[tuple[str, int, str, str]]:
    """(table, line number, line, key) of each key the script reads from a table it bound to a name
    (`cfg = settings["eval"]` then `cfg.get("model_url", ...)`), or reads directly (`settings["eval"]["repeats"]`)."""
    bound = {m["name"]: m["table"] for m in _TABLE_BOUND.finditer(code)}
    for number, line in enumerate(code.splitlines(), 1):
        for name, table in bound.items():
            for match in re.finditer(rf"\b{name}(?:\.get\(\s*|\[\s*)[\"'](?P<key>[\w-]+)[\"']", line):
                yield table, number, line, match["key"]
        for match in re.finditer(r"\[\s*[\"'](?P<table>[\w-]+)[\"']\s*\](?:\.get\(\s*|\[\s*)[\"'](?P<key>[\w-]+)[\"']", line):
            yield match["table"], number, line, match["key"]


def _line_of(lines: list[str], pattern: str, after: int = 0) -> int | None:
    return next((number for number, line in enumerate(lines, 1) if number > after and re.match(pattern, line)), None)


def rule_setting_under_another_toml_table(ev: Evidence) -> list[Finding]:
    scripts = [file for file in ev.user_files if file.suffix == ".py"]
    for settings in (file for file in ev.user_files if file.suffix == ".toml"):
        tables = _tables(settings)
        if len(tables) < 2:
            continue
        for script in (s for s in scripts if settings.name.rsplit("/", 1)[-1] in s.text):
            for table, number, code, key in _keys_read(script.text):
                holder = next((other for other, keys in tables.items() if other != table and key in keys), None)
                if table not in tables or key in tables[table] or holder is None:
                    continue
                lines = settings.text.splitlines()
                header = _line_of(lines, rf"\s*\[{re.escape(holder)}\]")
                written = _line_of(lines, rf"\s*{re.escape(key)}\s*=", after=header or 0)
                if header is None or written is None:
                    continue
                return [Finding(
                    category=CONFIG,
                    title=f"{settings.name}:{written} sets `{key}` under [{holder}] (the table above it), and "
                          f"{script.name}:{number} reads it from [{table}]: the setting was never used",
                    evidence=[EvidenceLine(file=settings.name, line=written, text=lines[written - 1].strip()),
                              EvidenceLine(file=settings.name, line=header, text=lines[header - 1].strip()),
                              EvidenceLine(file=script.name, line=number, text=code.strip())],
                    cause=f"In TOML a key belongs to the last `[table]` header above it: `{key}` at line "
                          f"{written} comes after `[{holder}]` (line {header}), so it is {holder}.{key}. "
                          f"{script.name} looks for it in [{table}], finds nothing there and goes on with "
                          "its default, without a word.",
                    fix=f"In {settings.name}, move `{lines[written - 1].strip()}` up into the [{table}] table "
                        f"(above `[{holder}]`), or write it as `{table}.{key} = ...` before the first header; "
                        f"`python -c 'import tomllib; print(tomllib.load(open(\"{settings.name}\", \"rb\"))"
                        f"[\"{table}\"])'` shows what the script gets; then run the eval again.",
                    explains=frozenset({"model_endpoint_down"}),
                )]
    return []
