"""Speaking at the table: prompts in the table's language, "repeat", and the private channel.

:class:`Speech` says sentences to everyone (captioned through the table's
observers) or to one private audience, remembers the last question for "repeat",
and delivers secrets (G2: ears, earpiece or screen). While a log is replayed the
voice is muted.
"""

from __future__ import annotations

from typing import Callable

from voicegame.adapters.headless import NullVoice
from voicegame.engine.observer import CaptionedVoice, Observers
from voicegame.language.prompts import Prompts
from voicegame.ports import Voice


class Speech:
    """The table's mouth.

    :param voice: the live Voice port.
    :param prompts: the table's sentences.
    :param muted: ``muted() -> bool``, True while a log is replayed.
    :param observers: ``observers() -> Observers`` (captions are published there).
    :param private_mode: ``"ears"``, ``"earpiece:DEVICE"`` or ``"screen"``.
    :param screen: prints a private message on a screen (``--private screen``).
    """

    def __init__(self, voice: Voice, prompts: Prompts, muted: Callable[[], bool],
                 observers: Callable[[], Observers], private_mode: str = "ears",
                 screen: Callable[[str], None] | None = None):
        self.live_voice = voice
        self.prompts = prompts
        self._muted = muted
        self._captioned = CaptionedVoice(voice, observers)
        self.private_mode = private_mode
        self.screen = screen or print
        #: the last question said to everyone ("repeat" says it again)
        self.last_prompt: str | None = None

    @property
    def voice(self) -> Voice:
        """The voice to speak with now: muted while replaying; every sentence captioned."""
        return NullVoice() if self._muted() else self._captioned

    def text(self, key: str, **values) -> str:
        return self.prompts.text(key, **values)

    def say(self, key: str, **values) -> str:
        sentence = self.text(key, **values)
        self.say_text(sentence)
        return sentence

    def say_text(self, sentence: str, remember: bool = True) -> None:
        if remember:
            self.last_prompt = sentence
        self.voice.say(sentence)

    def repeat(self) -> None:
        """Say the last question again (nothing when there was none)."""
        if self.last_prompt:
            self.voice.say(self.last_prompt)

    def remember(self, sentence: str | None) -> None:
        """Make ``sentence`` what "repeat" says (a question said in parts)."""
        self.last_prompt = sentence

    def say_private(self, audience: str, sentence: str) -> None:
        self.voice.say(sentence, to=audience)

    def private_lines(self, audience: str, sentence: str, audience_name: str | None = None,
                      cover: str | None = None) -> list[tuple[str, str]]:
        """What :meth:`tell_private` says, in order, as ``(how, text)``: ``"say"`` to everyone,
        ``"private"`` to ``audience`` only, ``"screen"`` printed for it (G2, see there)."""
        name = audience_name or audience
        mode = self.private_mode
        if mode.startswith("earpiece"):
            return [("say", capitalised(self.text("common.private_earpiece", audience=name))),
                    ("private", sentence)]
        if mode == "screen":
            return [("say", capitalised(self.text("common.private_screen", audience=name))),
                    ("screen", self.text("common.private_screen_line", audience=name, secret=sentence))]
        # ears: the ones who must not hear named by ``cover`` ("Red, cover your ears"), else everyone
        return [("say", cover or self.text("common.cover_ears", audience=name)),
                ("say", self.text("common.countdown")), ("private", sentence), ("private", sentence),
                ("say", self.text("common.all_clear"))]

    def tell_private(self, audience: str, sentence: str, audience_name: str | None = None,
                     cover: str | None = None) -> None:
        """Deliver a secret to one audience only (G2): ``ears`` — the others cover their
        ears, a countdown, the secret twice, "all clear"; ``earpiece:DEVICE`` — the
        voice's private output; ``screen`` — printed, and the host says so. The words are
        :meth:`private_lines`'."""
        for how, text in self.private_lines(audience, sentence, audience_name, cover):
            if how == "say":
                self.say_text(text)
            elif how == "private":
                self.say_private(audience, text)
            elif not self._muted():
                self.screen(text)

def capitalised(sentence: str) -> str:
    """The sentence with its first letter upper-case (an audience name may start it)."""
    return sentence[:1].upper() + sentence[1:]
