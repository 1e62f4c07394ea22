"""A verifier that failed on a name it does not define, or a file that is not where it looks: what it meant.

Python names a misspelt variable or attribute (`NameError: name 'respone_text' is not defined`) but
the row's failure reason carries no traceback. When the run folder holds the workspace verifier the
sweep config points at, its source says both: the line that uses the name, and the names it defines
that are close to it (what Python's own "Did you mean" would print).

A verifier that opens a data file (an alias table, a rubric) by a path where it is not
(`FileNotFoundError: ... 'verifiers/aliases.json'`) often finds it moved: a file of that name elsewhere in the
run folder says where.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import re
from collections.abc import Iterator
from pathlib import Path

from gym_pipeline.diagnose.manifests import sweep_config_beside, workspace_verifier

MISSING_FILE = re.compile(r"(?:FileNotFoundError|No such file or directory)[^'\"]*['\"](?P<path>[^'\"]+?(?:['\"]|…))")
_NOT_SEARCHED = frozenset({".venv", "venv", "site-packages", "node_modules", "__pycache__", ".git", "rollouts_episodes"})
UNDEFINED_NAME = re.compile(r"NameError: name '(?P<name>\w+)' is not defined"
                            r"|AttributeError: .*has no attribute '(?P<attribute>\w+)'")


def undefined_name_hint(run_dir: Path | None, reason: str) -> str | None:
    """`name` used at file:line, and the defined name it is closest to; None when the reason names no undefined
    name, Python already suggested one, or no verifier source is found beside the run."""
    match = UNDEFINED_NAME.search(reason)
    if match is None or "Did you mean" in reason or run_dir is None:
        return None
    name = match["name"] or match["attribute"]
    for source in _workspace_verifier_sources(run_dir):
        try:
            text = source.read_text(encoding="utf-8", errors="replace")
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError):
            continue
        uses = [node.lineno for node in ast.walk(tree)
                if (isinstance(node, ast.Name) and node.id == name)
                or (isinstance(node, ast.Attribute) and node.attr == name)]
        if not uses:
            continue
        defined = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} \
            | {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)} \
            | {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.ClassDef)} \
            | {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        close = difflib.get_close_matches(name, sorted(defined - {name}), n=1, cutoff=0.75)
        where = f"{_shown(source, run_dir)}:{min(uses)}"
        return (f"`{name}` is used at {where}" + (f"; did you mean `{close[0]}`?" if close else
                                                   " and defined nowhere in that file") + " ")
    return None


MAX_SOURCES = 5  # verifier sources read from a run folder
_VERIFY_FUNCTIONS = ("verify", "grade", "score", "compute_reward", "reward")
# what a verifier's lines do: take the answer apart, or compare it
EXTRACTION = re.compile(r"\.(?:partition|rpartition|split|rsplit|strip|lstrip|rstrip|removeprefix)\(|re\.\w+\(|"
                        r"\[-?\d*:?-?\d*\]|isalpha|isdigit|isalnum|\.lower\(|\.upper\(")
_DEFINES_VERIFY = re.compile(r"def (?:" + "|".join(_VERIFY_FUNCTIONS) + r")\(")
COMPARISON = re.compile(r"==|!=|\bin\b|startswith|endswith|\bany\(|\ball\(|reward\s*=|\.ratio\(|SequenceMatcher|"
                        r"\bfuzz\.|levenshtein|\bdistance\(")


def verifier_sources(run_dir: Path | None) -> list[Path]:
    """The verifier code a run folder holds: the workspace verifier its sweep config names, then the Python files of
    the folder that define a `verify` (a user's own resources server, a copied verifier)."""
    if run_dir is None or not run_dir.is_dir():
        return []
    found = list(_workspace_verifier_sources(run_dir))
    for path in sorted(run_dir.rglob("*.py")):
        if len(found) >= MAX_SOURCES:
            break
        if path in found or set(path.relative_to(run_dir).parts[:-1]) & (_NOT_SEARCHED | {"outputs"}):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if _DEFINES_VERIFY.search(text):
            found.append(path)
    return found


def _parsed_sources(sources: list[Path], run_dir: Path) -> Iterator[tuple[str, list[str], ast.Module]]:
    """(file as shown, its lines, its syntax tree) of each verifier source that can be read and parsed."""
    for source in sources:
        try:
            text = source.read_text(encoding="utf-8", errors="replace")
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError):
            continue
        yield _shown(source, run_dir), text.splitlines(), tree


