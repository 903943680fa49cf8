export { AuthProvider } from './AuthProvider';
export { useAuth } from './useAuth';
export { meQuery } from './me-query';
export { useLiveConnect, useLiveEvent } from './useLive';
