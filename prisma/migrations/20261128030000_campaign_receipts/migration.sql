-- Campaign progress and outcome (issue 14 item 5): final campaign states (completed_with_engagement
-- needs more than 16 characters), when a run finished, and each subscriber's provider receipts.
ALTER TABLE "Campaign" ALTER COLUMN "state" TYPE VARCHAR(32);
ALTER TABLE "Campaign" ALTER COLUMN "desiredState" TYPE VARCHAR(32);
ALTER TABLE "Campaign" ADD COLUMN "finishedAt" TIMESTAMPTZ(3);
ALTER TABLE "CampaignSubscriber" ADD COLUMN "delivery" VARCHAR(16);
ALTER TABLE "CampaignSubscriber" ADD COLUMN "deliveredAt" TIMESTAMPTZ(3);
ALTER TABLE "CampaignSubscriber" ADD COLUMN "readAt" TIMESTAMPTZ(3);
-- Status webhooks find a campaign's send by the provider's message id.
CREATE INDEX "CampaignSubscriber_tenantId_externalId_idx" ON "CampaignSubscriber"("tenantId", "externalId");
