//! Slow and idle clients are cut off by hyper's and tower-http's own time-outs (1 s here) while
//! other clients are served; the cap on connections; graceful shutdown.

use std::time::{Duration, Instant};

use texto_server::{App, Config};

use crate::helpers::spawn_app_with;

/// Allowance over a 1 s time-out for a loaded 2-core machine; well under the default 10 s.
const MARGIN: Duration = Duration::from_secs(4);
const SECOND: Duration = Duration::from_secs(1);

#[tokio::test]
async fn a_client_sending_its_headers_a_byte_a_second_is_cut_off_while_others_are_served() {
    let app = spawn_app_with(|c| c.header_read_timeout_secs = 1).await;
    let slow =
        app.raw(b"GET /health HTTP/1.1\r\n", b"Host: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaa", SECOND, SECOND * 30, false);
    let others = async {
        let mut slowest = Duration::ZERO;
        for _ in 0..3 {
            let started = Instant::now();
            assert_eq!(
                app.get("/health").await.status(),
                200,
                "/health answers while a slow client holds a connection"
            );
            slowest = slowest.max(started.elapsed());
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        slowest
    };
    let (slow, slowest) = tokio::join!(slow, others);
    let open = slow.closed_after.expect("the slow client is cut off");
    assert!(open < SECOND + MARGIN, "cut off after {open:?}");
    assert!(slowest < SECOND, "/health took {slowest:?}");
    println!(
        "hostile cases tried (slow headers): 1; open for {open:?} with a 1 s time-out; slowest /health meanwhile {slowest:?}"
    );
}

#[tokio::test]
async fn a_body_trickling_faster_than_the_idle_bound_is_cut_off_at_the_time_out() {
    let app = spawn_app_with(|c| c.body_read_timeout_secs = 2).await;
    let head = format!(
        "POST /send/simulate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{",
        app.token
    );
    // A byte every half second never leaves a piece waited for 2 s; 60 bytes would take 30 s.
    let trickle = [b' '; 60];
    let outcome = app.raw(head.as_bytes(), &trickle, Duration::from_millis(500), SECOND * 40, false).await;
    let open = outcome.closed_after.expect("the trickling client is cut off");
    assert!(outcome.answer.starts_with("HTTP/1.1 408"), "{}", outcome.answer);
    assert!(open < SECOND * 2 + MARGIN, "cut off after {open:?}");
    println!(
        "hostile cases tried (steady trickle): 1; a body a byte every 0.5 s is answered 408 after {open:?} with a 2 s time-out"
    );
}

#[tokio::test]
async fn a_trickling_body_gets_408() {
    let app = spawn_app_with(|c| c.body_read_timeout_secs = 1).await;
    let head = format!(
        "POST /send/simulate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{",
        app.token
    );
    let outcome = app.raw(head.as_bytes(), b"\"sms\"", SECOND * 3, SECOND * 30, false).await;
    let open = outcome.closed_after.expect("the trickling client is cut off");
    assert!(outcome.answer.starts_with("HTTP/1.1 408"), "{}", outcome.answer);
    assert!(outcome.answer.contains("\"status\":-7"), "the envelope: {}", outcome.answer);
    assert!(open < SECOND + MARGIN, "cut off after {open:?}");
    let anonymous = app.raw(head.replace(&app.token, "nope").as_bytes(), b"", SECOND, SECOND * 10, false).await;
    assert!(anonymous.answer.starts_with("HTTP/1.1 401"), "401 before the body is read: {}", anonymous.answer);
    println!(
        "hostile cases tried (slow body): 2; a body a byte every 3 s is answered 408 after {open:?} with a 1 s time-out"
    );
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let app = spawn_app_with(|c| c.header_read_timeout_secs = 1).await;
    let outcome = app.raw(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", b"", SECOND, SECOND * 30, false).await;
    assert!(outcome.answer.starts_with("HTTP/1.1 200"), "{}", outcome.answer);
    let open = outcome.closed_after.expect("the idle connection is closed");
    assert!(open < SECOND + MARGIN, "closed after {open:?}");
    println!("hostile cases tried (idle keep-alive): 1; closed after {open:?}");
}

#[tokio::test]
async fn connections_over_the_cap_wait_for_a_free_one() {
    let app = spawn_app_with(|c| c.max_connections = 1).await;
    let request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    // The first connection is served until it ends; the second waits meanwhile, then is served.
    let first = app.raw(
        b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n",
        b"\r\n",
        SECOND * 2,
        SECOND * 10,
        false,
    );
    let second = async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        app.raw(request, b"", SECOND, SECOND * 10, false).await
    };
    let (first, second) = tokio::join!(first, second);
    let (first_open, second_open) =
        (first.closed_after.expect("first served"), second.closed_after.expect("second served"));
    assert!(
        first.answer.starts_with("HTTP/1.1 200") && second.answer.starts_with("HTTP/1.1 200"),
        "{}\n{}",
        first.answer,
        second.answer
    );
    assert!(second_open >= SECOND, "the second waited for the first: {first_open:?}, {second_open:?}");
}

#[tokio::test]
async fn shutdown_stops_accepting_and_returns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config =
        Config::new("127.0.0.1:0".parse().expect("address"), dir.path().join("texto.db"), dir.path().join("dist"));
    let app = App::build(config).await.expect("the app builds");
    let base_url = app.base_url();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until_stopped(async {
        let _ = stopped.await;
    }));
    assert_eq!(reqwest::get(format!("{base_url}/health")).await.expect("served").status(), 200);
    stop.send(()).expect("the server listens for the signal");
    let ended = tokio::time::timeout(SECOND * 10, server).await.expect("the server stops in time").expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
    assert!(reqwest::get(format!("{base_url}/health")).await.is_err(), "nothing listens after shutdown");
}
