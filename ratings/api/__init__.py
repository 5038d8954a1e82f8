"""The ratings app's API (docs/api.md): players' ratings and history, published lists and
their entries, the officers' period actions and desk, protests, a rated tournament's changes,
the calculator. Routed in config/api_urls.py."""
