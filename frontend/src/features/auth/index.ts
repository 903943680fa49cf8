export { AuthProvider } from './AuthProvider';
export { useAuth } from './useAuth';
export { NoSuchAccountError } from './auth-api';
export { meQuery } from './me-query';
export { useLiveConnect, useLiveEvent } from './useLive';
export { signedInBefore } from './session-storage';
