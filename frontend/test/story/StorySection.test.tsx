// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorySection } from '../../src/features/story/StorySection';
import {
  INTRO_CHAPTER,
  STORY_CHAPTERS,
  type StoryChapter,
} from '../../src/features/story/story-chapters';
import { STORY_KEY } from '../../src/features/story/story-storage';
import { STORY_ADVANCE_DELAY_MS } from '../../src/lib/ui-constants';

function chapterAt(number: number): StoryChapter {
  const chapter = STORY_CHAPTERS[number - 1];
  if (!chapter) throw new Error(`No chapter ${number}`);
  return chapter;
}

function passDelay(ms = STORY_ADVANCE_DELAY_MS) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

function journeyItems(): string[] {
  const list = screen.queryByRole('list', { name: 'Choices made' });
  return list
    ? within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent ?? '')
    : [];
}

function submitText(text: string) {
  const input = screen.getByRole('textbox');
  fireEvent.change(input, { target: { value: text } });
  fireEvent.submit(input.closest('form') as HTMLFormElement);
}

function answerFor(chapter: StoryChapter): string {
  switch (chapter.interaction) {
    case 'choice':
      return chapter.options[0].label;
    case 'text':
      return `my answer to ${chapter.id}`;
    case 'animation':
      return chapter.buttonLabel;
  }
}

function answer(chapter: StoryChapter) {
  if (chapter.interaction === 'text') submitText(answerFor(chapter));
  else fireEvent.click(screen.getByRole('button', { name: answerFor(chapter) }));
}

function playUntil(chapterNumber: number) {
  for (let number = 1; number < chapterNumber; number += 1) {
    answer(chapterAt(number));
    passDelay();
  }
  expect(screen.getByText(`${chapterNumber} / ${STORY_CHAPTERS.length}`)).toBeTruthy();
}

function chapterNumberOf(interaction: StoryChapter['interaction']): number {
  return STORY_CHAPTERS.findIndex((chapter) => chapter.interaction === interaction) + 1;
}

const network = vi.fn(() => Promise.reject(new Error('the story must not call the network')));

beforeEach(() => {
  vi.useFakeTimers();
  network.mockClear();
  vi.stubGlobal('fetch', network);
  localStorage.clear();
  render(<StorySection />);
});

