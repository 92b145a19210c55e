//! The byte stream of one bind: plain TCP for `smpp://`, TLS (rustls, with Mozilla's authorities
//! or those of the connector's `ca=` file in `--ca-dir`) for `smpps://`.

use std::sync::Arc;

use rustls::{ClientConfig, RootCertStore, pki_types::ServerName};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    net::TcpStream,
};
use tokio_rustls::TlsConnector;

use crate::carrier::{
    ca::{self, CaDir},
    url::{SmppTarget, Tls},
};

/// What SMPP PDUs travel over: a TCP connection, or TLS inside one.
pub(super) trait SmppStream: AsyncRead + AsyncWrite + Send + Unpin {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin> SmppStream for T {}

/// `tcp` as the target asks: as it is, or after a TLS handshake that checks the SMSC's
/// certificate against the host name (or IP address) of its URL; a `ca=` file is read from
/// `ca_dir`.
pub(super) async fn secure(
    tcp: TcpStream,
    target: &SmppTarget,
    ca_dir: Option<&CaDir>,
) -> Result<Box<dyn SmppStream>, String> {
    let Some(tls) = &target.tls else { return Ok(Box::new(tcp)) };
    let connector = TlsConnector::from(Arc::new(client_config(tls, ca_dir)?));
    let stream = connector.connect(server_name(&target.address)?, tcp).await.map_err(|e| format!("TLS: {e}"))?;
    Ok(Box::new(stream))
}

/// TLS 1.2 or 1.3 with ring's algorithms, trusting the authorities of `tls.ca` (in `ca_dir`)
/// or else the public ones.
fn client_config(tls: &Tls, ca_dir: Option<&CaDir>) -> Result<ClientConfig, String> {
    let roots = match &tls.ca {
        Some(name) => ca::authorities(name, ca_dir).map_err(|why| format!("TLS: {why}"))?,
        None => webpki_roots::TLS_SERVER_ROOTS.iter().cloned().collect::<RootCertStore>(),
    };
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
    use crate::carrier::ca::CaName;

    #[test]
    fn the_checked_name_is_the_urls_host() {
        assert_eq!(server_name("smsc.example:3550"), Ok(ServerName::try_from("smsc.example").unwrap()));
        assert!(matches!(server_name("127.0.0.1:3550"), Ok(ServerName::IpAddress(_))));
        assert!(matches!(server_name("[::1]:3550"), Ok(ServerName::IpAddress(_))));
    }

    #[test]
    fn a_ca_file_is_read_from_the_ca_dir_only() {
        let name: CaName = "ca.pem".parse().expect("a name");
        let tls = Tls { ca: Some(name) };
        let without = client_config(&tls, None).map(|_| ()).expect_err("no --ca-dir");
        assert!(without.starts_with("TLS: ca=ca.pem: ") && without.contains("--ca-dir"), "{without}");
        let dir = tempfile::tempdir().expect("a folder");
        let folder: CaDir = dir.path().to_str().expect("a path").parse().expect("a folder");
        let missing = client_config(&tls, Some(&folder)).map(|_| ()).expect_err("no file");
        assert!(missing.contains("no such file"), "{missing}");
        std::fs::write(dir.path().join("ca.pem"), include_str!("../../tests/fixtures/test-authority.pem"))
            .expect("written");
        assert!(client_config(&tls, Some(&folder)).is_ok());
        assert!(client_config(&Tls { ca: None }, None).is_ok());
    }
}
