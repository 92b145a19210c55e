//! Peak memory of oversized requests, on the real `texto` binary: each ~60 MB
//! body under the 64 MiB limit is refused without the server holding much more than the body.
//! The server's peak resident set is read from `/proc/<pid>/status` (VmHWM).

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
};

/// `{}` items in a ~60 MB JSON body (3 bytes each).
const JSON_ITEMS: usize = 20_971_521;
/// `<gsm/>` items in a ~60 MB XML body (6 bytes each).
const XML_ITEMS: usize = 10_485_760;
/// Peak resident set allowed with one oversized request at a time.
const ONE_AT_A_TIME: u64 = 1024 * 1024 * 1024;
/// Peak resident set allowed with two at once.
const TWO_AT_ONCE: u64 = 1536 * 1024 * 1024;

/// A `texto serve` process on a fresh database, killed when dropped.
struct Server {
    child: Child,
    url: String,
    token: String,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn texto(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_texto")).args(args).output().expect("texto runs");
    assert!(out.status.success(), "texto {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8").trim().to_owned()
}

fn start() -> Server {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("texto.db");
    let db = db.to_str().expect("path");
    texto(&["account", "create", "hostile", "--credits", "1000", "--db", db]);
    let token = texto(&["token", "create", "--account", "hostile", "--db", db]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_texto"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--rate-limit", "0", "--web-dir"])
        .arg(dir.path())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("texto serve starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let url = loop {
        let line = lines.next().expect("texto prints its address").expect("a line");
        if let Some(at) = line.find("running at ") {
            break line[at + 11..].trim_end_matches("/app/").to_owned();
        }
    };
    Server { child, url, token, _dir: dir }
}

fn peak_bytes(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).expect("/proc status");
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kib * 1024
}

fn json_items(prefix: &str, suffix: &str) -> Vec<u8> {
    let mut body = Vec::with_capacity(prefix.len() + JSON_ITEMS * 3 + suffix.len());
    body.extend_from_slice(prefix.as_bytes());
    for i in 0..JSON_ITEMS {
        body.extend_from_slice(if i == 0 { b"{}" } else { b",{}" });
    }
    body.extend_from_slice(suffix.as_bytes());
    body
}

/// The four shapes of the issue: path, content type, body.
fn shapes() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let mut xml = b"<sms><message><text>x</text></message><recipients>".to_vec();
    xml.extend(std::iter::repeat_n(b"<gsm/>".as_slice(), XML_ITEMS).flatten());
    xml.extend_from_slice(b"</recipients></sms>");
    vec![
        ("/list", "application/json", json_items(r#"{"list":{"name":"big","contacts":{"gsm":["#, "]}}}")),
        ("/npai", "application/json", json_items(r#"{"npai":{"contacts":{"gsm":["#, "]}}}")),
        ("/send", "application/json", json_items(r#"{"sms":{"message":{"text":"x"},"recipients":{"gsm":["#, "]}}}")),
        ("/send/simulate", "application/xml", xml),
    ]
}

/// Sends one oversized body; it must be refused (-7) with a short answer.
async fn refused(server: &Server, path: &str, content_type: &str, body: Vec<u8>) {
    let size = body.len();
    assert!(size < 64 * 1024 * 1024, "{path}: {size} bytes is under the body limit");
    let answer = reqwest::Client::new()
        .post(format!("{}{path}", server.url))
        .bearer_auth(&server.token)
        .header("Content-Type", content_type)
        .header("Accept", "application/json")
        .body(body)
        .send()
        .await
        .expect("answered");
    assert_eq!(answer.status(), 422, "{path}");
    let text = answer.text().await.expect("body");
    assert!(text.len() < 64 * 1024, "{path}: a {} byte answer", text.len());
    assert!(text.contains("\"status\":-7"), "{path}: {text}");
}

#[tokio::test]
async fn oversized_bodies_cost_about_their_size() {
    let server = start();
    let mut tried = 0;
    for (path, content_type, body) in shapes() {
        refused(&server, path, content_type, body).await;
        tried += 1;
        let peak = peak_bytes(&server);
        assert!(peak < ONE_AT_A_TIME, "{path}: peak RSS {} MiB", peak >> 20);
        println!("{path}: peak RSS so far {} MiB", peak >> 20);
    }

    let mut pair = shapes();
    let (path_b, type_b, body_b) = pair.remove(2);
    let (path_a, type_a, body_a) = pair.remove(0);
    tokio::join!(refused(&server, path_a, type_a, body_a), refused(&server, path_b, type_b, body_b));
    tried += 2;
    let peak = peak_bytes(&server);
    assert!(peak < TWO_AT_ONCE, "two at once: peak RSS {} MiB", peak >> 20);
    println!("two at once: peak RSS {} MiB; hostile cases tried: {tried}", peak >> 20);
}
