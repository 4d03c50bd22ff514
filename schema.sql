-- pdndb database schema: the one source of the schema, built into the binary.
--
-- A list of numbered steps, applied in order and tracked by PRAGMA
-- user_version (= the last step applied). Steps are append-only: released
-- steps are never edited; changes come as new steps. A new database is
-- created from src/store/schema/new_database.sql, what these steps make of
-- an empty database, at once; after a new step, a test of
-- src/store/schema/migrate.rs writes it again (run with
-- PDNDB_WRITE_NEW_SCHEMA set) and checks that it is what the steps make.
--
-- Every database pdndb writes carries PRAGMA application_id 0x50444E64
-- (`PDNd` in ASCII), set whenever it is opened for writing (a header field,
-- not a step): a file with another application_id, or with tables but
-- neither the mark nor pdndb's `source_file` and `game`, is not pdndb's and
-- is left alone.
--
-- Zobrist keys in `position.key` follow src/rules/zobrist.rs (its Stability
-- section): changing the key tables needs a step that rehashes every key.
--
-- An import into a database that holds no game drops the game table's
-- indexes that only queries read (game_moves_key, game_black, game_pair,
-- game_event, game_site, game_day) and builds them at its end; a writer
-- that opens a database without them builds them first
-- (src/store/query_indexes.rs). A step that drops or changes one of them
-- must allow for it being missing (DROP INDEX IF EXISTS).

-- step 1: source files, games, provenance, the position index
CREATE TABLE source_file (
    id          INTEGER PRIMARY KEY,
    path        TEXT    NOT NULL,          -- as given on the command line
    size        INTEGER NOT NULL,          -- bytes
    hash        TEXT    NOT NULL UNIQUE,   -- BLAKE3 of the content, hex
    games       INTEGER NOT NULL DEFAULT 0,-- games read from it
    complete    INTEGER NOT NULL DEFAULT 0,-- 1 once every game is stored
    imported_at TEXT    NOT NULL
);

CREATE TABLE game (
    id              INTEGER PRIMARY KEY,
    status          TEXT    NOT NULL,      -- ok, ambiguous, illegal, unreadable, unsupported
    variant         TEXT    NOT NULL,      -- preset plus switches, e.g. filipino+promotion=stop
    preset          TEXT    NOT NULL,      -- the preset alone (or international, unknown)
    notation        TEXT,                  -- numeric, vismin, luzon, dama
    white           TEXT    NOT NULL DEFAULT '',  -- trimmed tag values
    black           TEXT    NOT NULL DEFAULT '',
    event           TEXT    NOT NULL DEFAULT '',
    date            TEXT    NOT NULL DEFAULT '',
    result          TEXT,                  -- as written (Result tag, else terminator)
    outcome         INTEGER NOT NULL DEFAULT 0, -- 1 White won, 2 Black won, 3 draw, 0 none
    plies           INTEGER,
    start_fen       TEXT,                  -- NULL: the variant's initial position
    moves           BLOB,                  -- first reading: per ply, the index of the move among
                                           -- the legal moves ordered by canonical numeric path
                                           -- (from square, then landing squares), as LEB128
    moves_key       INTEGER,               -- hash of variant, start and moves (twins, duplicates)
    record          TEXT                   -- the check record (JSON) without file, index, line, tags;
                                           -- NULL for an ok game without resolved ambiguities
);
CREATE INDEX game_moves_key ON game (moves_key);

CREATE TABLE provenance (
    file        INTEGER NOT NULL REFERENCES source_file (id),
    idx         INTEGER NOT NULL,          -- 1-based game index in the file
    game        INTEGER NOT NULL REFERENCES game (id),
    byte_offset INTEGER NOT NULL,          -- 0-based
    line        INTEGER NOT NULL,          -- 1-based
    tags        TEXT    NOT NULL,          -- original tags, JSON object
    text        BLOB    NOT NULL,          -- original game text (tags and moves), deflate
    PRIMARY KEY (file, idx)
) WITHOUT ROWID;
CREATE INDEX provenance_game ON provenance (game);

CREATE TABLE move_name (
    id   INTEGER PRIMARY KEY,
    name TEXT    NOT NULL UNIQUE          -- canonical numeric full path, e.g. 30x23x14x21
);

-- Positions of games being imported, merged into `position` in key order at
-- the end of each import (sorted inserts keep the index compact and fast).
CREATE TABLE position_pending (
    key  INTEGER NOT NULL,
    game INTEGER NOT NULL,
    ply  INTEGER NOT NULL,
    next INTEGER
);

CREATE TABLE position (
    key  INTEGER NOT NULL,                 -- Zobrist key (as a signed 64-bit integer)
    game INTEGER NOT NULL,
    ply  INTEGER NOT NULL,                 -- first position number at which the game is there
    next INTEGER,                          -- move_name id of the move played from there, if certain
    PRIMARY KEY (key, game)
) WITHOUT ROWID;

-- step 2: the index is written from memory, in key order, during an import
-- (no staging table); `index_state` says up to which game the index is
-- complete, so that an import killed before writing a game's positions
-- indexes that game when it runs again.
INSERT OR IGNORE INTO position (key, game, ply, next)
    SELECT key, game, ply, next FROM position_pending ORDER BY key, game;
DROP TABLE position_pending;
CREATE TABLE index_state (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_through INTEGER NOT NULL       -- every game with id <= this is in `position`
);
INSERT INTO index_state (id, indexed_through) SELECT 1, coalesce(max(id), 0) FROM game;

-- step 3: the games of each start position by first move and outcome, kept
-- by every import with the games themselves, so that the tree of a start
-- position (where every game of a collection is) reads a few rows instead of
-- one row per game. `next` is 0 when the first move is not certain.
CREATE TABLE start_move (
    start_key INTEGER NOT NULL,            -- Zobrist key of the start position
    variant   TEXT    NOT NULL,
    preset    TEXT    NOT NULL,
    start_fen TEXT    NOT NULL,            -- '' for the variant's initial position
    next      INTEGER NOT NULL,            -- move_name id, 0 when not certain
    outcome   INTEGER NOT NULL,            -- as game.outcome
    games     INTEGER NOT NULL,
    PRIMARY KEY (start_key, variant, start_fen, next, outcome)
) WITHOUT ROWID;
-- Sorted runs of index rows that a large import sets aside until it merges
-- them into `position` (each chunk: rows of key, game, ply, next as
-- little-endian 8, 8, 4 and 4 bytes, sorted by key and game).
CREATE TABLE position_run (
    id   INTEGER PRIMARY KEY,
    run  INTEGER NOT NULL,
    rows BLOB    NOT NULL
);
INSERT INTO start_move
    SELECT p.key, g.variant, g.preset, coalesce(g.start_fen, ''), coalesce(p.next, 0), g.outcome, count(*)
    FROM position p JOIN game g ON g.id = p.game WHERE p.ply = 0
    GROUP BY p.key, g.variant, g.preset, coalesce(g.start_fen, ''), coalesce(p.next, 0), g.outcome;

