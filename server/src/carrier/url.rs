//! `--smsc` and connectors: `builtin`, `smpp://SYSTEM_ID:PASSWORD@HOST:PORT`, or the same over
//! TLS as `smpps://…` (optionally `ca=NAME`, a PEM file in `--ca-dir`, to trust its authorities
//! instead of the public ones), each with `?binds=N&window=W&rate=R&system_type=T`.

use std::{fmt, str::FromStr};

use super::ca::CaName;

/// Where texto's messages go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmscUrl {
    /// The built-in SMSC simulator, started in-process on a free loopback port, used with
    /// these binds, window and rate (address and credentials are the simulator's).
    Builtin(SmppTarget),
    /// An SMSC over SMPP 3.4.
    Smpp(SmppTarget),
}

/// An SMSC and how to use it.
#[derive(Clone, PartialEq, Eq)]
pub struct SmppTarget {
    /// `host:port`.
    pub address: String,
    /// The bind's system_id.
    pub system_id: String,
    /// The bind's password.
    pub password: String,
    /// Transceiver binds (default 1).
    pub binds: usize,
    /// In-flight submit_sm per bind (default 50).
    pub window: usize,
    /// Submits per second over all binds; 0 is unlimited (the default).
    pub rate: u32,
    /// The bind's system_type (empty by default).
    pub system_type: String,
    /// TLS around the SMPP session (`smpps://`), or plain TCP.
    pub tls: Option<Tls>,
}

/// How a connector checks its SMSC's certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tls {
    /// The PEM file in `--ca-dir` of the authorities to trust instead of the public ones
    /// (Mozilla's list).
    pub ca: Option<CaName>,
}

impl fmt::Debug for SmppTarget {
    /// Everything but the password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmppTarget")
            .field("address", &self.address)
            .field("system_id", &self.system_id)
            .field("binds", &self.binds)
            .field("window", &self.window)
            .field("rate", &self.rate)
            .field("system_type", &self.system_type)
            .field("tls", &self.tls)
            .finish_non_exhaustive()
    }
}

impl FromStr for SmscUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<SmscUrl, String> {
        if let Some(settings) = text.strip_prefix("builtin") {
            let query = match settings {
                "" => "",
                _ => settings.strip_prefix('?').ok_or("expected builtin or builtin?binds=N&window=W&rate=R")?,
            };
            let mut target = SmppTarget {
                address: String::new(),
                system_id: String::new(),
                password: String::new(),
                binds: 1,
                window: 50,
                rate: 0,
                system_type: String::new(),
                tls: None,
            };
            target.settle(form_urlencoded::parse(query.as_bytes()))?;
            return Ok(SmscUrl::Builtin(target));
        }
        let url = url::Url::parse(text)
            .map_err(|e| format!("{e}: expected builtin or smpp://SYSTEM_ID:PASSWORD@HOST:PORT"))?;
        let tls = match url.scheme() {
            "smpp" => None,
            "smpps" => Some(Tls { ca: None }),
            other => return Err(format!("the scheme is {other}: expected smpp:// (or smpps:// for TLS)")),
        };
        let host = url.host_str().ok_or("the SMSC URL has no host")?;
        let port = url.port().ok_or("the SMSC URL has no port (2775 is usual)")?;
        let mut target = SmppTarget {
            address: format!("{host}:{port}"),
            system_id: decode(url.username()),
            password: decode(url.password().unwrap_or("")),
            binds: 1,
            window: 50,
            rate: 0,
            system_type: String::new(),
            tls,
        };
        if target.system_id.is_empty() {
            return Err("the SMSC URL has no system_id (smpp://SYSTEM_ID:PASSWORD@…)".into());
        }
        target.settle(url.query_pairs())?;
        Ok(SmscUrl::Smpp(target))
    }
}

impl SmppTarget {
    /// Applies `binds`, `window`, `rate`, `system_type` and `ca` from a query.
    fn settle<'a>(
        &mut self,
        query: impl Iterator<Item = (std::borrow::Cow<'a, str>, std::borrow::Cow<'a, str>)>,
    ) -> Result<(), String> {
        for (key, value) in query {
            let number = |min: u64| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n >= min)
                    .ok_or_else(|| format!("{key}={value}: expected a whole number from {min}"))
            };
            match key.as_ref() {
                "binds" => self.binds = number(1)?.min(64) as usize,
                "window" => self.window = number(1)?.min(10_000) as usize,
                "rate" => self.rate = number(0)?.min(u64::from(u32::MAX)) as u32,
                "system_type" if value.len() <= 12 => self.system_type = value.into_owned(),
                "system_type" => return Err("system_type: at most 12 characters".into()),
                "ca" => match &mut self.tls {
                    Some(tls) => tls.ca = Some(value.parse()?),
                    None => return Err("ca= is for TLS: use smpps://".into()),
                },
                other => return Err(format!("unknown SMSC setting {other} (binds, window, rate, system_type, ca)")),
            }
        }
        Ok(())
    }
}

impl SmppTarget {
    /// The `smpp://` URL that parses back to this target.
    pub(crate) fn url(&self) -> String {
        let secret =
            |text: &str| percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string();
        format!("{}://{}:{}@{}", self.scheme(), secret(&self.system_id), secret(&self.password), self.settings())
    }

