"""Helpers of the browser tests: a server on a free port (in a thread, or a `railbook serve` process), Chromium
through Playwright, and acting on the table by clicks."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SKIP = "Chromium is not installed (Debian: apt-get install chromium); the browser tests need /usr/bin/chromium"


def need_browser() -> Any:
    """Playwright's sync API, or a skip naming what is missing."""
    if not CHROMIUM.exists():
        pytest.skip(SKIP)
    try:
        from playwright import sync_api
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install -e '.[dev]')")
    return sync_api


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThreadServer:
    """``railbook serve``'s app under uvicorn in a thread of the test process (rulebooks compiled once)."""

    def __init__(self, db: Path):
        import uvicorn

        from railbook.serve import create_app

        self.app = create_app(db)
        self.port = free_port()
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


class ProcessServer:
    """``railbook serve`` as its own process (to restart it)."""

    def __init__(self, db: Path, port: int):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, "-c", "from railbook.cli import main; main()", "serve"]
        command += ["--db", str(db), "--port", str(port)]
        self.proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"railbook serve did not start: {self.proc.stderr.read()!r}") from None
                time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def key_of(legal: dict[str, Any]) -> str:
    """The ``data-key`` of a legal action's form (railbook.serve.controls.action_key)."""
    fields = dict(sorted(legal["fields"].items()))
    return json.dumps([legal["type"], legal["entity"], fields], separators=(",", ":"), sort_keys=True)


def rev(page: Any) -> str:
    return str(page.get_attribute("#table", "data-rev"))


def wait_rev_change(page: Any, old: str, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "old => { const t = document.getElementById('table'); return t && t.dataset.rev !== old; }",
        arg=old,
        timeout=timeout,
    )


def click_action(
    page: Any, legal: dict[str, Any], hex_of_city: Any = None, values: dict[str, int] | None = None
) -> None:
    """Take one legal action on the table page by clicks, as a player would (open ranges: ``values``, else their
    least), and wait for the table to change."""
    before = rev(page)
    selector = f"form[data-key={json.dumps(key_of(legal))}]"
    if legal["type"] in ("lay_tile", "place_token"):
        hex_id = legal["fields"]["hex"] if legal["type"] == "lay_tile" else hex_of_city(legal["fields"]["city"])
        page.click(f'#table .hit[data-hex="{hex_id}"]', force=True)
        selector = f"#hexpanel {selector}"
    form = page.locator(selector)
    form.wait_for(timeout=10_000)
    for name, allowed in legal["open"].items():
        if allowed["kind"] != "range":
            continue
        field = form.locator(f'[name="{name}"]')
        value = str((values or {}).get(name, allowed["min"]))
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    form.locator("button[type=submit]").click()
    wait_rev_change(page, before)
    message = page.locator("#message").text_content() or ""
    assert not message.strip(), f"{legal}: {message}"
