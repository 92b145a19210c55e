//! Webhooks go straight to their receiver, whatever proxy the server's environment names: a
//! proxy would resolve and dial the receiver's name itself, out of reach of the check that the
//! address dialled is public. The environment is the process's own, so this runs the real
//! `texto` binary with `HTTP_PROXY` and the other proxy variables set.

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use reqwest::Method;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{account, new_database};

/// A `texto serve` process, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A listener on loopback that counts connections; each gets `answer` and is closed.
async fn counting(answer: &'static [u8]) -> (u16, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let port = listener.local_addr().expect("an address").port();
    let count = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&count);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut request = vec![0u8; 16 * 1024];
                let _ = tokio::time::timeout(Duration::from_secs(1), stream.read(&mut request)).await;
                let _ = stream.write_all(answer).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    (port, count)
}

/// Starts `texto serve` on `db` with every proxy variable naming `proxy`; its base URL.
fn serve_behind_proxy(db: &str, dir: &std::path::Path, proxy: &str) -> (Server, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_texto"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--rate-limit", "0", "--allow-private-webhooks"])
        .args(["--builtin-dlr-delay-ms", "20", "--web-dir"])
        .arg(dir)
        .env("RUST_LOG", "warn")
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for variable in ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"] {
        command.env(variable, proxy);
    }
    let mut child = command.spawn().expect("texto serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let server = Server(child);
    let (found, url) = std::sync::mpsc::channel();
    // Read every line, so that texto never writes to a closed pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(at) = line.find("running at ") {
                let _ = found.send(line[at + 11..].trim_end_matches("/app/").to_owned());
            }
        }
    });
    let url = url.recv_timeout(Duration::from_secs(30)).expect("texto prints its address");
    (server, url)
}

#[tokio::test]
async fn webhooks_ignore_the_proxy_the_environment_names() {
    let (proxy_port, through_proxy) = counting(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n").await;
    let (receiver_port, received) = counting(b"HTTP/1.1 204 No Content\r\n\r\n").await;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = new_database(dir.path()).await;
    let db = db.to_str().expect("a path");
    let (_server, base_url) = serve_behind_proxy(db, dir.path(), &format!("http://127.0.0.1:{proxy_port}"));
    let token = account(std::path::Path::new(db), "alice", 100.0).await;
    let client = reqwest::Client::new();
    let call = |method: Method, path: &str, body: serde_json::Value| {
        client.request(method, format!("{base_url}{path}")).bearer_auth(&token).json(&body).send()
    };
    let hook = json!({"webhook": {"type": "DLR", "url": format!("http://127.0.0.1:{receiver_port}/hook")}});
    assert_eq!(call(Method::POST, "/webhook", hook).await.expect("sent").status(), 200);
    let sms = json!({"sms": {"message": {"text": "Proxy", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}});
    assert_eq!(call(Method::POST, "/send", sms).await.expect("sent").status(), 200);

    let start = Instant::now();
    while received.load(Ordering::SeqCst) + through_proxy.load(Ordering::SeqCst) == 0 {
        assert!(start.elapsed() < Duration::from_secs(20), "the receipt's event went nowhere within 20 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(through_proxy.load(Ordering::SeqCst), 0, "nothing went through the proxy");
    assert_eq!(received.load(Ordering::SeqCst), 1, "the receiver got the event directly");
}
