//! The one address classifier: which IP addresses texto refuses to call (SSRF).
//!
//! Webhook URLs are checked with it at creation (`api::webhooks`), and the dial-time check of
//! the addresses a webhook's name resolves to will use it too, so both agree on what is private.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// True when `ip` is not a public unicast address: loopback, private (10/8, 172.16/12,
/// 192.168/16), shared CGNAT (100.64/10), link-local (169.254/16, fe80::/10), "this network"
/// (0/8), unspecified, broadcast, multicast, unique local (fc00::/7), or an IPv6 address that
/// embeds such an IPv4 address: mapped or compatible (`::ffff:0:0/96`, `::/96`), NAT64
/// (`64:ff9b::/96`, and the local-use `64:ff9b:1::/48` as a whole), or a transition form
/// that tunnels to an IPv4 host: 6to4 (`2002::/16`) and Teredo (`2001::/32`) are refused
/// whole, whatever IPv4 address they embed — a receiver has a native address, and checking
/// the embedded one would have to track every IPv4 range that is reserved as well as private.
pub(crate) fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => private_v4(v4),
        IpAddr::V6(v6) => private_v6(v6),
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
}

fn private_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let low_v4 = Ipv4Addr::from(((u32::from(s[6])) << 16) | u32::from(s[7]));
    if ip.is_loopback() || ip.is_unspecified() || ip.is_multicast() {
        return true;
    }
    if (s[0] & 0xfe00) == 0xfc00 || (s[0] & 0xffc0) == 0xfe80 {
        return true; // unique local, link-local
    }
    // IPv4-mapped `::ffff:a.b.c.d` and the deprecated IPv4-compatible `::a.b.c.d`.
    if let Some(v4) = ip.to_ipv4() {
        return private_v4(v4);
    }
    match s[0] {
        // NAT64: the well-known prefix embeds the IPv4 address; the local-use one is private.
        0x0064 if s[1] == 0xff9b && s[2..6] == [0; 4] => private_v4(low_v4),
        0x0064 if s[1] == 0xff9b && s[2] == 0x0001 => true,
        // 6to4 (`2002::/16`) and Teredo (`2001::/32`): tunnels to an IPv4 host, never a receiver's address.
        0x2002 => true,
        0x2001 if s[1] == 0 => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_private;

    fn private(text: &str) -> bool {
        is_private(text.parse().unwrap_or_else(|_| panic!("{text} is an address")))
    }

    #[test]
    fn public_addresses_pass() {
        for public in [
            "93.184.216.34",
            "8.8.8.8",
            "1.1.1.1",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.167.1.1",
            "223.255.255.254",
            "2606:2800:220:1::1",
            "2a00:1450:4007:80e::200e",
            "::ffff:93.184.216.34",
            "64:ff9b::5db8:d822",
            "2001:db9::1",
            "2001:4860:4860::8888",
        ] {
            assert!(!private(public), "{public} is public");
        }
    }

    #[test]
    fn private_ipv4_ranges_are_refused() {
        for refused in [
            "127.0.0.1",
            "127.255.255.254",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.255",
            "0.0.0.0",
            "0.1.2.3",
            "255.255.255.255",
            "224.0.0.1",
            "239.255.255.250",
        ] {
            assert!(private(refused), "{refused} is private");
        }
    }

    #[test]
    fn private_ipv6_ranges_are_refused() {
        for refused in ["::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "ff02::1", "ff05::1:3"] {
            assert!(private(refused), "{refused} is private");
        }
    }

    #[test]
    fn ipv6_forms_embedding_a_private_ipv4_are_refused() {
        for refused in [
            // IPv4-mapped and IPv4-compatible.
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:7f00:1",
            "::10.0.0.1",
            // NAT64, well-known and local-use prefixes.
            "64:ff9b::127.0.0.1",
            "64:ff9b::a00:1",
            "64:ff9b::c0a8:101",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::5db8:d822",
            // 6to4 of 127.0.0.1, 10.0.0.1, 192.168.1.1 and 100.64.0.1.
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:c0a8:101:1::1",
            "2002:6440:1::",
            // Teredo with clients 127.0.0.1, 10.0.0.1 and 192.168.1.1 (inverted).
            "2001:0:4136:e378:8000:63bf:80ff:fffe",
            "2001::f5ff:fffe",
            "2001:0:4136:e378::3f57:fefe",
        ] {
            assert!(private(refused), "{refused} embeds a private IPv4 address");
        }
    }

    #[test]
    fn every_teredo_and_6to4_address_is_refused() {
        for refused in [
            // Embedding public IPv4 addresses (93.184.216.34).
            "2002:5db8:d822::1",
            "2001:0:4136:e378:8000:63bf:a247:27dd",
            // Embedding reserved ones that are not private: 192.0.2.45 (TEST-NET-1) and 240.0.0.1.
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2002:f000:1::1",
        ] {
            assert!(private(refused), "{refused} is a transition address");
        }
    }
}
