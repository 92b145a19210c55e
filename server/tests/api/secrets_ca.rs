//! A connector's `ca=` names a PEM file in the folder the operator gave texto at start-up
//! (`--ca-dir`), never a path: whoever may change connectors cannot make every node read any
//! file, and without `--ca-dir` there is no `ca=` at all.

use std::path::Path;

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{App, CaDir, Config, ConnectorAction, OperatorAction, account_commands, routing_commands};

use crate::helpers::{TestApp, spawn_app, spawn_app_with};

const AUTHORITY: &str = include_str!("../fixtures/test-authority.pem");

/// A folder of authorities: `ca.pem`, a link out of it and a link to `/dev/zero`.
fn authorities(outside: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::write(dir.path().join("ca.pem"), AUTHORITY).expect("written");
    std::fs::write(outside.join("elsewhere.pem"), AUTHORITY).expect("written");
    std::os::unix::fs::symlink(outside.join("elsewhere.pem"), dir.path().join("out.pem")).expect("a link");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.pem")).expect("a link");
    dir
}

/// An operator's token.
async fn operator(app: &TestApp) -> String {
    account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator")
}

/// `PUT /operator/connector/B` with `smsc` by `operator`; the status and the answer.
async fn save(app: &TestApp, operator: &str, smsc: &str) -> (u16, Value) {
    app.json_as(operator, Method::PUT, "/operator/connector/B", Some(json!({ "smsc": smsc }))).await
}

/// Asserts `answer` is the -7 envelope about `smsc`, saying `why`.
fn refused(what: &str, (status, answer): (u16, Value), why: &str) {
    assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{what}: {answer}");
    assert_eq!(answer["errors"][0]["path"], "smsc", "{what}: {answer}");
    assert!(answer.to_string().contains(why), "{what} says {why:?}: {answer}");
}

#[tokio::test]
async fn without_ca_dir_a_connector_names_no_ca_file() {
    let app = spawn_app().await;
    let operator = operator(&app).await;
    for (ca, why) in [
        ("ca.pem", "without --ca-dir"),
        ("/dev/zero", "no path"),
        ("%2Fetc%2Fpasswd", "no path"),
        ("..%2Fca.pem", "no path"),
    ] {
        refused(ca, save(&app, &operator, &format!("smpps://texto:secret@127.0.0.1:9?ca={ca}")).await, why);
    }
    let (status, body) = save(&app, &operator, "smpps://texto:secret@127.0.0.1:9").await;
    assert_eq!(status, 200, "the public authorities need no file: {body}");
    let cli = ConnectorAction::Add {
        name: "C".parse().expect("a name"),
        url: "smpps://texto:secret@127.0.0.1:9?ca=ca.pem".into(),
        disabled: false,
        ca_dir: None,
    };
    let said = routing_commands::connector(&app.db(), cli).await.expect_err("refused").to_string();
    assert!(said.contains("without --ca-dir"), "{said}");
}

#[tokio::test]
async fn with_ca_dir_only_a_file_inside_it_is_read() {
    let outside = tempfile::tempdir().expect("a folder");
    let dir = authorities(outside.path());
    let folder: CaDir = dir.path().to_str().expect("a path").parse().expect("a folder");
    let app = spawn_app_with(|config| config.ca_dir = Some(folder.clone())).await;
    let operator = operator(&app).await;
    let (status, body) = save(&app, &operator, "smpps://texto:secret@127.0.0.1:9?ca=ca.pem").await;
    assert_eq!(status, 200, "{body}");
    for (ca, why) in [
        ("missing.pem", "no such file in --ca-dir"),
        ("out.pem", "a link out of --ca-dir"),
        ("zero.pem", "a link out of --ca-dir"),
        (
            &format!("..%2F{}%2Felsewhere.pem", outside.path().file_name().expect("a name").to_str().expect("text")),
            "no path",
        ),
        (&outside.path().join("elsewhere.pem").to_str().expect("text").replace('/', "%2F"), "no path"),
    ] {
        refused(ca, save(&app, &operator, &format!("smpps://texto:secret@127.0.0.1:9?ca={ca}")).await, why);
    }
    let cli = |url: &str, ca_dir: Option<CaDir>| ConnectorAction::Add {
        name: "C".parse().expect("a name"),
        url: url.into(),
        disabled: false,
        ca_dir,
    };
    let url = "smpps://texto:secret@127.0.0.1:9?ca=ca.pem";
    routing_commands::connector(&app.db(), cli(url, Some(folder.clone()))).await.expect("saved with the folder");
    let said = routing_commands::connector(&app.db(), cli("smpps://a:b@127.0.0.1:9?ca=out.pem", Some(folder))).await;
    assert!(said.expect_err("refused").to_string().contains("a link out of --ca-dir"));
}

#[tokio::test]
async fn an_smsc_naming_a_ca_file_needs_ca_dir_to_start() {
    let dir = tempfile::tempdir().expect("a folder");
    let mut config =
        Config::new("127.0.0.1:0".parse().expect("an address"), dir.path().join("texto.db"), dir.path().into());
    config.smsc = "smpps://texto:secret@127.0.0.1:9?ca=ca.pem".parse().expect("a URL");
    let said = App::build(config).await.map(|_| ()).expect_err("texto does not start");
    assert!(said.to_string().contains("--ca-dir"), "{said}");
}

#[tokio::test]
async fn a_connector_saved_with_a_ca_path_by_an_older_texto_stops_alone() {
    let app = spawn_app().await;
    let operator = operator(&app).await;
    // Nothing listens on port 9: B reports itself down, with why, once the sync has run.
    assert_eq!(save(&app, &operator, "smpp://texto:secret@127.0.0.1:9").await.0, 200);
    app.sql(
        "INSERT INTO connectors (name, url, enabled, updated_at)
         VALUES ('Old', 'smpps://texto:secret@127.0.0.1:9?ca=%2Fetc%2Ftexto%2Fca.pem', TRUE, '2026-11-27T00:00:00Z')",
    )
    .await;
    let start = std::time::Instant::now();
    loop {
        let (status, answer) = app.json_as(&operator, Method::GET, "/operator/connectors", None).await;
        assert_eq!(status, 200, "the connectors are listed: {answer}");
        let list = answer["connectors"].as_array().expect("connectors").clone();
        assert!(list.iter().all(|c| c["name"] != "Old"), "the old row cannot run: {answer}");
        let b = list.iter().find(|c| c["name"] == "B").expect("B is listed");
        if b["nodes"][0]["last_error"].is_string() {
            break;
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(10), "B still runs and reports: {answer}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}
