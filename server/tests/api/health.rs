use crate::helpers::spawn_app;

#[tokio::test]
async fn health_answers_ok_once_the_database_is_migrated() {
    let app = spawn_app().await;
    let response = app.get("/health").await;
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["status"], 1);
    assert_eq!(body["database"], "ok");
    if !app.db().to_string_lossy().starts_with("postgres") {
        assert!(app.dir.path().join("data/texto.db").is_file(), "the database file and its folder are created");
    }
}
