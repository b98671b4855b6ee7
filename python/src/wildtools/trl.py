"""Environments for TRL's GRPOTrainer(environment_factory=...): one class per domain, its public methods the
domain's tools, each episode a task session of the server.

    from wildtools.trl import environments, dataset_rows

    envs = environments()                      # {"retail": RetailEnvironment, "airline": ..., ...}
    rows = dataset_rows(split="train", seeds_per_task=8)
    trainer = GRPOTrainer(model=..., train_dataset=Dataset.from_list(rows),
                          environment_factory=envs, args=GRPOConfig(...))   # reward: get_reward()

TRL builds each tool's schema from the method's type hints and its docstring's `Args:` block
(transformers' get_json_schema), calls `reset(**row)` at the start of an episode (a row names its
`environment`, `task` and `seed`), feeds a tool's return value (or the message of the exception it raises)
back to the model, and reads `get_reward()` when the episode ends. The reward is the deterministic score:
1.0 when the task succeeded, 0.0 otherwise.
"""

from __future__ import annotations

import inspect
import json
import keyword
from typing import Any, Callable, Mapping, Optional

from .client import Client, Session
from .errors import ProblemError, UnexpectedResponseError

__all__ = ["environments", "dataset_rows", "ToolFailed", "SYSTEM_PROMPT"]

SYSTEM_PROMPT = (
    "You are a customer-service agent. Use the tools to do what the user asks, following the policy. Tools may fail, "
    "answer slowly or answer oddly, as real APIs do. When the request is done (or cannot be), call submit_answer once."
)

_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}


class ToolFailed(Exception):
    """A tool call the API answered with an error (or no usable answer): its message is what the model reads."""


def environments(
    base_url: Optional[str] = None,
    *,
    token: Optional[str] = None,
    admin_token: Optional[str] = None,
    domains: Optional[list[str]] = None,
    kinds: Optional[list[str]] = None,
    hazard_rate: Optional[float] = None,
) -> dict[str, type]:
    """One environment class per domain, for `environment_factory` (TRL picks one by a row's `environment`).
    kinds and hazard_rate apply to every episode (default: each task's targeted hazards, always)."""
    client = Client(base_url, token=token, admin_token=admin_token)
    names = domains or [domain["name"] for domain in client.domains()]
    settings = {"base_url": client.base_url, "token": token, "admin_token": admin_token, "kinds": kinds, "hazard_rate": hazard_rate}
    return {name: _environment_class(name, client.tools("openai", name), settings) for name in names}


def dataset_rows(
    base_url: Optional[str] = None,
    *,
    split: str = "train",
    seeds_per_task: int = 1,
    first_seed: Optional[int] = None,
    domain: Optional[str] = None,
    token: Optional[str] = None,
) -> list[dict[str, Any]]:
    """Rows for a training or evaluation dataset: each task of the server (or of one domain) on seeds_per_task
    seeds of the split (`GET /openenv/tasks`: train from 10,000, test 1-9,999), with the system prompt. Reset
    appends each episode's request, date and policy to it."""
    client = Client(base_url, token=token)
    listing = client.request("GET", "/openenv/tasks", query={"split": split, "domain": domain}).json()
    seeds = listing["splits"][split]
    start = seeds["first"] if first_seed is None else first_seed
    if not (seeds["first"] <= start and start + seeds_per_task - 1 <= seeds["last"]):
        raise ValueError(f"seeds {start}-{start + seeds_per_task - 1} are not all in the {split} split ({seeds['first']}-{seeds['last']})")
    prompt = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": ""}]
    return [
        {"environment": task["domain"], "task": task["id"], "seed": seed, "prompt": prompt}
        for task in listing["tasks"]
        for seed in range(start, start + seeds_per_task)
    ]


