-- GET /api/v2/conversations pages newest first, by (createdAt, id) and, with a keyset cursor, after
-- a (createdAt, id) position (issue 13 item 6). With these the page is read in index order straight
-- from its position: a supervisor's page at any depth, and an agent's own list, without a sort.

-- Supervisors: the workspace's conversations.
CREATE INDEX "Conversation_tenantId_workspaceId_createdAt_id_idx" ON "Conversation"("tenantId", "workspaceId", "createdAt", "id");

-- Agents (and user_id filters): their own.
CREATE INDEX "Conversation_tenantId_userId_createdAt_id_idx" ON "Conversation"("tenantId", "userId", "createdAt", "id");
