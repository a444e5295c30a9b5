"""The kiosk configuration file: ``<user config dir>/config.toml``.

Read with ``tomllib``; written back (when the lobby changes the speech rate,
volume or language by voice) by editing only the changed keys' lines, so the
owner's comments, unknown keys and ``[tables]`` stay, and an int stays an int
(:func:`save`). A malformed file, or a value of the wrong type or out of range
(a boolean is never a number; the timer is 5-600 seconds or "off"), is
reported as a :class:`ConfigError` that knows the file, the line and the key
(the kiosk says one plain sentence from its prompts, never the parser's text),
and the kiosk then uses the defaults without overwriting the file. The keys are
documented for people in ``docs/kiosk.md``.

Example (every key optional)::

    lang = "en"              # en, es or nl
    timer = 30               # seconds per game timer (5-600), or "off"
    rate_wpm = 175           # speech rate, words per minute (80-300)
    volume = 1.0             # 0.2-1.0
    input_device = ""        # sounddevice input device name or index; "" = default
    output_device = ""       # sounddevice output device; "" = default
    private = "ears"         # ears, screen or earpiece:DEVICE (G2)
    idle_minutes = 10        # an idle table returns to the lobby after this long (0-1440; 0 = never)
    barge_in = true          # players may cut the host short with a command (false: never)
    display = ""             # the table's screen: "[HOST:]PORT" such as "127.0.0.1:8765"; "" = off
    tts = "espeak"           # espeak, piper, piper:VOICE or wyoming://HOST:PORT
    asr = "vosk"             # vosk or wyoming://HOST:PORT (a shared recogniser)
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from voicegame.engine.journal import config_dir


@dataclass
class Config:
    """Kiosk settings; see the module docstring for the file format and units."""

    lang: str = "en"
    timer: int | float | str = 30
    rate_wpm: int = 175
    volume: float | int = 1.0
    input_device: str = ""
    output_device: str = ""
    private: str = "ears"
    idle_minutes: int | float = 10
    barge_in: bool = True
    display: str = ""
    tts: str = "espeak"
    asr: str = "vosk"
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


#: Ranges of the numeric keys (inclusive): the speech rate and volume match the voice's limits;
#: a game timer of 5 s to 10 min (G1; "off" is the other choice).
RANGES = {"rate_wpm": (80, 300), "volume": (0.2, 1.0), "idle_minutes": (0, 24 * 60), "timer": (5, 600)}
#: The value keys of the file (everything but :attr:`Config.extra`).
KEYS = ("lang", "timer", "rate_wpm", "volume", "input_device", "output_device", "private", "idle_minutes", "barge_in",
        "display", "tts", "asr")
#: What each key must be, as the end of "<key> must be …, not <value>." (log messages).
FORMS = {
    "lang": 'a language code in quotes, such as "en"',
    "timer": 'a number of seconds from 5 to 600, or "off"',
    "rate_wpm": "a whole number of words a minute from 80 to 300",
    "volume": "a number from 0.2 to 1.0",
    "input_device": 'a device name or number in quotes, or "" for the default',
    "output_device": 'a device name or number in quotes, or "" for the default',
    "private": '"ears", "screen" or "earpiece:DEVICE"',
    "idle_minutes": "a number of minutes from 0 to 1440 (0 never returns to the lobby)",
    "barge_in": "true or false",
    "display": 'an address in quotes, such as "127.0.0.1:8765" or "8765", or "" for no screen',
    "tts": '"espeak", "piper", "piper:VOICE" or "wyoming://HOST:PORT"',
    "asr": '"vosk" or "wyoming://HOST:PORT"',
}


def _is_number(value) -> bool:
    """An int or float that is not a bool (TOML ``true`` is no number here)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_wrong_value(key: str, value) -> bool:
    """True when ``value`` cannot be the value of ``key`` (type, range or form)."""
    if key in ("rate_wpm",):
        return not (isinstance(value, int) and not isinstance(value, bool) and _in_range(key, value))
    if key in ("volume", "idle_minutes"):
        return not (_is_number(value) and _in_range(key, value))
    if key == "barge_in":
        return not isinstance(value, bool)
    if key == "timer":
        if isinstance(value, str):
            return value.strip().lower() != "off"
        return not (_is_number(value) and _in_range(key, value))
    if not isinstance(value, str):
        return True
    if key == "private":
        return not (value in ("ears", "screen") or (value.startswith("earpiece:") and len(value) > 9))
    if key == "lang":
        return not (value and value.isalpha())
    if key == "display":
        from voicegame.display import AddressError, parse_address

        try:
            parse_address(value)
        except AddressError:
            return True
    if key in ("tts", "asr"):
        from voicegame import engines

        try:
            (engines.parse_tts if key == "tts" else engines.parse_asr)(value)
        except ValueError:
            return True
    return False


def _in_range(key: str, value) -> bool:
    low, high = RANGES[key]
    return low <= value <= high  # NaN is in no range


def check(config: Config, path: Path | str = "config.toml", text: str | None = None) -> None:
    """Check every value's type, range and form (a bool is never a number).

    :param text: the file's text, to find the line of a wrong key (optional).
    :raises ConfigError: ``kind="value"``: one plain sentence naming the file, the key (with
        ``text``, its line), what it must be and the value as written in TOML
        ("idle_minutes must be a number of minutes from 0 to 1440 …, not true.").
    """
    for key in KEYS:
        value = getattr(config, key)
        if is_wrong_value(key, value):
            raise wrong_value(path, text, key, value)


