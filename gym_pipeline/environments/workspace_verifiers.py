"""Verifiers named in sweep.yaml (`verifier: "MODULE:FUNCTION"`), found and loaded.

MODULE is looked up first in the workspace's `verifiers/` folder, then among installed packages. Workspace
modules (the verifier's and the workspace modules it imports) are compiled from their source on every load,
never from a `__pycache__` file, and loaded afresh: a verifier edited a moment ago is the one that runs, even
within the second a cached `.pyc`'s timestamp would still claim.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

# Gym's verifier fields, in the order a resources server's /verify writes them.
GYM_VERIFIER_FIELDS = ("reward", "mask_sample", "failure_kind", "failure_reason")
_REFERENCE = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*)$")

VerifierFunction = Callable[[dict[str, Any], str], Any]


class VerifierNotFoundError(ValueError):
    """A `verifier:` whose module or function cannot be found or loaded."""


@dataclass(frozen=True)
class VerifierReference:
    module: str
    function: str

    @classmethod
    def parse(cls, text: str) -> VerifierReference:
        match = _REFERENCE.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"{text!r} is not MODULE:FUNCTION (a dotted module name, a colon, a function name), "
                             "e.g. my_verifier:score")
        return cls(match.group(1), match.group(2))

    def __str__(self) -> str:
        return f"{self.module}:{self.function}"


def workspace_module_path(name: str, folder: Path | None) -> Path | None:
    """The file of module `name` in the workspace folder (`a/b.py` or `a/b/__init__.py`), or None."""
    if folder is None:
        return None
    base = Path(folder).joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


class _SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Compiles the source each time: no `.pyc` read or written."""

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return compile(self.get_data(path), path, "exec", dont_inherit=True)


class _WorkspaceFinder(importlib.abc.MetaPathFinder):
    """Finds modules in the workspace's verifiers folder before any other finder does."""

    def __init__(self, folder: Path):
        self.folder = folder.resolve()

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: Any = None) -> Any:
        folders = [self.folder] if path is None else [Path(p) for p in path if Path(p).is_relative_to(self.folder)]
        for folder in folders:
            spec = importlib.machinery.FileFinder(str(folder), (_SourceOnlyLoader, [".py"])).find_spec(fullname)
            if spec is not None and spec.loader is not None:  # not a bare namespace folder
                return spec
        return None


def use_workspace(folder: Path | None) -> None:
    """Make `folder` the one workspace whose modules imports find first, and forget modules loaded from any
    workspace before, so the next import reads them afresh."""
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, _WorkspaceFinder)]
    for name, module in list(sys.modules.items()):
        if isinstance(getattr(getattr(module, "__spec__", None), "loader", None), _SourceOnlyLoader):
            del sys.modules[name]
    importlib.invalidate_caches()
    if folder is not None and Path(folder).is_dir():
        sys.meta_path.insert(0, _WorkspaceFinder(Path(folder)))


def load_verifier(reference: VerifierReference, folder: Path | None) -> VerifierFunction:
    """The verifier function, imported afresh; `VerifierNotFoundError` says what is missing and where it looked."""
    where = f"in {folder} or among installed packages" if folder is not None else "among installed packages"
    shadowed = sys.modules.get(reference.module.split(".")[0])
    if shadowed is not None and workspace_module_path(reference.module.split(".")[0], folder) is not None and not \
            isinstance(getattr(shadowed.__spec__, "loader", None), _SourceOnlyLoader):
        raise VerifierNotFoundError(f"module {reference.module!r}: the workspace's {folder}/ has one, but a module of "
                                    "that name is already imported from elsewhere (the standard library, a package); "
                                    "rename the workspace's")
    use_workspace(folder)
    try:
        module = importlib.import_module(reference.module)
    except ModuleNotFoundError as error:
        if error.name and (reference.module == error.name or reference.module.startswith(error.name + ".")):
            raise VerifierNotFoundError(f"module {reference.module!r} not found {where}") from None
        raise VerifierNotFoundError(f"module {reference.module!r} imports {error.name!r}, which is not found {where}") \
            from None
    except Exception as error:  # the module's own code failed: a syntax error, an exception at import
        raise VerifierNotFoundError(f"module {reference.module!r} failed to import: {type(error).__name__}: "
                                    f"{error}") from None
    function = getattr(module, reference.function, None)
    origin = getattr(module, "__file__", None) or reference.module
    if function is None:
        raise VerifierNotFoundError(f"module {reference.module!r} ({origin}) has no function {reference.function!r}")
    if not callable(function):
        raise VerifierNotFoundError(f"{reference} ({origin}) is a {type(function).__name__}, not a function")
    return function


def verdict_of(result: Any) -> dict[str, Any]:
    """A verifier's return value as Gym's verifier fields, in Gym's order: a number is the reward; a dict gives
    `reward` (required), `mask_sample`, `failure_kind`, `failure_reason`, then its own JSON fields. Anything else
    raises, which the engine turns into a masked `verifier_error` row."""
    if isinstance(result, dict):
        fields = result
        reward = result.get("reward")
    elif isinstance(result, int | float):
        fields, reward = {}, result
    else:
        raise TypeError(f"a verifier returns a float reward or a dict of Gym's verifier fields, "
                        f"got {type(result).__name__}")
    if not isinstance(reward, int | float) or not math.isfinite(reward):
        raise TypeError(f"the verifier's reward must be a finite number, got {reward!r}")
    own = {key: value for key, value in fields.items() if key not in GYM_VERIFIER_FIELDS}
    try:
        orjson.dumps(own)
    except orjson.JSONEncodeError as error:
        raise TypeError(f"the verifier's own fields must be JSON values ({error})") from None
    return {"reward": float(reward), "mask_sample": fields.get("mask_sample", False),
            "failure_kind": fields.get("failure_kind"), "failure_reason": fields.get("failure_reason"), **own}
