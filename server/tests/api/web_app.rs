use crate::helpers::{INDEX_HTML, spawn_app, spawn_app_with};

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
async fn the_app_forbids_framing_foreign_scripts_and_referrers_and_nothing_is_sniffed() {
    let app = spawn_app().await;
    for path in ["/app/", "/app/compose"] {
        let response = app.get(path).await;
        let policy = response.headers()["content-security-policy"].to_str().unwrap_or_default().to_owned();
        assert!(policy.starts_with("default-src 'self'; script-src 'self' 'wasm-unsafe-eval';"), "{path}: {policy}");
        assert!(policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-inline"), "{path}: {policy}");
        assert_eq!(response.headers()["referrer-policy"], "no-referrer", "{path}");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff", "{path}");
    }
    for path in ["/health", "/credits", "/nope", "/"] {
        assert_eq!(app.get(path).await.headers()["x-content-type-options"], "nosniff", "{path}");
    }
}

#[tokio::test]
async fn app_routes_without_a_file_get_the_index_page() {
    let app = spawn_app().await;
    let response = app.get("/app/campaigns/42").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.expect("body"), INDEX_HTML);
}

#[tokio::test]
async fn files_with_a_gzip_twin_go_out_compressed_to_browsers_that_take_it() {
    let plain = b"\0asm the app".to_vec();
    let squeezed = b"\x1f\x8b pretend gzip".to_vec();
    let (plain_file, gz_file) = (plain.clone(), squeezed.clone());
    let app = spawn_app_with(move |config| {
        std::fs::write(config.web_dir.join("app.wasm"), &plain_file).expect("app.wasm");
        std::fs::write(config.web_dir.join("app.wasm.gz"), &gz_file).expect("app.wasm.gz");
    })
    .await;
    let url = format!("{}/app/app.wasm", app.base_url);

    let compressed = app.client.get(&url).header("Accept-Encoding", "gzip").send().await.expect("sent");
    assert_eq!(compressed.status(), 200);
    assert_eq!(compressed.headers()["content-encoding"], "gzip");
    assert_eq!(compressed.headers()["content-type"], "application/wasm");
    assert_eq!(compressed.bytes().await.expect("body").to_vec(), squeezed);

    let identity = app.client.get(&url).send().await.expect("sent");
    assert!(identity.headers().get("content-encoding").is_none());
    assert_eq!(identity.bytes().await.expect("body").to_vec(), plain);
}

#[tokio::test]
async fn each_areas_pages_get_their_bundles_page_with_every_start_script_allowed() {
    let account = "<!DOCTYPE html><title>account area</title><script type=\"module\">start('account')</script>";
    let audience = "<!DOCTYPE html><title>audience</title><script type=\"module\">start('audience')</script>";
    let app = spawn_app_with(move |config| {
        for (bundle, page) in [("account", account), ("audience", audience)] {
            std::fs::create_dir_all(config.web_dir.join(bundle)).expect("bundle dir");
            std::fs::write(config.web_dir.join(bundle).join("index.html"), page).expect("index.html");
        }
    })
    .await;
    for (pages, page) in [(texto_core::ACCOUNT_AREA, account), (texto_core::AUDIENCE_AREA, audience)] {
        for path in pages.iter().map(|p| p.to_string()).chain([format!("{}/7", pages[0])]) {
            let response = app.get(&path).await;
            assert_eq!(response.status(), 200, "{path}");
            let policy = response.headers()["content-security-policy"].to_str().unwrap_or_default().to_owned();
            assert!(policy.matches("'sha256-").count() >= 2, "every page's start script is allowed: {policy}");
            assert_eq!(response.text().await.expect("body"), page, "{path}");
        }
    }
    for path in ["/app/", "/app/compose", "/app/home", "/app/teams"] {
        assert_eq!(app.get(path).await.text().await.expect("body"), INDEX_HTML, "{path}");
    }
}