def wrong_value(path: Path | str, text: str | None, key: str, value) -> ConfigError:
    """The :class:`ConfigError` for a wrong value of ``key`` (see :func:`check`)."""
    line = key_line(text, key) if text is not None else None
    where = f"{path}, line {line}" if line else str(path)
    shown = toml_value(value) if isinstance(value, (str, int, float, bool)) else "a list or table"
    return ConfigError(f"{where}: {key} must be {FORMS[key]}, not {shown}.", path=path, kind="value", line=line,
                       key=key)


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
    for key in KEYS:
        if key in data:
            if is_wrong_value(key, data[key]):
                raise wrong_value(path, text, key, data[key])
            setattr(config, key, data[key])  # as written: an int stays an int
    return config


def toml_value(value) -> str:
    """``value`` written as TOML: strings quoted and escaped, ``true``/``false``, an int as an int,
    a float as a float, arrays and inline tables, dates and times in ISO form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }" if value \
            else "{}"
    raise TypeError(f"cannot write {value!r} in TOML")


def toml_key(key: str) -> str:
    """A bare key when it can be one, else a quoted key."""
    return key if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key) else toml_value(key)


def toml_document(data: dict, header: str | None = None) -> str:
    """A whole TOML document for ``data``: plain keys first, then each table as ``[name]``."""
    lines = [header] if header else []

    def table(prefix: list[str], values: dict) -> None:
        plain = {k: v for k, v in values.items() if not isinstance(v, dict)}
        tables = {k: v for k, v in values.items() if isinstance(v, dict)}
        if prefix and (plain or not tables):
            lines.append("")
            lines.append("[" + ".".join(toml_key(k) for k in prefix) + "]")
        lines.extend(f"{toml_key(k)} = {toml_value(v)}" for k, v in plain.items())
        for k, v in tables.items():
            table(prefix + [k], v)

    table([], data)
    return "\n".join(lines) + "\n"


def _typed(value):
    """``value`` with each number tagged by its type, so that 10 and 10.0 compare unequal."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


_LINE = r"""^(\s*(?:{key}|"{key}"|'{key}')\s*=\s*)(.*)$"""


def _set_line(line: str, key: str, value) -> str | None:
    """``line`` (``key = old  # comment``) with the new value and the comment kept; ``None``
    when the old value cannot be told apart safely (a multi-line string, an array)."""
    found = re.match(_LINE.format(key=re.escape(key)), line)
    if not found:
        return None
    rest = found.group(2)
    if rest.startswith(('"""', "'''", "[", "{")):
        return None
    if rest.startswith('"'):
        end = next((i + 1 for i in range(1, len(rest)) if rest[i] == '"' and
                    (len(rest[1:i]) - len(rest[1:i].rstrip("\\"))) % 2 == 0), None)
    elif rest.startswith("'"):
        end = rest.find("'", 1) + 1 or None
    else:
        end = rest.find("#") if "#" in rest else len(rest)
        end = len(rest[:end].rstrip())
    if not end:
        return None
    return found.group(1) + toml_value(value) + rest[end:]


def _edit_text(text: str, updates: dict) -> str | None:
    """``text`` with the top-level keys of ``updates`` set: each on its own line (comment
    kept), a missing key added after the last top-level line before the first table;
    ``None`` when a line cannot be edited safely."""
    lines = text.splitlines()
    for key, value in updates.items():
        number = key_line("\n".join(lines), key)
        if number is not None:
            edited = _set_line(lines[number - 1], key, value)
            if edited is None:
                return None
            lines[number - 1] = edited
            continue
        first_table = next((i for i, line in enumerate(lines) if line.lstrip().startswith("[")), len(lines))
        at = first_table
        while at > 0 and not lines[at - 1].strip():
            at -= 1  # after the top-level keys, before the blank lines above the table
        lines.insert(at, f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


HEADER = "# voicegame kiosk configuration: every key is explained in docs/kiosk.md"


def save(config: Config, env: Mapping[str, str] | None = None, path: Path | None = None,
         keys: tuple[str, ...] | None = None) -> Path:
    """Write ``keys`` of the configuration atomically (temp file + rename); without ``keys``,
    every key that differs from the file (a key the file lacks only when not the default).

    An existing file keeps everything its owner wrote: comments, order, unknown keys and
    ``[tables]``; only the lines of the written keys change (their comments stay), a key not
    there yet is added before the first table, and an int stays an int. A new file gets every
    known key. When the file cannot be edited line by line (a value spread over lines), it is
    written whole from its data (comments are lost then, nothing else).

    :raises OSError: the directory cannot be written.
    :raises ConfigError: the existing file is no longer valid TOML (it is left as it is).
    """
    path = path or config_path(env)
    path.parent.mkdir(parents=True, exist_ok=True)
    names = tuple(keys) if keys is not None else KEYS
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}, line {syntax_line(exc, text)}: not valid TOML, so it was not rewritten.",
                              path=path, kind="syntax", line=syntax_line(exc, text)) from exc
        default = Config()
        updates = {k: getattr(config, k) for k in names
                   if (k in data and _typed(data[k]) != _typed(getattr(config, k)))
                   or (k not in data and (keys is not None or getattr(config, k) != getattr(default, k)))}
        wanted = {**data, **updates}
        out = _edit_text(text, updates) if updates else text
        try:
            if out is None or _typed(tomllib.loads(out)) != _typed(wanted):
                out = None
        except tomllib.TOMLDecodeError:
            out = None
        if out is None:
            out = toml_document({**{k: wanted[k] for k in KEYS if k in wanted},
                                 **{k: v for k, v in wanted.items() if k not in KEYS}}, HEADER)
        mode = path.stat().st_mode & 0o777
    else:
        out = toml_document({**{k: getattr(config, k) for k in KEYS}, **config.extra}, HEADER)
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=".config.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(out)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
