"""The client's address behind reverse proxies. A request's peer is the last proxy it went
through; each proxy appends the address it was reached from to ``X-Forwarded-For``. Only
the entries added by proxies we trust can be believed (anyone can send the header with
made-up entries at its start), so the client is the right-most hop that is not a trusted
proxy: walking from the peer leftwards, past every trusted address, to the first one that
is not. A peer that is not trusted is the client itself, whatever the header says."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

MOST_HOPS = 32  # X-Forwarded-For entries looked at (from the right); a longer chain is cut


@dataclass(frozen=True)
class Proxies:
    """The reverse proxies whose ``X-Forwarded-For`` entries are believed."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, networks: Iterable[str]) -> Proxies:
        """From addresses or networks as ``bot.config`` checked them (``10.0.0.0/8``)."""
        return cls(tuple(ipaddress.ip_network(network, strict=False) for network in networks))

    def trusts(self, address: Address | None) -> bool:
        return address is not None and any(address in network for network in self.networks)

    def client(self, peer: str | None, forwarded: Iterable[str]) -> str | None:
        """The client's address, given the peer's and the ``X-Forwarded-For`` headers'
        values (several headers count as one list, in order)."""
        if not self.networks or not self.trusts(_address(peer)):
            return peer
        hops = [hop.strip() for value in forwarded for hop in value.split(",")]
        client = peer
        for hop in reversed(hops[-MOST_HOPS:]):
            address = _address(hop)
            if address is None:  # not an address: the trusted hop after it is all we know
                return client
            client = str(address)
            if not self.trusts(address):
                return client
        return client


def _address(text: str | None) -> Address | None:
    if text is None or len(text) > 64:
        return None
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


NO_PROXIES = Proxies()  # none trusted: the peer is always the client
