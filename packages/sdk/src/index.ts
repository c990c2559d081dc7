export { ApiError, callRoute, createClient, type Api, type CallInput, type ClientOptions } from './http';
export { connectRealtime, type RealtimeSocket } from './socket';
export { conversationPages } from './pages';
