//! The JSON form of a pattern:
//! `{"side": "white"|"black"|"either", "must": [C…], "must_not": [C…],
//! "any_of": [[C…]…]}`, each `C` `{"square": 27 or "a1", "piece":
//! "white_man"}` (pieces as [`PieceClass::name`]s), with `"not": true` in
//! a group for a condition that must not hold.

use serde_json::{Map, Value};

use crate::rules::{Color, Rules};

use super::class::PieceClass;
use super::error::PatternError;
use super::spec::{Cond, Pattern, square_named};

impl Pattern {
    /// Reads a pattern in its JSON form on the rules' board.
    ///
    /// # Errors
    /// JSON that cannot be read, a field or value that is not one of the
    /// form's (naming where it is), or a pattern with no condition.
    pub fn from_json(text: &str, rules: &Rules) -> Result<Pattern, PatternError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| PatternError::whole(format!("not JSON: {e}")))?;
        let Value::Object(fields) = value else {
            return Err(PatternError::whole("a pattern is a JSON object"));
        };
        let mut pattern = Pattern::empty(rules.geometry);
        for (key, value) in &fields {
            match key.as_str() {
                "side" => pattern.side = side(value)?,
                "must" | "must_not" => {
                    for (i, c) in list(value, key)?.iter().enumerate() {
                        let mut c = cond(c, rules, &format!("{key}[{i}]"))?;
                        c.negated = key == "must_not";
                        pattern.require(c);
                    }
                }
                "any_of" => {
                    for (i, group) in list(value, key)?.iter().enumerate() {
                        let name = format!("any_of[{i}]");
                        let conds = list(group, &name)?
                            .iter()
                            .enumerate()
                            .map(|(j, c)| cond(c, rules, &format!("{name}[{j}]")))
                            .collect::<Result<Vec<_>, _>>()?;
                        if conds.is_empty() {
                            return Err(PatternError::at("an empty group", name));
                        }
                        pattern.any_of.push(conds);
                    }
                }
                other => {
                    return Err(PatternError::at(
                        "unknown field (side, must, must_not, any_of)",
                        other,
                    ));
                }
            }
        }
        if pattern.is_empty() {
            return Err(PatternError::whole("the pattern has no condition"));
        }
        Ok(pattern)
    }
}

fn side(value: &Value) -> Result<Option<Color>, PatternError> {
    match value.as_str() {
        Some("white") => Ok(Some(Color::White)),
        Some("black") => Ok(Some(Color::Black)),
        Some("either") => Ok(None),
        _ => Err(PatternError::at(
            format!("{value} is not a side (white, black or either)"),
            "side",
        )),
    }
}

fn list<'v>(value: &'v Value, name: &str) -> Result<&'v Vec<Value>, PatternError> {
    value
        .as_array()
        .ok_or_else(|| PatternError::at("not a JSON array", name))
}

/// `{"square": …, "piece": …, "not": …}`
fn cond(value: &Value, rules: &Rules, name: &str) -> Result<Cond, PatternError> {
    let empty = Map::new();
    let fields = value.as_object().unwrap_or(&empty);
    if let Some(other) = fields
        .keys()
        .find(|k| !matches!(k.as_str(), "square" | "piece" | "not"))
    {
        return Err(PatternError::at(
            format!("unknown field {other} (square, piece, not)"),
            name,
        ));
    }
    let square = match fields.get("square") {
        Some(Value::Number(n)) => square_named(&n.to_string(), rules, name)?,
        Some(Value::String(s)) => square_named(s, rules, name)?,
        _ => {
            return Err(PatternError::at(
                "a square (a number or a name) is missing",
                name,
            ));
        }
    };
    let piece = fields.get("piece").and_then(Value::as_str).unwrap_or("");
    let Some(class) = PieceClass::from_name(piece) else {
        return Err(PatternError::at(
            format!(
                "\"{piece}\" is not a piece (white_man, white_king, white, black_man, black_king, black, piece, empty)"
            ),
            name,
        ));
    };
    let negated = match fields.get("not") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(PatternError::at("\"not\" is true or false", name)),
    };
    Ok(Cond {
        class,
        squares: square.bit(),
        negated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn the_json_form_reads_as_the_written_one() {
        let rules = Preset::English.rules();
        let json = r#"{"side":"white","must":[{"square":27,"piece":"white_man"},
            {"square":28,"piece":"white_man"},{"square":"d2","piece":"black_man"}],
            "must_not":[{"square":1,"piece":"piece"}],
            "any_of":[[{"square":22,"piece":"white"},{"square":23,"piece":"empty","not":true}]]}"#;
        let text = "W:W27,28:B26:X!1:(W*22|E!23)";
        assert_eq!(
            Pattern::from_json(json, &rules).unwrap(),
            Pattern::parse(text, &rules).unwrap()
        );
    }

    #[test]
    fn bad_json_is_named_where_it_is_wrong() {
        let rules = Preset::English.rules();
        for (json, message) in [
            ("[1]", "a pattern is a JSON object"),
            ("{}", "the pattern has no condition"),
            (
                r#"{"must":[{"square":33,"piece":"white"}]}"#,
                "square 33 is not on the english board (1–32), in \"must[0]\"",
            ),
            (
                r#"{"must":[{"square":3,"piece":"queen"}]}"#,
                "\"queen\" is not a piece (white_man, white_king, white, black_man, black_king, black, piece, empty), in \"must[0]\"",
            ),
            (
                r#"{"side":"red","must":[]}"#,
                "\"red\" is not a side (white, black or either), in \"side\"",
            ),
            (r#"{"any_of":[[]]}"#, "an empty group, in \"any_of[0]\""),
            (
                r#"{"shape":1}"#,
                "unknown field (side, must, must_not, any_of), in \"shape\"",
            ),
        ] {
            assert_eq!(
                Pattern::from_json(json, &rules).unwrap_err().to_string(),
                message,
                "{json}"
            );
        }
    }
}
