-- 0008: which worker ran each run.
--
-- Runs execute in worker processes (package queue), on this machine or on
-- others; worker is the name the worker gives itself (host:pid), set when
-- the worker starts the run and again with its end. Empty for runs executed
-- inside the server process and for runs from before this migration.

ALTER TABLE runs ADD COLUMN worker TEXT NOT NULL DEFAULT '';
