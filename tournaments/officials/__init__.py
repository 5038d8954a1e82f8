"""The registry of arbiters and organisers (docs/arbiters.md, "Arbiters and organisers"):
models, services (registration, the officer's approval, matching a report's chief arbiter),
selectors, pages and API. A tournament names its chief arbiter and organiser from it; feda-1996
1.1's check (tournaments/checks/officials.py) reads the chief arbiter's title and category."""