    /// The URL without the password, to show.
    pub(crate) fn shown(&self) -> String {
        format!("{}://{}@{}", self.scheme(), self.system_id, self.settings())
    }

    /// `smpps` over TLS, `smpp` otherwise.
    fn scheme(&self) -> &'static str {
        if self.tls.is_some() { "smpps" } else { "smpp" }
    }

    /// `HOST:PORT?binds=…&window=…&rate=…` (and `system_type`, `ca`).
    fn settings(&self) -> String {
        let mut query = form_urlencoded::Serializer::new(String::new());
        query.append_pair("binds", &self.binds.to_string());
        query.append_pair("window", &self.window.to_string());
        query.append_pair("rate", &self.rate.to_string());
        if !self.system_type.is_empty() {
            query.append_pair("system_type", &self.system_type);
        }
        if let Some(ca) = self.tls.as_ref().and_then(|tls| tls.ca.as_ref()) {
            query.append_pair("ca", ca.as_str());
        }
        format!("{}?{}", self.address, query.finish())
    }
}

/// Percent-decodes a user name or password (the URL keeps them encoded).
fn decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text).decode_utf8_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_and_full_urls_parse() {
        let Ok(SmscUrl::Builtin(builtin)) = "builtin".parse() else { panic!("builtin") };
        assert_eq!((builtin.binds, builtin.window, builtin.rate), (1, 50, 0));
        let Ok(SmscUrl::Builtin(builtin)) = "builtin?binds=2&window=200".parse() else {
            panic!("builtin with settings")
        };
        assert_eq!((builtin.binds, builtin.window), (2, 200));
        let Ok(SmscUrl::Smpp(target)) = "smpp://texto:s%40cret@127.0.0.1:2775?binds=2&window=100&rate=500".parse()
        else {
            panic!("a valid URL")
        };
        assert_eq!(
            (target.address.as_str(), target.system_id.as_str(), target.password.as_str()),
            ("127.0.0.1:2775", "texto", "s@cret")
        );
        assert_eq!((target.binds, target.window, target.rate), (2, 100, 500));
        assert!(!format!("{target:?}").contains("s@cret"));
        assert_eq!(target.url().parse::<SmscUrl>(), Ok(SmscUrl::Smpp(target.clone())));
        assert_eq!(target.shown(), "smpp://texto@127.0.0.1:2775?binds=2&window=100&rate=500");
        let Ok(SmscUrl::Smpp(typed)) = "smpp://a:b@h:1?system_type=VMA".parse() else { panic!("system_type") };
        assert_eq!(typed.system_type, "VMA");
        assert_eq!(typed.url().parse::<SmscUrl>(), Ok(SmscUrl::Smpp(typed)));
    }

    #[test]
    fn smpps_is_tls_with_public_or_named_authorities() {
        let Ok(SmscUrl::Smpp(public)) = "smpps://a:b@smsc.example:3550".parse() else { panic!("smpps") };
        assert_eq!(public.tls, Some(Tls { ca: None }));
        assert_eq!(public.shown(), "smpps://a@smsc.example:3550?binds=1&window=50&rate=0");
        let Ok(SmscUrl::Smpp(private)) = "smpps://a:b@10.0.0.7:3550?ca=carrier-d.pem&binds=2".parse() else {
            panic!("smpps with ca")
        };
        assert_eq!(private.tls, Some(Tls { ca: Some("carrier-d.pem".parse().expect("a name")) }));
        assert_eq!(private.url().parse::<SmscUrl>(), Ok(SmscUrl::Smpp(private.clone())));
        assert!(private.shown().ends_with("&ca=carrier-d.pem"), "{}", private.shown());
        let Ok(SmscUrl::Smpp(plain)) = "smpp://a:b@h:1".parse() else { panic!("smpp") };
        assert_eq!(plain.tls, None);
        for bad in [
            "smpp://a:b@h:1?ca=x.pem",
            "smpps://a:b@h:1?ca=",
            "builtin?ca=x.pem",
            "smppx://a:b@h:1",
            // A path, never: only a file name in --ca-dir.
            "smpps://a:b@h:1?ca=/dev/zero",
            "smpps://a:b@h:1?ca=%2Fetc%2Ftexto%2Fca.pem",
            "smpps://a:b@h:1?ca=../ca.pem",
            "smpps://a:b@h:1?ca=..",
            "smpps://a:b@h:1?ca=sub/ca.pem",
        ] {
            assert!(bad.parse::<SmscUrl>().is_err(), "{bad}");
        }
        let said = "smpps://a:b@h:1?ca=/dev/zero".parse::<SmscUrl>().expect_err("a path");
        assert!(said.contains("--ca-dir"), "{said}");
    }

    #[test]
    fn defaults_and_mistakes() {
        let Ok(SmscUrl::Smpp(target)) = "smpp://a:b@smsc.example:2775".parse() else { panic!("valid") };
        assert_eq!((target.binds, target.window, target.rate), (1, 50, 0));
        for bad in [
            "builtinx",
            "builtin?speed=1",
            "http://a:b@h:1",
            "smpp://h:1",
            "smpp://a:b@h",
            "smpp://a:b@h:1?binds=0",
            "smpp://a:b@h:1?speed=3",
            "smpp://a:b@h:1?system_type=thirteen-char",
            "nonsense",
        ] {
            assert!(bad.parse::<SmscUrl>().is_err(), "{bad}");
        }
    }
}