-- step 4: where each game's rules came from (`forced`, `tag`, `inferred`,
-- `default`; NULL for games stored before rules were inferred from the
-- record), and per file the options it was imported with (JSON object:
-- `variant`, `rules`, `notation`; NULL when unknown) and the version of the
-- rules and their inference that read it: a file read by an older version
-- is read again by the next import of it, or by `pdndb recheck`.
ALTER TABLE game ADD COLUMN variant_from TEXT;
ALTER TABLE source_file ADD COLUMN options TEXT;
ALTER TABLE source_file ADD COLUMN reading INTEGER NOT NULL DEFAULT 1;

-- step 5: a file is known by where it is: `location` is its absolute path
-- (symbolic links resolved; NULL for files stored before, known by `path`),
-- and importing that place again with new content or options replaces its
-- games. The same content may now be imported from several places, so
-- `hash` is no longer unique.
CREATE TABLE source_file_at (
    id          INTEGER PRIMARY KEY,
    path        TEXT    NOT NULL,          -- as given on the command line
    location    TEXT,                      -- absolute, symbolic links resolved
    size        INTEGER NOT NULL,          -- bytes
    hash        TEXT    NOT NULL,          -- BLAKE3 of the content, hex
    games       INTEGER NOT NULL DEFAULT 0,-- games read from it
    complete    INTEGER NOT NULL DEFAULT 0,-- 1 once every game is stored
    imported_at TEXT    NOT NULL,
    options     TEXT,                      -- as in step 4
    reading     INTEGER NOT NULL DEFAULT 1 -- as in step 4
);
INSERT INTO source_file_at (id, path, location, size, hash, games, complete, imported_at, options, reading)
    SELECT id, path, NULL, size, hash, games, complete, imported_at, options, reading FROM source_file;
DROP TABLE source_file;
ALTER TABLE source_file_at RENAME TO source_file;
CREATE INDEX source_file_location ON source_file (location);
CREATE INDEX source_file_path ON source_file (path);

-- step 6: games listed by their tags, and each player's record. `site` is
-- the Site tag (trimmed), `day` the Date tag normalised (`YYYY.MM.DD`, `??`
-- for unknown parts; NULL when it cannot be read or its year is unknown).
-- `player_stat` counts each player's games and results per variant (names
-- as stored, '' left out) and `tag_value` the games of each event, site,
-- variant and preset (`preset`: supported games only, the others under ''):
-- the triggers below keep both right under every write to `game`, so a
-- query scans a few thousand names instead of a million games.
ALTER TABLE game ADD COLUMN site TEXT NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN day TEXT;
UPDATE game SET
    site = coalesce((SELECT trim(j.value) FROM provenance p, json_each(p.tags) j
                     WHERE p.game = game.id AND lower(j.key) = 'site' AND j.type = 'text'
                     ORDER BY p.file, p.idx LIMIT 1), ''),
    day = pdndb_day(date);
-- Short keys: a new game lands at the end of its name's (pair's, event's,
-- site's) entries, so an import touches few index pages. The pair index
-- counts a player's games as White plus as Black less those against
-- themselves (or against another name matched alike) without reading them.
CREATE INDEX game_white ON game (white);
CREATE INDEX game_black ON game (black);
CREATE INDEX game_pair ON game (white, black);
CREATE INDEX game_event ON game (event);
CREATE INDEX game_site ON game (site);
CREATE INDEX game_day ON game (day);
CREATE TABLE player_stat (
    name      TEXT    NOT NULL,            -- as in game.white / game.black
    variant   TEXT    NOT NULL,
    preset    TEXT    NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,            -- by the variant's reading of the result
    draws     INTEGER NOT NULL,
    losses    INTEGER NOT NULL,
    unknown   INTEGER NOT NULL,            -- no result, `*`, `0-0`
    first_day TEXT,                        -- least and greatest game.day
    last_day  TEXT,
    PRIMARY KEY (name, variant)
) WITHOUT ROWID;
INSERT INTO player_stat
    SELECT name, variant, preset, count(*), sum(outcome = won), sum(outcome = 3),
           sum(outcome = lost), sum(outcome NOT IN (1, 2, 3)), min(day), max(day)
    FROM (SELECT white AS name, variant, preset, outcome, day, 1 AS won, 2 AS lost FROM game WHERE white <> ''
          UNION ALL
          SELECT black, variant, preset, outcome, day, 2, 1 FROM game WHERE black <> '')
    GROUP BY name, variant;
CREATE TABLE tag_value (
    field TEXT    NOT NULL,                -- 'event', 'site', 'variant' or 'preset'
    value TEXT    NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (field, value)
) WITHOUT ROWID;
INSERT INTO tag_value SELECT 'event', event, count(*) FROM game GROUP BY event;
INSERT INTO tag_value SELECT 'site', site, count(*) FROM game GROUP BY site;
INSERT INTO tag_value SELECT 'variant', variant, count(*) FROM game GROUP BY variant;
INSERT INTO tag_value
    SELECT 'preset', CASE WHEN status = 'unsupported' THEN '' ELSE preset END, count(*) FROM game
    GROUP BY 2;

