//! A game's tags, players and rules as listings show them.

/// A tag's value from a JSON tag object, cleaned for people
/// ([`crate::export::clean_tag_value`]), `?` when absent or empty (names compared
/// without case; a standard tag also read through its names in other
/// languages, see [`crate::pdn::standard_tag`]).
pub fn tag_text(tags: Option<&serde_json::Map<String, serde_json::Value>>, name: &str) -> String {
    let pairs = tags
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
    crate::pdn::standard_tag(pairs, name)
        .map(crate::export::clean_tag_value)
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

/// The name of the player of `color` as a listing shows it, `?` when
/// there is none: the `White` or `Black` tag, else PlayStrategy's `P1` or
/// `P2` as the game's `variant` says ([`crate::store::listing::player`]).
pub fn player_text(
    tags: &serde_json::Map<String, serde_json::Value>,
    color: crate::rules::Color,
    variant: &str,
) -> String {
    crate::store::listing::player(tags, color, variant)
        .map(crate::export::clean_tag_value)
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

/// The second line of a problem game in `check` and `report`: the rules
/// it was read by, where they came from when known, and the presets and
/// switch settings under which it would read `ok`, as `    read as
/// russian (tag); reads ok under filipino`.
pub fn rules_line(variant: &str, from: Option<&str>, reads_ok_under: &[String]) -> String {
    let mut line = format!("    read as {}", crate::escape::visible(variant));
    if let Some(from) = from {
        line.push_str(&format!(" ({})", crate::escape::visible(from)));
    }
    if !reads_ok_under.is_empty() {
        line.push_str("; reads ok under ");
        line.push_str(&crate::escape::visible(&reads_ok_under.join(", ")));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_line_names_the_source_only_when_known() {
        let under = ["filipino".to_string(), "pool".to_string()];
        assert_eq!(
            rules_line("russian", Some("tag"), &under),
            "    read as russian (tag); reads ok under filipino, pool"
        );
        assert_eq!(rules_line("brazilian", None, &[]), "    read as brazilian");
        assert_eq!(
            rules_line("a\u{1b}b", Some("inferred"), &[]),
            "    read as a\\x1bb (inferred)"
        );
    }
}
