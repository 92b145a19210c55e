//! `spawn_app`: a running texto with its own temporary database and web folder, and helpers
//! to talk to it as a client of the interface would.

use std::path::{Path, PathBuf};

use reqwest::{Method, RequestBuilder, Response};
use serde_json::Value;
use tempfile::TempDir;
use texto_server::{AccountAction, App, Config, TokenAction, admin};

/// A texto instance serving on a free loopback port.
pub struct TestApp {
    /// `http://127.0.0.1:port`
    pub base_url: String,
    /// An HTTP client that does not follow redirects, so tests can see them.
    pub client: reqwest::Client,
    /// Holds the database and the web folder; removed when the test ends.
    pub dir: TempDir,
    /// A token of the account `alice` (1,000 credits).
    pub token: String,
}

/// The page the fake web build serves, so tests can recognise it.
pub const INDEX_HTML: &str = "<!DOCTYPE html><title>texto test build</title>";

/// Starts texto with default settings.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts texto after `configure` adjusted its configuration, with the account `alice`.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let web_dir = dir.path().join("dist");
    std::fs::create_dir_all(&web_dir).expect("web dir");
    std::fs::write(web_dir.join("index.html"), INDEX_HTML).expect("index.html");
    let mut config = Config::new("127.0.0.1:0".parse().expect("address"), dir.path().join("data").join("texto.db"), web_dir);
    config.rate_limit = 0;
    configure(&mut config);
    let db = config.db.clone();
    let app = App::build(config).await.expect("the app builds");
    let base_url = app.base_url();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let token = account(&db, "alice", 1000.0).await;
    TestApp { base_url, client, dir, token }
}

/// Creates an account through the operator commands and returns a new token of it.
pub async fn account(db: &Path, name: &str, credits: f64) -> String {
    admin::account(db, AccountAction::Create { name: name.into(), credits }).await.expect("account created");
    admin::token(db, TokenAction::Create { account: name.into() }).await.expect("token created")
}

impl TestApp {
    /// A second texto started on this one's database, as after a restart; the token stays.
    pub async fn restarted(self) -> TestApp {
        let config = Config::new("127.0.0.1:0".parse().expect("address"), self.db(), self.dir.path().join("dist"));
        let app = App::build(config).await.expect("the app builds again");
        let base_url = app.base_url();
        tokio::spawn(app.run_until_stopped(std::future::pending()));
        TestApp { base_url, ..self }
    }

    /// The database file.
    pub fn db(&self) -> PathBuf {
        self.dir.path().join("data").join("texto.db")
    }

    /// A request to `path` without any credentials.
    pub fn anonymous(&self, method: Method, path: &str) -> RequestBuilder {
        self.client.request(method, format!("{}{}", self.base_url, path))
    }

    /// `GET {path}` without credentials.
    pub async fn get(&self, path: &str) -> Response {
        self.anonymous(Method::GET, path).send().await.expect("request sent")
    }

    /// A request with `token`, answering JSON.
    pub fn request(&self, token: &str, method: Method, path: &str) -> RequestBuilder {
        self.anonymous(method, path).bearer_auth(token).header("Accept", "application/json")
    }

    /// Sends `body` as JSON with Alice's token; returns the HTTP status and the JSON answer.
    pub async fn json(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        self.json_as(&self.token.clone(), method, path, body).await
    }

    /// Like [`TestApp::json`] with another token.
    pub async fn json_as(&self, token: &str, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self.request(token, method, path);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status().as_u16();
        (status, response.json().await.expect("a JSON answer"))
    }

    /// Sends an XML body with Alice's token, answering XML; returns the status and the text.
    pub async fn xml(&self, method: Method, path: &str, body: Option<&str>) -> (u16, String) {
        let mut request = self.anonymous(method, path).bearer_auth(&self.token).header("Accept", "application/xml");
        if let Some(body) = body {
            request = request.header("Content-Type", "application/xml").body(body.to_owned());
        }
        let response = request.send().await.expect("request sent");
        (response.status().as_u16(), response.text().await.expect("text"))
    }
}
