"""The kiosk configuration file: ``<user config dir>/config.toml``.

Read with ``tomllib``; written back (when the lobby changes the speech rate,
volume or language by voice) with a small writer for the flat ``key = value``
format below. Unknown keys are kept (written back after the known ones; comments
are not). A malformed file, or a value of the wrong type or out of range, is
reported as a :class:`ConfigError` that knows the file, the line and the key
(the kiosk says one plain sentence from its prompts, never the parser's text),
and the kiosk then uses the defaults without overwriting the file. The keys are
documented for people in ``docs/kiosk.md``.

Example (every key optional)::

    lang = "en"              # en, es or nl
    timer = 30               # seconds per game timer, or "off"
    rate_wpm = 175           # speech rate, words per minute (80-300)
    volume = 1.0             # 0.2-1.0
    input_device = ""        # sounddevice input device name or index; "" = default
    output_device = ""       # sounddevice output device; "" = default
    private = "ears"         # ears, screen or earpiece:DEVICE (G2)
    idle_minutes = 10        # an idle table returns to the lobby after this long
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Mapping

from voicegame.storage import config_dir


@dataclass
class Config:
    """Kiosk settings; see the module docstring for the file format and units."""

    lang: str = "en"
    timer: int | str = 30
    rate_wpm: int = 175
    volume: float = 1.0
    input_device: str = ""
    output_device: str = ""
    private: str = "ears"
    idle_minutes: float = 10.0
    #: keys this version does not know, kept as read so that saving does not lose them
    extra: dict = field(default_factory=dict, repr=False)

    @property
    def timer_s(self) -> float | None:
        """Seconds per timer, ``None`` when off."""
        if isinstance(self.timer, str):
            return None if self.timer.lower() == "off" else float(self.timer)
        return float(self.timer) if self.timer else None


class ConfigError(ValueError):
    """The configuration file cannot be used.

    ``str()`` is one English sentence for the log (file, line, key, what is wrong);
    the attributes let the kiosk say a plain sentence of its own in the table's language.

    :param path: the configuration file.
    :param kind: ``"syntax"`` (not valid TOML), ``"value"`` (a key of the wrong type or
        out of range), ``"folder"`` (the path is a directory) or ``"unreadable"``
        (permissions, not UTF-8 text).
    :param line: 1-based line of the problem, ``None`` when unknown.
    :param key: the key whose value is wrong (``"value"`` only).
    """

    def __init__(self, message: str, *, path: Path | str, kind: str, line: int | None = None,
                 key: str | None = None):
        super().__init__(message)
        self.path = Path(path)
        self.kind = kind
        self.line = line
        self.key = key


#: Ranges of the numeric keys (inclusive): the speech rate and volume match the voice's limits.
RANGES = {"rate_wpm": (80, 300), "volume": (0.2, 1.0), "idle_minutes": (0.0, 24 * 60.0)}
#: The value keys of the file (everything but :attr:`Config.extra`).
KEYS = ("lang", "timer", "rate_wpm", "volume", "input_device", "output_device", "private", "idle_minutes")


def check(config: Config, path: Path | str = "config.toml", text: str | None = None) -> None:
    """Check the values' ranges and forms.

    :param text: the file's text, to find the line of a wrong key (optional).
    :raises ConfigError: ``kind="value"``, naming the file, the key and (with ``text``) its line.
    """
    def wrong(key: str, message: str) -> ConfigError:
        line = key_line(text, key) if text is not None else None
        where = f"{path}, line {line}" if line else str(path)
        return ConfigError(f"{where}: {message}", path=path, kind="value", line=line, key=key)

    for key, (low, high) in RANGES.items():
        value = getattr(config, key)
        if not low <= value <= high:
            raise wrong(key, f"{key} must be from {low:g} to {high:g}, not {value!r}.")
    timer = config.timer
    if isinstance(timer, bool) or (isinstance(timer, str) and timer.lower() != "off") or \
            (isinstance(timer, (int, float)) and timer <= 0):
        raise wrong("timer", f"timer must be a number of seconds above 0, or \"off\", not {timer!r}.")
    private = config.private
    if not (private in ("ears", "screen") or (private.startswith("earpiece:") and len(private) > 9)):
        raise wrong("private", f"private must be \"ears\", \"screen\" or \"earpiece:DEVICE\", not {private!r}.")
    if not config.lang or not config.lang.isalpha():
        raise wrong("lang", f"lang must be a language code such as \"en\", not {config.lang!r}.")


def key_line(text: str, key: str) -> int | None:
    """The 1-based line where the top-level ``key`` is set (``key = …``, bare or quoted), else ``None``."""
    pattern = re.compile(rf"""^\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("["):
            return None  # past the top-level keys
        if pattern.match(line):
            return number
    return None


