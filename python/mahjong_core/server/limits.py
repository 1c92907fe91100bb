"""The server's limits on connections and joins, per client address and in total: pure Python
(no web framework), used by :mod:`.app` and tested on their own.

* :class:`ConnectionGuard` counts the open connections (HTTP and WebSocket alike: a WebSocket is
  an HTTP connection upgraded) per client address and in total, and gives the answer that
  refuses one more: ``429`` past the address's cap, ``503`` past the total (so that idle or slow
  sockets from one address cannot use up the file descriptors other players need).
* :class:`AddressBuckets` is one token bucket (:class:`~.protocol.RateLimit`) per address, for
  the rate of joins.
"""

from __future__ import annotations

from collections.abc import Hashable

from .protocol import RateLimit

__all__ = ["AddressBuckets", "ConnectionGuard", "http_refusal"]


def http_refusal(status: int, message: str, retry_after_s: int | None = None) -> bytes:
    """A complete ``HTTP/1.1`` response that ends the connection: ``status`` and a one-line
    plain-text ``message`` (a WebSocket client sees it as a failed handshake with that status)."""
    reason = {400: "Bad Request", 408: "Request Timeout", 429: "Too Many Requests",
              503: "Service Unavailable"}[status]
    body = (message + "\n").encode("utf-8")
    head = [f"HTTP/1.1 {status} {reason}", "content-type: text/plain; charset=utf-8",
            f"content-length: {len(body)}", "connection: close"]
    if retry_after_s is not None:
        head.append(f"retry-after: {retry_after_s}")
    return ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body


class ConnectionGuard:
    """Open connections by address; ``per_address`` 0 means no cap per address."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.open: dict[str, set[Hashable]] = {}
        self.count = 0

    def admit(self, conn: Hashable, address: str) -> bytes | None:
        """Count ``conn`` as open; or, past a cap, the response that refuses it (not counted)."""
        mine = self.open.get(address)
        if self.per_address and mine is not None and len(mine) >= self.per_address:
            return http_refusal(429, f"too many connections from your address ({self.per_address} are open, "
                                     "the server's limit per address); close some and try again", 10)
        if self.count >= self.total:
            return http_refusal(503, f"the server is full ({self.total} connections are open); "
                                     "try again in a minute", 60)
        if mine is None:
            mine = self.open[address] = set()
        mine.add(conn)
        self.count += 1
        return None

    def release(self, conn: Hashable, address: str) -> None:
        """``conn`` closed (a second call for the same connection changes nothing)."""
        mine = self.open.get(address)
        if mine is not None and conn in mine:
            mine.discard(conn)
            self.count -= 1
            if not mine:
                del self.open[address]


class AddressBuckets:
    """A :class:`RateLimit` per address (``rate`` per second on average, ``burst`` at once);
    buckets that have refilled are forgotten once there are more than ``keep`` of them."""

    def __init__(self, rate: float, burst: int, keep: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self.buckets: dict[str, RateLimit] = {}

    def allow(self, address: str, now: float) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.keep:
                self._forget_full(now)
            bucket = self.buckets[address] = RateLimit(self.rate, self.burst, now)
        return bucket.allow(now)

    def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may try again (at least 1)."""
        bucket = self.buckets.get(address)
        missing = 1.0 if bucket is None else max(0.0, 1.0 - bucket.tokens)
        return max(1, int(missing / self.rate + 0.999))

    def _forget_full(self, now: float) -> None:
        for address in [a for a, b in self.buckets.items() if b.tokens + (now - b.last) * b.rate >= b.burst]:
            del self.buckets[address]
