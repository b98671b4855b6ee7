"""Tool listings in the shapes the SDKs take, the OpenAPI documents and the policies."""

from __future__ import annotations

import unittest

from wildtools import ProblemError

from .support import ServerTest


class ListingTest(ServerTest):
    def test_openai_chat_completions_tools(self) -> None:
        tools = self.open().tools("openai", "retail")
        self.assertGreater(len(tools), 20)
        for tool in tools:
            self.assertEqual(set(tool), {"type", "function"})
            self.assertEqual(tool["type"], "function")
            self.assertLessEqual({"name", "description", "parameters"}, set(tool["function"]))
            self.assertEqual(tool["function"]["parameters"]["type"], "object")
        self.assertIn("cancel_pending_order", [tool["function"]["name"] for tool in tools])

    def test_openai_strict_mode(self) -> None:
        tools = self.client.tools("openai", "retail", strict=True)
        for tool in tools:
            self.assertIs(tool["function"]["strict"], True)
            self.assertIs(tool["function"]["parameters"]["additionalProperties"], False)
        plain = self.client.tools("openai", "retail")
        self.assertNotIn("strict", plain[0]["function"])

    def test_openai_responses_tools(self) -> None:
        tools = self.open().tools("openai-responses", "airline")
        for tool in tools:
            self.assertEqual(tool["type"], "function")
            self.assertLessEqual({"name", "description", "parameters"}, set(tool))
            self.assertNotIn("function", tool)

    def test_anthropic_messages_tools(self) -> None:
        tools = self.open().tools("anthropic", "smart-home")
        self.assertGreater(len(tools), 20)
        for tool in tools:
            self.assertEqual(set(tool), {"name", "description", "input_schema"})
            self.assertEqual(tool["input_schema"]["type"], "object")

    def test_mcp_and_native(self) -> None:
        session = self.open()
        mcp = session.tools("mcp", "weather")
        self.assertTrue(all("inputSchema" in tool and "annotations" in tool for tool in mcp["tools"]))
        native = session.tools("native", "weather")
        self.assertEqual(len(native["tools"]), len(mcp["tools"]))

    def test_the_combined_view_qualifies_shared_names(self) -> None:
        names = [tool["function"]["name"] for tool in self.open().tools()]
        self.assertIn("retail__get_user_details", names)
        self.assertIn("airline__get_user_details", names)
        self.assertEqual(len(names), len(set(names)))

    def test_a_task_session_lists_submit_answer(self) -> None:
        session = self.open(task="retail/011", seed=1, kinds=[])
        self.assertEqual(session.tools("anthropic", "retail")[-1]["name"], "submit_answer")
        self.assertNotIn("submit_answer", [tool["name"] for tool in self.client.tools("anthropic", "retail")])

    def test_a_bad_format_names_the_field(self) -> None:
        with self.assertRaises(ProblemError) as caught:
            self.client.tools("openai_chat", "retail")
        self.assertEqual((caught.exception.status, caught.exception.field), (400, "format"))

    def test_openapi_and_policy(self) -> None:
        session = self.open()
        document = session.openapi("retail")
        self.assertTrue(document["openapi"].startswith("3.1"))
        self.assertIn("/retail/tools/cancel_pending_order", document["paths"])
        self.assertIn("/sessions", self.client.openapi()["paths"])
        policy = session.policy("retail")
        self.assertIsInstance(policy, str)
        self.assertEqual(policy, self.client.policy("retail"))
        self.assertIn("cancel", policy.lower())


if __name__ == "__main__":
    unittest.main()
