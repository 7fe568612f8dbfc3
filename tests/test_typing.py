"""mypy, strict, on the public API (``railbook``, ``railbook.api``, the engine's ``Game``, its types and errors, the
mechanic contract and interfaces, and ``railbook.routes``) and on ``railbook serve``; silent on what they import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the namespace ``railbook`` over the repository's folders, as pyproject.toml maps it
LAYOUT = {
    "": "railbook",
    "compiler": "compiler",
    "engine": "engine",
    "params": "params",
    "render": "render",
    "routes": "routes",
}
PUBLIC = [
    "railbook/__init__.py",
    "railbook/api.py",
    "railbook/errors.py",
    "railbook/engine/game.py",
    "railbook/engine/legal.py",
    "railbook/engine/types.py",
    "railbook/engine/errors.py",
    "railbook/engine/contract.py",
    "railbook/engine/interfaces.py",
    "railbook/routes/__init__.py",
]


def link_tree(base: Path) -> Path:
    """A folder where ``railbook`` and its subpackages are laid out as imported (symlinks to the repository)."""
    pkg = base / "railbook"
    pkg.mkdir(parents=True)
    for entry in (ROOT / "railbook").iterdir():
        if entry.suffix in (".py", ".typed") or (entry / "__init__.py").is_file():
            (pkg / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    for sub, folder in LAYOUT.items():
        if sub:
            (pkg / sub).symlink_to(ROOT / folder, target_is_directory=True)
    return base


def serve_modules() -> list[str]:
    """The web application's modules, as the package imports them."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "railbook" / "serve").glob("*.py"))


@pytest.mark.parametrize(
    ("modules", "needs"), [(PUBLIC, None), (serve_modules(), "starlette")], ids=["public-api", "serve"]
)
def test_type_checks_strictly(tmp_path: Path, modules: list[str], needs: str | None) -> None:
    pytest.importorskip("mypy")
    if needs:
        pytest.importorskip(needs)
    tree = link_tree(tmp_path / "tree")
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--follow-imports=silent",
        "--ignore-missing-imports",
        "--no-incremental",
        "--explicit-package-bases",
        *modules,
    ]
    env = {**os.environ, "MYPYPATH": str(tree)}
    out = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
