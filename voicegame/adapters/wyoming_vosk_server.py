"""A Wyoming ASR server over one Vosk model: the shared recogniser for many tables.

``python -m voicegame.adapters.wyoming_vosk_server --model DIR --uri tcp://0.0.0.0:10300``

One model is loaded once; every connection gets its own ``KaldiRecognizer``, fed as
the ``AudioChunk`` events arrive (on worker threads, so tables never wait for each
other's decoding), and ``AudioStop`` answers one ``Transcript``: every segment's words
(Vosk may close a segment itself inside the utterance, at a pause). A ``Transcribe``
with ``transcript_terms`` (the phrases voicegame's listener sends) decodes in
grammar ("limited") mode with those phrases plus ``[unk]``, as wyoming-vosk does;
without them it transcribes freely. Audio must be 16 kHz 16-bit mono (voicegame's
listener sends that). Any other Wyoming ASR server (wyoming-faster-whisper,
wyoming-ovos-stt) serves the listener too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from functools import partial

log = logging.getLogger(__name__)


def info(lang: str):
    """This server's ``wyoming.info.Info``: one ASR program with one model of ``lang``."""
    from wyoming.info import AsrModel, AsrProgram, Attribution, Info

    attribution = Attribution(name="voicegame", url="https://alphacephei.com/vosk/")
    model = AsrModel(name=f"vosk-{lang}", description="Vosk", attribution=attribution, installed=True,
                     languages=[lang], version=None)
    return Info(asr=[AsrProgram(name="voicegame-vosk", description="Vosk over Wyoming", attribution=attribution,
                                installed=True, version=None, models=[model])])


def make_handler_class():
    """The per-connection handler (built here so importing this module needs no ``wyoming``)."""
    from wyoming.asr import Transcribe, Transcript
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.info import Describe
    from wyoming.server import AsyncEventHandler

    class VoskHandler(AsyncEventHandler):
        def __init__(self, model, lang: str, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.model, self.lang = model, lang
            self.rec = None
            self.terms: list[str] | None = None
            self.words: list[str] = []  # the segments Vosk closed itself (its own endpoint inside the utterance)

        def _recognizer(self):
            import vosk

            if self.terms:
                grammar = list(dict.fromkeys(self.terms))
                if self.model.vosk_model_find_word("[unk]") >= 0:
                    grammar.append("[unk]")
                return vosk.KaldiRecognizer(self.model, 16000, json.dumps(grammar, ensure_ascii=False))
            return vosk.KaldiRecognizer(self.model, 16000)

        def _take(self, result: str) -> None:
            self.words += [w for w in json.loads(result).get("text", "").split() if w != "[unk]"]

        def _accept(self, audio: bytes) -> None:
            if self.rec.AcceptWaveform(audio):  # Vosk closed a segment: keep its words
                self._take(self.rec.Result())

        async def handle_event(self, event) -> bool:
            if Describe.is_type(event.type):
                await self.write_event(info(self.lang).event())
            elif Transcribe.is_type(event.type):
                self.terms = Transcribe.from_event(event).transcript_terms
                self.rec = None
            elif AudioStart.is_type(event.type):
                self.rec = await asyncio.to_thread(self._recognizer)
            elif AudioChunk.is_type(event.type):
                if self.rec is None:
                    self.rec = await asyncio.to_thread(self._recognizer)
                await asyncio.to_thread(self._accept, AudioChunk.from_event(event).audio)
            elif AudioStop.is_type(event.type):
                if self.rec is not None:
                    self._take(await asyncio.to_thread(self.rec.FinalResult))
                text = " ".join(self.words)
                self.rec, self.terms, self.words = None, None, []
                await self.write_event(Transcript(text=text, language=self.lang).event())
            return True

    return VoskHandler


async def serve(model_dir: str, uri: str, lang: str) -> None:
    """Serve ``model_dir`` on ``uri`` until cancelled."""
    from wyoming.server import AsyncServer

    from voicegame.adapters.vosk_listener import load_model

    model = load_model(model_dir)
    server = AsyncServer.from_uri(uri)
    log.info("serving %s on %s", model_dir, uri)
    await server.run(partial(make_handler_class(), model, lang))


def main(argv: list[str] | None = None) -> None:
    """The command line: ``--model DIR --uri tcp://HOST:PORT [--lang CODE]``."""
    parser = argparse.ArgumentParser(description="A Wyoming ASR server over one Vosk model.")
    parser.add_argument("--model", required=True, help="an unpacked Vosk model folder")
    parser.add_argument("--uri", default="tcp://127.0.0.1:10300", help="tcp://HOST:PORT to listen on")
    parser.add_argument("--lang", default="en", help="the model's language code (sent back in transcripts)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    import vosk

    vosk.SetLogLevel(-1)
    try:
        asyncio.run(serve(args.model, args.uri, args.lang))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
