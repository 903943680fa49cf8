import { useParams } from 'react-router-dom';
import { PublicProfile } from './profile';
import { LolgramAuth } from './LolgramAuth';

export function ProfilePage() {
  const { username = '' } = useParams();
  return (
    <LolgramAuth>
      <PublicProfile key={username} username={username} />
    </LolgramAuth>
  );
}
