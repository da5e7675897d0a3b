-- 0006: reserved. Issue 21's branch (nats21) numbers its migration 0008
-- because other branches may take 0006 and 0007; this placeholder keeps the
-- numbers without gaps until they merge, then it is deleted (two files
-- numbered 0006 make migrations() fail loudly, so it cannot be forgotten).
SELECT 1;
