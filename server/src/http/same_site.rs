//! Requests from other sites. A browser tells where a request comes from: `Sec-Fetch-Site`
//! (how the page that sent it relates to texto) and `Origin` (that page's origin). Signing in,
//! using a one-time link, and anything done with the session cookie are refused when they name
//! another site: otherwise a page elsewhere could sign a visitor's browser in as someone else,
//! or act with the visitor's session. Clients other than browsers send neither header and are
//! not concerned.

use axum::http::{HeaderMap, header};
use url::Url;

use crate::Error;

/// `Err(OtherSite)` when the request's headers say it comes from a page of another site (a
/// sibling subdomain included), or from an origin a browser hides (`Origin: null`). Texto's
/// own origin is `--public-url`'s, or the one the request was sent to (its `Host`).
pub(crate) fn refuse_other_sites(headers: &HeaderMap, public_url: Option<&str>) -> Result<(), Error> {
    // Browsers that send it set it themselves (no page can), so it decides alone: the page is
    // texto's own, or the person typed the address or followed a bookmark.
    if let Some(site) = headers.get("sec-fetch-site") {
        return match site.as_bytes() {
            b"same-origin" | b"none" => Ok(()),
            _ => Err(Error::OtherSite),
        };
    }
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().ok().and_then(|text| Url::parse(text).ok()).ok_or(Error::OtherSite)?;
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let own = [public_url.map(str::to_owned), host.map(|host| format!("{}://{host}", origin.scheme()))];
    let is_own =
        own.into_iter().flatten().filter_map(|url| Url::parse(&url).ok()).any(|url| url.origin() == origin.origin());
    if is_own { Ok(()) } else { Err(Error::OtherSite) }
}

#[cfg(test)]
mod tests {
    use axum::http::{HeaderMap, HeaderValue};

    use super::refuse_other_sites;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn the_fetch_site_decides_when_a_browser_sends_it() {
        for site in ["same-origin", "none"] {
            let sent = headers(&[("sec-fetch-site", site), ("origin", "https://evil.example")]);
            assert!(refuse_other_sites(&sent, None).is_ok(), "{site}");
        }
        for site in ["cross-site", "same-site", "anything else"] {
            let sent = headers(&[("sec-fetch-site", site), ("host", "texto.example")]);
            assert!(refuse_other_sites(&sent, None).is_err(), "{site}");
        }
    }

    #[test]
    fn an_origin_is_texto_s_own_when_it_names_the_public_url_or_the_host() {
        let public = Some("https://sms.example.com/");
        let own = [
            (&[("origin", "https://sms.example.com")][..], public),
            (&[("origin", "https://sms.example.com:443"), ("host", "internal:8080")][..], public),
            (&[("origin", "http://127.0.0.1:8080"), ("host", "127.0.0.1:8080")][..], None),
            (&[("origin", "https://texto.example"), ("host", "texto.example:443")][..], None),
            (&[("host", "texto.example")][..], None),
        ];
        for (pairs, public_url) in own {
            assert!(refuse_other_sites(&headers(pairs), public_url).is_ok(), "{pairs:?}");
        }
        let other = [
            (&[("origin", "https://evil.example"), ("host", "sms.example.com")][..], public),
            (&[("origin", "https://sms.example.com.evil.example"), ("host", "x")][..], public),
            (&[("origin", "http://127.0.0.1:8081"), ("host", "127.0.0.1:8080")][..], None),
            (&[("origin", "null"), ("host", "texto.example")][..], None),
            (&[("origin", "https://texto.example")][..], None),
        ];
        for (pairs, public_url) in other {
            assert!(refuse_other_sites(&headers(pairs), public_url).is_err(), "{pairs:?}");
        }
    }
}
