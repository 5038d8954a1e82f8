"""``python -m rating_engine PERIOD.json`` (or ``-`` for stdin): rate a period, print JSON.

Bad input exits 2 with exactly one line on stderr naming the field and the item.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import rate_period
from .errors import EngineInputError
from .jsonio import dumps_result, loads_period

USAGE = "usage: python -m rating_engine PERIOD.json  (or - for standard input)"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    path = args[0]
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as err:
        print(
            f"error: {path}: cannot read ({err.__class__.__name__}: {err})".splitlines()[0],
            file=sys.stderr,
        )
        return 2
    try:
        result = rate_period(loads_period(text))
    except EngineInputError as err:
        print(f"error: {err}".splitlines()[0], file=sys.stderr)
        return 2
    except Exception as err:
        print(f"internal error: {err.__class__.__name__}: {err}".splitlines()[0], file=sys.stderr)
        return 3
    sys.stdout.write(dumps_result(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
