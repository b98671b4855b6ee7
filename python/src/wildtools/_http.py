"""One HTTP exchange with the server (http.client, a connection per request), decoded; every failure a WildtoolsError."""

from __future__ import annotations

import http.client
import json
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, TypeVar

from .errors import ProblemError, UnexpectedResponseError

__all__ = ["Response", "Transport", "DEFAULT_URL", "DEFAULT_TIMEOUT"]

DEFAULT_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 60.0
_ACCEPT = "application/json, application/problem+json, text/markdown;q=0.9, */*;q=0.1"
_NO_BODY: Any = object()

try:
    from importlib.metadata import PackageNotFoundError, version

    _VERSION = version("wildtools")
except (ImportError, PackageNotFoundError):  # running from the source tree
    _VERSION = "0"


@dataclass(frozen=True)
class Response:
    """A successful answer as received: status, headers (names in lower case) and body text."""

    status: int
    headers: Mapping[str, str] = field(repr=False)
    text: str = field(repr=False)
    request: str = ""

    def json(self) -> Any:
        """The body's JSON (None for an empty 204); UnexpectedResponseError when it is not JSON."""
        if self.text == "" and self.status == 204:
            return None
        try:
            return json.loads(self.text)
        except ValueError:
            raise UnexpectedResponseError(self.request, "foreign", status=self.status, headers=self.headers, body=self.text) from None

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


class Transport:
    """Sends requests to one server. Holds no connection between requests, so one instance serves many threads."""

    def __init__(self, base_url: str, token: Optional[str], admin_token: Optional[str], timeout: float) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f"base_url: an http:// or https:// URL with a host, not {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self._https = parsed.scheme == "https"
        self._host = parsed.hostname
        self._port = parsed.port
        self._prefix = parsed.path.rstrip("/")
        self._token = token
        self._admin_token = admin_token
        self.timeout = timeout

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = _NO_BODY,
        headers: Optional[Mapping[str, str]] = None,
        admin: bool = False,
    ) -> Response:
        """Sends one request. A 2xx answer is returned; anything else raises ProblemError or UnexpectedResponseError."""
        name = f"{method} {path}"
        target = self._prefix + path + _query_string(query)
        payload = None if body is _NO_BODY else json.dumps(body, allow_nan=False).encode("utf-8")
        sent = self._headers(payload is not None, admin, headers)
        connection = self._connection()
        status: Optional[int] = None
        try:
            connection.request(method, target, body=payload, headers=sent)
            answer = connection.getresponse()
            status = answer.status
            received = {key.lower(): value for key, value in answer.getheaders()}
            text = answer.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException) as error:
            raise UnexpectedResponseError(name, "connection", status=status, cause=_cause(error)) from error
        finally:
            connection.close()
        if 200 <= status < 300:
            return Response(status, received, text, name)
        raise _refusal(name, status, received, text)

    def json(self, method: str, path: str, **options: Any) -> Any:
        """The answer's JSON."""
        return self.request(method, path, **options).json()

    def object(self, method: str, path: str, **options: Any) -> dict[str, Any]:
        """The answer's JSON object; UnexpectedResponseError for any other JSON."""
        return _shaped(self.request(method, path, **options), dict)

    def list(self, method: str, path: str, **options: Any) -> list[Any]:
        """The answer's JSON array; UnexpectedResponseError for any other JSON."""
        return _shaped(self.request(method, path, **options), list)

    def _connection(self) -> http.client.HTTPConnection:
        if self._https:
            return http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)

    def _headers(self, has_body: bool, admin: bool, extra: Optional[Mapping[str, str]]) -> dict[str, str]:
        token = (self._admin_token or self._token) if admin else (self._token or self._admin_token)
        headers = {"accept": _ACCEPT, "user-agent": f"wildtools-python/{_VERSION}"}
        if has_body:
            headers["content-type"] = "application/json"
        if token:
            headers["authorization"] = f"Bearer {token}"
        headers.update(extra or {})
        return headers


_Shape = TypeVar("_Shape", dict, list)  # type: ignore[type-arg]


def _shaped(response: Response, shape: type[_Shape]) -> _Shape:
    value = response.json()
    if isinstance(value, shape):
        return value
    what = "a JSON object" if shape is dict else "a JSON array"
    raise UnexpectedResponseError(response.request, "foreign", status=response.status, headers=response.headers, body=response.text,
                                  cause=f"{what} expected")


def _query_string(query: Optional[Mapping[str, Any]]) -> str:
    pairs = [(key, _query_value(value)) for key, value in (query or {}).items() if value is not None]
    return f"?{urllib.parse.urlencode(pairs)}" if pairs else ""


def _query_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _cause(error: BaseException) -> str:
    if isinstance(error, http.client.IncompleteRead):
        return f"IncompleteRead: {len(error.partial)} bytes read, {error.expected} more expected"
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _refusal(name: str, status: int, headers: Mapping[str, str], text: str) -> Exception:
    """An answer other than 2xx: problem JSON when it is one (the same test as the TypeScript client), whatever it is otherwise."""
    if status >= 400:
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        if _is_problem(body, status):
            return ProblemError(name, body, headers)
    return UnexpectedResponseError(name, "foreign", status=status, headers=headers, body=text)


def _is_problem(body: Any, status: int) -> bool:
    if not isinstance(body, dict) or body.get("status") != status or isinstance(body.get("status"), bool):
        return False
    return all(isinstance(body.get(key), str) for key in ("type", "title", "detail"))
