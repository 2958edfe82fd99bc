"""``python -m setlab``: the same as the ``setlab`` command."""

import sys

from setlab.cli import main

sys.exit(main())
