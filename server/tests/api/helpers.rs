//! `spawn_app`: a running texto with its own temporary database and web folder, and helpers
//! to talk to it as a client of the interface would.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use reqwest::{Method, RequestBuilder, Response};
use serde_json::Value;
use tempfile::TempDir;
use texto_server::{AccountAction, App, Config, HttpErrors, TokenAction, account_commands};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

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
    /// `--db`: the SQLite file in `dir`, or a fresh PostgreSQL database.
    pub db: PathBuf,
}

/// The PostgreSQL server the suite runs on instead of SQLite, when set (`scripts/test` runs the
/// suite a second time this way, on a throw-away cluster).
const ON_POSTGRES: &str = "TEXTO_TEST_API_POSTGRES";

/// Where a new test app keeps its data: a file in `dir`, or under [`ON_POSTGRES`] a new
/// database on that server.
pub async fn new_database(dir: &Path) -> PathBuf {
    let Ok(server) = std::env::var(ON_POSTGRES) else {
        return dir.join("data").join("texto.db");
    };
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let name = format!("texto_api_{}_{}", std::process::id(), NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let (client, connection) =
        tokio_postgres::connect(&server, tokio_postgres::NoTls).await.expect("the PostgreSQL server answers");
    tokio::spawn(connection);
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.expect("a database is created");
    let (base, _) = server.rsplit_once('/').expect("a URL ending in /DATABASE");
    PathBuf::from(format!("{base}/{name}"))
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
    let mut config = Config::new("127.0.0.1:0".parse().expect("address"), new_database(dir.path()).await, web_dir);
    config.rate_limit = 0;
    configure(&mut config);
    let db = PathBuf::from(config.db.to_string());
    let app = App::build(config).await.expect("the app builds");
    let base_url = app.base_url();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    // texto closes a connection idle for its header time-out (10 s); a client that reuses
    // one just as it closes gets an incomplete message, so this one lets them go sooner.
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .pool_idle_timeout(Duration::from_secs(5))
        .build()
        .expect("client");
    let token = account(&db, "alice", 1000.0).await;
    TestApp { base_url, client, dir, token, db }
}

/// Waits until a running texto has read the operator's settings again (price plans, moderation
/// rules, connectors, routes and limits are read each second; the margin is a loaded machine's).
pub async fn settings_read() {
    tokio::time::sleep(Duration::from_millis(2_500)).await;
}

/// Creates the account "bob" with a list of `number`; the list's id (for the tests that say no
/// to another account's list).
pub async fn another_accounts_list(app: &TestApp, number: &str) -> String {
    let bob = account(&app.db(), "bob", 10.0).await;
    let list = serde_json::json!({"list": {"name": "Bob", "contacts": {"gsm": [{"value": number}]}}});
    let (status, body) = app.json_as(&bob, Method::POST, "/list", Some(list)).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().expect("a list id").to_owned()
}

/// Creates an account through the operator commands and returns a new token of it.
pub async fn account(db: &Path, name: &str, credits: f64) -> String {
    account_commands::account(db, AccountAction::Create { name: name.into(), credits, moderated: None })
        .await
        .expect("account created");
    account_commands::token(
        db,
        TokenAction::Create {
            account: name.into(),
            http_errors: HttpErrors::On,
            name: "Tests".into(),
            ttl: None,
            allow_ip: Vec::new(),
            role: texto_core::Role::Owner,
        },
    )
    .await
    .expect("token created")
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

    /// `--db` of this app: its SQLite file, or its PostgreSQL database's URL.
    pub fn db(&self) -> PathBuf {
        self.db.clone()
    }

    /// Runs `sql` (no parameters; the same text must suit SQLite and PostgreSQL) on the app's
    /// database, as a test looks behind the interface; the rows, every value as text.
    pub async fn sql(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        let Some(url) = self.db.to_str().filter(|db| db.starts_with("postgres")) else {
            let db = rusqlite::Connection::open(&self.db).expect("the database opens");
            db.busy_timeout(Duration::from_secs(10)).expect("a busy timeout");
            let mut query = db.prepare(sql).expect("the statement prepares");
            let columns = query.column_count();
            let rows = query.query_map([], |row| {
                (0..columns)
                    .map(|i| {
                        Ok(match row.get::<_, rusqlite::types::Value>(i)? {
                            rusqlite::types::Value::Null => None,
                            rusqlite::types::Value::Integer(n) => Some(n.to_string()),
                            rusqlite::types::Value::Real(x) => Some(x.to_string()),
                            rusqlite::types::Value::Text(t) => Some(t),
                            rusqlite::types::Value::Blob(b) => Some(format!("{b:?}")),
                        })
                    })
                    .collect()
            });
            return rows.expect("the statement runs").collect::<Result<_, _>>().expect("rows");
        };
        let (client, connection) =
            tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("PostgreSQL answers");
        tokio::spawn(connection);
        let messages = client.simple_query(sql).await.expect("the statement runs");
        messages
            .into_iter()
            .filter_map(|message| match message {
                tokio_postgres::SimpleQueryMessage::Row(row) => {
                    Some((0..row.len()).map(|i| row.get(i).map(str::to_owned)).collect())
                }
                _ => None,
            })
            .collect()
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

/// What a raw connection saw: the server's bytes, and after how long it closed (`None` when
/// it was still open at the end).
pub struct RawOutcome {
    /// Everything the server wrote, as text.
    pub answer: String,
    /// Time from the first write to the server closing the connection.
    pub closed_after: Option<Duration>,
}

impl TestApp {
    /// `host:port` of the server, for raw connections.
    pub fn address(&self) -> String {
        self.base_url.trim_start_matches("http://").to_owned()
    }

    /// Opens a raw TCP connection, writes `start` at once, then `trickle` one byte every `pace`,
    /// reading meanwhile; stops when the server closes or `bound` has passed. With `half_close`,
    /// ends the writing side after the last byte (an early EOF for the server).
    pub async fn raw(
        &self,
        start: &[u8],
        trickle: &[u8],
        pace: Duration,
        bound: Duration,
        half_close: bool,
    ) -> RawOutcome {
        let stream = TcpStream::connect(self.address()).await.expect("connected");
        let (mut reader, mut writer) = stream.into_split();
        let began = Instant::now();
        // A write to a connection the server closed fails; the reading side tells what happened.
        let _ = writer.write_all(start).await;
        let (mut answer, mut buffer, mut next) = (Vec::new(), vec![0u8; 64 * 1024], 0);
        let mut tick = tokio::time::interval(pace);
        tick.tick().await;
        if trickle.is_empty() && half_close {
            let _ = writer.shutdown().await;
        }
        let deadline = tokio::time::sleep(bound);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                read = reader.read(&mut buffer) => match read {
                    Ok(0) | Err(_) => return RawOutcome { answer: String::from_utf8_lossy(&answer).into_owned(), closed_after: Some(began.elapsed()) },
                    Ok(n) => answer.extend_from_slice(&buffer[..n]),
                },
                _ = tick.tick(), if next < trickle.len() => {
                    let _ = writer.write_all(&trickle[next..=next]).await;
                    next += 1;
                    if next == trickle.len() && half_close {
                        let _ = writer.shutdown().await;
                    }
                }
                () = &mut deadline => return RawOutcome { answer: String::from_utf8_lossy(&answer).into_owned(), closed_after: None },
            }
        }
    }
}
