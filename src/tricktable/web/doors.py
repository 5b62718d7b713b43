"""The web server's doors below the routes: which host names it answers to, how large a
request's body may be, and whether the session cookie is ``Secure`` (docs/deploy.md).

Small ASGI middlewares where Starlette's and uvicorn's own fall short: Starlette's
TrustedHostMiddleware reads an IPv6 ``Host`` (``[::1]:8000``) as ``[``, uvicorn reads a body
of any length, and Starlette's session middleware sets ``Secure`` for every request or none.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Final

from starlette.datastructures import Headers
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the session cookie's name
COOKIE: Final = "tricktable_session"


def address_key(host: str | None) -> str:
    """The address per-address limits count a client under: its IP address, or for IPv6 its
    /64 network (one subscriber holds a whole /64, every address of which is theirs)."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def host_name(header: str) -> str:
    """The name of a ``Host`` header, without its port: ``[::1]:8000`` is ``[::1]``."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[: end + 1] if end > 0 else header
    return header.partition(":")[0].rstrip(".")


def host_allowed(name: str, allowed: Iterable[str]) -> bool:
    """Whether host ``name`` is one of ``allowed``: names, ``*.example.org`` (that domain's
    names below it) or ``*`` (any)."""
    for pattern in allowed:
        if pattern == "*" or name == pattern:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]) and len(name) > len(pattern):
            return True
    return False


class HostCheck:
    """Refuse (400) an HTTP request or a websocket handshake whose ``Host`` is not a name the
    server was told it has: a page at a stranger's domain rebound to this address (DNS
    rebinding) cannot drive it. Starlette's TrustedHostMiddleware reads ``[::1]:8000`` as
    ``[``; this reads IPv6 literals and answers in the API's JSON."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = tuple(a.lower() for a in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            name = host_name(Headers(scope=scope).get("host", ""))
            if not host_allowed(name, self.allowed):
                shown = name[:60] or "(none)"
                reason = f"this server does not answer to the host name {shown!r}"
                await JSONResponse({"error": reason}, status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _TooLarge(Exception):
    """A body went past the limit while it was read."""


class BodyLimit:
    """Refuse (413) a request whose body is longer than ``most`` bytes, before reading past
    ``most``: a declared ``Content-Length`` at once, a streamed (chunked) body as its chunks
    are counted. The body is read only as the route asks for it, so at most ``most`` bytes
    (and uvicorn's own 64 KiB buffer) are ever held."""

    def __init__(self, app: ASGIApp, most: int) -> None:
        self.app = app
        self.most = most

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.most:
            await self._refuse(scope, receive, send)
            return
        count = 0
        started = False

        async def counted() -> Message:
            nonlocal count
            message = await receive()
            if message["type"] == "http.request":
                count += len(message.get("body", b""))
                if count > self.most:
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The rest of the body is never read: the connection closes after the answer.
        reason = f"a request's body is at most {self.most} bytes"
        headers = {"Connection": "close"}
        await JSONResponse({"error": reason}, status_code=413, headers=headers)(
            scope, receive, send
        )


class SessionBySchemeMiddleware:
    """Starlette's session middleware whose cookie is ``Secure`` whenever the request came
    over HTTPS: directly (TLS at uvicorn) or through a proxy trusted to say so (uvicorn's
    proxy headers set the scheme); ``https_only`` makes it Secure always."""

    def __init__(
        self, app: ASGIApp, secret_key: str, max_age: int, https_only: bool = False
    ) -> None:
        def session(secure: bool) -> SessionMiddleware:
            return SessionMiddleware(
                app,
                secret_key=secret_key,
                session_cookie=COOKIE,
                max_age=max_age,
                same_site="lax",
                https_only=secure,
            )

        self.secure = session(True)
        self.plain = self.secure if https_only else session(False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        https = scope.get("scheme") in ("https", "wss")
        await (self.secure if https else self.plain)(scope, receive, send)