CREATE TRIGGER game_tags_insert AFTER INSERT ON game BEGIN
    INSERT INTO player_stat (name, variant, preset, games, wins, draws, losses, unknown, first_day, last_day)
        SELECT new.white, new.variant, new.preset, 1, new.outcome = 1, new.outcome = 3,
               new.outcome = 2, new.outcome NOT IN (1, 2, 3), new.day, new.day WHERE new.white <> ''
        UNION ALL
        SELECT new.black, new.variant, new.preset, 1, new.outcome = 2, new.outcome = 3,
               new.outcome = 1, new.outcome NOT IN (1, 2, 3), new.day, new.day WHERE new.black <> ''
        ON CONFLICT DO UPDATE SET
            games = games + excluded.games, wins = wins + excluded.wins,
            draws = draws + excluded.draws, losses = losses + excluded.losses,
            unknown = unknown + excluded.unknown,
            first_day = CASE WHEN first_day IS NULL OR excluded.first_day < first_day
                             THEN coalesce(excluded.first_day, first_day) ELSE first_day END,
            last_day = CASE WHEN last_day IS NULL OR excluded.last_day > last_day
                            THEN coalesce(excluded.last_day, last_day) ELSE last_day END;
    INSERT INTO tag_value (field, value, games) VALUES ('event', new.event, 1), ('site', new.site, 1),
        ('variant', new.variant, 1),
        ('preset', CASE WHEN new.status = 'unsupported' THEN '' ELSE new.preset END, 1)
        ON CONFLICT DO UPDATE SET games = games + 1;
END;

CREATE TRIGGER game_tags_delete AFTER DELETE ON game BEGIN
    UPDATE player_stat SET games = games - 1, wins = wins - (old.outcome = 1),
           draws = draws - (old.outcome = 3), losses = losses - (old.outcome = 2),
           unknown = unknown - (old.outcome NOT IN (1, 2, 3))
        WHERE name = old.white AND variant = old.variant;
    UPDATE player_stat SET games = games - 1, wins = wins - (old.outcome = 2),
           draws = draws - (old.outcome = 3), losses = losses - (old.outcome = 1),
           unknown = unknown - (old.outcome NOT IN (1, 2, 3))
        WHERE name = old.black AND variant = old.variant;
    DELETE FROM player_stat WHERE name IN (old.white, old.black) AND variant = old.variant AND games <= 0;
    UPDATE player_stat SET
        first_day = (SELECT min(d) FROM (
            SELECT min(day) AS d FROM game WHERE white = player_stat.name AND variant = player_stat.variant
            UNION ALL
            SELECT min(day) FROM game WHERE black = player_stat.name AND variant = player_stat.variant)),
        last_day = (SELECT max(d) FROM (
            SELECT max(day) AS d FROM game WHERE white = player_stat.name AND variant = player_stat.variant
            UNION ALL
            SELECT max(day) FROM game WHERE black = player_stat.name AND variant = player_stat.variant))
        WHERE name IN (old.white, old.black) AND variant = old.variant
          AND (first_day = old.day OR last_day = old.day);
    UPDATE tag_value SET games = games - 1
        WHERE (field = 'event' AND value = old.event) OR (field = 'site' AND value = old.site)
           OR (field = 'variant' AND value = old.variant)
           OR (field = 'preset' AND value = CASE WHEN old.status = 'unsupported' THEN '' ELSE old.preset END);
    DELETE FROM tag_value WHERE games <= 0
        AND ((field = 'event' AND value = old.event) OR (field = 'site' AND value = old.site)
           OR (field = 'variant' AND value = old.variant)
           OR (field = 'preset' AND value = CASE WHEN old.status = 'unsupported' THEN '' ELSE old.preset END));
END;

-- An update counts the game out with its old values and in with its new ones.
CREATE TRIGGER game_tags_update AFTER UPDATE OF white, black, event, site, day, variant, preset, outcome, status ON game
WHEN old.white IS NOT new.white OR old.black IS NOT new.black OR old.event IS NOT new.event
  OR old.site IS NOT new.site OR old.day IS NOT new.day OR old.variant IS NOT new.variant
  OR old.preset IS NOT new.preset OR old.outcome IS NOT new.outcome
  OR (old.status = 'unsupported') IS NOT (new.status = 'unsupported')
BEGIN
    UPDATE player_stat SET games = games - 1, wins = wins - (old.outcome = 1),
           draws = draws - (old.outcome = 3), losses = losses - (old.outcome = 2),
           unknown = unknown - (old.outcome NOT IN (1, 2, 3))
        WHERE name = old.white AND variant = old.variant;
    UPDATE player_stat SET games = games - 1, wins = wins - (old.outcome = 2),
           draws = draws - (old.outcome = 3), losses = losses - (old.outcome = 1),
           unknown = unknown - (old.outcome NOT IN (1, 2, 3))
        WHERE name = old.black AND variant = old.variant;
    DELETE FROM player_stat WHERE name IN (old.white, old.black) AND variant = old.variant AND games <= 0;
    UPDATE player_stat SET
        first_day = (SELECT min(d) FROM (
            SELECT min(day) AS d FROM game WHERE white = player_stat.name AND variant = player_stat.variant
            UNION ALL
            SELECT min(day) FROM game WHERE black = player_stat.name AND variant = player_stat.variant)),
        last_day = (SELECT max(d) FROM (
            SELECT max(day) AS d FROM game WHERE white = player_stat.name AND variant = player_stat.variant
            UNION ALL
            SELECT max(day) FROM game WHERE black = player_stat.name AND variant = player_stat.variant))
        WHERE name IN (old.white, old.black) AND variant = old.variant;
    UPDATE tag_value SET games = games - 1
        WHERE (field = 'event' AND value = old.event) OR (field = 'site' AND value = old.site)
           OR (field = 'variant' AND value = old.variant)
           OR (field = 'preset' AND value = CASE WHEN old.status = 'unsupported' THEN '' ELSE old.preset END);
    DELETE FROM tag_value WHERE games <= 0
        AND ((field = 'event' AND value = old.event) OR (field = 'site' AND value = old.site)
           OR (field = 'variant' AND value = old.variant)
           OR (field = 'preset' AND value = CASE WHEN old.status = 'unsupported' THEN '' ELSE old.preset END));
    INSERT INTO player_stat (name, variant, preset, games, wins, draws, losses, unknown, first_day, last_day)
        SELECT new.white, new.variant, new.preset, 1, new.outcome = 1, new.outcome = 3,
               new.outcome = 2, new.outcome NOT IN (1, 2, 3), new.day, new.day WHERE new.white <> ''
        UNION ALL
        SELECT new.black, new.variant, new.preset, 1, new.outcome = 2, new.outcome = 3,
               new.outcome = 1, new.outcome NOT IN (1, 2, 3), new.day, new.day WHERE new.black <> ''
        ON CONFLICT DO UPDATE SET
            games = games + excluded.games, wins = wins + excluded.wins,
            draws = draws + excluded.draws, losses = losses + excluded.losses,
            unknown = unknown + excluded.unknown,
            first_day = CASE WHEN first_day IS NULL OR excluded.first_day < first_day
                             THEN coalesce(excluded.first_day, first_day) ELSE first_day END,
            last_day = CASE WHEN last_day IS NULL OR excluded.last_day > last_day
                            THEN coalesce(excluded.last_day, last_day) ELSE last_day END;
    INSERT INTO tag_value (field, value, games) VALUES ('event', new.event, 1), ('site', new.site, 1),
        ('variant', new.variant, 1),
        ('preset', CASE WHEN new.status = 'unsupported' THEN '' ELSE new.preset END, 1)
        ON CONFLICT DO UPDATE SET games = games + 1;
