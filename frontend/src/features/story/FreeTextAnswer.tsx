import { useId, type FormEvent } from 'react';
import type { TextChapter } from './story-chapters';
import { STORY_TEXT_MAX } from './story-storage';
import { PRIMARY_BUTTON, TEXT_INPUT } from './story-styles';

interface FreeTextAnswerProps {
  chapter: TextChapter;
  disabled: boolean;
  /** What is typed, kept with the story (a reload keeps it too). */
  draft: string;
  onDraft: (text: string) => void;
  onAnswer: (text: string) => void;
}

export function FreeTextAnswer({
  chapter,
  disabled,
  draft,
  onDraft,
  onAnswer,
}: FreeTextAnswerProps) {
  const inputId = useId();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onAnswer(draft);
  }

  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-3">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-200">
        {chapter.prompt}
      </label>
      <div className="flex flex-col gap-3 sm:flex-row">
        <input
          id={inputId}
          type="text"
          value={draft}
          onChange={(event) => onDraft(event.target.value)}
          placeholder={chapter.placeholder}
          disabled={disabled}
          autoComplete="off"
          maxLength={STORY_TEXT_MAX}
          className={TEXT_INPUT}
        />
        <button type="submit" disabled={disabled} className={`${PRIMARY_BUTTON} shrink-0`}>
          {chapter.submitLabel}
        </button>
      </div>
    </form>
  );
}
