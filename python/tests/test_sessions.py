"""Sessions: creation, handles, isolation, journal, state, diff, reset, delete, context manager."""

from __future__ import annotations

import unittest

from wildtools import ProblemError, Session

from .support import EMAIL, ORDER, USER, ServerTest, changed, unique


def cancel(session: Session, reason: str = "no longer needed") -> object:
    return session.call("retail", "cancel_pending_order", {"order_id": ORDER, "reason": reason})


class SessionTest(ServerTest):
    def test_create_session_returns_a_session_bound_to_its_id(self) -> None:
        session = self.open(seed=42, clock={"start": "2024-01-15T12:00:00Z", "step_ms": 2000})
        self.assertIsInstance(session, Session)
        assert session.summary is not None
        self.assertEqual(session.summary["id"], session.id)
        self.assertEqual(session.summary["seed"], 42)
        self.assertEqual(session.summary["clock"]["step_ms"], 2000)
        self.assertEqual(session.info()["calls"], 0)
        self.assertEqual(repr(session), f"Session({session.id!r})")

    def test_a_server_named_session(self) -> None:
        session = self.client.create_session()
        self.addCleanup(session.delete)
        self.assertTrue(session.id)
        self.assertIn(session.id, [summary["id"] for summary in self.client.sessions()])

    def test_a_handle_sends_nothing_and_reads_what_exists(self) -> None:
        created = self.open()
        handle = self.client.session(created.id)
        self.assertIsNone(handle.summary)
        self.assertEqual(handle.info()["id"], created.id)
        self.assertEqual(self.client.session_info(created.id)["id"], created.id)
        missing = self.client.session(unique("missing"))
        with self.assertRaises(ProblemError) as caught:
            missing.info()
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "session_not_found"))

    def test_sessions_are_isolated(self) -> None:
        first, second = self.open(), self.open()
        self.assertEqual(cancel(first)["status"], "cancelled")  # type: ignore[index]
        self.assertEqual(second.call("retail", "get_order_details", {"order_id": ORDER})["status"], "pending")
        self.assertEqual([(c["id"], c["op"]) for c in first.diff()["retail"]], [(ORDER, "update")])
        self.assertEqual(changed(second.diff()), [])
        self.assertEqual(first.state()["retail"]["orders"][ORDER]["status"], "cancelled")
        self.assertEqual(second.state()["retail"]["orders"][ORDER]["status"], "pending")
        self.assertEqual(self.client.state(first.id)["retail"]["orders"][ORDER]["status"], "cancelled")
        self.assertEqual(self.client.diff(first.id), first.diff())

    def test_journal_and_since(self) -> None:
        session = self.open()
        self.assertEqual(session.call("retail", "find_user_id_by_email", {"email": EMAIL}), USER)
        cancel(session)
        journal = session.journal()
        self.assertEqual([(e["seq"], e["tool"], e["status"]) for e in journal], [(1, "find_user_id_by_email", 200), (2, "cancel_pending_order", 200)])
        self.assertEqual([e["seq"] for e in session.journal(since=1)], [2])
        self.assertEqual(self.client.journal(session.id, 2), [])

    def test_reset_goes_back_to_the_start(self) -> None:
        session = self.open()
        cancel(session)
        summary = session.reset()
        self.assertEqual(summary["calls"], 0)
        self.assertEqual(changed(session.diff()), [])
        self.assertEqual(session.journal(), [])
        cancel(session)
        self.assertEqual(self.client.reset(session.id)["journal"]["entries"], 0)

    def test_delete(self) -> None:
        session = self.client.create_session(id=unique("delete"))
        session.delete()
        with self.assertRaises(ProblemError) as caught:
            session.info()
        self.assertEqual(caught.exception.status, 404)
        other = self.client.create_session(id=unique("delete"))
        self.client.delete(other.id)
        self.assertNotIn(other.id, [summary["id"] for summary in self.client.sessions()])

    def test_a_session_deletes_itself_on_exit(self) -> None:
        with self.client.create_session(id=unique("with")) as session:
            cancel(session)
        with self.assertRaises(ProblemError):
            session.info()
        with self.assertRaises(KeyError):
            with self.client.create_session(id=unique("with")) as failing:
                raise KeyError("inside")
        with self.assertRaises(ProblemError):
            failing.info()
        with self.client.create_session(id=unique("with")) as deleted:
            deleted.delete()  # already gone on exit: nothing to clean, no error

    def test_a_refused_creation_names_the_field(self) -> None:
        with self.assertRaises(ProblemError) as caught:
            self.client.create_session(kinds=["outage"])
        self.assertEqual((caught.exception.status, caught.exception.field), (400, "kinds"))
        with self.assertRaises(ProblemError) as caught:
            self.client.create_session(task="retail/001", seed=-1)
        self.assertEqual(caught.exception.field, "seed")


if __name__ == "__main__":
    unittest.main()
