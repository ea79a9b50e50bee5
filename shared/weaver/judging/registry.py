"""The judge registry: the names ``SUBCON_JUDGE`` selects from.

Implementations load on first use (a factory per name). The settings cannot look
the name up here (they sit below the weaver), so a pass checks it when it is
planned (:func:`check`). Tests add a judge with :func:`registered`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from shared.errors import ConfigError
from shared.weaver.judging.interfaces import JudgeSet

DEFAULT = "rules"
VARIABLE = "SUBCON_JUDGE"


def _rules() -> JudgeSet:
    from shared.weaver.crystallize.prose import RuleDossierWriter
    from shared.weaver.judging.rules import VERSION, RuleJudge
    from shared.weaver.update.line_judge import RuleLineJudge

    return JudgeSet(DEFAULT, VERSION, RuleJudge, RuleLineJudge, RuleDossierWriter)


_FACTORIES: dict[str, Callable[[], JudgeSet]] = {DEFAULT: _rules}
_LOADED: dict[str, JudgeSet] = {}


def names() -> tuple[str, ...]:
    """Every registered judge name, in registration order."""
    return tuple(_FACTORIES)


def check(name: str) -> str:
    """``name`` when it is registered.

    Raises:
        ConfigError: an unknown name (naming the variable and the known names).
    """
    if name not in _FACTORIES:
        raise ConfigError(
            f"invalid setting {VARIABLE}={name!r}: known judges: {', '.join(names())}"
        )
    return name


def judge_set(name: str = DEFAULT) -> JudgeSet:
    """The judge set registered as ``name`` (built once per process).

    Raises:
        ConfigError: an unknown name.
    """
    found = _LOADED.get(name)
    if found is None:
        found = _LOADED[name] = _FACTORIES[check(name)]()
    return found


@contextmanager
def registered(name: str, factory: Callable[[], JudgeSet]) -> Iterator[None]:
    """Register ``factory`` as ``name`` for the block (tests, contract suites)."""
    if name in _FACTORIES:
        raise ValueError(f"judge {name!r} is already registered")
    _FACTORIES[name] = factory
    try:
        yield
    finally:
        del _FACTORIES[name]
        _LOADED.pop(name, None)
