"""Layers that hold: the import-linter contracts in pyproject.toml pass, and no import cycle is left in app/."""

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold():
    """Each layer imports only those below it; rules import neither Flask nor SQLAlchemy (`lint-imports`)."""
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def cycles(graph) -> list[list[str]]:
    """The groups of modules that import each other, directly or not (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(module: str) -> None:
        index[module] = low[module] = counter[0]
        counter[0] += 1
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_of_the_app_imports_one_that_imports_it_back():
    """Imports inside functions count too: a cycle dodged at run time is still a cycle."""
    assert cycles(grimp.build_graph("app")) == []


def test_a_cycle_is_found_where_there_is_one():
    class Graph:
        modules = {"a", "b", "c"}
        imports = {"a": {"b"}, "b": {"a"}, "c": {"a"}}

        def find_modules_directly_imported_by(self, module):
            return self.imports[module]

    assert cycles(Graph()) == [["a", "b"]]
