"""The one typed settings object.

Read once at boot (CLI entry, Celery app factory) from ``SUBCON_*`` environment
variables and an optional ``.env`` file, then passed explicitly. Kernel and
runtime roots fall back to the original runtime's ``ALADUO_*`` variables and
defaults (docs/formats.md §2.1), so an existing install works unconfigured.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import annotated_types
from pydantic import AliasChoices, Field, ValidationError, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, SettingsConfigDict

from shared.errors import ConfigError

_TRUTHY = frozenset({"1", "true", "yes", "on"})


def _flag(value: str | None) -> bool:
    return value is not None and value.strip().lower() in _TRUTHY


def default_roots(environ: Mapping[str, str]) -> tuple[Path, Path]:
    """Kernel and runtime dirs as the original runtime resolves them (docs/formats.md §2.1)."""
    home = Path(environ.get("ALADUO_HOME") or os.path.expanduser("~"))
    kernel = Path(environ.get("ALADUO_KERNEL_DIR") or home / "aladuo")
    runtime = Path(environ.get("ALADUO_RUNTIME_DIR") or home / ".aladuo")
    return kernel, runtime


class Settings(BaseSettings):
    """Every knob subcon has. Field ``x`` is set by ``SUBCON_X``."""

    model_config = SettingsConfigDict(env_prefix="SUBCON_", extra="ignore", frozen=True)

    kernel_dir: Path = Field(default=Path(), description="kernel dir (git work tree)")
    runtime_dir: Path = Field(default=Path(), description="runtime dir holding var/")
    broker_url: str | None = Field(default=None, description="Celery broker; unset = embedded")
    result_backend: str | None = Field(default=None, description="default: the broker URL")
    redis_url: str | None = Field(default=None, description="lock/audit Redis; default broker")
    tick_seconds: float = Field(default=2220.0, ge=1.0, description="cadence tick interval")
    max_partitions_per_tick: int = Field(default=2, ge=1)
    memory_check: bool = Field(
        default=False, description="contract-gate fallback flag (ALADUO_EXP_MEMORY_CHECK)"
    )
    forget: bool = Field(
        default=False,
        description="forget stale orphan nodes that were warnable (with the memory-check "
        "flag; ALADUO_EXP_MEMORY_FORGET)",
    )
    lock_ttl_seconds: float = Field(default=60.0, gt=0, description="kernel lock lease TTL")
    lock_wait_seconds: float = Field(default=30.0, ge=0, description="writers wait this long")
    audit_stream: str = Field(default="subcon:audit")
    audit_stream_maxlen: int = Field(default=10_000, ge=1)
    promotion_threshold: int = Field(
        default=2, ge=1, description="distinct fragments before entity/node promotion"
    )
    weakening_threshold: int = Field(
        default=2, ge=1, description="weakening fragments before a rewrite or removal"
    )
    new_line_threshold: int = Field(
        default=2, ge=1, description="recurring NEW_SIGNAL fragments before a board line is added"
    )
    scan_slice_events: int = Field(
        default=4000, ge=1, description="split a band into slices of about this many events"
    )
    max_line_bytes: int = Field(
        default=4 * 1024 * 1024, ge=1024, description="spine lines longer than this are skipped"
    )
    gap_cache: bool = Field(default=True, description="cache per-day external counts")
    visibility_timeout_seconds: float | None = Field(
        default=None,
        gt=0,
        description="Redis broker: redeliver an unacked message (its worker died) after "
        "this long; default 2 x the longest hard limit + 600 s; lower only in tests",
    )

    judge: str = Field(default="rules", description="the judge implementation (registered name)")
    env_file: Path | None = Field(
        default=None,
        description="the settings file read after the environment (see load_settings)",
    )
    import_sources: str | None = Field(
        default=None,
        validation_alias=AliasChoices("SUBCON_IMPORT", "import_sources"),
        description="transcripts each tick imports first: FORMAT:PATH entries separated by "
        "commas (claude-code:~/.claude/projects, codex:~/.codex/sessions, specstory:…, aider:…)",
    )
    kernels_file: Path | None = Field(
        default=None,
        description="the kernel registry's file when no Redis is configured (default: "
        "kernels.json in subcon's config dir, ~/.config/subcon)",
    )
    import_settle_seconds: float = Field(
        default=60.0,
        ge=0,
        description="a transcript's last record is imported once the file has been quiet "
        "this long (a record still being written is left for the next import)",
    )

    @model_validator(mode="before")
    @classmethod
    def _fallbacks(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        kernel, runtime = default_roots(os.environ)
        if not data.get("kernel_dir"):
            data["kernel_dir"] = kernel
        if not data.get("runtime_dir"):
            data["runtime_dir"] = runtime
        if "memory_check" not in data and "ALADUO_EXP_MEMORY_CHECK" in os.environ:
            data["memory_check"] = _flag(os.environ.get("ALADUO_EXP_MEMORY_CHECK"))
        if "forget" not in data and "ALADUO_EXP_MEMORY_FORGET" in os.environ:
            data["forget"] = _flag(os.environ.get("ALADUO_EXP_MEMORY_FORGET"))
        return data

    @property
    def embedded(self) -> bool:
        """True when no broker is configured: tasks run in-process with the file lock."""
        return not self.broker_url

    @property
    def effective_result_backend(self) -> str | None:
        return self.result_backend or self.broker_url

    @property
    def effective_redis_url(self) -> str | None:
        return self.redis_url or self.broker_url

    @property
    def cadence_interval_ms(self) -> int:
        return int(self.tick_seconds * 1000)


_KINDS = {float: "a number", int: "an integer", bool: "true/false (1/0, yes/no, on/off)"}


def allowed_values(info: FieldInfo) -> str:
    """What a setting accepts, in words ("a number >= 1"), from its type and bounds."""
    annotation = info.annotation
    args = [a for a in getattr(annotation, "__args__", ()) if a is not type(None)]
    base = args[0] if args else annotation
    words = _KINDS.get(base, "text") if isinstance(base, type) else "text"
    if base is Path:
        words = "a path"
    for meta in info.metadata:
        for attr, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            value = getattr(meta, attr, None)
            if isinstance(meta, annotated_types.BaseMetadata) and value is not None:
                words += f" {sign} {value:g}" if isinstance(value, float) else f" {sign} {value}"
    if args and type(None) in getattr(annotation, "__args__", ()):
        words += ", or unset"
    return words


def _config_error(exc: ValidationError) -> ConfigError:
    """One line per invalid setting: the variable, the value given and what is allowed."""
    lines = []
    for err in exc.errors():
        name = str(err["loc"][0]) if err.get("loc") else "?"
        info = Settings.model_fields.get(name)
        variable = f"SUBCON_{name.upper()}"
        allowed = allowed_values(info) if info is not None else "see docs/settings.md"
        lines.append(
            f"invalid setting {variable}={err.get('input')!r}: allowed: {allowed} "
            f"({err.get('msg', 'invalid')})"
        )
    return ConfigError("\n".join(lines))


# The file deploy/cluster.sh writes, beside the code when it runs from a checkout.
DEPLOY_ENV_FILE = Path(__file__).resolve().parent.parent / "deploy" / "subcon.env"


def config_dir(environ: Mapping[str, str]) -> Path:
    """subcon's per-user config dir: ``$XDG_CONFIG_HOME/subcon`` (``~/.config/subcon``)."""
    return Path(environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")) / "subcon"


def settings_file(environ: Mapping[str, str]) -> Path | None:
    """The one settings file read after the environment: ``SUBCON_ENV_FILE`` when set,
    else the first that exists of ``./.env``, ``~/.config/subcon/subcon.env`` and the
    ``deploy/subcon.env`` that ``deploy/cluster.sh`` writes (so a CLI beside a running
    cluster talks to it). None when there is none.

    Raises:
        ConfigError: ``SUBCON_ENV_FILE`` names a file that does not exist.
    """
    named = environ.get("SUBCON_ENV_FILE")
    if named:
        path = Path(os.path.expanduser(named))
        if not path.is_file():
            raise ConfigError(f"SUBCON_ENV_FILE={named} does not exist: create it or unset it")
        return path
    for path in (Path(".env"), config_dir(environ) / "subcon.env", DEPLOY_ENV_FILE):
        if path.is_file():
            return path
    return None


def file_values(path: Path | None) -> dict[str, str]:
    """``KEY=VALUE`` lines of a settings file (comments and blanks skipped; quotes off)."""
    if path is None:
        return {}
    out: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        out[key.strip()] = value.strip().strip("'\"")
    return out


def source_of(settings: Settings, name: str, overrides: Mapping[str, Any]) -> str:
    """Where setting ``name`` came from: the command line (or the kernel registry, for a
    kernel chosen with ``--kernel-name``), the environment, the settings file, or the
    default."""
    variable = f"SUBCON_{name.upper()}"
    if overrides.get(name) is not None:
        named = overrides.get("kernel_name")
        return f"the kernel registry (--kernel-name {named})" if named else "the command line"
    if variable in os.environ:
        return "the environment"
    if variable in file_values(settings.env_file):
        return str(settings.env_file)
    return "the default"


def load_settings(**overrides: Any) -> Settings:
    """Build settings: explicit overrides (CLI flags) win, then the environment, then the
    settings file (:func:`settings_file`), then the defaults.

    Raises:
        ConfigError: a setting has an unusable value (one line per setting), or
            ``SUBCON_ENV_FILE`` names a missing file.
    """
    clean = {k: v for k, v in overrides.items() if v is not None}
    path = settings_file(os.environ)
    clean.setdefault("env_file", path)
    try:
        return Settings(**clean, _env_file=path)
    except ValidationError as exc:
        raise _config_error(exc) from None
