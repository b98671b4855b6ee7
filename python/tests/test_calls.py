"""Tool calls: results, the raw answer, idempotency keys, and both error classes against real refusals and hazards."""

from __future__ import annotations

import unittest

from wildtools import Client, ProblemError, UnexpectedResponseError, WildtoolsError

from .support import EMAIL, ORDER, USER, ServerTest, changed, unique

CANCEL = {"order_id": ORDER, "reason": "no longer needed"}


def on(tool: str, kind: str) -> dict:
    return {"tools": {tool: {kind: "on"}}}


class CallTest(ServerTest):
    def test_call_returns_the_parsed_result(self) -> None:
        session = self.open()
        self.assertEqual(session.call("retail", "find_user_id_by_email", {"email": EMAIL}), USER)
        order = session.call("retail", "get_order_details", {"order_id": ORDER})
        self.assertEqual((order["order_id"], order["user_id"]), (ORDER, USER))
        self.assertEqual(self.client.call("retail", "get_order_details", {"order_id": ORDER}, session=session.id)["status"], "pending")
        self.assertEqual(len(session.journal()), 3, "the client's call with the session's id ran in the session")

    def test_default_session_and_combined_view(self) -> None:
        self.assertEqual(self.client.call("retail", "find_user_id_by_email", {"email": EMAIL}), USER)
        session = self.open()
        self.assertEqual(session.call(None, "find_user_id_by_email", {"email": EMAIL}), USER)
        user = session.call(None, "retail__get_user_details", {"user_id": USER})
        self.assertEqual(user["user_id"], USER)
        self.assertEqual([e["tool"] for e in session.journal()], ["find_user_id_by_email", "get_user_details"])

    def test_call_response_keeps_status_and_headers(self) -> None:
        session = self.open()
        response = session.call_response("retail", "get_order_details", {"order_id": ORDER})
        self.assertEqual(response.status, 200)
        self.assertTrue(response.content_type.startswith("application/json"))
        self.assertIn("api-version", response.headers)
        self.assertEqual(response.json()["order_id"], ORDER)
        self.assertEqual(response.request, f"POST /s/{session.id}/retail/tools/get_order_details")
        raw = self.client.call_response("retail", "find_user_id_by_email", {"email": EMAIL}, session=session.id)
        self.assertEqual(raw.text, f'"{USER}"')

    def test_an_idempotency_key_replays_a_write(self) -> None:
        session = self.open()
        key = unique("key")
        first = session.call("retail", "cancel_pending_order", CANCEL, idempotency_key=key)
        again = session.call("retail", "cancel_pending_order", CANCEL, idempotency_key=key)
        self.assertEqual(again, first)
        journal = session.journal()
        self.assertEqual(journal[0]["args"]["idempotency_key"], key)
        self.assertEqual(journal[1]["idempotency"], {"key": key, "replayed": 1})
        self.assertEqual(len(session.diff()["retail"]), 1)
        with self.assertRaises(ProblemError) as caught:
            self.client.call("retail", "cancel_pending_order", {**CANCEL, "reason": "ordered by mistake"}, session=session.id, idempotency_key=key)
        self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.field), (422, "idempotency_key_reused", "idempotency_key"))

    def test_a_validation_refusal_is_a_problem_error_naming_the_field(self) -> None:
        session = self.open()
        with self.assertRaises(ProblemError) as caught:
            session.call("retail", "get_order_details", {"order_id": 5})
        error = caught.exception
        self.assertIsInstance(error, WildtoolsError)
        self.assertEqual((error.status, error.code, error.field, error.title), (400, "invalid_input", "order_id", "Bad Request"))
        self.assertEqual(error.type, "/problems/invalid-input")
        self.assertIn("order_id", error.detail)
        self.assertEqual(error.problem["errors"][0]["field"], "order_id")
        self.assertTrue(error.headers["content-type"].startswith("application/problem+json"))
        self.assertEqual(error.request, f"POST /s/{session.id}/retail/tools/get_order_details")
        self.assertEqual(str(error), f"{error.request} answered 400 invalid_input: {error.detail}")
        self.assertIsNone(error.retry_after)

    def test_a_broken_rule_is_a_problem_error_and_changes_nothing(self) -> None:
        session = self.open()
        with self.assertRaises(ProblemError) as caught:
            session.call("retail", "cancel_pending_order", {"order_id": ORDER, "reason": "too slow"})
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "invalid_reason"))
        self.assertEqual(changed(session.diff()), [])

    def test_an_outage_answers_in_the_api_voice(self) -> None:
        session = self.open(seed=1, hazards=on("track_order", "outage"))
        with self.assertRaises(ProblemError) as caught:
            session.call("retail", "track_order", {"order_id": ORDER})
        self.assertEqual(caught.exception.status, 503)

    def test_a_broken_connection_is_an_unexpected_response(self) -> None:
        # transport_fault on a read, seed 3: the first call's connection closes with no answer, the second gets a
        # 200 whose JSON is broken, and the third gets through (at most two retryable faults in a row).
        session = self.open(seed=3, hazards=on("get_order_details", "transport_fault"))
        with self.assertRaises(UnexpectedResponseError) as caught:
            session.call("retail", "get_order_details", {"order_id": ORDER})
        error = caught.exception
        self.assertEqual((error.kind, error.status, error.body, error.headers), ("connection", None, "", {}))
        self.assertIn("the connection failed before any answer", str(error))
        self.assertIsNotNone(error.cause)
        with self.assertRaises(UnexpectedResponseError) as caught:
            session.call("retail", "get_order_details", {"order_id": ORDER})
        error = caught.exception
        self.assertEqual((error.kind, error.status), ("foreign", 200))
        self.assertIn("a body that is not JSON", str(error))
        self.assertTrue(error.body.startswith('{"order_id":"#W5124601"'))
        self.assertEqual(session.call("retail", "get_order_details", {"order_id": ORDER})["order_id"], ORDER)
        self.assertEqual([h["mode"] for e in session.journal() for h in e["hazards"]], ["empty", "malformed"])

    def test_a_gateway_page_is_an_unexpected_response(self) -> None:
        session = self.open(seed=1, hazards=on("get_order_details", "transient_failure"))  # seed 1: nginx's HTML 502
        with self.assertRaises(UnexpectedResponseError) as caught:
            session.call("retail", "get_order_details", {"order_id": ORDER})
        error = caught.exception
        self.assertEqual((error.kind, error.status, error.content_type), ("foreign", 502, "text/html"))
        self.assertIn("<h1>502 Bad Gateway</h1>", error.body)
        self.assertIn("answered 502 text/html, something other than problem JSON", str(error))

    def test_a_rate_limit_keeps_retry_after_reachable(self) -> None:
        session = self.open(seed=2, hazards=on("get_order_details", "transient_failure"))  # seed 2: a JSON 429
        with self.assertRaises(UnexpectedResponseError) as caught:
            session.call("retail", "get_order_details", {"order_id": ORDER})
        error = caught.exception
        self.assertEqual(error.status, 429)
        self.assertIn("rate_limit_error", error.body)
        self.assertEqual(error.retry_after, float(error.headers["retry-after"]))
        assert error.retry_after is not None
        self.assertGreaterEqual(error.retry_after, 1)

    def test_no_server_is_an_unexpected_response(self) -> None:
        client = Client("http://127.0.0.1:9", timeout=5)  # the discard port: nothing listens
        with self.assertRaises(UnexpectedResponseError) as caught:
            client.health()
        self.assertEqual((caught.exception.kind, caught.exception.status), ("connection", None))
        self.assertEqual(caught.exception.request, "GET /health")


if __name__ == "__main__":
    unittest.main()
