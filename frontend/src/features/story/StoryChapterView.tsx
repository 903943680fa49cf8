import { useEffect, useRef } from 'react';
import type { StoryChapter } from './story-chapters';
import { StoryInteraction } from './StoryInteraction';

interface StoryChapterViewProps {
  chapter: StoryChapter;
  introPassage: string | undefined;
  locked: boolean;
  draft: string;
  onDraft: (text: string) => void;
  onAnswer: (answer: string) => void;
}

export function StoryChapterView({
  chapter,
  introPassage,
  locked,
  draft,
  onDraft,
  onAnswer,
}: StoryChapterViewProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownChapter = useRef(chapter.id);

  // The answered control disappears when the chapter changes, so keyboard focus moves to the new heading.
  useEffect(() => {
    if (shownChapter.current === chapter.id) return;
    shownChapter.current = chapter.id;
    headingRef.current?.focus();
  }, [chapter.id]);

  return (
    <div aria-live="polite" className="flex flex-col gap-4">
      {introPassage && (
        <p className="rounded-2xl border-l-4 border-amber-300 bg-amber-300/10 px-4 py-3 text-sm italic text-amber-50">
          {introPassage}
        </p>
      )}
      <h3
        ref={headingRef}
        tabIndex={-1}
        className="text-xl font-bold text-white focus:outline-none sm:text-2xl"
      >
        {chapter.title}
      </h3>
      {chapter.paragraphs.map((paragraph) => (
        <p key={paragraph} className="leading-relaxed text-slate-300">
          {paragraph}
        </p>
      ))}
      <div className="pt-2">
        <StoryInteraction
          key={chapter.id}
          chapter={chapter}
          disabled={locked}
          draft={draft}
          onDraft={onDraft}
          onAnswer={onAnswer}
        />
      </div>
    </div>
  );
}
