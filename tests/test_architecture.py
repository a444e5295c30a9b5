"""The layers hold: no import circle (imports inside functions count), nothing imports the
command line, the rules of every game import only the standard library and other rules, and
hosts use the Table's narrow interface, never its private fields."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import voicegame

PACKAGE = Path(voicegame.__file__).parent


def modules() -> dict[str, Path]:
    """Every module of the package: dotted name → file."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imported(name: str, path: Path) -> set[str]:
    """Every module named by an import anywhere in the file (functions and classes too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)  # "from pkg import module"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module"):
            found.add("<dynamic>")
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: {m for m in imported(name, path) if m in mods and m != name} for name, path in mods.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_circle_through_a_function_level_import(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("import b\n")
    b.write_text("def later():\n    from a import x\n")
    edges = {"a": {m for m in imported("a", a) if m in ("a", "b")} - {"a"},
             "b": {m for m in imported("b", b) if m in ("a", "b")} - {"b"}}
    assert cycles(edges) == [["a", "b"]]


def test_no_import_circle_anywhere_in_the_package():
    assert cycles(graph()) == []


def test_nothing_imports_the_command_line():
    importers = sorted(name for name, deps in graph().items() if "voicegame.cli" in deps and name != "voicegame.__main__")
    assert importers == []


def test_no_module_imports_by_name_at_run_time():
    """``importlib.import_module`` would hide an edge from the circle check."""
    assert [name for name, path in modules().items() if "<dynamic>" in imported(name, path)] == []


#: Third-party imports a rules module still has while its game's branch moves the text work
#: (the guess judge) out of the rules; strict: an entry no longer needed fails the test.
NOT_YET_MOVED: dict[str, set[str]] = {}


def test_rules_import_only_the_standard_library_and_other_rules():
    rules = {name: path for name, path in modules().items() if name.startswith("voicegame.games.")
             and name.endswith(".rules")}
    assert len(rules) == 3
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for name, path in rules.items():
        outside = set()
        for module in imported(name, path):
            top = module.split(".")[0]
            if top == "voicegame":
                assert module in rules or module.rpartition(".")[0] in rules, f"{name} imports {module}"
            elif top not in stdlib:
                outside.add(top)
        assert outside == NOT_YET_MOVED.get(name, set()), f"{name} imports {sorted(outside)} (update NOT_YET_MOVED)"


# ---------------------------------------------------------------------- hosts use the Table's narrow interface
#: Table internals a host must not read or write: the record, the log and replay, the rng, the
#: speech/timer/command parts (use record_turn/record_item/note_record/recorded/recorded_turns,
#: last_heard, replay_ending, chance(), remember() instead).
PRIVATE_TABLE_FIELDS = {"record", "last_prompt", "pending", "live_at", "log", "rng", "replay", "recorder",
                        "speech", "commands", "timers", "live_listener", "live_voice", "generation", "phase"}
#: Hosts held to it (every game host and the lobby).
NARROW_HOSTS = ("voicegame/games/wavelength/host.py", "voicegame/games/rofl/host.py", "voicegame/games/wits/host.py",
                "voicegame/lobby/host.py")


def _table_expr(node: ast.AST, names: set[str]) -> bool:
    """``t``, ``table`` (or another name bound to a Table), ``self.table``, ``session.table``."""
    if isinstance(node, ast.Name):
        return node.id in names
    return isinstance(node, ast.Attribute) and node.attr == "table"


def private_table_reads(source: str) -> list[tuple[int, str]]:
    """``(line, field)`` of every use of a private Table field in ``source``."""
    tree = ast.parse(source)
    names = {"t", "table"}
    for node in ast.walk(tree):  # names bound to a table: "t = self.table"
        if isinstance(node, ast.Assign) and _table_expr(node.value, set()):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return sorted((node.lineno, node.attr) for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and _table_expr(node.value, names)
                  and (node.attr in PRIVATE_TABLE_FIELDS or node.attr.startswith("_")))


def test_the_private_table_check_finds_reads_and_writes():
    source = ("def f(self, session):\n    t = self.table\n    t.record['turns'].append(1)\n"
              "    t.last_prompt = 'x'\n    n = session.table.log[-1]\n    t.record_turn({})\n")
    assert private_table_reads(source) == [(3, "record"), (4, "last_prompt"), (5, "log")]


@pytest.mark.parametrize("path", NARROW_HOSTS)
def test_hosts_use_only_the_tables_narrow_interface(path):
    source = (PACKAGE.parent / path).read_text(encoding="utf-8")
    assert private_table_reads(source) == []


# ---------------------------------------------------------------------- one notion of phase driving
#: The one module that drives a game's ``transitions`` machine (PhaseError, fire, play).
PHASES = "voicegame.engine.phases"


def phase_driving_copies(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` of every copy of engine/phases.py in ``source``: a ``PhaseError`` class,
    a ``may_<trigger>`` check built from a trigger's name, or a ``fire``/``advance`` that does
    more than call ``phases.fire`` / ``phases.play``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == "PhaseError":
            found.append((node.lineno, "PhaseError"))
        elif (isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant)
              and str(node.values[0].value).startswith("may_")):
            found.append((node.lineno, "may_"))
        elif isinstance(node, ast.FunctionDef) and node.name in ("fire", "advance"):
            body = [b for b in node.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
            delegates = (len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Call)
                         and isinstance(body[0].value.func, ast.Attribute)
                         and isinstance(body[0].value.func.value, ast.Name)
                         and body[0].value.func.value.id == "phases" and body[0].value.func.attr in ("fire", "play"))
            if not delegates:
                found.append((node.lineno, node.name))
    return sorted(found)


def test_the_phase_driving_check_finds_copies():
    source = ('class PhaseError(RuntimeError):\n    pass\n\n'
              'class Host:\n'
              '    def advance(self, trigger):\n'
              '        """Fire it."""\n'
              '        if not getattr(self, f"may_{trigger}")():\n'
              '            raise PhaseError(trigger)\n'
              '        self.trigger(trigger)\n\n'
              '    def fire(self, trigger):\n'
              '        """Fire it (queued)."""\n'
              '        phases.fire(self, trigger)\n')
    assert phase_driving_copies(source) == [(1, "PhaseError"), (5, "advance"), (7, "may_")]


def test_no_module_copies_the_phase_driving():
    """engine/phases.py is the one notion of phase driving: one PhaseError, one fire."""
    copies = {name: phase_driving_copies(path.read_text(encoding="utf-8")) for name, path in modules().items()
              if name != PHASES}
    assert {name: found for name, found in copies.items() if found} == {}


@pytest.mark.parametrize("path", ["voicegame/games/wavelength/host.py", "voicegame/games/rofl/host.py",
                                  "voicegame/games/wits/host.py"])
def test_every_game_host_drives_its_machine_through_engine_phases(path):
    source = (PACKAGE.parent / path).read_text(encoding="utf-8")
    name = path.removesuffix(".py").replace("/", ".")
    assert "Machine(" in source and PHASES in imported(name, PACKAGE.parent / path)
    assert "phases.play(" in source  # the game must stop in its last phase, else PhaseError


# --------------------------------------------------------------------------- words live in prompts/
#: Where a sentence reaches a player or a kiosk owner: the hosts, the lobby, the command line.
SPEAKING_FILES = sorted([*PACKAGE.glob("games/*/host.py"), PACKAGE / "lobby" / "host.py", PACKAGE / "cli.py",
                         PACKAGE / "play.py", PACKAGE / "env.py", PACKAGE / "appliance.py"])
#: Calls whose first argument is said or printed to a person.
SPEAKING_CALLS = {"say", "say_text", "tell_private", "print", "CliError", "Failure"}
#: Two words in a row: a sentence, not a prompt key ("lobby.greeting") or a label ("PLAYER: {}").
_WORDS = re.compile(r"[A-Za-z']+[ ,]+[A-Za-z']+")
#: The English sentences still written in Python, each with why: commands that are English only
#: (models, say --wav), `resume` before a save names its language, and the device fallbacks,
#: whose first half is the adapters' English DeviceError. Moving one into prompts/ removes it here.
KNOWN_ENGLISH = {
    ("cli.py", "The saved game in {} can't be read, so it can't be resumed."),
    ("cli.py", "There is no unfinished game to resume; start one with: voicegame play wavelength"),
    ("cli.py", "{} is not a voicegame autosave: it has no game settings and input log."),
    ("cli.py", "The game in {} is already finished."),
    ("cli.py", "The {} model is already installed in {}."),
    ("cli.py", "Installed the {} model in {}."),
    ("cli.py", "Wrote {} seconds of speech ({}) to {}."),
    ("cli.py", "The WAV file {} cannot be written ({})."),
    ("cli.py", "--wav {} is a folder: give a file name, such as {}."),
    ("cli.py", "{}  (voicegame models install writes here)"),
    ("cli.py", "No speech models installed. {}"),
    ("cli.py", "BROKEN: {} ({}): delete it, or run `voicegame models install {}` again."),
    ("env.py", "{} Using the keyboard instead."),
    ("env.py", "{} Printing the host's words instead."),
    ("env.py", "{} The game does not start: printing the host's words would show the secrets."),
}


def _literal(node: ast.AST) -> str | None:
    """The text of a string literal, an f-string ({} for each value) or a sum of them; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        return None if left is None and right is None else (left or "{}") + (right or "{}")
    return None


