"""``python -m tdsystem.engine``: see tdsystem.engine.cli."""

import sys

from tdsystem.engine.cli import main

sys.exit(main())
