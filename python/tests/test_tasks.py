"""Tasks, answers, scores, re-scoring, batches and pass^k."""

from __future__ import annotations

import json
import unittest

from wildtools import Batch, ProblemError, Session, pass_hat_k

from .support import ServerTest, unique

TASK = "retail/011"  # the price range of a product's versions that can be ordered: read, then answer


def price_range(session: Session, seed: int) -> dict[str, float]:
    """Solves TASK as an agent would: from the request's product to the available variants' prices."""
    product = session.client.task(TASK, seed)["given"]["product"]
    types = session.call("retail", "list_all_product_types")
    product_id = (json.loads(types) if isinstance(types, str) else types)[product]
    variants = session.call("retail", "get_product_details", {"product_id": product_id})["variants"].values()
    prices = [variant["price"] for variant in variants if variant["available"]]
    return {"min": min(prices), "max": max(prices)}


class TaskTest(ServerTest):
    def test_tasks_and_filters(self) -> None:
        every = self.client.tasks()
        retail = self.client.tasks(domain="retail")
        self.assertTrue(0 < len(retail) < len(every))
        self.assertTrue(all(task["domain"] == "retail" for task in retail))
        refusals = self.client.tasks(category="refusal")
        self.assertTrue(refusals and all("refusal" in task["categories"] for task in refusals))
        targeting = self.client.tasks(kind="transport_fault")
        self.assertTrue(all("transport_fault" in [t["kind"] for t in task["targets"]] for task in targeting))

    def test_a_task_instance(self) -> None:
        first, second = self.client.task(TASK, 1), self.client.task(TASK, seed=2)
        self.assertEqual((first["id"], first["seed"], second["seed"]), (TASK, 1, 2))
        self.assertIn(first["given"]["product"], first["request"])
        self.assertEqual(first["answer_schemas"][0]["required"], ["min", "max"])
        with self.assertRaises(ProblemError) as caught:
            self.client.task("retail/999")
        self.assertEqual(caught.exception.status, 404)

    def test_answer_and_score(self) -> None:
        session = self.open(task=TASK, seed=1, kinds=[])
        receipt = session.answer(price_range(session, 1), text="Here is the range.")
        self.assertEqual((receipt["session"], receipt["turn"], receipt["turns"], receipt["next_request"]), (session.id, 1, 1, None))
        score = session.score()
        self.assertIs(score["success"], True)
        self.assertEqual((score["task"], score["seed"], score["session"]), (TASK, 1, session.id))
        rescored = self.client.rescore(TASK, 1, session.journal(), [{"answer": price_range(session, 1)}])
        self.assertIs(rescored["success"], True)
        self.assertIs(self.client.rescore(TASK, 1, [], [{"answer": {"min": 0, "max": 0}}])["success"], False)

    def test_a_wrong_answer_fails_and_a_bad_one_is_refused(self) -> None:
        session = self.open(task=TASK, seed=1, kinds=[])
        with self.assertRaises(ProblemError) as caught:
            session.answer({"min": "cheap"})
        self.assertEqual(caught.exception.status, 400)
        self.client.answer(session.id, {"min": 1, "max": 2})
        score = self.client.score(session.id)
        self.assertIs(score["success"], False)
        self.assertEqual({d["path"] for d in score["answer"]["differences"]}, {"min", "max"})

    def test_a_batch_reports_pass_hat_k(self) -> None:
        batch = self.client.create_batch(TASK, 3, id=unique("batch"), kinds=[])
        self.assertIsInstance(batch, Batch)
        sessions = batch.sessions
        for session in sessions:
            self.addCleanup(session.__exit__, None, None, None)
        self.assertEqual([s.id for s in sessions], [f"{batch.id}.{n}" for n in (1, 2, 3)])
        self.assertEqual((batch.task, batch.seeds, batch.scored, batch.pass_hat_k), (TASK, [1, 2, 3], 0, {}))
        for session, seed in zip(sessions[:2], batch.seeds):
            session.answer(price_range(session, seed))
        sessions[2].answer({"min": 0, "max": 0})
        self.assertIs(batch.refresh(), batch)
        self.assertEqual((batch.scored, batch.successes), (3, 2))
        self.assertEqual(batch.pass_hat_k, {1: 2 / 3, 2: 1 / 3, 3: 0})
        self.assertEqual(batch.pass_hat_k, pass_hat_k(row["success"] for row in batch.report["sessions"]))
        self.assertEqual(self.client.batch(batch.id).report, batch.report)
        self.assertIn("scored=3/3", repr(batch))

    def test_batch_seeds_and_refusals(self) -> None:
        batch = self.client.create_batch(TASK, 2, seeds=(7, 9), kinds=[])
        for session in batch.sessions:
            self.addCleanup(session.__exit__, None, None, None)
        self.assertEqual(batch.seeds, [7, 9])
        with self.assertRaises(ProblemError) as caught:
            self.client.create_batch(TASK, 2, seeds=[7])
        self.assertEqual(caught.exception.field, "seeds")
        with self.assertRaises(ProblemError) as caught:
            self.client.batch(unique("none"))
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "batch_not_found"))


class PassHatKTest(unittest.TestCase):
    def test_the_formula(self) -> None:
        self.assertEqual(pass_hat_k([True, True, True]), {1: 1.0, 2: 1.0, 3: 1.0})
        self.assertEqual(pass_hat_k([True, False, True, False]), {1: 0.5, 2: 1 / 6, 3: 0.0, 4: 0.0})
        self.assertEqual(pass_hat_k([]), {})


if __name__ == "__main__":
    unittest.main()
