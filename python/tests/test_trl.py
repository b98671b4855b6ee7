"""TRL's environment_factory over wildtools: classes whose methods TRL can read as tools, and episodes that end
with the score as reward. TRL is not installed here: the tests hold the classes to the contract TRL documents
(public methods other than reset and get_reward are tools; each has type hints and an `Args:` line per parameter,
as transformers' get_json_schema requires) and play episodes as its loop would."""

from __future__ import annotations

import inspect
import json
import re
import typing
import unittest

from wildtools.trl import SYSTEM_PROMPT, ToolFailed, dataset_rows, environments

from .support import URL, ServerTest

_ARG_LINE = re.compile(r"^\s+(\w+): (\S.*)$")


def tools_of(instance: object) -> dict[str, typing.Callable[..., str]]:
    """The methods TRL exposes as tools (grpo_trainer.py: inspect.getmembers, public, not reset or get_reward)."""
    return {
        name: member
        for name, member in inspect.getmembers(instance, predicate=inspect.ismethod)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    }


def documented_args(method: typing.Callable[..., str]) -> dict[str, str]:
    doc = inspect.getdoc(method) or ""
    block = doc.split("\nArgs:\n", 1)[1].split("\n\nReturns:", 1)[0] if "\nArgs:\n" in doc else ""
    return {m.group(1): m.group(2) for m in map(_ARG_LINE.match, block.splitlines()) if m}


class EnvironmentClassesTest(ServerTest):
    @classmethod
    def setUpClass(cls) -> None:
        cls.classes = environments(URL, kinds=[])

    def test_one_class_per_domain_with_its_tools(self) -> None:
        self.assertEqual(set(self.classes), {"retail", "airline", "smart-home", "weather"})
        for domain, cls in self.classes.items():
            listed = {tool["function"]["name"] for tool in self.client.tools("openai", domain)}
            self.assertEqual(set(tools_of(cls())), listed | {"submit_answer"}, domain)
        self.assertEqual(self.classes["smart-home"].__name__, "SmartHomeEnvironment")

    def test_every_tool_reads_as_transformers_reads_it(self) -> None:
        checked = 0
        for domain, cls in self.classes.items():
            listing = {tool["function"]["name"]: tool["function"] for tool in self.client.tools("openai", domain)}
            for name, method in tools_of(cls()).items():
                signature = inspect.signature(method)
                hints = typing.get_type_hints(method)
                described = documented_args(method)
                self.assertEqual(set(described), set(signature.parameters), f"{domain}.{name}: an Args line per parameter")
                for parameter in signature.parameters.values():
                    self.assertIn(parameter.name, hints, f"{domain}.{name}({parameter.name}) has a type hint")
                doc = inspect.getdoc(method) or ""
                self.assertNotIn("\n", doc.split("\n\n", 1)[0], f"{domain}.{name}: a one-paragraph description")
                if name in listing:
                    schema = listing[name]["parameters"]
                    self.assertEqual(set(signature.parameters), set(schema.get("properties", {})), f"{domain}.{name}: its parameters")
                    required = {p.name for p in signature.parameters.values() if p.default is inspect.Parameter.empty}
                    self.assertEqual(required, set(schema.get("required", [])), f"{domain}.{name}: its required ones")
                checked += 1
        self.assertGreaterEqual(checked, 86 + 4)

    def test_types_and_choices_follow_the_schema(self) -> None:
        retail = self.classes["retail"]()
        hints = typing.get_type_hints(retail.cancel_pending_order)
        self.assertEqual(hints["order_id"], str)
        choices = documented_args(retail.search_product)["sort"]
        self.assertRegex(choices, r'\(choices: \["relevance", "price_asc", "price_desc", "name"\]\)$')
        self.assertEqual(typing.get_type_hints(retail.search_product)["sort"], typing.Optional[str], "an optional parameter")
        modify = typing.get_type_hints(retail.exchange_delivered_order_items)
        self.assertEqual(modify["item_ids"], list[str])