def _verify_functions(sources: list[Path], run_dir: Path
                      ) -> Iterator[tuple[str, list[str], ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(file as shown, its lines, the function) of each `verify` (or `grade`, `score`...) of the verifiers' code."""
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in _VERIFY_FUNCTIONS:
                yield shown, rows, node


def verify_lines(sources: list[Path], run_dir: Path, pattern: re.Pattern[str]) -> list[tuple[str, int, str]]:
    """(file, line, text) of the lines of the verifiers' `verify` (or `grade`, `score`...) that match `pattern`,
    comments left out; `sources` from `verifier_sources`."""
    return [(shown, number, rows[number - 1].strip()) for shown, rows, node in _verify_functions(sources, run_dir)
            for number in range(node.lineno + 1, (node.end_lineno or node.lineno) + 1)
            if pattern.search(rows[number - 1].split("#", 1)[0])]


def encoded_texts(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of each `.encode(...)` of the verifiers' code: bytes, which never equal a str (the row's
    label), however alike they read."""
    return sorted({(shown, call.lineno, rows[call.lineno - 1].strip()) for shown, rows, tree in _parsed_sources(sources, run_dir)
                   for call in ast.walk(tree)
                   if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "encode"})


_STRING_METHODS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "title", "capitalize"})


def uncalled_methods(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str]]:
    """(file, line, text, method) of each comparison of the verifiers' code with a string method named and never
    called (`answer.casefold() == label.casefold`): a bound method, which equals no string, so the test is always
    false."""
    found = set()
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        for compare in ast.walk(tree):
            if isinstance(compare, ast.Compare):
                for side in (compare.left, *compare.comparators):
                    if isinstance(side, ast.Attribute) and side.attr in _STRING_METHODS:
                        found.add((shown, side.lineno, rows[side.lineno - 1].strip(), side.attr))
    return sorted(found)


def _singleton(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, bool)) \
        or isinstance(node, ast.Name) and node.id in ("None", "True", "False", "NotImplemented", "Ellipsis")


def identity_comparisons(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of each `is` (`is not`) of the verifiers' code between two values that are not None, True
    or False (`answer is label`): whether they are one object, not whether they are equal; two equal strings made
    apart are two objects, so the test is false for right answers."""
    found = set()
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        for compare in ast.walk(tree):
            if not isinstance(compare, ast.Compare):
                continue
            sides = [compare.left, *compare.comparators]
            for index, operator in enumerate(compare.ops):
                if isinstance(operator, ast.Is | ast.IsNot) and not (_singleton(sides[index])
                                                                      or _singleton(sides[index + 1])):
                    found.add((shown, compare.lineno, rows[compare.lineno - 1].strip()))
    return sorted(found)


_REGEX_FLAGS = frozenset({"I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "X", "VERBOSE", "A", "ASCII", "U",
                          "UNICODE", "L", "LOCALE"})
# the re functions whose positional argument after the string is a count, not flags: sub/subn (count), split (maxsplit)
_COUNT_POSITION = {"sub": (3, "count"), "subn": (3, "count"), "split": (2, "maxsplit")}


def _regex_flags(node: ast.expr) -> bool:
    """`re.IGNORECASE`, `re.I | re.S`: a flags expression."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _regex_flags(node.left) and _regex_flags(node.right)
    return isinstance(node, ast.Attribute) and node.attr in _REGEX_FLAGS and getattr(node.value, "id", "") == "re"


def flags_given_as_count(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str, str]]:
    """(file, line, text, function, the parameter that got them) of each `re.sub(pattern, repl, text, re.I | re.S)`
    (`re.split(pattern, text, re.I)`) of the verifiers' code: the flags given by position land in `count`
    (`maxsplit`), so the pattern runs without them, and the flags' number caps the replacements."""
    found = set()
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and getattr(call.func.value, "id", "") == "re" and call.func.attr in _COUNT_POSITION:
                index, parameter = _COUNT_POSITION[call.func.attr]
                if len(call.args) > index and _regex_flags(call.args[index]):
                    found.add((shown, call.lineno, rows[call.lineno - 1].strip(), call.func.attr, parameter))
    return sorted(found)


_ONE_PASS = frozenset({"map", "filter", "zip", "iter", "reversed"})


def _one_pass(node: ast.expr | None) -> str | None:
    """The name of a one-pass iterator `node` makes (`map(...)`, a generator expression), or None."""
    if isinstance(node, ast.GeneratorExp):
        return "generator expression"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _ONE_PASS:
        return f"{node.func.id}()"
    return None


def one_pass_iterators_kept(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str]]:
    """(file, line, text, what) of each one-pass iterator (`map(...)`, `filter(...)`, a generator expression) the
    verifiers' code keeps for later calls: stored in a cache (`_accepted[label] = map(...)`, `.setdefault(key,
    map(...))`) or at module level. The first `in` or loop over it uses it up; every later call sees it empty."""
    found = set()
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        module_level = {id(statement) for statement in tree.body}
        for node in ast.walk(tree):
            kept = None
            if isinstance(node, ast.Assign | ast.AnnAssign) and (what := _one_pass(node.value)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if id(node) in module_level or any(isinstance(t, ast.Subscript) for t in targets):
                    kept = what
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "setdefault" and len(node.args) == 2:
                kept = _one_pass(node.args[1])
            if kept:
                found.add((shown, node.lineno, rows[node.lineno - 1].strip(), kept))
    return sorted(found)


def _number(node: ast.expr) -> float | None:
    """The value of a numeric literal (`1.0`, `-1`), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _number(node.operand)
        return -value if value is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    return None


def _bounded(call: ast.expr, name: str) -> tuple[float, ast.expr] | None:
    """(bound, the other argument) of `name(bound, x)` or `name(x, bound)` with a numeric literal bound."""
    if not (isinstance(call, ast.Call) and getattr(call.func, "id", "") == name and len(call.args) == 2):
        return None
    for bound, other in (call.args, reversed(call.args)):
        if (value := _number(bound)) is not None:
            return value, other
    return None


def swapped_clamps(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str]]:
    """(file, line, text, the value it always gives) of each clamp of the verifiers' code with its bounds swapped:
    `min(0.0, max(1.0, reward))` is 0.0 whatever the reward (and `max(1.0, min(0.0, reward))` is 1.0), where
    `max(0.0, min(1.0, reward))` keeps it between the two."""
    found = set()
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        for call in ast.walk(tree):
            for outer, inner, always in (("min", "max", min), ("max", "min", max)):
                if (first := _bounded(call, outer)) is None or (second := _bounded(first[1], inner)) is None:
                    continue
                if always(first[0], second[0]) == first[0] and first[0] != second[0]:  # the outer bound always wins
                    found.add((shown, call.lineno, rows[call.lineno - 1].strip(), f"{first[0]:g}"))
    return sorted(found)


def mutable_defaults(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str]]:
    """(file, line, the def line, parameter) of each function of the verifiers' code whose parameter defaults to a
    new set, list or dict (`seen: set = set()`): made once, when the function is defined, and shared by every call, so
    what one request puts there is still there for the next."""
    found = []
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            arguments = [*node.args.posonlyargs, *node.args.args]
            defaults = list(zip(arguments[len(arguments) - len(node.args.defaults):], node.args.defaults, strict=True))
            defaults += [(a, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True) if d]
            for argument, default in defaults:
                if isinstance(default, ast.Set | ast.List | ast.Dict) or (
                        isinstance(default, ast.Call) and getattr(default.func, "id", "") in {"set", "list", "dict"}):
                    found.append((shown, node.lineno, rows[node.lineno - 1].strip(), argument.arg))
    return found


_FINDS = frozenset({"find", "rfind", "index", "rindex"})


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """The module's names bound once to a string literal (`MARKER = "Final answer:"`)."""
    return {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for target in node.targets if isinstance(target, ast.Name)}


def skips_of_another_length(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str, str]]:
    """(file, line, text, the string found, the string skipped) of each slice `text[at + len(X):]` of the verifiers'
    code where `at` is where `.find("Y")` (or rfind, index) found another string than X: the slice skips len(X)
    characters after the found one, cutting the answer (or keeping part of the marker)."""
    found = []
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        constants = _string_constants(tree)
        searched = {}  # name -> the literal its `.find(...)` looked for
        for node in ast.walk(tree):
            if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                    and node.value.func.attr in _FINDS and node.value.args
                    and isinstance(node.value.args[0], ast.Constant) and isinstance(node.value.args[0].value, str)):
                searched[node.targets[0].id] = node.value.args[0].value
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Slice) and isinstance(node.lower, ast.BinOp)
                    and isinstance(node.lower.op, ast.Add) and isinstance(node.lower.left, ast.Name)
                    and node.lower.left.id in searched and isinstance(node.lower.right, ast.Call)
                    and getattr(node.lower.right.func, "id", "") == "len" and node.lower.right.args):
                continue
            argument = node.lower.right.args[0]
            skipped = (argument.value if isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                       else constants.get(getattr(argument, "id", "")))
            looked_for = searched[node.lower.left.id]
            if skipped is not None and len(skipped) != len(looked_for):
                found.append((shown, node.lower.lineno, rows[node.lower.lineno - 1].strip(), looked_for, skipped))
    return found


