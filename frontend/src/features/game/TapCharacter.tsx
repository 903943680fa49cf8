import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import character from './assets/character.svg';
import characterPressed from './assets/character-pressed.svg';
import { cn } from '../../lib/cn';
import { EARLY_PRESS_ATTRIBUTE } from '../../lib/early-clicks';
import { FLOATING_PLUS_ONE_MS } from '../../lib/ui-constants';

interface Burst {
  id: number;
  x: number;
}

/**
 * The character to tap. Only pointer-down taps: it covers mouse, pen and touch in one path, so a
 * touch never also fires a mouse tap; Space and Enter tap from the keyboard. While pressed it
 * shows the pressed image and a ring pulse; each tap floats a "+1" for its own second. Every way a
 * press can end (mouse-up, leave, touch-end, touch-cancel, their pointer twins, key-up) ends it.
 */
export function TapCharacter({
  onTap,
  disabled = false,
}: {
  /** Answers false for a tap the screen did not count (the allowance is empty): no "+1". */
  onTap: () => boolean | void;
  disabled?: boolean;
}) {
  const [pressed, setPressed] = useState(false);
  const [bursts, setBursts] = useState<Burst[]>([]);
  const [ring, setRing] = useState(0);
  const nextId = useRef(0);

  const fire = useCallback(
    (x: number) => {
      // Still focusable (a disabled button would drop the focus), but no tap and no "+1".
      if (disabled) return;
      if (onTap() === false) return;
      nextId.current += 1;
      const id = nextId.current;
      setBursts((current) => [...current.slice(-12), { id, x }]);
      setRing(id);
      setTimeout(
        () => setBursts((current) => current.filter((b) => b.id !== id)),
        FLOATING_PLUS_ONE_MS,
      );
    },
    [onTap, disabled],
  );

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    const box = event.currentTarget.getBoundingClientRect();
    setPressed(true);
    fire(((event.clientX - box.left) / box.width) * 100 || 50);
  };
  const release = () => setPressed(false);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== ' ' && event.key !== 'Enter') return;
    event.preventDefault();
    if (event.repeat) return;
    setPressed(true);
    fire(50);
  };

  return (
    <button
      type="button"
      aria-label="Tap the character to earn a point"
      data-testid="tap-character"
      // A press before the page has hydrated is held and given to it once it has (see main.tsx).
      {...{ [EARLY_PRESS_ATTRIBUTE]: '' }}
      aria-disabled={disabled || undefined}
      className={cn(
        // touch-action none: a finger on the character taps and nothing else (no scroll, no
        // zoom); each finger is a pointer, so two fingers tap twice. No text selection or callout.
        'relative mx-auto block aspect-square w-64 touch-none select-none rounded-full [-webkit-touch-callout:none] sm:w-80',
        disabled && 'opacity-50 grayscale',
      )}
      onPointerDown={onPointerDown}
      onPointerUp={release}
      onPointerLeave={release}
      onPointerCancel={release}
      onMouseUp={release}
      onMouseLeave={release}
      onTouchEnd={release}
      onTouchCancel={release}
      onKeyDown={onKeyDown}
      onKeyUp={release}
      onContextMenu={(event) => event.preventDefault()}
    >
      {/* The glow: a shadow of the character's disc (drawn outside it only), not a drop-shadow
          filter on the image, as Chromium does not count an image under a filter as the page's
          largest paint, which the character, in the page's HTML, is. */}
      <span
        aria-hidden="true"
        className={`pointer-events-none absolute inset-[3%] rounded-full shadow-[0_20px_40px_rgba(251,191,36,0.35)] transition-transform duration-75 ${
          pressed ? 'scale-95' : ''
        }`}
      />
      {pressed && (
        <span
          key={ring}
          aria-hidden="true"
          data-testid="tap-ring"
          className="pointer-events-none absolute inset-0 animate-ring rounded-full border-8 border-amber-300"
        />
      )}
      <img
        src={pressed ? characterPressed : character}
        alt=""
        draggable={false}
        className={`h-full w-full transition-transform duration-75 ${
          pressed ? 'scale-95' : 'hover:scale-[1.02]'
        }`}
      />
      {bursts.map((burst) => (
        <span
          key={burst.id}
          aria-hidden="true"
          data-testid="plus-one"
          className="pointer-events-none absolute top-1/4 animate-float-up text-4xl font-black text-amber-200 drop-shadow"
          style={{ left: `${burst.x}%` }}
        >
          +1
        </span>
      ))}
    </button>
  );
}
