-- Wakes the worker's outbox dispatcher as soon as a transaction that wrote OutboxJob rows commits
-- (LISTEN atende_outbox); the dispatcher still polls, so a missed notification only costs latency.
-- Not expressible in schema.prisma: mirrored there as a comment on model OutboxJob.
CREATE FUNCTION "outbox_job_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('atende_outbox', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "OutboxJob_notify_insert"
AFTER INSERT ON "OutboxJob"
FOR EACH STATEMENT EXECUTE FUNCTION "outbox_job_notify"();
