import { useId } from 'react';
import { JourneyList } from './JourneyList';
import { StoryChapterView } from './StoryChapterView';
import { StoryProgress } from './StoryProgress';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from './story-styles';
import { useStory } from './useStory';

function scrollToTop() {
  const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: 0, behavior: still ? 'auto' : 'smooth' });
}

export function StorySection() {
  const headingId = useId();
  const story = useStory();

  return (
    <section
      aria-labelledby={headingId}
      className="mx-auto w-full max-w-3xl overflow-hidden rounded-3xl border border-white/10 bg-slate-900/80 text-slate-100 shadow-2xl shadow-fuchsia-950/40"
    >
      <div
        aria-hidden="true"
        className="h-1.5 bg-linear-to-r from-fuchsia-500 via-amber-400 to-cyan-400"
      />
      <div className="flex flex-col gap-6 p-5 sm:p-8">
        <header className="flex flex-col gap-4">
          <h2
            id={headingId}
            className="bg-linear-to-r from-fuchsia-400 via-amber-300 to-cyan-300 bg-clip-text text-2xl font-black tracking-tight text-transparent sm:text-3xl"
          >
            The Cultural Evolution Saga
          </h2>
          <StoryProgress chapterNumber={story.chapterNumber} total={story.total} />
        </header>

        <StoryChapterView
          chapter={story.chapter}
          introPassage={story.introPassage}
          locked={story.locked}
          draft={story.draft}
          onDraft={story.setDraft}
          onAnswer={story.answer}
        />

        {story.isLast && (
          <div className="flex flex-col items-center gap-4 border-t border-white/10 pt-5">
            <p role="status" className="text-center text-sm text-slate-300">
              {story.locked ? 'The saga is complete. Thanks for laughing along!' : ''}
            </p>
            <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
              <button type="button" onClick={story.restart} className={PRIMARY_BUTTON}>
                Restart the Saga
              </button>
              <button type="button" onClick={scrollToTop} className={SECONDARY_BUTTON}>
                Back to Top
              </button>
            </div>
          </div>
        )}

        <JourneyList journey={story.journey} />
      </div>
    </section>
  );
}