END;

-- step 7: a game met again is found by its duplicate key (src/store/identity.rs):
-- a hash of its status, variant, start, moves, what its reading leaves open
-- and its players, event, date and result as an export writes them. Filled here for
-- the `ok` games (whose key follows from their columns); other games stored
-- before get theirs when read again (`pdndb recheck`, or their file
-- imported again).
ALTER TABLE game ADD COLUMN dup_key INTEGER;
UPDATE game SET dup_key = pdndb_dup_key(status, variant, start_fen, moves, white, black, event, date, result)
    WHERE status = 'ok';
CREATE INDEX game_dup_key ON game (dup_key);

-- step 8: the opening tree's counts at popular positions. A key is popular
-- once the index holds many rows under it (src/store/popular.rs says how
-- many and when that is looked at); from then on every index row under it
-- past the start (ply > 0) whose next move is certain is counted in
-- `popular_move`, by the position the game is really at there (its stored
-- moves replayed to that ply, exactly as a query checks a game), so that the
-- tree of a popular position reads a few rows instead of one row per game,
-- and two positions sharing a key are never counted together. Rows are
-- counted as they enter or leave `position`, in the same transaction.
-- Built by the next writer (import, remove, recheck): `scanned_games` 0
-- makes it scan the index whole.
CREATE TABLE popular_key (
    key INTEGER PRIMARY KEY                -- Zobrist key, as in position.key
);
CREATE TABLE popular_move (
    key     INTEGER NOT NULL,              -- a popular key
    board   BLOB    NOT NULL,              -- the position exactly (Position::packed): White's,
                                           -- Black's and the kings' squares as little-endian
                                           -- 64-bit sets, then the side to move (0 White, 1 Black)
    variant TEXT    NOT NULL,              -- as game.variant
    preset  TEXT    NOT NULL,              -- as game.preset
    next    INTEGER NOT NULL,              -- move_name id of the move played from there
    outcome INTEGER NOT NULL,              -- as game.outcome
    games   INTEGER NOT NULL,
    PRIMARY KEY (key, board, variant, next, outcome)
) WITHOUT ROWID;
CREATE TABLE popular_state (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    scanned_games INTEGER NOT NULL         -- games stored when the index was last looked at whole
);
INSERT INTO popular_state (id, scanned_games) VALUES (1, 0);

-- step 9: the index rows under each popular key, by variant, so that the
-- total of a search at a popular position ("20 of 1000000 games") is read
-- from a few rows instead of counted over the index. Kept by the same
-- writers as `popular_move`, in the same transactions: every row under a
-- popular key, at the start or not, whatever its next move. The keys
-- already popular are counted here (CROSS JOIN: key by key, not a scan of
-- the whole index).
CREATE TABLE popular_rows (
    key     INTEGER NOT NULL,              -- a popular key
    variant TEXT    NOT NULL,              -- as game.variant
    preset  TEXT    NOT NULL,              -- as game.preset
    rows    INTEGER NOT NULL,              -- index rows under the key of games of that variant
    PRIMARY KEY (key, variant)
) WITHOUT ROWID;
INSERT INTO popular_rows (key, variant, preset, rows)
    SELECT p.key, g.variant, min(g.preset), count(*)
    FROM popular_key k CROSS JOIN position p ON p.key = k.key JOIN game g ON g.id = p.game
    GROUP BY p.key, g.variant;

-- step 10: the position index as postings (src/store/postings.rs says how
-- they are coded and why). One row per (key, game) cost some 23 bytes a
-- position, most of them the whole 8-byte key and SQLite's cell overhead;
-- here one row holds a chunk of a few dozen entries. An entry keeps the top
-- 40 bits of the Zobrist key (a hit is checked against the game's moves
-- anyway): the top 16 name the row's bucket, the other 24 are coded in the
-- entry as the difference from the entry before. A bucket's entries, sorted
-- by (suffix, game, ply), are cut into chunks of at most 900 bytes (under
-- what a row keeps on its 4 KiB page), each under the suffix and game of its
-- first entry, so a key in every game is read in order of game, a chunk at
-- a time. Entries: LEB128 numbers, the first one's suffix, game, ply, next;
-- then each one's suffix less the one before, its game less the one before
-- when the suffix is the same (else its game), ply, next (a move_name id, 0
-- when not certain). `index_state` keeps its meaning: every game with id <=
-- indexed_through has its entries here. The rows of `position` are turned
-- into entries by the code that applies this step (src/store/migrate.rs),
-- which then drops `position`; `position_run` keeps its rows as they were.
CREATE TABLE posting (
    bucket  INTEGER NOT NULL,              -- the key's top 16 bits, signed (key >> 48)
    suffix  INTEGER NOT NULL,              -- the first entry's next 24 bits of the key
    game    INTEGER NOT NULL,              -- the first entry's game
    entries BLOB    NOT NULL,              -- the chunk's entries, coded as above
    PRIMARY KEY (bucket, suffix, game)
) WITHOUT ROWID;

