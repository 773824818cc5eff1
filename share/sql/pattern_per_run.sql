-- One pattern's idle time in every run, oldest first: did a change help?
-- Change 'late_sender' to another pattern id (analyzer --help lists them).
--   sqlite3 -header -column runs.db < share/sql/pattern_per_run.sql
SELECT r.run_id, r.analyzed_at, r.program,
       t.occurrences,
       ROUND(t.wait_time_s, 6)           AS wait_time_s,
       ROUND(t.percent_of_total_time, 2) AS percent_of_total_time
FROM runs AS r
JOIN pattern_totals AS t USING (run_id)
WHERE t.pattern = 'late_sender'
ORDER BY r.run_id;
