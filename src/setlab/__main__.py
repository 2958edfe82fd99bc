"""``python -m setlab``: the same as the ``setlab`` command.

A Ctrl-C while the command module itself is being imported (before :func:`setlab.cli.main`
installs its handler) is answered the same way: one line and exit 130.
"""

import signal
import sys


def _early_interrupt(signum: int, frame: object) -> None:
    sys.stderr.write("error: interrupted\n")  # no command has started
    sys.stderr.flush()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    raise SystemExit(130)


signal.signal(signal.SIGINT, _early_interrupt)

from setlab.cli import main  # noqa: E402  (after the handler: the import can be interrupted)

sys.exit(main())
