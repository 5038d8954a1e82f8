"""The engine's version, named by every stored result beside its ruleset id (like a password
hasher's algorithm name): a result can always be traced to the code that made it."""

from __future__ import annotations

ENGINE_VERSION = "1.0.0"
