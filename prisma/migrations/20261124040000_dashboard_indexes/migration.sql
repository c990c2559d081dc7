-- Admin dashboard (spec 002 §3): today's closed and answered sessions are ranges on these columns.
CREATE INDEX "Conversation_tenantId_closedAt_idx" ON "Conversation"("tenantId", "closedAt");
CREATE INDEX "Conversation_tenantId_timeAnswer_idx" ON "Conversation"("tenantId", "timeAnswer");
