"""The two ways a call fails, as in the TypeScript client (client/errors.ts)."""

from __future__ import annotations

import json
from typing import Any, Literal, Mapping, Optional

__all__ = ["WildtoolsError", "ProblemError", "UnexpectedResponseError"]

_SHOWN = 200


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: read headers["retry-after"] yourself


class WildtoolsError(Exception):
    """Any failure of a call: the server refused it, answered something else, or never answered."""

    def __init__(self, message: str, request: str) -> None:
        super().__init__(message)
        self.request = request
        """The request that failed: `POST /retail/tools/get_order_details`."""


class ProblemError(WildtoolsError):
    """The server refused the call with problem JSON (RFC 9457): nothing changed, and `detail` says how to fix it."""

    def __init__(self, request: str, problem: Mapping[str, Any], headers: Mapping[str, str]) -> None:
        self.problem: dict[str, Any] = dict(problem)
        self.headers: dict[str, str] = dict(headers)
        self.status: int = problem["status"]
        self.type: str = problem["type"]
        self.title: str = problem["title"]
        self.detail: str = problem["detail"]
        code = problem.get("code")
        self.code: Optional[str] = code if isinstance(code, str) else None
        self.field: Optional[str] = _field(problem)
        super().__init__(f"{request} answered {self.status} {self.code or self.title}: {self.detail}", request)

    @property
    def retry_after(self) -> Optional[float]:
        """Seconds from the Retry-After header, when it holds a number."""
        return _retry_after(self.headers)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with its arguments (to cross processes)
        return (ProblemError, (self.request, self.problem, self.headers))


def _field(problem: Mapping[str, Any]) -> Optional[str]:
    """The first offending field: the problem's `field`, else its first `errors` entry's."""
    field = problem.get("field")
    if isinstance(field, str):
        return field
    errors = problem.get("errors")
    first = errors[0] if isinstance(errors, list) and errors and isinstance(errors[0], dict) else {}
    field = first.get("field")
    return field if isinstance(field, str) else None


class UnexpectedResponseError(WildtoolsError):
    """An answer the API does not define: a gateway's HTML page, a foreign JSON error, a body that is not JSON,
    a redirect, a connection reset or refused, a timeout, a truncated body. The message says what was received."""

    def __init__(
        self,
        request: str,
        kind: Literal["foreign", "connection"],
        *,
        status: Optional[int] = None,
        headers: Optional[Mapping[str, str]] = None,
        body: str = "",
        cause: Optional[str] = None,
    ) -> None:
        self.kind = kind
        """`foreign`: an HTTP answer that is not problem JSON (or, for a success, not JSON);
        `connection`: the exchange failed before the answer was complete."""
        self.status = status
        """The HTTP status, when an answer's head arrived."""
        self.headers: dict[str, str] = dict(headers or {})
        self.body = body
        """The body as received (for `connection`: what arrived before the failure, usually nothing)."""
        self.cause = cause
        super().__init__(f"{request}: {self._describe()}", request)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    @property
    def retry_after(self) -> Optional[float]:
        """Seconds from the Retry-After header, when it holds a number (a 429's)."""
        return _retry_after(self.headers)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unexpected, (self.request, self.kind, self.status, self.headers, self.body, self.cause))

    def _describe(self) -> str:
        if self.kind == "connection":
            when = "before any answer" if self.status is None else f"after the head of a {self.status} answer (a truncated body)"
            return f"the connection failed {when}: {self.cause}"
        body = self.body if len(self.body) <= _SHOWN else f"{self.body[:_SHOWN]}… ({len(self.body)} characters)"
        assert self.status is not None
        if self.cause is not None:
            what = self.cause
        elif 300 <= self.status < 400:
            what = f"a redirect to {self.headers.get('location', '(no location)')}, not followed"
        else:
            what = "a body that is not JSON" if self.status < 400 else "something other than problem JSON"
        return f"answered {self.status} {self.content_type or 'without a content type'}, {what}: {json.dumps(body, ensure_ascii=False)}"


def _unexpected(request: str, kind: Literal["foreign", "connection"], status: Optional[int], headers: Mapping[str, str], body: str,
                cause: Optional[str]) -> UnexpectedResponseError:
    return UnexpectedResponseError(request, kind, status=status, headers=headers, body=body, cause=cause)
