-- One layout for SQLite and PostgreSQL: text, 64-bit integers and nothing else.

-- A player: the id and a hash of the secret the game made at random, and the name boards show.
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    joined_unix_s BIGINT NOT NULL
);

-- Every run the server played again and accepted, with what it computed itself. The id is a
-- hash of the play (mode, seed, difficulty, setup, inputs, length), so a play is stored once.
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    board TEXT NOT NULL,
    standing BIGINT NOT NULL,
    ticks BIGINT NOT NULL,
    summary TEXT NOT NULL,
    result TEXT NOT NULL,
    submitted_unix_s BIGINT NOT NULL,
    replay TEXT NOT NULL
);

CREATE INDEX runs_by_player ON runs (player_id);

-- Each player's best run of each board: the rows boards list, in the order they rank.
CREATE TABLE bests (
    board TEXT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    run_id TEXT NOT NULL REFERENCES runs (id),
    standing BIGINT NOT NULL,
    submitted_unix_s BIGINT NOT NULL,
    PRIMARY KEY (board, player_id)
);

CREATE INDEX bests_in_rank_order ON bests (board, standing, submitted_unix_s, run_id);
