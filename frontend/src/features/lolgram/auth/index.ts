export { AuthProvider } from './AuthProvider';
export { useAuth, type AuthContextValue } from './auth-context';
