//! Address ranges: the addresses a token answers to (`allowed_ips`) and the proxies whose
//! `X-Forwarded-For` is believed (`--trusted-proxies`), and the client address they give.

use std::{fmt, net::IpAddr, str::FromStr};

use ipnet::IpNet;

/// One address (`203.0.113.7`, `2001:db8::1`) or a CIDR range (`203.0.113.0/24`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressRange(IpNet);

impl AddressRange {
    /// Whether `address` is in the range (an IPv4-mapped IPv6 address counts as its IPv4 one).
    pub fn contains(&self, address: IpAddr) -> bool {
        self.0.contains(&address.to_canonical())
    }
}

impl FromStr for AddressRange {
    type Err = String;

    fn from_str(text: &str) -> Result<AddressRange, String> {
        let text = text.trim();
        if let Ok(address) = text.parse::<IpAddr>() {
            return Ok(AddressRange(IpNet::from(address.to_canonical())));
        }
        text.parse::<IpNet>()
            .map(|net| AddressRange(net.trunc()))
            .map_err(|_| format!("{}: not an IPv4 or IPv6 address or CIDR range", texto_core::excerpt(text)))
    }
}

impl fmt::Display for AddressRange {
    /// A single address without its `/32` or `/128`; a range in CIDR form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.prefix_len() == self.0.max_prefix_len() { self.0.addr().fmt(f) } else { self.0.fmt(f) }
    }
}

/// Whether any of `ranges` holds `address`.
pub fn any_contains(ranges: &[AddressRange], address: IpAddr) -> bool {
    ranges.iter().any(|range| range.contains(address))
}

/// The client's address: the peer's, unless the peer is a trusted proxy; then, walking
/// `X-Forwarded-For` from its end (its last line first, each line right to left), the first
/// address that is not itself a trusted proxy (the one the nearest trusted proxy saw), or the
/// last trusted one when the header holds no other.
///
/// Every line counts: a proxy that adds a line of its own (rather than appending to the one it
/// received) leaves whatever the client wrote in the lines before it, which only a walk from
/// the end skips.
pub fn client_address<'a>(
    peer: IpAddr,
    forwarded_for: impl DoubleEndedIterator<Item = &'a str>,
    trusted: &[AddressRange],
) -> IpAddr {
    let peer = peer.to_canonical();
    if !any_contains(trusted, peer) {
        return peer;
    }
    let hops = forwarded_for.rev().flat_map(|line| line.rsplit(','));
    let mut client = peer;
    for hop in hops.map(|hop| hop.trim().parse::<IpAddr>().map(|a| a.to_canonical())) {
        match hop {
            Ok(address) if any_contains(trusted, address) => client = address,
            Ok(address) => return address,
            // A hop that is not an address was not written by a proxy texto trusts.
            Err(_) => return client,
        }
    }
    client
}

/// The client a count of tries is kept for: an IPv4 address, or the /64 network of an IPv6
/// one, which one subscriber usually holds whole, so that new addresses of one network buy no
/// new tries (an IPv4 address written in IPv6 is that IPv4 address).
pub fn subscriber(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(list: &[&str]) -> Vec<AddressRange> {
        list.iter().map(|r| r.parse().expect("a range")).collect()
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn ranges_hold_their_addresses_in_both_families() {
        let allowed = ranges(&["203.0.113.0/24", "2001:db8::/32", "198.51.100.7"]);
        for inside in ["203.0.113.200", "2001:db8:1::9", "198.51.100.7", "::ffff:203.0.113.1"] {
            assert!(any_contains(&allowed, ip(inside)), "{inside}");
        }
        for outside in ["203.0.114.1", "2001:db9::1", "198.51.100.8", "127.0.0.1"] {
            assert!(!any_contains(&allowed, ip(outside)), "{outside}");
        }
    }

    #[test]
    fn ranges_read_and_write_back_in_their_shortest_form() {
        assert_eq!(ranges(&["10.1.2.3/8"])[0].to_string(), "10.0.0.0/8");
        assert_eq!(ranges(&[" ::1 "])[0].to_string(), "::1");
        assert_eq!(ranges(&["192.0.2.1/32"])[0].to_string(), "192.0.2.1");
        for bad in ["", "localhost", "10.0.0.0/33", "1.2.3"] {
            assert!(bad.parse::<AddressRange>().is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_for_is_believed_only_from_a_trusted_proxy() {
        let trusted = ranges(&["10.0.0.0/8"]);
        let header = ["198.51.100.1, 203.0.113.9, 10.0.0.2"];
        let client = |peer: &str, lines: &[&str], trusted: &[AddressRange]| {
            client_address(ip(peer), lines.iter().copied(), trusted)
        };
        assert_eq!(client("10.0.0.1", &header, &trusted), ip("203.0.113.9"));
        assert_eq!(client("192.0.2.50", &header, &trusted), ip("192.0.2.50"), "spoofed");
        assert_eq!(client("10.0.0.1", &[], &trusted), ip("10.0.0.1"));
        assert_eq!(client("10.0.0.1", &["junk, 10.0.0.3"], &trusted), ip("10.0.0.3"));
        assert_eq!(client("10.0.0.1", &header, &[]), ip("10.0.0.1"), "no proxy trusted");
    }

    #[test]
    fn every_forwarded_for_line_is_read_from_the_last() {
        let trusted = ranges(&["10.0.0.0/8"]);
        let client = |lines: &[&str]| client_address(ip("10.0.0.1"), lines.iter().copied(), &trusted);
        // The client forged the first line; the proxy added its own line naming whom it saw.
        assert_eq!(client(&["203.0.113.9", "198.51.100.1"]), ip("198.51.100.1"));
        assert_eq!(client(&["203.0.113.9", "198.51.100.1, 10.0.0.2"]), ip("198.51.100.1"));
        assert_eq!(client(&["203.0.113.9", "10.0.0.3", "10.0.0.2"]), ip("203.0.113.9"), "trusted lines skipped");
        assert_eq!(client(&["203.0.113.9", "junk"]), ip("10.0.0.1"), "a last line no proxy wrote");
        assert_eq!(client(&["10.0.0.4", ""]), ip("10.0.0.1"), "an empty last line is not skipped");
    }
}
