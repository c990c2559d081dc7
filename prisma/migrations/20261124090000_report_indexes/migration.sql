-- Admin reports (issue 7): messages of a period (agents productivity) read by range.
CREATE INDEX "Message_tenantId_createdAt_idx" ON "Message"("tenantId", "createdAt");
