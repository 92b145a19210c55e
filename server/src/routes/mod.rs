//! The HTTP routes of the service, one module per resource.

mod health;

use axum::Router;

use crate::app::AppState;

/// Every API route.
pub(crate) fn router() -> Router<AppState> {
    Router::new().merge(health::router())
}
