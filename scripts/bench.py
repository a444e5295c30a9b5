#!/usr/bin/env python3
"""Run the voicegame benchmarks (issue 7) from a checkout: same as ``voicegame bench``.

    python scripts/bench.py [--model DIR] [--json PATH] [--quick] [--profile]

See ``voicegame/bench.py`` for the figures and ``docs/performance.md`` for a run.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from voicegame.bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
