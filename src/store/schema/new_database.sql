-- The schema of a new pdndb database: what the steps of schema.sql make of
-- an empty one, at once (src/store/schema/migrate.rs, `NEW_DATABASE`).
-- Written by a test from those steps, never by hand: schema.sql stays the
-- one source of the schema.
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
, variant_from TEXT, site TEXT NOT NULL DEFAULT '', day TEXT, dup_key INTEGER, summary BLOB, opening TEXT, opening_ply INTEGER, ballot TEXT, result_check TEXT);
CREATE INDEX game_moves_key ON game (moves_key);
CREATE TABLE move_name (
    id   INTEGER PRIMARY KEY,
    name TEXT    NOT NULL UNIQUE          -- canonical numeric full path, e.g. 30x23x14x21
);
CREATE TABLE index_state (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_through INTEGER NOT NULL       -- every game with id <= this is in `position`
);
INSERT INTO "index_state" VALUES (1, 0);
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
CREATE TABLE position_run (
    id   INTEGER PRIMARY KEY,
    run  INTEGER NOT NULL,
    rows BLOB    NOT NULL
);
CREATE TABLE "source_file" (
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
CREATE INDEX source_file_location ON source_file (location);
CREATE INDEX source_file_path ON source_file (path);
CREATE INDEX game_event ON game (event);
CREATE INDEX game_site ON game (site);
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
    last_day  TEXT, text_row INTEGER,
    PRIMARY KEY (name, variant)
) WITHOUT ROWID;
CREATE TABLE tag_value (
    field TEXT    NOT NULL,                -- 'event', 'site', 'variant' or 'preset'
    value TEXT    NOT NULL,
    games INTEGER NOT NULL, text_row INTEGER,
    PRIMARY KEY (field, value)
) WITHOUT ROWID;
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
CREATE INDEX game_dup_key ON game (dup_key);
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
INSERT INTO "popular_state" VALUES (1, 0);
CREATE TABLE popular_rows (
    key     INTEGER NOT NULL,              -- a popular key
    variant TEXT    NOT NULL,              -- as game.variant
    preset  TEXT    NOT NULL,              -- as game.preset
    rows    INTEGER NOT NULL,              -- index rows under the key of games of that variant
    PRIMARY KEY (key, variant)
) WITHOUT ROWID;
CREATE TABLE "provenance" (
    file        INTEGER NOT NULL REFERENCES source_file (id),
    idx         INTEGER NOT NULL,          -- 1-based game index in the file
    game        INTEGER NOT NULL REFERENCES game (id),
    byte_offset INTEGER NOT NULL,          -- 0-based
    line        INTEGER NOT NULL,          -- 1-based
    text        BLOB    NOT NULL,          -- original tags and game text, as above
    PRIMARY KEY (file, idx)
) WITHOUT ROWID;
CREATE INDEX provenance_game ON provenance (game);
CREATE TABLE posting (
    bucket  INTEGER NOT NULL,              -- the key's top 16 bits, signed (key >> 48)
    suffix  INTEGER NOT NULL,              -- the first entry's next 16 bits of the key
    game    INTEGER NOT NULL,              -- the first entry's game
    entries BLOB    NOT NULL,              -- the chunk's entries, coded as above
    PRIMARY KEY (bucket, suffix, game)
) WITHOUT ROWID;
CREATE INDEX game_opening ON game(opening) WHERE opening IS NOT NULL;
CREATE INDEX game_result_check ON game (result_check)
    WHERE result_check IN ('contradicts_position', 'contradicts_movetext');
CREATE TABLE player_alias (
    alias     TEXT PRIMARY KEY,
    canonical TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX player_alias_canonical ON player_alias (canonical);
CREATE INDEX game_pair ON game (white, black, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL);
CREATE INDEX game_black ON game (black, white, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL);
CREATE INDEX game_day ON game (day, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL);
CREATE TABLE kept_count (
    name TEXT    PRIMARY KEY,              -- 'files', 'copies' or 'positions'
    n    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO "kept_count" VALUES ('copies', 0);
INSERT INTO "kept_count" VALUES ('files', 0);
INSERT INTO "kept_count" VALUES ('positions', 0);
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
CREATE VIEW posting_entries AS
    SELECT bucket, suffix, game, (SELECT b0 % 128 + CASE WHEN b0 >= 128 THEN (b1 % 128) * 128
            + CASE WHEN b1 >= 128 THEN (b2 % 128) * 16384 ELSE 0 END ELSE 0 END
        FROM (SELECT ((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) AS b0,
                     ((instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) AS b1,
                     ((instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) AS b2
              FROM (SELECT hex(substr(entries, 5, 3)) AS x))) AS n
    FROM posting;
CREATE TRIGGER posting_count_insert AFTER INSERT ON posting BEGIN
    UPDATE kept_count SET n = n + (SELECT n FROM posting_entries
        WHERE bucket = new.bucket AND suffix = new.suffix AND game = new.game)
        WHERE name = 'positions';
END;
CREATE TRIGGER posting_count_delete BEFORE DELETE ON posting BEGIN
    UPDATE kept_count SET n = n - (SELECT n FROM posting_entries
        WHERE bucket = old.bucket AND suffix = old.suffix AND game = old.game)
        WHERE name = 'positions';
END;
CREATE VIRTUAL TABLE name_text USING fts5(
    folded, content = '', contentless_delete = 1, detail = 'none',
    tokenize = 'trigram case_sensitive 1'
);
CREATE INDEX tag_value_unentered ON tag_value (field) WHERE text_row IS NULL;
CREATE INDEX player_stat_unentered ON player_stat (name) WHERE text_row IS NULL;
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
CREATE INDEX position_run_run ON position_run (run);
