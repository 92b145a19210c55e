//! Serving the built web app under `/app/` (with `/` leading there).

use std::path::Path;

use axum::{Router, response::Redirect, routing::get};
use tower_http::services::{ServeDir, ServeFile};

use crate::app::AppState;

/// `/` → `/app/`, and the files of `web_dir` under `/app/`. Paths that name no file get
/// `index.html`, so the app's own routes survive a reload. A file with a `.gz` twin (written
/// by `scripts/build-web`) goes out as that twin to browsers that take gzip: the app's
/// 1.1 MB `.wasm` travels as about 400 KB.
pub(crate) fn router(web_dir: &Path) -> Router<AppState> {
    if !web_dir.join("index.html").is_file() {
        tracing::warn!(web_dir = %web_dir.display(), "the web app is not built here; /app/ will answer 404 (run scripts/build-web)");
    }
    let files = ServeDir::new(web_dir).precompressed_gzip().fallback(ServeFile::new(web_dir.join("index.html")));
    Router::new().route("/", get(|| async { Redirect::temporary("/app/") })).nest_service("/app", files)
}
