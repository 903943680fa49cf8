import { useCallback, useEffect, useReducer } from 'react';
import { STORY_CHAPTERS } from './story-chapters';
import {
  currentChapter,
  introPassage,
  isAnswered,
  isLastChapter,
  storyReducer,
} from './story-state';
import { loadStory, saveStory } from './story-storage';
import { STORY_ADVANCE_DELAY_MS } from '../../lib/ui-constants';

export function useStory() {
  // Kept on the device: a reload (or the next visit) goes on where the reader was.
  const [state, dispatch] = useReducer(storyReducer, undefined, loadStory);
  const answered = isAnswered(state);
  const last = isLastChapter(state);

  useEffect(() => saveStory(state), [state]);

  useEffect(() => {
    if (!answered || last) return;
    const timer = setTimeout(() => dispatch({ type: 'advance' }), STORY_ADVANCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [answered, last]);

  const answer = useCallback((text: string) => dispatch({ type: 'answer', answer: text }), []);
  const restart = useCallback(() => dispatch({ type: 'restart' }), []);
  const setDraft = useCallback((text: string) => dispatch({ type: 'draft', text }), []);

  return {
    chapter: currentChapter(state),
    chapterNumber: state.index + 1,
    total: STORY_CHAPTERS.length,
    journey: state.journey,
    locked: answered,
    isLast: last,
    introPassage: state.index <= 1 ? introPassage(state) : undefined,
    draft: state.draft,
    answer,
    setDraft,
    restart,
  };
}
