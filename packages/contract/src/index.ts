export * from './route';
export * from './errors';
export * from './field-messages';
export * from './email-subject';
export * from './common';
export * from './roles';
export * from './tenants';
export * from './users';
export * from './realtime';
export * from './jobs';
export * from './health';
export * from './contacts';
export * from './message-details';
export * from './conversations';
export * from './messages';
export * from './channels';
export * from './channel-setup';
export * from './channel-capabilities';
export * from './sms-segments';
export * from './livechat';
export * from './user-pattern';
export * from './templates';
export * from './campaigns';
export * from './reports';
export * from './sectors';
export * from './dashboard';
export * from './surveys';
export * from './menus';
export * from './integrations';
export * from './automations';
export * from './admin-reports';
export * from './bots';
export * from './settings-rules';
export * from './settings';
export * from './opening-hours';
import * as tenants from './tenants';
import * as users from './users';
import * as livechat from './livechat';
import { health } from './health';
import * as contacts from './contacts';
import * as conversations from './conversations';
import * as messages from './messages';
import * as channels from './channels';
import * as channelSetup from './channel-setup';
import * as templates from './templates';
import * as campaigns from './campaigns';
import * as reports from './reports';
import * as sectors from './sectors';
import * as dashboard from './dashboard';
import * as surveys from './surveys';
import * as menus from './menus';
import * as integrations from './integrations';
import * as automations from './automations';
import * as adminReports from './admin-reports';
import * as bots from './bots';
import * as settings from './settings';
import * as openingHours from './opening-hours';

