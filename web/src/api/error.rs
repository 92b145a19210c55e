//! A failed call as the screens show it: the envelope's `message` and each field's problem.

use texto_core::wire::ErrorResponse;

/// An error answer (or no answer at all).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status; 0 when the server could not be reached.
    pub http: u16,
    /// The envelope's negative status (docs/interface.md §1.4); 0 without an envelope.
    pub status: i64,
    /// The envelope's `message`.
    pub message: String,
    /// `(path, problem)` for each field the server named.
    pub problems: Vec<(String, String)>,
}

impl ApiError {
    /// The server could not be reached.
    pub fn network() -> ApiError {
        ApiError { http: 0, status: 0, message: String::new(), problems: Vec::new() }
    }

    /// No token, or one the server refused.
    pub fn unauthorized() -> ApiError {
        ApiError { http: 401, status: -1, message: "Authentication error".into(), problems: Vec::new() }
    }

    /// The answer of an HTTP error status: its envelope when it has one.
    pub fn from_answer(http: u16, body: &str) -> ApiError {
        match serde_json::from_str::<ErrorResponse>(body) {
            Ok(envelope) => ApiError {
                http,
                status: envelope.status,
                message: envelope.message,
                problems: envelope.errors.into_iter().map(|e| (e.path, e.message)).collect(),
            },
            Err(_) => ApiError { http, status: 0, message: format!("HTTP {http}"), problems: Vec::new() },
        }
    }

    /// A 2xx answer the app could not read.
    pub fn unreadable(http: u16, why: &str) -> ApiError {
        ApiError { http, status: -99, message: why.to_owned(), problems: Vec::new() }
    }

    /// The answer was a 401.
    pub fn is_unauthorized(&self) -> bool {
        self.http == 401
    }

    /// True when the server could not be reached.
    pub fn is_network(&self) -> bool {
        self.http == 0
    }

    /// What the server said about `field`: every problem whose path has it as a segment
    /// (`sender` matches `sms.message.sender`, `contacts` matches `npai.contacts.gsm[0].value`).
    pub fn for_field(&self, field: &str) -> Option<String> {
        let matches: Vec<&str> = self
            .problems
            .iter()
            .filter(|(path, _)| path.split('.').any(|segment| segment.split('[').next() == Some(field)))
            .map(|(_, problem)| problem.as_str())
            .collect();
        (!matches.is_empty()).then(|| matches.join("; "))
    }

    /// The whole error in one line: the message and every problem.
    pub fn summary(&self) -> String {
        let mut line = self.message.clone();
        for (path, problem) in &self.problems {
            line.push_str(if line.is_empty() { "" } else { " — " });
            if !path.is_empty() {
                line.push_str(path);
                line.push_str(": ");
            }
            line.push_str(problem);
        }
        line
    }
}
