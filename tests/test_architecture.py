"""The shape of the package (DESIGN.md): an acyclic, standard-library-only core, imports
that point inwards, and no private name imported across modules."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "matador"

#: What each layer may import from the package (besides itself). ``fast`` holds optional
#: kernels used by the bots; ``testing`` is the package's own test kit.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "fast": {"core"},
    "players": {"core", "fast"},
    "protocol": {"core", "players"},
    "table": {"core", "players", "protocol"},
    "arena": {"core", "fast", "players", "protocol", "table"},
    "ui": {"core", "players", "table"},
    "envs": {"core", "players", "table"},
    "server": {"core", "players", "protocol", "table", "ui"},
    "web": {"core", "players", "table", "ui", "server"},
    "cli": {"core", "fast", "players", "protocol", "table", "arena", "ui", "server", "web",
            "envs"},
    "testing": {"core", "players"},
}


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def _imports(name: str, path: Path) -> Iterator[tuple[str, list[str], int]]:
    """Every import of the module, at any depth: (module imported, names imported, line)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            yield base, [a.name for a in node.names], node.lineno


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "matador" else None


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    for name, path in _modules():
        if _layer(name) != "core":
            continue
        for imported, _names, line in _imports(name, path):
            top = imported.split(".")[0]
            if top == "matador":
                assert imported.startswith("matador.core"), f"{name}:{line} imports {imported}"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", \
                    f"{name}:{line} imports {imported}, not in the standard library"


def test_the_core_import_graph_has_no_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for name, path in _modules():
        if _layer(name) == "core":
            graph[name] = {i for i, _n, _l in _imports(name, path)
                           if i.startswith("matador.core.") and i != name}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        if state.get(node) == 2:
            return
        assert state.get(node) != 1, "import cycle: " + " -> ".join([*trail, node])
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            visit(nxt, [*trail, node])
        state[node] = 2

    for node in sorted(graph):
        visit(node, [])
    assert len(graph) >= 10


def test_no_module_imports_a_private_name_from_another_module() -> None:
    for name, path in _modules():
        for imported, names, line in _imports(name, path):
            if imported.startswith("matador"):
                private = [n for n in names  # `_` is gettext, by convention
                           if n.startswith("_") and n != "_" and not n.startswith("__")]
                assert not private, f"{name}:{line} imports {private} from {imported}"


@pytest.mark.parametrize(("layer"), sorted(ALLOWED))
def test_imports_point_inwards(layer: str) -> None:
    for name, path in _modules():
        if _layer(name) != layer:
            continue
        for imported, _names, line in _imports(name, path):
            other = _layer(imported)
            if other is None or other == layer:
                continue
            assert other in ALLOWED[layer], f"{name}:{line} ({layer}) imports {imported}"


def test_every_layer_is_known() -> None:
    layers = {_layer(name) for name, _p in _modules()} - {None}
    assert layers <= set(ALLOWED), layers - set(ALLOWED)


def test_the_contract_copies_match_the_shared_folder_when_it_is_present() -> None:
    """docs/contract/ is kept in sync with the shared RULES.md and PROTOCOL.md."""
    root = Path(__file__).resolve().parents[1]
    shared = root.parent / "shared"
    if not (shared / "RULES.md").is_file():
        pytest.skip("no shared folder beside this checkout (CI): nothing to compare")
    for name in ("RULES.md", "PROTOCOL.md"):
        assert (root / "docs" / "contract" / name).read_text(encoding="utf-8") == \
            (shared / name).read_text(encoding="utf-8"), f"docs/contract/{name} is out of date"