/** Every route of the api, for the sdk and the OpenAPI document. */
export const routes = {
  health,
  login: users.login,
  loginWithCode: users.loginWithCode,
  logout: users.logout,
  getMe: users.getMe,
  updateMe: users.updateMe,
  updateUser: users.updateUser,
  resetUserPassword: users.resetUserPassword,
  getUserSectors: users.getUserSectors,
  setUserSectors: users.setUserSectors,
  listUsers: users.listUsers,
  createUser: users.createUser,
  deleteUser: users.deleteUser,
  getLoginQrCode: users.getLoginQrCode,
  getDomainSwitchJwt: users.getDomainSwitchJwt,
  loginWithDomainSwitchJwt: users.loginWithDomainSwitchJwt,
  getSignInOptions: users.getSignInOptions,
  requestPasswordReset: users.requestPasswordReset,
  resetPasswordWithCode: users.resetPasswordWithCode,
  getMyTenant: tenants.getMyTenant,
  listTenants: tenants.listTenants,
  getTenant: tenants.getTenant,
  configureTenant: tenants.configureTenant,
  createTenant: tenants.createTenant,
  getMyWorkspace: tenants.getMyWorkspace,
  updateMyWorkspace: tenants.updateMyWorkspace,
  getOpeningHours: openingHours.getOpeningHours,
  updateOpeningHours: openingHours.updateOpeningHours,
  listConversations: conversations.listConversations,
  getConversation: conversations.getConversation,
  getWaitingQueue: conversations.getWaitingQueue,
  getOfferedToMe: conversations.getOfferedToMe,
  getTransferDestinations: conversations.getTransferDestinations,
  acceptConversation: conversations.acceptConversation,
  updateConversation: conversations.updateConversation,
  replaceConversation: conversations.replaceConversation,
  getConversationHistory: conversations.getConversationHistory,
  startConversation: conversations.startConversation,
  listContactConversations: conversations.listContactConversations,
  listConversationReasons: conversations.listConversationReasons,
  listPauses: conversations.listPauses,
  listMessages: messages.listMessages,
  sendMessage: messages.sendMessage,
  markMessages: messages.markMessages,
  getMessage: messages.getMessage,
  receiveChannelMessage: messages.receiveChannelMessage,
  getChannelMessage: messages.getChannelMessage,
  createContact: contacts.createContact,
  updateContact: contacts.updateContact,
  listContacts: contacts.listContacts,
  getContact: contacts.getContact,
  deleteContact: contacts.deleteContact,
  getContactJourney: contacts.getContactJourney,
  getContactJourneyEvent: contacts.getContactJourneyEvent,
  listConversationFieldDefinitions: conversations.listConversationFieldDefinitions,
  createConversationFieldDefinition: conversations.createConversationFieldDefinition,
  getConversationFields: conversations.getConversationFields,
  setConversationField: conversations.setConversationField,
  listChannelCannedResponses: messages.listChannelCannedResponses,
  uploadFile: messages.uploadFile,
  uploadFileFromUrl: messages.uploadFileFromUrl,
  downloadFile: messages.downloadFile,
  downloadSignedFile: messages.downloadSignedFile,
  listChannels: channels.listChannels,
  getChannel: channels.getChannel,
  createChannel: channels.createChannel,
  updateChannel: channels.updateChannel,
  updateChannelToCloudApi: channels.updateChannelToCloudApi,
  getWhatsAppWebConnection: channels.getWhatsAppWebConnection,
  deleteChannel: channels.deleteChannel,
  startMetaSetup: channelSetup.startMetaSetup,
  listMetaSetupPages: channelSetup.listMetaSetupPages,
  connectMetaSetup: channelSetup.connectMetaSetup,
  getLivechatConfig: livechat.getLivechatConfig,
  startLivechatSession: livechat.startLivechatSession,
  sendLivechatMessage: livechat.sendLivechatMessage,
  sendLivechatVoice: livechat.sendLivechatVoice,
  listLivechatMessages: livechat.listLivechatMessages,
  listTemplates: templates.listTemplates,
  listChannelTemplates: templates.listChannelTemplates,
  createTemplate: templates.createTemplate,
  updateTemplate: templates.updateTemplate,
  deleteTemplate: templates.deleteTemplate,
  listCampaigns: campaigns.listCampaigns,
  getCampaign: campaigns.getCampaign,
  listCampaignEntrypoints: campaigns.listCampaignEntrypoints,
  createCampaign: campaigns.createCampaign,
  updateCampaign: campaigns.updateCampaign,
  deleteCampaign: campaigns.deleteCampaign,
  setCampaignDesiredState: campaigns.setCampaignDesiredState,
  duplicateCampaign: campaigns.duplicateCampaign,
  testSendCampaign: campaigns.testSendCampaign,
  listSubscribers: campaigns.listSubscribers,
  importSubscribers: campaigns.importSubscribers,
  downloadSubscribersTemplate: campaigns.downloadSubscribersTemplate,
  updateSubscriber: campaigns.updateSubscriber,
  resendUnknownSubscribers: campaigns.resendUnknownSubscribers,
  deleteSubscriber: campaigns.deleteSubscriber,
  listDndLists: campaigns.listDndLists,
  createDndList: campaigns.createDndList,
  updateDndList: campaigns.updateDndList,
  deleteDndList: campaigns.deleteDndList,
  listDndContacts: campaigns.listDndContacts,
  removeDndContact: campaigns.removeDndContact,
  addContactToDnd: campaigns.addContactToDnd,
  campaignSubscribersReport: reports.campaignSubscribersReport,
  campaignSummaryReport: reports.campaignSummaryReport,
  listSectors: sectors.listSectors,
  listDashboardConversations: dashboard.listDashboardConversations,
  getDashboardStats: dashboard.getDashboardStats,
  listSectorSla: dashboard.listSectorSla,
  listSurveys: surveys.listSurveys,
  getSurvey: surveys.getSurvey,
  createSurvey: surveys.createSurvey,
  updateSurvey: surveys.updateSurvey,
  deleteSurvey: surveys.deleteSurvey,
  listAutomatedMenus: menus.listAutomatedMenus,
  createAutomatedMenu: menus.createAutomatedMenu,
  updateAutomatedMenu: menus.updateAutomatedMenu,
  deleteAutomatedMenu: menus.deleteAutomatedMenu,
  listOAuthTokens: integrations.listOAuthTokens,
  createOAuthToken: integrations.createOAuthToken,
  deleteOAuthToken: integrations.deleteOAuthToken,
  getIntegrations: integrations.getIntegrations,
  getVoicePhone: integrations.getVoicePhone,
  updateIntegrations: integrations.updateIntegrations,
  listAutomations: automations.listAutomations,
  getAutomation: automations.getAutomation,
  createAutomation: automations.createAutomation,
  updateAutomation: automations.updateAutomation,
  deleteAutomation: automations.deleteAutomation,
  listAutomationConditions: automations.listAutomationConditions,
  addAutomationCondition: automations.addAutomationCondition,
  removeAutomationCondition: automations.removeAutomationCondition,
  listAutomationOperations: automations.listAutomationOperations,
  addAutomationOperation: automations.addAutomationOperation,
  removeAutomationOperation: automations.removeAutomationOperation,
  agentsProductivityReport: adminReports.agentsProductivityReport,
  conversationSummaryReport: adminReports.conversationSummaryReport,
  conversationTrendsReport: adminReports.conversationTrendsReport,
  conversationMetricsReport: adminReports.conversationMetricsReport,
  loginHistoryReport: adminReports.loginHistoryReport,
  chatHistoryReport: adminReports.chatHistoryReport,
  botsReport: adminReports.botsReport,
  surveysReport: adminReports.surveysReport,
  listBots: bots.listBots,
  getBot: bots.getBot,
  createBot: bots.createBot,
  updateBot: bots.updateBot,
  deleteBot: bots.deleteBot,
  botHistory: bots.botHistory,
  createSector: sectors.createSector,
  updateSector: sectors.updateSector,
  deleteSector: sectors.deleteSector,
  createPause: settings.createPause,
  updatePause: settings.updatePause,
  deletePause: settings.deletePause,
  createConversationReason: settings.createConversationReason,
  updateConversationReason: settings.updateConversationReason,
  deleteConversationReason: settings.deleteConversationReason,
  listCannedCategories: settings.listCannedCategories,
  createCannedCategory: settings.createCannedCategory,
  updateCannedCategory: settings.updateCannedCategory,
  deleteCannedCategory: settings.deleteCannedCategory,
  listCannedResponses: settings.listCannedResponses,
  createCannedResponse: settings.createCannedResponse,
  updateCannedResponse: settings.updateCannedResponse,
  deleteCannedResponse: settings.deleteCannedResponse,
} as const;
export type Routes = typeof routes;
