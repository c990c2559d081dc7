-- Kept count of conversations per (tenant, workspace, user, state, archived) (issue 13 item 6).
-- pagination.total of GET /api/v2/conversations summed these few rows instead of counting up to
-- every conversation of the workspace on each request (an index-only count of 100,000 rows took
-- about 4.5 ms of Postgres CPU, more than the page itself).
--
-- Insert-only: every change appends a delta row, so concurrent writers never wait on a shared
-- counter row (no lock queue, no deadlock between transactions touching keys in different
-- orders). The triggers run in the writing transaction, so a sum read in any snapshot equals
-- count(*) in that snapshot. The worker folds each key's deltas into one row
-- (compactConversationTally in packages/db).
-- Mirrored in schema.prisma as model ConversationTally; the triggers are comments there.

-- CreateTable
CREATE TABLE "ConversationTally" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "userId" INTEGER,
    "state" "ConversationState" NOT NULL,
    "archived" BOOLEAN NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "ConversationTally_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConversationTally_tenantId_workspaceId_userId_state_archived_n_idx" ON "ConversationTally"("tenantId", "workspaceId", "userId", "state", "archived", "n");

-- New conversations, one delta per key per statement (a bulk insert adds a handful of rows).
CREATE FUNCTION "conversation_tally_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ConversationTally" ("tenantId", "workspaceId", "userId", "state", "archived", "n")
  SELECT "tenantId", "workspaceId", "userId", "state", "archived", count(*)
  FROM new_rows GROUP BY "tenantId", "workspaceId", "userId", "state", "archived";
  RETURN NULL;
END;
$$;

CREATE FUNCTION "conversation_tally_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ConversationTally" ("tenantId", "workspaceId", "userId", "state", "archived", "n")
  SELECT "tenantId", "workspaceId", "userId", "state", "archived", -count(*)
  FROM old_rows GROUP BY "tenantId", "workspaceId", "userId", "state", "archived";
  RETURN NULL;
END;
$$;

-- A conversation moving between keys: out of the old, into the new.
CREATE FUNCTION "conversation_tally_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ConversationTally" ("tenantId", "workspaceId", "userId", "state", "archived", "n")
  VALUES (OLD."tenantId", OLD."workspaceId", OLD."userId", OLD."state", OLD."archived", -1),
         (NEW."tenantId", NEW."workspaceId", NEW."userId", NEW."state", NEW."archived", 1);
  RETURN NULL;
END;
$$;

CREATE FUNCTION "conversation_tally_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "ConversationTally";
  RETURN NULL;
END;
$$;

-- Creating the triggers locks "Conversation" against writes until this migration commits, so the
-- backfill below counts exactly the rows the triggers did not see.
CREATE TRIGGER "Conversation_tally_insert"
AFTER INSERT ON "Conversation" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "conversation_tally_insert"();

CREATE TRIGGER "Conversation_tally_delete"
AFTER DELETE ON "Conversation" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION "conversation_tally_delete"();

-- Row level with a WHEN clause: the many updates that change none of these columns (unread
-- counters, last message time, bot state) never call the function.
CREATE TRIGGER "Conversation_tally_update"
AFTER UPDATE OF "tenantId", "workspaceId", "userId", "state", "archived" ON "Conversation"
FOR EACH ROW
WHEN (OLD."tenantId" IS DISTINCT FROM NEW."tenantId" OR OLD."workspaceId" IS DISTINCT FROM NEW."workspaceId"
   OR OLD."userId" IS DISTINCT FROM NEW."userId" OR OLD."state" IS DISTINCT FROM NEW."state"
   OR OLD."archived" IS DISTINCT FROM NEW."archived")
EXECUTE FUNCTION "conversation_tally_update"();

CREATE TRIGGER "Conversation_tally_truncate"
AFTER TRUNCATE ON "Conversation"
FOR EACH STATEMENT EXECUTE FUNCTION "conversation_tally_truncate"();

INSERT INTO "ConversationTally" ("tenantId", "workspaceId", "userId", "state", "archived", "n")
SELECT "tenantId", "workspaceId", "userId", "state", "archived", count(*)
FROM "Conversation" GROUP BY "tenantId", "workspaceId", "userId", "state", "archived";
