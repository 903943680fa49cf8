import { useId, useState, type FormEvent } from 'react';
import type { TextChapter } from './story-chapters';
import { PRIMARY_BUTTON, TEXT_INPUT } from './story-styles';

interface FreeTextAnswerProps {
  chapter: TextChapter;
  disabled: boolean;
  onAnswer: (text: string) => void;
}

export function FreeTextAnswer({ chapter, disabled, onAnswer }: FreeTextAnswerProps) {
  const inputId = useId();
  const [draft, setDraft] = useState('');

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
          onChange={(event) => setDraft(event.target.value)}
          placeholder={chapter.placeholder}
          disabled={disabled}
          autoComplete="off"
          maxLength={120}
          className={TEXT_INPUT}
        />
        <button type="submit" disabled={disabled} className={`${PRIMARY_BUTTON} shrink-0`}>
          {chapter.submitLabel}
        </button>
      </div>
    </form>
  );
}
