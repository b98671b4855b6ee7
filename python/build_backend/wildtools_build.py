"""An in-tree PEP 517 build backend with the standard library only, so that `pip install ./python` works offline.

pip builds a project in an isolated environment holding only the project's declared build requirements, which it
downloads: a setuptools backend (which also needs `wheel` before setuptools 70.1) cannot be built without an index.
This backend needs nothing: it reads pyproject.toml's [project] table (with tomllib, or on Python 3.10 with a reader
of the little TOML that file uses) and zips src/wildtools into a pure-Python wheel.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Optional


ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "wildtools"
TAG = "py3-none-any"
# Fixed timestamps: the same sources give the same archives.
ZIP_TIME = (2024, 1, 1, 0, 0, 0)
TAR_TIME = 1704067200
SUPPORTED = {"name", "version", "description", "readme", "requires-python", "license", "keywords", "classifiers", "urls", "dependencies"}


def read_toml(text: str) -> dict[str, Any]:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return toml_subset(text)
    return tomllib.loads(text)


def toml_subset(text: str) -> dict[str, Any]:
    """The TOML pyproject.toml uses: [tables] and `key = value` with strings, numbers, booleans, arrays (on several
    lines too) and inline tables. tests/test_build.py checks that it reads the file as tomllib does."""
    data: dict[str, Any] = {}
    table = data
    pending = ""
    for raw in text.splitlines():
        line = _uncommented(raw).strip()
        if not pending and line.startswith("["):
            table = data
            for part in line.strip("[]").split("."):
                table = table.setdefault(part.strip(), {})
            continue
        pending = f"{pending} {line}".strip()
        key, _, value = pending.partition("=")
        bare = _STRING.sub('""', value)
        if not value or bare.count("[") > bare.count("]") or bare.count("{") > bare.count("}"):
            continue  # an empty line, or a value that goes on
        table[key.strip().strip('"')] = _json_value(value.strip())
        pending = ""
    return data


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _uncommented(line: str) -> str:
    """The line without its comment: a # outside strings."""
    bare = _STRING.sub(lambda match: "_" * len(match.group()), line)
    return line[: bare.index("#")] if "#" in bare else line


def _json_value(value: str) -> Any:
    """A TOML value as JSON: inline tables' keys quoted, trailing commas dropped, strings left alone."""
    strings = _STRING.findall(value)
    pieces: list[str] = []
    for index, part in enumerate(_STRING.split(value)):
        part = re.sub(r"([{,]\s*)([A-Za-z0-9_-]+)\s*=", r'\1"\2":', part)
        pieces.append(re.sub(r",\s*([\]}])", r"\1", part))
        pieces.extend(strings[index : index + 1])
    return json.loads("".join(pieces))


def _project() -> dict[str, Any]:
    project: dict[str, Any] = read_toml((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    unknown = set(project) - SUPPORTED
    if unknown or project.get("dependencies"):
        raise ValueError(f"wildtools_build: unsupported [project] keys {sorted(unknown)} or dependencies (this backend builds none)")
    return project


def _metadata(project: dict[str, Any]) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    if "license" in project:
        lines.append(f"License: {project['license'].get('text', '')}")
    if project.get("keywords"):
        lines.append(f"Keywords: {','.join(project['keywords'])}")
    lines += [f"Classifier: {classifier}" for classifier in project.get("classifiers", [])]
    lines += [f"Project-URL: {label}, {url}" for label, url in project.get("urls", {}).items()]
    lines.append("Description-Content-Type: text/markdown")
    readme = ROOT / str(project["readme"])
    return "\n".join(lines) + "\n\n" + readme.read_text("utf-8")


def _dist_name(project: dict[str, Any]) -> str:
    return f"{project['name'].replace('-', '_')}-{project['version']}"


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _write_wheel(directory: str, files: dict[str, bytes]) -> str:
    project = _project()
    name = _dist_name(project)
    info = f"{name}.dist-info"
    files = {
        **files,
        f"{info}/METADATA": _metadata(project).encode("utf-8"),
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: wildtools_build\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode(),
        f"{info}/top_level.txt": f"{PACKAGE}\n".encode(),
    }
    record = [_record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"{name}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(directory, wheel), "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, ZIP_TIME)
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return wheel


def _package_files() -> dict[str, bytes]:
    source = ROOT / "src" / PACKAGE
    return {
        f"{PACKAGE}/{path.relative_to(source).as_posix()}": path.read_bytes()
        for path in sorted(source.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def get_requires_for_build_wheel(config_settings: Optional[dict[str, Any]] = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict[str, Any]] = None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[dict[str, Any]] = None) -> list[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory: str, config_settings: Optional[dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    """PEP 660: a wheel whose .pth file puts the source folder on sys.path."""
    return _write_wheel(wheel_directory, {f"__editable__.{PACKAGE}.pth": f"{ROOT / 'src'}\n".encode()})


def build_sdist(sdist_directory: str, config_settings: Optional[dict[str, Any]] = None) -> str:
    project = _project()
    name = _dist_name(project)
    sources = [ROOT / "pyproject.toml", ROOT / "README.md"]
    for folder in ("src", "build_backend", "tests"):
        sources += [path for path in sorted((ROOT / folder).rglob("*")) if path.is_file() and "__pycache__" not in path.parts]
    archive_path = os.path.join(sdist_directory, f"{name}.tar.gz")
    with tarfile.open(archive_path, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        entries = [(f"{name}/{path.relative_to(ROOT).as_posix()}", path.read_bytes()) for path in sources]
        entries.append((f"{name}/PKG-INFO", _metadata(project).encode("utf-8")))
        for path, data in entries:
            entry = tarfile.TarInfo(path)
            entry.size, entry.mtime, entry.mode = len(data), TAR_TIME, 0o644
            archive.addfile(entry, io.BytesIO(data))
    return os.path.basename(archive_path)
