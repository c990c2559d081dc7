-- CreateEnum
CREATE TYPE "ConversationState" AS ENUM ('waiting', 'bot', 'answered', 'outbound-started', 'closing', 'closed');

-- CreateEnum
CREATE TYPE "MessageAuthor" AS ENUM ('USER', 'CONTACT', 'SYSTEM');

-- CreateEnum
CREATE TYPE "MessageState" AS ENUM ('pending', 'sent', 'read');

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN "ticketCounter" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "UserSector" (
    "userId" INTEGER NOT NULL,
    "sectorId" UUID NOT NULL,
    "tenantId" UUID NOT NULL,

    CONSTRAINT "UserSector_pkey" PRIMARY KEY ("userId","sectorId")
);

-- CreateTable
CREATE TABLE "Contact" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "phoneNumber" VARCHAR(32),
    "phone2" VARCHAR(32),
    "organization" VARCHAR(200),
    "govId" VARCHAR(64),
    "email" VARCHAR(254),
    "customerId" INTEGER,
    "zipCode" VARCHAR(32),
    "address1" VARCHAR(300),
    "address2" VARCHAR(300),
    "city" VARCHAR(120),
    "state" VARCHAR(120),
    "country" VARCHAR(120),
    "notes" VARCHAR(5000),
    "profileImage" VARCHAR(2000),
    "fields" JSONB NOT NULL DEFAULT '{}',
    "livechatCustomFields" JSONB NOT NULL DEFAULT '{}',
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Contact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContactIdentity" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "channelId" UUID NOT NULL,
    "identifier" VARCHAR(200) NOT NULL,
    "contactId" UUID NOT NULL,

    CONSTRAINT "ContactIdentity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Channel" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "templateRequiredOnOutboundStart" BOOLEAN NOT NULL DEFAULT false,
    "entrySectorId" UUID,
    "config" JSONB NOT NULL DEFAULT '{}',
    "inboundTokenHash" VARCHAR(64),
    "credentialsEncrypted" TEXT,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Conversation" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "channelId" UUID NOT NULL,
    "sectorId" UUID,
    "userId" INTEGER,
    "state" "ConversationState" NOT NULL DEFAULT 'waiting',
    "type" VARCHAR(32) NOT NULL DEFAULT 'inbound',
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "ticketNumber" INTEGER NOT NULL,
    "unreadContactMessages" INTEGER NOT NULL DEFAULT 0,
    "contactInteracted" BOOLEAN NOT NULL DEFAULT false,
    "lastMessageAt" TIMESTAMPTZ(3),
    "timeJoin" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "timeAnswer" TIMESTAMPTZ(3),
    "closedAt" TIMESTAMPTZ(3),
    "endedBy" VARCHAR(32),
    "endReasonId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationEvent" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "author" "MessageAuthor" NOT NULL,
    "userId" INTEGER,
    "contactId" UUID,
    "content" TEXT NOT NULL DEFAULT '',
    "tags" TEXT[],
    "state" "MessageState" NOT NULL DEFAULT 'pending',
    "status" VARCHAR(16),
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "voice" BOOLEAN NOT NULL DEFAULT false,
    "replyToId" UUID,
    "annexId" UUID,
    "templateMessage" JSONB,
    "interactiveContent" JSONB,
    "externalId" VARCHAR(200),
    "errorMessage" VARCHAR(500),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StoredFile" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "originalFilename" VARCHAR(255) NOT NULL,
    "contentType" VARCHAR(128) NOT NULL,
    "size" INTEGER NOT NULL,
    "service" VARCHAR(16) NOT NULL DEFAULT 'local',
    "storageKey" VARCHAR(500) NOT NULL,
    "uploadedById" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoredFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CannedResponseCategory" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(60) NOT NULL,
    "description" VARCHAR(300),
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CannedResponseCategory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CannedResponse" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "keyword" VARCHAR(60) NOT NULL,
    "message" VARCHAR(4096) NOT NULL,
    "categoryId" UUID,
    "annexId" UUID,
    "sectorIds" UUID[],
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CannedResponse_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationReason" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ConversationReason_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationFieldDefinition" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationFieldDefinition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationFieldValue" (
    "conversationId" UUID NOT NULL,
    "fieldId" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "value" VARCHAR(2000) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ConversationFieldValue_pkey" PRIMARY KEY ("conversationId","fieldId")
);

