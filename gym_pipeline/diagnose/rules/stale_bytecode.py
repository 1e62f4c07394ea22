"""Step 5: a module of the run's own code that Python ran from a compiled file older than its source.

Python keeps each imported module compiled in `__pycache__/<name>.cpython-XY.pyc` and trusts it while the source
keeps the time stamp and size the compiled file recorded. A fix unpacked from an archive built with one fixed time
stamp (zip's 1980-01-01, `SOURCE_DATE_EPOCH`), or copied with its times kept, that leaves a file's size unchanged
(`REL_TOL = 1e-1` -> `1e-6`) is never recompiled: the run keeps the old code (a verifier still crediting near misses),
the source in the folder reads right, and every command exits 0. Named when a compiled file of the folder (not of an
installed package) records its source's present size and time stamp (or an archive's fixed one), was written by this
Python, and holds constants its source no longer has.

A compiled file written with `python -m compileall --invalidation-mode unchecked-hash` (a node set-up that
precompiles the tools to spare a slow shared home the stat calls) is never checked against its source at all: a source
edited since (this week's label fixes) is never compiled, whatever its size or time. Named when such a file records a
hash other than its source's and holds other constants, with the script line that compiled it.
"""

from __future__ import annotations

import importlib.util
import marshal
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

MAX_COMPILED_FILES = 200  # the run's own modules, not a virtual environment kept in the folder
_INSTALLED = re.compile(r"(?:^|/)(?:site-packages|dist-packages|\.?venv|node_modules|\.git)(?:/|$)")
_HEADER_BYTES = 16  # magic, flags, source time stamp, source size
_TIMESTAMP_BASED = 0  # flags of a pyc checked by time stamp and size (not by hash)
_UNCHECKED_HASH = 0b01  # flags of a pyc holding its source's hash, which Python never checks
_COMPILED_UNCHECKED = re.compile(r"\bcompileall\b[^\n]*--invalidation-mode[= ]unchecked-hash")
# A source time stamp before 1980-01-02 is an archive's fixed one (zip cannot store earlier times): the folder may be a
# copy (a git checkout) whose files have new times, while the run saw the archive's.
_ARCHIVE_EPOCH_END = 315619200


def _compiled_files(run_dir: Path) -> Iterator[tuple[Path, Path]]:
    """(compiled file, its source) of the folder's own modules, compiled by this Python."""
    seen = 0
    suffix = f".{sys.implementation.cache_tag}.pyc"
    for compiled in run_dir.rglob(f"__pycache__/*{suffix}"):
        if _INSTALLED.search(compiled.relative_to(run_dir).as_posix()):
            continue
        seen += 1
        if seen > MAX_COMPILED_FILES:
            return
        source = compiled.parent.parent / (compiled.name[: -len(suffix)] + ".py")
        if source.is_file():
            yield compiled, source


def _constants(code: CodeType) -> set[str]:
    """The literal values of a module's code, nested functions included (as text: 0.1 and 1e-06 differ)."""
    found = set()
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            found |= _constants(constant)
        elif isinstance(constant, (int, float, complex, str, bytes)) and not isinstance(constant, bool):
            found.add(repr(constant))
    return found


def _stale_constants(compiled: Path, source: Path) -> tuple[list[str], list[str], bool] | None:
    """(constants only the compiled file has, constants only the source has, whether it is an unchecked-hash file),
    when the compiled file is one Python would still trust for this source (its recorded size is the source's, or it
    is never checked) and its code is not the source's."""
    try:
        data = compiled.read_bytes()
        text = source.read_bytes()
    except OSError:
        return None
    if len(data) <= _HEADER_BYTES or data[:4] != importlib.util.MAGIC_NUMBER:
        return None
    flags = int.from_bytes(data[4:8], "little")
    recorded_time = int.from_bytes(data[8:12], "little")
    recorded_size = int.from_bytes(data[12:16], "little")
    trusted_time = recorded_time == int(source.stat().st_mtime) & 0xFFFFFFFF or recorded_time < _ARCHIVE_EPOCH_END
    unchecked = flags == _UNCHECKED_HASH and data[8:16] != importlib.util.source_hash(text)
    if not unchecked and (flags != _TIMESTAMP_BASED or recorded_size != len(text) & 0xFFFFFFFF or not trusted_time):
        return None  # Python would compile the source again: the compiled file is not what ran since
    try:
        kept = marshal.loads(data[_HEADER_BYTES:])
        fresh = compile(text, str(source), "exec", dont_inherit=True)
    except (ValueError, EOFError, TypeError, SyntaxError):
        return None
    if not isinstance(kept, CodeType):
        return None
    old, new = _constants(kept), _constants(fresh)
    return (sorted(old - new), sorted(new - old), unchecked) if old != new else None


