"""The import graph points one way: no cycle between modules, no upward import between
the packages of ``shared/``, and the pure core never imports Celery or ``workers``.

Every import counts, also one inside a function (a lazy import still ties the two
modules together); only ``if TYPE_CHECKING:`` blocks are left out. A package named in an
import (``import pkg``, ``from pkg import x``) counts as its ``__init__``, which that
import runs, so a package and one of its own submodules importing each other is a cycle;
the ancestors a dotted import (``from pkg.sub import x``) runs on the way are not counted.

The review gates import no sibling gate: what several gates apply lives in
``shared/review/gates/predicates.py``, and only the registry names them all.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Lowest first: a package may import only from packages at its own rank or below.
# The single modules at the top of shared/ are the foundation every package may use.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "constants", "testhooks", "gcpause", "timestamps", "jsontext"),
    ("settings",),
    ("kernel",),
    ("language",),
    ("formats",),
    ("spine",),
    ("importing",),
    ("kernels",),
    ("partitions",),
    ("memcheck",),
    ("weaver",),
    ("review",),
    ("committer",),
    ("cadence",),
    ("setup",),
    ("report",),
)
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules(top: str) -> dict[str, Path]:
    return {module_name(p): p for p in sorted((REPO / top).rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every module ``path`` imports: a ``from pkg import module`` names the module and,
    as it runs ``pkg/__init__.py`` first, the package too."""

    def walk(node: ast.AST) -> Iterator[ast.AST]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                yield from (n for orelse in child.orelse for n in [orelse, *walk(orelse)])
                continue
            yield child
            yield from walk(child)

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in known:
                    yield full


def graph() -> dict[str, set[str]]:
    known = {**modules("shared"), **modules("workers")}
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        edges[name] = {t for t in imported(path, known) if t in known and t != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def package(module: str) -> str:
    return module.split(".")[1] if module.count(".") >= 1 else module


def test_no_import_cycle() -> None:
    """Also none between a package's ``__init__`` and its submodules: before the gate
    registry left ``shared/review/gates/__init__.py``, that ``__init__`` imported
    ``dossier``, ``inner_outer`` and ``status_shape``, which imported it back
    (``from shared.review.gates import gradient``), a cycle this test missed while it
    recorded only the submodule of a ``from pkg import module``."""
    assert cycles(graph()) == []


GATES_PACKAGE = "shared.review.gates"
# What a gate module may import from its own package: what every gate is, and the tests
# several gates apply. The registry alone imports the gates.
SHARED_BY_GATES = {
    f"{GATES_PACKAGE}.base",
    f"{GATES_PACKAGE}.predicates",
    f"{GATES_PACKAGE}.rules",
}


def test_no_gate_imports_another() -> None:
    """Each module of ``shared/review/gates`` but the registry imports from the package only
    ``base``, ``predicates`` and ``rules`` (the catalog): not a sibling gate, nor the
    package (whose ``__init__`` would be a way to one). Failed on the gates before the
    registry and the predicates moved out (``dossier -> gradient``, ``inner_outer ->
    self_reference``, ``status_shape -> self_reference``, each also ``->
    shared.review.gates``)."""
    edges = graph()
    gates = [m for m in edges if m == GATES_PACKAGE or m.startswith(f"{GATES_PACKAGE}.")]
    bad = [
        f"{source} -> {target}"
        for source in sorted(gates)
        if source != f"{GATES_PACKAGE}.registry"
        for target in sorted(edges[source])
        if (target == GATES_PACKAGE or target.startswith(f"{GATES_PACKAGE}."))
        and target not in SHARED_BY_GATES
    ]
    assert bad == []
    # not vacuous: the modules it names are there
    assert f"{GATES_PACKAGE}.registry" in gates and set(gates) >= SHARED_BY_GATES


def test_every_shared_package_has_a_layer() -> None:
    tops = {package(m) for m in modules("shared") if m != "shared"}
    assert tops <= set(RANK), sorted(tops - set(RANK))


def test_no_upward_import_between_packages() -> None:
    upward = []
    for source, targets in graph().items():
        if not source.startswith("shared."):
            continue
        for target in targets:
            if not target.startswith("shared.") or package(source) == package(target):
                continue
            if RANK[package(target)] > RANK[package(source)]:
                upward.append(f"{source} -> {target}")
    assert upward == []


def test_no_compatibility_path_is_left() -> None:
    """The old flat import paths are gone: the interop harness imports the regrouped ones."""
    old = ("board", "effectiveness", "fragments", "frontmatter", "inbox", "partition_state",
           "playlist")  # fmt: skip
    assert [n for n in old if (REPO / "shared" / f"{n}.py").exists()] == []
    assert not (REPO / "workers" / "keys.py").exists()


def test_the_pure_core_never_imports_celery_or_workers() -> None:
    known = {**modules("shared"), **modules("workers")}
    bad = [
        f"{name} -> {target}"
        for name, path in modules("shared").items()
        for target in imported(path, known)
        if target.split(".")[0] in {"celery", "kombu", "workers", "redbeat", "billiard"}
    ]
    assert bad == []


def test_only_tests_import_test_modules() -> None:
    """Helpers that benchmarks and tests share live in ``testing/``; a test module is never
    imported from outside ``tests/`` (nor one test module from another, but through
    ``conftest``)."""
    known = {**modules("tests"), **modules("testing"), **modules("bench")}
    bad = [
        f"{name} -> {target}"
        for name, path in known.items()
        if not name.startswith("tests.") or path.name.startswith("test_")
        for target in imported(path, known)
        if (target.startswith("tests.") and target.rsplit(".", 1)[-1].startswith("test_"))
        or (not name.startswith("tests.") and target.startswith("tests"))
    ]
    assert bad == []


def test_a_package_import_counts_as_the_package(tmp_path: Path) -> None:
    """``from pkg import module`` runs ``pkg/__init__.py``: both are imported; a dotted
    import counts only the module it names."""
    known = {"pkg": tmp_path, "pkg.a": tmp_path, "pkg.b": tmp_path, "pkg.c": tmp_path}
    src = tmp_path / "m.py"
    src.write_text("from pkg import a, helper\nimport pkg.b\nfrom pkg.c import name\n")
    assert sorted(imported(src, known)) == ["pkg", "pkg.a", "pkg.b", "pkg.c"]
    cycle = {"pkg": {"pkg.a"}, "pkg.a": {"pkg", "pkg.b"}, "pkg.b": set()}
    assert cycles(cycle) == [["pkg", "pkg.a"]]


def test_the_checks_see_a_cycle_and_an_upward_import() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert RANK["report"] > RANK["formats"]  # report may read formats, never the reverse
