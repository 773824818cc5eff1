-- The collwrap results database, written by `analyzer TRACE --sqlite FILE`.
--
-- Each analysis appends one row to `runs` and its rows to the other tables, all in one
-- transaction; nothing is ever updated or deleted, so results of different runs can be
-- compared with plain SQL (examples next to this file). Times are seconds, ranks are
-- MPI_COMM_WORLD ranks. `PRAGMA user_version` holds the schema version (4; version 2 added
-- the root-cause, critical-path and POP tables, which stay empty for runs analyzed with
-- --no-causes; version 3 added root_cause_call_paths and
-- root_cause_estimates; version 4 added finding_peer_threads).

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

-- Which thread of each peer rank a finding waited for (the thread that sent the message, joined
-- the collective, held the lock, ...): one row per peer rank and thread. A peer rank without
-- rows is one whose thread is unknown (the passive target of one-sided operations).
CREATE TABLE IF NOT EXISTS finding_peer_threads (
  finding_id INTEGER NOT NULL REFERENCES findings (finding_id),
  rank       INTEGER NOT NULL,  -- one of the finding's peers
  thread     INTEGER NOT NULL,  -- 0 = the thread that called MPI_Init
  PRIMARY KEY (finding_id, rank, thread)
);

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

-- Compute segments on one rank that made other ranks wait (the JSON report's root_causes), in
-- the report's order: by estimated gain, then by cost. call_site_id is the line to change (the
-- call that ends the segment), start_call_site_id the call that starts it.
CREATE TABLE IF NOT EXISTS root_causes (
  run_id             INTEGER NOT NULL REFERENCES runs (run_id),
  position           INTEGER NOT NULL,  -- 1 = the first line to change
  rank               INTEGER NOT NULL,
  thread             INTEGER NOT NULL,
  call_site_id       INTEGER NOT NULL REFERENCES call_sites (call_site_id),
  mpi_function       TEXT    NOT NULL,  -- the call that ends the segment
  start_call_site_id INTEGER NOT NULL REFERENCES call_sites (call_site_id),
  start_mpi_function TEXT    NOT NULL,
  occurrences        INTEGER NOT NULL,
  segment_time_s     REAL    NOT NULL,
  others_mean_time_s REAL    NOT NULL,
  short_term_cost_s  REAL    NOT NULL,  -- waits it caused directly
  long_term_cost_s   REAL    NOT NULL,  -- waits it caused through other ranks' waits
  gain_s             REAL,              -- NULL when not estimated
  gain_percent       REAL,
  PRIMARY KEY (run_id, position)
);

-- The waits a root cause was charged for (at most 5 per cause, largest first).
CREATE TABLE IF NOT EXISTS caused_waits (
  run_id            INTEGER NOT NULL REFERENCES runs (run_id),
  position          INTEGER NOT NULL,  -- root_causes.position of the cause
  rank              INTEGER NOT NULL,  -- the waiting rank
  thread            INTEGER NOT NULL,
  call_site_id      INTEGER NOT NULL REFERENCES call_sites (call_site_id),
  short_term_cost_s REAL    NOT NULL,
  long_term_cost_s  REAL    NOT NULL   -- propagated waiting that started at this wait
);
CREATE INDEX IF NOT EXISTS caused_waits_by_cause ON caused_waits (run_id, position);

-- What each root cause's gain estimate assumes (the JSON report's gain_basis and
-- target_time_s): "others_mean", "largest_wait" or "ranks_mean" (an imbalance across ranks;
-- rank is then the one that spends the most time in the segment).
CREATE TABLE IF NOT EXISTS root_cause_estimates (
  run_id        INTEGER NOT NULL REFERENCES runs (run_id),
  position      INTEGER NOT NULL,  -- root_causes.position of the cause
  gain_basis    TEXT    NOT NULL,
  target_time_s REAL    NOT NULL,
  PRIMARY KEY (run_id, position)
);

-- The callers of a root cause's line to change, recorded with COLLWRAP_CALLSITE_DEPTH > 1:
-- depth 1 is where the function containing that line was called, depth 2 its caller, ...
CREATE TABLE IF NOT EXISTS root_cause_call_paths (
  run_id       INTEGER NOT NULL REFERENCES runs (run_id),
  position     INTEGER NOT NULL,  -- root_causes.position of the cause
  depth        INTEGER NOT NULL,
  call_site_id INTEGER NOT NULL REFERENCES call_sites (call_site_id),
  PRIMARY KEY (run_id, position, depth)
);

-- The critical path of a run (one row), with the delay analysis' balance.
CREATE TABLE IF NOT EXISTS critical_paths (
  run_id       INTEGER PRIMARY KEY REFERENCES runs (run_id),
  length_s     REAL    NOT NULL,
  hops         INTEGER NOT NULL,  -- changes of location along the path
  compute_s    REAL    NOT NULL,
  mpi_s        REAL    NOT NULL,
  waits        INTEGER NOT NULL,  -- calls that waited for another location
  total_wait_s REAL    NOT NULL,
  residual_s   REAL    NOT NULL   -- waiting not attributed to a root cause
);

-- Time on the critical path per compute segment (kind 'segment', call_site_id ends it) and
-- per MPI call site (kind 'mpi_call'), largest first; mean_per_rank_s and imbalance_s are NULL
-- for MPI call sites.
CREATE TABLE IF NOT EXISTS critical_path_shares (
  run_id          INTEGER NOT NULL REFERENCES runs (run_id),
  kind            TEXT    NOT NULL CHECK (kind IN ('segment', 'mpi_call')),
  position        INTEGER NOT NULL,  -- 1 = the largest of its kind
  call_site_id    INTEGER NOT NULL REFERENCES call_sites (call_site_id),
  mpi_function    TEXT    NOT NULL,
  time_s          REAL    NOT NULL,
  share           REAL    NOT NULL,  -- of the critical path's length
  mean_per_rank_s REAL,
  imbalance_s     REAL,
  PRIMARY KEY (run_id, kind, position)
);

-- POP efficiencies of the region of interest (one row per run).
CREATE TABLE IF NOT EXISTS pop_efficiencies (
  run_id                   INTEGER PRIMARY KEY REFERENCES runs (run_id),
  region                   TEXT    NOT NULL,  -- 'MPI_Pcontrol' or 'MPI_Init..MPI_Finalize'
  runtime_s                REAL    NOT NULL,
  ideal_runtime_s          REAL    NOT NULL,  -- replayed on an ideal network
  mean_useful_s            REAL    NOT NULL,
  max_useful_s             REAL    NOT NULL,
  load_balance             REAL    NOT NULL,
  communication_efficiency REAL    NOT NULL,
  serialization_efficiency REAL    NOT NULL,
  transfer_efficiency      REAL    NOT NULL,
  parallel_efficiency      REAL    NOT NULL
);

-- Useful (non-MPI) and MPI time per rank inside the region of interest.
CREATE TABLE IF NOT EXISTS pop_ranks (
  run_id   INTEGER NOT NULL REFERENCES runs (run_id),
  rank     INTEGER NOT NULL,
  useful_s REAL    NOT NULL,
  mpi_s    REAL    NOT NULL,
  PRIMARY KEY (run_id, rank)
);