def rule_module_run_from_stale_bytecode(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for compiled, source in _compiled_files(ev.run_dir):
        stale = _stale_constants(compiled, source)
        if stale is None:
            continue
        only_compiled, only_source, unchecked = stale
        module, cache = ev.rel(source), ev.rel(compiled.parent)
        kept = ", ".join(only_compiled[:3]) or "other code"
        now = ", ".join(only_source[:3]) or "other code"
        package = ev.rel(source.parent)
        if unchecked:
            return [_never_checked(ev, compiled, module, cache, kept, now)]
        return [Finding(
            category=CACHE_RESUME,
            title=f"{module} ran from its compiled copy in {cache}, which holds {kept} where the source now has "
                  f"{now}: the fix in the source never ran",
            evidence=[EvidenceLine(file=ev.rel(compiled), line=None,
                                   text=f"compiled for a source of {source.stat().st_size} bytes, constants {kept}"),
                      EvidenceLine(file=module, line=None, text=f"constants now {now}")],
            cause=f"Python runs a module from `__pycache__` while the source keeps the time stamp and size the "
                  f"compiled file recorded. {module} was replaced by a file of the same size and time stamp (an "
                  "archive built with one fixed time, or a copy keeping times), so the compiled copy of the old code "
                  f"was kept: the run used the old {Path(module).stem} (its values {kept}), not the source in the "
                  "folder.",
            fix=f"Delete the stale compiled files (`find {package} -name __pycache__ -prune -exec rm -rf {{}} +`) "
                "whenever a release is unpacked over the old one (or unpack with real times, or compile with "
                "`python -m compileall --invalidation-mode checked-hash`), check the version the run imports, "
                "then run the eval again.",
        )]
    return []


def _never_checked(ev: Evidence, compiled: Path, module: str, cache: str, kept: str, now: str) -> Finding:
    """An unchecked-hash compiled file of a source edited since, with the script line that compiled it."""
    line = next((EvidenceLine(file=file.name, line=number, text=text.strip())
                 for file in ev.user_files for number, text in enumerate(file.text.splitlines(), 1)
                 if _COMPILED_UNCHECKED.search(text)), None)
    by = f" ({line.where}, `--invalidation-mode unchecked-hash`)" if line else " (`--invalidation-mode unchecked-hash`)"
    return Finding(
        category=CACHE_RESUME,
        title=f"{module} ran from its compiled copy in {cache}, compiled never to be checked{by}: it holds {kept} "
              f"where the source now has {now}",
        evidence=[*([line] if line else []),
                  EvidenceLine(file=ev.rel(compiled), line=None, text=f"unchecked-hash, constants {kept}"),
                  EvidenceLine(file=module, line=None, text=f"constants now {now}")],
        cause=f"A compiled file written with `--invalidation-mode unchecked-hash` is used without looking at its "
              f"source: {module} was edited after it was compiled{by}, and every run since imported the old code "
              f"(its values {kept}), while the source in the folder reads right. Every command exits 0.",
        fix=f"Delete {cache} (`rm -rf {cache}`) so Python compiles {module} again, and precompile with "
            f"`--invalidation-mode checked-hash` (or leave `compileall` out) in "
            f"{line.file if line else 'the set-up script'}; then run the prep and the eval again.",
    )
