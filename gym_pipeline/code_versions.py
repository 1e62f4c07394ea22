"""Code versions that follow the code a stage runs.

A stage's version is a digest of the project code it executes: the stage function itself, the
project modules it uses, and every project module those import, transitively (imports inside
functions included). Each module is hashed as its compiled code (bytecode, names and constants,
without line numbers) with docstrings removed, so a change to comments, docstrings or formatting
changes nothing, and a change to how a standard deviation or a reward is computed changes exactly
the stages that run it.

Wiring is not part of any stage's version: the Dagster assets, sensors and automation, the
config loading, the command line, and the launchers (where a stage runs, not what it computes).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from types import CodeType, FunctionType, ModuleType

from gym_pipeline.environments.workspace_verifiers import workspace_module_path

PROJECT = "gym_pipeline"
# Modules (and packages, with everything below them) that wire stages together rather than compute them.
WIRING = frozenset({
    "gym_pipeline.assets", "gym_pipeline.automation", "gym_pipeline.backfill", "gym_pipeline.checks",
    "gym_pipeline.cli", "gym_pipeline.cli_args", "gym_pipeline.code_versions", "gym_pipeline.config",
    "gym_pipeline.definitions", "gym_pipeline.demo", "gym_pipeline.discovery", "gym_pipeline.launchers",
    "gym_pipeline.sensors", "gym_pipeline.stages", "gym_pipeline.status", "gym_pipeline.sweep",
})
DIGEST_CHARS = 16


def code_version_of(*roots: Callable | ModuleType) -> str:
    """The code version of the stage that runs `roots`: stage functions (their own code and what they use) or
    modules, with every project module they import, transitively."""
    digest = hashlib.sha256()
    for name, text in sorted(_code_of(roots).items()):
        digest.update(f"{name}\0{text}\n".encode())
    return digest.hexdigest()[:DIGEST_CHARS]


def modules_of(*roots: Callable | ModuleType) -> list[str]:
    """The project modules (not wiring) a stage's version covers, sorted: what `code_version_of` hashes."""
    return sorted(name for name in _code_of(roots) if not name.startswith("function "))


def _code_of(roots: Iterable[Callable | ModuleType]) -> dict[str, str]:
    """{module name or `function <qualname>`: normalized code} for everything the roots run."""
    code: dict[str, str] = {}
    modules: list[str] = []
    functions = [root for root in roots if not isinstance(root, ModuleType)]
    modules += [root.__name__ for root in roots if isinstance(root, ModuleType)]
    seen_functions: set[str] = set()
    while functions:
        function = inspect.unwrap(functions.pop())
        key = f"function {function.__module__}.{function.__qualname__}"
        if key in seen_functions:
            continue
        seen_functions.add(key)
        code[key] = _normalized(inspect.getsource(function))
        for value in _globals_used(function):
            if isinstance(value, ModuleType):
                modules.append(value.__name__)
            elif isinstance(value, FunctionType) and value.__module__ == function.__module__:
                functions.append(value)  # a helper beside the stage function: its own code, not its whole module
            elif isinstance(getattr(value, "__module__", None), str):
                modules.append(value.__module__)
    for name in _closure(modules):
        code[name] = _module_code(name)
    return code


def _globals_used(function: FunctionType) -> list[object]:
    """The module-level objects a function's code (nested functions and lambdas included) refers to."""
    names: set[str] = set()
    stack: list[CodeType] = [function.__code__]
    while stack:
        code = stack.pop()
        names.update(code.co_names)
        stack.extend(const for const in code.co_consts if isinstance(const, CodeType))
    return [function.__globals__[name] for name in sorted(names) if name in function.__globals__]


def _is_project_code(name: str) -> bool:
    if name != PROJECT and not name.startswith(PROJECT + "."):
        return False
    return not any(name == wiring or name.startswith(wiring + ".") for wiring in WIRING)


def _closure(names: Iterable[str]) -> list[str]:
    """The project modules among `names` and everything they import, transitively, with their packages. A package
    that is only there because a module inside it is imported counts with its own code, not with what it imports
    (a package's conveniences, such as `gym_pipeline.load_partition`, are not part of every stage)."""
    found: set[str] = set()
    packages: set[str] = set()
    pending = [name for name in names if _is_project_code(name)]
    while pending:
        name = pending.pop()
        if name in found:
            continue
        found.add(name)
        pending += [n for n in _imports_of(name) if _is_project_code(n) and n not in found]
        parent = name.rpartition(".")[0]
        while parent and _is_project_code(parent):
            packages.add(parent)
            parent = parent.rpartition(".")[0]
    return sorted(found | packages)