-- CreateTable
CREATE TABLE "OutboxJob" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "queue" VARCHAR(64) NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMPTZ(3),

    CONSTRAINT "OutboxJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UserSector_tenantId_sectorId_idx" ON "UserSector"("tenantId", "sectorId");

-- CreateIndex
CREATE INDEX "Contact_tenantId_phoneNumber_idx" ON "Contact"("tenantId", "phoneNumber");

-- CreateIndex
CREATE INDEX "Contact_tenantId_name_idx" ON "Contact"("tenantId", "name");

-- CreateIndex
CREATE INDEX "Contact_tenantId_createdAt_idx" ON "Contact"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "ContactIdentity_tenantId_contactId_idx" ON "ContactIdentity"("tenantId", "contactId");

-- CreateIndex
CREATE UNIQUE INDEX "ContactIdentity_channelId_identifier_key" ON "ContactIdentity"("channelId", "identifier");

-- CreateIndex
CREATE INDEX "Channel_tenantId_workspaceId_idx" ON "Channel"("tenantId", "workspaceId");

-- CreateIndex
CREATE INDEX "Conversation_tenantId_state_priority_timeJoin_idx" ON "Conversation"("tenantId", "state", "priority" DESC, "timeJoin");

-- CreateIndex
CREATE INDEX "Conversation_tenantId_userId_state_idx" ON "Conversation"("tenantId", "userId", "state");

-- CreateIndex
CREATE INDEX "Conversation_tenantId_contactId_createdAt_idx" ON "Conversation"("tenantId", "contactId", "createdAt");

-- CreateIndex
CREATE INDEX "Conversation_tenantId_createdAt_idx" ON "Conversation"("tenantId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Conversation_tenantId_ticketNumber_key" ON "Conversation"("tenantId", "ticketNumber");

-- CreateIndex
CREATE INDEX "ConversationEvent_conversationId_at_idx" ON "ConversationEvent"("conversationId", "at");

-- CreateIndex
CREATE INDEX "ConversationEvent_tenantId_type_at_idx" ON "ConversationEvent"("tenantId", "type", "at");

-- CreateIndex
CREATE INDEX "Message_conversationId_createdAt_idx" ON "Message"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "Message_tenantId_externalId_idx" ON "Message"("tenantId", "externalId");

-- CreateIndex
CREATE INDEX "StoredFile_tenantId_createdAt_idx" ON "StoredFile"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "CannedResponseCategory_tenantId_workspaceId_idx" ON "CannedResponseCategory"("tenantId", "workspaceId");

-- CreateIndex
CREATE INDEX "CannedResponse_tenantId_workspaceId_idx" ON "CannedResponse"("tenantId", "workspaceId");

-- CreateIndex
CREATE INDEX "ConversationReason_tenantId_idx" ON "ConversationReason"("tenantId");

-- CreateIndex
CREATE INDEX "ConversationFieldDefinition_tenantId_idx" ON "ConversationFieldDefinition"("tenantId");

-- CreateIndex
CREATE INDEX "ConversationFieldValue_tenantId_idx" ON "ConversationFieldValue"("tenantId");

-- CreateIndex
CREATE INDEX "OutboxJob_dispatchedAt_createdAt_idx" ON "OutboxJob"("dispatchedAt", "createdAt");

-- AddForeignKey
ALTER TABLE "ContactIdentity" ADD CONSTRAINT "ContactIdentity_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_contactId_fkey" FOREIGN KEY ("contactId") REFERENCES "Contact"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationEvent" ADD CONSTRAINT "ConversationEvent_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationFieldValue" ADD CONSTRAINT "ConversationFieldValue_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationFieldValue" ADD CONSTRAINT "ConversationFieldValue_fieldId_fkey" FOREIGN KEY ("fieldId") REFERENCES "ConversationFieldDefinition"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
