//! The simulator's HTTP face: `GET /messages`, `POST /mo`, `POST /outage`, `GET /status` (plain
//! JSON). Run alone it asks for no credentials; texto serves the same answers under
//! `/simulator/`, where it decides who may see and do what ([`Face`]).

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Shared;
use super::outage::Mode;
use super::session::{MoError, deliver_mo};
use super::store::Message;

/// The listing when `limit` is not given.
const DEFAULT_LIMIT: usize = 100;

/// The routes, on the simulator's shared state, for everyone who reaches them.
pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/messages", get(messages))
        .route("/mo", post(mo))
        .route("/outage", post(outage))
        .route("/status", get(status))
        .with_state(Face(shared))
}

/// What the face does, for a server that checks its callers first.
#[derive(Debug, Clone)]
pub struct Face(pub(super) Arc<Shared>);

/// `GET /messages`'s query.
#[derive(Debug, Deserialize)]
pub struct MessagesQuery {
    /// Only the messages to this address.
    pub destination: Option<String>,
    /// At most this many (100 when not given).
    pub limit: Option<usize>,
}

impl MessagesQuery {
    /// How many messages to list at most.
    pub fn limit(&self) -> usize {
        self.limit.unwrap_or(DEFAULT_LIMIT)
    }
}

/// `POST /mo`'s body.
#[derive(Debug, Deserialize)]
pub struct MoRequest {
    /// The handset's number.
    pub from: String,
    /// What it writes.
    pub text: String,
}

/// `POST /outage`'s body.
#[derive(Debug, Deserialize)]
pub struct OutageRequest {
    /// How long.
    pub seconds: u64,
    /// Throttling or dropping the binds.
    pub mode: Mode,
}

impl Face {
    /// Up to `limit` of the messages received before the one at `before` (every one without
    /// it), newest first, optionally to one destination only.
    pub fn messages(&self, destination: Option<&str>, before: Option<u64>, limit: usize) -> Vec<Message> {
        self.0.store().list(destination, before, limit)
    }

    /// `GET /messages`'s answer.
    pub fn listing(messages: &[Message]) -> Json<Value> {
        Json(json!({ "messages": messages }))
    }

    /// A reply from a handset: 200 when handed to a bind, 409 when no ESME is bound.
    pub fn mo(&self, request: &MoRequest) -> (StatusCode, Json<Value>) {
        match deliver_mo(&self.0, &request.from, &request.text) {
            Ok(()) => (StatusCode::OK, Json(json!({ "delivered": true }))),
            Err(MoError::NotBound) => (StatusCode::CONFLICT, Json(json!({ "error": "no ESME is bound" }))),
            Err(MoError::TooLong) => (
                StatusCode::BAD_REQUEST,
                Json(json!({ "error": "from does not fit in a deliver_sm, or text in 255 parts" })),
            ),
        }
    }

    /// Starts an outage.
    pub fn outage(&self, request: &OutageRequest) -> Json<Value> {
        self.0.outage.start(request.mode, request.seconds);
        Json(json!({ "mode": request.mode, "seconds": request.seconds }))
    }

    /// Binds up, deliver_sm not yet answered (or waiting for a bind), and messages received.
    pub fn status(&self) -> Json<Value> {
        let binds = self.0.binds().len();
        Json(json!({ "binds": binds, "undelivered": self.0.undelivered(), "received": self.0.store().received() }))
    }
}

/// What the simulator received, newest first.
async fn messages(State(face): State<Face>, Query(query): Query<MessagesQuery>) -> Json<Value> {
    Face::listing(&face.messages(query.destination.as_deref(), None, query.limit()))
}

/// `POST /mo`.
async fn mo(State(face): State<Face>, Json(request): Json<MoRequest>) -> (StatusCode, Json<Value>) {
    face.mo(&request)
}

/// `POST /outage`.
async fn outage(State(face): State<Face>, Json(request): Json<OutageRequest>) -> Json<Value> {
    face.outage(&request)
}

/// `GET /status`.
async fn status(State(face): State<Face>) -> Json<Value> {
    face.status()
}
