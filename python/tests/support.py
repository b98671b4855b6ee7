"""What the tests share: the server under test ($WILDTOOLS_URL, required) and records of its default data."""

from __future__ import annotations

import itertools
import os
import unittest
import uuid

from wildtools import Client

URL = os.environ.get("WILDTOOLS_URL", "")
if not URL:
    raise RuntimeError("WILDTOOLS_URL is not set: the tests need a running wildtools server (PORT=8080 npx tsx server/main.ts)")
ADMIN_TOKEN = os.environ.get("WILDTOOLS_ADMIN_TOKEN")

# A pending order of the default data and its customer, as the README's examples use them.
EMAIL = "malik.okonkwo3001@example.com"
USER = "malik_okonkwo_2039"
ORDER = "#W5124601"

_RUN = uuid.uuid4().hex[:8]
_counter = itertools.count(1)


def unique(prefix: str) -> str:
    """An id no other test (nor another run against the same server) uses."""
    return f"py-{prefix}-{_RUN}-{next(_counter)}"


def changed(diff: dict) -> list:
    """Every change of a session's diff, all domains together."""
    return [(domain, change["table"], change["id"], change["op"]) for domain, changes in diff.items() for change in changes]


def client(**options: object) -> Client:
    return Client(URL, admin_token=ADMIN_TOKEN, **options)  # type: ignore[arg-type]


class ServerTest(unittest.TestCase):
    """A test against the server; sessions it opens with `self.open(...)` are deleted when it ends."""

    def setUp(self) -> None:
        self.client = client()

    def open(self, **options: object):
        session = self.client.create_session(id=unique(self.id().rsplit(".", 1)[-1][:20]), **options)  # type: ignore[arg-type]
        self.addCleanup(session.__exit__, None, None, None)
        return session
