"""The blocking client: Client, the Session it creates, and batches of task sessions."""

from __future__ import annotations

import os
import urllib.parse
from typing import Any, Iterable, Mapping, Optional, Sequence

from ._http import DEFAULT_TIMEOUT, DEFAULT_URL, Response, Transport
from .errors import ProblemError

__all__ = ["Client", "Session", "Batch", "IDEMPOTENCY_KEY"]

IDEMPOTENCY_KEY = "idempotency_key"
"""The argument a write takes to be replayed rather than applied twice (the server's, not a header)."""


def _q(segment: str) -> str:
    return urllib.parse.quote(segment, safe="")


def _session_path(session_id: str) -> str:
    return f"/sessions/{_q(session_id)}"


def _scoped(session: Optional[str], path: str) -> str:
    """A path inside a session (`/s/{id}/…`), or as it is for the server's `default` session."""
    return path if session is None else f"/s/{_q(session)}{path}"


def _tool_path(domain: Optional[str], tool: str) -> str:
    return f"/{_q(domain)}/tools/{_q(tool)}" if domain else f"/tools/{_q(tool)}"


def _answer_body(answer: Optional[Mapping[str, Any]], text: Optional[str]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if answer is not None:
        body["answer"] = dict(answer)
    if text is not None:
        body["text"] = text
    return body


class Client:
    """A client of a wildtools server (its HTTP API). Calls answer parsed JSON or raise ProblemError (the server
    refused: status, code, detail, field) or UnexpectedResponseError (any other answer, or a failed connection).

    base_url defaults to $WILDTOOLS_URL, else http://127.0.0.1:8080 (a path prefix is kept); token (the server's
    API_TOKEN) to $WILDTOOLS_TOKEN and admin_token (ADMIN_TOKEN, for admin routes) to $WILDTOOLS_ADMIN_TOKEN.
    Redirects are never followed: a 3xx is an UnexpectedResponseError carrying its Location."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        token: Optional[str] = None,
        admin_token: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self._transport = Transport(
            base_url or os.environ.get("WILDTOOLS_URL") or DEFAULT_URL,
            token if token is not None else os.environ.get("WILDTOOLS_TOKEN"),
            admin_token if admin_token is not None else os.environ.get("WILDTOOLS_ADMIN_TOKEN"),
            timeout,
        )

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def timeout(self) -> float:
        """Seconds to connect and between bytes received."""
        return self._transport.timeout

    def __repr__(self) -> str:
        return f"Client({self.base_url!r})"

    # --- the raw exchange ---

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
        admin: bool = False,
    ) -> Response:
        """Any route: the 2xx Response (status, headers, text, json()); errors raised as by every method."""
        options: dict[str, Any] = {"query": query, "headers": headers, "admin": admin}
        if body is not None:
            options["body"] = body
        return self._transport.request(method, path, **options)

    # --- tools ---

    def call(
        self,
        domain: Optional[str],
        tool: str,
        args: Optional[Mapping[str, Any]] = None,
        *,
        session: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """Calls a tool and returns its result: `call("retail", "get_order_details", {"order_id": "#W5124601"})`.
        domain None: the combined view's names (`GET /tools`). session: its id (the server's `default` when None).
        idempotency_key: sent as the write's `idempotency_key` argument, so a retry is replayed, not applied twice."""
        return self.call_response(domain, tool, args, session=session, idempotency_key=idempotency_key).json()

    def call_response(
        self,
        domain: Optional[str],
        tool: str,
        args: Optional[Mapping[str, Any]] = None,
        *,
        session: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Response:
        """As call, but the Response itself: its headers (api-version, Deprecation…) and text."""
        body = dict(args or {})
        if idempotency_key is not None:
            body[IDEMPOTENCY_KEY] = idempotency_key
        return self._transport.request("POST", _scoped(session, _tool_path(domain, tool)), body=body)

    def tools(
        self, format: str = "openai", domain: Optional[str] = None, *, strict: bool = False, session: Optional[str] = None
    ) -> Any:
        """A tool listing as the session sees it: `openai` (Chat Completions `tools=`), `openai-responses` (Responses
        API `tools=`), `anthropic` (Messages API `tools=`), `mcp` (a tools/list result) or `native`. domain None: every
        domain's tools under the combined names. strict: schemas for OpenAI's strict mode (the OpenAI formats)."""
        path = f"/{_q(domain)}/tools" if domain else "/tools"
        query = {"format": format, "strict": True if strict else None}
        return self._transport.json("GET", _scoped(session, path), query=query)

    def openapi(self, domain: Optional[str] = None, *, session: Optional[str] = None) -> dict[str, Any]:
        """A domain's OpenAPI document, or the combined one."""
        return self._transport.object("GET", _scoped(session, f"/{_q(domain)}/openapi.json" if domain else "/openapi.json"))

    def policy(self, domain: str, *, session: Optional[str] = None) -> str:
        """The rules an agent must follow in a domain, as markdown."""
        return self._transport.request("GET", _scoped(session, f"/{_q(domain)}/policy")).text

    def health(self) -> dict[str, Any]:
        return self._transport.object("GET", "/health")

    def domains(self) -> list[dict[str, Any]]:
        return self._transport.list("GET", "/domains")

    # --- sessions ---

    def create_session(
        self,
        task: Optional[str] = None,
        seed: Optional[int | str] = None,
        hazards: Optional[Mapping[str, Any]] = None,
        id: Optional[str] = None,
        **options: Any,
    ) -> Session:
        """Creates a session (`POST /sessions`): an isolated copy of every database with its own clock and journal.
        task: the task it runs (`retail/001`), with its instance for the seed and its targeted hazards; hazards: its
        own settings (`{"enable": ["failures"]}`); options: the route's others (`clock`, `kinds`, `hazard_rate`)."""
        body = {key: value for key, value in {"task": task, "seed": seed, "hazards": hazards, "id": id, **options}.items() if value is not None}
        # A named session is also named in X-Session-Id, so that a load balancer routes its creation where its calls go.
        headers = {"x-session-id": id} if id else None
        summary = self._transport.object("POST", "/sessions", body=body, headers=headers)
        return Session(self, summary["id"], summary)

    def session(self, id: str) -> Session:
        """A handle on an existing session (no request is sent)."""
        return Session(self, id)

    def sessions(self) -> list[dict[str, Any]]:
        """The live sessions' summaries."""
        return self._transport.list("GET", "/sessions")

    def session_info(self, id: str) -> dict[str, Any]:
        """One session's summary: its seed, clock, calls, journal size, hazard hits, task and answers."""
        return self._transport.object("GET", _session_path(id))

    def reset(self, id: str) -> dict[str, Any]:
        """Back to the start: original databases, empty journal, clock at its start (admin)."""
        return self._transport.object("POST", f"{_session_path(id)}/reset", admin=True)

    def delete(self, id: str) -> None:
        """Deletes the session; `default` is reset instead (admin)."""
        self._transport.request("DELETE", _session_path(id), admin=True)

    def journal(self, id: str, since: Optional[int] = None) -> list[dict[str, Any]]:
        """The session's calls (those after sequence number `since` when given)."""
        return self._transport.list("GET", f"{_session_path(id)}/journal", query={"since": since})

    def state(self, id: str) -> dict[str, Any]:
        """Every database as the session sees it: `{"retail": {...}, ...}`."""
        return self._transport.object("GET", f"{_session_path(id)}/state")

    def diff(self, id: str) -> dict[str, list[dict[str, Any]]]:
        """Per domain, the records the session changed, with their changed fields."""
        return self._transport.object("GET", f"{_session_path(id)}/diff")

    def answer(self, id: str, answer: Optional[Mapping[str, Any]] = None, text: Optional[str] = None) -> dict[str, Any]:
        """Records the final answer to the session task's current turn: the typed fields (as submit_answer takes
        them) and/or words. Returns where the task stands: turn, turns, next_request."""
        return self._transport.object("POST", f"{_session_path(id)}/answer", body=_answer_body(answer, text))

    def score(self, id: str) -> dict[str, Any]:
        """The session's task scored from its journal, databases and answers (deterministic)."""
        return self._transport.object("GET", f"{_session_path(id)}/score")

    # --- tasks, re-scoring, batches ---

    def tasks(self, domain: Optional[str] = None, category: Optional[str] = None, kind: Optional[str] = None) -> list[dict[str, Any]]:
        """The tasks (never their expected outcome), filtered by domain, category or targeted hazard kind."""
        return self._transport.list("GET", "/tasks", query={"domain": domain, "category": category, "kind": kind})

    def task(self, id: str, seed: int = 0) -> dict[str, Any]:
        """A task's instance for a seed as an agent may see it: request, answer schemas, tools, policy, given."""
        return self._transport.object("GET", "/tasks/" + "/".join(_q(part) for part in id.split("/")), query={"seed": seed})

    def rescore(
        self, task: str, seed: int, journal: Sequence[Mapping[str, Any]], answers: Iterable[Mapping[str, Any]] = ()
    ) -> dict[str, Any]:
        """Re-scores a stored run (`POST /score`) with the server's task and scorer of today."""
        body = {"task": task, "seed": seed, "journal": list(journal), "answers": list(answers)}
        return self._transport.object("POST", "/score", body=body)

    def create_batch(self, task: str, n: int, seeds: Optional[Sequence[int]] = None, id: Optional[str] = None, **options: Any) -> Batch:
        """N sessions of one task with distinct seeds (1 … N by default); options: hazards, clock, kinds, hazard_rate."""
        body = {key: value for key, value in {"task": task, "n": n, "seeds": seeds, "id": id, **options}.items() if value is not None}
        if seeds is not None:
            body["seeds"] = list(seeds)
        return Batch(self, self._transport.object("POST", "/batches", body=body))

    def batch(self, id: str) -> Batch:
        """A batch's sessions with their verdicts, and pass^k over the scored ones."""
        return Batch(self, self._batch_report(id))

    def _batch_report(self, id: str) -> dict[str, Any]:
        return self._transport.object("GET", f"/batches/{_q(id)}")

    # --- hazards ---

    def hazards(self, session: Optional[str] = None, active: Optional[bool] = None) -> dict[str, Any]:
        """The hazard catalog and the effective matrix for a session (`active`: only cells above 0)."""
        query = {"session": session, "active": None if active is None else ("1" if active else "0")}
        return self._transport.object("GET", "/hazards", query=query)

    def set_hazards(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        """Replaces the runtime hazard settings (admin): `{"enable": [...], "kinds": {...}, "tools": {...}, ...}`."""
        return self._transport.object("PUT", "/admin/hazards", body=dict(spec), admin=True)

    def clear_hazards(self) -> dict[str, Any]:
        """Drops the runtime hazard settings (admin)."""
        return self._transport.object("DELETE", "/admin/hazards", admin=True)


class Session:
    """One session of a server, bound to its id. As a context manager, it deletes itself on exit."""

    def __init__(self, client: Client, id: str, summary: Optional[Mapping[str, Any]] = None) -> None:
        self.client = client
        self.id = id
        self.summary: Optional[dict[str, Any]] = dict(summary) if summary is not None else None
        """The summary the server answered when it created the session (None for a handle from Client.session)."""

    def __repr__(self) -> str:
        return f"Session({self.id!r})"

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.delete()
        except ProblemError as error:
            if error.status != 404:  # already gone: nothing to clean
                raise

    def call(
        self, domain: Optional[str], tool: str, args: Optional[Mapping[str, Any]] = None, *, idempotency_key: Optional[str] = None
    ) -> Any:
        """Calls a tool in this session and returns its result (see Client.call)."""
        return self.client.call(domain, tool, args, session=self.id, idempotency_key=idempotency_key)

    def call_response(
        self, domain: Optional[str], tool: str, args: Optional[Mapping[str, Any]] = None, *, idempotency_key: Optional[str] = None
    ) -> Response:
        """As call, but the Response itself (status, headers, text)."""
        return self.client.call_response(domain, tool, args, session=self.id, idempotency_key=idempotency_key)

    def tools(self, format: str = "openai", domain: Optional[str] = None, *, strict: bool = False) -> Any:
        """The tools as this session sees them, ready for an SDK's `tools=` (see Client.tools)."""
        return self.client.tools(format, domain, strict=strict, session=self.id)

    def openapi(self, domain: Optional[str] = None) -> dict[str, Any]:
        return self.client.openapi(domain, session=self.id)

    def policy(self, domain: str) -> str:
        return self.client.policy(domain, session=self.id)

    def info(self) -> dict[str, Any]:
        """The session's summary as it stands."""
        return self.client.session_info(self.id)

    def journal(self, since: Optional[int] = None) -> list[dict[str, Any]]:
        return self.client.journal(self.id, since)

    def state(self) -> dict[str, Any]:
        return self.client.state(self.id)

    def diff(self) -> dict[str, list[dict[str, Any]]]:
        return self.client.diff(self.id)

    def answer(self, answer: Optional[Mapping[str, Any]] = None, text: Optional[str] = None) -> dict[str, Any]:
        """Records the final answer to the current turn of the session's task."""
        return self.client.answer(self.id, answer, text)

    def score(self) -> dict[str, Any]:
        return self.client.score(self.id)

    def hazards(self, active: Optional[bool] = None) -> dict[str, Any]:
        """The hazard matrix as this session sees it."""
        return self.client.hazards(self.id, active)

    def reset(self) -> dict[str, Any]:
        return self.client.reset(self.id)

    def delete(self) -> None:
        self.client.delete(self.id)


class Batch:
    """A batch of task sessions (`POST /batches`) as last reported."""

    def __init__(self, client: Client, report: Mapping[str, Any]) -> None:
        self.client = client
        self.report: dict[str, Any] = dict(report)

    def __repr__(self) -> str:
        return f"Batch({self.id!r}, task={self.task!r}, scored={self.scored}/{len(self.report['sessions'])})"

    @property
    def id(self) -> str:
        return str(self.report["id"])

    @property
    def task(self) -> str:
        return str(self.report["task"])

    @property
    def sessions(self) -> list[Session]:
        """Its sessions (`<batch>.1` … `<batch>.N`), one per seed: `session.summary` is None, `seed` is in the report."""
        return [Session(self.client, row["id"]) for row in self.report["sessions"]]

    @property
    def seeds(self) -> list[int]:
        return [row["seed"] for row in self.report["sessions"]]

    @property
    def scored(self) -> int:
        return int(self.report["scored"])

    @property
    def successes(self) -> int:
        return int(self.report["successes"])

    @property
    def pass_hat_k(self) -> dict[int, float]:
        """pass^k over the scored sessions as the server reports it: {k: the chance k drawn at random all succeed}."""
        return {row["k"]: row["pass"] for row in self.report["pass_hat_k"]}

    def refresh(self) -> Batch:
        """Fetches the report again (`GET /batches/{id}`); returns self."""
        self.report = self.client._batch_report(self.id)
        return self

