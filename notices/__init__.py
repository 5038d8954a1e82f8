"""Notices: what the office tells a user, on his "my notices" page and by e-mail, each kind as
he chooses (docs/notices.md)."""
