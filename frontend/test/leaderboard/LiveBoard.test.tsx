import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHANGE_HIGHLIGHT_MS,
  LiveBoard,
  type BoardRow,
} from '../../src/features/leaderboard/LiveBoard';

const row = (key: string, points: number): BoardRow => ({ key, label: key, points });

function renderBoard(rows: BoardRow[] | undefined) {
  const view = render(<LiveBoard title="Top Players" empty="No players yet!" rows={rows} />);
  return {
    rerender: (next: BoardRow[] | undefined) =>
      view.rerender(<LiveBoard title="Top Players" empty="No players yet!" rows={next} />),
  };
}

const rowOf = (label: string) =>
  screen.getAllByTestId('board-row').find((li) => within(li).queryByText(label)) as HTMLElement;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('LiveBoard', () => {
  it('shows the top 10 rows numbered from 1', () => {
    renderBoard(Array.from({ length: 12 }, (_, i) => row(`p${i + 1}`, 100 - i)));
    const rows = screen.getAllByTestId('board-row');
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent(/^1p1100$/);
    expect(rows[9]).toHaveTextContent(/^10p1091$/);
    expect(screen.queryByText('p11')).not.toBeInTheDocument();
  });

  it('shows the empty text once loaded with no rows, and nothing while loading', () => {
    const { rerender } = renderBoard(undefined);
    expect(screen.queryByText('No players yet!')).not.toBeInTheDocument();
    rerender([]);
    expect(screen.getByText('No players yet!')).toBeInTheDocument();
  });

  it('holds the height of 10 rows while loading, then fits the rows it has', () => {
    const { rerender } = renderBoard(undefined);
    const list = screen.getByRole('list', { name: 'Top Players' });
    expect(list).toHaveAttribute('aria-busy', 'true');
    expect(list.style.getPropertyValue('--slots')).toBe('10');
    rerender([row('alice', 10), row('bob', 5)]);
    expect(list).toHaveAttribute('aria-busy', 'false');
    expect(list.style.getPropertyValue('--slots')).toBe('2');
  });

  it('highlights a row that moved up and clears the highlight after its duration', () => {
    const { rerender } = renderBoard([row('alice', 10), row('bob', 5)]);
    expect(screen.queryByLabelText('moved up')).not.toBeInTheDocument();
    rerender([row('bob', 20), row('alice', 10)]);
    expect(rowOf('bob')).toHaveAttribute('data-change', 'up');
    expect(within(rowOf('bob')).getByLabelText('moved up')).toBeInTheDocument();
    expect(rowOf('alice')).not.toHaveAttribute('data-change');
    act(() => vi.advanceTimersByTime(CHANGE_HIGHLIGHT_MS));
    expect(rowOf('bob')).not.toHaveAttribute('data-change');
    expect(screen.queryByLabelText('moved up')).not.toBeInTheDocument();
  });

  it('highlights new points, and a re-render with the same rows does not keep it on', () => {
    const { rerender } = renderBoard([row('alice', 10), row('bob', 5)]);
    rerender([row('alice', 10), row('bob', 7)]);
    expect(rowOf('bob')).toHaveAttribute('data-change', 'points');
    act(() => vi.advanceTimersByTime(CHANGE_HIGHLIGHT_MS / 2));
    rerender([row('alice', 10), row('bob', 7)]);
    act(() => vi.advanceTimersByTime(CHANGE_HIGHLIGHT_MS / 2));
    expect(rowOf('bob')).not.toHaveAttribute('data-change');
  });
});
