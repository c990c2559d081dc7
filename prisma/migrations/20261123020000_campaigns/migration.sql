-- Outbound campaigns, do-not-disturb lists and campaign subscribers (issue 6, spec 001 §3).
CREATE TABLE "Campaign" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(80) NOT NULL,
    "mode" VARCHAR(16) NOT NULL DEFAULT 'conversation',
    "state" VARCHAR(16) NOT NULL DEFAULT 'stopped',
    "desiredState" VARCHAR(16) NOT NULL DEFAULT 'stopped',
    "channelId" UUID NOT NULL,
    "templateId" UUID NOT NULL,
    "entrySectorId" UUID,
    "config" JSONB NOT NULL DEFAULT '{}',
    "isPublic" BOOLEAN NOT NULL DEFAULT true,
    "startAt" TIMESTAMPTZ(3),
    "startedAt" TIMESTAMPTZ(3),
    "scheduledStartErrors" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdById" INTEGER NOT NULL,
    "importStatus" VARCHAR(16),
    "importSummary" JSONB,
    "runNumber" INTEGER NOT NULL DEFAULT 0,
    "dispatchOwner" VARCHAR(64),
    "dispatchLeaseUntil" TIMESTAMPTZ(3),
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "Campaign_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Campaign_tenantId_createdAt_idx" ON "Campaign"("tenantId", "createdAt");
CREATE INDEX "Campaign_state_startAt_idx" ON "Campaign"("state", "startAt");
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "OutboundTemplate"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "DndList" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DndList_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "DndList_tenantId_name_idx" ON "DndList"("tenantId", "name");

CREATE TABLE "DndContact" (
    "dndListId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DndContact_pkey" PRIMARY KEY ("dndListId", "contactId")
);
CREATE INDEX "DndContact_contactId_idx" ON "DndContact"("contactId");
ALTER TABLE "DndContact" ADD CONSTRAINT "DndContact_dndListId_fkey" FOREIGN KEY ("dndListId") REFERENCES "DndList"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "DndContact" ADD CONSTRAINT "DndContact_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "CampaignDndList" (
    "campaignId" UUID NOT NULL,
    "dndListId" UUID NOT NULL,
    CONSTRAINT "CampaignDndList_pkey" PRIMARY KEY ("campaignId", "dndListId")
);
ALTER TABLE "CampaignDndList" ADD CONSTRAINT "CampaignDndList_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "CampaignDndList" ADD CONSTRAINT "CampaignDndList_dndListId_fkey" FOREIGN KEY ("dndListId") REFERENCES "DndList"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "CampaignSubscriber" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "contactId" UUID,
    "name" VARCHAR(200) NOT NULL,
    "phoneNumber" VARCHAR(32) NOT NULL,
    "parameters" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "state" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "errorMessage" VARCHAR(500),
    "externalId" VARCHAR(200),
    "sentAt" TIMESTAMPTZ(3),
    "repliedAt" TIMESTAMPTZ(3),
    "replyAction" VARCHAR(200),
    "replyText" VARCHAR(2000),
    "conversationId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "CampaignSubscriber_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "CampaignSubscriber_campaignId_phoneNumber_key" ON "CampaignSubscriber"("campaignId", "phoneNumber");
CREATE INDEX "CampaignSubscriber_campaignId_state_idx" ON "CampaignSubscriber"("campaignId", "state");
CREATE INDEX "CampaignSubscriber_tenantId_phoneNumber_idx" ON "CampaignSubscriber"("tenantId", "phoneNumber");
ALTER TABLE "CampaignSubscriber" ADD CONSTRAINT "CampaignSubscriber_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
