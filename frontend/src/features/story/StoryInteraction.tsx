import type { StoryChapter } from './story-chapters';
import { FreeTextAnswer } from './FreeTextAnswer';
import { OPTION_BUTTON, PRIMARY_BUTTON } from './story-styles';

interface StoryInteractionProps {
  chapter: StoryChapter;
  disabled: boolean;
  draft: string;
  onDraft: (text: string) => void;
  onAnswer: (answer: string) => void;
}

export function StoryInteraction({
  chapter,
  disabled,
  draft,
  onDraft,
  onAnswer,
}: StoryInteractionProps) {
  switch (chapter.interaction) {
    case 'choice':
      return (
        <ul className="grid gap-3">
          {chapter.options.map((option) => (
            <li key={option.label}>
              <button
                type="button"
                disabled={disabled}
                onClick={() => onAnswer(option.label)}
                className={OPTION_BUTTON}
              >
                {option.label}
              </button>
            </li>
          ))}
        </ul>
      );
    case 'text':
      return (
        <FreeTextAnswer
          chapter={chapter}
          disabled={disabled}
          draft={draft}
          onDraft={onDraft}
          onAnswer={onAnswer}
        />
      );
    case 'animation':
      return (
        <div className="flex flex-col items-center gap-5 py-2">
          <div
            aria-hidden="true"
            className="size-24 rounded-full bg-conic from-fuchsia-500 via-amber-300 to-cyan-400 p-1 motion-safe:animate-[spin_4s_linear_infinite]"
          >
            <div className="size-full rounded-full bg-slate-900/90" />
          </div>
          <button
            type="button"
            disabled={disabled}
            onClick={() => onAnswer(chapter.choice)}
            className={`${PRIMARY_BUTTON} px-6 text-base`}
          >
            {chapter.buttonLabel}
          </button>
        </div>
      );
  }
}
