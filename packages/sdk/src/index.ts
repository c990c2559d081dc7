export { ApiError, callRoute, type CallInput, type ClientOptions } from './http';
export { createClient, type Api } from './client';
export { connectRealtime, type RealtimeSocket } from './socket';
export { conversationPages } from './pages';
