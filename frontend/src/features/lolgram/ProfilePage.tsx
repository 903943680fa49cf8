import { useParams } from 'react-router-dom';
import { AuthProvider } from '../auth';
import { PublicProfile } from './profile/PublicProfile';

export function ProfilePage() {
  const { username = '' } = useParams();
  return (
    <AuthProvider>
      <PublicProfile key={username} username={username} />
    </AuthProvider>
  );
}
