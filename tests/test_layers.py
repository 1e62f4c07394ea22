"""Layers that point one way: no import cycle among the project's modules, a core that imports nothing
from the layers above it, and stage functions a launched process loads without Dagster."""

import ast
import subprocess
import sys
from pathlib import Path

import gym_pipeline

PACKAGE_DIR = Path(gym_pipeline.__file__).resolve().parent
PACKAGE = "gym_pipeline"
# The core (`gym_pipeline.core`) may import none of these. The diagnosis (`gym_pipeline.diagnose`) sits
# above the core: it reads the `LauncherState` records the launchers write (`launchers.state`, a leaf).
ABOVE_THE_CORE = ("gym_pipeline.engines", "gym_pipeline.launchers", "gym_pipeline.assets", "gym_pipeline.diagnose")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules `path` imports, anywhere in it (a function's import counts too; TYPE_CHECKING ones
    do not run, but still make a cycle for a reader, so they count)."""
    found = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for name in names:
            while name and name not in modules:  # `from pkg import module` or `from module import name`
                name = name.rpartition(".")[0]
            if name and name.startswith(PACKAGE):
                found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE_DIR.rglob("*.py")}
    modules = set(paths)
    graph = {name: project_imports(path, modules) for name, path in paths.items()}
    # Importing `a.b.c` runs `a/__init__` and `a/b/__init__` first; a package's own modules are not its imports.
    return {name: {dep for dep in deps if dep != name and not name.startswith(dep + ".")} for name, deps in graph.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), as sorted lists."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for dep in graph.get(node, ()):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_core_imports_nothing_from_engines_launchers_or_assets():
    wrong = {
        (module, dep)
        for module, deps in import_graph().items() if module == "gym_pipeline.core" or module.startswith("gym_pipeline.core.")
        for dep in deps if dep.startswith(ABOVE_THE_CORE)
    }
    assert wrong == set()


def test_the_launcher_state_records_are_a_leaf_of_the_launchers():
    """The diagnosis reads the state records without loading a launcher (Docker's or Slurm's clients)."""
    graph = import_graph()
    assert {dep for dep in graph["gym_pipeline.launchers.state"] if dep.startswith("gym_pipeline.launchers")} == set()
    assert {dep for dep in graph["gym_pipeline.diagnose.launcher"] if dep.startswith("gym_pipeline.launchers")} == {
        "gym_pipeline.launchers.state"}


def test_the_diagnosis_imports_no_engine_launcher_or_asset_code():
    wrong = {
        (module, dep)
        for module, deps in import_graph().items() if module.startswith("gym_pipeline.diagnose")
        for dep in deps
        if dep.startswith(("gym_pipeline.engines", "gym_pipeline.assets", "gym_pipeline.launchers"))
        and dep != "gym_pipeline.launchers.state"
    }
    assert wrong == set()


def test_the_stage_functions_load_without_dagster():
    tree = ast.parse((PACKAGE_DIR / "stages.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not {name for name in imported if name == "dagster" or name.startswith(("dagster.", "gym_pipeline.assets"))}
    # Transitively, as a launched stage process imports them.
    loaded = subprocess.run([sys.executable, "-c", "import sys, gym_pipeline.stages; "
                             "print(sorted(m for m in sys.modules if m == 'dagster' or m.startswith('dagster.')))"],
                            capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_a_launched_stage_runs_without_loading_dagster(tmp_path):
    """What `gym-pipeline stage materialize` loads: the CLI, Pipes, the stage functions and the config its step
    wrote (cron strings included, whose check needs Dagster), then one stage."""
    from gym_pipeline.demo import create_workspace

    config = create_workspace(tmp_path / "home", checkpoint_count=1)
    written = tmp_path / "sweep.json"
    written.write_text(config.model_copy(update={"nightly_cron": "0 2 * * *"}).model_dump_json())
    script = f"""
import logging, sys
import dagster_pipes
from gym_pipeline import cli, stages
from gym_pipeline.config import SweepConfig
config = SweepConfig.validate_from_step(open({str(written)!r}, "rb").read())
stages.materialize_partition(config, "step_0100", "mcqa", "code", logging.getLogger("stage"))
print(sorted(m for m in sys.modules if m == "dagster" or m.startswith("dagster.")))
"""
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"
    assert (config.run_dir("step_0100", "mcqa") / "rollouts_materialized_inputs.jsonl").exists()