/** The page is reloaded: the story is rendered again from what the device kept. */
function reload() {
  cleanup();
  render(<StorySection />);
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('StorySection', () => {
  it('starts on the intro chapter at 1 / 8 with an empty journey', () => {
    expect(screen.getByRole('heading', { name: 'The Cultural Evolution Saga' })).toBeTruthy();
    expect(screen.getByText('1 / 8')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('1');
    expect(screen.getByRole('heading', { name: INTRO_CHAPTER.title })).toBeTruthy();
    for (const option of INTRO_CHAPTER.options) {
      expect(screen.getByRole('button', { name: option.label })).toBeTruthy();
    }
    expect(journeyItems()).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Restart the Saga' })).toBeNull();
  });

  it.each(INTRO_CHAPTER.options.map((option) => [option.label, option.passage]))(
    'shows the passage for "%s" and advances to 2 / 8 only after the delay',
    (label, passage) => {
      fireEvent.click(screen.getByRole('button', { name: label }));

      expect(screen.getByText(passage)).toBeTruthy();
      for (const other of INTRO_CHAPTER.options.filter((option) => option.label !== label)) {
        expect(screen.queryByText(other.passage)).toBeNull();
      }
      passDelay(STORY_ADVANCE_DELAY_MS - 1);
      expect(screen.getByText('1 / 8')).toBeTruthy();

      passDelay(1);
      expect(screen.getByText('2 / 8')).toBeTruthy();
      expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');
      expect(screen.getByRole('heading', { name: chapterAt(2).title })).toBeTruthy();
      expect(screen.getByText(passage)).toBeTruthy();
    },
  );

  it('locks the choices while waiting so a second click records nothing', () => {
    const [first, second] = INTRO_CHAPTER.options;
    fireEvent.click(screen.getByRole('button', { name: first.label }));

    const secondButton = screen.getByRole('button', { name: second.label }) as HTMLButtonElement;
    expect(secondButton.disabled).toBe(true);
    fireEvent.click(secondButton);
    passDelay(STORY_ADVANCE_DELAY_MS * 3);

    expect(journeyItems()).toHaveLength(1);
    expect(screen.getByText('2 / 8')).toBeTruthy();
  });

  it('records every choice, free text in quotes, in the journey list', () => {
    playUntil(4);

    const items = journeyItems();
    expect(items).toHaveLength(3);
    expect(items[0]).toContain(answerFor(chapterAt(1)));
    expect(items[1]).toContain(chapterAt(2).title);
    expect(items[1]).toContain('“my answer to language-creation”');
    expect(items[2]).toContain(answerFor(chapterAt(3)));
  });

  it('ignores free text that is blank after trimming', () => {
    const textChapter = chapterNumberOf('text');
    playUntil(textChapter);

    submitText('   ');
    passDelay();

    expect(journeyItems()).toHaveLength(textChapter - 1);
    expect(screen.getByText(`${textChapter} / 8`)).toBeTruthy();
    expect((screen.getByRole('textbox') as HTMLInputElement).disabled).toBe(false);
  });

  it('submits free text with the Enter key and trims it', async () => {
    const textChapter = chapterNumberOf('text');
    playUntil(textChapter);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });

    await user.type(screen.getByRole('textbox'), '  IYKYK{Enter}');

    expect(journeyItems().at(-1)).toContain('“IYKYK”');
    passDelay();
    expect(screen.getByText(`${textChapter + 1} / 8`)).toBeTruthy();
  });

  it('records "Continue through time" from the Time Vortex chapter', () => {
    const vortex = chapterNumberOf('animation');
    playUntil(vortex);
    expect(journeyItems().some((item) => item.includes('Continue through time'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Enter the Time Vortex' }));

    expect(journeyItems().at(-1)).toContain('Continue through time');
    passDelay();
    expect(screen.getByText(`${vortex + 1} / 8`)).toBeTruthy();
  });

  it('offers Restart and Back to Top on the last chapter only', () => {
    playUntil(7);
    expect(screen.queryByRole('button', { name: 'Restart the Saga' })).toBeNull();

    answer(chapterAt(7));
    passDelay();

    expect(screen.getByText('8 / 8')).toBeTruthy();
    expect(screen.getByRole('heading', { name: chapterAt(8).title })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restart the Saga' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to Top' })).toBeTruthy();
  });

  it('restarts the saga at 1 / 8 with an empty journey', () => {
    playUntil(8);
    answer(chapterAt(8));
    expect(journeyItems()).toHaveLength(8);

    fireEvent.click(screen.getByRole('button', { name: 'Restart the Saga' }));
    passDelay();

    expect(screen.getByText('1 / 8')).toBeTruthy();
    expect(screen.getByRole('heading', { name: INTRO_CHAPTER.title })).toBeTruthy();
    expect(journeyItems()).toEqual([]);
    expect(screen.getByText('No choices yet. Your saga awaits!')).toBeTruthy();
    const firstOption = screen.getByRole('button', { name: INTRO_CHAPTER.options[0].label });
    expect((firstOption as HTMLButtonElement).disabled).toBe(false);
  });

  it('scrolls smoothly back to the top', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    playUntil(8);

    fireEvent.click(screen.getByRole('button', { name: 'Back to Top' }));

    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });

  it('plays all eight chapters and restarts without a single call to the server', () => {
    playUntil(STORY_CHAPTERS.length);
    answer(chapterAt(STORY_CHAPTERS.length));
    passDelay();
    fireEvent.click(screen.getByRole('button', { name: 'Restart the Saga' }));
    expect(screen.getByText('1 / 8')).toBeTruthy();
    expect(network).not.toHaveBeenCalled();
  });

  it('announces chapter changes through a polite live region', () => {
    const heading = screen.getByRole('heading', { name: INTRO_CHAPTER.title });
    expect(heading.closest('[aria-live="polite"]')).not.toBeNull();
  });

  it('goes on after a reload where the reader was: the chapter, the choices, the free text and what was being typed', () => {
    const textChapter = chapterNumberOf('text');
    playUntil(textChapter + 1);
    const journey = journeyItems();
    expect(journey.some((item) => item.includes('“my answer to'))).toBe(true);

    reload();
    expect(screen.getByText(`${textChapter + 1} / 8`)).toBeTruthy();
    expect(journeyItems()).toEqual(journey);
    expect(screen.getByRole('heading', { name: chapterAt(textChapter + 1).title })).toBeTruthy();

    // A reload in the middle of typing an answer keeps what was typed.
    cleanup();
    localStorage.clear();
    render(<StorySection />);
    playUntil(textChapter);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'half a thou' } });
    reload();
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('half a thou');
  });

  it('starts over, and forgets it, when what the device kept is not a story it can go on with', () => {
    for (const kept of ['{"index":', '{"index":3,"journey":[],"draft":""}', '[]', 'null']) {
      localStorage.setItem(STORY_KEY, kept);
      reload();
      expect(screen.getByText('1 / 8')).toBeTruthy();
      expect(journeyItems()).toEqual([]);
      expect(localStorage.getItem(STORY_KEY)).toBeNull();
    }
  });

  it('forgets the kept story when the saga restarts', () => {
    playUntil(STORY_CHAPTERS.length);
    expect(localStorage.getItem(STORY_KEY)).not.toBeNull();
    answer(chapterAt(STORY_CHAPTERS.length));
    fireEvent.click(screen.getByRole('button', { name: 'Restart the Saga' }));
    expect(localStorage.getItem(STORY_KEY)).toBeNull();

    reload();
    expect(screen.getByText('1 / 8')).toBeTruthy();
  });
});
