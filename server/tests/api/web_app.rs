use crate::helpers::{INDEX_HTML, spawn_app};

#[tokio::test]
async fn root_redirects_to_the_app() {
    let app = spawn_app().await;
    let response = app.get("/").await;
    assert!(response.status().is_redirection());
    assert_eq!(response.headers()["location"], "/app/");
}

#[tokio::test]
async fn the_app_is_served_under_app() {
    let app = spawn_app().await;
    let response = app.get("/app/").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.expect("body"), INDEX_HTML);
}

#[tokio::test]
async fn app_routes_without_a_file_get_the_index_page() {
    let app = spawn_app().await;
    let response = app.get("/app/campaigns/42").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.expect("body"), INDEX_HTML);
}
