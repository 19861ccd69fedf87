"""``python -m swizzlekit.cli``: the same as the ``swizzlekit`` command."""

import sys

from swizzlekit.cli import main

sys.exit(main())
