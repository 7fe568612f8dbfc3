"""mypy on the public API (``railbook``, ``railbook.api``, the engine's ``Game``, its types and errors, the mechanic
contract and interfaces, and ``railbook.routes``): strict on those modules, silent on what they import."""

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
        if entry.suffix in (".py", ".typed"):
            (pkg / entry.name).symlink_to(entry)
    for sub, folder in LAYOUT.items():
        if sub:
            (pkg / sub).symlink_to(ROOT / folder, target_is_directory=True)
    return base


def test_public_api_type_checks(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
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
        *PUBLIC,
    ]
    env = {**os.environ, "MYPYPATH": str(tree)}
    out = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
