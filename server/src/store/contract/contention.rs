//! Concurrent writes PostgreSQL itself breaks up: a transaction aborted to end a deadlock wrote
//! nothing, and its request is answered as contended (-11, HTTP 503, `Retry-After: 1`), so the
//! client sends it again, instead of an unknown error.

use axum::{http::StatusCode, response::IntoResponse};
use tokio_postgres::NoTls;

use super::backends::postgres_database;
use crate::Error;

#[tokio::test]
async fn a_transaction_aborted_by_a_deadlock_is_answered_as_contended() {
    let Some(url) = postgres_database().await else {
        eprintln!("TEXTO_TEST_POSTGRES is not set: the deadlock scenario needs PostgreSQL");
        return;
    };
    let connect = || async {
        let (client, connection) = tokio_postgres::connect(&url, NoTls).await.expect("a connection");
        tokio::spawn(connection);
        client
    };
    let (first, second) = (connect().await, connect().await);
    first
        .batch_execute("CREATE TABLE rows (id BIGINT PRIMARY KEY); INSERT INTO rows VALUES (1), (2)")
        .await
        .expect("two rows");
    // Each takes one row, then wants the other's: PostgreSQL aborts one of them.
    first.batch_execute("BEGIN; UPDATE rows SET id = id WHERE id = 1").await.expect("the first lock");
    second.batch_execute("BEGIN; UPDATE rows SET id = id WHERE id = 2").await.expect("the second lock");
    let (a, b) = tokio::join!(
        first.batch_execute("UPDATE rows SET id = id WHERE id = 2"),
        second.batch_execute("UPDATE rows SET id = id WHERE id = 1")
    );
    let aborted = a.err().or(b.err()).expect("PostgreSQL broke the deadlock");
    let error = Error::from(aborted);
    assert!(matches!(error, Error::Contended(_)), "a deadlock is a contended write, not an unknown error: {error:?}");
    let response = error.into_response();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers().get("retry-after").map(|v| v.to_str().unwrap_or_default()), Some("1"));
}