class EpisodeTest(ServerTest):
    def setUp(self) -> None:
        super().setUp()
        self.env = environments(URL, domains=["retail"], kinds=[])["retail"]()
        self.addCleanup(self.env._close)

    def play_retail_001(self, seed: int) -> dict:
        """Cancels the pending order the request names, as an agent's tool calls would; returns the right answer."""
        told = self.env.reset(task="retail/001", seed=seed, environment="retail", prompt=[])
        email = re.search(r"[\w.+-]+@[\w-]+\.[a-z]+", told).group(0)
        instance = self.client.task("retail/001", seed)
        self.assertIn(instance["request"], told)
        self.assertIn("# Policy", told)
        user_id = json.loads(self.env.find_user_id_by_email(email=email))
        user = json.loads(self.env.get_user_details(user_id=user_id))
        product = instance["given"]["product"].lower()
        for order_id in user["orders"]:
            order = json.loads(self.env.get_order_details(order_id=order_id))
            if order["status"] == "pending" and any(product in item["name"].lower() for item in order["items"]):
                break
        else:
            self.fail("no pending order holds the product")
        cancelled = json.loads(self.env.cancel_pending_order(order_id=order_id, reason="no longer needed"))
        refunds = [
            {"payment_method_id": p["payment_method_id"], "amount": p["amount"]}
            for p in cancelled["payment_history"]
            if p["transaction_type"] == "refund"
        ]
        return {"order_id": order_id, "refunds": refunds}

    def test_a_solved_episode_earns_reward_one(self) -> None:
        answer = self.play_retail_001(seed=10_007)
        self.assertEqual(self.env.get_reward(), 0.0, "no reward before the answer")
        self.assertEqual(self.env.submit_answer(answer, "Cancelled; the refund goes to your card."), "Answer recorded. The conversation is over.")
        self.assertTrue(self.env.done)
        self.assertEqual(self.env.get_reward(), 1.0)
        self.assertEqual(self.env.session.score()["success"], True)
        with self.assertRaisesRegex(ToolFailed, "over"):
            self.env.list_all_product_types()

    def test_a_wrong_answer_earns_zero_and_reset_starts_afresh(self) -> None:
        answer = self.play_retail_001(seed=3)
        self.env.submit_answer({**answer, "order_id": "#W0000000"})
        self.assertEqual(self.env.get_reward(), 0.0)
        first = self.env.session
        self.env.reset(task="retail/001", seed=3)
        self.assertNotEqual(self.env.session.id, first.id)
        self.assertEqual(self.env.reward, 0.0)
        self.assertFalse(self.env.done)
        self.assertEqual(self.env.session.journal(), [], "a fresh session")

    def test_a_refused_call_is_the_message_the_model_reads(self) -> None:
        self.env.reset(task="retail/001", seed=0)
        with self.assertRaises(ToolFailed) as refused:
            self.env.get_order_details(order_id="nonsense")
        self.assertRegex(str(refused.exception), r"^HTTP 4\d\d: \{")
        self.assertEqual(len(self.env.session.journal()), 1, "journaled like any call")

    def test_a_task_of_another_domain_is_refused(self) -> None:
        with self.assertRaisesRegex(ValueError, "is in airline, not retail"):
            self.env.reset(task="airline/001", seed=0)

    def test_no_episode_no_call(self) -> None:
        fresh = environments(URL, domains=["weather"])["weather"]()
        with self.assertRaisesRegex(ToolFailed, "reset first"):
            fresh.submit_answer({})


