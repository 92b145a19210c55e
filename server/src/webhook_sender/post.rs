//! One attempt: the event's JSON posted with the headers of docs/interface.md §7.6, a 10 s time-out, no
//! redirect followed, no proxy, at most 1 KiB of the answer read. Unless private webhooks are allowed,
//! the address actually dialled must be public (checked again here, after DNS: a name that
//! resolves to 127.0.0.1 is refused like the address itself).

use std::{
    net::{IpAddr, SocketAddr},
    sync::Arc,
    time::{Duration, Instant},
};

use reqwest::{
    Client,
    dns::{Addrs, Name, Resolve, Resolving},
    header::CONTENT_TYPE,
    redirect::Policy,
};
use texto_core::{DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, sign};

use crate::{
    Error,
    store::{AttemptResult, DueEvent},
    webhook_sender::net_guard,
};

/// How long a receiver has to answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);
/// The most of an answer's body read (it is not kept).
const MOST_READ: usize = 1024;

/// Posts events.
pub(crate) struct Poster {
    client: Client,
    allow_private: bool,
}

impl Poster {
    /// A poster; with `allow_private`, loopback and private receivers are allowed (demo, tests).
    pub(crate) fn new(allow_private: bool) -> Result<Poster, Error> {
        // No proxy, whatever HTTP_PROXY and the like say: a proxy would resolve and dial the
        // receiver's name itself, where the check that the address is public cannot see it.
        let mut builder = Client::builder()
            .no_proxy()
            .timeout(ANSWER_WITHIN)
            .redirect(Policy::none())
            .user_agent(concat!("texto/", env!("CARGO_PKG_VERSION"), " (webhooks)"));
        if !allow_private {
            builder = builder.dns_resolver(Arc::new(PublicOnly));
        }
        let client = builder.build().map_err(|e| Error::Command(format!("the webhook HTTP client: {e}")))?;
        Ok(Poster { client, allow_private })
    }

    /// Posts `event` signed at `timestamp` (unix seconds).
    pub(crate) async fn post(&self, event: &DueEvent, timestamp: i64) -> AttemptResult {
        let began = Instant::now();
        let failed = |error: String| AttemptResult {
            http_code: None,
            latency_ms: began.elapsed().as_millis() as i64,
            error: Some(error),
        };
        if let Some(ip) = literal_ip(&event.url).filter(|ip| !self.allow_private && net_guard::is_private(*ip)) {
            return failed(format!("refused: {ip} is not a public address"));
        }
        let mut request = self
            .client
            .post(&event.url)
            .header(CONTENT_TYPE, "application/json")
            .header(TIMESTAMP_HEADER, timestamp.to_string())
            .header(EVENT_HEADER, &event.event)
            .header(DELIVERY_HEADER, &event.delivery_id)
            .body(event.body.clone());
        if let Some(secret) = &event.secret {
            request = request.header(SIGNATURE_HEADER, sign(secret, timestamp, event.body.as_bytes()));
        }
        match request.send().await {
            Ok(mut response) => {
                let code = response.status().as_u16();
                let mut read = 0;
                while read < MOST_READ {
                    match response.chunk().await {
                        Ok(Some(chunk)) => read += chunk.len(),
                        _ => break,
                    }
                }
                let error = (!(200..300).contains(&code)).then(|| format!("HTTP {code}"));
                AttemptResult {
                    http_code: Some(i64::from(code)),
                    latency_ms: began.elapsed().as_millis() as i64,
                    error,
                }
            }
            Err(e) if e.is_timeout() => failed(format!("no answer within {} s", ANSWER_WITHIN.as_secs())),
            Err(e) => failed(describe(&e)),
        }
    }
}

/// The error and its causes, on one line.
fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The URL's host when it is an IP address (names go through [`PublicOnly`]).
fn literal_ip(url: &str) -> Option<IpAddr> {
    match url::Url::parse(url).ok()?.host()? {
        url::Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
        url::Host::Domain(_) => None,
    }
}

/// Resolves names to their public addresses only.
struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let public: Vec<SocketAddr> = found.into_iter().filter(|a| !net_guard::is_private(a.ip())).collect();
            if public.is_empty() {
                return Err(format!("refused: {host} resolves to no public address").into());
            }
            Ok(Box::new(public.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A receiver on loopback that answers 204 and counts connections.
    async fn loopback() -> (u16, Arc<AtomicUsize>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&hits);
        let app = axum::Router::new().fallback(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            async { axum::http::StatusCode::NO_CONTENT }
        });
        tokio::spawn(async move { axum::serve(listener, app).await });
        (port, hits)
    }

    fn event(url: String) -> DueEvent {
        DueEvent {
            id: 1,
            webhook_id: 1,
            url,
            secret: None,
            event: "MO".into(),
            body: "{}".into(),
            delivery_id: "d".into(),
            attempts: 0,
            created_at: chrono::Utc::now(),
        }
    }

    #[tokio::test]
    async fn a_name_or_an_address_that_leads_to_loopback_is_refused_when_dialled() {
        let (port, hits) = loopback().await;
        let guarded = Poster::new(false).expect("a poster");
        for url in [
            format!("http://localhost:{port}/hook"),
            format!("http://127.0.0.1:{port}/hook"),
            format!("http://2130706433:{port}/hook"),
        ] {
            let result = guarded.post(&event(url.clone()), 0).await;
            assert_eq!(result.http_code, None, "{url}");
            assert!(result.error.as_deref().is_some_and(|e| e.contains("refused")), "{url}: {result:?}");
        }
        assert_eq!(hits.load(Ordering::SeqCst), 0, "no connection was made");
        let open = Poster::new(true).expect("a poster");
        let result = open.post(&event(format!("http://localhost:{port}/hook")), 0).await;
        assert_eq!((result.http_code, result.error), (Some(204), None));
        assert_eq!(hits.load(Ordering::SeqCst), 1);
    }
}
