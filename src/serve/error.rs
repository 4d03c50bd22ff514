//! Answers that refuse a request: a status and one line saying why, as
//! JSON `{"error": "…"}`.

use axum::http::{StatusCode, header};
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
        json(self.status, &serde_json::json!({ "error": self.message }))
    }
}

/// A JSON answer. `<`, `>` and `&` are written as `\u003c`, `\u003e`
/// and `\u0026` (they only occur inside strings, where JSON allows the
/// escape), so no text from a file can read as markup, whatever a
/// client makes of the answer.
pub fn json<T: serde::Serialize + ?Sized>(status: StatusCode, value: &T) -> Response {
    let body = match serde_json::to_string(value) {
        Ok(text) => text
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026"),
        Err(e) => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the answer could not be written: {e}"),
            )
                .into_response();
        }
    };
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_are_escaped_in_json() {
        let response = json(StatusCode::OK, &serde_json::json!({"t": "<b>&</b>"}));
        let body = futures_body(response);
        assert_eq!(body, r#"{"t":"\u003cb\u003e\u0026\u003c/b\u003e"}"#);
        let back: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(back["t"], "<b>&</b>");
    }

    fn futures_body(response: Response) -> String {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let bytes = runtime
            .block_on(axum::body::to_bytes(response.into_body(), 1 << 20))
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn query_errors_name_parameters() {
        let e: ApiError = QueryError::Fen("bad square 99".to_string()).into();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.message, "fen: bad square 99");
        let e: ApiError = StoreError::Missing("x.sqlite".into()).into();
        assert!(e.is_unavailable());
    }
}
