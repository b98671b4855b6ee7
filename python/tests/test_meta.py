"""The server's own routes: health, domains, the hazard matrix and its runtime settings."""

from __future__ import annotations

import unittest

from wildtools import ProblemError

from .support import ServerTest


class MetaTest(ServerTest):
    def test_health_and_domains(self) -> None:
        health = self.client.health()
        self.assertIn(health["status"], ("ok", "full"))
        self.assertIn("live", health["sessions"])
        domains = {domain["name"]: domain for domain in self.client.domains()}
        self.assertEqual(set(domains), {"retail", "airline", "smart-home", "weather"})
        self.assertEqual(domains["weather"]["endpoints"]["tools"], "/weather/tools")

    def test_a_session_hazard_matrix(self) -> None:
        session = self.open(seed=5, hazards={"tools": {"track_order": {"outage": "on"}}})
        active = session.hazards(active=True)
        self.assertEqual(active["session"], session.id)
        self.assertEqual([(c["tool"], c["kind"]) for c in active["matrix"]], [("track_order", "outage")])
        every = self.client.hazards(session.id, active=False)
        self.assertGreater(len(every["matrix"]), len(active["matrix"]))
        self.assertEqual(self.client.hazards()["session"], "default")

    def test_runtime_hazard_settings(self) -> None:
        self.addCleanup(self.client.clear_hazards)
        report = self.client.set_hazards({"tools": {"track_order": {"outage": "on"}}})
        cells = [c for c in report["matrix"] if c["probability"] > 0]
        self.assertEqual([(c["tool"], c["kind"]) for c in cells], [("track_order", "outage")])
        self.assertIn("PUT /admin/hazards", cells[0]["source"])
        cleared = self.client.clear_hazards()
        self.assertEqual([c for c in cleared["matrix"] if c["probability"] > 0], [])
        with self.assertRaises(ProblemError) as caught:
            self.client.set_hazards({"kinds": {"no_such_kind": "on"}})
        self.assertEqual(caught.exception.status, 400)

    def test_the_raw_request(self) -> None:
        response = self.client.request("GET", "/hazards", query={"active": 1})
        self.assertEqual(response.status, 200)
        created = self.client.request("POST", "/sessions", body={"seed": 3})
        self.assertEqual(created.status, 201)
        deleted = self.client.request("DELETE", f"/sessions/{created.json()['id']}", admin=True)
        self.assertEqual((deleted.status, deleted.text, deleted.json()), (204, "", None))


if __name__ == "__main__":
    unittest.main()
