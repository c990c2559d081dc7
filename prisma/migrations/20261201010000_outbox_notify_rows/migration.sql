-- The outbox notification only when the statement inserted rows (issue 13 item 3).
-- A statement-level trigger fires even for an INSERT ... SELECT that inserts nothing, and the
-- inbound message statement carries one (its bot step, for conversations with a bot flow): every
-- contact message then ran pg_notify. At commit, a transaction that notified takes Postgres' one
-- notification lock (held through the commit's WAL flush), so all of them queued behind each
-- other: 20-300 ms stalls of the inbound POST at 200 msg/s. The transition table tells whether
-- anything was inserted; only those commits notify.
-- Mirrored in schema.prisma as a comment on model OutboxJob.

DROP TRIGGER "OutboxJob_notify_insert" ON "OutboxJob";

CREATE OR REPLACE FUNCTION "outbox_job_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    PERFORM pg_notify('atende_outbox', '');
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "OutboxJob_notify_insert"
AFTER INSERT ON "OutboxJob" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "outbox_job_notify"();
