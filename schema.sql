-- pdndb database schema: the one source of the schema, built into the binary.
--
-- A list of numbered steps, applied in order and tracked by PRAGMA
-- user_version (= the last step applied). Steps are append-only: released
-- steps are never edited; changes come as new steps.
--
-- Zobrist keys in `position.key` follow src/rules/zobrist.rs (its Stability
-- section): changing the key tables needs a step that rehashes every key.

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
