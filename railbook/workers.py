"""Worker processes railbook starts (``render --jobs``, ``soak --jobs``) end with the command that started them."""

from __future__ import annotations

import os


def die_with_parent(parent: int) -> None:
    """Make this worker process end when ``parent`` does (killed or not), so no worker outlives the command.

    On Linux the kernel sends SIGKILL when the parent dies (``PR_SET_PDEATHSIG``); elsewhere, and for the moment
    before that is set, a daemon thread checks every half second that the parent is still there.
    """
    import signal
    import sys
    import threading
    import time

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()
