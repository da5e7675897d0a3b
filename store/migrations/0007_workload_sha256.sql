-- 0007: finding a stored workload by its content.
--
-- An upload identical to a stored workload (the same canonical data, so
-- the same sha256, of the same strategy) is offered the stored one rather
-- than stored twice: FindWorkloadByContent looks it up by this index.

CREATE INDEX workloads_strategy_sha256 ON workloads (strategy, sha256);
