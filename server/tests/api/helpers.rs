//! `spawn_app`: a running texto with its own temporary database and web folder.

use tempfile::TempDir;
use texto_server::{App, Config};

/// A texto instance serving on a free loopback port.
pub struct TestApp {
    /// `http://127.0.0.1:port`
    pub base_url: String,
    /// An HTTP client that does not follow redirects, so tests can see them.
    pub client: reqwest::Client,
    /// Holds the database and the web folder; removed when the test ends.
    pub dir: TempDir,
}

/// The page the fake web build serves, so tests can recognise it.
pub const INDEX_HTML: &str = "<!DOCTYPE html><title>texto test build</title>";

/// Starts texto in the background and returns once it accepts connections.
pub async fn spawn_app() -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let web_dir = dir.path().join("dist");
    std::fs::create_dir_all(&web_dir).expect("web dir");
    std::fs::write(web_dir.join("index.html"), INDEX_HTML).expect("index.html");
    let config = Config {
        addr: "127.0.0.1:0".parse().expect("address"),
        db: dir.path().join("data").join("texto.db"),
        web_dir,
    };
    let app = App::build(config).await.expect("the app builds");
    let base_url = app.base_url();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    TestApp { base_url, client, dir }
}

impl TestApp {
    /// `GET {base_url}{path}`.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{}", self.base_url, path))
            .send()
            .await
            .expect("request sent")
    }
}
