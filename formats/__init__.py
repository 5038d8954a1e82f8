"""Report and list formats: pure Python (no Django, no app import), ``mypy --strict``.

- ``formats.reports``: the arbiters' reports (FIDE TRF16/TRF26, the FEDA ASCII file, CSV
  crosstables): decode, sniff, parse into records, render back to TRF.
- ``formats.lists``: rating lists (FIDE TXT/XML/CSV, the office's own CSV/TXT/XML/JSON):
  read, validate, render.
- ``formats.problems``: ``Problem``, a finding with its line (and column), shared by both;
  ``formats.numbers``: reading numbers within the database columns' limits.

Any layer of the project may import this package; it imports none of them
(``[tool.importlinter]`` in pyproject.toml). Layouts: ../shared/FORMATS.md, docs/reports.md
and docs/lists.md.
"""
