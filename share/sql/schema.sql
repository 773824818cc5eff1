-- The collwrap results database, written by `analyzer TRACE --sqlite FILE`.
--
-- Each analysis appends one row to `runs` and its rows to the other tables, all in one
-- transaction; nothing is ever updated or deleted, so results of different runs can be
-- compared with plain SQL (examples next to this file). Times are seconds, ranks are
-- MPI_COMM_WORLD ranks. `PRAGMA user_version` holds the schema version (1).

CREATE TABLE IF NOT EXISTS runs (
  run_id           INTEGER PRIMARY KEY,
  analyzed_at      TEXT    NOT NULL,  -- UTC, ISO 8601 (YYYY-MM-DDTHH:MM:SSZ)
  tool_version     TEXT    NOT NULL,
  trace_path       TEXT    NOT NULL,  -- anchor file of the archive
  program          TEXT    NOT NULL,
  world_size       INTEGER NOT NULL,
  duration_s       REAL    NOT NULL,  -- first to last event of the trace
  total_time_s     REAL    NOT NULL,  -- sum over locations (rank x thread) of their time
  total_mpi_time_s REAL    NOT NULL,
  findings         INTEGER NOT NULL,
  instances        INTEGER NOT NULL
);

-- One row per rank of a run.
CREATE TABLE IF NOT EXISTS ranks (
  run_id     INTEGER NOT NULL REFERENCES runs (run_id),
  rank       INTEGER NOT NULL,
  node       TEXT    NOT NULL,
  threads    INTEGER NOT NULL,
  time_s     REAL    NOT NULL,
  mpi_time_s REAL    NOT NULL,
  PRIMARY KEY (run_id, rank)
);

-- Source lines, shared by all runs so one line can be followed across runs.
CREATE TABLE IF NOT EXISTS call_sites (
  call_site_id INTEGER PRIMARY KEY,
  file         TEXT    NOT NULL,  -- as recorded; '' when unknown
  line         INTEGER NOT NULL,  -- 0 when unknown
  function     TEXT    NOT NULL,  -- enclosing user function; '' when unknown
  UNIQUE (file, line, function)
);

-- One pattern at one call site on one rank and thread (the JSON report's findings).
CREATE TABLE IF NOT EXISTS findings (
  finding_id     INTEGER PRIMARY KEY,
  run_id         INTEGER NOT NULL REFERENCES runs (run_id),
  pattern        TEXT    NOT NULL,
  rank           INTEGER NOT NULL,
  thread         INTEGER NOT NULL,
  call_site_id   INTEGER NOT NULL REFERENCES call_sites (call_site_id),
  mpi_function   TEXT    NOT NULL,
  peers          TEXT    NOT NULL,  -- world ranks, comma separated, ascending
  occurrences    INTEGER NOT NULL,
  wait_time_s    REAL    NOT NULL,
  max_wait_s     REAL    NOT NULL,
  comment        TEXT    NOT NULL,
  recommendation TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_by_run ON findings (run_id);
CREATE INDEX IF NOT EXISTS findings_by_call_site ON findings (call_site_id);

-- Idle time per selected pattern of a run. Patterns overlap: do not add them up.
CREATE TABLE IF NOT EXISTS pattern_totals (
  run_id                INTEGER NOT NULL REFERENCES runs (run_id),
  pattern               TEXT    NOT NULL,
  findings              INTEGER NOT NULL,
  occurrences           INTEGER NOT NULL,
  wait_time_s           REAL    NOT NULL,
  percent_of_total_time REAL    NOT NULL,
  PRIMARY KEY (run_id, pattern)
);

-- Point-to-point messages per sender x receiver. Transfer time of a message: completion of its
-- receive - start of its send, at least 0.
CREATE TABLE IF NOT EXISTS comm_matrix (
  run_id            INTEGER NOT NULL REFERENCES runs (run_id),
  sender            INTEGER NOT NULL,
  receiver          INTEGER NOT NULL,
  messages          INTEGER NOT NULL,
  bytes             INTEGER NOT NULL,
  transfer_min_s    REAL    NOT NULL,
  transfer_median_s REAL    NOT NULL,
  transfer_mean_s   REAL    NOT NULL,
  transfer_max_s    REAL    NOT NULL,
  transfer_stddev_s REAL    NOT NULL,
  PRIMARY KEY (run_id, sender, receiver)
);

-- Time in MPI calls per function and message-size bucket (bytes sent plus received by the
-- call: 0, or [4^k, 4^(k+1) - 1]).
CREATE TABLE IF NOT EXISTS operation_stats (
  run_id              INTEGER NOT NULL REFERENCES runs (run_id),
  function            TEXT    NOT NULL,
  bytes_min           INTEGER NOT NULL,
  bytes_max           INTEGER NOT NULL,
  count               INTEGER NOT NULL,
  total_s             REAL    NOT NULL,
  mean_s              REAL    NOT NULL,
  min_s               REAL    NOT NULL,
  max_s               REAL    NOT NULL,
  percent_of_mpi_time REAL    NOT NULL,
  PRIMARY KEY (run_id, function, bytes_min)
);