_CACHES = frozenset({"lru_cache", "cache", "cached"})


def cached_coroutines(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str]]:
    """(file, line, decorator text, function) of each `async def` of the verifiers' code under `functools.lru_cache`
    (or `cache`): what it caches is the coroutine, which can be awaited once; the next call with the same arguments
    gets it back spent (`cannot reuse already awaited coroutine`)."""
    found = []
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        for node in ast.walk(tree):
            if isinstance(node, ast.AsyncFunctionDef):
                for decorator in node.decorator_list:
                    target = decorator.func if isinstance(decorator, ast.Call) else decorator
                    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                    if name in _CACHES:
                        found.append((shown, decorator.lineno, rows[decorator.lineno - 1].strip(), node.name))
    return found


# what makes a grade cache's key the row's and not only the answer's: its label, its question, its id
_ROW_KEY = re.compile(r"expected|label|gold|target|reference|question|prompt|task|\bid\b|index|body\b|request|row",
                      re.I)


def _module_dicts(tree: ast.Module) -> set[str]:
    """The names the module binds to an empty dict (`_GRADES: dict[str, float] = {}`, `CACHE = dict()`)."""
    names = set()
    for statement in tree.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AnnAssign) and statement.value is not None else []
        value = getattr(statement, "value", None)
        empty = isinstance(value, ast.Dict) and not value.keys or isinstance(value, ast.Call) \
            and getattr(value.func, "id", "") == "dict" and not value.args and not value.keywords
        names |= {target.id for target in targets if isinstance(target, ast.Name) and empty}
    return names


