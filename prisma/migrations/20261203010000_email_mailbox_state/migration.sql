-- E-mail channels can read the team's own mailbox over IMAP (imap_host): the worker keeps, per
-- channel, the mailbox it reads, its UIDVALIDITY and the highest UID taken, so a reconnect or a
-- restart takes no message twice, and a lease so one worker process reads each mailbox at a time.
-- Mirrored in schema.prisma as model EmailMailboxState.

-- CreateTable
CREATE TABLE "EmailMailboxState" (
    "channelId" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "mailbox" VARCHAR(700) NOT NULL,
    "uidValidity" BIGINT,
    "lastUid" BIGINT NOT NULL DEFAULT 0,
    "leaseOwner" VARCHAR(200),
    "leaseUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "EmailMailboxState_pkey" PRIMARY KEY ("channelId")
);
