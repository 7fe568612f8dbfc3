"""mypy, strict, on railbook serve (``railbook/serve/``), laid out as the package imports it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_typing import ROOT, link_tree


def test_serve_type_checks(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    pytest.importorskip("starlette")
    tree = link_tree(tmp_path / "tree")
    (tree / "railbook" / "serve").symlink_to(ROOT / "railbook" / "serve", target_is_directory=True)
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "railbook" / "serve").glob("*.py"))
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--follow-imports=silent",
        "--ignore-missing-imports",
        "--no-incremental",
        "--explicit-package-bases",
        *files,
    ]
    env = {**os.environ, "MYPYPATH": str(tree)}
    out = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
