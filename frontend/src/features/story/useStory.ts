import { useCallback, useEffect, useReducer } from 'react';
import { STORY_CHAPTERS } from './story-chapters';
import {
  INITIAL_STORY_STATE,
  currentChapter,
  introPassage,
  isAnswered,
  isLastChapter,
  storyReducer,
} from './story-state';
import { STORY_ADVANCE_DELAY_MS } from '../../lib/ui-constants';

export function useStory() {
  const [state, dispatch] = useReducer(storyReducer, INITIAL_STORY_STATE);
  const answered = isAnswered(state);
  const last = isLastChapter(state);

  useEffect(() => {
    if (!answered || last) return;
    const timer = setTimeout(() => dispatch({ type: 'advance' }), STORY_ADVANCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [answered, last]);

  const answer = useCallback((text: string) => dispatch({ type: 'answer', answer: text }), []);
  const restart = useCallback(() => dispatch({ type: 'restart' }), []);

  return {
    chapter: currentChapter(state),
    chapterNumber: state.index + 1,
    total: STORY_CHAPTERS.length,
    journey: state.journey,
    locked: answered,
    isLast: last,
    introPassage: state.index <= 1 ? introPassage(state) : undefined,
    answer,
    restart,
  };
}