def answer_keyed_grade_caches(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str, str]]:
    """(file, line, text, cache, key) of each store of a verify function into a module-level dict whose key comes from
    the answer alone (nothing of the row: its label, its question): the grade an answer got for one row is the one it
    gets for every other row, right or wrong there."""
    found = []
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        caches = _module_dicts(tree)
        for function in (node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                         and node.name in _VERIFY_FUNCTIONS):
            bound = {target.id: ast.unparse(node.value) for node in ast.walk(function) if isinstance(node, ast.Assign)
                     for target in node.targets if isinstance(target, ast.Name)}
            for node in ast.walk(function):
                if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                        and isinstance(target := node.targets[0], ast.Subscript)
                        and isinstance(target.value, ast.Name) and target.value.id in caches):
                    continue
                key = ast.unparse(target.slice)
                said = " ".join([key, *(bound.get(name.id, "") for name in ast.walk(target.slice)
                                        if isinstance(name, ast.Name))])
                if not _ROW_KEY.search(said):
                    found.append((shown, node.lineno, rows[node.lineno - 1].strip(), target.value.id, key))
    return found


def _full_credit(statement: ast.stmt) -> bool:
    """`return 1.0`, `return True`, `reward = 1`: a statement that gives full credit."""
    value = statement.value if isinstance(statement, ast.Return | ast.Assign) else None
    if isinstance(value, ast.Dict):  # `return {"reward": 1.0, ...}`
        value = next((v for k, v in zip(value.keys, value.values, strict=True)
                      if isinstance(k, ast.Constant) and k.value == "reward"), None)
    return isinstance(value, ast.Constant) and isinstance(value.value, int | float) and float(value.value) >= 1


