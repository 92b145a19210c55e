//! The byte stream of one bind: plain TCP for `smpp://`, TLS (rustls, with Mozilla's authorities
//! or the connector's own `ca=` file) for `smpps://`.

use std::sync::Arc;

use rustls::{
    ClientConfig, RootCertStore,
    pki_types::{CertificateDer, ServerName, pem::PemObject},
};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    net::TcpStream,
};
use tokio_rustls::TlsConnector;

use super::url::{SmppTarget, Tls};

/// What SMPP PDUs travel over: a TCP connection, or TLS inside one.
pub(super) trait SmppStream: AsyncRead + AsyncWrite + Send + Unpin {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin> SmppStream for T {}

/// `tcp` as the target asks: as it is, or after a TLS handshake that checks the SMSC's
/// certificate against the host name (or IP address) of its URL.
pub(super) async fn secure(tcp: TcpStream, target: &SmppTarget) -> Result<Box<dyn SmppStream>, String> {
    let Some(tls) = &target.tls else { return Ok(Box::new(tcp)) };
    let connector = TlsConnector::from(Arc::new(client_config(tls)?));
    let stream = connector.connect(server_name(&target.address)?, tcp).await.map_err(|e| format!("TLS: {e}"))?;
    Ok(Box::new(stream))
}

/// TLS 1.2 or 1.3 with ring's algorithms, trusting `tls.ca` or else the public authorities.
fn client_config(tls: &Tls) -> Result<ClientConfig, String> {
    let mut roots = RootCertStore::empty();
    match &tls.ca {
        Some(path) => {
            let unreadable = |e: &dyn std::fmt::Display| format!("TLS: the ca file {path}: {e}");
            for certificate in CertificateDer::pem_file_iter(path).map_err(|e| unreadable(&e))? {
                roots.add(certificate.map_err(|e| unreadable(&e))?).map_err(|e| unreadable(&e))?;
            }
            if roots.is_empty() {
                return Err(unreadable(&"no certificate in it"));
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// The name the certificate must carry: the host of `HOST:PORT` (brackets of IPv6 removed).
fn server_name(address: &str) -> Result<ServerName<'static>, String> {
    let host = address.rsplit_once(':').map_or(address, |(host, _)| host);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    ServerName::try_from(host.to_owned()).map_err(|e| format!("TLS: {host} is not a name to check: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_name_is_the_urls_host() {
        assert_eq!(server_name("smsc.example:3550"), Ok(ServerName::try_from("smsc.example").unwrap()));
        assert!(matches!(server_name("127.0.0.1:3550"), Ok(ServerName::IpAddress(_))));
        assert!(matches!(server_name("[::1]:3550"), Ok(ServerName::IpAddress(_))));
    }

    #[test]
    fn a_missing_or_empty_ca_file_is_said() {
        let missing = client_config(&Tls { ca: Some("/nonexistent/ca.pem".into()) }).unwrap_err();
        assert!(missing.contains("/nonexistent/ca.pem"), "{missing}");
        let empty = std::env::temp_dir().join(format!("texto-empty-ca-{}.pem", std::process::id()));
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let said = client_config(&Tls { ca: Some(empty.display().to_string()) }).unwrap_err();
        std::fs::remove_file(&empty).unwrap();
        assert!(said.contains("no certificate"), "{said}");
        assert!(client_config(&Tls { ca: None }).is_ok());
    }
}
