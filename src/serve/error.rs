//! Answers that refuse a request: a status and one line saying why, as
//! JSON `{"error": "…", "code": "…", "parts": {…}}`; and how every JSON
//! answer is written.

use std::io;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};

use crate::message::{DatabaseCause, RequestMessage};
use crate::store::StoreError;
use crate::store::param::Wording;
use crate::store::query::QueryError;

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line for a person.
    pub message: String,
    /// Seconds after which the client may ask again (`Retry-After`).
    pub retry_after: Option<u32>,
    /// The message as a code and its parts (every refusal but a fault of
    /// the server has one), written beside it as `code` and `parts`.
    pub said: Option<Box<RequestMessage>>,
}

impl ApiError {
    /// A refusal with a status.
    pub fn new(status: StatusCode, message: String) -> ApiError {
        ApiError {
            status,
            message,
            retry_after: None,
            said: None,
        }
    }

    /// A refusal with a status, and why as a code and its parts.
    pub fn refused(status: StatusCode, said: RequestMessage) -> ApiError {
        ApiError {
            message: said.to_string(),
            said: Some(Box::new(said)),
            ..ApiError::new(status, String::new())
        }
    }

    /// 400: the request cannot be read, and why.
    pub fn bad_request(said: RequestMessage) -> ApiError {
        ApiError::refused(StatusCode::BAD_REQUEST, said)
    }

    /// 404: nothing there.
    pub fn not_found(said: RequestMessage) -> ApiError {
        ApiError::refused(StatusCode::NOT_FOUND, said)
    }

    /// 503: the database cannot answer now.
    pub fn unavailable(said: RequestMessage) -> ApiError {
        ApiError::refused(StatusCode::SERVICE_UNAVAILABLE, said)
    }

    /// 503 with `Retry-After`: too many requests are being answered or
    /// wait ([`RequestMessage::Busy`] says when to ask again).
    pub fn busy(running: usize, waiting: usize, seconds: u32) -> ApiError {
        ApiError {
            retry_after: Some(seconds),
            ..ApiError::unavailable(RequestMessage::Busy {
                running,
                waiting,
                seconds,
            })
        }
    }

    /// Whether the database failed (rather than the request, or the
    /// server being busy).
    pub fn is_unavailable(&self) -> bool {
        self.status == StatusCode::SERVICE_UNAVAILABLE && self.retry_after.is_none()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let (cause, detail) = e.cause();
        ApiError::unavailable(RequestMessage::DatabaseUnavailable {
            why: e.to_string(),
            cause: Some(cause),
            detail,
        })
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        match (e.said(Wording::Parameters), e) {
            (Some(said), _) => ApiError::bad_request(said),
            (None, QueryError::Store(e)) => e.into(),
            (None, other) => ApiError::unavailable(RequestMessage::DatabaseUnavailable {
                why: other.to_string(),
                cause: Some(DatabaseCause::DatabaseFailed),
                detail: None,
            }),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Refusal {
            error: &self.message,
            said: self.said.as_deref(),
        };
        let mut response = json(self.status, &body);
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The body of a refusal: `{"error": "…"}`, and the message's `code` and
/// `parts` beside it.
#[derive(Serialize)]
struct Refusal<'a> {
    error: &'a str,
    #[serde(flatten)]
    said: Option<&'a RequestMessage>,
}

/// JSON as serde_json writes it compactly, but for `<`, `>` and `&`,
/// written as `\u003c`, `\u003e` and `\u0026`. They only occur inside
/// strings (names and values), where JSON allows the escape, so no text
/// from a file can read as markup, whatever a client makes of the answer.
struct MarkupSafe;

impl Formatter for MarkupSafe {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.find(['<', '>', '&']) {
            writer.write_all(&rest.as_bytes()[..at])?;
            writer.write_all(match rest.as_bytes()[at] {
                b'<' => b"\\u003c",
                b'>' => b"\\u003e",
                _ => b"\\u0026",
            })?;
            rest = &rest[at + 1..];
        }
        CompactFormatter.write_string_fragment(writer, rest)
    }
}

/// Appends `value` to `bytes` as markup-safe JSON.
fn write_json<T: Serialize + ?Sized>(bytes: &mut Vec<u8>, value: &T) -> Result<(), ApiError> {
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            bytes, MarkupSafe,
        ))
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the answer could not be written: {e}"),
            )
        })
}

