import { useParams } from 'react-router-dom';

export function ProfilePage() {
  const { username = '' } = useParams();
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-3 px-6 text-center">
      <h1 className="text-3xl font-black">@{username}</h1>
      <p className="text-slate-400">Profiles open here soon.</p>
    </main>
  );
}
