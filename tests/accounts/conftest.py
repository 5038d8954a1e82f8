"""Fixtures of the accounts tests: the sign-up and claim limits out of the way (the tests sign
up many times from the test client's one address), but for the tests of the limits."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def generous_limits(settings):
    settings.ACCOUNTS_SIGNUPS_PER_HOUR = 10_000
    settings.ACCOUNTS_MAILS_PER_ADDRESS_PER_HOUR = 10_000
    settings.ACCOUNTS_CLAIM_FAILURES_PER_DAY = 10_000
    return settings