-- step 11: smaller stored texts, and one index fewer. A copy's `text` holds
-- its original tags (the JSON object `tags` held) and its original move
-- text, one line break between, deflated together with a preset dictionary
-- (src/store/text.rs: a first byte naming the dictionary, then raw deflate):
-- a game's few hundred bytes deflate poorly alone, and the tags were kept
-- twice. `pdndb_text(tags, text)` encodes a step-1 copy so. `game_white`
-- goes: `game_pair` (white, black) finds White's games as well.
CREATE TABLE provenance_text (
    file        INTEGER NOT NULL REFERENCES source_file (id),
    idx         INTEGER NOT NULL,          -- 1-based game index in the file
    game        INTEGER NOT NULL REFERENCES game (id),
    byte_offset INTEGER NOT NULL,          -- 0-based
    line        INTEGER NOT NULL,          -- 1-based
    text        BLOB    NOT NULL,          -- original tags and game text, as above
    PRIMARY KEY (file, idx)
) WITHOUT ROWID;
INSERT INTO provenance_text (file, idx, game, byte_offset, line, text)
    SELECT file, idx, game, byte_offset, line, pdndb_text(tags, text) FROM provenance ORDER BY file, idx;
DROP TABLE provenance;
ALTER TABLE provenance_text RENAME TO provenance;
CREATE INDEX provenance_game ON provenance (game);
DROP INDEX game_white;

-- step 12: the position index in fewer bytes (src/store/postings.rs says
-- how and why). An entry keeps the top 32 bits of the Zobrist key (16 name
-- the row's bucket, 16 the entry's suffix) instead of 40, and no next move:
-- the move played from a position is the game's stored move at that ply
-- (`game.moves`, its first reading), which the check of every hit against
-- the game reaches anyway. An entry keeps instead whether it is *open*: its
-- next move not certain (readings part there) though the first reading
-- plays one. Entries: LEB128 numbers, the first one's suffix, game, place;
-- then each one's suffix less the one before, its game less the one before
-- when the suffix is the same (else its game), place; the place is the ply,
-- or 20001 plus the ply when open. The code that applies this step
-- (src/store/migrate.rs) turns the chunks of step 10, renamed here, into
-- these and drops them; in `position_run` a row's last field (the next
-- move's id) now says whether the row is open (1) or not (0); and the
-- counts at popular keys (`popular_move`, `popular_rows`) are emptied, to
-- be counted again from the index once it has its step-14 layout (the code
-- of step 14 does it), as more rows share a key's 32 bits than its 40 (of
-- popular keys sharing their 32 bits, the least stays popular).
-- `popular_rows` now counts only the rows of games really at the key's
-- position (their stored moves replayed to the row's ply), as
-- `popular_move` does, so that a search's total stays the number of games
-- at the position.
ALTER TABLE posting RENAME TO posting_step10;
CREATE TABLE posting (
    bucket  INTEGER NOT NULL,              -- the key's top 16 bits, signed (key >> 48)
    suffix  INTEGER NOT NULL,              -- the first entry's next 16 bits of the key
    game    INTEGER NOT NULL,              -- the first entry's game
    entries BLOB    NOT NULL,              -- the chunk's entries, coded as above
    PRIMARY KEY (bucket, suffix, game)
) WITHOUT ROWID;

-- step 13: the counts of step 6 and of step 3 are kept by the importer on
-- insert: it sums the games it adds by player, event, site, variant,
-- preset and start in memory and adds the sums to `player_stat`,
-- `tag_value` and `start_move` in the same transaction, one row each, before
-- it commits (src/store/counts.rs). The trigger that counted each inserted
-- game on its own goes; the update and delete triggers stay. Whatever
-- inserts into `game` counts its games so.
DROP TRIGGER IF EXISTS game_tags_insert;

-- step 14: the position index in fewer bits (src/store/postings.rs says
-- how). A chunk holds the same entries, coded as bits instead of whole
-- bytes: four bytes say how (the Exp-Golomb orders of the suffix
-- differences, of the game differences and of the plies; the bits of a
-- game id written whole; whether each entry carries its open bit), a
-- LEB128 number how many entries follow; then, most significant bit
-- first, the first entry's suffix (16 bits) and game (whole), each next
-- one's suffix less the one before and its game less the one before when
-- the suffix is the same, else its game whole; after each entry's key
-- part, its ply and, where the chunk has them, its open bit. In a large
-- index a game id takes its 20-odd bits instead of three bytes, suffixes
-- some hundred apart 9 bits instead of one or two bytes. The code that
-- applies this step (src/store/migrate.rs) codes the chunks of step 12,
-- renamed here, anew and drops them, and counts the popular keys again
-- when step 12 left them to count (`popular_rows` empty, `popular_key`
-- not).
ALTER TABLE posting RENAME TO posting_step12;
CREATE TABLE posting (
    bucket  INTEGER NOT NULL,              -- the key's top 16 bits, signed (key >> 48)
    suffix  INTEGER NOT NULL,              -- the first entry's next 16 bits of the key
    game    INTEGER NOT NULL,              -- the first entry's game
    entries BLOB    NOT NULL,              -- the chunk's entries, coded as above
    PRIMARY KEY (bucket, suffix, game)
) WITHOUT ROWID;

-- step 15: smaller sorted runs. A chunk of `position_run` codes its rows
-- one after the other, each after the one before it in the chunk: its
-- kept key (the key's top 32 bits) less the one before (the first row's
-- less 0), zigzag LEB128; the key's low 32 bits, little-endian; its game
-- less the one before when the kept key is the same, else whole, zigzag
-- LEB128; its ply shifted left once with its open bit below, LEB128. Some
-- 10 bytes a row instead of 24: a large import writes, reads back and
-- hands back less than half the pages. The code that applies this step
-- (src/store/migrate.rs) codes anew the chunks an import killed before its
-- merge left (rows of key, game, ply and open as little-endian 8, 8, 4 and
-- 4 bytes).
UPDATE index_state SET indexed_through = indexed_through;

-- step 16: stored texts in format 2. A copy's `text` may start with the
-- byte 2: the text's length (LEB128), then the text coded byte by byte
-- with rANS under a fixed model (src/store/text_model.rs); texts that
-- model codes poorly stay deflated as in step 11 (first byte 1), as do the
-- texts stored before. Nothing is converted: the step is there so that a
-- pdndb that cannot read format 2 refuses the database instead of finding
-- its texts unreadable.
UPDATE index_state SET indexed_through = indexed_through;

-- step 17: the duplicate key covers a game's site and round, and the
-- set-up of a game that was not replayed as written (src/store/identity.rs):
-- two forfeits between the same players on one day in different rounds,
-- or two lessons that differ only in their set-up, are two games. Keys of
-- games without site, round or such a set-up stay as they were. The code
-- that applies this step (src/store/migrate.rs) makes every game's key
-- again from its columns and the stored text of its first copy; copies an
-- older pdndb merged although they differ so are split by `pdndb recheck`,
-- which reads every copy.
UPDATE index_state SET indexed_through = indexed_through;

-- step 18: per game, what its positions have in common, so that a pattern
-- or material search passes over games that cannot fit without replaying
-- them (src/store/codec/summary.rs): the squares each side's men and
-- kings stood on and the least and most of each count of men and kings,
-- over the positions of the stored reading. NULL (games stored before
-- this step, until `pdndb recheck` fills it, and games never replayed):
-- the game is replayed.
ALTER TABLE game ADD COLUMN summary BLOB;
-- step 19: each game's opening (src/openings/mod.rs): the named position
-- of its variant's table it reaches last within its first 30 plies from
-- the standard start, the ply where it reaches it, and for English games
-- the three-move ballot of the ACF deck whose position it reaches after
-- three plies. The code that applies this step (src/store/migrate.rs)
-- names the `ok` games from their stored moves; games of other statuses
-- are named by `pdndb recheck`, which reads every game again.
ALTER TABLE game ADD COLUMN opening TEXT;
ALTER TABLE game ADD COLUMN opening_ply INTEGER;
ALTER TABLE game ADD COLUMN ballot TEXT;
CREATE INDEX game_opening ON game(opening) WHERE opening IS NOT NULL;
-- step 20: each game's result checked against its moves, and one name per
-- player. `game.result_check` says whether the game's result agrees with
-- its moves: `consistent`, `contradicts_position` (the board says the game
-- is over with another winner), `contradicts_movetext` (the Result tag and
-- the result after the moves differ) or `unknown` (src/replay/result_check.rs
-- says exactly). Import and `recheck` fill it; for the games stored before,
-- the code that applies this step fills it (src/store/write/result_checks.rs),
-- reading each game's first copy again by its own rules and notation (an
-- empty column reads as `unknown`).
-- `player_alias` makes a cleaned player name (`alias`) another name of
-- `canonical`; a canonical name is never itself an alias. Queries apply it
-- when they read, so it survives re-import, recheck and removal.
ALTER TABLE game ADD COLUMN result_check TEXT;
CREATE INDEX game_result_check ON game (result_check)
    WHERE result_check IN ('contradicts_position', 'contradicts_movetext');
