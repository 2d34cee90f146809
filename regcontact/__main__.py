"""``python -m regcontact``: the ``regcontact`` command."""

import sys

from regcontact.cli import main

sys.exit(main())
