//! `signWebhook` and `verifyWebhook` (docs/interface.md §7.6).

use wasm_bindgen::prelude::*;

use super::convert::instant;

/// The `X-Service-Signature` value for `body` sent at `timestamp` (unix seconds).
#[wasm_bindgen(js_name = signWebhook)]
pub fn sign_webhook(secret: &str, timestamp: f64, body: &str) -> String {
    crate::sign(secret, timestamp as i64, body.as_bytes())
}

/// Checks a webhook request: `X-Service-Timestamp`, `X-Service-Signature` and the raw body,
/// at `now` (default: now) within `toleranceSeconds` (default 300). Returns true; throws an
/// Error saying why when the request must be rejected.
#[wasm_bindgen(js_name = verifyWebhook)]
pub fn verify_webhook(
    secret: &str,
    #[wasm_bindgen(js_name = timestampHeader)] timestamp_header: &str,
    #[wasm_bindgen(js_name = signatureHeader)] signature_header: &str,
    body: &str,
    #[wasm_bindgen(unchecked_param_type = "Instant | undefined")] now: JsValue,
    #[wasm_bindgen(js_name = toleranceSeconds)] tolerance_seconds: Option<f64>,
) -> Result<bool, JsError> {
    let now = instant(&now)?.timestamp();
    let tolerance = tolerance_seconds.map_or(300, |t| t as i64);
    crate::verify(secret, timestamp_header, signature_header, body.as_bytes(), now, tolerance)
        .map(|()| true)
        .map_err(|e| JsError::new(&e.to_string()))
}