CREATE TABLE player_alias (
    alias     TEXT PRIMARY KEY,
    canonical TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX player_alias_canonical ON player_alias (canonical);
-- step 21: the opening tree at a start position with a filter on players,
-- sides, dates or who won, read from the game table's indexes alone
-- (src/store/read/tree_start.rs): the indexes of players and days also hold
-- each game's variant, start FEN, outcome, first bytes of moves (its first
-- move's index among the legal ones) and whether its reading was certain
-- (no record kept). They lead with the columns they led with, so every
-- query that used them uses them as before. They may be missing (an
-- import into an empty database drops them until its end).
DROP INDEX IF EXISTS game_pair;
DROP INDEX IF EXISTS game_black;
DROP INDEX IF EXISTS game_day;
CREATE INDEX game_pair ON game (white, black, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL);
CREATE INDEX game_black ON game (black, white, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL);
CREATE INDEX game_day ON game (day, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL);
-- step 22: the counts `pdndb stats` prints, kept by the writers in the
-- transactions that change what they count, so that `stats` reads a few
-- rows instead of counting a large database. `kept_count` holds the files
-- (`files`), the copies of games met in them (`copies`: games plus the
-- duplicates met) and the entries of the position index (`positions`),
-- each kept by the triggers below (a chunk of `posting` says how many
-- entries it holds in its first bytes: the LEB128 number after its four
-- bytes of coding, read here from their hex digits). `tag_value` counts the
-- games by status too (field `status`): an import adds the games it
-- stores as it counts their other tags (src/store/write/counts.rs); a
-- delete or a change of status is counted by the triggers below. The
-- number of games is the sum of `tag_value`'s `variant` counts.
CREATE TABLE kept_count (
    name TEXT    PRIMARY KEY,              -- 'files', 'copies' or 'positions'
    n    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO kept_count (name, n) VALUES
    ('files', (SELECT count(*) FROM source_file)),
    ('copies', (SELECT count(*) FROM provenance)),
    ('positions', (SELECT coalesce(sum((SELECT b0 % 128 + CASE WHEN b0 >= 128 THEN (b1 % 128) * 128
                + CASE WHEN b1 >= 128 THEN (b2 % 128) * 16384 ELSE 0 END ELSE 0 END
            FROM (SELECT ((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) AS b0,
                         ((instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) AS b1,
                         ((instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) AS b2
                  FROM (SELECT hex(substr(entries, 5, 3)) AS x)))), 0) FROM posting));
INSERT INTO tag_value (field, value, games) SELECT 'status', status, count(*) FROM game GROUP BY status;
CREATE TRIGGER source_file_count_insert AFTER INSERT ON source_file BEGIN
    UPDATE kept_count SET n = n + 1 WHERE name = 'files';
END;
CREATE TRIGGER source_file_count_delete AFTER DELETE ON source_file BEGIN
    UPDATE kept_count SET n = n - 1 WHERE name = 'files';
END;
CREATE TRIGGER provenance_count_insert AFTER INSERT ON provenance BEGIN
    UPDATE kept_count SET n = n + 1 WHERE name = 'copies';
END;
CREATE TRIGGER provenance_count_delete AFTER DELETE ON provenance BEGIN
    UPDATE kept_count SET n = n - 1 WHERE name = 'copies';
END;
CREATE TRIGGER posting_count_insert AFTER INSERT ON posting BEGIN
    UPDATE kept_count SET n = n + (SELECT b0 % 128 + CASE WHEN b0 >= 128 THEN (b1 % 128) * 128
            + CASE WHEN b1 >= 128 THEN (b2 % 128) * 16384 ELSE 0 END ELSE 0 END
        FROM (SELECT ((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) AS b0,
                     ((instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) AS b1,
                     ((instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) AS b2
              FROM (SELECT hex(substr(new.entries, 5, 3)) AS x)))
        WHERE name = 'positions';
END;
CREATE TRIGGER posting_count_delete AFTER DELETE ON posting BEGIN
    UPDATE kept_count SET n = n - (SELECT b0 % 128 + CASE WHEN b0 >= 128 THEN (b1 % 128) * 128
            + CASE WHEN b1 >= 128 THEN (b2 % 128) * 16384 ELSE 0 END ELSE 0 END
        FROM (SELECT ((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) AS b0,
                     ((instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) AS b1,
                     ((instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) AS b2
              FROM (SELECT hex(substr(old.entries, 5, 3)) AS x)))
        WHERE name = 'positions';
END;
CREATE TRIGGER game_status_delete AFTER DELETE ON game BEGIN
    UPDATE tag_value SET games = games - 1 WHERE field = 'status' AND value = old.status;
    DELETE FROM tag_value WHERE field = 'status' AND value = old.status AND games <= 0;
END;
CREATE TRIGGER game_status_update AFTER UPDATE OF status ON game
WHEN old.status IS NOT new.status
BEGIN
    UPDATE tag_value SET games = games - 1 WHERE field = 'status' AND value = old.status;
    DELETE FROM tag_value WHERE field = 'status' AND value = old.status AND games <= 0;
    INSERT INTO tag_value (field, value, games) VALUES ('status', new.status, 1)
        ON CONFLICT DO UPDATE SET games = games + 1;
END;
-- step 23: names, events and sites found by a part of them without
-- reading every distinct one. `tag_fold` holds each distinct event and site
-- (those of `tag_value`) and each player's name (those of `player_stat`),
-- kept by the triggers below as those tables gain and lose values;
-- `tag_fold_text` indexes each value's folded form (src/store/read/games.rs,
-- `fold`: cleaned, without accents, lower case) by its trigrams, under the
-- value's `id`. Folding is pdndb's, not SQLite's: a value enters the
-- trigram index when a writer folds it (an import, a recheck, this step's
-- code in src/store/stored/folds.rs) and sets `indexed`; until then a query
-- reads it and folds it itself, so answers never depend on it.
-- `posting_entries` reads how many entries a chunk of `posting` holds (as
-- the fill of step 22 spells out), so that the triggers that count them
-- say it once.
CREATE TABLE tag_fold (
    id      INTEGER PRIMARY KEY,
    field   TEXT    NOT NULL,              -- 'event', 'site' or 'player'
    value   TEXT    NOT NULL,              -- as in tag_value / player_stat
    indexed INTEGER NOT NULL DEFAULT 0,    -- 1 once in tag_fold_text
    UNIQUE (field, value)
);
CREATE INDEX tag_fold_unindexed ON tag_fold (field) WHERE indexed = 0;
CREATE VIRTUAL TABLE tag_fold_text USING fts5(
    folded, content = '', contentless_delete = 1, detail = 'none',
    tokenize = 'trigram case_sensitive 1'
);
INSERT INTO tag_fold (field, value)
    SELECT field, value FROM tag_value WHERE field IN ('event', 'site') ORDER BY field, value;
INSERT INTO tag_fold (field, value) SELECT DISTINCT 'player', name FROM player_stat ORDER BY name;
CREATE TRIGGER tag_value_fold_insert AFTER INSERT ON tag_value
WHEN new.field IN ('event', 'site') BEGIN
    INSERT INTO tag_fold (field, value) SELECT new.field, new.value
        WHERE NOT EXISTS (SELECT 1 FROM tag_fold WHERE field = new.field AND value = new.value);
END;
CREATE TRIGGER tag_value_fold_delete AFTER DELETE ON tag_value
WHEN old.field IN ('event', 'site') BEGIN
    DELETE FROM tag_fold WHERE field = old.field AND value = old.value;
END;
CREATE TRIGGER player_stat_fold_insert AFTER INSERT ON player_stat BEGIN
    INSERT INTO tag_fold (field, value) SELECT 'player', new.name
        WHERE NOT EXISTS (SELECT 1 FROM tag_fold WHERE field = 'player' AND value = new.name);
END;
CREATE TRIGGER player_stat_fold_delete AFTER DELETE ON player_stat
WHEN NOT EXISTS (SELECT 1 FROM player_stat WHERE name = old.name) BEGIN
    DELETE FROM tag_fold WHERE field = 'player' AND value = old.name;
END;
CREATE TRIGGER tag_fold_delete AFTER DELETE ON tag_fold WHEN old.indexed = 1 BEGIN
    DELETE FROM tag_fold_text WHERE rowid = old.id;
END;
CREATE VIEW posting_entries AS
    SELECT bucket, suffix, game, (SELECT b0 % 128 + CASE WHEN b0 >= 128 THEN (b1 % 128) * 128
            + CASE WHEN b1 >= 128 THEN (b2 % 128) * 16384 ELSE 0 END ELSE 0 END
        FROM (SELECT ((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) AS b0,
                     ((instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) AS b1,
                     ((instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) AS b2
              FROM (SELECT hex(substr(entries, 5, 3)) AS x))) AS n
    FROM posting;
DROP TRIGGER posting_count_insert;
DROP TRIGGER posting_count_delete;
CREATE TRIGGER posting_count_insert AFTER INSERT ON posting BEGIN
    UPDATE kept_count SET n = n + (SELECT n FROM posting_entries
        WHERE bucket = new.bucket AND suffix = new.suffix AND game = new.game)
        WHERE name = 'positions';
END;
-- Before the chunk goes, while the view still reads it.
CREATE TRIGGER posting_count_delete BEFORE DELETE ON posting BEGIN
    UPDATE kept_count SET n = n - (SELECT n FROM posting_entries
        WHERE bucket = old.bucket AND suffix = old.suffix AND game = old.game)
        WHERE name = 'positions';
END;

-- step 24: names, events and sites found by a part of them without a second
-- copy of each. `tag_fold` and its triggers go; `name_text` indexes the
-- folded form (src/store/stored/folds.rs, `fold`) of each event and site
-- of `tag_value` and of each player's name of `player_stat` by its
-- trigrams, under the `text_row` the value's row names (every row of a
-- name names the same). A value's text row is 4 × the id of a game that
-- holds it + the field it holds it in (0 event, 1 site, 2 White, 3 Black):
-- a query reads the value back from that game, and an import, which
-- enters the values it counts first under the first game that holds each,
-- only appends to the index. A game that goes, moves to another id or
-- holds another value takes its values' text rows with it (the triggers
-- below clear them and their entries); a writer enters a value whose row
-- names none (`text_row` NULL) again under a game that holds it, in the
-- same transaction, and until then a query reads it and folds it itself.
-- This step enters every value under the first game that holds it.
DROP TRIGGER tag_value_fold_insert;
DROP TRIGGER tag_value_fold_delete;
DROP TRIGGER player_stat_fold_insert;
DROP TRIGGER player_stat_fold_delete;
DROP TRIGGER tag_fold_delete;
DROP TABLE tag_fold_text;
DROP TABLE tag_fold;
ALTER TABLE tag_value ADD COLUMN text_row INTEGER;    -- events and sites
ALTER TABLE player_stat ADD COLUMN text_row INTEGER;
CREATE VIRTUAL TABLE name_text USING fts5(
    folded, content = '', contentless_delete = 1, detail = 'none',
    tokenize = 'trigram case_sensitive 1'
);
UPDATE tag_value SET text_row = held.id * 4
    FROM (SELECT event, min(id) AS id FROM game GROUP BY event) AS held
    WHERE tag_value.field = 'event' AND tag_value.value = held.event;
UPDATE tag_value SET text_row = held.id * 4 + 1
    FROM (SELECT site, min(id) AS id FROM game GROUP BY site) AS held
    WHERE tag_value.field = 'site' AND tag_value.value = held.site;
UPDATE player_stat SET text_row = held.text_row
    FROM (SELECT name, min(text_row) AS text_row FROM (
            SELECT white AS name, min(id) * 4 + 2 AS text_row FROM game GROUP BY white
            UNION ALL
            SELECT black, min(id) * 4 + 3 FROM game GROUP BY black)
          GROUP BY name) AS held
    WHERE player_stat.name = held.name;
INSERT INTO name_text (rowid, folded)
    SELECT text_row, pdndb_fold(value) FROM tag_value WHERE text_row IS NOT NULL
    UNION ALL
    SELECT DISTINCT text_row, pdndb_fold(name) FROM player_stat WHERE text_row IS NOT NULL
    ORDER BY 1;
CREATE INDEX tag_value_unentered ON tag_value (field) WHERE text_row IS NULL;
CREATE INDEX player_stat_unentered ON player_stat (name) WHERE text_row IS NULL;
-- A value's entry goes with its row, or with the last row of a name.
CREATE TRIGGER tag_value_text_delete AFTER DELETE ON tag_value
WHEN old.text_row IS NOT NULL BEGIN
    DELETE FROM name_text WHERE rowid = old.text_row;
END;
CREATE TRIGGER tag_value_text_update AFTER UPDATE OF text_row ON tag_value
WHEN old.text_row IS NOT NULL AND old.text_row IS NOT new.text_row BEGIN
    DELETE FROM name_text WHERE rowid = old.text_row;
END;
CREATE TRIGGER player_stat_text_delete AFTER DELETE ON player_stat
WHEN old.text_row IS NOT NULL AND NOT EXISTS (SELECT 1 FROM player_stat WHERE name = old.name) BEGIN
    DELETE FROM name_text WHERE rowid = old.text_row;
END;
CREATE TRIGGER player_stat_text_update AFTER UPDATE OF text_row ON player_stat
WHEN old.text_row IS NOT NULL AND old.text_row IS NOT new.text_row BEGIN
    DELETE FROM name_text WHERE rowid = old.text_row;
END;
-- A name's new row (another variant) names the name's entry.
CREATE TRIGGER player_stat_text_insert AFTER INSERT ON player_stat
WHEN new.text_row IS NULL BEGIN
    UPDATE player_stat SET text_row = (SELECT text_row FROM player_stat
            WHERE name = new.name AND text_row IS NOT NULL LIMIT 1)
        WHERE name = new.name AND variant = new.variant;
END;
CREATE TRIGGER game_names_delete AFTER DELETE ON game BEGIN
    UPDATE tag_value SET text_row = NULL
        WHERE field = 'event' AND value = old.event AND text_row = old.id * 4;
    UPDATE tag_value SET text_row = NULL
        WHERE field = 'site' AND value = old.site AND text_row = old.id * 4 + 1;
    UPDATE player_stat SET text_row = NULL WHERE name = old.white AND text_row = old.id * 4 + 2;
    UPDATE player_stat SET text_row = NULL WHERE name = old.black AND text_row = old.id * 4 + 3;
END;
CREATE TRIGGER game_names_update AFTER UPDATE OF id, white, black, event, site ON game
WHEN old.id IS NOT new.id OR old.white IS NOT new.white OR old.black IS NOT new.black
  OR old.event IS NOT new.event OR old.site IS NOT new.site BEGIN
    UPDATE tag_value SET text_row = NULL
        WHERE field = 'event' AND value = old.event AND text_row = old.id * 4
          AND (old.id IS NOT new.id OR old.event IS NOT new.event);
    UPDATE tag_value SET text_row = NULL
        WHERE field = 'site' AND value = old.site AND text_row = old.id * 4 + 1
          AND (old.id IS NOT new.id OR old.site IS NOT new.site);
    UPDATE player_stat SET text_row = NULL
        WHERE name = old.white AND text_row = old.id * 4 + 2
          AND (old.id IS NOT new.id OR old.white IS NOT new.white);
    UPDATE player_stat SET text_row = NULL
        WHERE name = old.black AND text_row = old.id * 4 + 3
          AND (old.id IS NOT new.id OR old.black IS NOT new.black);
END;
-- step 25: game summaries in a compact shape (src/store/codec/compact.rs):
-- the squares of kings and what kings' moves did only for a side that had
-- kings, and each phase's men as a bit mask over the squares that side's
-- men stood on in the whole game, some 82 bytes a game on 8×8 instead of
-- 115. Nothing is converted: summaries of the older shapes read as before
-- (src/store/codec/summary.rs), and games imported or checked again get
-- the compact one. The step is there so that a pdndb that cannot read the
-- compact shape refuses the database instead of misreading its summaries.
UPDATE index_state SET indexed_through = indexed_through;

-- step 26: the chunks of the sorted runs found by their run. A large
-- import sets aside hundreds of runs of some 1,500 chunks each; without
-- this index each new run's number (the greatest so far, plus one) and
-- the first chunk of each run the merge reads were found by reading every
-- chunk stored before it, a cost that grew with the square of the runs.
CREATE INDEX position_run_run ON position_run (run);
