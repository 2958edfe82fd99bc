"""Ctrl-C held back for a moment and answered just after.

Some steps must not be cut in half: moving finished files into place (:mod:`setlab.files`), numpy's
compiled modules initialising (a SIGINT caught inside them prints "ImportError: _multiarray_umath
failed to import" beside the interrupt line), a compiled numba loop (a SIGINT handled inside a
parallel one surfaces in numba's calls back into Python as a SystemError and can leave its thread
pool broken, so that the process crashes later: long walks call their loop in slices of about a
second, so a Ctrl-C is answered within one slice), or a thread starting (``setlab serve``). For
such a step a Python-level handler records a SIGINT and, when the step is done, hands it to the
handler that was in place, which raises KeyboardInterrupt as usual. A handler, not a signal mask:
Python runs its handlers in the main thread whichever thread the operating system hands SIGINT to,
so a mask on one thread does not hold it while other threads run (a progress bar's monitor, say).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["ctrl_c_held"]


@contextmanager
def ctrl_c_held() -> Iterator[list[object]]:
    """Hold Ctrl-C back for the block; a SIGINT that came meanwhile is answered just after it.

    The block gets the list of the SIGINTs held so far (their frames): a block that waits on
    other work can see it fill and cut that work short (CP-SAT's search, in
    :func:`setlab.extremal.bounds.solve_interruptibly`). Off the main thread, where no handler
    can be set, the block runs as it is and the list stays empty.

    Examples
    --------
    >>> import os, signal
    >>> try:
    ...     with ctrl_c_held():
    ...         os.kill(os.getpid(), signal.SIGINT)  # arrives while the block still runs
    ...         finished = True
    ... except KeyboardInterrupt:
    ...     print("interrupted after the block:", finished)
    interrupted after the block: True
    """
    caught: list[object] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(frame))
    if previous is None:  # a handler set outside Python: the default stands in for it
        previous = signal.SIG_DFL
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            previous(signal.SIGINT, caught[0])  # Python's own raises KeyboardInterrupt
        elif caught and previous == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)
