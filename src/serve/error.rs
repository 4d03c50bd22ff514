//! Answers that refuse a request: a status and one line saying why, as
//! JSON `{"error": "…"}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;
use crate::store::query::QueryError;

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line for a person.
    pub message: String,
}

impl ApiError {
    /// A refusal with a status.
    pub fn new(status: StatusCode, message: String) -> ApiError {
        ApiError { status, message }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: String) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: nothing there.
    pub fn not_found(message: String) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 503: the database cannot answer now.
    pub fn unavailable(message: String) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// Whether the database failed (rather than the request).
    pub fn is_unavailable(&self) -> bool {
        self.status == StatusCode::SERVICE_UNAVAILABLE
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::unavailable(e.to_string())
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        match e {
            QueryError::Store(e) => e.into(),
            // The command line's messages name options (`--fen: …`); here
            // they are parameters.
            other => ApiError::bad_request(other.to_string().replace("--", "")),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_errors_name_parameters() {
        let e: ApiError = QueryError::Fen("bad square 99".to_string()).into();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.message, "fen: bad square 99");
        let e: ApiError = StoreError::Missing("x.sqlite".into()).into();
        assert!(e.is_unavailable());
    }
}
