#!/usr/bin/env python
"""Django's command-line utility for the rating office."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured

    try:
        from django.core.management import execute_from_command_line

        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A bad environment value must stop start-up with one clear line naming the
        # variable, not a traceback (config/env.py words the message).
        print(f"configuration error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