def syntax_line(error: tomllib.TOMLDecodeError, text: str) -> int:
    """The 1-based line of a TOML syntax error ("(at line 3, column 8)"; "at end of document" → the last line)."""
    line = getattr(error, "lineno", None)  # Python 3.14+
    if isinstance(line, int) and line > 0:
        return line
    found = re.search(r"at line (\d+)", str(error))
    if found:
        return int(found.group(1))
    return max(1, len(text.splitlines()))


def config_path(env: Mapping[str, str] | None = None) -> Path:
    """``<user config dir>/config.toml`` (``$VOICEGAME_CONFIG_DIR`` overrides the dir)."""
    return config_dir(env) / "config.toml"


def load(env: Mapping[str, str] | None = None, path: Path | None = None) -> Config:
    """Read the configuration (defaults when the file does not exist).

    :raises ConfigError: a folder, an unreadable file, malformed TOML (with its line), or a
        value of the wrong type or out of range (with its key and line, :func:`check`).
    """
    path = path or config_path(env)
    if path.is_dir():
        raise ConfigError(f"{path} is a folder, not a configuration file.", path=path, kind="folder")
    if not path.exists():
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = "it is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else (exc.strerror or str(exc))
        raise ConfigError(f"Cannot read {path}: {reason}.", path=path, kind="unreadable") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = syntax_line(exc, text)
        reason = re.sub(r"\s*\(at [^)]*\)\s*$", "", str(exc))
        raise ConfigError(f"{path}, line {line}: not valid TOML ({reason}).", path=path, kind="syntax",
                          line=line) from exc
    config = Config()
    config.extra = {k: v for k, v in data.items() if k not in KEYS}
    for f in fields(Config):
        if f.name in data and f.name in KEYS:
            value = data[f.name]
            default = getattr(config, f.name)
            if f.name == "timer" and isinstance(value, (int, float, str)):
                setattr(config, f.name, value)
            elif isinstance(default, float) and isinstance(value, (int, float)) and not isinstance(value, bool):
                setattr(config, f.name, float(value))
            elif type(value) is type(default):
                setattr(config, f.name, value)
            else:
                line = key_line(text, f.name)
                where = f"{path}, line {line}" if line else str(path)
                raise ConfigError(f"{where}: {f.name} should be like {default!r}, not {value!r}.", path=path,
                                  kind="value", line=line, key=f.name)
    check(config, path, text)
    return config


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _bare_key(key: str) -> bool:
    return bool(key) and all(c.isalnum() or c in "_-" for c in key)


def save(config: Config, env: Mapping[str, str] | None = None, path: Path | None = None) -> Path:
    """Write the configuration atomically (temp file + rename).

    Known keys first, then the unknown plain ``key = value`` ones that were read
    (tables and arrays among them are not written back).

    :raises OSError: the directory cannot be written.
    """
    path = path or config_path(env)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# voicegame kiosk configuration: every key is explained in docs/kiosk.md"]
    lines += [f"{k} = {_toml_value(getattr(config, k))}" for k in KEYS]
    lines += [f"{k} = {_toml_value(v)}" for k, v in config.extra.items()
              if isinstance(v, (str, int, float, bool)) and _bare_key(k)]
    fd, tmp = tempfile.mkstemp(prefix=".config.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return path
