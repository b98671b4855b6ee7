"""AsyncClient, AsyncSession and AsyncBatch: the same surface as coroutines, concurrent sessions, the same errors."""

from __future__ import annotations

import asyncio
import inspect
import unittest

from wildtools import AsyncBatch, AsyncClient, AsyncSession, Batch, Client, ProblemError, Session, UnexpectedResponseError

from .support import ADMIN_TOKEN, EMAIL, ORDER, URL, USER, changed, unique
from .test_tasks import TASK

CANCEL = {"order_id": ORDER, "reason": "no longer needed"}


def public(cls: type) -> dict[str, object]:
    return {name: member for name, member in vars(cls).items() if not name.startswith("_")}


class SurfaceTest(unittest.TestCase):
    def test_every_method_has_its_coroutine(self) -> None:
        for blocking, asynchronous in ((Client, AsyncClient), (Session, AsyncSession), (Batch, AsyncBatch)):
            for name, member in public(blocking).items():
                mirrored = public(asynchronous).get(name)
                self.assertIsNotNone(mirrored, f"{asynchronous.__name__}.{name}")
                if isinstance(member, property):
                    self.assertIsInstance(mirrored, property, f"{asynchronous.__name__}.{name}")
                elif name != "session":  # a handle: no request, so no coroutine
                    self.assertTrue(inspect.iscoroutinefunction(mirrored), f"{asynchronous.__name__}.{name} is a coroutine")
                    wanted = list(inspect.signature(member).parameters)  # type: ignore[arg-type]
                    found = list(inspect.signature(mirrored).parameters)  # type: ignore[arg-type]
                    self.assertEqual(found, wanted, f"{asynchronous.__name__}.{name}'s parameters")


class AsyncTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        self.client = AsyncClient(URL, admin_token=ADMIN_TOKEN)

    async def test_concurrent_sessions_stay_isolated(self) -> None:
        sessions = await asyncio.gather(*(self.client.create_session(id=unique("async"), seed=n) for n in range(3)))
        try:
            await asyncio.gather(sessions[0].call("retail", "cancel_pending_order", CANCEL), *(s.info() for s in sessions))
            orders = await asyncio.gather(*(s.call("retail", "get_order_details", {"order_id": ORDER}) for s in sessions))
            self.assertEqual([order["status"] for order in orders], ["cancelled", "pending", "pending"])
            diffs = await asyncio.gather(*(s.diff() for s in sessions))
            self.assertEqual([len(changed(diff)) for diff in diffs], [1, 0, 0])
        finally:
            await asyncio.gather(*(s.delete() for s in sessions))
        self.assertEqual({s["id"] for s in await self.client.sessions()} & {s.id for s in sessions}, set())

    async def test_a_session_as_async_context_manager(self) -> None:
        async with await self.client.create_session(id=unique("async-with"), seed=1) as session:
            self.assertEqual(repr(session), f"AsyncSession({session.id!r})")
            self.assertEqual((await session.info())["seed"], 1)
            self.assertEqual(await session.call(None, "find_user_id_by_email", {"email": EMAIL}), USER)
            response = await session.call_response("retail", "get_order_details", {"order_id": ORDER}, idempotency_key=None)
            self.assertEqual(response.status, 200)
            self.assertEqual([e["seq"] for e in await session.journal(since=1)], [2])
            self.assertIn("retail", await session.state())
            self.assertEqual((await session.reset())["calls"], 0)
            self.assertEqual(len(await session.tools("anthropic", "retail")), len(await self.client.tools("anthropic", "retail", session=session.id)))
            self.assertIn("paths", await session.openapi("retail"))
            self.assertEqual(await session.policy("weather"), await self.client.policy("weather", session=session.id))
            self.assertEqual((await session.hazards(active=True))["matrix"], [])
        with self.assertRaises(ProblemError):
            await self.client.session_info(session.id)
        async with self.client.session(unique("gone")) as never_created:
            pass  # deleting what does not exist is no error on exit
        self.assertIsNone(never_created.summary)

    async def test_errors_are_the_same(self) -> None:
        async with await self.client.create_session(id=unique("async-errors"), seed=3,
                                                    hazards={"tools": {"get_order_details": {"transport_fault": "on"}}}) as session:
            with self.assertRaises(UnexpectedResponseError):
                await session.call("retail", "get_order_details", {"order_id": ORDER})
            with self.assertRaises(ProblemError) as caught:
                await self.client.call("retail", "cancel_pending_order", {"order_id": ORDER, "reason": "x"}, session=session.id)
            self.assertEqual(caught.exception.code, "invalid_reason")

    async def test_the_client_routes(self) -> None:
        self.assertEqual(self.client.base_url, URL.rstrip("/"))
        self.assertGreater(self.client.timeout, 0)
        self.assertIn("AsyncClient(", repr(self.client))
        self.assertEqual((await self.client.health())["version"], (await self.client.request("GET", "/health")).json()["version"])
        self.assertEqual(len(await self.client.domains()), 4)
        self.assertIn("components", await self.client.openapi())
        self.assertEqual(await self.client.call("retail", "find_user_id_by_email", {"email": EMAIL}), USER)
        raw = await self.client.call_response("retail", "find_user_id_by_email", {"email": EMAIL})
        self.assertEqual(raw.json(), USER)
        self.assertTrue(await self.client.tasks(domain="weather"))
        self.assertEqual((await self.client.task(TASK, 4))["seed"], 4)
        self.assertEqual((await self.client.hazards(active=True))["session"], "default")
        self.addAsyncCleanup(self.client.clear_hazards)
        report = await self.client.set_hazards({"tools": {"track_order": {"outage": "on"}}})
        self.assertEqual(len([c for c in report["matrix"] if c["probability"] > 0]), 1)
        self.assertEqual([c for c in (await self.client.clear_hazards())["matrix"] if c["probability"] > 0], [])

    async def test_session_routes_by_id(self) -> None:
        session = await self.client.create_session(id=unique("async-ids"), task=TASK, seed=1, kinds=[])
        self.assertEqual(session.summary["task"], TASK)  # type: ignore[index]
        await self.client.call("retail", "list_all_product_types", session=session.id)
        self.assertEqual(len(await self.client.journal(session.id)), 1)
        self.assertIn("retail", await self.client.state(session.id))
        self.assertEqual(changed(await self.client.diff(session.id)), [])
        receipt = await self.client.answer(session.id, {"min": 1, "max": 2})
        self.assertEqual(receipt["turn"], 1)
        score = await self.client.score(session.id)
        self.assertIs(score["success"], False)
        self.assertIs((await session.score())["success"], False)
        rescored = await self.client.rescore(TASK, 1, await session.journal(), [{"answer": {"min": 1, "max": 2}}])
        self.assertEqual(rescored["success"], score["success"])
        self.assertEqual((await self.client.session_info(session.id))["answers"], 1)
        self.assertEqual((await self.client.reset(session.id))["calls"], 0)
        await self.client.delete(session.id)

    async def test_a_batch(self) -> None:
        batch = await self.client.create_batch(TASK, 2, id=unique("async-batch"), kinds=[])
        self.assertEqual((batch.task, batch.seeds, batch.scored, batch.successes), (TASK, [1, 2], 0, 0))
        self.assertEqual(batch.id, batch.report["id"])
        self.assertIn("AsyncBatch(", repr(batch))
        sessions = batch.sessions
        self.assertTrue(all(isinstance(session, AsyncSession) for session in sessions))
        await asyncio.gather(*(session.answer({"min": 0, "max": 0}, text="no idea") for session in sessions))
        self.assertIs(await batch.refresh(), batch)
        self.assertEqual((batch.scored, batch.successes, batch.pass_hat_k), (2, 0, {1: 0.0, 2: 0.0}))
        self.assertEqual((await self.client.batch(batch.id)).report, batch.report)
        await asyncio.gather(*(session.delete() for session in sessions))


if __name__ == "__main__":
    unittest.main()