/// A JSON answer, written in one piece.
pub fn json<T: Serialize + ?Sized>(status: StatusCode, value: &T) -> Response {
    let mut body = Vec::new();
    match write_json(&mut body, value) {
        Ok(()) => json_bytes(status, body),
        Err(e) => (e.status, e.message).into_response(),
    }
}

/// A JSON answer already written.
fn json_bytes(status: StatusCode, body: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A JSON array written a record at a time, as the records are read,
/// rather than from a list of them: an answer of a thousand records holds
/// their bytes, not the records themselves.
#[derive(Debug)]
pub struct JsonRecords {
    bytes: Vec<u8>,
    count: usize,
}

impl Default for JsonRecords {
    fn default() -> JsonRecords {
        JsonRecords {
            bytes: vec![b'['],
            count: 0,
        }
    }
}

impl JsonRecords {
    /// Writes one more record.
    ///
    /// # Errors
    /// A record serde cannot write (500: a fault of the server).
    pub fn push<T: Serialize + ?Sized>(&mut self, record: &T) -> Result<(), ApiError> {
        if self.count > 0 {
            self.bytes.push(b',');
        }
        self.count += 1;
        write_json(&mut self.bytes, record)
    }

    /// The answer: 200 and the array.
    pub fn into_response(mut self) -> Response {
        self.bytes.push(b']');
        json_bytes(StatusCode::OK, self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Preset};

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
    fn records_written_one_at_a_time_read_as_the_whole_list() {
        let list = vec![
            serde_json::json!({"a": "<x>", "n": 1}),
            serde_json::json!({"b": ["&", null]}),
        ];
        let mut records = JsonRecords::default();
        for record in &list {
            records.push(record).unwrap();
        }
        let whole = futures_body(json(StatusCode::OK, &list));
        assert_eq!(futures_body(records.into_response()), whole);
        assert_eq!(futures_body(JsonRecords::default().into_response()), "[]");
    }

    #[test]
    fn a_busy_answer_says_when_to_ask_again() {
        let e = ApiError::busy(4, 64, 1);
        assert!(!e.is_unavailable());
        assert_eq!(
            e.message,
            "the server is busy: 4 requests are being answered and 64 wait; try again in 1 s"
        );
        let response = e.into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        let body: serde_json::Value = serde_json::from_str(&futures_body(response)).unwrap();
        assert_eq!(body["code"], "busy");
        assert_eq!(
            body["parts"],
            serde_json::json!({"running": 4, "waiting": 64, "seconds": 1})
        );
    }

    #[test]
    fn query_errors_name_parameters() {
        let fen = crate::notation::Fen::parse("W:Wzz").and_then(|f| f.setup(Geometry::standard()));
        let e: ApiError = QueryError::Fen(fen.unwrap_err().into()).into();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert!(e.message.starts_with("fen: "), "{}", e.message);
        assert!(!e.message.starts_with("fen: --"), "{}", e.message);
        let elsewhere = QueryError::LegalElsewhere {
            message: "ply 1 (1.) 32-28 is illegal".into(),
            said: None,
            variant: "filipino".into(),
            legal_under: vec![Preset::International],
        };
        let e: ApiError = elsewhere.into();
        assert_eq!(
            e.message,
            "moves: ply 1 (1.) 32-28 is illegal under filipino; legal under international: \
             add variant international"
        );
        // A value as given keeps its dashes.
        let e: ApiError = QueryError::Moves("\"1. --\" is not a move".into()).into();
        assert_eq!(e.message, "moves: \"1. --\" is not a move");
        let e: ApiError = StoreError::Missing("x.sqlite".into()).into();
        assert!(e.is_unavailable());
    }
}
