//! Black-box tests: each starts a real texto on port 0 with a fresh database and talks HTTP.

mod helpers;

mod health;
mod web_app;
