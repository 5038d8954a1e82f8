"""core has no tables; this module makes it a models app so that its post_migrate hook (the
roles' permissions, core.apps) runs, after every other app's (core is last in
INSTALLED_APPS). The abstract job model lives in core.jobs."""
