"""Every spoken sentence, per language, loaded from ``prompts/<lang>/*.toml``.

Each TOML file is a namespace named after the file (``common.toml`` →
``common.*``); values are ``str.format`` templates. Words the understanding
module knows live in ``words.toml``. Card decks and question banks are data
files beside them (see :mod:`voicegame.decks`). Python code never holds a
sentence a player hears: it asks for a key.
"""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

#: The ``prompts/`` folder inside the package (package data, so wheels carry it).
PROMPTS_DIR = Path(str(resources.files("voicegame").joinpath("prompts")))

#: Languages the host can speak (a ``prompts/<lang>/`` directory exists).
SUPPORTED = ("en", "es", "nl")


class PromptError(Exception):
    """A prompt file is missing, malformed, or a key/placeholder is unknown.

    ``str(error)`` names the file (and key) for a person.
    """


def lang_dir(lang: str) -> Path:
    """The ``prompts/<lang>`` directory; raises :class:`PromptError` if absent."""
    d = PROMPTS_DIR / lang
    if not d.is_dir():
        raise PromptError(f"No prompts for language {lang!r}: expected the folder {d}.")
    return d


def _flatten(prefix: str, table: dict, out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = value


@cache
def load_toml(lang: str, name: str) -> dict:
    """Parse ``prompts/<lang>/<name>.toml`` (cached).

    :raises PromptError: file missing or not valid TOML (names the file and line).
    """
    path = lang_dir(lang) / f"{name}.toml"
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise PromptError(f"Missing prompt file {path}.") from exc
    except tomllib.TOMLDecodeError as exc:
        raise PromptError(f"{path}: {exc}") from exc


@dataclass(frozen=True)
class Prompts:
    """All sentence templates of one language, flattened to dotted keys.

    ``Prompts.load("en").text("common.didnt_hear")`` → the sentence.
    """

    lang: str
    templates: dict

    @classmethod
    @cache
    def load(cls, lang: str) -> "Prompts":
        """Load every ``*.toml`` in ``prompts/<lang>/`` except ``words.toml``.

        :raises PromptError: a file is malformed or the language is missing.
        """
        templates: dict[str, str] = {}
        for path in sorted(lang_dir(lang).glob("*.toml")):
            if path.stem.startswith("words"):
                continue
            _flatten(path.stem, load_toml(lang, path.stem), templates)
        return cls(lang, templates)

    def has(self, key: str) -> bool:
        """True when ``key`` exists."""
        return key in self.templates

    def lines(self, key: str, **values) -> list[str]:
        """The parts of a list prompt (``key = ["…", "…"]``), each filled in; a plain
        prompt is one part. :raises PromptError: unknown key."""
        template = self.templates.get(key)
        if template is None:
            raise PromptError(f"No prompt {key!r} in prompts/{self.lang}/.")
        if not isinstance(template, list):
            return [self.text(key, **values)]
        return [str(part).format(**values) if values else str(part) for part in template]

    def text(self, key: str, **values) -> str:
        """The sentence for ``key`` with ``values`` filled in.

        A list value is joined into words with the language's ``common.and``.

        :raises PromptError: unknown key or a placeholder without a value.
        """
        try:
            template = self.templates[key]
        except KeyError as exc:
            raise PromptError(f"No prompt {key!r} in prompts/{self.lang}/.") from exc
        if isinstance(template, list):
            template = " ".join(template)
        filled = {k: self.join(v) if isinstance(v, (list, tuple)) else v for k, v in values.items()}
        try:
            return template.format(**filled)
        except (KeyError, IndexError) as exc:
            raise PromptError(f"Prompt {key!r} in prompts/{self.lang}/ needs {exc}.") from exc

    def join(self, items) -> str:
        """``["a", "b", "c"]`` → ``"a, b and c"`` in this language."""
        items = [str(i) for i in items]
        if not items:
            return self.templates.get("common.nothing", "")
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + f" {self.templates.get('common.and', 'and')} " + items[-1]

    def placeholders(self, key: str) -> set[str]:
        """The ``{names}`` a template uses (for cross-language checks)."""
        template = self.templates[key]
        if isinstance(template, list):
            template = " ".join(template)
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def for_error(error, lang: str) -> Prompts:
    """The prompts to say ``error`` (a :class:`~voicegame.ports.DeviceError`) and what follows
    it in: ``lang``'s where the error has a sentence there, else English (one line, one language)."""
    prompts = Prompts.load(lang)
    return prompts if error.has_sentence(prompts) else Prompts.load("en")
