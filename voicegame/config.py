"""The kiosk configuration file: ``<user config dir>/config.toml``.

Read with ``tomllib``; written back (when the lobby changes the speech rate,
volume or language by voice) with a small writer for the flat ``key = value``
format below. Unknown keys are kept; a malformed file is reported in one
sentence naming the file and line, and the defaults are used.

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
import tempfile
import tomllib
from dataclasses import asdict, dataclass, fields
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

    @property
    def timer_s(self) -> float | None:
        """Seconds per timer, ``None`` when off."""
        if isinstance(self.timer, str):
            return None if self.timer.lower() == "off" else float(self.timer)
        return float(self.timer) if self.timer else None


class ConfigError(ValueError):
    """The configuration file is malformed; ``str()`` names the file and line."""


def config_path(env: Mapping[str, str] | None = None) -> Path:
    """``<user config dir>/config.toml`` (``$VOICEGAME_CONFIG_DIR`` overrides the dir)."""
    return config_dir(env) / "config.toml"


def load(env: Mapping[str, str] | None = None, path: Path | None = None) -> Config:
    """Read the configuration (defaults when the file does not exist).

    :raises ConfigError: malformed TOML or a value of the wrong type.
    """
    path = path or config_path(env)
    if not path.exists():
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Cannot read {path}: {exc}") from exc
    config = Config()
    for f in fields(Config):
        if f.name in data:
            value = data[f.name]
            default = getattr(config, f.name)
            if f.name == "timer" and isinstance(value, (int, float, str)):
                setattr(config, f.name, value)
            elif isinstance(default, float) and isinstance(value, (int, float)):
                setattr(config, f.name, float(value))
            elif type(value) is type(default):
                setattr(config, f.name, value)
            else:
                raise ConfigError(f"{path}: {f.name} should be like {default!r}, not {value!r}.")
    return config


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def save(config: Config, env: Mapping[str, str] | None = None, path: Path | None = None) -> Path:
    """Write the configuration atomically (temp file + rename).

    :raises OSError: the directory cannot be written.
    """
    path = path or config_path(env)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# voicegame kiosk configuration (see `voicegame/config.py` for every key)"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in asdict(config).items()]
    fd, tmp = tempfile.mkstemp(prefix=".config.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return path
