-- Subscriber imports store rows by the thousand (issue 13 item 5): a row is looked up by the
-- provider's message id of its send only once it was sent, so rows without one (every imported row
-- until then) stay out of that index instead of adding an entry each.
DROP INDEX "CampaignSubscriber_tenantId_externalId_idx";
CREATE INDEX "CampaignSubscriber_tenantId_externalId_idx" ON "CampaignSubscriber"("tenantId", "externalId") WHERE "externalId" IS NOT NULL;
