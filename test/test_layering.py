"""Imports flow one way, from the IR basics up to the command-line tools.

Every module of the package is imported (so each imports on its own) and its imports are
read from its source: an import may reach its own layer or a lower one, never a higher one;
no two modules import each other, directly or through others; and no function imports a
ttpipe module (such an import hides a cycle or a wrong-way dependency from this check).

`LAYERS` lists the layers, lowest first; a module belongs to the layer of its longest
matching prefix.
"""

from __future__ import annotations

import ast
import graphlib
import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass
from pathlib import Path

import pytest

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("ttpipe", "ttpipe.ir", "ttpipe.entry_points")),
    ("dialects", ("ttpipe.dialects",)),
    ("text I/O", ("ttpipe.textio",)),
    ("passes", ("ttpipe.passes",)),
    ("driver", ("ttpipe.pipeline",)),
    ("Triton bridge", ("ttpipe.triton",)),
    ("tools", ("ttpipe.opt", "ttpipe.compile", "ttpipe.roundtrip", "ttpipe.bench_io", "ttpipe.bench",
               "ttpipe.corpus", "ttpipe.runtime", "ttpipe.outputs", "ttpipe.expected_diagnostics", "ttpipe.tools",
               "ttpipe.schedule_picture", "ttpipe.async_mutants")),
)

ROOTS = ("ttpipe", "ttpipe.dialects", "ttpipe.passes", "ttpipe.tools")
"""The packages whose folders hold the sources (python/ttpipe, dialect_defs, passes, tools)."""

@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    in_function: bool
    for_typing: bool
    """Under `if TYPE_CHECKING:`: read by type checkers only, so it cannot close a cycle."""


def all_modules() -> dict[str, Path]:
    """Every module of the package with its source file; each is imported but `__main__`s,
    which would run."""
    modules: dict[str, Path] = {}
    for root in ROOTS:
        package = importlib.import_module(root)
        modules[root] = Path(package.__file__)
        for info in pkgutil.walk_packages(package.__path__, root + "."):
            if info.name in modules:
                continue
            if info.name.endswith(".__main__"):
                modules[info.name] = Path(importlib.util.find_spec(info.name).origin)
            else:
                modules[info.name] = Path(importlib.import_module(info.name).__file__)
    return modules


def layer(module: str) -> int:
    best, depth = None, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and prefix.count(".") > depth:
                best, depth = index, prefix.count(".")
    if best is None:
        raise AssertionError(f"{module} is in no layer of test_layering.LAYERS")
    return best


TYPE_CHECKING = ("TYPE_CHECKING", "typing.TYPE_CHECKING")
"""How an `if` that only type checkers enter is spelled."""


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """The ttpipe modules `module` imports: `from X import a` counts as X.a where that is a module."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool, for_typing: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - child.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in child.names]
            elif _imports_by_name(child):  # importlib.import_module("ttpipe....")
                targets = [child.args[0].value]
            else:
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)),
                      for_typing or (isinstance(child, ast.If) and ast.unparse(child.test) in TYPE_CHECKING))
                continue
            for target in dict.fromkeys(targets):
                if target == "ttpipe" or target.startswith("ttpipe."):
                    found.append(Import(module, target, child.lineno, in_function, for_typing))

    visit(tree, False, False)
    return found



def _imports_by_name(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "import_module")
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))


@pytest.fixture(scope="module")
def modules() -> dict[str, Path]:
    return all_modules()


@pytest.fixture(scope="module")
def graph(modules) -> list[Import]:
    return [item for module, path in modules.items() for item in imports_of(module, path, modules)]


@pytest.fixture(scope="module")
def edges(graph) -> dict[str, set[str]]:
    """What each module imports when it is imported (not in functions, not for typing only)."""
    found: dict[str, set[str]] = {}
    for i in graph:
        if not i.in_function and not i.for_typing and i.target != i.source:
            found.setdefault(i.source, set()).add(i.target)
    return found


def test_every_module_is_in_a_layer(modules):
    for module in modules:
        layer(module)


def test_no_import_reaches_a_higher_layer(graph):
    upward = [f"{i.source}:{i.line} imports {i.target} ({LAYERS[layer(i.source)][0]} -> {LAYERS[layer(i.target)][0]})"
              for i in graph if layer(i.target) > layer(i.source)]
    assert not upward, "\n".join(upward)


def test_no_function_imports_a_ttpipe_module(graph):
    hidden = [f"{i.source}:{i.line} imports {i.target} in a function"
              for i in graph if i.in_function]
    assert not hidden, "\n".join(hidden)


def test_no_import_cycle(edges):
    try:
        graphlib.TopologicalSorter(edges).prepare()
    except graphlib.CycleError as exc:
        pytest.fail("import cycle: " + " -> ".join(exc.args[1]))


def test_the_command_line_tools_import_the_triton_bridge(edges):
    """Triton's passes and pipelines are registered when `ttpipe.triton` is imported: every
    tool has it among what it imports, directly or not (a submodule's import runs its
    package's `__init__`)."""
    for tool in ("ttpipe.opt", "ttpipe.compile", "ttpipe.tools.ttpipe_opt", "ttpipe.tools.ttpipe_compile"):
        seen, todo = set(), [tool]
        while todo:
            module = todo.pop()
            parts = module.split(".")
            for imported in [*edges.get(module, ()), *(".".join(parts[:n]) for n in range(1, len(parts)))]:
                if imported not in seen:
                    seen.add(imported)
                    todo.append(imported)
        assert "ttpipe.triton" in seen, tool
