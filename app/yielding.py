"""Long work that leaves the worker answering: under gevent one greenlet that computes holds every table on the
worker until it lets go, so a long job pauses between its chunks, and one long call into C runs in a thread."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _gevent_serving() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("time")


def let_others_run() -> None:
    """Under gevent, hand the worker to its other requests and streams for a turn of the loop: a long job (an import,
    an export, a purge) calls this between its chunks, so nobody waits for all of it. A no-op elsewhere."""
    if _gevent_serving():
        time.sleep(0.001)  # > 0: the loop polls for I/O before this greenlet runs again


def in_a_thread(work: Callable[..., T], *args, **kwargs) -> T:
    """`work(*args, **kwargs)`, under gevent in its thread pool, the calling greenlet waiting while the others run;
    for pure work only (no database, no Flask context). The GIL passes between the thread and the worker's loop every
    few milliseconds while `work` runs Python code, so it should call some (a hook per parsed object will do)."""
    if not _gevent_serving():
        return work(*args, **kwargs)
    import gevent

    return gevent.get_hub().threadpool.apply(work, args, kwargs)
