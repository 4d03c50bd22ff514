//! Query strings read strictly: each route names the parameters it takes;
//! an unknown, repeated, empty-named or overlong one, or a value that is
//! not what the parameter needs, is refused with a message naming it.

use std::collections::BTreeMap;
use std::str::FromStr;

use super::error::ApiError;
use crate::message::RequestMessage;
use crate::replay::Status;

/// The longest value read, in bytes (a move list of a long game fits).
const MAX_VALUE: usize = 4 * 1024;

/// The parameters that may be given more than once, their values kept
/// in order.
const REPEATABLE: [&str; 2] = ["manoeuvre", "game"];

/// A request's parameters, checked against the names a route takes.
#[derive(Debug, Default)]
pub struct Params {
    values: BTreeMap<String, String>,
    lists: BTreeMap<String, Vec<String>>,
}

impl Params {
    /// Reads a query string (`None`: no `?`), allowing only `names`.
    ///
    /// # Errors
    /// A query that is not form-encoded UTF-8, an unknown or repeated
    /// name, an overlong value.
    pub fn parse(query: Option<&str>, names: &[&str]) -> Result<Params, ApiError> {
        let mut values = BTreeMap::new();
        let mut lists: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let Some(query) = query else {
            return Ok(Params { values, lists });
        };
        let pairs = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                Ok((decode(name)?, decode(value)?))
            })
            .collect::<Result<Vec<(String, String)>, ApiError>>()?;
        for (name, value) in pairs {
            if !names.contains(&name.as_str()) {
                let shown: String = name.chars().take(40).collect();
                return Err(ApiError::bad_request(RequestMessage::UnknownParameter {
                    name: format!("{shown:?}"),
                    takes: names.join(", "),
                }));
            }
            if value.len() > MAX_VALUE {
                return Err(ApiError::bad_request(RequestMessage::TooLong {
                    param: name,
                    bytes: value.len(),
                    most: MAX_VALUE,
                }));
            }
            if REPEATABLE.contains(&name.as_str()) {
                lists.entry(name).or_default().push(value);
            } else if values.insert(name.clone(), value).is_some() {
                return Err(ApiError::bad_request(RequestMessage::GivenTwice {
                    param: name,
                }));
            }
        }
        Ok(Params { values, lists })
    }

    /// Every value of a parameter that may be repeated, in order (empty
    /// ones left out).
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.lists
            .get(name)
            .into_iter()
            .flatten()
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
            .collect()
    }

    /// A text parameter; an empty value counts as absent.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }

    /// A whole number in `range` (`default` when absent).
    ///
    /// # Errors
    /// Not a number, or outside the range.
    pub fn number<T>(
        &self,
        name: &str,
        default: T,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<T, ApiError>
    where
        T: FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        let Some(text) = self.text(name) else {
            return Ok(default);
        };
        let out_of_range = || {
            ApiError::bad_request(RequestMessage::NotInRange {
                param: name.to_string(),
                value: shown(text),
                low: range.start().to_string(),
                high: range.end().to_string(),
            })
        };
        let value: T = text.trim().parse().map_err(|_| out_of_range())?;
        if range.contains(&value) {
            Ok(value)
        } else {
            Err(out_of_range())
        }
    }

    /// An on/off parameter: `1`, `true`, `on` or `0`, `false`, `off`.
    ///
    /// # Errors
    /// Any other value.
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.text(name).map(str::to_ascii_lowercase).as_deref() {
            None | Some("0" | "false" | "off") => Ok(false),
            Some("1" | "true" | "on") => Ok(true),
            Some(other) => Err(ApiError::bad_request(RequestMessage::NotAFlag {
                param: name.to_string(),
                value: shown(other),
            })),
        }
    }

    /// A parameter read by `parse`, its error message prefixed with the
    /// parameter's name.
    ///
    /// # Errors
    /// What `parse` says.
    pub fn parsed<T, E: std::fmt::Display>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<Option<T>, ApiError> {
        self.text(name)
            .map(|text| {
                parse(text).map_err(|e| {
                    ApiError::bad_request(RequestMessage::BadValue {
                        param: name.to_string(),
                        why: e.to_string(),
                    })
                })
            })
            .transpose()
    }

    /// A comma-separated list of statuses (`status=ok,illegal`, any
    /// case); empty when the parameter is absent.
    ///
    /// # Errors
    /// A name that is no status, worded with the parameter's name.
    pub fn statuses(&self, name: &str) -> Result<Vec<Status>, ApiError> {
        let statuses = self.parsed(name, |list| {
            list.split(',')
                .map(|s| s.trim().to_ascii_lowercase().parse::<Status>())
                .collect::<Result<Vec<_>, _>>()
        })?;
        Ok(statuses.unwrap_or_default())
    }
}

/// A form-encoded part (`+` for space, `%XX` bytes) that must decode to
/// UTF-8.
fn decode(part: &str) -> Result<String, ApiError> {
    let spaced = part.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map(|text| text.into_owned())
        .map_err(|_| ApiError::bad_request(RequestMessage::NotUtf8))
}

/// A variant parameter that names no rules (`variant: …`, 400).
pub fn unknown_variant(e: crate::rules::RulesError) -> ApiError {
    ApiError::bad_request(e.said("variant".to_string()))
}

/// The rules a parameter names, if given.
///
/// # Errors
/// A name that is no variant.
pub fn rules(params: &Params, name: &str) -> Result<Option<crate::rules::Rules>, ApiError> {
    params
        .text(name)
        .map(|v| crate::rules::Rules::parse(v).map_err(unknown_variant))
        .transpose()
}

/// A value as it appears in a message: quoted, cut at 40 characters.
pub fn shown(value: &str) -> String {
    let cut: String = value.chars().take(40).collect();
    if cut.len() < value.len() {
        format!("{:?}…", cut)
    } else {
        format!("{cut:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_repeated_names_are_refused() {
        let p = Params::parse(Some("limit=5&fen=W%3AW21"), &["limit", "fen"]).unwrap();
        assert_eq!(p.text("fen"), Some("W:W21"));
        assert_eq!(p.number("limit", 50usize, 1..=1000).unwrap(), 5);
        let e = Params::parse(Some("x=1"), &["limit"]).unwrap_err();
        assert!(
            e.message.contains("unknown parameter \"x\""),
            "{}",
            e.message
        );
        let e = Params::parse(Some("limit=1&limit=2"), &["limit"]).unwrap_err();
        assert_eq!(e.message, "limit: given twice");
        assert!(Params::parse(Some("limit=%FF"), &["limit"]).is_err());
    }

    #[test]
    fn numbers_and_flags_are_checked() {
        let p = Params::parse(
            Some("limit=99999999999999999999999&offset=-1&flip=maybe&ply=7"),
            &["limit", "offset", "flip", "ply"],
        )
        .unwrap();
        assert!(p.number("limit", 50usize, 1..=1000).is_err());
        assert!(p.number("offset", 0usize, 0..=1_000_000).is_err());
        assert!(p.flag("flip").is_err());
        assert_eq!(p.number("ply", 0usize, 0..=10_000).unwrap(), 7);
        assert_eq!(p.number("absent", 3usize, 0..=9).unwrap(), 3);
        assert!(!Params::default().flag("flip").unwrap());
    }
}
