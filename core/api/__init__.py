"""What every app's API shares: token authentication, the rules' permission class, pagination
with a hard cap, the one error shape and the schema's error responses (docs/api.md)."""
