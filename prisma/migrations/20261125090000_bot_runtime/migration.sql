-- The bot runtime (issue 7): a channel's entry bot and a conversation's place in a bot flow.
ALTER TABLE "Channel" ADD COLUMN "entryBotId" UUID;
ALTER TABLE "Conversation" ADD COLUMN "botId" UUID,
    ADD COLUMN "botNodeId" VARCHAR(64),
    ADD COLUMN "botVars" JSONB NOT NULL DEFAULT '{}',
    ADD COLUMN "botCursor" TIMESTAMPTZ(3),
    ADD COLUMN "botRevision" INTEGER NOT NULL DEFAULT 0;
