"""Every declared dependency is used: imported by the project's code, or run as a tool
from a place this test names. A dependency nobody imports or runs is dead weight that
every install still pays for (and a supply-chain risk), so it must go or be used."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CODE = ("shared", "workers", "tests", "testing", "bench")

# Tools that serve without being imported, and the file whose text shows them at work.
TOOLS: dict[str, tuple[str, str]] = {
    "ruff": (".ci/run", "ruff check"),
    "mypy": (".ci/run", "mypy"),
    "vulture": (".ci/run", "vulture"),
    # A pytest plugin: it reads the ``timeout`` setting of [tool.pytest.ini_options].
    "pytest-timeout": ("pyproject.toml", "timeout = "),
    # Type stubs for ``yaml``, which the code imports (checked below) and mypy reads.
    "types-PyYAML": (".ci/run", "mypy"),
    # Celery beat loads its scheduler by dotted name from the configuration.
    "celery-redbeat": ("workers/config.py", '"redbeat.RedBeatScheduler"'),
    # Flower is started as ``celery … flower`` by the tests and the deploy files.
    "flower": ("tests/integration/test_flower.py", "flower"),
    # The documentation site: CI runs mkdocs, which loads the theme mkdocs.yml names.
    "mkdocs": (".ci/run", "mkdocs build --strict"),
    "mkdocs-material": ("mkdocs.yml", "name: material"),
}


def _name(requirement: str) -> str:
    """The distribution name of a PEP 508 requirement (``celery[redis]>=5`` -> celery)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match, requirement
    return match.group(0)


def declared() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [_name(r) for r in project["dependencies"]]
    for extra in project.get("optional-dependencies", {}).values():
        names += [_name(r) for r in extra]
    return names


def imported_tops() -> set[str]:
    """The top-level module names any project file imports (also inside functions)."""
    tops: set[str] = set()
    for top in CODE:
        for path in (REPO / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    tops |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    tops.add(node.module.split(".")[0])
                elif (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "attr", getattr(node.func, "id", "")) == "importorskip"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    tops.add(str(node.args[0].value).split(".")[0])
    return tops


def _norm(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


def unused(names: list[str], tops: set[str], tools: dict[str, tuple[str, str]]) -> list[str]:
    """The declared distributions neither imported nor shown at work as a tool."""
    provides: dict[str, set[str]] = {}
    for module, dists in importlib.metadata.packages_distributions().items():
        for dist in dists:
            provides.setdefault(_norm(dist), set()).add(module)
    tool_use = {_norm(k): v for k, v in tools.items()}
    out = []
    for name in names:
        if provides.get(_norm(name), set()) & tops:
            continue
        where = tool_use.get(_norm(name))
        if where and where[1] in (REPO / where[0]).read_text(encoding="utf-8"):
            continue
        out.append(name)
    return out


def test_every_declared_dependency_is_used() -> None:
    assert unused(declared(), imported_tops(), TOOLS) == []


def test_the_yaml_stubs_serve_an_imported_module() -> None:
    assert "yaml" in imported_tops()


def test_the_check_sees_an_unused_dependency() -> None:
    # "hypothesis" is installed (a dev dependency), so only the missing import fails it.
    assert unused(["hypothesis", "ruff"], {"redis"}, TOOLS) == ["hypothesis"]
    assert unused(["ruff"], set(), {"ruff": (".ci/run", "no such text in CI")}) == ["ruff"]
