-- The call sites that lost the most idle time over the last 10 runs, per pattern (patterns
-- overlap, e.g. every wrong_order wait is also a late_sender wait, so they are not added up).
-- Change 10 to look further back.
--   sqlite3 -header -column runs.db < share/sql/worst_call_sites.sql
SELECT c.file, c.line, c.function, f.pattern,
       COUNT(DISTINCT f.run_id)     AS runs,
       SUM(f.occurrences)           AS occurrences,
       ROUND(SUM(f.wait_time_s), 6) AS wait_time_s
FROM findings AS f
JOIN call_sites AS c USING (call_site_id)
WHERE f.run_id IN (SELECT run_id FROM runs ORDER BY run_id DESC LIMIT 10)
GROUP BY c.call_site_id, f.pattern
ORDER BY wait_time_s DESC
LIMIT 20;