@cache
def _source(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"project module {name} not found for its code version")
    with open(spec.origin, encoding="utf-8") as handle:
        return handle.read()


@cache
def _imports_of(name: str) -> tuple[str, ...]:
    """Modules `name` imports (anywhere in it): `from a.b import c` gives a.b.c when c is a module, else a.b."""
    is_package = importlib.util.find_spec(name).submodule_search_locations is not None
    return _imports_in(_source(name), name, is_package, _is_module)


def _imports_in(source: str, name: str, is_package: bool, is_module: Callable[[str], bool]) -> tuple[str, ...]:
    package = name if is_package else name.rpartition(".")[0]
    imported: list[str] = []
    for node in _statements(ast.parse(source).body):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                imported.append(submodule if is_module(submodule) else base)
    return tuple(dict.fromkeys(imported))


def verifier_version(module: str, workspace: Path | None = None) -> str:
    """The version of a verifier: its module and the project or workspace modules it imports, transitively, each
    as parsed code (comments, docstrings and formatting change nothing). Workspace modules (files under
    `workspace`, found there first, as the verifier loader finds them) are read afresh on every call; an installed
    module's imports other than the project's are not followed."""
    code: dict[str, str] = {}
    project: list[str] = []
    pending = [module]

    def is_module(name: str) -> bool:
        return workspace_module_path(name, workspace) is not None or _is_module(name)

    while pending:
        name = pending.pop()
        if name in code:
            continue
        path = workspace_module_path(name, workspace)
        if path is not None:
            source = path.read_text(encoding="utf-8")
            code[name] = _normalized(source)
            pending += _imports_in(source, name, path.name == "__init__.py", is_module)
        elif _is_project_code(name):
            project.append(name)
        elif name == module and _is_module(name):  # an installed verifier module: itself, and the project's it uses
            code[name] = _module_code(name)
            pending += [imported for imported in _imports_of(name) if _is_project_code(imported)]
    if not code and not project:
        raise ModuleNotFoundError(f"verifier module {module} not found" + (f" in {workspace}" if workspace else ""))
    for name in _closure(project):
        code[name] = _module_code(name)
    digest = hashlib.sha256()
    for name, text in sorted(code.items()):
        digest.update(f"{name}\0{text}\n".encode())
    return digest.hexdigest()[:DIGEST_CHARS]


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement, nested ones included (an import may sit in a function): no expression is visited."""
    for statement in body:
        yield statement
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(statement, field, ()):
                yield from _statements(child.body if isinstance(child, (ast.ExceptHandler, ast.match_case))
                                       else [child])


def _is_module(name: str) -> bool:
    if name in sys.modules:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@cache
def _module_code(name: str) -> str:
    return _normalized(_source(name))


def _normalized(source: str) -> str:
    """The compiled code without its line table: comments and formatting are gone, while any change to what the
    code does changes its bytecode, names or constants. `optimize=2` drops docstrings (and asserts: stage code
    has none that matter). Compiling is C-fast, unlike walking or dumping the syntax tree."""
    digest = hashlib.sha256()
    codes = [compile(textwrap.dedent(source), "<stage code>", "exec", dont_inherit=True, optimize=2)]
    while codes:
        code = codes.pop()
        digest.update(code.co_code + code.co_exceptiontable)
        digest.update(repr((code.co_name, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
                            code.co_argcount, code.co_kwonlyargcount, code.co_flags)).encode())
        for constant in code.co_consts:
            if isinstance(constant, CodeType):
                codes.append(constant)
            digest.update(_constant_text(constant).encode())
    return digest.hexdigest()


def _constant_text(constant: object) -> str:
    """A constant's text, the same in every process (a frozenset's order follows the per-process string hash)."""
    if isinstance(constant, CodeType):
        return f"<code {constant.co_name}>"
    if isinstance(constant, frozenset):
        return "frozenset(" + ",".join(sorted(_constant_text(item) for item in constant)) + ")"
    if isinstance(constant, tuple):
        return "(" + ",".join(_constant_text(item) for item in constant) + ")"
    return repr(constant)
