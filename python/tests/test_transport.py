"""The HTTP layer against a stub server: answers a wildtools server does not give on demand (redirects, cut bodies,
timeouts, look-alike problems), tokens, base URLs and environment defaults."""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from unittest import mock

from wildtools import AsyncClient, Client, ProblemError, Response, UnexpectedResponseError


class Stub(BaseHTTPRequestHandler):
    """Answers by path; /echo… answers what it received."""

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.answer()

    def do_POST(self) -> None:
        self.answer()

    def do_DELETE(self) -> None:
        self.answer()

    def send(self, status: int, body: str, content_type: str = "application/json", headers: Any = ()) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def answer(self) -> None:
        path = "/" + self.path.split("?")[0].split("/")[1]  # the stub's behaviour is the first segment
        if path == "/redirect":
            return self.send(302, "", "text/plain", [("location", "http://elsewhere.invalid/health")])
        if path == "/array":
            return self.send(200, "[1]")
        if path == "/html":
            return self.send(200, "<p>hello</p>", "text/html")
        if path == "/cut":
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", "100")
            self.end_headers()
            self.wfile.write(b'{"status": "o')
            self.wfile.flush()
            self.close_connection = True
            return None
        if path == "/slow":
            time.sleep(1.0)
            return self.send(200, "{}")
        if path == "/lookalike":  # problem members, but a status other than the answer's
            return self.send(500, json.dumps({"type": "about:blank", "title": "Oops", "status": 400, "detail": "no"}))
        if path == "/conflict":
            problem = {"type": "/problems/x", "title": "Conflict", "status": 409, "detail": "busy", "field": "id"}
            return self.send(409, json.dumps(problem), "application/problem+json", [("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")])
        length = int(self.headers.get("content-length") or 0)
        received = {
            "method": self.command,
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": json.loads(self.rfile.read(length)) if length else None,
        }
        return self.send(200, json.dumps(received))


