"""railbook installs from a wheel into a fresh virtual environment and works from any directory: the titles and
schemas ship inside the package, and the one import namespace is ``railbook``."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.conftest import shared_dir

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the railbook wheel (its dependencies are borrowed from the test environment)."""
    base = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
    )
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip().splitlines()[-1:]}")
    wheel = next((base / "dist").glob("railbook-*.whl"))
    env = base / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # dependencies only: the test environment's site-packages, after the venv's own (its .pth files are not run,
    # so the editable railbook of the test environment stays invisible)
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True, timeout=300
    )
    return env


def run(env: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(env / "bin" / args[0]), *args[1:]], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_the_wheel_holds_one_namespace_and_the_data(installed: Path, tmp_path: Path) -> None:
    code = (
        "import json, railbook, railbook.paths as p, importlib.util as u;"
        "print(json.dumps({'pkg': railbook.__file__, 'games': str(p.games_dir()), 'schemas': str(p.schemas_dir()),"
        "'compiler': u.find_spec('compiler') is not None, 'engine': u.find_spec('engine') is not None,"
        "'api': sorted(railbook.__all__)}))"
    )
    out = run(installed, "python", "-c", code, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout)
    assert str(installed) in facts["pkg"]
    assert facts["games"].startswith(str(Path(facts["pkg"]).parent)) and facts["schemas"].startswith(
        str(Path(facts["pkg"]).parent)
    )
    assert not facts["compiler"] and not facts["engine"], "generic top-level package names are installed"
    assert {"Game", "IllegalAction", "best_routes", "compile_title", "load_rulebook", "replay"} <= set(facts["api"])


def test_validate_and_compile_from_another_directory(installed: Path, tmp_path: Path) -> None:
    out = run(installed, "railbook", "validate", "1846", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "1846: ok" in out.stdout
    out = run(installed, "railbook", "compile", "1846", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "out" / "1846" / "rulebook.json").read_text())["title"] == "1846"


def test_replay_from_another_directory(installed: Path, tmp_path: Path) -> None:
    shared = shared_dir()
    records = sorted((shared / "fixtures" / "1846").glob("*.json")) if shared else []
    if not records:
        pytest.skip("the shared 1846 records are not available")
    record = min(records, key=lambda p: p.stat().st_size)
    out = run(installed, "railbook", "replay", str(record), "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    expected = json.loads(record.read_text())
    assert json.loads(out.stdout)["game_end_reason"] == expected.get("game_end_reason")


def test_one_version_in_the_package_and_its_metadata() -> None:
    import tomllib

    import railbook

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
    assert railbook.__version__ == project["version"]


def test_every_library_error_is_a_railbook_error() -> None:
    from railbook.engine.errors import IllegalAction, InternalError, SaveError
    from railbook.routes.check import RouteError
    from railbook.routes.positions import ReplayUnavailable

    import railbook

    for error in (IllegalAction, SaveError, InternalError, RouteError, ReplayUnavailable):
        assert issubclass(error, railbook.RailbookError), error


def test_the_wheel_is_compiled_where_the_checkout_is(installed: Path, tmp_path: Path) -> None:
    """Where this checkout's engine is compiled (so Cython and a C compiler are at hand), so is the wheel's."""
    from importlib.machinery import EXTENSION_SUFFIXES

    if not (ROOT / "engine" / f"board{EXTENSION_SUFFIXES[0]}").is_file():
        pytest.skip("the engine is not compiled here")
    code = "import railbook.engine.board as b, railbook.compiled as c; print(b.__file__); print(c.status())"
    out = run(installed, "python", "-c", code, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    path, status = out.stdout.splitlines()[:2]
    assert path.startswith(str(installed)) and path.endswith(EXTENSION_SUFFIXES[0])
    assert status == "engine compiled"
