"""wildtools: the Python client of a wildtools server (standard library only).

    from wildtools import Client, ProblemError, UnexpectedResponseError

    client = Client()  # $WILDTOOLS_URL or http://127.0.0.1:8080
    with client.create_session(seed=42) as session:
        tools = session.tools("openai", "retail")  # chat.completions.create(tools=tools)
        order = session.call("retail", "get_order_details", {"order_id": "#W5124601"})
"""

from ._http import Response
from .aio import AsyncBatch, AsyncClient, AsyncSession
from .client import IDEMPOTENCY_KEY, Batch, Client, Session
from .errors import ProblemError, UnexpectedResponseError, WildtoolsError
from .passk import pass_hat_k

__all__ = [
    "AsyncBatch",
    "AsyncClient",
    "AsyncSession",
    "Batch",
    "Client",
    "IDEMPOTENCY_KEY",
    "ProblemError",
    "Response",
    "Session",
    "UnexpectedResponseError",
    "WildtoolsError",
    "pass_hat_k",
]