def handlers_giving_full_credit(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of each `except` of the verifiers' `verify` whose body gives full credit: every answer that
    raises there (not a number, a parse failure) scores 1 whatever it says."""
    return [(shown, handler.lineno, rows[handler.lineno - 1].strip())
            for shown, rows, node in _verify_functions(sources, run_dir) for handler in ast.walk(node)
            if isinstance(handler, ast.ExceptHandler) and any(_full_credit(s) for s in handler.body)]


def _names_in(node: ast.AST) -> set[str]:
    return {inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name)}


def _assigned_names(statement: ast.stmt) -> set[str]:
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]  # type: ignore[attr-defined]
    return {name for target in targets for name in _names_in(target)}


def answer_rewrites(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of the lines of the verifiers' `verify` that rewrite what is compared or the reward: a name
    assigned again from itself (`extracted = unicodedata.normalize("NFKD", extracted)...`, `reward = max(0.0, reward -
    LENGTH_PENALTY * len(text))`, `reward -= ...`), and the local score a reward is computed from without a call
    (`similarity = difflib.SequenceMatcher(...)` before `reward = 1.0 if similarity >= 0.8 else 0.0`), where the reward
    is not simply what a call returns. What a copy of a stock verifier adds is most often one of these; the stock
    `reward = _answers_match(...)` is neither."""
    found = set()
    for shown, rows, node in _verify_functions(sources, run_dir):
        statements = sorted((inner for inner in ast.walk(node) if isinstance(inner, ast.Assign | ast.AugAssign)
                             and not isinstance(inner.value, ast.Constant)), key=lambda inner: inner.lineno)
        assigned_at: dict[str, int] = {}
        for statement in statements:
            targets, used = _assigned_names(statement), _names_in(statement.value)
            if isinstance(statement, ast.AugAssign) or targets & used:
                found.add((shown, statement.lineno, rows[statement.lineno - 1].strip()))
            feeding = {name for name in used if name in assigned_at}
            if "reward" in targets and feeding and not isinstance(statement.value, ast.Call):
                found.add((shown, statement.lineno, rows[statement.lineno - 1].strip()))
                found.update((shown, assigned_at[name], rows[assigned_at[name] - 1].strip()) for name in feeding)
            assigned_at.update((name, statement.lineno) for name in targets)
    return sorted(found)


def undefined_names(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str, str, str | None]]:
    """(file, line, text, name, the closest defined name) of each name the verifiers' `verify` reads that its module
    never binds: a NameError at every call, which a broad `except` turns into reward 0 without a word."""
    found = []
    for shown, rows, tree in _parsed_sources(sources, run_dir):
        bound = set(dir(builtins)) | {inner.id for inner in ast.walk(tree)
                                      if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load)}
        for inner in ast.walk(tree):
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound.add(inner.name)
            if isinstance(inner, ast.arg):
                bound.add(inner.arg)
            if isinstance(inner, ast.ExceptHandler) and inner.name:
                bound.add(inner.name)
            if isinstance(inner, ast.Import | ast.ImportFrom):
                bound.update((alias.asname or alias.name).split(".")[0] for alias in inner.names)
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name not in _VERIFY_FUNCTIONS:
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load) and inner.id not in bound:
                    closest = difflib.get_close_matches(inner.id, sorted(bound), n=1)
                    found.append((shown, inner.lineno, rows[inner.lineno - 1].strip(), inner.id,
                                  closest[0] if closest else None))
    return found


