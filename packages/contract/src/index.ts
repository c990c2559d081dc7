export * from './route';
export * from './errors';
export * from './common';
export * from './roles';
export * from './tenants';
export * from './users';
export * from './realtime';
export * from './jobs';
export * from './health';
export * from './contacts';
export * from './conversations';
export * from './messages';
import * as tenants from './tenants';
import * as users from './users';
import { health } from './health';
import * as contacts from './contacts';
import * as conversations from './conversations';
import * as messages from './messages';

/** Every route of the api, for the sdk and the OpenAPI document. */
export const routes = {
  health,
  login: users.login,
  loginWithCode: users.loginWithCode,
  logout: users.logout,
  getMe: users.getMe,
  updateMe: users.updateMe,
  updateUser: users.updateUser,
  listUsers: users.listUsers,
  deleteUser: users.deleteUser,
  getLoginQrCode: users.getLoginQrCode,
  getMyTenant: tenants.getMyTenant,
  listTenants: tenants.listTenants,
  getTenant: tenants.getTenant,
  configureTenant: tenants.configureTenant,
  getMyWorkspace: tenants.getMyWorkspace,
  updateMyWorkspace: tenants.updateMyWorkspace,
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
  downloadFile: messages.downloadFile,
  downloadSignedFile: messages.downloadSignedFile,
} as const;
export type Routes = typeof routes;
