export function LolgramPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-3 px-6 text-center">
      <h1 className="text-4xl font-black">LOLGram</h1>
      <p className="text-slate-400">The feed of the internet&apos;s best LOLs opens here soon.</p>
    </main>
  );
}
