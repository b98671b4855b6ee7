"""The asyncio client: the blocking client's methods as coroutines, each run in a worker thread (asyncio.to_thread).

Threads rather than asyncio streams: the same transport, error classes and behaviour as the blocking client,
with no second HTTP/1.1 implementation (chunked bodies, TLS, timeouts) to keep right. Concurrency is bounded
by the event loop's default executor (min(32, CPUs + 4) calls in flight); set another with
loop.set_default_executor for more."""

from __future__ import annotations

import asyncio
from typing import Any, Iterable, Mapping, Optional, Sequence

from ._http import DEFAULT_TIMEOUT, Response
from .client import Batch, Client, Session
from .errors import ProblemError

__all__ = ["AsyncClient", "AsyncSession", "AsyncBatch"]

_run = asyncio.to_thread


class AsyncClient:
    """Client's methods as coroutines (same arguments, same answers, same errors)."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        token: Optional[str] = None,
        admin_token: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.sync = Client(base_url, token, admin_token, timeout)
        """The blocking client underneath."""

    @property
    def base_url(self) -> str:
        return self.sync.base_url

    @property
    def timeout(self) -> float:
        return self.sync.timeout

    def __repr__(self) -> str:
        return f"AsyncClient({self.base_url!r})"

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
        admin: bool = False,
    ) -> Response:
        return await _run(self.sync.request, method, path, query=query, body=body, headers=headers, admin=admin)

    async def call(
        self,
        domain: Optional[str],
        tool: str,
        args: Optional[Mapping[str, Any]] = None,
        *,
        session: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        return await _run(self.sync.call, domain, tool, args, session=session, idempotency_key=idempotency_key)

    async def call_response(
        self,
        domain: Optional[str],
        tool: str,
        args: Optional[Mapping[str, Any]] = None,
        *,
        session: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Response:
        return await _run(self.sync.call_response, domain, tool, args, session=session, idempotency_key=idempotency_key)

    async def tools(
        self, format: str = "openai", domain: Optional[str] = None, *, strict: bool = False, session: Optional[str] = None
    ) -> Any:
        return await _run(self.sync.tools, format, domain, strict=strict, session=session)

    async def openapi(self, domain: Optional[str] = None, *, session: Optional[str] = None) -> dict[str, Any]:
        return await _run(self.sync.openapi, domain, session=session)

    async def policy(self, domain: str, *, session: Optional[str] = None) -> str:
        return await _run(self.sync.policy, domain, session=session)

    async def health(self) -> dict[str, Any]:
        return await _run(self.sync.health)

    async def domains(self) -> list[dict[str, Any]]:
        return await _run(self.sync.domains)

    async def create_session(
        self,
        task: Optional[str] = None,
        seed: Optional[int | str] = None,
        hazards: Optional[Mapping[str, Any]] = None,
        id: Optional[str] = None,
        **options: Any,
    ) -> AsyncSession:
        created = await _run(self.sync.create_session, task, seed, hazards, id, **options)
        return AsyncSession(self, created.id, created.summary)

    def session(self, id: str) -> AsyncSession:
        """A handle on an existing session (no request is sent)."""
        return AsyncSession(self, id)

    async def sessions(self) -> list[dict[str, Any]]:
        return await _run(self.sync.sessions)

    async def session_info(self, id: str) -> dict[str, Any]:
        return await _run(self.sync.session_info, id)

    async def reset(self, id: str) -> dict[str, Any]:
        return await _run(self.sync.reset, id)

    async def delete(self, id: str) -> None:
        await _run(self.sync.delete, id)

    async def journal(self, id: str, since: Optional[int] = None) -> list[dict[str, Any]]:
        return await _run(self.sync.journal, id, since)

    async def state(self, id: str) -> dict[str, Any]:
        return await _run(self.sync.state, id)

    async def diff(self, id: str) -> dict[str, list[dict[str, Any]]]:
        return await _run(self.sync.diff, id)

    async def answer(self, id: str, answer: Optional[Mapping[str, Any]] = None, text: Optional[str] = None) -> dict[str, Any]:
        return await _run(self.sync.answer, id, answer, text)

    async def score(self, id: str) -> dict[str, Any]:
        return await _run(self.sync.score, id)

    async def tasks(self, domain: Optional[str] = None, category: Optional[str] = None, kind: Optional[str] = None) -> list[dict[str, Any]]:
        return await _run(self.sync.tasks, domain, category, kind)

    async def task(self, id: str, seed: int = 0) -> dict[str, Any]:
        return await _run(self.sync.task, id, seed)

    async def rescore(
        self, task: str, seed: int, journal: Sequence[Mapping[str, Any]], answers: Iterable[Mapping[str, Any]] = ()
    ) -> dict[str, Any]:
        return await _run(self.sync.rescore, task, seed, journal, answers)

    async def create_batch(
        self, task: str, n: int, seeds: Optional[Sequence[int]] = None, id: Optional[str] = None, **options: Any
    ) -> AsyncBatch:
        return AsyncBatch(self, await _run(self.sync.create_batch, task, n, seeds, id, **options))

    async def batch(self, id: str) -> AsyncBatch:
        return AsyncBatch(self, await _run(self.sync.batch, id))

    async def hazards(self, session: Optional[str] = None, active: Optional[bool] = None) -> dict[str, Any]:
        return await _run(self.sync.hazards, session, active)

    async def set_hazards(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        return await _run(self.sync.set_hazards, spec)

    async def clear_hazards(self) -> dict[str, Any]:
        return await _run(self.sync.clear_hazards)


class AsyncSession:
    """Session's methods as coroutines. As an async context manager, it deletes itself on exit."""

    def __init__(self, client: AsyncClient, id: str, summary: Optional[Mapping[str, Any]] = None) -> None:
        self.client = client
        self.id = id
        self.summary: Optional[dict[str, Any]] = dict(summary) if summary is not None else None
        self.sync = Session(client.sync, id, summary)
        """The blocking session underneath."""

    def __repr__(self) -> str:
        return f"AsyncSession({self.id!r})"

    async def __aenter__(self) -> AsyncSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.delete()
        except ProblemError as error:
            if error.status != 404:
                raise

    async def call(
        self, domain: Optional[str], tool: str, args: Optional[Mapping[str, Any]] = None, *, idempotency_key: Optional[str] = None
    ) -> Any:
        return await _run(self.sync.call, domain, tool, args, idempotency_key=idempotency_key)

    async def call_response(
        self, domain: Optional[str], tool: str, args: Optional[Mapping[str, Any]] = None, *, idempotency_key: Optional[str] = None
    ) -> Response:
        return await _run(self.sync.call_response, domain, tool, args, idempotency_key=idempotency_key)

    async def tools(self, format: str = "openai", domain: Optional[str] = None, *, strict: bool = False) -> Any:
        return await _run(self.sync.tools, format, domain, strict=strict)

    async def openapi(self, domain: Optional[str] = None) -> dict[str, Any]:
        return await _run(self.sync.openapi, domain)

    async def policy(self, domain: str) -> str:
        return await _run(self.sync.policy, domain)

    async def info(self) -> dict[str, Any]:
        return await _run(self.sync.info)

    async def journal(self, since: Optional[int] = None) -> list[dict[str, Any]]:
        return await _run(self.sync.journal, since)

    async def state(self) -> dict[str, Any]:
        return await _run(self.sync.state)

    async def diff(self) -> dict[str, list[dict[str, Any]]]:
        return await _run(self.sync.diff)

    async def answer(self, answer: Optional[Mapping[str, Any]] = None, text: Optional[str] = None) -> dict[str, Any]:
        return await _run(self.sync.answer, answer, text)

    async def score(self) -> dict[str, Any]:
        return await _run(self.sync.score)

    async def hazards(self, active: Optional[bool] = None) -> dict[str, Any]:
        return await _run(self.sync.hazards, active)

    async def reset(self) -> dict[str, Any]:
        return await _run(self.sync.reset)

    async def delete(self) -> None:
        await _run(self.sync.delete)


class AsyncBatch:
    """Batch with its report fetched again as a coroutine and its sessions as AsyncSession."""

    def __init__(self, client: AsyncClient, batch: Batch) -> None:
        self.client = client
        self.sync = batch

    def __repr__(self) -> str:
        return f"Async{self.sync!r}"

    @property
    def report(self) -> dict[str, Any]:
        return self.sync.report

    @property
    def id(self) -> str:
        return self.sync.id

    @property
    def task(self) -> str:
        return self.sync.task

    @property
    def sessions(self) -> list[AsyncSession]:
        return [AsyncSession(self.client, session.id) for session in self.sync.sessions]

    @property
    def seeds(self) -> list[int]:
        return self.sync.seeds

    @property
    def scored(self) -> int:
        return self.sync.scored

    @property
    def successes(self) -> int:
        return self.sync.successes

    @property
    def pass_hat_k(self) -> dict[int, float]:
        return self.sync.pass_hat_k

    async def refresh(self) -> AsyncBatch:
        await _run(self.sync.refresh)
        return self
