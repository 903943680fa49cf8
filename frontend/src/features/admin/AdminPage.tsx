export function AdminPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-3 px-6 text-center">
      <h1 className="text-3xl font-black">Admin Dashboard</h1>
      <p className="text-slate-400">Moderation tools open here soon.</p>
    </main>
  );
}
