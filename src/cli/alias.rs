//! `pdndb alias CANONICAL OTHER…`: give a player's names one canonical
//! name; `--remove NAME`, `--list`.

use std::io::Write;

use clap::Args;

use super::error::{CliError, Exit};
use super::output::write_json_line;
use crate::escape::visible;
use crate::store::StoreError;
use crate::store::alias::AliasError;
use crate::store::aliases::AliasGroup;

/// Arguments of `alias`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("what").required(true))]
pub struct AliasArgs {
    /// The canonical name, then the names that are the same player (as
    /// `players` lists them).
    #[arg(group = "what", num_args = 2.., value_name = "NAME")]
    pub names: Vec<String>,
    /// Take NAME away as an alias (a canonical name: all its aliases).
    #[arg(long, value_name = "NAME", group = "what")]
    pub remove: Option<String>,
    /// List every canonical name with its aliases.
    #[arg(long, group = "what")]
    pub list: bool,
    /// One JSON object per group (`canonical`, `aliases`).
    #[arg(long)]
    pub json: bool,
    /// Seconds to wait for another writer to the database before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::store::lock::DEFAULT_WAIT.as_secs())]
    pub wait: u64,
}

/// Runs `alias`.
///
/// # Errors
/// A missing database, a name refused (an alias of itself, a cycle, a name
/// no game has: nothing is changed), or a database that cannot be written.
pub fn cmd_alias(
    args: &AliasArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    if args.list {
        let store = super::query_args::open_store(db)?;
        for group in store.aliases()? {
            write_group(out, &group, args.json)?;
        }
        return Ok(Exit::Success);
    }
    if std::fs::metadata(db).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Err(StoreError::Missing(db.to_path_buf()).into());
    }
    let mut store = super::query_args::open_writer(db, std::time::Duration::from_secs(args.wait))?;
    if let Some(name) = &args.remove {
        let gone = store.remove_alias(name).map_err(refused)?;
        if args.json {
            write_json_line(out, &serde_json::json!({ "removed": gone }))?;
        } else {
            for name in &gone {
                writeln!(out, "{} is no longer an alias", visible(name))?;
            }
        }
        return Ok(Exit::Success);
    }
    let Some((canonical, others)) = args.names.split_first() else {
        return Err(CliError::Usage(
            "give a canonical name and its aliases".into(),
        ));
    };
    let group = store.add_aliases(canonical, others).map_err(refused)?;
    write_group(out, &group, args.json)?;
    Ok(Exit::Success)
}

/// A refused alias as a usage error (exit status 2); a database failure
/// as itself.
fn refused(e: AliasError) -> CliError {
    match e {
        AliasError::Store(e) => e.into(),
        other => CliError::Usage(format!("{other}; nothing changed")),
    }
}

/// One group: the canonical name, then its aliases indented.
fn write_group(out: &mut impl Write, group: &AliasGroup, json: bool) -> Result<(), CliError> {
    if json {
        return write_json_line(out, group);
    }
    writeln!(out, "{}", visible(&group.canonical))?;
    for alias in &group.aliases {
        writeln!(out, "    {}", visible(alias))?;
    }
    Ok(())
}
