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

/// Both players as every listing names them: the side that moves first
/// first (Black in English checkers and pool), each with its colour, as
/// `Anderson (Black) – Wyllie (White)`.
pub fn players_text(tags: &serde_json::Map<String, serde_json::Value>, variant: &str) -> String {
    let first = crate::store::listing::first_side(variant);
    let named = |color: crate::rules::Color| {
        format!(
            "{} ({})",
            player_text(tags, color, variant),
            colour_word(color)
        )
    };
    format!("{} – {}", named(first), named(first.opponent()))
}

/// `White` or `Black`.
pub fn colour_word(color: crate::rules::Color) -> &'static str {
    match color {
        crate::rules::Color::White => "White",
        crate::rules::Color::Black => "Black",
    }
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
    fn players_are_named_first_mover_first_with_their_colours() {
        let tags = serde_json::json!({"White": "Wyllie", "Black": " Anderson "});
        let tags = tags.as_object().unwrap();
        assert_eq!(
            players_text(tags, "english"),
            "Anderson (Black) – Wyllie (White)"
        );
        assert_eq!(
            players_text(tags, "pool+max-capture=on"),
            "Anderson (Black) – Wyllie (White)"
        );
        assert_eq!(
            players_text(tags, "filipino"),
            "Wyllie (White) – Anderson (Black)"
        );
        assert_eq!(
            players_text(&serde_json::Map::new(), "international"),
            "? (White) – ? (Black)"
        );
    }

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