class TransportTest(unittest.TestCase):
    server: ThreadingHTTPServer
    url: str

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), Stub)
        cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}"
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.shutdown()
        cls.server.server_close()

    def stub(self, prefix: str = "", **options: Any) -> Client:
        return Client(f"{self.url}{prefix}", **options)

    def test_a_redirect_is_not_followed(self) -> None:
        with self.assertRaises(UnexpectedResponseError) as caught:
            self.stub("/redirect").health()
        error = caught.exception
        self.assertEqual((error.kind, error.status, error.headers["location"]), ("foreign", 302, "http://elsewhere.invalid/health"))
        self.assertIn("a redirect to http://elsewhere.invalid/health, not followed", str(error))

    def test_a_success_that_is_not_json(self) -> None:
        with self.assertRaises(UnexpectedResponseError) as caught:
            self.stub("/html").health()
        self.assertEqual((caught.exception.status, caught.exception.body, caught.exception.content_type), (200, "<p>hello</p>", "text/html"))
        self.assertIn("answered 200 text/html, a body that is not JSON", str(caught.exception))

    def test_json_of_another_shape(self) -> None:
        with self.assertRaises(UnexpectedResponseError) as caught:
            self.stub("/array").health()
        self.assertIn("answered 200 application/json, a JSON object expected: \"[1]\"", str(caught.exception))
        with self.assertRaises(UnexpectedResponseError) as caught:
            self.stub("/echo").domains()
        self.assertIn("a JSON array expected", str(caught.exception))

    def test_a_truncated_body(self) -> None:
        with self.assertRaises(UnexpectedResponseError) as caught:
            self.stub("/cut").health()
        error = caught.exception
        self.assertEqual((error.kind, error.status), ("connection", 200))
        self.assertIn("after the head of a 200 answer (a truncated body)", str(error))
        self.assertIn("IncompleteRead", error.cause or "")

    def test_a_timeout(self) -> None:
        client = self.stub("/slow", timeout=0.2)
        self.assertEqual(client.timeout, 0.2)
        with self.assertRaises(UnexpectedResponseError) as caught:
            client.health()
        self.assertEqual(caught.exception.kind, "connection")
        self.assertIn("timed out", str(caught.exception))

    def test_only_problem_json_is_a_problem(self) -> None:
        with self.assertRaises(UnexpectedResponseError) as caught:
            self.stub("/lookalike").health()
        self.assertIn("something other than problem JSON", str(caught.exception))
        with self.assertRaises(ProblemError) as problem:
            self.stub("/conflict").health()
        self.assertEqual((problem.exception.field, problem.exception.code), ("id", None))
        self.assertIn("answered 409 Conflict: busy", str(problem.exception))
        self.assertIsNone(problem.exception.retry_after, "an HTTP date is left to the caller")

    def test_a_session_that_cannot_be_deleted_says_so_on_exit(self) -> None:
        with self.assertRaises(ProblemError) as caught:
            with self.stub("/conflict").session("s"):
                pass
        self.assertEqual(caught.exception.request, "DELETE /sessions/s")

        async def leave() -> None:
            async with AsyncClient(f"{self.url}/conflict").session("s"):
                pass

        with self.assertRaises(ProblemError):
            asyncio.run(leave())

    def test_errors_cross_processes(self) -> None:
        problem = {"type": "/problems/x", "title": "Conflict", "status": 409, "detail": "busy", "code": "busy"}
        for error in (
            ProblemError("GET /x", problem, {"retry-after": "2"}),
            UnexpectedResponseError("GET /x", "foreign", status=502, headers={"content-type": "text/html"}, body="<h1>", cause=None),
            UnexpectedResponseError("GET /x", "connection", cause="ConnectionResetError"),
        ):
            copy = pickle.loads(pickle.dumps(error))
            self.assertIs(type(copy), type(error))
            self.assertEqual((str(copy), vars(copy)), (str(error), vars(error)))

    def test_long_bodies_are_shortened_in_the_message(self) -> None:
        error = UnexpectedResponseError("GET /x", "foreign", status=500, body="x" * 300)
        self.assertIn("… (300 characters)", str(error))
        self.assertIn("without a content type", str(error))

    def test_tokens(self) -> None:
        both = self.stub("/echo", token="api", admin_token="admin")
        self.assertEqual(both.health()["headers"]["authorization"], "Bearer api")
        self.assertEqual(both.reset("s")["headers"]["authorization"], "Bearer admin")
        admin_only = self.stub("/echo", token="", admin_token="admin")
        self.assertEqual(admin_only.health()["headers"]["authorization"], "Bearer admin")
        api_only = self.stub("/echo", token="api", admin_token="")
        self.assertEqual(api_only.reset("s")["headers"]["authorization"], "Bearer api")
        self.assertNotIn("authorization", self.stub("/echo", token="", admin_token="").health()["headers"])

    def test_environment_defaults(self) -> None:
        environment = {"WILDTOOLS_URL": f"{self.url}/echo", "WILDTOOLS_TOKEN": "from-env", "WILDTOOLS_ADMIN_TOKEN": "admin-env"}
        with mock.patch.dict(os.environ, environment):
            client = Client()
        self.assertEqual(client.base_url, f"{self.url}/echo")
        self.assertEqual(repr(client), f"Client('{self.url}/echo')")
        self.assertEqual(client.health()["headers"]["authorization"], "Bearer from-env")
        client.delete("x")
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertEqual(Client().base_url, "http://127.0.0.1:8080")

    def test_request_details(self) -> None:
        client = self.stub("/echo/")
        seen = client.health()
        self.assertEqual((seen["method"], seen["path"]), ("GET", "/echo/health"))
        self.assertTrue(seen["headers"]["user-agent"].startswith("wildtools-python/"))
        self.assertNotIn("content-type", seen["headers"])
        called = client.call("retail", "get order", {"a": 1}, session="a b/c", idempotency_key="k1")
        self.assertEqual(called["path"], "/echo/s/a%20b%2Fc/retail/tools/get%20order")
        self.assertEqual(called["body"], {"a": 1, "idempotency_key": "k1"})
        self.assertEqual(called["headers"]["content-type"], "application/json")
        self.assertEqual(client.call("../admin", "x")["path"], "/echo/..%2Fadmin/tools/x")
        listing = client.tools("openai", "retail", strict=True, session="s1")
        self.assertEqual(listing["path"], "/echo/s/s1/retail/tools?format=openai&strict=true")
        self.assertEqual(client.hazards("s", active=False)["path"], "/echo/hazards?session=s&active=0")
        self.assertEqual(client.task("tau2/x y", 3)["path"], "/echo/tasks/tau2/x%20y?seed=3")
        self.assertEqual(client.request("GET", "/x", query={"since": 0, "flag": True, "no": None}).json()["path"], "/echo/x?since=0&flag=true")
        created = client.request("POST", "/sessions", body={"id": "n"}, headers={"x-session-id": "n"})
        self.assertEqual(created.json()["headers"]["x-session-id"], "n")
        self.assertEqual(client.session("s").answer(text="words")["body"], {"text": "words"})
        self.assertEqual(client.rescore("retail/001", 1, ())["body"], {"task": "retail/001", "seed": 1, "journal": [], "answers": []})

    def test_create_session_names_the_session_in_its_header(self) -> None:
        client = self.stub("/echo")
        with mock.patch.object(client._transport, "object", return_value={"id": "n"}) as sent:
            session = client.create_session(seed=0, id="n", clock={"step_ms": 5}, kinds=None)
        self.assertEqual((session.id, session.summary), ("n", {"id": "n"}))
        body = {"seed": 0, "id": "n", "clock": {"step_ms": 5}}
        self.assertEqual(sent.call_args, mock.call("POST", "/sessions", body=body, headers={"x-session-id": "n"}))

    def test_bad_base_urls_and_bodies(self) -> None:
        with self.assertRaises(ValueError):
            Client("ftp://127.0.0.1")
        with self.assertRaises(ValueError):
            Client("http://")
        with self.assertRaises(ValueError):
            self.stub("/echo").call("retail", "x", {"n": float("nan")})

    def test_https(self) -> None:
        with self.assertRaises(UnexpectedResponseError) as caught:
            Client(self.url.replace("http:", "https:"), timeout=5).health()  # a TLS hello to a plain HTTP server
        self.assertEqual(caught.exception.kind, "connection")

    def test_response(self) -> None:
        response = Response(204, {}, "", "DELETE /x")
        self.assertIsNone(response.json())
        self.assertEqual(response.content_type, "")
        with self.assertRaises(UnexpectedResponseError):
            Response(200, {"content-type": "text/plain"}, "hi", "GET /x").json()


if __name__ == "__main__":
    unittest.main()
