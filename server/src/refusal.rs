//! A request the server turns down: an HTTP status, a message for a person, and for "too many"
//! and "busy" how long to wait. Every refusal is a JSON body `{"error": ...}`.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::time::Duration;
use temple_trails::board_api::ApiError;

/// A request turned down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The status it is answered with.
    pub status: StatusCode,
    /// What was wrong.
    pub message: String,
    /// Seconds to wait before trying again, for 429 and 503.
    pub retry_after_s: Option<u64>,
}

impl Refusal {
    /// A refusal with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
            retry_after_s: None,
        }
    }

    /// The same refusal, telling the client to wait `wait` (at least a second).
    pub fn retry_after(mut self, wait: Duration) -> Refusal {
        self.retry_after_s = Some(wait.as_secs().max(1));
        self
    }

    /// A database failure, logged here and answered without its details.
    pub fn store(err: &sqlx::Error) -> Refusal {
        tracing::error!(error = %err, "database request failed");
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the boards' database did not answer; try again later",
        )
        .retry_after(Duration::from_secs(10))
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(ApiError {
                error: self.message,
            }),
        )
            .into_response();
        if let Some(seconds) = self.retry_after_s {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