def english_literals(path: Path) -> set[tuple[str, str]]:
    """``(file name, text)`` of every sentence literal passed to a speaking call in ``path``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call) and node.args:
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            text = _literal(node.args[0]) if name in SPEAKING_CALLS else None
            if text and _WORDS.search(text):
                found.add((path.name, text))
    return found


def test_the_literal_finder_finds_sentences_and_skips_keys(tmp_path):
    sample = tmp_path / "host.py"
    sample.write_text('self.say("lobby.greeting")\nself.say(f"lobby.{key}_saved")\nenv.say(f"PLAYER: {text}")\n'
                      'self.table.say_text("Well done, " + name)\nprint(f"{n} chips left")\n'
                      'raise CliError(f"{path} is a folder.")\n', encoding="utf-8")
    assert english_literals(sample) == {("host.py", "Well done, {}"), ("host.py", "{} chips left"),
                                        ("host.py", "{} is a folder.")}


def test_player_facing_sentences_live_in_prompts():
    """A sentence said or printed by a host, the lobby or the command line comes from
    prompts/<lang>/, so that it is said in the table's language; the known English ones are listed."""
    found = set().union(*(english_literals(path) for path in SPEAKING_FILES))
    assert sorted(found - KNOWN_ENGLISH) == [], "put these sentences in voicegame/prompts/{en,es,nl}/"
    assert sorted(KNOWN_ENGLISH - found) == [], "no longer in the code: remove them from KNOWN_ENGLISH"