def broad_handlers(sources: list[Path], run_dir: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of each `except Exception:` (or bare `except:`) of the verifiers' `verify`."""
    return [(shown, handler.lineno, rows[handler.lineno - 1].strip())
            for shown, rows, node in _verify_functions(sources, run_dir) for handler in ast.walk(node)
            if isinstance(handler, ast.ExceptHandler) and (handler.type is None or isinstance(handler.type, ast.Name)
                                                           and handler.type.id in ("Exception", "BaseException"))]

def state_shared_across_awaits(sources: list[Path], run_dir: Path) -> tuple[str, int, str, str] | None:
    """(file, line, name, the value put there) of a module-level variable that an async `verify` writes and that
    outlives an `await` in it: concurrent requests overwrite each other's values (a race that grades one answer
    against another's label)."""
    for shown, _, tree in _parsed_sources(sources, run_dir):
        module_names = {target.id: node.lineno for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                        if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.AsyncFunctionDef) or node.name not in _VERIFY_FUNCTIONS:
                continue
            if not any(isinstance(inner, ast.Await) for inner in ast.walk(node)):
                continue
            for inner in ast.walk(node):
                targets = inner.targets if isinstance(inner, ast.Assign) else []
                for target in targets:
                    base = target.value if isinstance(target, ast.Subscript | ast.Attribute) else None
                    if isinstance(base, ast.Name) and base.id in module_names:
                        return shown, module_names[base.id], base.id, ast.unparse(inner.value)
    return None


def _workspace_verifier_sources(run_dir: Path) -> list[Path]:
    found = sweep_config_beside(run_dir)
    if found is None:
        return []
    config, _ = found
    sources = []
    for environment in config.environments:
        if environment.verifier is None or environment.tasks is not None:
            continue
        module, workspace = workspace_verifier(config, environment.name, run_dir)
        if workspace is None:
            continue
        source = workspace / (module.replace(".", "/") + ".py")
        if source.is_file():
            sources.append(source)
    return sources


def _shown(source: Path, run_dir: Path) -> str:
    try:
        return str(source.resolve().relative_to(run_dir.resolve()))
    except ValueError:
        return str(source)


def moved_file_hint(run_dir: Path | None, reason: str) -> str | None:
    """Where in the run folder the file a verifier could not open is, by its name; None when the reason names no
    missing file or the folder has none of that name."""
    match = MISSING_FILE.search(reason)
    if match is None or run_dir is None or not run_dir.is_dir():
        return None
    # a reason kept short may end inside the name ("alias…"): then the files whose names start so
    cut = match["path"].endswith("…")
    opened = match["path"].rstrip("'\"…")
    name = Path(opened).name
    found = sorted(path for path in run_dir.rglob(f"{name}*" if cut else name)
                   if path.is_file() and not _NOT_SEARCHED & set(path.relative_to(run_dir).parts))
    if not found:
        return None
    return (f"the verifier opens {opened}{'…' if cut else ''}, which is not there, and the run folder has "
            f"`{found[0].name}` at "
            f"{_shown(found[0], run_dir)}: the file was moved, or the verifier looks in the wrong place. Point the "
            "verifier at it (or put it back) ")


_PATTERN_CALLS = ("findall", "search", "match", "fullmatch", "finditer")


def extraction_reading(sources: list[Path], run_dir: Path, text: str) -> tuple[str, int, str, str] | None:
    """(file, line, the line's text, what it extracts) of the first regular expression of the verifiers' `verify`
    (`re.findall(r"Final answer: (-?[0-9]+)", text)`) that, applied to `text` as that call would, finds something: what
    the verifier's code as it is now would take as the answer."""
    for shown, rows, node in _verify_functions(sources, run_dir):
        for call in ast.walk(node):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _PATTERN_CALLS
                    and isinstance(call.func.value, ast.Name) and call.func.value.id == "re" and call.args
                    and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                continue
            try:
                pattern = re.compile(call.args[0].value)
            except re.error:
                continue
            found = list(pattern.finditer(text)) if call.func.attr in ("findall", "finditer") else [
                m for m in [getattr(pattern, call.func.attr)(text)] if m]
            if not found:
                continue
            # findall's list is read from its end (`found[-1]`) by most verifiers; one group is the answer
            match = found[-1]
            extracted = match.group(1) if pattern.groups else match.group(0)
            if extracted is not None:
                return shown, call.lineno, rows[call.lineno - 1].strip(), extracted
    return None
