import { useId } from 'react';
import { STORY_CHAPTERS } from './story-chapters';
import type { JourneyEntry } from './story-state';

interface JourneyListProps {
  journey: readonly JourneyEntry[];
}

function chapterTitle(entry: JourneyEntry): string {
  return STORY_CHAPTERS.find((chapter) => chapter.id === entry.chapterId)?.title ?? entry.chapterId;
}

export function JourneyList({ journey }: JourneyListProps) {
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white/5 p-4 sm:p-5">
      <h3 id={headingId} className="text-base font-bold text-slate-100">
        Your Journey So Far
      </h3>
      {journey.length === 0 ? (
        <p className="mt-2 text-sm text-slate-400">No choices yet. Your saga awaits!</p>
      ) : (
        <ol className="mt-3 space-y-2" aria-label="Choices made">
          {journey.map((entry) => (
            <li key={entry.chapterId} className="flex gap-3 text-sm">
              <span
                aria-hidden="true"
                className="mt-1.5 size-2 shrink-0 rounded-full bg-amber-300"
              />
              <span>
                <span className="block text-xs uppercase tracking-wide text-slate-400">
                  {chapterTitle(entry)}
                </span>
                <span className="text-slate-100">
                  {entry.freeText ? `“${entry.answer}”` : entry.answer}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
