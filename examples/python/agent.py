#!/usr/bin/env python3
"""A Chat Completions tool-calling loop over wildtools' retail tools, with the `wildtools` package.

Real model (needs `pip install openai` and OPENAI_API_KEY):
    python3 examples/python/agent.py ["what the user asks"]
Scripted stand-in for the model (no openai package, no network beyond wildtools, no key):
    python3 examples/python/agent.py --scripted

The session's tools come from `session.tools("openai", "retail")` (`GET /s/{session}/retail/tools?format=openai`),
handed to `chat.completions.create(tools=...)` as they are; every call is `session.call(...)`. Every answer, a
refusal or a broken answer included, goes back to the model as the tool's output. The package is `pip install
./python` (standard library only); from a checkout without it installed, the example uses ../../python/src.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Dict, List, Optional, Tuple

try:
    import wildtools
except ImportError:  # a checkout without the package installed: its sources
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python" / "src"))
    import wildtools

DOMAIN = "retail"
# A pending order of the default data, as the README's examples use it.
DEMO_EMAIL = "malik.okonkwo3001@example.com"
DEMO_ORDER = "#W5124601"


def tool_output(session: wildtools.Session, name: str, arguments: str) -> str:
    """What the model reads: the result's JSON, a refusal's status and problem JSON, or what went wrong."""
    try:
        args = json.loads(arguments or "{}")
    except json.JSONDecodeError as error:
        return f"Error: the arguments are not valid JSON ({error})"
    try:
        return json.dumps(session.call(DOMAIN, name, args))
    except wildtools.ProblemError as error:  # the API refused: its detail says how to fix the call
        return f"Error: HTTP {error.status} {json.dumps(error.problem, separators=(',', ':'))}"
    except wildtools.UnexpectedResponseError as error:  # a gateway page, a reset, a cut body: worth a retry
        return f"Error: {error}"


def run_agent(client: Any, model: str, session: wildtools.Session, prompt: str, max_turns: int = 20) -> str:
    """Asks the model, runs the tools it calls, hands their outputs back, until it answers in words."""
    tools = session.tools("openai", DOMAIN)
    messages: List[Dict[str, Any]] = [
        {"role": "system", "content": session.policy(DOMAIN)},
        {"role": "user", "content": prompt},
    ]
    for _ in range(max_turns):
        message = client.chat.completions.create(model=model, messages=messages, tools=tools).choices[0].message
        calls = message.tool_calls or []
        messages.append(
            {
                "role": "assistant",
                "content": message.content,
                **({"tool_calls": [_call_dict(call) for call in calls]} if calls else {}),
            }
        )
        if not calls:
            return message.content or ""
        for call in calls:
            output = tool_output(session, call.function.name, call.function.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": output})
    raise RuntimeError(f"no answer after {max_turns} turns")


def _call_dict(call: Any) -> Dict[str, Any]:
    return {"id": call.id, "type": "function", "function": {"name": call.function.name, "arguments": call.function.arguments}}


# --- The scripted stand-in: a client with the same `chat.completions.create` shape as openai's. ---

Seen = List[Tuple[str, str]]
"""The tool outputs handed to the model so far: (tool name, output)."""
Turn = Dict[str, Any]
"""{"calls": [(name, args), ...]} or {"text": "..."}."""


def seen_outputs(messages: List[Dict[str, Any]]) -> Seen:
    names = {call["id"]: call["function"]["name"] for m in messages for call in m.get("tool_calls", [])}
    return [(names.get(m["tool_call_id"], ""), m["content"]) for m in messages if m["role"] == "tool"]


class ScriptedClient:
    """Answers `chat.completions.create` from a script of turns, each decided from the tool outputs seen."""

    def __init__(self, script: Callable[[Seen], Turn]) -> None:
        self.script = script
        self.seen: Seen = []
        self._calls = 0
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    def _create(self, model: str, messages: List[Dict[str, Any]], tools: List[Dict[str, Any]]) -> Any:
        self.seen = seen_outputs(messages)
        turn = self.script(self.seen)
        tool_calls = [self._tool_call(name, args) for name, args in turn.get("calls", [])]
        message = SimpleNamespace(role="assistant", content=turn.get("text"), tool_calls=tool_calls or None)
        return SimpleNamespace(choices=[SimpleNamespace(index=0, message=message, finish_reason="tool_calls" if tool_calls else "stop")])

    def _tool_call(self, name: str, args: Dict[str, Any]) -> Any:
        self._calls += 1
        function = SimpleNamespace(name=name, arguments=json.dumps(args))
        return SimpleNamespace(id=f"call_{self._calls}", type="function", function=function)


def _field(output: str, field: str) -> Any:
    try:
        parsed = json.loads(output)
    except json.JSONDecodeError:
        return None
    return parsed.get(field) if isinstance(parsed, dict) else None


ATTEMPTS = 5
"""How many times the stand-in sends one call before it gives up on a fault."""


def is_fault(output: str) -> bool:
    """A fault of the way there, not the tool's answer: a 5xx, a 429 or a 408, or an answer that is not one
    (a gateway page, a reset, a cut body). A refusal (another 4xx) is an answer: the call must change."""
    status = re.match(r"Error: HTTP (\d{3}) ", output)
    if status:
        return status.group(1).startswith("5") or status.group(1) in ("429", "408")
    return output.startswith("Error: ")


def coping(script: Callable[[Seen], Turn]) -> Callable[[Seen], Turn]:
    """After a fault, the same call again (the script, shown the outputs without the faults, asks for it again:
    a write with the same idempotency key, so a write whose answer was lost is answered, not repeated); after
    ATTEMPTS faults in a row, an answer that says so and claims nothing."""

    def coped(seen: Seen) -> Turn:
        trailing = 0
        while trailing < len(seen) and is_fault(seen[-1 - trailing][1]):
            trailing += 1
        if trailing >= ATTEMPTS:
            name, output = seen[-1]
            return {"text": f"I could not complete the request: {name} failed {trailing} times in a row ({output[:200]})."}
        return script([entry for entry in seen if not is_fault(entry[1])])

    return coped


def cancel_order_script(email: str, order_id: str) -> Callable[[Seen], Turn]:
    """Find the customer, read the order, cancel with a reason the policy does not allow, read the refusal,
    cancel with an allowed one; cope with faults, and claim only what the cancel answered."""

    def cancel(reason: str, attempt: int) -> Turn:
        return {"calls": [("cancel_pending_order", {"order_id": order_id, "reason": reason, "idempotency_key": f"cancel-{order_id}-{attempt}"})]}

    def script(seen: Seen) -> Turn:
        last = seen[-1][1] if seen else ""
        if len(seen) == 0:
            return {"calls": [("find_user_id_by_email", {"email": email})]}
        if len(seen) == 1:
            return {"calls": [("get_order_details", {"order_id": order_id})]}
        if len(seen) == 2:
            return cancel("found it cheaper elsewhere", 1)
        if len(seen) == 3:
            # Only the refusal's text tells the stand-in which reasons exist: without it, it gives up.
            if "invalid_reason" not in last:
                return {"text": f"I could not cancel order {order_id}: {last}"}
            return cancel("no longer needed", 2)
        status = _field(last, "status")
        if not isinstance(status, str):
            return {"text": f"I could not cancel order {order_id}: {last}"}
        return {"text": f"Order {order_id} is now {status}."}

    return coping(script)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prompt", nargs="*", help="what the user asks (default: cancel the demo order)")
    parser.add_argument("--scripted", action="store_true", help="use the scripted stand-in instead of a real model")
    parser.add_argument("--email", default=DEMO_EMAIL, help="the customer of the scripted task")
    parser.add_argument("--order", default=DEMO_ORDER, help="the pending order of the scripted task")
    parser.add_argument("--session", help="the session's id (default: the server names one)")
    parser.add_argument("--json", action="store_true", help="print the session, the answer and the tool outputs as JSON")
    options = parser.parse_args(argv)

    prompt = " ".join(options.prompt) or f"My email is {options.email}. Please cancel order {options.order}: I no longer need it."
    if options.scripted:
        client: Any = ScriptedClient(cancel_order_script(options.email, options.order))
    else:
        try:
            from openai import OpenAI  # only the real path needs the package
        except ImportError:
            parser.error("the real path needs the openai package (pip install openai); or run with --scripted")
        if not os.environ.get("OPENAI_API_KEY"):
            parser.error("OPENAI_API_KEY is not set: set it to run a real model, or pass --scripted")
        client = OpenAI()
    # Not `with`: the session outlives the run, so that its journal and diff can be read afterwards.
    session = wildtools.Client().create_session(id=options.session)  # $WILDTOOLS_URL, else http://127.0.0.1:8080
    answer = run_agent(client, os.environ.get("OPENAI_MODEL", "gpt-4.1"), session, prompt)

    if options.json:
        seen = getattr(client, "seen", [])
        print(json.dumps({"session": session.id, "answer": answer, "seen": [{"name": n, "output": o} for n, o in seen]}))
        return 0
    print(f"agent: {answer}")
    for domain, changes in session.diff().items():
        for change in changes:
            print(f"changed: {domain} {change['table']} {change['id']} {change['op']} {', '.join(change.get('fields', []))}")
    print(f"journal: {session.client.base_url}/sessions/{session.id}/journal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
