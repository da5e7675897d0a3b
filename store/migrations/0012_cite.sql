-- 0012: what a reader needs to cite a result.
--
-- A run records the schedlab build of the process that executed it (its
-- version, vcs.revision and vcs.modified, package buildinfo), stored with
-- its end: a later upgrade of the server never relabels an old run. Empty
-- for runs that ended before this migration (the page says the build was
-- not recorded).
--
-- A workload keeps the sha256 and size of the file as the user uploaded it
-- (upload_sha256, upload_bytes), beside sha256 and bytes, which describe
-- the canonical JSON schedlab converted it to. Empty and 0 for a generated
-- workload, and for one stored before this migration. A workload read from
-- several files (EAPM's etc/apc/users set) hashes them in the order of the
-- strategy's upload fields, each preceded by its field name and size.

ALTER TABLE runs ADD COLUMN build_version TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN build_commit TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN build_modified TEXT NOT NULL DEFAULT '';
ALTER TABLE workloads ADD COLUMN upload_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE workloads ADD COLUMN upload_bytes INTEGER NOT NULL DEFAULT 0 CHECK (upload_bytes >= 0);
