"""The package's tests run against the sources beside them (src/), installed or not."""

import sys
from pathlib import Path

_SOURCES = str(Path(__file__).resolve().parent.parent / "src")
if _SOURCES not in sys.path:
    sys.path.insert(0, _SOURCES)