class HazardsAndTurnsTest(ServerTest):
    def test_a_transport_fault_is_a_failed_call_the_model_reads(self) -> None:
        env = environments(URL, domains=["retail"], kinds=["transport_fault"])["retail"]()
        self.addCleanup(env._close)
        env.reset(task="retail/018", seed=0)
        outcomes = []
        for _ in range(6):
            try:
                env.search_product(query="lamp")
                outcomes.append("answered")
            except ToolFailed as failure:
                outcomes.append(str(failure))
        faults = [hit["kind"] for entry in env.session.journal() for hit in entry["hazards"]]
        self.assertIn("transport_fault", faults, "the task's targeted fault hit")
        self.assertEqual(len([o for o in outcomes if o != "answered"]), faults.count("transport_fault"), outcomes)

    def test_a_follow_up_request_comes_back_from_submit_answer(self) -> None:
        env = environments(URL, domains=["retail"], kinds=[])["retail"]()
        self.addCleanup(env._close)
        env.reset(task="retail/023", seed=0)
        instance = self.client.task("retail/023", 0)
        with self.assertRaisesRegex(ToolFailed, r"^HTTP 400: .*answer schema"):
            env.submit_answer({}, "Done.")
        told = env.submit_answer({"order_id": "#W0000000", "items": []}, "Done.")
        self.assertEqual(told, f"Answer recorded. The user now asks: {instance['follow_ups'][0]}")
        self.assertFalse(env.done)
        with self.assertRaises(ToolFailed):
            env.submit_answer({"order_id": "#W0000000"})
        self.assertFalse(env.done, "a refused answer leaves the request open")
        self.assertEqual(env.get_reward(), 0.0, "a reward read before the end is the score so far")

    def test_a_session_deleted_meanwhile_does_not_stop_the_next_reset(self) -> None:
        env = environments(URL, domains=["weather"], kinds=[])["weather"]()
        self.addCleanup(env._close)
        env.reset(task="weather/001", seed=0)
        env.session.delete()
        env.reset(task="weather/001", seed=1)
        self.assertEqual(env.session.info()["seed"], 1)


class SchemaMappingTest(unittest.TestCase):
    def test_names_trl_reserves_and_nullable_types(self) -> None:
        from wildtools.trl import _environment_class

        listing = [
            {"function": {"name": "reset", "description": "x", "parameters": {}}},
            {"function": {"name": "not-a-name", "description": "x", "parameters": {}}},
            {"function": {"name": "lookup", "description": "Finds.\nTwo lines.", "parameters": {
                "type": "object",
                "properties": {"code": {"type": ["string", "null"]}, "class": {"type": "string"}, "n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
                "required": ["code"],
            }}},
        ]
        cls = _environment_class("x", listing, {"base_url": URL, "token": None, "admin_token": None, "kinds": None, "hazard_rate": None})
        self.assertEqual(sorted(tools_of(cls())), ["lookup", "submit_answer"], "TRL's own names and non-identifiers are left out")
        hints = typing.get_type_hints(cls.lookup)
        self.assertEqual((hints["code"], hints["n"]), (str, typing.Optional[int]))
        self.assertNotIn("class", inspect.signature(cls.lookup).parameters, "a Python keyword cannot be a parameter")
        self.assertEqual(inspect.getdoc(cls.lookup).split("\n")[0], "Finds. Two lines.")


class DatasetRowsTest(ServerTest):
    def test_rows_name_environment_task_and_seeds_of_the_split(self) -> None:
        rows = dataset_rows(URL, split="test", seeds_per_task=2, domain="weather")
        tasks = [task["id"] for task in self.client.tasks(domain="weather")]
        self.assertEqual(len(rows), 2 * len(tasks))
        self.assertEqual({(row["task"], row["seed"]) for row in rows}, {(task, seed) for task in tasks for seed in (1, 2)})
        self.assertTrue(all(row["environment"] == "weather" for row in rows))
        self.assertEqual(rows[0]["prompt"][0], {"role": "system", "content": SYSTEM_PROMPT})
        train = dataset_rows(URL, seeds_per_task=1, first_seed=20_000)
        self.assertTrue(all(row["seed"] == 20_000 for row in train))
        self.assertEqual(len(train), len(self.client.tasks()))

    def test_seeds_outside_the_split_are_refused(self) -> None:
        with self.assertRaisesRegex(ValueError, "not all in the test split"):
            dataset_rows(URL, split="test", seeds_per_task=2, first_seed=9_999)


if __name__ == "__main__":
    unittest.main()
