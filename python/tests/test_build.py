"""The in-tree build backend: pyproject.toml read as tomllib reads it, and the wheel, editable wheel and sdist it makes."""

from __future__ import annotations

import base64
import hashlib
import sys
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "build_backend"))
import wildtools_build as backend  # noqa: E402

PYPROJECT = (ROOT / "pyproject.toml").read_text("utf-8")


class BuildTest(unittest.TestCase):
    def setUp(self) -> None:
        self.out = tempfile.TemporaryDirectory()
        self.addCleanup(self.out.cleanup)

    def test_pyproject_is_read_as_tomllib_reads_it(self) -> None:
        project = backend.toml_subset(PYPROJECT)["project"]
        self.assertEqual((project["name"], project["requires-python"], project["dependencies"]), ("wildtools", ">=3.10", []))
        self.assertEqual(project["license"], {"text": "MIT"})
        self.assertEqual(backend.toml_subset(PYPROJECT)["build-system"]["requires"], [])
        self.assertEqual(backend.read_toml(PYPROJECT), backend.toml_subset(PYPROJECT), "Python 3.10 builds the same metadata")
        tricky = '[a.b]\nx = "a # not a comment" # a comment\ny = [\n  1,\n  {k = "v, w = 2"},\n]\nz = true\n'
        self.assertEqual(backend.toml_subset(tricky), {"a": {"b": {"x": "a # not a comment", "y": [1, {"k": "v, w = 2"}], "z": True}}})

    def test_the_wheel(self) -> None:
        self.assertEqual(backend.get_requires_for_build_wheel(), [])
        name = backend.build_wheel(self.out.name)
        self.assertEqual(name, "wildtools-0.1.0-py3-none-any.whl")
        with zipfile.ZipFile(Path(self.out.name) / name) as wheel:
            names = wheel.namelist()
            self.assertIn("wildtools/client.py", names)
            self.assertIn("wildtools/py.typed", names)
            self.assertFalse([n for n in names if "__pycache__" in n])
            metadata = wheel.read("wildtools-0.1.0.dist-info/METADATA").decode()
            for line in ("Name: wildtools", "Version: 0.1.0", "Requires-Python: >=3.10", "License: MIT", "Classifier: Typing :: Typed"):
                self.assertIn(line + "\n", metadata)
            self.assertIn("Description-Content-Type: text/markdown\n\n# python/", metadata)
            for row in wheel.read("wildtools-0.1.0.dist-info/RECORD").decode().splitlines():
                path, digest, size = row.split(",")
                if digest:
                    data = wheel.read(path)
                    expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    self.assertEqual((digest, int(size)), (f"sha256={expected}", len(data)), path)

    def test_the_editable_wheel(self) -> None:
        self.assertEqual(backend.get_requires_for_build_editable(), [])
        with zipfile.ZipFile(Path(self.out.name) / backend.build_editable(self.out.name)) as wheel:
            self.assertEqual(wheel.read("__editable__.wildtools.pth").decode().strip(), str(ROOT / "src"))

    def test_the_sdist(self) -> None:
        self.assertEqual(backend.get_requires_for_build_sdist(), [])
        name = backend.build_sdist(self.out.name)
        with tarfile.open(Path(self.out.name) / name) as sdist:
            names = sdist.getnames()
        for needed in ("pyproject.toml", "PKG-INFO", "README.md", "src/wildtools/aio.py", "build_backend/wildtools_build.py", "tests/support.py"):
            self.assertIn(f"wildtools-0.1.0/{needed}", names)

    def test_unsupported_metadata_is_refused(self) -> None:
        original = backend.read_toml
        backend.read_toml = lambda text: {"project": {"name": "x", "version": "1", "dependencies": ["y"]}}  # type: ignore[assignment]
        self.addCleanup(setattr, backend, "read_toml", original)
        with self.assertRaises(ValueError):
            backend.build_wheel(self.out.name)


if __name__ == "__main__":
    unittest.main()
