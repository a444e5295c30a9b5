"""A Vosk model's own vocabulary, and filler words taken from it for rejection.

Grammar ("limited") recognition forces every sound onto a grammar word. A model
with ``[unk]`` has a garbage word for that; many (the Korean one, for example) do
not. :func:`pick_fillers` takes ordinary words from the model's own vocabulary that
are shaped like the moment's phrases but are none of them; added to a grammar, table
talk lands on them instead of on a command, and a result with a filler word is
"not for me". This works for any model, with or without ``[unk]``.

The vocabulary is read from ``graph/words.txt`` when the model has one, else from
the word symbol table that OpenFst embeds in ``graph/Gr.fst`` (lookahead models).
"""

from __future__ import annotations

import functools
import struct
import unicodedata
import zlib
from pathlib import Path

#: OpenFst's symbol-table magic number (``SymbolTable::Write``).
_SYMTAB_MAGIC = 2125658996
_FST_MAGIC = 2125659606


def _read_string(data: bytes, pos: int) -> tuple[str, int]:
    (n,) = struct.unpack_from("<i", data, pos)
    pos += 4
    return data[pos:pos + n].decode("utf-8", "replace"), pos + n


def _fst_symbols(path: Path) -> list[str]:
    """The output symbols embedded in an OpenFst binary file (empty when it has none)."""
    import mmap

    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        (magic,) = struct.unpack_from("<i", data, 0)
        if magic != _FST_MAGIC:
            return []
        pos = 4
        _, pos = _read_string(data, pos)  # fst type
        _, pos = _read_string(data, pos)  # arc type
        _version, flags = struct.unpack_from("<ii", data, pos)
        pos += 8 + 8 + 8 + 8 + 8  # version and flags, properties, start, numstates, numarcs
        words: list[str] = []
        for bit in (1, 2):  # input symbols, then output symbols (the words)
            if flags & bit:
                words, pos = _read_symtab(data, pos)
        return words


def _read_symtab(data, pos: int) -> tuple[list[str], int]:
    (magic,) = struct.unpack_from("<i", data, pos)
    if magic != _SYMTAB_MAGIC:
        return [], pos
    _, pos = _read_string(data, pos + 4)  # the table's name
    _available, size = struct.unpack_from("<qq", data, pos)
    pos += 16
    words = []
    for _ in range(size):
        (ln,) = struct.unpack_from("<i", data, pos)
        words.append(bytes(data[pos + 4:pos + 4 + ln]).decode("utf-8", "replace"))
        pos += 4 + ln + 8  # the string, then its int64 key
    return words, pos


@functools.cache
def model_vocabulary(model_dir: str) -> tuple[str, ...]:
    """Every word of a Vosk model folder, in the model's own order.

    :param model_dir: the unpacked model folder.
    :returns: the words, without ``<eps>``, ``!SIL``, ``#0`` and ``<s>``-style symbols;
        empty when the model has neither ``graph/words.txt`` nor an embedded table.
    """
    d = Path(model_dir)
    words_txt = next((p for p in (d / "graph" / "words.txt", d / "words.txt") if p.is_file()), None)
    if words_txt is not None:
        raw = [line.split()[0] for line in words_txt.read_text(encoding="utf-8").splitlines() if line.strip()]
    elif (d / "graph" / "Gr.fst").is_file():
        raw = _fst_symbols(d / "graph" / "Gr.fst")
    else:
        raw = []
    return tuple(w for w in raw if w and not (w[0] in "<#!" or w.startswith("[")))


def _script(word: str) -> str:
    """The Unicode script of a word's first letter (``"HANGUL"``, ``"LATIN"``…)."""
    try:
        return unicodedata.name(word[0]).split()[0]
    except (ValueError, IndexError):
        return ""


@functools.cache
def _hash_order(vocabulary: tuple[str, ...], salt: str) -> tuple[str, ...]:
    return tuple(sorted(vocabulary, key=lambda w: zlib.crc32(f"{salt}:{w}".encode())))


POOL_SIZE = 20000


@functools.cache
def filler_pool(model_dir: str, salt: str = "voicegame") -> tuple[str, ...]:
    """The first :data:`POOL_SIZE` words of a model's vocabulary in the filler order.

    Reading a large vocabulary takes seconds, so the pool is kept in the user cache
    folder (``platformdirs.user_cache_dir("voicegame")``), keyed by the model folder
    and its graph's size and time; a cache that cannot be read or written is skipped.

    :param model_dir: the unpacked model folder.
    """
    d = Path(model_dir)
    graph = next((p for p in (d / "graph" / "words.txt", d / "words.txt", d / "graph" / "Gr.fst") if p.is_file()),
                 None)
    if graph is None:
        return ()
    stat = graph.stat()
    key = zlib.crc32(f"{d.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{salt}|{POOL_SIZE}".encode())
    cache = None
    try:
        import platformdirs

        cache = Path(platformdirs.user_cache_dir("voicegame")) / f"fillers-{key:08x}.txt"
        if cache.is_file():
            return tuple(cache.read_text(encoding="utf-8").split("\n"))
    except (OSError, UnicodeDecodeError, ImportError):
        cache = None
    try:
        pool = _hash_order(model_vocabulary(model_dir), salt)[:POOL_SIZE]
    except (OSError, ValueError, struct.error, IndexError):  # an unreadable graph: no fillers
        return ()
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(".tmp")
            tmp.write_text("\n".join(pool), encoding="utf-8")
            tmp.replace(cache)
        except OSError:
            pass
    return pool


def pick_fillers(vocabulary, phrases, count: int = 120, salt: str = "voicegame",
                 ordered_already: bool = False) -> tuple[str, ...]:
    """Filler words for a grammar: ordinary model words that are none of the phrases' words.

    Taken in a fixed pseudo-random order (a CRC of the word and ``salt``) among words
    written in the phrases' script, made only of letters, whose length lies within the
    lengths of the phrases' words (so they are command-shaped), and that neither
    contain nor are contained in a phrase word (such near-homophones would steal real
    commands).

    :param vocabulary: the model's words (:func:`model_vocabulary`).
    :param phrases: the moment's phrases (their words are excluded).
    :param count: how many fillers at most.
    :param ordered_already: ``vocabulary`` is already in the filler order (:func:`filler_pool`).
    :returns: the fillers, sorted.
    """
    own = {w for p in phrases for w in str(p).split()}
    if not own or count <= 0:
        return ()
    lo = max(1, min(len(w) for w in own))
    hi = max(len(w) for w in own) + 1
    scripts = {_script(w) for w in own}
    chosen = []
    ordered = vocabulary if ordered_already else _hash_order(tuple(vocabulary), salt)
    for w in ordered:
        if not (lo <= len(w) <= hi) or not w.isalpha() or w in own or _script(w) not in scripts:
            continue
        if any(o in w or w in o for o in own):
            continue
        chosen.append(w)
        if len(chosen) >= count:
            break
    return tuple(sorted(chosen))
