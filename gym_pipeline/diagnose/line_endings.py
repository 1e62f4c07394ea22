"""The user's own text files in a run folder saved with Windows (CRLF) line endings.

A shell that sources such a file (`source eval.env`, a job script) keeps the carriage return at the end of every
value: an agent name, a path or a number then ends in `\\r`, and whatever reads it refuses it in words that never
mention the `\\r` (Hydra's `LexerNoViableAltException`, a file not found). The run's inputs say it plainly.
"""

from __future__ import annotations

from pathlib import Path

_INPUT_SUFFIXES = {".sh", ".env", ".bash", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".conf", ".sbatch", ""}
_MAX_BYTES = 1 << 20  # a script or settings file, not data or logs


def crlf_inputs(run_dir: Path | None) -> list[str]:
    """Names (relative to the run folder) of the small scripts and settings files in it, or one folder down, that
    have CRLF line endings."""
    if run_dir is None or not run_dir.is_dir():
        return []
    found = []
    for path in sorted([*run_dir.iterdir(), *(p for d in run_dir.iterdir() if d.is_dir() for p in d.iterdir())]):
        if path.suffix not in _INPUT_SUFFIXES or not path.is_file() or path.stat().st_size > _MAX_BYTES:
            continue
        try:
            if b"\r\n" in path.read_bytes():
                found.append(str(path.relative_to(run_dir)))
        except OSError:
            continue
    return found


def crlf_hint(run_dir: Path | None) -> str:
    """A sentence naming the CRLF files, or ""."""
    files = crlf_inputs(run_dir)
    if not files:
        return ""
    named = ", ".join(f"`{name}`" for name in files[:3])
    return (f"{named} {'has' if len(files) == 1 else 'have'} Windows (CRLF) line endings: every value a shell reads "
            "from it ends in a carriage return (`\\r`), which breaks names, paths and numbers. Convert it: `sed -i "
            f"'s/\\r$//' {files[0]}` (or `dos2unix`), then run again.")
