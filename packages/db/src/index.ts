export { createDb, databaseAnswers, type Db } from './client';
export { runMigrations, ensureDatabase, listMigrations, MIGRATIONS_DIR } from './migrations';
export { hashPassword, verifyPassword, dummyPasswordHash } from './password';
export { scoped, type ScopedDb, type TenantScope } from './scoped';
export { Prisma } from '../generated/prisma/client';
export type * from '../generated/prisma/client';
export * as enums from '../generated/prisma/enums';
export { ensureTenant, ALL_FEATURES_ON, PLATFORM_TENANT_NAME, type TenantSpec, type CreatedTenant } from './fixtures';
export { compactConversationTally, keptConversationCount, tallyCovers, TALLY_COMPACT_KEYS, type TallyFilter } from './conversation-tally';
export {
  enqueue,
  enqueueMany,
  enqueueSql,
  checkJob,
  OutboxPayloadError,
  type JobPayload,
  type OutboxQueue,
  type OutboxWriter,
  type SqlJobPayload,
  type JobCheck,
  lockUndispatchedJobs,
  markJobsDispatched,
} from './outbox';
export {
  channelHoldingIdentity,
  liveChannelsByIdentity,
  liveChannelById,
  providerChannelRow,
  liveEmailChannel,
  workspaceChannel,
  listWorkspaceChannels,
  entryPointNames,
  entryPointExists,
  insertChannel,
  updateChannelRow,
  softDeleteChannel,
  workspaceChannelsOfPages,
  type ChannelRecord,
} from './channels';
export { settleInterruptedSends, releaseUnknownSubscribers } from './campaign-subscribers';
export {
  mailboxChannels,
  leaseMailbox,
  releaseMailbox,
  mailboxPosition,
  restartMailbox,
  takeMailboxMessage,
  type MailboxChannel,
  type MailboxPosition,
} from './email-mailboxes';
export { storeSubmissionStatus, templateForProviderReport, storeProviderStatus } from './templates';
export { lockUserRow, setActingSession, liveSessionIds, isSessionLive } from './sessions';
export {
  claimMessageForPosting,
  releaseMessagePosting,
  failPostingWithUnknownOutcome,
  messageForDelivery,
  markMessageSent,
  markMessageFailed,
  assignedAgentUuid,
  type MessageForDelivery,
  outboundMessageByExternalId,
  markFailedByProvider,
  storeDeliveryStatus,
  sentMessagesToContactUpTo,
  contactIdOfIdentity,
  messageExists,
  earlierProviderMessages,
  providerMessageById,
  annexFile,
  contactIdentifierOn,
  lastContactMessageOn,
} from './message-posting';
export {
  noLiveSessionWhere,
  deleteSessionsExpiredBefore,
  usersWithoutLiveSession,
  signedOffUsersHoldingChats,
  pruneDispatchedOutbox,
} from './maintenance';
export { liveSectorId, sectorTicketSettings, sectorRef } from './sectors';
export * from './reports';
export * from './campaigns';
export * from './campaign-reports';
export * from './dnd-lists';
export {
  findCampaignSubscriber,
  campaignSubscriberById,
  listCampaignSubscribersPage,
  moveSubscriberState,
  deletePendingSubscriber,
} from './campaign-subscribers';
export {
  templateInclude,
  templateRowById,
  liveChannelTemplate,
  listWorkspaceTemplates,
  insertTemplate,
  findLiveTemplateByName,
  findLiveWorkspaceTemplate,
  liveCampaignsUsingTemplate,
  markCampaignActionsOutdated,
  updateTemplateComponents,
  markTemplateDeleted,
  templateForSync,
  finishTemplateSync,
  templateDeletedAt,
  channelsWithLiveTemplates,
  type TemplateRow,
  type TemplateListFilter,
  type NewTemplate,
  type TemplateSyncResult,
} from './templates';
export * from './workspace';
export * from './automations';
export * from './menus';
export * from './surveys';
export * from './api-tokens';
export * from './bots';
export * from './stored-files';
export * from './opening-hours';
export * from './canned';
export * from './conversation-fields';
export * from './agents';
export * from './conversations';
export {
  findSector,
  sectorNameTaken,
  listSectorPage,
  insertSector,
  updateSectorFields,
  sectorDependents,
  softDeleteSector,
  type SectorRow,
  type SectorFields,
} from './sectors';
export * from './conversation-reasons';
export * from './pauses';
export * from './dashboard';
export * from './campaign-dispatch';
export * from './campaign-broadcast';
export * from './users';
export * from './tenants';
export * from './campaign-replies';
export * from './inbound';
export {
  sessionHolder,
  signInCandidates,
  countLiveUsersWithEmail,
  liveAccountsWithEmail,
  recordLoginEvents,
  userWithTenant,
  liveUserByUuid,
  openUserSession,
  countLiveSessions,
  revokeUserSessions,
  type SessionHolderRow,
} from './sessions';
export * from './subscriber-import';
export * from './contacts';
export * from './livechat';
export * from './system-messages';
export * from './messages';
export * from './conversation-lists';