class _Episode:
    """What every domain's environment shares: the episode's session, its reset, its answer and its reward."""

    domain = ""
    _settings: Mapping[str, Any] = {}

    def __init__(self) -> None:
        settings = self._settings
        self._client = Client(settings["base_url"], token=settings["token"], admin_token=settings["admin_token"])
        self._session: Optional[Session] = None
        self._next: Optional[str] = None
        self.reward = 0.0
        self.done = False

    def reset(self, task: Optional[str] = None, seed: Optional[int] = None, **row: Any) -> str:
        """A new episode: the row's task (of this domain) on its seed. Returns what the model is told."""
        del row  # the row's other columns (prompt, environment) are TRL's
        self._close()
        options = {key: self._settings[key] for key in ("kinds", "hazard_rate") if self._settings[key] is not None}
        self._session = self._client.create_session(task=task, seed=seed, **options)
        summary = self._session.summary or {}
        instance = self._client.task(summary["task"], int(summary["seed"]))
        if instance["domain"] != self.domain:
            raise ValueError(f"task {instance['id']} is in {instance['domain']}, not {self.domain}")
        self.reward, self.done = 0.0, False
        self._next = None
        schema = (instance.get("answer_schemas") or [None])[0]
        answer = f"\n\nsubmit_answer's `answer` takes: {json.dumps(schema)}" if schema else ""
        return f"{instance['request']}\n\n(It is {instance['now']}.)\n\n# Policy\n{instance['policy']}{answer}"

    def submit_answer(self, answer: dict, message: str = "") -> str:
        """
        Gives the final answer to the user's current request and ends it.

        Args:
            answer: The answer's fields, as the task's answer schema (given with the request) lists them.
            message: What to tell the user, in words.
        """
        session = self._live()
        try:
            step = session.answer(answer or None, message or None)
        except ProblemError as error:  # an answer the task does not take: the model reads why, and may answer again
            raise ToolFailed(f"HTTP {error.status}: {json.dumps(error.problem)}") from None
        self._next = step.get("next_request")
        if self._next is None:
            self.done = True
            self.reward = 1.0 if session.score().get("success") else 0.0
            return "Answer recorded. The conversation is over."
        return f"Answer recorded. The user now asks: {self._next}"

    def get_reward(self) -> float:
        """The episode's reward (TRL reads it when the episode ends): 1.0 when the task succeeded, else 0.0."""
        if not self.done and self._session is not None:
            self.reward = 1.0 if self._session.score().get("success") else 0.0
        return self.reward

    @property
    def session(self) -> Optional[Session]:
        """The episode's session: its journal, diff, state and score."""
        return self._session

    def _live(self) -> Session:
        if self._session is None:
            raise ToolFailed("No episode: reset first.")
        if self.done:
            raise ToolFailed("The conversation is over.")
        return self._session

    def _call(self, tool: str, arguments: Mapping[str, Any]) -> str:
        args = {name: value for name, value in arguments.items() if value is not None}
        try:
            return self._live().call_response(self.domain, tool, args).text
        except ProblemError as error:
            raise ToolFailed(f"HTTP {error.status}: {json.dumps(error.problem)}") from None
        except UnexpectedResponseError as error:  # a gateway's page, a cut body, a reset connection
            raise ToolFailed(str(error)) from None

    def _close(self) -> None:
        # The previous episode's session goes at the next reset (a left one expires after SESSION_TTL idle).
        if self._session is not None:
            try:
                self._session.delete()
            except (ProblemError, UnexpectedResponseError):
                pass  # already gone (expired, or deleted by hand): nothing to free
            self._session = None


def _environment_class(domain: str, listing: list[dict[str, Any]], settings: Mapping[str, Any]) -> type:
    methods: dict[str, Any] = {"domain": domain, "_settings": dict(settings), "__module__": __name__}
    for entry in listing:
        function = entry["function"]
        if function["name"] in ("reset", "get_reward", "submit_answer") or not function["name"].isidentifier():
            continue
        methods[function["name"]] = _tool_method(function)
    name = "".join(part.capitalize() for part in domain.replace("-", "_").split("_")) + "Environment"
    return type(name, (_Episode,), methods)


def _tool_method(function: Mapping[str, Any]) -> Callable[..., str]:
    """A method calling one tool, with the signature and docstring TRL (transformers' get_json_schema) reads."""
    name = function["name"]
    schema = function.get("parameters") or {}
    properties: Mapping[str, Mapping[str, Any]] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    # Required parameters first (a Python signature's rule), each in the listing's order.
    names = sorted((p for p in properties if p.isidentifier() and not keyword.iskeyword(p)), key=lambda p: p not in required)

    def call(self: _Episode, **arguments: Any) -> str:
        return self._call(name, arguments)

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    lines = []
    for parameter in names:
        spec = properties[parameter]
        hint = _hint(spec)
        optional = parameter not in required
        annotations[parameter] = Optional[hint] if optional else hint
        default = None if optional else inspect.Parameter.empty
        parameters.append(inspect.Parameter(parameter, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotations[parameter]))
        lines.append(f"    {parameter}: {_describe(spec)}")
    annotations["return"] = str
    call.__name__ = call.__qualname__ = name
    call.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    call.__annotations__ = annotations
    description = " ".join(str(function.get("description") or name).split())
    call.__doc__ = description + ("\n\nArgs:\n" + "\n".join(lines) if lines else "") + "\n\nReturns:\n    The API's answer (JSON)."
    return call


def _hint(spec: Mapping[str, Any]) -> Any:
    kind = spec.get("type")
    if isinstance(kind, list):  # ["string", "null"]: the non-null type
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "array":
        return list[_hint(spec.get("items") or {})]  # type: ignore[misc]
    if kind is None and "anyOf" in spec:
        kinds = [s for s in spec["anyOf"] if s.get("type") != "null"]
        return _hint(kinds[0]) if len(kinds) == 1 else str
    return _TYPES.get(kind or "string", str)


def _describe(spec: Mapping[str, Any]) -> str:
    """One line (the docstring's Args block is split at `name:` line starts), with its choices for transformers."""
    text = " ".join(str(spec.get("description") or "").split()) or "See the tool's description."
    choices = spec.get("enum") or (spec.get("items") or {}).get("enum")
    return f"{text} (choices: {json.dumps(choices)})" if choices and spec.get("type") != "array" else text
