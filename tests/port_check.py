"""Does an adapter really implement a port? ``isinstance`` with a runtime-checkable
Protocol only checks that the method names exist; this compares each method's
parameters (names, kinds, defaults) with the port's."""

from __future__ import annotations

import inspect


def port_problems(obj, port) -> list[str]:
    """What differs between ``obj`` and the Protocol ``port`` (empty when it conforms)."""
    problems = []
    for name, member in vars(port).items():
        if name.startswith("_") or not callable(member):
            continue
        impl = getattr(obj, name, None)
        if impl is None or not callable(impl):
            problems.append(f"{name}: missing")
            continue
        want = list(inspect.signature(member).parameters.values())[1:]  # without self
        have = inspect.signature(impl).parameters
        for p in want:
            q = have.get(p.name)
            if q is None:
                if not any(x.kind is inspect.Parameter.VAR_KEYWORD for x in have.values()):
                    problems.append(f"{name}: no parameter {p.name}")
                continue
            if p.default is not inspect.Parameter.empty and q.default != p.default:
                problems.append(f"{name}: {p.name} defaults to {q.default!r}, the port says {p.default!r}")
            if p.default is inspect.Parameter.empty and q.default is not inspect.Parameter.empty:
                pass  # an optional parameter where the port requires one is fine
        extra = [q.name for q in have.values() if q.name not in {p.name for p in want}
                 and q.default is inspect.Parameter.empty
                 and q.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
        if extra:
            problems.append(f"{name}: requires {', '.join(extra)}, which the port never passes")
    return problems
