"""Fetch 18xx-maker's npm packages (games, tiles, schemas) into a cache folder with ``npm pack``.

Nothing of them is shipped with railbook: tests and the benchmark fetch them when npm is there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from railbook.errors import RailbookError

GAMES = "@18xx-maker/games@4.1.0"
SCHEMAS = "@18xx-maker/schemas@5.7.0"


def cache_dir() -> Path:
    """``$RAILBOOK_NPM_CACHE``, or a folder under the system's temporary folder."""
    return Path(os.environ.get("RAILBOOK_NPM_CACHE") or Path(tempfile.gettempdir()) / "railbook-npm")


def fetch(spec: str, cache: Path | None = None, timeout: float = 180.0) -> Path:
    """The unpacked ``package/`` folder of an npm package, packed and unpacked once per cache."""
    cache = cache or cache_dir()
    target = cache / spec.replace("/", "__").replace("@", "")
    if (target / "package" / "package.json").is_file():
        return target / "package"
    npm = shutil.which("npm")
    if npm is None:
        raise RailbookError("npm is not installed: cannot fetch " + spec)
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        try:
            done = subprocess.run(
                [npm, "pack", spec, "--silent"], cwd=tmp, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            raise RailbookError(f"npm pack {spec}: timed out (offline?)") from None
        tgz = sorted(Path(tmp).glob("*.tgz"))
        if done.returncode != 0 or not tgz:
            reason = (done.stderr or done.stdout).strip().splitlines()
            raise RailbookError(f"npm pack {spec} failed: {reason[-1] if reason else 'no package'}")
        unpacked = Path(tmp) / "unpacked"
        with tarfile.open(tgz[0]) as archive:
            _extract(archive, unpacked, spec)
        if target.exists():
            shutil.rmtree(target)
        os.replace(unpacked, target)
    return target / "package"


def _extract(archive: tarfile.TarFile, dest: Path, spec: str) -> None:
    """Unpack a package's archive into ``dest``, nothing landing or pointing outside it: tarfile's ``data`` filter
    where the interpreter has it (Python 3.11.4 and later), else plain files and folders only."""
    if hasattr(tarfile, "data_filter"):
        try:
            archive.extractall(dest, filter="data")
        except tarfile.FilterError as e:
            raise RailbookError(f"npm pack {spec}: unsafe entry in the package ({e})") from None
        return
    members = archive.getmembers()
    for m in members:
        parts = Path(m.name).parts
        if m.name.startswith(("/", "\\")) or ".." in parts or not (m.isfile() or m.isdir()):
            raise RailbookError(f"npm pack {spec}: unsafe entry {m.name!r} in the package")
    archive.extractall(dest, members=members)  # every entry checked above


def maker_packages(cache: Path | None = None) -> tuple[Path, Path]:
    """(games package folder, schemas folder) of 18xx-maker."""
    return fetch(GAMES, cache), fetch(SCHEMAS, cache) / "schemas"
