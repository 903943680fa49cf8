import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import characterPressed from '../../src/features/game/assets/character-pressed.svg';
import { TapCharacter } from '../../src/features/game/TapCharacter';
import { FLOATING_PLUS_ONE_MS } from '../../src/lib/ui-constants';

function renderCharacter() {
  const onTap = vi.fn();
  render(<TapCharacter onTap={onTap} />);
  const character = screen.getByTestId('tap-character');
  const image = character.querySelector('img') as HTMLImageElement;
  return { onTap, character, isPressed: () => image.getAttribute('src') === characterPressed };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('TapCharacter', () => {
  it('shows the pressed image and the ring while pressed, and taps once per press', () => {
    const { onTap, character, isPressed } = renderCharacter();
    expect(isPressed()).toBe(false);
    expect(screen.queryByTestId('tap-ring')).not.toBeInTheDocument();
    fireEvent.pointerDown(character);
    expect(onTap).toHaveBeenCalledTimes(1);
    expect(isPressed()).toBe(true);
    expect(screen.getByTestId('tap-ring')).toBeInTheDocument();
    fireEvent.pointerUp(character);
    expect(isPressed()).toBe(false);
    expect(screen.queryByTestId('tap-ring')).not.toBeInTheDocument();
  });

  it('floats a "+1" per tap that goes after 1 s', () => {
    const { character } = renderCharacter();
    fireEvent.pointerDown(character);
    fireEvent.pointerUp(character);
    expect(screen.getByTestId('plus-one')).toHaveTextContent('+1');
    act(() => vi.advanceTimersByTime(FLOATING_PLUS_ONE_MS / 2));
    fireEvent.pointerDown(character);
    expect(screen.getAllByTestId('plus-one')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(FLOATING_PLUS_ONE_MS / 2));
    expect(screen.getAllByTestId('plus-one')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(FLOATING_PLUS_ONE_MS / 2));
    expect(screen.queryByTestId('plus-one')).not.toBeInTheDocument();
  });

  it.each(['mouseUp', 'mouseLeave', 'touchEnd', 'touchCancel'] as const)(
    'ends the press on %s',
    (end) => {
      const { character, isPressed } = renderCharacter();
      fireEvent.pointerDown(character);
      expect(isPressed()).toBe(true);
      fireEvent[end](character);
      expect(isPressed()).toBe(false);
      expect(screen.queryByTestId('tap-ring')).not.toBeInTheDocument();
    },
  );

  it.each([
    ['Space', ' '],
    ['Enter', 'Enter'],
  ])('taps from the keyboard with %s and ignores key repeat', (_name, key) => {
    const { onTap, character, isPressed } = renderCharacter();
    fireEvent.keyDown(character, { key });
    expect(onTap).toHaveBeenCalledTimes(1);
    expect(isPressed()).toBe(true);
    fireEvent.keyDown(character, { key, repeat: true });
    fireEvent.keyDown(character, { key, repeat: true });
    expect(onTap).toHaveBeenCalledTimes(1);
    fireEvent.keyUp(character, { key });
    expect(isPressed()).toBe(false);
    fireEvent.keyDown(character, { key });
    expect(onTap).toHaveBeenCalledTimes(2);
  });

  it('does not tap on other keys', () => {
    const { onTap, character } = renderCharacter();
    fireEvent.keyDown(character, { key: 'a' });
    expect(onTap).not.toHaveBeenCalled();
  });

  it('taps once for a touch, whatever compatibility events the browser adds', () => {
    const { onTap, character, isPressed } = renderCharacter();
    fireEvent.pointerDown(character, { pointerType: 'touch' });
    fireEvent.touchStart(character);
    fireEvent.pointerUp(character, { pointerType: 'touch' });
    fireEvent.touchEnd(character);
    fireEvent.mouseDown(character);
    fireEvent.mouseUp(character);
    fireEvent.click(character);
    expect(onTap).toHaveBeenCalledTimes(1);
    expect(isPressed()).toBe(false);
  });
});
