//! Journeys (texto's addition): messages that send themselves. `api` edits them and changes
//! their status, `entries` puts contacts in them and reports where they are, `planner` puts in
//! those the clock brings (a date, a schedule), `runner` does their due steps on every node,
//! `trial` shows the way a number would go, and `webhooks` keeps the addresses its webhook
//! steps post to.

pub(crate) mod api;
pub(crate) mod entries;
pub(crate) mod planner;
pub(crate) mod runner;
pub(crate) mod trial;
mod webhooks;

use axum::Router;
use texto_core::{format_paris, wire::JourneyDto};

use crate::{state::AppState, store::journeys::SavedJourney};

pub(crate) fn router() -> Router<AppState> {
    api::router().merge(entries::router()).merge(trial::router())
}

/// The number a request names (`number`), international.
fn number_of(given: &str) -> Result<i64, crate::Error> {
    texto_core::parse_international(given.trim()).map(|number| number.as_u64() as i64).map_err(|_| {
        crate::Error::Invalid(vec![texto_core::FieldError::new(
            "number",
            "an international number, such as 33612345678",
        )])
    })
}

/// A journey as the wire shows it.
fn dto(saved: &SavedJourney) -> JourneyDto {
    JourneyDto {
        id: Some(saved.id.to_string()),
        status: Some(saved.status.as_str().to_owned()),
        version: Some(saved.version),
        updated_at: Some(format_paris(saved.updated_at)),
        ..saved.journey.to_wire()
    }
}

/// A node's place as a request names it: `2.then.0` is `journey.steps[2].then[0]`.
fn wire_path(node: &str) -> String {
    let mut path = "journey.steps".to_owned();
    for part in node.split('.') {
        match part.parse::<usize>() {
            Ok(index) => path.push_str(&format!("[{index}]")),
            Err(_) => path.push_str(&format!(".{part}")),
        }
    }
    path
}
