// The security log's public entry: what other modules may use of it. Its plugin (plugin.ts,
// `app.deps.securityLog`) and its table (schema.ts) are reached directly.

export { describeDevice, describeMoment } from './describe-device.js';
export { findSignInEventOf } from './repository.js';
export { clientOf, type EventClient, NO_CLIENT } from './request-client.js';
export type {
  NewDeviceListener,
  NewDeviceSignIn,
  SecurityLog,
  SignInEvent,
} from './security-log-service.js';
